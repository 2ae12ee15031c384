#include "RankSubsetLoad.h"

#include "LoadPlan.h"
#include "SnapshotAccess.h"
#include "TraceMerge.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace at {

namespace {

// Runs beside one rank's load: the user's cancel reaches the rank's own LoadControl, and the rank's
// progress shows as its share of the whole subset's bytes.
class RankProgress
{
public:
    RankProgress(LoadControl &whole, LoadControl &rank, std::uint64_t base, std::uint64_t share)
        : m_whole(whole), m_rank(rank), m_base(base), m_share(share), m_thread([this] { run(); })
    {}
    ~RankProgress()
    {
        {
            const std::lock_guard lock(m_mutex);
            m_finished = true;
        }
        m_wake.notify_all();
        m_thread.join();
        forward();
    }
    RankProgress(const RankProgress &) = delete;
    RankProgress &operator=(const RankProgress &) = delete;

private:
    void forward()
    {
        if (m_whole.cancel && !m_rank.cancel)
            m_rank.cancel = true;
        const std::uint64_t total = m_rank.bytesTotal.load();
        const std::uint64_t done = std::min(m_rank.bytesDone.load(), total);
        const double part = total == 0 ? 0.0 : static_cast<double>(done) / static_cast<double>(total);
        m_whole.bytesDone = m_base + static_cast<std::uint64_t>(part * static_cast<double>(m_share));
    }
    void run()
    {
        std::unique_lock lock(m_mutex);
        while (!m_wake.wait_for(lock, std::chrono::milliseconds(20), [this] { return m_finished; }))
            forward();
    }

    LoadControl &m_whole;
    LoadControl &m_rank;
    const std::uint64_t m_base, m_share;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_finished = false;
    std::thread m_thread; // last: started once the members above exist
};

LoadResult failedWith(LoadStop stop, const QString &error = {})
{
    LoadResult result;
    result.stop = stop;
    result.error = error;
    return result;
}

} // namespace

LoadResult loadRankSubset(const QString &path, const LoadOptions &options, LoadControl &control)
{
    // The cluster's plan with the subset: which rank folders hold a timeline (in the detector's order, as
    // one run would read them), their byte totals, and the notices about the subset.
    const LoadPlan plan = planLoad(path, options);
    const PlannedRun *run = plan.chosen();
    if (!run)
        return failedWith(LoadStop::Error, plan.error);
    std::vector<std::uint64_t> shares;
    std::uint64_t total = 0;
    for (const PlannedSource &planned : run->sources) {
        std::uint64_t bytes = 0;
        for (const InputReader *reader : planned.readers)
            bytes += reader->bytesToRead(planned.source);
        shares.push_back(bytes);
        total += bytes;
    }
    control.bytesTotal = total;
    control.bytesDone = 0;

    // Each rank is an ordinary load of its folder: its own snapshot, its own warnings (the subset's
    // notices are said once, below).
    LoadOptions rankOptions = options;
    rankOptions.rankFolders.clear();
    rankOptions.notices.clear();
    QStringList warnings = plan.notices + options.notices;
    std::vector<std::unique_ptr<TraceModel>> models;
    QStringList failures, reopened;
    std::uint64_t base = 0;
    bool memoryStop = false;
    for (std::size_t i = 0; i < run->sources.size(); ++i) {
        const DataSource &source = run->sources[i].source;
        const QString folder = source.rootPath;
        if (control.cancel)
            return failedWith(LoadStop::UserCancel);
        if (memoryStop) {
            warnings << QCoreApplication::translate("Parser", "%1: not loaded (the memory limit was reached)")
                            .arg(folder);
            continue;
        }
        LoadControl rank;
        LoadResult loaded;
        {
            const RankProgress progress(control, rank, base, shares[i]);
            loaded = loadTrace(folder, rankOptions, rank);
        }
        base += shares[i];
        control.bytesDone = base;
        if (loaded.cancelled() || control.cancel)
            return failedWith(LoadStop::UserCancel);
        if (!loaded.model) {
            failures << loaded.error;
            warnings << QCoreApplication::translate("Parser", "%1: not loaded: %2").arg(folder, loaded.error);
            continue;
        }
        if (loaded.stop == LoadStop::MemoryLimit) {
            memoryStop = true;
            control.memoryLimitReached = true;
        }
        // The cluster's label for the rank: detected alone, a rank folder loses what its parents tell
        // (a rank id in a node folder's name, the relative path that tells equal labels apart). The build
        // appended the device to the label it had alone (TraceBuilder::labelDevices); the plan's gets it too.
        if (auto &groups = SnapshotAccess::groups(*loaded.model);
            groups.size() == 1 && !source.label.isEmpty()) {
            QString &label = groups.front().label;
            const QString deviceSuffix = QStringLiteral(" / Device ");
            if (label != source.label && !label.startsWith(source.label + deviceSuffix)) {
                const qsizetype at = label.lastIndexOf(deviceSuffix);
                const bool planNamesDevice = source.label.contains(QLatin1String("Device"));
                label = source.label + (at > 0 && !planNamesDevice ? label.mid(at) : QString());
            }
        }
        if (loaded.fromSnapshot) // (loadTrace logged it under at.snapshot)
            reopened << folder;
        // The rank's own warnings, once, each naming the rank (a count such as "3 flow starts have no
        // finish" is per rank now).
        const QString name = QFileInfo(folder).fileName();
        for (const QString &w : loaded.model->warnings()) {
            if (plan.notices.contains(w) || options.notices.contains(w))
                continue;
            const bool named = w.contains(name) ||
                               (!source.label.isEmpty() && w.startsWith(source.label + QLatin1Char(':')));
            warnings << (named ? w : QStringLiteral("%1: %2").arg(name, w));
        }
        models.push_back(std::move(loaded.model));
    }
    if (models.empty())
        return failedWith(LoadStop::Error, failures.join(QStringLiteral("; ")));
    LoadResult result;
    MergeOptions merge;
    merge.warnings = warnings;
    result.model = mergeModels(std::move(models), std::move(merge));
    result.stop = memoryStop ? LoadStop::MemoryLimit : LoadStop::None;
    result.ranksFromSnapshot = reopened;
    result.fromSnapshot = reopened.size() == static_cast<qsizetype>(run->sources.size());
    control.bytesDone = control.bytesTotal.load();
    return result;
}

} // namespace at
