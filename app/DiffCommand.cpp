// `ascend-timeline --diff BASE NEW [--steps A,B] [--match-shapes] [--json|--csv OUT]`: two profiles compared
// by framework op (core/diff, docs/DIFF.md). Both inputs load with the same LoadOptions as every other mode.

#include "CommandLine.h"

#include "ExactText.h"
#include "common/OutputPath.h"
#include "diff/OpDiff.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QTextStream>

#include <cmath>

namespace at {

namespace {

constexpr int kTextRows = 20; // matched rows the text report lists

QString usMs(TimeNs ns)
{
    return microsText(ns) + QStringLiteral(" us");
}

QString signedUs(TimeNs ns)
{
    return (ns > 0 ? QStringLiteral("+") : QString()) + usMs(ns);
}

QString availableSteps(const TraceModel &model)
{
    QStringList numbers;
    for (const diff::DiffWindow &window : diff::profilerStepWindows(model))
        numbers << window.label.mid(QStringLiteral("ProfilerStep#").size());
    return numbers.isEmpty() ? QCoreApplication::translate("CommandLine", "none")
                             : numbers.join(QStringLiteral(", "));
}

// The side's window: ProfilerStep#spec, or the whole profile when spec is empty. False with the error on err.
bool sideWindow(const TraceModel &model, const QString &path, const QString &spec, diff::DiffWindow &window,
                QTextStream &err)
{
    if (spec.isEmpty()) {
        window = diff::wholeProfileWindow(model);
        return true;
    }
    bool ok = false;
    const qint64 number = spec.trimmed().toLongLong(&ok);
    const auto found = ok ? diff::profilerStepWindow(model, number) : std::nullopt;
    if (!found) {
        err << "ascend-timeline: "
            << QCoreApplication::translate("CommandLine", "%1: no step '%2' (ProfilerStep numbers found: %3)")
                   .arg(path, spec, availableSteps(model))
            << '\n';
        return false;
    }
    window = *found;
    return true;
}

void writeHeadlineLine(QTextStream &out, const QString &what, TimeNs base, TimeNs comparison)
{
    out << QStringLiteral("  %1 %2 -> %3  (%4)\n")
               .arg(what.leftJustified(30), usMs(base).rightJustified(16),
                    usMs(comparison).rightJustified(16), signedUs(comparison - base));
}

QString ratioText(double ratio)
{
    return std::isfinite(ratio) ? QString::number(ratio, 'f', 3) : QStringLiteral("inf");
}

void writeRow(QTextStream &out, const diff::DiffRow &row)
{
    out << QStringLiteral("  %1  %2 -> %3  x%4  %5%6\n")
               .arg(signedUs(row.deltaNs).rightJustified(16), usMs(row.base.deviceNs).rightJustified(14),
                    usMs(row.comparison.deviceNs).rightJustified(14), ratioText(row.ratio),
                    row.path.isEmpty() ? row.name : row.path,
                    row.shapes.isEmpty() ? QString() : QStringLiteral("  [%1]").arg(row.shapes));
}

QString diffText(const diff::DiffResult &result, const QString &basePath, const QString &comparisonPath)
{
    QString text;
    QTextStream out(&text);
    out << "Base: " << basePath << "  " << result.base.label << '\n';
    out << "New:  " << comparisonPath << "  " << result.comparison.label << '\n';
    out << "Match: " << result.method << '\n';
    std::size_t matched = 0;
    for (const diff::DiffRow &row : result.rows)
        matched += row.kind == diff::RowKind::MatchedOp ? 1 : 0;
    out << QStringLiteral("Ops: %1 -> %2, matched %3, only in base %4, only in new %5\n")
               .arg(result.base.opCount)
               .arg(result.comparison.opCount)
               .arg(matched)
               .arg(result.unmatchedBase.size())
               .arg(result.unmatchedComparison.size());
    out << "Headline (device time, base -> new):\n";
    writeHeadlineLine(out, QStringLiteral("step"), result.base.stepTime, result.comparison.stepTime);
    writeHeadlineLine(out, QStringLiteral("computing"), result.base.computing, result.comparison.computing);
    writeHeadlineLine(out, QStringLiteral("communication"), result.base.communication,
                      result.comparison.communication);
    writeHeadlineLine(out, QStringLiteral("communication not overlapped"),
                      result.base.communicationNotOverlapped, result.comparison.communicationNotOverlapped);
    writeHeadlineLine(out, QStringLiteral("memcpy/memset"), result.base.memory, result.comparison.memory);
    writeHeadlineLine(out, QStringLiteral("free"), result.base.free, result.comparison.free);
    out << "Ops explaining most of the difference (delta, base -> new device time, ratio, call path):\n";
    if (result.topRows.empty())
        out << "  none: every matched op has the same device time\n";
    for (const int r : result.topRows)
        writeRow(out, result.rows[static_cast<std::size_t>(r)]);
    out << "Rows that make up the step (device time, base -> new):\n";
    for (const diff::DiffRow &row : result.rows)
        if (row.kind != diff::RowKind::MatchedOp)
            writeRow(out, row);
    out << QStringLiteral("Matched ops in call order (first %1 of %2; --json or --csv for all):\n")
               .arg(std::min<std::size_t>(kTextRows, matched))
               .arg(matched);
    int listed = 0;
    for (const diff::DiffRow &row : result.rows)
        if (row.kind == diff::RowKind::MatchedOp && listed++ < kTextRows)
            writeRow(out, row);
    const auto unmatched = [&out](const char *side, const std::vector<diff::UnmatchedOp> &ops) {
        if (ops.empty())
            return;
        out << "Only in " << side << " (" << ops.size() << "):\n";
        int shown = 0;
        for (const diff::UnmatchedOp &op : ops)
            if (shown++ < kTextRows)
                out << QStringLiteral("  %1  %2\n").arg(usMs(op.deviceNs).rightJustified(14), op.path);
    };
    unmatched("base", result.unmatchedBase);
    unmatched("new", result.unmatchedComparison);
    for (const QString &warning : result.warnings)
        out << "Warning: " << warning << '\n';
    out.flush();
    return text;
}

} // namespace

int runDiff(const CommandLineOptions &options)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    if (options.paths.size() != 2) {
        err << "ascend-timeline: "
            << QCoreApplication::translate("CommandLine", "--diff needs two inputs: BASE NEW (got %1)")
                   .arg(options.paths.size())
            << '\n';
        return 2;
    }
    if (options.json && !options.csvOut.isEmpty()) {
        err << "ascend-timeline: "
            << QCoreApplication::translate("CommandLine", "--diff takes --json or --csv OUT, not both")
            << '\n';
        return 2;
    }
    QStringList steps;
    if (!options.diffSteps.isEmpty()) {
        steps = options.diffSteps.split(QLatin1Char(','));
        if (steps.size() != 2 || steps[0].trimmed().isEmpty() || steps[1].trimmed().isEmpty()) {
            err << "ascend-timeline: "
                << QCoreApplication::translate(
                       "CommandLine", "--steps needs two ProfilerStep numbers A,B (e.g. 5,50), not '%1'")
                       .arg(options.diffSteps)
                << '\n';
            return 2;
        }
    }
    const QString basePath = options.paths[0], comparisonPath = options.paths[1];
    const std::unique_ptr<TraceModel> baseModel = loadForCommand(basePath, options, err);
    if (!baseModel)
        return 1;
    // Two steps of one profile load it once.
    const bool samePath =
        QFileInfo(basePath).canonicalFilePath() == QFileInfo(comparisonPath).canonicalFilePath();
    std::unique_ptr<TraceModel> other;
    if (!samePath) {
        other = loadForCommand(comparisonPath, options, err);
        if (!other)
            return 1;
    }
    const TraceModel &comparisonModel = samePath ? *baseModel : *other;

    diff::DiffInput base{baseModel.get(), {}}, comparison{&comparisonModel, {}};
    if (!sideWindow(*baseModel, basePath, steps.value(0), base.window, err) ||
        !sideWindow(comparisonModel, comparisonPath, steps.value(1), comparison.window, err))
        return 1;
    diff::DiffOptions diffOptions;
    diffOptions.matchShapes = options.matchShapes;
    const diff::DiffResult result = diff::diffProfiles(base, comparison, diffOptions);
    if (result.base.opCount == 0 || result.comparison.opCount == 0) {
        const bool first = result.base.opCount == 0;
        err << "ascend-timeline: "
            << QCoreApplication::translate(
                   "CommandLine", "%1: no framework ops (cpu_op or user_annotation events) in %2; --diff "
                                  "compares profiles recorded by the PyTorch profiler (torch_npu or Kineto)")
                   .arg(first ? basePath : comparisonPath,
                        first ? base.window.label : comparison.window.label)
            << '\n';
        return 1;
    }

    if (options.json)
        out << diff::diffJson(result, baseModel.get(), &comparisonModel);
    else
        out << diffText(result, basePath, comparisonPath);
    out.flush();
    if (!stdoutWritten(out, err))
        return 1;
    if (!options.csvOut.isEmpty()) {
        QStringList inputs = inputFilesOf(*baseModel);
        if (other)
            inputs << inputFilesOf(*other);
        if (!outsideDataFolders(QStringLiteral("--csv"), options.csvOut, options.paths, err) ||
            !writeFileAtomically(options.csvOut,
                                 diff::diffCsv(result, baseModel.get(), &comparisonModel).toUtf8(), err,
                                 inputs))
            return 1;
    }
    return 0;
}

} // namespace at
