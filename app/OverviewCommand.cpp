// `ascend-timeline --overview PATH [--json]`: the Overview (core/overview, docs/OVERVIEW.md) on the command
// line: per rank and step the parts of the step and what fills each part, the mean over the steps, the memory
// peak and the findings with the part and the share each explains. Loads and reads the cluster data as
// --advise does.

#include "CommandLine.h"

#include "ExactText.h"
#include "InsightChecks.h"
#include "MemoryAnalysis.h"
#include "cluster/ClusterReader.h"
#include "overview/Overview.h"
#include "overview/OverviewJson.h"

#include <QTextStream>

#include <algorithm>

namespace at {

namespace {

// ns as milliseconds with three decimals (rounded half up to the µs), for aligned text columns.
QString msText(TimeNs ns)
{
    const bool negative = ns < 0;
    const TimeNs us = ((negative ? -ns : ns) + 500) / 1000;
    return (negative ? QStringLiteral("-") : QString()) + QString::number(us / 1000) + QLatin1Char('.') +
           QStringLiteral("%1").arg(us % 1000, 3, 10, QLatin1Char('0'));
}

QString percentText(double share)
{
    return QString::number(share * 100.0, 'f', 1) + QStringLiteral(" %");
}

QString shareText(TimeNs part, TimeNs whole)
{
    return whole > 0 ? percentText(double(part) / double(whole)) : QStringLiteral("-");
}

QString left(const QString &text, int width)
{
    return text.size() > width ? text.left(width - 1) + QChar(0x2026) : text.leftJustified(width);
}

QString right(const QString &text, int width)
{
    return text.rightJustified(width);
}

constexpr OverviewPart kShownParts[] = {OverviewPart::Computing, OverviewPart::CommunicationNotOverlapped,
                                        OverviewPart::Free, OverviewPart::Preparing, OverviewPart::Bubble};

QString partCell(const OverviewStep &step, OverviewPart part)
{
    const OverviewPartValue &p = step.part(part);
    return p.present ? msText(p.time) : QStringLiteral("-");
}

void printPartsTable(QTextStream &out, const OverviewRank &r)
{
    out << "  " << left(QStringLiteral("Step"), 20) << left(QStringLiteral("Source"), 21)
        << right("Step ms", 12) << right("Computing", 12) << right("Comm. n.o.", 12) << right("Free", 12)
        << right("Preparing", 12) << right("Bubble", 12) << "  Largest part\n";
    auto row = [&](const OverviewStep &s) {
        out << "  " << left(s.label, 20) << left(overviewPartsSourceId(s.source), 21)
            << right(msText(s.total()), 12);
        for (OverviewPart p : kShownParts)
            out << right(partCell(s, p), 12);
        out << "  " << overviewPartName(s.largestPart()) << " ("
            << shareText(s.part(s.largestPart()).time, s.total()) << ")\n";
    };
    for (const OverviewStep &s : r.steps)
        row(s);
    if (r.mean && r.steps.size() > 1)
        row(*r.mean);
}

void printItems(QTextStream &out, const std::vector<OverviewItem> &items, TimeNs part)
{
    for (const OverviewItem &item : items) {
        if (item.time == 0 && item.kind != OverviewItemKind::NotAttributed)
            continue;
        out << "      " << left(item.name, 34) << right(msText(item.time), 12) << " ms"
            << right(shareText(item.time, part), 9);
        if (item.count > 0)
            out << "  (" << item.count << ")";
        out << "\n";
    }
}

void printContents(QTextStream &out, const OverviewStep &s)
{
    out << "  What fills each part (" << s.label << "):\n";
    for (OverviewPart p : kShownParts) {
        const OverviewPartValue &v = s.part(p);
        if (!v.present || !isAdditivePart(p))
            continue;
        out << "    " << left(overviewPartName(p), 36) << right(msText(v.time), 12) << " ms"
            << right(shareText(v.time, s.total()), 9) << " of the step\n";
        printItems(out, v.items, v.time);
        if (!v.byRank.empty()) {
            out << "      by the rank waited for:\n";
            printItems(out, v.byRank, v.time);
        }
    }
    if (!s.topKernels.empty()) {
        out << "  Top kernels (" << s.label << "):\n";
        out << "    " << left(QStringLiteral("Name"), 48) << ' ' << left(QStringLiteral("Type"), 16)
            << right("Count", 8) << right("Total ms", 12) << "\n";
        for (const OverviewKernel &k : s.topKernels)
            out << "    " << left(k.name, 48) << ' ' << left(k.type, 16) << right(QString::number(k.count), 8)
                << right(msText(k.total), 12) << "\n";
    }
}

void printRank(QTextStream &out, const OverviewRank &r, const Overview &overview, TimeNs origin)
{
    out << r.label << " (rank " << r.rank << ")\n";
    if (!r.steps.empty()) {
        printPartsTable(out, r);
        // The mean's contents (the one step's when there is only one).
        if (r.mean)
            printContents(out, r.steps.size() == 1 ? r.steps.front() : *r.mean);
    }
    if (r.memoryPeak) {
        const OverviewMemoryPeak &m = *r.memoryPeak;
        out << "  Memory peak: " << bytesAsMegabytes(m.bytes) << " MB (" << m.component << ", " << m.metric
            << ") at " << microsText(r.group >= 0 ? origin + m.time : m.time) << " us\n";
    }
    if (!r.findings.empty()) {
        out << "  Findings:";
        for (int f : r.findings)
            out << " #" << (f + 1);
        out << "\n";
    }
    for (const QString &w : r.warnings)
        out << "  Warning: " << w << "\n";
    for (const QString &m : r.missing)
        out << "  Missing: " << m << "\n";
    (void)overview;
    out << "\n";
}

void printFindings(QTextStream &out, const Overview &overview)
{
    if (overview.findings.empty()) {
        out << "No findings.\n";
        return;
    }
    out << "Findings (most time first):\n";
    out << "  " << right("#", 3) << right("Rank", 6) << "  " << left(QStringLiteral("Part"), 30)
        << right("Time ms", 12) << right("Of part", 9) << right("Of step", 9) << "  Title\n";
    for (const OverviewFinding &f : overview.findings)
        out << "  " << right(QString::number(f.index + 1), 3)
            << right(f.rank >= 0 ? QString::number(f.rank) : QStringLiteral("-"), 6) << "  "
            << left(stepPartId(f.part), 30) << right(msText(f.time), 12)
            << right(f.shareOfPart > 0 ? percentText(f.shareOfPart) : QStringLiteral("-"), 9)
            << right(f.shareOfStep > 0 ? percentText(f.shareOfStep) : QStringLiteral("-"), 9) << "  "
            << f.title << "\n";
}

QString scopeText(const Overview &overview)
{
    switch (overview.scope) {
    case Overview::Scope::SingleRank:
        return QStringLiteral("one rank");
    case Overview::Scope::SeveralRanks:
        return QStringLiteral("%1 ranks").arg(overview.ranks.size());
    case Overview::Scope::Cluster:
        return QStringLiteral("cluster of %1 ranks (summary files)").arg(overview.ranks.size());
    }
    return {};
}

} // namespace

int runOverview(const CommandLineOptions &options)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    if (options.paths.size() != 1) {
        err << "ascend-timeline: --overview needs exactly one PATH\n";
        return 2;
    }
    // As --advise: a cluster with summary-only ranks has no timeline to load; its Overview comes from the
    // ranks' summary files.
    AnalysisInput input;
    if (!loadAnalysisInput(options.paths.first(), options, err, input))
        return 1;
    const std::unique_ptr<TraceModel> &model = input.model;
    const std::shared_ptr<const cluster::ClusterModel> &data = input.cluster;
    OverviewInputs inputs;
    inputs.model = model.get();
    inputs.cluster = data.get();
    const Overview overview = buildOverview(inputs);
    for (const QString &warning : overview.warnings)
        err << "warning: " << warning << "\n";
    if (options.json) {
        out << QString::fromUtf8(overviewToJson(overview, model->origin()));
        return stdoutWritten(out, err) ? 0 : 1;
    }
    out << "Overview of " << options.paths.first() << ": " << scopeText(overview) << "\n";
    out << "Parts of each step in ms (Comm. n.o.: communication not overlapped with computing; the step is "
           "computing + comm. n.o. + free + preparing; bubble lies inside comm. n.o.)\n\n";
    for (const OverviewRank &r : overview.ranks)
        printRank(out, r, overview, model->origin());
    for (const QString &m : overview.missing)
        out << "Missing: " << m << "\n";
    printFindings(out, overview);
    return stdoutWritten(out, err) ? 0 : 1;
}

} // namespace at
