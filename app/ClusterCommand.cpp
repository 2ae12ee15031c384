// `ascend-timeline --cluster PATH [--ops] [--json]`: the cluster view's numbers from the ranks' summary files
// (docs/CLUSTER.md). Times in the JSON are µs written as exact decimals of the ns read from the sources.
#include "CommandLine.h"

#include "cluster/ClusterAnalysis.h"
#include "cluster/ClusterNumbers.h"
#include "cluster/ClusterReader.h"
#include "cluster/CommunicationOps.h"

#include "MemoryAnalysis.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

namespace at {

namespace {

using namespace at::cluster;

// A minimal JSON writer: numbers are written as given (exact µs decimals), strings escaped by Qt.
class JsonOut
{
public:
    QString text;

    void raw(const QString &value) { comma(), text += value; }
    void string(const QString &value)
    {
        comma();
        const QByteArray doc = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
        text += QString::fromUtf8(doc.mid(1, doc.size() - 2));
    }
    void key(const QString &name)
    {
        string(name);
        text += QLatin1Char(':');
        m_afterKey = true;
    }
    void us(const QString &name, TimeNs ns) { key(name), raw(formatMicros(ns)); }
    void integer(const QString &name, qint64 v) { key(name), raw(QString::number(v)); }
    void number(const QString &name, double v) { key(name), raw(QString::number(v, 'g', 12)); }
    void step(std::int64_t s)
    {
        key(QStringLiteral("step")), raw(s == kNoStep ? QStringLiteral("null") : QString::number(s));
    }
    void field(const QString &name, const QString &value) { key(name), string(value); }
    void open(QChar c) { comma(), text += c, m_first = true; }
    void close(QChar c) { text += c, m_first = false; }
    void ints(const QString &name, const std::vector<int> &values)
    {
        key(name);
        open(QLatin1Char('['));
        for (int v : values)
            raw(QString::number(v));
        close(QLatin1Char(']'));
    }

private:
    void comma()
    {
        if (m_afterKey)
            m_afterKey = false;
        else if (!m_first && !text.isEmpty())
            text += QLatin1Char(',');
        m_first = false;
    }
    bool m_first = true;
    bool m_afterKey = false;
};

void writeRanks(JsonOut &j, const ClusterModel &model)
{
    const std::vector<RankCommunication> communication = rankCommunication(model);
    j.key(QStringLiteral("ranks"));
    j.open(QLatin1Char('['));
    for (const Rank &r : model.ranks) {
        j.open(QLatin1Char('{'));
        j.integer(QStringLiteral("rank"), r.rank);
        j.integer(QStringLiteral("device"), r.device);
        j.integer(QStringLiteral("stage"), r.stage);
        j.field(QStringLiteral("folder"), r.folder);
        j.key(QStringLiteral("has_timeline"));
        j.raw(r.hasTimeline ? QStringLiteral("true") : QStringLiteral("false"));
        // Peak memory: exact decimals of the bytes (MB = 2^20 B) and of the absolute ns, null without data.
        j.key(QStringLiteral("peak_memory_mb"));
        j.raw(r.memoryPeak ? bytesAsMegabytes(r.memoryPeak->bytes) : QStringLiteral("null"));
        j.key(QStringLiteral("peak_memory_component"));
        if (r.memoryPeak)
            j.string(r.memoryPeak->component);
        else
            j.raw(QStringLiteral("null"));
        j.key(QStringLiteral("peak_memory_time_us"));
        j.raw(r.memoryPeak ? nanosAsMicros(r.memoryPeak->time) : QStringLiteral("null"));
        j.key(QStringLiteral("prepared_summary"));
        if (r.preparedSummary.isEmpty())
            j.raw(QStringLiteral("null"));
        else
            j.string(r.preparedSummary);
        j.key(QStringLiteral("steps"));
        j.open(QLatin1Char('['));
        for (const RankStep &s : r.steps) {
            j.open(QLatin1Char('{'));
            j.step(s.step);
            j.us(QStringLiteral("computing_us"), s.computing);
            j.us(QStringLiteral("communication_not_overlapped_us"), s.communicationNotOverlapped);
            j.us(QStringLiteral("overlapped_us"), s.overlapped);
            j.us(QStringLiteral("communication_us"), s.communication);
            j.us(QStringLiteral("free_us"), s.free);
            j.us(QStringLiteral("bubble_us"), s.bubble);
            j.key(QStringLiteral("preparing_us"));
            j.raw(s.hasPreparing ? formatMicros(s.preparing) : QStringLiteral("null"));
            j.us(QStringLiteral("stage_us"), s.stage);
            j.us(QStringLiteral("communication_not_overlapped_exclude_receive_us"),
                 s.communicationNotOverlappedExcludeReceive);
            j.field(QStringLiteral("source"), breakdownSourceName(s.source));
            j.close(QLatin1Char('}'));
        }
        j.close(QLatin1Char(']'));
        j.key(QStringLiteral("communication"));
        j.open(QLatin1Char('['));
        for (const RankCommunication &c : communication) {
            if (c.rank != r.rank)
                continue;
            j.open(QLatin1Char('{'));
            j.step(c.step);
            j.integer(QStringLiteral("ops"), c.ops);
            j.us(QStringLiteral("elapse_us"), c.elapse);
            j.us(QStringLiteral("transit_us"), c.transit);
            j.us(QStringLiteral("wait_us"), c.wait);
            j.us(QStringLiteral("synchronization_us"), c.synchronization);
            j.us(QStringLiteral("idle_us"), c.idle);
            j.number(QStringLiteral("wait_ratio"), c.waitRatio());
            j.key(QStringLiteral("transports"));
            j.open(QLatin1Char('['));
            for (const TransportTotal &t : c.transports) {
                j.open(QLatin1Char('{'));
                j.field(QStringLiteral("transport"), t.transport);
                j.number(QStringLiteral("size_mb"), t.sizeMb);
                j.us(QStringLiteral("time_us"), t.time);
                j.number(QStringLiteral("bandwidth_gbps"), t.bandwidthGbps());
                j.close(QLatin1Char('}'));
            }
            j.close(QLatin1Char(']'));
            j.close(QLatin1Char('}'));
        }
        j.close(QLatin1Char(']'));
        j.close(QLatin1Char('}'));
    }
    j.close(QLatin1Char(']'));
}

void writeFindings(JsonOut &j, const ClusterModel &model)
{
    j.key(QStringLiteral("groups"));
    j.open(QLatin1Char('['));
    for (const ParallelGroup &g : model.groups) {
        j.open(QLatin1Char('{'));
        j.field(QStringLiteral("name"), g.name);
        j.field(QStringLiteral("key"), g.key);
        j.field(QStringLiteral("hash"), g.hash);
        j.ints(QStringLiteral("ranks"), g.globalRanks);
        j.close(QLatin1Char('}'));
    }
    j.close(QLatin1Char(']'));
    j.key(QStringLiteral("comparison_groups"));
    j.open(QLatin1Char('['));
    for (const ComparisonGroup &g : comparisonGroups(model)) {
        j.open(QLatin1Char('{'));
        j.field(QStringLiteral("name"), g.name);
        j.integer(QStringLiteral("stage"), g.stage);
        j.ints(QStringLiteral("ranks"), g.ranks);
        j.close(QLatin1Char('}'));
    }
    j.close(QLatin1Char(']'));
    j.key(QStringLiteral("slow_ranks"));
    j.open(QLatin1Char('['));
    for (const SlowRank &s : findSlowRanks(model)) {
        j.open(QLatin1Char('{'));
        j.step(s.step);
        j.field(QStringLiteral("group"), s.group);
        j.integer(QStringLiteral("rank"), s.rank);
        j.field(QStringLiteral("dimension"), dimensionKey(s.dimension));
        j.us(QStringLiteral("gap_us"), s.gap);
        j.us(QStringLiteral("value_us"), s.value);
        j.ints(QStringLiteral("waiting"), s.waiting);
        j.close(QLatin1Char('}'));
    }
    j.close(QLatin1Char(']'));
    j.key(QStringLiteral("stage_imbalance"));
    j.open(QLatin1Char('['));
    for (const StageImbalance &s : findStageImbalance(model)) {
        j.open(QLatin1Char('{'));
        j.step(s.step);
        j.integer(QStringLiteral("heavier_stage"), s.heavierStage);
        j.integer(QStringLiteral("lighter_stage"), s.lighterStage);
        j.us(QStringLiteral("heavier_computing_us"), s.heavierComputing);
        j.us(QStringLiteral("lighter_computing_us"), s.lighterComputing);
        j.us(QStringLiteral("gap_us"), s.gap);
        j.close(QLatin1Char('}'));
    }
    j.close(QLatin1Char(']'));
    j.key(QStringLiteral("plain_rule"));
    j.open(QLatin1Char('['));
    for (const PlainRuleFlag &f : plainRule(model)) {
        j.open(QLatin1Char('{'));
        j.step(f.step);
        j.field(QStringLiteral("dimension"), dimensionKey(f.dimension));
        j.integer(QStringLiteral("max_rank"), f.maxRank);
        j.integer(QStringLiteral("min_rank"), f.minRank);
        j.us(QStringLiteral("gap_us"), f.gap);
        j.number(QStringLiteral("ratio"), f.ratio);
        j.close(QLatin1Char('}'));
    }
    j.close(QLatin1Char(']'));
    j.key(QStringLiteral("slow_links"));
    j.open(QLatin1Char('['));
    for (const SlowLink &l : findSlowLinks(model)) {
        j.open(QLatin1Char('{'));
        j.step(l.step);
        j.integer(QStringLiteral("src"), l.src);
        j.integer(QStringLiteral("dst"), l.dst);
        j.field(QStringLiteral("transport"), l.transport);
        j.number(QStringLiteral("bandwidth_gbps"), l.bandwidthGbps);
        j.number(QStringLiteral("median_gbps"), l.medianGbps);
        j.close(QLatin1Char('}'));
    }
    j.close(QLatin1Char(']'));
    j.key(QStringLiteral("waits"));
    j.open(QLatin1Char('['));
    for (const CollectiveWait &w : findWaits(model)) {
        j.open(QLatin1Char('{'));
        j.step(w.step);
        j.field(QStringLiteral("op"), w.op);
        j.field(QStringLiteral("group"), w.group);
        j.integer(QStringLiteral("waited_for"), w.waitedFor);
        j.key(QStringLiteral("waiting"));
        j.open(QLatin1Char('['));
        for (const CollectiveWait::Waiter &x : w.waiting) {
            j.open(QLatin1Char('{'));
            j.integer(QStringLiteral("rank"), x.rank);
            j.us(QStringLiteral("wait_us"), x.wait);
            j.number(QStringLiteral("wait_ratio"), x.waitRatio);
            j.close(QLatin1Char('}'));
        }
        j.close(QLatin1Char(']'));
        j.close(QLatin1Char('}'));
    }
    j.close(QLatin1Char(']'));
    j.key(QStringLiteral("warnings"));
    j.open(QLatin1Char('['));
    for (const QString &w : model.warnings)
        j.string(w);
    j.close(QLatin1Char(']'));
}

// The Communication tab's rows (core/cluster/CommunicationOps.h): every op on every rank, all steps and
// groups, without the "Total Op Info" entries (the ranks' communication[] holds the sums).
void writeCommunicationOps(JsonOut &j, const ClusterModel &model)
{
    j.key(QStringLiteral("communication_ops"));
    j.open(QLatin1Char('['));
    for (const CommOpRow &row : communicationOps(model)) {
        j.open(QLatin1Char('{'));
        j.step(row.step);
        j.field(QStringLiteral("op"), row.op);
        j.field(QStringLiteral("group"), row.groupHash);
        j.key(QStringLiteral("group_name"));
        if (const ParallelGroup *g = model.groupByHash(row.groupHash); g && !g->name.isEmpty())
            j.string(g->name);
        else
            j.raw(QStringLiteral("null"));
        j.key(QStringLiteral("p2p"));
        j.raw(row.p2p ? QStringLiteral("true") : QStringLiteral("false"));
        j.integer(QStringLiteral("rank"), row.rank);
        j.us(QStringLiteral("elapse_us"), row.elapse);
        j.us(QStringLiteral("transit_us"), row.transit);
        j.us(QStringLiteral("wait_us"), row.wait);
        j.us(QStringLiteral("synchronization_us"), row.synchronization);
        j.us(QStringLiteral("idle_us"), row.idle);
        j.number(QStringLiteral("wait_ratio"), row.waitRatio);
        j.number(QStringLiteral("synchronization_ratio"), row.synchronizationRatio);
        j.key(QStringLiteral("transports"));
        j.open(QLatin1Char('['));
        for (std::size_t t = 0; t < kCommTransportCount; ++t) {
            const auto &cell = row.transports[t];
            if (!cell)
                continue;
            j.open(QLatin1Char('{'));
            j.field(QStringLiteral("transport"), QLatin1String(kCommTransports[t]));
            j.number(QStringLiteral("size_mb"), cell->sizeMb);
            j.us(QStringLiteral("time_us"), cell->time);
            j.number(QStringLiteral("bandwidth_gbps"), cell->bandwidthGbps);
            j.close(QLatin1Char('}'));
        }
        j.close(QLatin1Char(']'));
        j.key(QStringLiteral("sizes"));
        j.open(QLatin1Char('['));
        for (const PacketBucket &b : row.sizes) {
            j.open(QLatin1Char('{'));
            j.number(QStringLiteral("size_mb"), b.sizeMb);
            j.integer(QStringLiteral("count"), b.count);
            j.us(QStringLiteral("time_us"), b.time);
            j.close(QLatin1Char('}'));
        }
        j.close(QLatin1Char(']'));
        j.close(QLatin1Char('}'));
    }
    j.close(QLatin1Char(']'));
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
                << r.memoryPeak->component << " at " << nanosAsMicros(r.memoryPeak->time) << " us)\n";
    for (const StageImbalance &s : findStageImbalance(model))
        out << "load imbalance, step " << s.step << ": stage " << s.heavierStage << " computes "
            << ms(s.heavierComputing) << " ms, stage " << s.lighterStage << " " << ms(s.lighterComputing)
            << " ms (gap " << ms(s.gap) << " ms)\n";
    for (const SlowRank &s : findSlowRanks(model)) {
        QStringList waiting;
        for (int w : s.waiting)
            waiting << QString::number(w);
        out << "slow rank, step " << s.step << ", " << s.group << ": rank " << s.rank << " "
            << dimensionKey(s.dimension) << " +" << ms(s.gap) << " ms"
            << (waiting.isEmpty()
                    ? QString()
                    : QStringLiteral(", makes ranks %1 wait").arg(waiting.join(QLatin1Char(','))))
            << "\n";
    }
    for (const PlainRuleFlag &f : plainRule(model))
        out << "msprof-analyze rule, step " << f.step << ": " << dimensionKey(f.dimension) << " max rank "
            << f.maxRank << " − min rank " << f.minRank << " = " << ms(f.gap) << " ms ("
            << QString::number(f.ratio * 100, 'f', 1) << " % of the mean step)\n";
    for (const SlowLink &l : findSlowLinks(model))
        out << "slow link, step " << l.step << ": " << l.src << " → " << l.dst << " " << l.transport << " "
            << QString::number(l.bandwidthGbps, 'f', 2) << " GB/s (median "
            << QString::number(l.medianGbps, 'f', 2) << ")\n";
    for (const CollectiveWait &w : findWaits(model)) {
        QStringList waiting;
        for (const CollectiveWait::Waiter &x : w.waiting)
            waiting << QStringLiteral("%1 (%2 ms)").arg(x.rank).arg(ms(x.wait));
        out << "wait, step " << w.step << ", " << w.op << ": ranks " << waiting.join(QStringLiteral(", "))
            << " wait for rank " << w.waitedFor << "\n";
    }
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
    // --cache DIR: ranks prepared there (`--prepare`) are taken from their summaries.
    const ClusterModel model = readCluster(options.paths.first(), {options.load.snapshotDirectory});
    if (model.ranks.empty()) {
        err << "ascend-timeline: " << options.paths.first()
            << ": no rank folder (*_ascend_pt with profiler_info_<N>.json) found\n";
        for (const QString &w : model.warnings)
            err << "warning: " << w << "\n";
        return 1;
    }
    if (options.json) {
        JsonOut j;
        j.open(QLatin1Char('{'));
        j.field(QStringLiteral("root"), model.root);
        writeRanks(j, model);
        writeFindings(j, model);
        writeCommunicationOps(j, model);
        j.close(QLatin1Char('}'));
        out << j.text << "\n";
    } else {
        writeText(out, model);
        writeCommunicationOpsText(out, model, options.clusterOps);
    }
    for (const QString &w : model.warnings)
        err << "warning: " << w << "\n";
    return 0;
}

} // namespace at
