// `ascend-timeline --advise PATH [--json]`: the Insights findings on the command line, computed by the
// same checks over the same model as the Insights panel (core/insights).

#include "CommandLine.h"

#include "FindingJson.h"
#include "FindingText.h"
#include "InsightChecks.h"
#include "cluster/ClusterReader.h"

#include <QDir>
#include <QFileInfo>
#include <QTextStream>

#include <algorithm>

namespace at {

namespace {

bool isRankFolder(const QString &name)
{
    return name.endsWith(QLatin1String("ascend_pt")) || name.endsWith(QLatin1String("ascend_ms"));
}

// The folder a group was read from, lifted to its rank folder when it lies inside one
// (…/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT → …/rank0_ascend_pt).
QString rankFolderOf(const QString &path)
{
    QDir dir(QFileInfo(path).absoluteFilePath());
    for (int up = 0; up < 3; ++up) {
        if (isRankFolder(dir.dirName()))
            return dir.absolutePath();
        if (!dir.cdUp())
            break;
    }
    return QFileInfo(path).absoluteFilePath();
}

QString commonAncestor(const QString &a, const QString &b)
{
    const QStringList pa = a.split(QLatin1Char('/')), pb = b.split(QLatin1Char('/'));
    QStringList common;
    for (qsizetype i = 0; i < std::min(pa.size(), pb.size()) && pa[i] == pb[i]; ++i)
        common << pa[i];
    return common.join(QLatin1Char('/'));
}

QString canonicalFolder(const QString &path)
{
    const QString c = QFileInfo(path).canonicalFilePath();
    return c.isEmpty() ? QFileInfo(path).absoluteFilePath() : c;
}

} // namespace

QString communicationDataRoot(const TraceModel &model)
{
    QString root;
    for (const SourceGroup &group : model.groups()) {
        if (group.path.isEmpty() || !QFileInfo(group.path).isDir())
            return {}; // a file opened on its own: no rank folder around it is implied
        const QString folder = rankFolderOf(group.path);
        root = root.isEmpty() ? folder : commonAncestor(root, folder);
    }
    return root == QLatin1String("/") ? QString() : root;
}

std::shared_ptr<const cluster::ClusterModel>
communicationDataFrom(const std::shared_ptr<const cluster::ClusterModel> &cluster, const QString &root)
{
    if (!cluster || root.isEmpty())
        return nullptr;
    const QString folder = canonicalFolder(root);
    if (canonicalFolder(cluster->root) == folder)
        return cluster;
    // One rank folder (a rank opened from the cluster page): readCluster would find that rank alone. More
    // ranks under a subfolder of the cluster are read again: their groups would have to be re-derived.
    const auto rank = std::find_if(cluster->ranks.begin(), cluster->ranks.end(), [&](const cluster::Rank &r) {
        return canonicalFolder(r.folder) == folder;
    });
    if (rank == cluster->ranks.end())
        return nullptr;
    auto one = std::make_shared<cluster::ClusterModel>();
    one->root = rank->folder;
    one->ranks = {*rank};
    for (const cluster::ParallelGroup &g : cluster->groups)
        if (std::find(g.globalRanks.begin(), g.globalRanks.end(), rank->rank) != g.globalRanks.end())
            one->groups.push_back(g);
    one->distributed = cluster->distributed;
    for (const QString &w : cluster->warnings)
        if (w.contains(rank->folder))
            one->warnings << w;
    return one;
}

std::shared_ptr<const cluster::ClusterModel> readCommunicationData(const TraceModel &model,
                                                                   std::uint64_t memoryLimitBytes)
{
    const QString root = communicationDataRoot(model);
    if (root.isEmpty())
        return nullptr;
    auto data = std::make_shared<cluster::ClusterModel>(cluster::readCluster(root, {{}, memoryLimitBytes}));
    if (data->ranks.empty())
        return nullptr;
    return data;
}

std::function<std::shared_ptr<const cluster::ClusterModel>(const TraceModel &)>
communicationReader(std::shared_ptr<const cluster::ClusterModel> cluster, std::uint64_t memoryLimitBytes)
{
    return [cluster = std::move(cluster), memoryLimitBytes](const TraceModel &model) {
        const QString root = communicationDataRoot(model);
        if (auto known = communicationDataFrom(cluster, root))
            return known;
        return readCommunicationData(model, memoryLimitBytes);
    };
}

bool loadAnalysisInput(const QString &path, const CommandLineOptions &options, QTextStream &err,
                       AnalysisInput &input)
{
    if (cluster::isClusterFolder(path)) {
        auto ranks = std::make_shared<cluster::ClusterModel>(
            cluster::readCluster(path, {{}, options.load.memoryLimitBytes}));
        if (std::any_of(ranks->ranks.begin(), ranks->ranks.end(),
                        [](const cluster::Rank &r) { return !r.hasTimeline; })) {
            input.model = std::make_unique<TraceModel>();
            input.cluster = std::move(ranks);
            return true;
        }
    }
    input.model = loadForCommand(path, options, err);
    if (!input.model)
        return false;
    input.cluster = readCommunicationData(*input.model, options.load.memoryLimitBytes);
    return true;
}

int runAdvise(const CommandLineOptions &options)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    if (options.paths.size() != 1) {
        err << "ascend-timeline: --advise needs exactly one PATH\n";
        return 2;
    }
    AnalysisInput input;
    if (!loadAnalysisInput(options.paths.first(), options, err, input))
        return 1;
    const std::unique_ptr<TraceModel> &model = input.model;
    const std::shared_ptr<const cluster::ClusterModel> &data = input.cluster;
    for (const QString &warning : model->warnings())
        err << "warning: " << warning << "\n";
    if (data)
        for (const QString &warning : data->warnings)
            err << "warning: " << warning << "\n";
    const InsightContext context(*model, data.get());
    std::vector<Finding> withoutTime;
    const std::vector<Finding> findings = runInsightChecks(*model, nullptr, data.get(), &withoutTime);
    if (options.json) {
        out << QString::fromUtf8(findingsToJson(context, findings));
        return 0;
    }
    const QString alsoChecked = alsoCheckedText(withoutTime);
    if (findings.empty())
        out << "No findings: none of the " << insightChecks().size() << " checks found a problem.\n";
    // The first five occurrences of each: the panel and --advise --json list them all.
    constexpr std::size_t kOccurrencesShown = 5;
    int index = 0;
    for (const Finding &f : findings)
        out << findingText(context, f, ++index, kOccurrencesShown);
    if (!alsoChecked.isEmpty())
        out << alsoChecked << "\n";
    return 0;
}

} // namespace at
