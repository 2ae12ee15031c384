#include "FindingText.h"

#include "ExactText.h"
#include "Time.h"

#include <QStringList>

#include <algorithm>
#include <utility>

namespace at {

QString severityText(Severity severity)
{
    switch (severity) {
    case Severity::High:
        return InsightText::tr("high");
    case Severity::Medium:
        return InsightText::tr("medium");
    case Severity::Low:
        break;
    }
    return InsightText::tr("low");
}

QString stepPartText(StepPart part)
{
    switch (part) {
    case StepPart::Computing:
        return InsightText::tr("computing");
    case StepPart::CommunicationNotOverlapped:
        return InsightText::tr("communication not overlapped");
    case StepPart::Free:
        return InsightText::tr("free time");
    case StepPart::Memory:
        return InsightText::tr("memory");
    case StepPart::Unknown:
        break;
    }
    return InsightText::tr("unknown part");
}

QString findingHeading(const Finding &finding)
{
    return InsightText::tr("[%1] %2  (%3)").arg(severityText(finding.severity), finding.title, finding.check);
}

QString timeAtStakeText(const Finding &finding)
{
    if (finding.timeAtStake <= 0 && finding.data.contains(QLatin1String("already_counted_us")))
        return InsightText::tr(
            "time at stake: none of its own (another finding of the part counts the same time)");
    if (finding.timeAtStake <= 0 && finding.data.contains(QLatin1String("outside_part_us")))
        return InsightText::tr("time at stake: none inside the part it explains (its time lies outside it)");
    if (finding.timeAtStake <= 0)
        return InsightText::tr("time at stake: none (informational)");
    const QString time = durationText(finding.timeAtStake);
    if (finding.partTime <= 0)
        return InsightText::tr("time at stake: %1 (%2 % of the step time)")
            .arg(time, QString::number(finding.stepPercent, 'f', 1));
    const QString ofPart = QString::number(100.0 * finding.shareOfPart(), 'f', 1);
    const QString ofStep = QString::number(100.0 * finding.shareOfStep(), 'f', 1);
    if (finding.rank < 0)
        return InsightText::tr("time at stake: %1 of %2 (%3 % of the part, %4 % of the step time)")
            .arg(time, stepPartText(finding.part), ofPart, ofStep);
    return InsightText::tr("time at stake: %1 of rank %2's %3 (%4 % of the part, %5 % of its step)")
        .arg(time)
        .arg(finding.rank)
        .arg(stepPartText(finding.part), ofPart, ofStep);
}

QString fixText(const Finding &finding)
{
    return InsightText::tr("fix: %1").arg(finding.fix);
}

QString occurrenceText(const InsightContext &context, const FindingOccurrence &occurrence)
{
    QString text = InsightText::tr("rank %1  %2").arg(context.rankOf(occurrence)).arg(occurrence.name);
    // Cluster-only occurrences (a rank, no slice) carry no time of their own. The start stays the exact
    // absolute µs of the profiler's files (to find the event there); the duration reads as the headline's.
    if (occurrence.rank < 0 || occurrence.slice.isValid())
        text += InsightText::tr("  at %1 us")
                    .arg(formatAbsoluteMicros(context.model.origin() + occurrence.start));
    return text + InsightText::tr(" for %1").arg(durationText(occurrence.duration));
}

QString alsoCheckedText(const std::vector<Finding> &withoutTime)
{
    // Per check, in the order met, the ranks it was found on.
    std::vector<std::pair<QString, QStringList>> checks;
    for (const Finding &f : withoutTime) {
        auto it =
            std::find_if(checks.begin(), checks.end(), [&f](const auto &c) { return c.first == f.check; });
        if (it == checks.end())
            it = checks.insert(checks.end(), {f.check, {}});
        if (f.rank >= 0 && !it->second.contains(QString::number(f.rank)))
            it->second << QString::number(f.rank);
    }
    if (checks.empty())
        return {};
    QStringList parts;
    for (const auto &c : checks)
        parts << (c.second.isEmpty()
                      ? c.first
                      : InsightText::tr("%1 (rank %2)").arg(c.first, c.second.join(QStringLiteral(", "))));
    return InsightText::tr(
               "Also checked, no time of their own left to explain (another finding counts it, or "
               "it lies outside the part): %1.")
        .arg(parts.join(QStringLiteral("; ")));
}

QString findingText(const InsightContext &context, const Finding &finding, int number,
                    std::size_t maxOccurrences)
{
    const QString indent = QStringLiteral("   ");
    QString text =
        QString::number(number) + QStringLiteral(". ") + findingHeading(finding) + QLatin1Char('\n');
    text += indent + timeAtStakeText(finding) + QLatin1Char('\n');
    text += indent + finding.explanation + QLatin1Char('\n');
    text += indent + fixText(finding) + QLatin1Char('\n');
    const std::size_t shown = std::min(finding.occurrences.size(), maxOccurrences);
    for (std::size_t i = 0; i < shown; ++i)
        text += indent + QStringLiteral("- ") + occurrenceText(context, finding.occurrences[i]) +
                QLatin1Char('\n');
    if (finding.occurrences.size() > shown)
        text += indent +
                InsightText::tr("... %1 more occurrence(s)").arg(finding.occurrences.size() - shown) +
                QLatin1Char('\n');
    return text;
}

} // namespace at
