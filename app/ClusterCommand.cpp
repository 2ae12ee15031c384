// `ascend-timeline --cluster PATH [--ops] [--json]`: the cluster view's numbers from the ranks' summary files
// (docs/CLUSTER.md). Times in the JSON are µs written as exact decimals of the ns read from the sources.
#include "CommandLine.h"

#include "cluster/ClusterAnalysis.h"
#include "cluster/ClusterNumbers.h"
#include "cluster/ClusterReader.h"
#include "cluster/CommunicationOps.h"

#include "ExactText.h"
#include "FindingJson.h"
#include "FindingText.h"
#include "JsonWriter.h"
#include "MemoryAnalysis.h"

#include <QHash>
#include <QTextStream>

#include <algorithm>

namespace at {

namespace {

using namespace at::cluster;

constexpr qsizetype kOutputSlice = qsizetype(1) << 20; // characters written to stdout at a time

// `"step": 13`, or null without a schedule.
void writeStep(JsonWriter &j, std::int64_t step)
{
    j.key(QStringLiteral("step"));
    if (step == kNoStep)
        j.null();
    else
        j.integer(step);
}

void writeRanks(JsonWriter &j, const ClusterModel &model)
{
    const std::vector<RankCommunication> communication = rankCommunication(model);
    // Each rank's rows, found once (a scan of every rank's rows per rank was quadratic in the ranks).
    QHash<int, std::vector<const RankCommunication *>> communicationOf;
    for (const RankCommunication &c : communication)
        communicationOf[c.rank].push_back(&c);
    j.key(QStringLiteral("ranks"));
    j.beginArray();
    for (const Rank &r : model.ranks) {
        j.beginObject();
        j.integerField(QStringLiteral("rank"), r.rank);
        j.integerField(QStringLiteral("device"), r.device);
        j.integerField(QStringLiteral("stage"), r.stage);
        j.field(QStringLiteral("folder"), r.folder);
        j.key(QStringLiteral("has_timeline"));
        j.boolean(r.hasTimeline);
        // Peak memory: exact decimals of the bytes (MB = 2^20 B) and of the absolute ns, null without data.
        j.key(QStringLiteral("peak_memory_mb"));
        j.raw(r.memoryPeak ? bytesAsMegabytes(r.memoryPeak->bytes) : QStringLiteral("null"));
        j.key(QStringLiteral("peak_memory_component"));
        if (r.memoryPeak)
            j.string(r.memoryPeak->component);
        else
            j.null();
        j.key(QStringLiteral("peak_memory_time_us"));
        j.raw(r.memoryPeak ? microsText(r.memoryPeak->time) : QStringLiteral("null"));
        j.key(QStringLiteral("prepared_summary"));
        if (r.preparedSummary.isEmpty())
            j.null();
        else
            j.string(r.preparedSummary);
        j.key(QStringLiteral("steps"));
        j.beginArray();
        for (const RankStep &s : r.steps) {
            j.beginObject();
            writeStep(j, s.step);
            j.microsField(QStringLiteral("computing_us"), s.computing);
            j.microsField(QStringLiteral("communication_not_overlapped_us"), s.communicationNotOverlapped);
            j.microsField(QStringLiteral("overlapped_us"), s.overlapped);
            j.microsField(QStringLiteral("communication_us"), s.communication);
            j.microsField(QStringLiteral("free_us"), s.free);
            j.microsField(QStringLiteral("bubble_us"), s.bubble);
            j.key(QStringLiteral("preparing_us"));
            j.raw(s.hasPreparing ? microsText(s.preparing) : QStringLiteral("null"));
            j.microsField(QStringLiteral("stage_us"), s.stage);
            j.microsField(QStringLiteral("communication_not_overlapped_exclude_receive_us"),
                          s.communicationNotOverlappedExcludeReceive);
            j.field(QStringLiteral("source"), breakdownSourceName(s.source));
            j.endObject();
        }
        j.endArray();
        j.key(QStringLiteral("communication"));
        j.beginArray();
        for (const RankCommunication *rankRow : communicationOf.value(r.rank)) {
            const RankCommunication &c = *rankRow;
            j.beginObject();
            writeStep(j, c.step);
            j.integerField(QStringLiteral("ops"), c.ops);
            j.microsField(QStringLiteral("elapse_us"), c.elapse);
            j.microsField(QStringLiteral("transit_us"), c.transit);
            j.microsField(QStringLiteral("wait_us"), c.wait);
            j.microsField(QStringLiteral("synchronization_us"), c.synchronization);
            j.microsField(QStringLiteral("idle_us"), c.idle);
            j.numberField(QStringLiteral("wait_ratio"), c.waitRatio());
            j.key(QStringLiteral("transports"));
            j.beginArray();
            for (const TransportTotal &t : c.transports) {
                j.beginObject();
                j.field(QStringLiteral("transport"), t.transport);
                j.numberField(QStringLiteral("size_mb"), t.sizeMb);
                j.microsField(QStringLiteral("time_us"), t.time);
                j.numberField(QStringLiteral("bandwidth_gbps"), t.bandwidthGbps());
                j.endObject();
            }
            j.endArray();
            j.endObject();
        }
        j.endArray();
        j.endObject();
    }
    j.endArray();
}

void writeFindings(JsonWriter &j, const ClusterModel &model)
{
    j.key(QStringLiteral("groups"));
    j.beginArray();
    for (const ParallelGroup &g : model.groups) {
        j.beginObject();
        j.field(QStringLiteral("name"), g.name);
        j.field(QStringLiteral("key"), g.key);
        j.field(QStringLiteral("hash"), g.hash);
        j.integersField(QStringLiteral("ranks"), g.globalRanks);
        j.endObject();
    }
    j.endArray();
    j.key(QStringLiteral("comparison_groups"));
    j.beginArray();
    for (const ComparisonGroup &g : comparisonGroups(model)) {
        j.beginObject();
        j.field(QStringLiteral("name"), g.name);
        j.integerField(QStringLiteral("stage"), g.stage);
        j.integersField(QStringLiteral("ranks"), g.ranks);
        j.endObject();
    }
    j.endArray();
    j.key(QStringLiteral("slow_ranks"));
    j.beginArray();
    for (const SlowRank &s : findSlowRanks(model)) {
        j.beginObject();
        writeStep(j, s.step);
        j.field(QStringLiteral("group"), s.group);
        j.integerField(QStringLiteral("rank"), s.rank);
        j.field(QStringLiteral("dimension"), dimensionKey(s.dimension));
        j.microsField(QStringLiteral("gap_us"), s.gap);
        j.microsField(QStringLiteral("value_us"), s.value);
        j.integersField(QStringLiteral("waiting"), s.waiting);
        j.endObject();
    }
    j.endArray();
    j.key(QStringLiteral("stage_imbalance"));
    j.beginArray();
    for (const StageImbalance &s : findStageImbalance(model)) {
        j.beginObject();
        writeStep(j, s.step);
        j.integerField(QStringLiteral("heavier_stage"), s.heavierStage);
        j.integerField(QStringLiteral("lighter_stage"), s.lighterStage);
        j.microsField(QStringLiteral("heavier_computing_us"), s.heavierComputing);
        j.microsField(QStringLiteral("lighter_computing_us"), s.lighterComputing);
        j.microsField(QStringLiteral("gap_us"), s.gap);
        j.endObject();
    }
    j.endArray();
    j.key(QStringLiteral("plain_rule"));
    j.beginArray();
    for (const PlainRuleFlag &f : plainRule(model)) {
        j.beginObject();
        writeStep(j, f.step);
        j.field(QStringLiteral("dimension"), dimensionKey(f.dimension));
        j.integerField(QStringLiteral("max_rank"), f.maxRank);
        j.integerField(QStringLiteral("min_rank"), f.minRank);
        j.microsField(QStringLiteral("gap_us"), f.gap);
        j.numberField(QStringLiteral("ratio"), f.ratio);
        j.endObject();
    }
    j.endArray();
    j.key(QStringLiteral("slow_links"));
    j.beginArray();
    for (const SlowLink &l : findSlowLinks(model)) {
        j.beginObject();
        writeStep(j, l.step);
        j.integerField(QStringLiteral("src"), l.src);
        j.integerField(QStringLiteral("dst"), l.dst);
        j.field(QStringLiteral("transport"), l.transport);
        j.numberField(QStringLiteral("bandwidth_gbps"), l.bandwidthGbps);
        j.numberField(QStringLiteral("median_gbps"), l.medianGbps);
        j.endObject();
    }
    j.endArray();
    j.key(QStringLiteral("waits"));
    j.beginArray();
    for (const CollectiveWait &w : findWaits(model)) {
        j.beginObject();
        writeStep(j, w.step);
        j.field(QStringLiteral("op"), w.op);
        j.field(QStringLiteral("group"), w.group);
        j.integerField(QStringLiteral("waited_for"), w.waitedFor);
        j.key(QStringLiteral("waiting"));
        j.beginArray();
        for (const CollectiveWait::Waiter &x : w.waiting) {
            j.beginObject();
            j.integerField(QStringLiteral("rank"), x.rank);
            j.microsField(QStringLiteral("wait_us"), x.wait);
            j.numberField(QStringLiteral("wait_ratio"), x.waitRatio);
            j.endObject();
        }
        j.endArray();
        j.endObject();
    }
    j.endArray();
    // The judgement of those numbers: the same Findings, written by the same writer, as --advise --json.
    const TraceModel noTimeline;
    const InsightContext context(noTimeline, &model);
    writeFindings(j, context, clusterFindings(context));
    j.key(QStringLiteral("warnings"));
    j.beginArray();
    for (const QString &w : model.warnings)
        j.string(w);
    j.endArray();
}

// The Communication tab's rows (core/cluster/CommunicationOps.h): every op on every rank, all steps and
// groups, without the "Total Op Info" entries (the ranks' communication[] holds the sums).
void writeCommunicationOps(JsonWriter &j, const ClusterModel &model)
{
    // The first group of each hash, as groupByHash finds it, hashed once: a scan of the groups per row was
    // quadratic in the ranks (both grow with them; 19,456 rows × 417 groups at 1,024 ranks, issue #32).
    QHash<QString, const ParallelGroup *> groupOfHash;
    for (const ParallelGroup &g : model.groups)
        if (!groupOfHash.contains(g.hash))
            groupOfHash.insert(g.hash, &g);
    j.key(QStringLiteral("communication_ops"));
    j.beginArray();
    for (const CommOpRow &row : communicationOps(model)) {
        j.beginObject();
        writeStep(j, row.step);
        j.field(QStringLiteral("op"), row.op);
        j.field(QStringLiteral("group"), row.groupHash);
        j.key(QStringLiteral("group_name"));
        if (const ParallelGroup *g = groupOfHash.value(row.groupHash, nullptr); g && !g->name.isEmpty())
            j.string(g->name);
        else
            j.null();
        j.key(QStringLiteral("p2p"));
        j.boolean(row.p2p);
        j.integerField(QStringLiteral("rank"), row.rank);
        j.microsField(QStringLiteral("elapse_us"), row.elapse);
        j.microsField(QStringLiteral("transit_us"), row.transit);
        j.microsField(QStringLiteral("wait_us"), row.wait);
        j.microsField(QStringLiteral("synchronization_us"), row.synchronization);
        j.microsField(QStringLiteral("idle_us"), row.idle);
        j.numberField(QStringLiteral("wait_ratio"), row.waitRatio);
        j.numberField(QStringLiteral("synchronization_ratio"), row.synchronizationRatio);
        j.key(QStringLiteral("transports"));
        j.beginArray();
        for (std::size_t t = 0; t < kCommTransportCount; ++t) {
            const auto &cell = row.transports[t];
            if (!cell)
                continue;
            j.beginObject();
            j.field(QStringLiteral("transport"), QLatin1String(kCommTransports[t]));
            j.numberField(QStringLiteral("size_mb"), cell->sizeMb);
            j.microsField(QStringLiteral("time_us"), cell->time);
            j.numberField(QStringLiteral("bandwidth_gbps"), cell->bandwidthGbps);
            j.endObject();
        }
        j.endArray();
        j.key(QStringLiteral("sizes"));
        j.beginArray();
        for (const PacketBucket &b : row.sizes) {
            j.beginObject();
            j.numberField(QStringLiteral("size_mb"), b.sizeMb);
            j.integerField(QStringLiteral("count"), b.count);
            j.microsField(QStringLiteral("time_us"), b.time);
            j.endObject();
        }
        j.endArray();
        j.endObject();
    }
    j.endArray();
}

QString ms(TimeNs ns)
{
    return QString::number(static_cast<double>(ns) / 1e6, 'f', 3);
}

void writeText(QTextStream &out, const ClusterModel &model)
{
    out << "Cluster: " << model.root << "  (" << model.ranks.size() << " ranks)\n";
    out << "rank  device  stage  step  computing  comm(not ovl)  overlapped  free  bubble  preparing  "
           "stage(ms)  "
           "source\n";
    for (const Rank &r : model.ranks) {
        if (r.steps.empty())
            out << r.rank << "  " << r.device << "  " << r.stage << "  (no step breakdown)\n";
        for (const RankStep &s : r.steps)
            out << r.rank << "  " << r.device << "  " << r.stage << "  "
                << (s.step == kNoStep ? QStringLiteral("-") : QString::number(s.step)) << "  "
                << ms(s.computing) << "  " << ms(s.communicationNotOverlapped) << "  " << ms(s.overlapped)
                << "  " << ms(s.free) << "  " << ms(s.bubble) << "  "
                << (s.hasPreparing ? ms(s.preparing) : QStringLiteral("-")) << "  " << ms(s.stage) << "  "
                << breakdownSourceName(s.source) << "\n";
    }
    for (const Rank &r : model.ranks)
        if (r.memoryPeak)
            out << "peak memory, rank " << r.rank << ": "
                << QString::number(static_cast<double>(r.memoryPeak->bytes) / (1 << 20), 'f', 3) << " MB ("
                << r.memoryPeak->component << " at " << microsText(r.memoryPeak->time) << " us)\n";
    // The findings as --advise prints them (core/insights/FindingText), every occurrence listed.
    const TraceModel noTimeline;
    const InsightContext context(noTimeline, &model);
    const std::vector<Finding> findings = clusterFindings(context);
    if (!findings.empty())
        out << "findings:\n";
    int index = 0;
    for (const Finding &f : findings)
        out << findingText(context, f, ++index, f.occurrences.size());
}

// Op instances whose rows are contiguous in communicationOps()' order (step, instance, rank).
bool sameInstance(const CommOpRow &a, const CommOpRow &b)
{
    return a.step == b.step && a.p2p == b.p2p && a.op == b.op && a.groupHash == b.groupHash;
}

QString stepText(std::int64_t step)
{
    return step == kNoStep ? QStringLiteral("-") : QString::number(step);
}

// The Communication Ops tab in a terminal: one line per op instance with its slowest and fastest rank (by
// elapse) and the rank that waited longest, which stays readable for thousands of ranks; with `--ops` also
// every rank's row.
void writeCommunicationOpsText(QTextStream &out, const ClusterModel &model, bool perRank)
{
    const std::vector<CommOpRow> rows = communicationOps(model);
    if (rows.empty())
        return;
    out << "communication ops (ms), one line per op instance:\n"
           "step  op  group  ranks  slowest rank  elapse  fastest rank  elapse  spread  max wait rank  "
           "wait\n";
    for (std::size_t begin = 0; begin < rows.size();) {
        std::size_t end = begin + 1;
        while (end < rows.size() && sameInstance(rows[begin], rows[end]))
            ++end;
        const std::vector<CommOpRow> instance(rows.begin() + static_cast<std::ptrdiff_t>(begin),
                                              rows.begin() + static_cast<std::ptrdiff_t>(end));
        const CommOpSummary s = summarizeOp(instance, instance.front());
        out << stepText(s.step) << "  " << s.op << "  " << instance.front().groupName << "  " << s.ranks
            << "  " << s.slowestRank << "  " << ms(s.slowestElapse) << "  " << s.fastestRank << "  "
            << ms(s.fastestElapse) << "  " << ms(s.spread()) << "  " << s.maxWaitRank << "  " << ms(s.maxWait)
            << "\n";
        begin = end;
    }
    if (!perRank)
        return;
    out << "communication ops per rank (ms):\n"
           "step  op  group  rank  elapse  transit  wait  synchronization  idle  wait ratio\n";
    for (const CommOpRow &r : rows)
        out << stepText(r.step) << "  " << r.op << "  " << r.groupName << "  " << r.rank << "  "
            << ms(r.elapse) << "  " << ms(r.transit) << "  " << ms(r.wait) << "  " << ms(r.synchronization)
            << "  " << ms(r.idle) << "  " << QString::number(r.waitRatio, 'f', 4) << "\n";
}

} // namespace

int runCluster(const CommandLineOptions &options)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    if (options.paths.size() != 1) {
        err << "ascend-timeline: --cluster needs exactly one PATH (a folder of rank folders)\n";
        return 2;
    }
    // --cache DIR: ranks prepared there (`--prepare`) are taken from their summaries; never a folder inside
    // one of the cluster's rank folders (issue 29 item 6).
    if (!options.load.snapshotDirectory.isEmpty() &&
        !outsideDataFolders(QStringLiteral("--cache"), options.load.snapshotDirectory,
                            findRankFolders(options.paths.first()), err))
        return 2;
    const ClusterModel model =
        readCluster(options.paths.first(), {options.load.snapshotDirectory, options.load.memoryLimitBytes});
    if (model.ranks.empty()) {
        err << "ascend-timeline: " << options.paths.first()
            << ": no rank folder (*_ascend_pt with profiler_info_<N>.json) found\n";
        for (const QString &w : model.warnings)
            err << "warning: " << w << "\n";
        return 1;
    }
    if (options.json) {
        JsonWriter j;
        j.beginObject();
        j.field(QStringLiteral("root"), model.root);
        writeRanks(j, model);
        writeFindings(j, model);
        writeCommunicationOps(j, model);
        j.endObject();
        // In slices: the stream would copy the whole document (110 MB for 400,000 steps) into its buffer.
        const QStringView text = j.text();
        for (qsizetype at = 0, size = 0; at < text.size(); at += size) {
            size = std::min(kOutputSlice, text.size() - at);
            if (at + size < text.size() && text[at + size - 1].isHighSurrogate())
                --size; // a surrogate pair stays in one slice
            out << text.mid(at, size);
        }
        out << "\n";
        for (const QString &problem : j.problems())
            err << "warning: --cluster --json: " << problem << "\n";
    } else {
        writeText(out, model);
        writeCommunicationOpsText(out, model, options.clusterOps);
    }
    for (const QString &w : model.warnings)
        err << "warning: " << w << "\n";
    return 0;
}

} // namespace at
