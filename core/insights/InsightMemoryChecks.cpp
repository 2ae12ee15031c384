// Memory check (this viewer's rule, docs/INSIGHTS.md): operators that allocate and free device memory
// again and again inside one step, from the operator allocations of core/MemoryProfile (FORMATS.md
// §9.5 operator_memory.csv / OP_MEMORY).

#include "InsightChecks.h"
#include "InsightSupport.h"

#include "Steps.h"

#include <QJsonArray>

#include <algorithm>
#include <map>
#include <tuple>

namespace at {

using namespace insights;

namespace {

// An operator is flagged when, inside one step, at least this many of its allocations are also freed
// inside that step (this viewer's choice: a few temporaries per op are normal, tens are churn).
constexpr int kMemoryChurnMinPairs = 10;

// The framework slice of the operator that made an allocation: same name, holding the allocation time.
SliceRef operatorSlice(const TraceModel &model, int group, const QString &name, TimeNs at)
{
    const QByteArray utf8 = name.toUtf8();
    const std::string_view wanted(utf8.constData(), static_cast<std::size_t>(utf8.size()));
    for (int t : threadsOfLayers(model, {Layer::Framework})) {
        if (groupOfThread(model, t) != group)
            continue;
        const SliceTable &slices = model.threads()[static_cast<std::size_t>(t)].slices;
        for (std::uint32_t i = 0; i < slices.size(); ++i) {
            if (slices.start(i) <= at && at < slices.end(i) && model.strings().view(slices.name(i)) == wanted)
                return SliceRef{t, i};
        }
    }
    return {};
}

} // namespace

void checkMemoryChurn(const InsightContext &context, std::vector<Finding> &findings)
{
    const TraceModel &model = context.model;
    const auto &allocations = model.memory().allocations;
    if (allocations.empty())
        return;
    struct Window
    {
        int group;
        std::int64_t step;
        TimeNs begin, end;
    };
    std::vector<Window> windows;
    for (const Step &s : model.steps())
        windows.push_back({s.group, s.number, s.begin(), s.end()});
    struct Churn
    {
        int pairs = 0;
        std::int64_t bytes = 0;
        std::vector<const MemoryAllocation *> examples;
    };
    // (group, step, operator) → its allocations freed inside the same step.
    std::map<std::tuple<int, std::int64_t, QString>, Churn> churn;
    for (const MemoryAllocation &a : allocations) {
        if (a.name == 0 || a.allocation == kNoTime || !a.released() || a.bytes <= 0 ||
            !context.covers(a.group))
            continue;
        std::int64_t step = -1;
        bool inside = windows.empty(); // without steps the whole profile is one window
        for (const Window &w : windows) {
            if (w.group == a.group && a.allocation >= w.begin && a.release < w.end) {
                step = w.step;
                inside = true;
                break;
            }
        }
        if (!inside)
            continue;
        Churn &c = churn[{a.group, step, model.strings().qstring(a.name)}];
        ++c.pairs;
        c.bytes += a.bytes;
        c.examples.push_back(&a);
    }
    std::vector<std::pair<const std::tuple<int, std::int64_t, QString> *, const Churn *>> flagged;
    for (const auto &[key, c] : churn) {
        if (c.pairs >= kMemoryChurnMinPairs)
            flagged.push_back({&key, &c});
    }
    std::stable_sort(flagged.begin(), flagged.end(),
                     [](const auto &a, const auto &b) { return a.second->pairs > b.second->pairs; });
    Finding finding;
    QJsonArray ops;
    int pairs = 0;
    for (const auto &[key, churned] : flagged) {
        const auto &[group, step, name] = *key;
        const Churn &c = *churned;
        pairs += c.pairs;
        ops.append(QJsonObject{{QStringLiteral("rank"), context.rankOfGroup(group)},
                               {QStringLiteral("step"), static_cast<double>(step)},
                               {QStringLiteral("operator"), name},
                               {QStringLiteral("allocations_freed_in_step"), c.pairs},
                               {QStringLiteral("bytes"), static_cast<double>(c.bytes)}});
        for (const MemoryAllocation *a : c.examples) {
            FindingOccurrence o{{}, group, name, a->allocation, a->release - a->allocation};
            finding.occurrences.push_back(o);
        }
    }
    if (ops.isEmpty())
        return;
    // The longest-lived of the flagged allocations are listed; each points at its operator's slice.
    keepLongest(finding.occurrences, kMaxOccurrences);
    for (FindingOccurrence &o : finding.occurrences)
        o.slice = operatorSlice(model, o.group, o.name, o.start);
    const QJsonObject top = ops.first().toObject();
    finding.title = InsightText::tr("Operators allocate and free memory repeatedly within a step");
    // Informational: the caching allocator makes each pair cheap; what it costs is fragmentation and
    // peak memory, not a time the profile measures.
    finding.severity = Severity::Low;
    finding.explanation =
        InsightText::tr("%n operator(s) allocate device memory and free it again within the same step at "
                        "least %1 times each (%2 allocations in all), e.g. %3 with %4. This churns the "
                        "caching allocator and fragments its memory.",
                        nullptr, static_cast<int>(ops.size()))
            .arg(kMemoryChurnMinPairs)
            .arg(pairs)
            .arg(top.value(QStringLiteral("operator")).toString())
            .arg(top.value(QStringLiteral("allocations_freed_in_step")).toInt());
    finding.fix = InsightText::tr("Reuse buffers: preallocate them outside the step, use in-place or out= "
                                  "variants, fuse the small ops (fused optimizers for _foreach ops), and set "
                                  "PYTORCH_NPU_ALLOC_CONF=expandable_segments:True against fragmentation.");
    finding.data =
        QJsonObject{{QStringLiteral("operators"), ops}, {QStringLiteral("min_pairs"), kMemoryChurnMinPairs}};
    findings.push_back(std::move(finding));
}

} // namespace at
