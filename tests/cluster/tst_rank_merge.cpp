// Issue 18 item 5: ranks opened together are loaded each from its own folder (its own snapshot, the one
// `--prepare` writes) and merged into one model (core/TraceMerge). The oracle is the former load of the
// subset by one plan into one builder (loadRanksAsOneRun): on the real samples both must give the same
// model, compared here lane by lane and slice by slice. Also: the snapshots a subset writes and reuses,
// progress over every rank, cancel, and a rank that cannot be loaded.
#include "ClusterRankFixtures.h"
#include "LoadMemoryGuard.h"
#include "ModelComparison.h"
#include "Steps.h"
#include "TestPaths.h"
#include "TiledTrace.h"
#include "TraceBuilder.h"
#include "TraceLoader.h"
#include "TraceMerge.h"
#include "snapshot/SnapshotCache.h"

#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <thread>
#include <typeinfo>

using namespace at;
using namespace at::test;

namespace {

// A count warning of build() ("12 flow starts have no finish") is per rank in the merged model, named by its
// rank folder; the one load's warning sums them.
const QRegularExpression kCountWarning(QStringLiteral("^(\\d+) (.*)$"));
const QRegularExpression kRankCountWarning(QStringLiteral("^([^:]+_ascend_pt): (\\d+) (.*)$"));

void compareWarnings(const QStringList &old, const QStringList &merged)
{
    std::map<QString, long long> oldCounts, mergedCounts;
    QStringList oldOther, mergedOther;
    for (const QString &w : old)
        if (const auto m = kCountWarning.match(w); m.hasMatch())
            oldCounts[m.captured(2)] += m.captured(1).toLongLong();
        else
            oldOther << w;
    for (const QString &w : merged)
        if (const auto m = kRankCountWarning.match(w); m.hasMatch())
            mergedCounts[m.captured(3)] += m.captured(2).toLongLong();
        else
            mergedOther << w;
    QCOMPARE(mergedOther, oldOther);
    QCOMPARE(mergedCounts, oldCounts);
}

// The two models must be the same profile: every field of TraceModel compared through names and times
// (the merge numbers processes, threads and strings differently), warnings with counts summed per rank.
void compareModels(const TraceModel &a, const TraceModel &b)
{
    test::compareModels(a, b, {test::ModelComparison::Identity::ByPlace, 0, compareWarnings});
}

QStringList rankFolders(const QString &cluster, const QStringList &names)
{
    QStringList folders;
    for (const QString &name : names)
        folders << QDir(cluster).filePath(name);
    return folders;
}

QStringList snapshotFiles(const QString &dir)
{
    return QDir(dir).entryList({QStringLiteral("*.atsnap")}, QDir::Files, QDir::Name);
}

} // namespace

class TstRankMerge : public QObject
{
    Q_OBJECT

    static void compareWithOneRun(const QString &cluster, const QStringList &names,
                                  PreferredSource source = PreferredSource::Text)
    {
        LoadOptions options;
        options.preferredSource = source;
        options.rankFolders = rankFolders(cluster, names);
        LoadControl oneRunControl, mergedControl;
        const LoadResult oneRun = loadRanksAsOneRun(cluster, options, oneRunControl);
        QVERIFY2(oneRun.model, qPrintable(oneRun.error));
        const LoadResult merged = loadTrace(cluster, options, mergedControl);
        QVERIFY2(merged.model, qPrintable(merged.error));
        QCOMPARE(merged.stop, LoadStop::None);
        QVERIFY(!merged.fromSnapshot);
        QCOMPARE(merged.model->groups().size(), static_cast<std::size_t>(names.size()));
        compareModels(*oneRun.model, *merged.model);
        // Both loads report the same bytes.
        QCOMPARE(mergedControl.bytesTotal.load(), oneRunControl.bytesTotal.load());
        QCOMPARE(mergedControl.bytesDone.load(), mergedControl.bytesTotal.load());
    }

private slots:
    // The 2-rank AlexNet folder (trace_view.json, kernel_details.csv, memory CSVs, flows, HCCL lanes).
    void alexnetTextRanksEqualOneRun()
    {
        compareWithOneRun(alexnetTextCluster(),
                          {QStringLiteral("rank0_ascend_pt"), QStringLiteral("rank1_ascend_pt")});
    }

    // A subset of one rank, from its profiler database (--source db; the sample's database cluster has one
    // rank): the same path, a merge of one model.
    void alexnetDatabaseRankEqualsOneRun()
    {
        compareWithOneRun(alexnetDbCluster(), {QStringLiteral("rank0_ascend_pt")}, PreferredSource::Database);
    }

    // Qwen3 ranks 0 and 2: device tasks drawn from kernel_details.csv, ranks on devices 0 and 4.
    void qwen3KernelRowRanksEqualOneRun()
    {
        compareWithOneRun(qwen3Cluster(),
                          {QStringLiteral("rank_0_ascend_pt"), QStringLiteral("rank_2_ascend_pt")});
    }

    // The merge on its own: a model with a later origin first, so the first model's times move too; the
    // ranks are given in the other order and every group, lane and time still matches the one load's.
    void mergeMovesTheFirstModelToTheEarlierOrigin()
    {
        const QString cluster = alexnetTextCluster();
        LoadOptions options;
        LoadControl c0, c1, c2;
        LoadResult r0 = loadTrace(cluster + QStringLiteral("/rank0_ascend_pt"), options, c0);
        LoadResult r1 = loadTrace(cluster + QStringLiteral("/rank1_ascend_pt"), options, c1);
        QVERIFY(r0.model && r1.model);
        QVERIFY(r0.model->origin() != r1.model->origin());
        const bool rank1First = r1.model->origin() > r0.model->origin();
        const TimeNs expectedOrigin = std::min(r0.model->origin(), r1.model->origin());
        const TimeNs laterOrigin = std::max(r0.model->origin(), r1.model->origin());
        const TimeNs laterEnd = rank1First ? r1.model->dataEnd() : r0.model->dataEnd();
        std::vector<std::unique_ptr<TraceModel>> models;
        models.push_back(std::move(rank1First ? r1.model : r0.model));
        models.push_back(std::move(rank1First ? r0.model : r1.model));
        const std::unique_ptr<TraceModel> merged = mergeModels(std::move(models));
        QVERIFY(merged);
        QCOMPARE(merged->origin(), expectedOrigin);
        QCOMPARE(merged->dataBegin(), TimeNs(0));
        QVERIFY(merged->dataEnd() >= laterEnd + (laterOrigin - expectedOrigin));
        // The first group is the later rank; its first slice now sits at its absolute time − merged origin.
        LoadControl c3;
        LoadResult alone = loadTrace(merged->groups()[0].path, options, c3);
        QVERIFY(alone.model);
        const SliceTable &first = alone.model->threads()[0].slices;
        const SliceTable &moved = merged->threads()[0].slices;
        QCOMPARE(moved.size(), first.size());
        QVERIFY(first.size() > 0);
        QCOMPARE(moved.start(0) + merged->origin(), first.start(0) + alone.model->origin());
        QCOMPARE(merged->groups().size(), std::size_t(2));
    }

    // Kernel tables with different metric columns: the merged matrix has the union (matched by header, in
    // order of appearance) with NaN where a rank has no such column; string ids are re-interned.
    void mergeKernelColumnsByHeader()
    {
        auto model = [](const char *label, TimeNs start,
                        const std::vector<std::pair<QString, double>> &metrics) {
            TraceBuilder builder;
            SourceGroup group;
            group.label = QString::fromLatin1(label);
            const int g = builder.addGroup(group);
            const int thread = builder.thread(builder.numberKey(1), builder.numberKey(2));
            const StringId name = builder.strings().intern(label); // a name only this model has
            builder.addSlice(thread, start, 1000, name, 0, kNoSource);
            KernelRecord row;
            row.group = g;
            row.start = start + 5000;
            row.duration = 10;
            row.name = builder.strings().intern(std::string(label) + " kernel");
            const std::size_t r = builder.kernels().addRow(row);
            for (const auto &[header, value] : metrics)
                builder.kernels().setMetric(r, builder.kernels().addColumn({header, header, {}, {}}), value);
            return builder.build();
        };
        std::vector<std::unique_ptr<TraceModel>> models;
        models.push_back(model("Rank 0", 2'000'000, {{QStringLiteral("x(us)"), 1.5}}));
        models.push_back(
            model("Rank 1", 1'000'000, {{QStringLiteral("y(us)"), 2.0}, {QStringLiteral("x(us)"), 3.0}}));
        const std::unique_ptr<TraceModel> merged = mergeModels(std::move(models));
        QVERIFY(merged);
        QCOMPARE(merged->origin(), TimeNs(1'000'000));
        const KernelTable &k = merged->kernels();
        QCOMPARE(k.columns().size(), std::size_t(2));
        QCOMPARE(k.columns()[0].header, QStringLiteral("x(us)"));
        QCOMPARE(k.columns()[1].header, QStringLiteral("y(us)"));
        QCOMPARE(k.size(), std::size_t(2));
        QCOMPARE(k.metric(0, 0), 1.5);
        QVERIFY(std::isnan(k.metric(0, 1)));
        QCOMPARE(k.metric(1, 0), 3.0);
        QCOMPARE(k.metric(1, 1), 2.0);
        QCOMPARE(k.rows()[0].group, 0);
        QCOMPARE(k.rows()[1].group, 1);
        QCOMPARE(k.rows()[0].start, TimeNs(1'005'000)); // 2,005,000 absolute
        QCOMPARE(k.rows()[1].start, TimeNs(5'000));
        QCOMPARE(merged->strings().qstring(k.rows()[1].name), QStringLiteral("Rank 1 kernel"));
        QCOMPARE(merged->threads().size(), std::size_t(2));
        QCOMPARE(merged->threads()[1].process, 1);
        QCOMPARE(merged->processes()[1].group, 1);
        QCOMPARE(merged->processes()[1].threads, std::vector<int>{1});
        QCOMPARE(merged->strings().qstring(merged->threads()[1].slices.name(0)), QStringLiteral("Rank 1"));
        QCOMPARE(merged->threads()[0].slices.start(0), TimeNs(1'000'000));
        QCOMPARE(merged->processOrder(), (std::vector<int>{0, 1}));
        QCOMPARE(merged->dataEnd(), TimeNs(1'001'000));
    }

    // Two synthetic ranks with exact times: rank 1 starts earlier, so rank 0's times move by the difference
    // of the origins; each rank's count warnings are its own, named by its folder, and sum to the one load's;
    // a B without E runs to the end of its own rank (the one load ran it to the end of every rank).
    void syntheticRanksOnOneOrigin()
    {
        QTemporaryDir work;
        const QString cluster = work.path();
        writeTextFile(cluster + QStringLiteral("/rank0_ascend_pt/profiler_info_0.json"), "{}");
        writeTextFile(cluster + QStringLiteral("/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"),
                      R"([{"ph":"M","name":"process_name","pid":1,"args":{"name":"Python"}},
{"ph":"X","name":"a","pid":1,"tid":1,"ts":"1700000000001000.000","dur":10},
{"ph":"s","name":"f","cat":"async","id":"7","pid":1,"tid":1,"ts":"1700000000001001.000"}])");
        writeTextFile(cluster + QStringLiteral("/rank1_ascend_pt/profiler_info_1.json"), "{}");
        writeTextFile(cluster + QStringLiteral("/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"),
                      R"([{"ph":"M","name":"process_name","pid":1,"args":{"name":"Python"}},
{"ph":"X","name":"b","pid":1,"tid":1,"ts":"1700000000000500.250","dur":2.5},
{"ph":"s","name":"f","cat":"async","id":"9","pid":1,"tid":1,"ts":"1700000000000500.500"},
{"ph":"B","name":"open","pid":1,"tid":2,"ts":"1700000000000600.000"},
{"ph":"X","name":"c","pid":1,"tid":1,"ts":"1700000000000700.000","dur":1}])");
        LoadOptions options;
        options.rankFolders =
            rankFolders(cluster, {QStringLiteral("rank0_ascend_pt"), QStringLiteral("rank1_ascend_pt")});
        LoadControl control, oneRunControl;
        const LoadResult merged = loadTrace(cluster, options, control);
        QVERIFY2(merged.model, qPrintable(merged.error));
        const TraceModel &m = *merged.model;
        QCOMPARE(m.groups().size(), std::size_t(2));
        QCOMPARE(m.groups()[0].label, QStringLiteral("Rank 0"));
        QCOMPARE(m.origin(), TimeNs(1700000000000500250));
        QCOMPARE(m.dataBegin(), TimeNs(0));
        QCOMPARE(m.dataEnd(), TimeNs(1700000000001010000 - 1700000000000500250));
        auto sliceNamed = [&m](const char *name) { return uniqueSlice(m, QString::fromLatin1(name)); };
        const SliceRef a = sliceNamed("a"), b = sliceNamed("b"), c = sliceNamed("c"),
                       open = sliceNamed("open");
        QVERIFY(a.isValid() && b.isValid() && c.isValid() && open.isValid());
        auto table = [&m](SliceRef ref) -> const SliceTable & {
            return m.threads()[static_cast<std::size_t>(ref.thread)].slices;
        };
        QCOMPARE(
            m.processes()[static_cast<std::size_t>(m.threads()[static_cast<std::size_t>(a.thread)].process)]
                .group,
            0);
        QCOMPARE(
            m.processes()[static_cast<std::size_t>(m.threads()[static_cast<std::size_t>(b.thread)].process)]
                .group,
            1);
        QCOMPARE(table(a).start(a.index), TimeNs(1700000000001000000 - 1700000000000500250));
        QCOMPARE(table(a).duration(a.index), TimeNs(10000));
        QCOMPARE(table(b).start(b.index), TimeNs(0));
        QCOMPARE(table(b).duration(b.index), TimeNs(2500));
        QCOMPARE(table(open).start(open.index), TimeNs(1700000000000600000 - 1700000000000500250));
        QCOMPARE(table(open).duration(open.index), TimeNs(101000)); // to c's end, rank 1's last moment
        QCOMPARE(m.warnings(),
                 (QStringList{QStringLiteral("rank0_ascend_pt: 1 flow starts have no finish"),
                              QStringLiteral("rank1_ascend_pt: 1 B (begin) events have no matching E; "
                                             "they are shown running to the end of the trace"),
                              QStringLiteral("rank1_ascend_pt: 1 flow starts have no finish")}));
        const LoadResult oneRun = loadRanksAsOneRun(cluster, options, oneRunControl);
        QVERIFY(oneRun.model);
        QCOMPARE(oneRun.model->origin(), m.origin());
        compareWarnings(oneRun.model->warnings(), m.warnings());
    }

    // Rank folders whose rank id only their parents' names tell (rank_3/x_ascend_pt, profiler_info.json
    // without a rank): each rank loaded alone keeps the cluster's label for it, as one run gives it.
    void labelsFromTheClusterPlan()
    {
        QTemporaryDir work;
        const QString cluster = work.path();
        const char *trace = R"([{"ph":"X","name":"k","pid":1,"tid":1,"ts":"1700000000001000.000","dur":10}])";
        for (const char *rank : {"rank_3/x_ascend_pt", "rank_5/y_ascend_pt"}) {
            const QString folder = cluster + QLatin1Char('/') + QString::fromLatin1(rank);
            writeTextFile(folder + QStringLiteral("/profiler_info.json"), "{}");
            writeTextFile(folder + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json"), trace);
        }
        LoadOptions options;
        options.rankFolders = rankFolders(
            cluster, {QStringLiteral("rank_3/x_ascend_pt"), QStringLiteral("rank_5/y_ascend_pt")});
        LoadControl control, oneRunControl;
        const LoadResult oneRun = loadRanksAsOneRun(cluster, options, oneRunControl);
        QVERIFY2(oneRun.model, qPrintable(oneRun.error));
        const LoadResult merged = loadTrace(cluster, options, control);
        QVERIFY2(merged.model, qPrintable(merged.error));
        QCOMPARE(merged.model->groups().size(), std::size_t(2));
        QVERIFY2(merged.model->groups()[0].label.startsWith(QStringLiteral("Rank 3")),
                 qPrintable(merged.model->groups()[0].label));
        QVERIFY2(merged.model->groups()[1].label.startsWith(QStringLiteral("Rank 5")),
                 qPrintable(merged.model->groups()[1].label));
        for (std::size_t g = 0; g < 2; ++g)
            QCOMPARE(merged.model->groups()[g].label, oneRun.model->groups()[g].label);
    }

    // Opening {r0, r1} writes exactly the ranks' own snapshots (the files opening each rank alone and
    // `--prepare` use); a later subset with a cached rank reopens it, and the model is still the one load's.
    void subsetUsesPerRankSnapshots()
    {
        QTemporaryDir work, cacheDir;
        const QString cluster = tiledAlexnetCluster(work.path(), 3);
        QVERIFY(!cluster.isEmpty());
        const QString cache = cacheDir.path() + QStringLiteral("/cache");
        const QStringList r =
            rankFolders(cluster, {QStringLiteral("rank0_ascend_pt"), QStringLiteral("rank1_ascend_pt"),
                                  QStringLiteral("rank2_ascend_pt")});
        LoadOptions options;
        options.useSnapshotCache = true;
        options.snapshotDirectory = cache;
        options.rankFolders = {r[0], r[1]};
        LoadControl cold;
        const LoadResult first = loadTrace(cluster, options, cold);
        QVERIFY2(first.model, qPrintable(first.error));
        QVERIFY(!first.fromSnapshot);
        QVERIFY(first.ranksFromSnapshot.isEmpty());
        QStringList expected;
        for (const QString &folder : {r[0], r[1]})
            expected << QFileInfo(snapshot::pathFor(folder, PreferredSource::Text, cache)).fileName();
        expected.sort();
        QCOMPARE(snapshotFiles(cache), expected);

        // Rank 0 opened alone reopens the snapshot the subset wrote.
        LoadOptions alone = options;
        alone.rankFolders.clear();
        LoadControl aloneControl;
        const LoadResult rank0 = loadTrace(r[0], alone, aloneControl);
        QVERIFY(rank0.model && rank0.fromSnapshot);

        // Rank 2 prepared by the real binary (`--prepare`): its snapshot is the one the next subset reopens.
        QProcess prepare;
        prepare.start(at::test::appBinary(),
                      {QStringLiteral("--prepare"), r[2], QStringLiteral("--cache"), cache});
        QVERIFY(prepare.waitForFinished(120000));
        QVERIFY2(prepare.exitCode() == 0, prepare.readAllStandardError().constData());
        QVERIFY(snapshotFiles(cache).contains(
            QFileInfo(snapshot::pathFor(r[2], PreferredSource::Text, cache)).fileName()));
        QCOMPARE(snapshotFiles(cache).size(), 3);

        // {r1, r2}: both cached, nothing parsed.
        options.rankFolders = {r[1], r[2]};
        LoadControl warm;
        const LoadResult second = loadTrace(cluster, options, warm);
        QVERIFY2(second.model, qPrintable(second.error));
        QVERIFY(second.fromSnapshot);
        QCOMPARE(second.ranksFromSnapshot, (QStringList{r[1], r[2]}));
        QCOMPARE(snapshotFiles(cache).size(), 3);
        LoadOptions plain;
        plain.rankFolders = options.rankFolders;
        LoadControl oneRunControl;
        const LoadResult oneRun = loadRanksAsOneRun(cluster, plain, oneRunControl);
        QVERIFY(oneRun.model);
        compareModels(*oneRun.model, *second.model);
        QCOMPARE(warm.bytesDone.load(), warm.bytesTotal.load());
        QCOMPARE(warm.bytesTotal.load(), oneRunControl.bytesTotal.load());

        // {r0, r1, r2} after rank 0's trace changed: rank 0 is parsed again, ranks 1 and 2 reopened.
        const QString trace = r[0] + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json");
        QFile file(trace);
        QVERIFY(file.open(QIODevice::Append));
        file.write("\n");
        file.close();
        options.rankFolders = r;
        LoadControl mixed;
        const LoadResult third = loadTrace(cluster, options, mixed);
        QVERIFY(third.model);
        QVERIFY(!third.fromSnapshot);
        QCOMPARE(third.ranksFromSnapshot, (QStringList{r[1], r[2]}));
        QCOMPARE(third.model->groups().size(), std::size_t(3));
        QCOMPARE(snapshotFiles(cache).size(), 3); // rank 0's snapshot rewritten under the same name
    }

    // Progress counts every rank's bytes and never goes back; the total is what one load of the subset
    // reports.
    void progressCoversEveryRank()
    {
        const QString cluster = alexnetTextCluster();
        LoadOptions options;
        options.rankFolders =
            rankFolders(cluster, {QStringLiteral("rank0_ascend_pt"), QStringLiteral("rank1_ascend_pt")});
        std::uint64_t rankBytes = 0;
        for (const QString &folder : options.rankFolders) {
            LoadControl alone;
            LoadOptions rankOnly;
            QVERIFY(loadTrace(folder, rankOnly, alone).model);
            QVERIFY(alone.bytesTotal.load() > 0);
            rankBytes += alone.bytesTotal.load();
        }
        LoadControl control;
        std::atomic<bool> done{false};
        std::vector<std::pair<std::uint64_t, std::uint64_t>> seen;
        std::thread watcher([&] {
            while (!done) {
                seen.emplace_back(control.bytesDone.load(), control.bytesTotal.load());
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
            }
        });
        const LoadResult result = loadTrace(cluster, options, control);
        done = true;
        watcher.join();
        QVERIFY(result.model);
        QCOMPARE(control.bytesTotal.load(), rankBytes);
        QCOMPARE(control.bytesDone.load(), rankBytes);
        std::uint64_t last = 0;
        for (const auto &[bytes, total] : seen) {
            if (total != rankBytes)
                continue; // before the plan set the total
            QVERIFY2(bytes >= last, "progress went back");
            QVERIFY(bytes <= total);
            last = bytes;
        }
    }

    // The memory limit is the whole subset's: a limit the process already passes stops the first rank, and
    // the next one is not loaded but named.
    void memoryLimitCoversTheSubset()
    {
        LoadOptions options;
        options.memoryLimitBytes = kMinimumMemoryLimit;
        options.rankFolders = rankFolders(
            alexnetTextCluster(), {QStringLiteral("rank0_ascend_pt"), QStringLiteral("rank1_ascend_pt")});
        LoadControl control;
        const LoadResult result = loadTrace(alexnetTextCluster(), options, control);
        QCOMPARE(result.stop, LoadStop::MemoryLimit);
        QVERIFY(control.memoryLimitReached);
        QVERIFY(result.model);
        QCOMPARE(result.model->groups().size(), std::size_t(1));
        QVERIFY2(!result.model->warnings()
                      .filter(options.rankFolders[1] +
                              QStringLiteral(": not loaded (the memory limit was reached)"))
                      .isEmpty(),
                 qPrintable(result.model->warnings().join(QLatin1Char('\n'))));
    }

    void cancelStopsTheSubset()
    {
        LoadOptions options;
        options.rankFolders = rankFolders(
            alexnetTextCluster(), {QStringLiteral("rank0_ascend_pt"), QStringLiteral("rank1_ascend_pt")});
        LoadControl control;
        control.cancel = true;
        const LoadResult result = loadTrace(alexnetTextCluster(), options, control);
        QVERIFY(!result.model);
        QVERIFY(result.cancelled());
    }

    // A cancel while the first rank is being parsed ends the subset's load as cancelled, with no model, and
    // the cancelled rank's snapshot is not written.
    void cancelWhileReading()
    {
        QTemporaryDir work, cacheDir;
        const QString cluster = tiledAlexnetCluster(work.path(), 2);
        QVERIFY(!cluster.isEmpty());
        const QStringList r =
            rankFolders(cluster, {QStringLiteral("rank0_ascend_pt"), QStringLiteral("rank1_ascend_pt")});
        for (const QString &folder : r) {
            const QString trace = folder + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json");
            QFile in(trace);
            QVERIFY(in.open(QIODevice::ReadOnly));
            const QByteArray tiled = tileTraceJson(in.readAll(), 40, 1'000'000);
            in.close();
            QFile out(trace);
            QVERIFY(!tiled.isEmpty() && out.open(QIODevice::WriteOnly | QIODevice::Truncate));
            QCOMPARE(out.write(tiled), tiled.size());
        }
        LoadOptions options;
        options.useSnapshotCache = true;
        options.snapshotDirectory = cacheDir.path();
        options.rankFolders = r;
        LoadControl control;
        std::atomic<bool> done{false};
        std::thread canceller([&] {
            while (!done && control.bytesDone.load() == 0)
                std::this_thread::sleep_for(std::chrono::microseconds(200));
            control.cancel = true;
        });
        const LoadResult result = loadTrace(cluster, options, control);
        done = true;
        canceller.join();
        QVERIFY(result.cancelled());
        QVERIFY(!result.model);
        QVERIFY(control.bytesDone.load() < control.bytesTotal.load());
        QVERIFY(snapshotFiles(cacheDir.path()).isEmpty());
    }

    // A rank whose timeline cannot be read (a damaged database) keeps the other with a warning naming its
    // folder; a folder that is not a rank of the cluster is named as before.
    void brokenRankKeepsTheOthers()
    {
        QTemporaryDir work;
        const QString cluster = tiledAlexnetCluster(work.path(), 2);
        QVERIFY(!cluster.isEmpty());
        const QStringList r =
            rankFolders(cluster, {QStringLiteral("rank0_ascend_pt"), QStringLiteral("rank1_ascend_pt")});
        const QString output = r[1] + QStringLiteral("/ASCEND_PROFILER_OUTPUT");
        for (const QString &name : QDir(output).entryList(QDir::Files))
            QVERIFY(QFile::remove(output + QLatin1Char('/') + name));
        writeTextFile(output + QStringLiteral("/ascend_pytorch_profiler_1.db"), "this is not a database");
        LoadOptions options;
        options.rankFolders = {r[0], r[1], cluster + QStringLiteral("/no_such_rank")};
        LoadControl control;
        const LoadResult result = loadTrace(cluster, options, control);
        QVERIFY2(result.model, qPrintable(result.error));
        QCOMPARE(result.model->groups().size(), std::size_t(1));
        QCOMPARE(result.model->groups()[0].path, r[0]);
        const QStringList warnings = result.model->warnings();
        QVERIFY2(!warnings.filter(r[1] + QStringLiteral(": not loaded:")).isEmpty(),
                 qPrintable(warnings.join(QLatin1Char('\n'))));
        QVERIFY2(!warnings.filter(QStringLiteral("no_such_rank: not a rank folder")).isEmpty(),
                 qPrintable(warnings.join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TstRankMerge)
#include "tst_rank_merge.moc"
