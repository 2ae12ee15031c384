#include "ClusterCommBound.h"

#include "ClusterOutput.h"

#include "JsonWriter.h"
#include "TraceLoader.h"

namespace at {

using namespace at::cluster;

namespace {

using cluster_output::ms;
using cluster_output::stepText;
using cluster_output::writeStep;

void optionalMicros(JsonWriter &j, const QString &name, const std::optional<TimeNs> &ns)
{
    j.key(name);
    if (ns)
        j.micros(*ns);
    else
        j.null();
}

// One rank's evidence; times in µs on the rank's own clock.
void writeEvidence(JsonWriter &j, const QString &name, const RankOpEvidence &e)
{
    j.key(name);
    j.beginObject();
    j.integerField(QStringLiteral("rank"), e.rank);
    j.key(QStringLiteral("has_timeline"));
    j.boolean(e.hasTimeline);
    j.key(QStringLiteral("found"));
    j.boolean(e.found);
    j.key(QStringLiteral("has_host_data"));
    j.boolean(e.hasHostData);
    j.microsField(QStringLiteral("op_start_us"), e.opStart);
    j.microsField(QStringLiteral("op_end_us"), e.opEnd);
    optionalMicros(j, QStringLiteral("launch_us"), e.launch);
    j.field(QStringLiteral("launch_api"), e.launchApi);
    j.field(QStringLiteral("stream"), e.stream);
    j.key(QStringLiteral("stream_inferred"));
    j.boolean(e.streamInferred);
    j.key(QStringLiteral("preceding"));
    j.beginArray();
    for (const PrecedingTask &t : e.preceding) {
        j.beginObject();
        j.field(QStringLiteral("name"), t.name);
        j.microsField(QStringLiteral("start_us"), t.start);
        j.microsField(QStringLiteral("end_us"), t.end);
        j.endObject();
    }
    j.endArray();
    j.endObject();
}

void writeResult(JsonWriter &j, const CommBoundResult &r)
{
    j.beginObject();
    writeStep(j, r.op.step);
    j.field(QStringLiteral("op"), r.op.op);
    j.field(QStringLiteral("group"), r.op.group);
    j.integerField(QStringLiteral("fast_rank"), r.op.fastRank);
    j.integerField(QStringLiteral("slow_rank"), r.op.slowRank);
    j.microsField(QStringLiteral("fast_elapse_us"), r.op.fastElapse);
    j.microsField(QStringLiteral("slow_elapse_us"), r.op.slowElapse);
    j.microsField(QStringLiteral("gap_us"), r.op.gap());
    j.microsField(QStringLiteral("fast_wait_us"), r.op.fastWait);
    j.field(QStringLiteral("verdict"), commBoundVerdictKey(r.verdict));
    j.field(QStringLiteral("reason"), r.reason);
    j.microsField(QStringLiteral("latency_us"), r.latency);
    j.microsField(QStringLiteral("claimed_us"), r.claimed());
    optionalMicros(j, QStringLiteral("launch_difference_us"), r.launchDifference);
    optionalMicros(j, QStringLiteral("launch_after_fast_arrival_us"), r.launchAfterFastArrival);
    optionalMicros(j, QStringLiteral("device_after_fast_arrival_us"), r.deviceAfterFastArrival);
    writeEvidence(j, QStringLiteral("fast"), r.fast);
    writeEvidence(j, QStringLiteral("slow"), r.slow);
    j.endObject();
}

} // namespace

CommBoundAnalysis runCommBound(const ClusterModel &model, const LoadOptions &load, QTextStream &err)
{
    return analyseCommBound(model, [&model, &load, &err](int rank) {
        RankTimeline timeline;
        const Rank *r = model.rank(rank);
        if (!r || !r->hasTimeline)
            return timeline;
        LoadControl control;
        LoadResult result = loadTrace(r->folder, load, control);
        if (!result.model) {
            timeline.problem = result.error;
            err << "warning: --comm-bound: rank " << rank << ": " << result.error << "\n";
            return timeline;
        }
        timeline.owned = std::move(result.model); // freed once this rank's evidence is taken
        timeline.model = timeline.owned.get();
        return timeline;
    });
}

void writeCommBoundJson(JsonWriter &j, const CommBoundAnalysis &analysis)
{
    j.key(QStringLiteral("comm_bound"));
    j.beginObject();
    j.numberField(QStringLiteral("gap_share"), kCommBoundGapShare);
    j.numberField(QStringLiteral("explained_share"), kCommBoundExplainedShare);
    j.integerField(QStringLiteral("max_ops"), analysis.maxOps);
    j.integerField(QStringLiteral("ops_with_gap"), analysis.opsWithGap);
    j.key(QStringLiteral("ops"));
    j.beginArray();
    for (const CommBoundResult &r : analysis.ops)
        writeResult(j, r);
    j.endArray();
    j.endObject();
}

void writeCommBoundText(QTextStream &out, const CommBoundAnalysis &analysis)
{
    out << "host- or device-bound communication (the " << analysis.ops.size() << " longest of "
        << analysis.opsWithGap << " ops whose fast and slow rank differ by more than "
        << 100.0 * kCommBoundGapShare << " %; times relative to the op's end on each rank):\n";
    if (analysis.ops.empty())
        out << "  no op with such a gap\n";
    for (const CommBoundResult &r : analysis.ops)
        out << "  " << stepText(r.op.step) << "  " << r.op.op << "  slow rank " << r.op.slowRank
            << ", fast rank " << r.op.fastRank << ", gap " << ms(r.op.gap())
            << " ms: " << commBoundVerdictKey(r.verdict) << " (" << ms(r.latency) << " ms): " << r.reason
            << "\n";
}

} // namespace at
