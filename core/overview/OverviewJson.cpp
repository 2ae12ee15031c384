#include "OverviewJson.h"

#include "JsonWriter.h"
#include "MemoryAnalysis.h"

namespace at {

QString overviewScopeId(Overview::Scope scope)
{
    switch (scope) {
    case Overview::Scope::SingleRank:
        return QStringLiteral("single_rank");
    case Overview::Scope::SeveralRanks:
        return QStringLiteral("several_ranks");
    case Overview::Scope::Cluster:
        return QStringLiteral("cluster");
    }
    return {};
}

namespace {

void writeStrings(JsonWriter &j, const QString &key, const QStringList &values)
{
    j.key(key);
    j.beginArray();
    for (const QString &v : values)
        j.string(v);
    j.endArray();
}

void writeItems(JsonWriter &j, const std::vector<OverviewItem> &items)
{
    j.beginArray();
    for (const OverviewItem &item : items) {
        j.beginObject();
        j.field(QStringLiteral("kind"), overviewItemKindId(item.kind));
        j.field(QStringLiteral("name"), item.name);
        if (item.rank >= 0)
            j.integerField(QStringLiteral("rank"), item.rank);
        j.microsField(QStringLiteral("time_us"), item.time);
        j.integerField(QStringLiteral("count"), item.count);
        j.endObject();
    }
    j.endArray();
}

void writeStep(JsonWriter &j, const OverviewStep &step, TimeNs origin, bool hasTimeline)
{
    j.beginObject();
    j.key(QStringLiteral("step"));
    if (step.number == OverviewStep::kNoStepNumber)
        j.null();
    else
        j.integer(step.number);
    j.field(QStringLiteral("label"), step.label);
    j.field(QStringLiteral("source"), overviewPartsSourceId(step.source));
    if (hasTimeline) {
        j.microsField(QStringLiteral("begin_us"), origin + step.begin);
        j.microsField(QStringLiteral("end_us"), origin + step.end);
    }
    j.microsField(QStringLiteral("step_us"), step.total());
    for (const OverviewPartValue &p : step.parts) {
        j.key(overviewPartId(p.part) + QStringLiteral("_us"));
        if (p.present)
            j.micros(p.time);
        else
            j.null();
    }
    j.field(QStringLiteral("largest_part"), overviewPartId(step.largestPart()));
    j.key(QStringLiteral("contents"));
    j.beginObject();
    for (const OverviewPartValue &p : step.parts) {
        if (!p.present)
            continue;
        j.key(overviewPartId(p.part));
        writeItems(j, p.items);
        if (!p.byRank.empty()) {
            j.key(overviewPartId(p.part) + QStringLiteral("_by_rank"));
            writeItems(j, p.byRank);
        }
    }
    j.endObject();
    j.key(QStringLiteral("top_kernels"));
    j.beginArray();
    for (const OverviewKernel &k : step.topKernels) {
        j.beginObject();
        j.field(QStringLiteral("name"), k.name);
        j.field(QStringLiteral("type"), k.type);
        j.integerField(QStringLiteral("count"), k.count);
        j.microsField(QStringLiteral("total_us"), k.total);
        j.endObject();
    }
    j.endArray();
    j.endObject();
}

void writeMemoryPeak(JsonWriter &j, const std::optional<OverviewMemoryPeak> &peak, TimeNs origin,
                     bool relative)
{
    j.key(QStringLiteral("memory_peak"));
    if (!peak) {
        j.null();
        return;
    }
    j.beginObject();
    j.integerField(QStringLiteral("bytes"), peak->bytes);
    j.key(QStringLiteral("mb"));
    j.raw(bytesAsMegabytes(peak->bytes));
    j.field(QStringLiteral("component"), peak->component);
    j.field(QStringLiteral("metric"), peak->metric);
    j.microsField(QStringLiteral("time_us"), relative ? origin + peak->time : peak->time);
    j.field(QStringLiteral("source"), peak->source);
    j.endObject();
}

} // namespace

void writeOverview(JsonWriter &j, const Overview &overview, TimeNs origin)
{
    j.field(QStringLiteral("scope"), overviewScopeId(overview.scope));
    j.key(QStringLiteral("ranks"));
    j.beginArray();
    for (const OverviewRank &r : overview.ranks) {
        const bool hasTimeline = r.group >= 0;
        j.beginObject();
        j.integerField(QStringLiteral("rank"), r.rank);
        j.key(QStringLiteral("group"));
        if (hasTimeline)
            j.integer(r.group);
        else
            j.null();
        j.field(QStringLiteral("label"), r.label);
        j.key(QStringLiteral("steps"));
        j.beginArray();
        for (const OverviewStep &s : r.steps)
            writeStep(j, s, origin, hasTimeline);
        j.endArray();
        j.key(QStringLiteral("mean"));
        if (r.mean) {
            j.beginObject();
            j.integerField(QStringLiteral("steps"), static_cast<qint64>(r.steps.size()));
            j.key(QStringLiteral("breakdown"));
            writeStep(j, *r.mean, origin, false);
            j.endObject();
        } else {
            j.null();
        }
        writeMemoryPeak(j, r.memoryPeak, origin, hasTimeline);
        j.key(QStringLiteral("findings"));
        j.beginArray();
        for (int f : r.findings)
            j.integer(f);
        j.endArray();
        writeStrings(j, QStringLiteral("warnings"), r.warnings);
        writeStrings(j, QStringLiteral("missing"), r.missing);
        j.endObject();
    }
    j.endArray();
    j.key(QStringLiteral("findings"));
    j.beginArray();
    for (const OverviewFinding &f : overview.findings) {
        j.beginObject();
        j.integerField(QStringLiteral("index"), f.index);
        j.field(QStringLiteral("check"), f.check);
        j.field(QStringLiteral("title"), f.title);
        j.field(QStringLiteral("severity"), severityId(f.severity));
        j.field(QStringLiteral("part"), stepPartId(f.part));
        j.key(QStringLiteral("rank"));
        if (f.rank >= 0)
            j.integer(f.rank);
        else
            j.null();
        j.microsField(QStringLiteral("time_us"), f.time);
        j.numberField(QStringLiteral("share_of_part"), f.shareOfPart);
        j.numberField(QStringLiteral("share_of_step"), f.shareOfStep);
        j.endObject();
    }
    j.endArray();
    writeStrings(j, QStringLiteral("warnings"), overview.warnings);
    writeStrings(j, QStringLiteral("missing"), overview.missing);
}

QByteArray overviewToJson(const Overview &overview, TimeNs origin)
{
    JsonWriter j;
    j.beginObject();
    writeOverview(j, overview, origin);
    j.endObject();
    return j.text().toUtf8() + '\n';
}

} // namespace at
