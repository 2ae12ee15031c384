#pragma once
// The one text rendering of a Finding: --advise, --cluster and the cluster page print findings with these
// (the Insights panel shows the same fields in its columns). Texts go through InsightText::tr(), so the
// window shows them in the UI language and the command line (no translator) in English.

#include "InsightChecks.h"

#include <QString>

#include <cstddef>
#include <vector>

namespace at {

// "high", "medium", "low", translated (severityId() is the untranslated JSON id).
QString severityText(Severity severity);
// "computing", "communication not overlapped", "free time", "memory", translated (stepPartId() is the
// untranslated JSON id).
QString stepPartText(StepPart part);
// "[high] Pipeline stages are unbalanced  (stage_imbalance)": severity, title and check id.
QString findingHeading(const Finding &finding);
// "time at stake: 169.693 ms of rank 0's communication not overlapped (40.4 % of the part, 20.9 % of its
// step)"; without a rank "… of computing (… of the part, … of the step time)"; without a known part
// "time at stake: 823.000 µs (0.1 % of the step time)"; or "time at stake: none (informational)". Times
// in the unit of their magnitude with thousands separators (durationText, core/ExactText.h).
QString timeAtStakeText(const Finding &finding);
// "fix: …".
QString fixText(const Finding &finding);
// "rank 0  step 13: …  at 1764246877082702.440 us for 169.693 ms": the rank, the name, the absolute
// start as the exact µs of the profiler's files (only when the occurrence has a time of its own: a slice,
// or no rank) and the duration written as the time at stake is (durationText).
QString occurrenceText(const InsightContext &context, const FindingOccurrence &occurrence);

// The checks attributeFindings() did not list because another finding of the part counts their time, or it
// lies outside the part: "Also checked, no time of their own left to explain: operator_compile (rank 0, 1)."
// Empty when there is none.
QString alsoCheckedText(const std::vector<Finding> &withoutTime);

// A finding as a numbered block of lines ("1. [high] …", then the time at stake, the explanation, the fix
// and the first maxOccurrences occurrences, each indented by three spaces, and "... N more occurrence(s)").
QString findingText(const InsightContext &context, const Finding &finding, int number,
                    std::size_t maxOccurrences);

} // namespace at
