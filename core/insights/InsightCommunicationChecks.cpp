// Communication checks over the ranks' communication.json (FORMATS.md §9.4, §9.6: small packets,
// RDMA retransmission, bandwidth contention between communication and MatMul), read by parser/cluster
// from the summary files; each op is shown on the rank's communication lane when the model has it.

#include "InsightChecks.h"
#include "InsightSupport.h"

#include <QJsonArray>

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

namespace at {

using namespace insights;

namespace {

// §9.6 Small packets: an SDMA op moving less than 16 MB, an RDMA op less than 1 MB, is a small
// packet; flagged when more than 20 % of the ops of that transport are.
constexpr double kSdmaSmallPacketMb = 16.0;
constexpr double kRdmaSmallPacketMb = 1.0;
constexpr double kSmallPacketRatio = 0.2;
// §9.6 Retransmission: the op's shortest Elapse Time over its ranks is at least 4000 ms and some
// rank's RDMA Transit Time exceeds 4000 ms.
constexpr TimeNs kRetransmissionNs = 4'000'000'000;
// §9.6 Bandwidth contention: SDMA below 0.8 × 18 GB/s (the advisor's SDMA baseline) while a MatMul
// runs.
constexpr double kContentionBandwidthGbps = 0.8 * 18.0;

// The op as an occurrence: its slice on the rank's communication lanes (same name, nearest start)
// when the model has one, else the op's own start and elapse from communication.json.
FindingOccurrence commOccurrence(const InsightContext &context, int rank, const cluster::CommOp &op)
{
    const TraceModel &model = context.model;
    FindingOccurrence o;
    o.group = context.groupOfRank(rank);
    if (o.group < 0) {
        o.group = 0;
        o.rank = rank;
    }
    o.name = op.name;
    o.start = op.startAbsolute - model.origin();
    o.duration = op.elapse;
    if (o.rank >= 0)
        return o;
    const QByteArray name = op.name.toUtf8();
    TimeNs best = std::numeric_limits<TimeNs>::max();
    for (int t : threadsOfLayers(context, {Layer::Communication})) {
        if (groupOfThread(model, t) != o.group)
            continue;
        const SliceTable &slices = model.threads()[static_cast<std::size_t>(t)].slices;
        for (std::uint32_t i = 0; i < slices.size(); ++i) {
            if (model.strings().view(slices.name(i)) != std::string_view(name.constData(), name.size()))
                continue;
            const TimeNs distance = std::abs(slices.start(i) - (op.startAbsolute - model.origin()));
            if (distance < best) {
                best = distance;
                o.slice = SliceRef{t, i};
                o.start = slices.start(i);
                o.duration = slices.duration(i);
            }
        }
    }
    return o;
}

double ms(TimeNs ns)
{
    return static_cast<double>(ns) / 1e6;
}

} // namespace

void checkSmallPackets(const InsightContext &context, std::vector<Finding> &findings)
{
    if (!context.cluster)
        return;
    struct Rule
    {
        const char *transport;
        double smallMb;
    };
    for (const cluster::Rank &rank : context.cluster->ranks) {
        for (const Rule rule : {Rule{"SDMA", kSdmaSmallPacketMb}, Rule{"RDMA", kRdmaSmallPacketMb}}) {
            const QString transport = QString::fromLatin1(rule.transport);
            int ops = 0;
            Finding finding;
            finding.rank = rank.rank;
            std::vector<std::pair<FindingOccurrence, TimeNs>> small;
            // Total Op Info entries are sums, not ops (msprof-analyze counts them too: Qwen3 rank 0
            // gives 3 of 10 = 30 % there, 3 of 8 here).
            for (const cluster::CommOp &op : rank.ops) {
                const cluster::TransportBandwidth *b = op.total ? nullptr : op.transport(transport);
                if (!b || b->sizeMb <= 0)
                    continue;
                ++ops;
                if (b->sizeMb >= rule.smallMb)
                    continue;
                finding.timeAtStake += b->time;
                small.push_back({commOccurrence(context, rank.rank, op), b->time});
            }
            const double ratio = ops > 0 ? static_cast<double>(small.size()) / ops : 0.0;
            if (small.empty() || ratio <= kSmallPacketRatio)
                continue;
            std::stable_sort(small.begin(), small.end(),
                             [](const auto &a, const auto &b) { return a.second > b.second; });
            for (const auto &[occurrence, time] : small) {
                if (finding.occurrences.size() < kMaxOccurrences)
                    finding.occurrences.push_back(occurrence);
            }
            finding.title =
                InsightText::tr("Small %1 communication packets on rank %2").arg(transport).arg(rank.rank);
            finding.severity = severityForPercent(context.percentOfSteps(finding.timeAtStake));
            finding.explanation =
                InsightText::tr("%1 of %2 %3 communication operators (%4 %) of rank %5 move less than "
                                "%6 MB each; their transfers took %7 ms. Small packets use the link's "
                                "bandwidth poorly: each one pays the full latency.")
                    .arg(small.size())
                    .arg(ops)
                    .arg(transport)
                    .arg(100.0 * ratio, 0, 'f', 2)
                    .arg(rank.rank)
                    .arg(rule.smallMb, 0, 'f', 1)
                    .arg(ms(finding.timeAtStake), 0, 'f', 4);
            finding.fix =
                InsightText::tr("Communicate fewer, larger tensors: fuse small collectives (a larger "
                                "gradient bucket, e.g. DDP bucket_cap_mb), concatenate small "
                                "tensors before a collective, or overlap them with compute.");
            finding.data = QJsonObject{{QStringLiteral("rank"), rank.rank},
                                       {QStringLiteral("transport"), transport},
                                       {QStringLiteral("ops"), ops},
                                       {QStringLiteral("small_ops"), static_cast<int>(small.size())},
                                       {QStringLiteral("small_ratio"), ratio},
                                       {QStringLiteral("small_packet_mb"), rule.smallMb},
                                       {QStringLiteral("ratio_threshold"), kSmallPacketRatio}};
            findings.push_back(std::move(finding));
        }
    }
}

void checkRdmaRetransmission(const InsightContext &context, std::vector<Finding> &findings)
{
    if (!context.cluster)
        return;
    struct RankOp
    {
        int rank;
        const cluster::CommOp *op;
        TimeNs rdma;
    };
    std::map<std::tuple<std::int64_t, QString, QString>, std::vector<RankOp>> byOp;
    for (const cluster::Rank &rank : context.cluster->ranks) {
        for (const cluster::CommOp &op : rank.ops) {
            if (op.total)
                continue;
            const cluster::TransportBandwidth *rdma = op.transport(QStringLiteral("RDMA"));
            byOp[{op.step, op.group, op.name}].push_back({rank.rank, &op, rdma ? rdma->time : 0});
        }
    }
    Finding finding;
    QJsonArray ops;
    for (const auto &[key, ranks] : byOp) {
        TimeNs minElapse = std::numeric_limits<TimeNs>::max(), maxRdma = 0;
        for (const RankOp &r : ranks) {
            minElapse = std::min(minElapse, r.op->elapse);
            maxRdma = std::max(maxRdma, r.rdma);
        }
        if (minElapse < kRetransmissionNs || maxRdma <= kRetransmissionNs)
            continue;
        // Every rank of the op waited at least minElapse: that is what the retransmission cost.
        finding.timeAtStake += minElapse;
        QJsonArray slowRanks;
        for (const RankOp &r : ranks) {
            if (r.rdma <= kRetransmissionNs)
                continue;
            slowRanks.append(r.rank);
            finding.occurrences.push_back(commOccurrence(context, r.rank, *r.op));
        }
        ops.append(QJsonObject{{QStringLiteral("op"), std::get<2>(key)},
                               {QStringLiteral("step"), static_cast<double>(std::get<0>(key))},
                               {QStringLiteral("min_elapse_ms"), ms(minElapse)},
                               {QStringLiteral("max_rdma_transit_ms"), ms(maxRdma)},
                               {QStringLiteral("ranks"), slowRanks}});
    }
    if (ops.isEmpty())
        return;
    keepLongest(finding.occurrences, kMaxOccurrences);
    finding.title = InsightText::tr("RDMA retransmission suspected");
    finding.severity = Severity::High;
    finding.explanation =
        InsightText::tr("%1 communication operator(s) took at least %2 ms on every rank while an RDMA "
                        "transfer took more than %2 ms: the network retransmitted packets.")
            .arg(ops.size())
            .arg(ms(kRetransmissionNs), 0, 'f', 0);
    finding.fix = InsightText::tr("Check the RDMA network of the ranks named: link errors, congestion or "
                                  "packet loss (hccn_tool -i <device> -stat -g, the switch ports), and the "
                                  "retransmission settings HCCL_RDMA_TIMEOUT / HCCL_RDMA_RETRY_CNT.");
    finding.data =
        QJsonObject{{QStringLiteral("ops"), ops}, {QStringLiteral("threshold_ms"), ms(kRetransmissionNs)}};
    findings.push_back(std::move(finding));
}

void checkBandwidthContention(const InsightContext &context, std::vector<Finding> &findings)
{
    if (!context.cluster)
        return;
    const TraceModel &model = context.model;
    for (const cluster::Rank &rank : context.cluster->ranks) {
        const int group = context.groupOfRank(rank.rank);
        if (group < 0)
            continue;
        std::vector<Interval> matmul;
        for (const KernelRecord &row : model.kernels().rows()) {
            if (row.group == group && containsNoCase(model.strings().view(row.name), "matmul"))
                matmul.push_back({row.start, row.start + row.duration});
        }
        matmul = mergeIntervals(std::move(matmul));
        if (matmul.empty())
            continue;
        Finding finding;
        finding.rank = rank.rank;
        std::vector<std::pair<FindingOccurrence, double>> contended;
        QJsonArray ops;
        for (const cluster::CommOp &op : rank.ops) {
            const cluster::TransportBandwidth *sdma =
                op.total ? nullptr : op.transport(QStringLiteral("SDMA"));
            if (!sdma || sdma->sizeMb <= 0 || sdma->time <= 0)
                continue;
            const double bandwidth = sdma->effectiveBandwidth();
            if (bandwidth >= kContentionBandwidthGbps)
                continue;
            const TimeNs begin = op.startAbsolute - model.origin();
            const TimeNs overlap = op.elapse - uncoveredLength(matmul, begin, begin + op.elapse);
            if (overlap <= 0)
                continue;
            finding.timeAtStake += overlap;
            contended.push_back({commOccurrence(context, rank.rank, op), bandwidth});
        }
        if (contended.empty())
            continue;
        // Lowest bandwidth first, as the advisor lists them.
        std::stable_sort(contended.begin(), contended.end(),
                         [](const auto &a, const auto &b) { return a.second < b.second; });
        for (const auto &[occurrence, bandwidth] : contended) {
            if (finding.occurrences.size() < kMaxOccurrences)
                finding.occurrences.push_back(occurrence);
            if (ops.size() < static_cast<qsizetype>(kMaxOccurrences))
                ops.append(QJsonObject{{QStringLiteral("op"), occurrence.name},
                                       {QStringLiteral("sdma_bandwidth_gbps"), bandwidth}});
        }
        finding.title =
            InsightText::tr("Communication competes with MatMul for bandwidth on rank %1").arg(rank.rank);
        finding.severity = severityForPercent(context.percentOfSteps(finding.timeAtStake));
        finding.explanation =
            InsightText::tr("%1 SDMA communication operator(s) of rank %2 ran below %3 GB/s while MatMul "
                            "kernels ran (%4 ms of overlap): computation and communication compete for "
                            "memory bandwidth.")
                .arg(contended.size())
                .arg(rank.rank)
                .arg(kContentionBandwidthGbps, 0, 'f', 1)
                .arg(ms(finding.timeAtStake), 0, 'f', 3);
        finding.fix = InsightText::tr("Reorder the overlap so large MatMuls do not run under bandwidth-bound "
                                      "collectives (schedule the communication earlier or later), or reduce "
                                      "the communicated volume.");
        finding.data = QJsonObject{{QStringLiteral("rank"), rank.rank},
                                   {QStringLiteral("ops"), ops},
                                   {QStringLiteral("bandwidth_threshold_gbps"), kContentionBandwidthGbps}};
        findings.push_back(std::move(finding));
    }
}

} // namespace at

namespace at {

using namespace insights;

namespace {

// "hcom_allReduce__612_4_1" → "hcom_allReduce": the collective, without the instance numbers.
QString opFamily(const QString &name)
{
    const qsizetype cut = name.indexOf(QLatin1String("__"));
    if (cut > 0)
        return name.left(cut);
    QString family = name;
    while (true) {
        const qsizetype underscore = family.lastIndexOf(QLatin1Char('_'));
        if (underscore <= 0)
            break;
        bool number = false;
        family.mid(underscore + 1).toLongLong(&number);
        if (!number)
            break;
        family.truncate(underscore);
    }
    return family;
}

bool isCommunicationOp(std::string_view name)
{
    return containsNoCase(name, "hcom_");
}

} // namespace

// Communication not overlapped (FORMATS.md §9.2), explained by the collectives that fill it: each instant
// of the part is given to the communication op running then (once, even when an op shows on several
// lanes), and the Notify Wait tasks inside it are the waits for the peer ranks.
void checkExposedCommunication(const InsightContext &context, std::vector<Finding> &findings)
{
    const TraceModel &model = context.model;
    const std::vector<int> threads = threadsOfLayers(context, {Layer::DeviceStreams, Layer::Communication});
    for (int group = 0; group < static_cast<int>(model.groups().size()); ++group) {
        const auto region = partRegion(model, group, StepPart::CommunicationNotOverlapped);
        if (region && region->empty())
            continue; // all communication overlapped by computation
        struct Family
        {
            int ops = 0;
            TimeNs exposed = 0;
        };
        std::map<QString, Family> families;
        std::vector<std::pair<FindingOccurrence, TimeNs>> ops;
        std::vector<Interval> waits;
        IntervalSet counted;
        Finding finding;
        for (int t : threads) {
            if (groupOfThread(model, t) != group)
                continue;
            const SliceTable &slices = model.threads()[static_cast<std::size_t>(t)].slices;
            for (std::uint32_t i = 0; i < slices.size(); ++i) {
                const std::string_view name = model.strings().view(slices.name(i));
                if (isWaitTask(name)) {
                    waits.push_back({slices.start(i), slices.end(i)});
                    continue;
                }
                if (slices.parent(i) >= 0 || !isCommunicationOp(name))
                    continue;
                const std::vector<Interval> inside =
                    region ? idleSegments({}, *region, slices.start(i), slices.end(i))
                           : std::vector<Interval>{{slices.start(i), slices.end(i)}};
                TimeNs exposed = 0;
                for (const Interval &segment : inside) {
                    const TimeNs fresh = counted.uncovered(segment.first, segment.second);
                    counted.add(segment.first, segment.second);
                    if (fresh > 0)
                        finding.pieces.push_back({group, segment.first, segment.second, fresh});
                    exposed += fresh;
                }
                if (exposed <= 0)
                    continue;
                FindingOccurrence o = occurrenceOf(model, SliceRef{t, i});
                Family &family = families[opFamily(o.name)];
                ++family.ops;
                family.exposed += exposed;
                finding.timeAtStake += exposed;
                ops.push_back({o, exposed});
            }
        }
        if (finding.timeAtStake <= 0)
            continue;
        // The waits inside the exposed communication, each instant once.
        TimeNs waited = 0;
        IntervalSet waitCounted;
        for (const Finding::Piece &piece : finding.pieces)
            for (const Interval &w : waits) {
                const TimeNs begin = std::max(piece.begin, w.first), end = std::min(piece.end, w.second);
                if (end <= begin)
                    continue;
                waited += waitCounted.uncovered(begin, end);
                waitCounted.add(begin, end);
            }
        std::stable_sort(ops.begin(), ops.end(),
                         [](const auto &a, const auto &b) { return a.second > b.second; });
        for (const auto &[occurrence, exposed] : ops)
            if (finding.occurrences.size() < kMaxOccurrences)
                finding.occurrences.push_back(occurrence);
        const auto largest =
            std::max_element(families.begin(), families.end(), [](const auto &a, const auto &b) {
                return a.second.exposed < b.second.exposed;
            });
        QJsonArray byOp;
        for (const auto &[name, family] : families)
            byOp.append(QJsonObject{{QStringLiteral("op"), name},
                                    {QStringLiteral("count"), family.ops},
                                    {QStringLiteral("exposed_us"), toUs(family.exposed)}});
        finding.rank = context.rankOfGroup(group);
        finding.part = StepPart::CommunicationNotOverlapped;
        finding.title = InsightText::tr("Communication not overlapped with computation");
        const RankStepParts *parts = context.partsOfRank(finding.rank);
        const double percent = parts && parts->step > 0 ? 100.0 * static_cast<double>(finding.timeAtStake) /
                                                              static_cast<double>(parts->step)
                                                        : context.percentOfSteps(finding.timeAtStake);
        finding.severity = severityForPercent(percent);
        finding.explanation =
            InsightText::tr("Rank %1's communication ran for %2 ms while no computation ran. The most: %3 "
                            "(%4 op(s), %5 ms).")
                .arg(finding.rank)
                .arg(toUs(finding.timeAtStake) / 1000.0, 0, 'f', 3)
                .arg(largest->first)
                .arg(largest->second.ops)
                .arg(toUs(largest->second.exposed) / 1000.0, 0, 'f', 3);
        finding.explanation +=
            QLatin1Char(' ') +
            (waits.empty() ? InsightText::tr(
                                 "The data has no Notify Wait tasks, so waiting for the peer ranks cannot be "
                                 "told apart from the transfers.")
                           : InsightText::tr(
                                 "%1 ms of it were Notify Wait tasks: the rank waited for its peers in the "
                                 "collective, so a slower rank or an unequal split shows here as well as the "
                                 "transfers themselves.")
                                 .arg(toUs(waited) / 1000.0, 0, 'f', 3));
        finding.fix = InsightText::tr(
            "Overlap communication with computation (DDP / FSDP gradient buckets that start while the "
            "backward pass runs, communication on its own stream), send less (larger buckets, "
            "lower-precision "
            "gradients), and open the cluster page to see which rank the others wait for.");
        finding.data = QJsonObject{{QStringLiteral("by_op"), byOp},
                                   {QStringLiteral("wait_us"), toUs(waited)},
                                   {QStringLiteral("ops"), static_cast<int>(ops.size())}};
        findings.push_back(std::move(finding));
    }
}

} // namespace at
