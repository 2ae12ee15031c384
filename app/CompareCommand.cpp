#include "CommandLine.h"

#include "MemoryAnalysis.h"
#include "StepComparison.h"
#include "common/OutputPath.h"

#include <QFileInfo>
#include <QTextStream>

namespace at {

namespace {

// "N" (first group with step N) or "GROUP:N"; index into model.steps() or -1.
int resolveStep(const TraceModel &model, const QString &spec)
{
    const QStringList parts = spec.trimmed().split(QLatin1Char(':'));
    bool ok = false;
    const qint64 number = parts.last().toLongLong(&ok);
    if (!ok || parts.size() > 2)
        return -1;
    int group = -1;
    if (parts.size() == 2) {
        group = parts.first().toInt(&ok);
        if (!ok)
            return -1;
    }
    return findStep(model.steps(), number, group);
}

QString describe(const QString &path, const TraceModel &model, int step)
{
    const Step &s = model.steps()[static_cast<std::size_t>(step)];
    const QString group = model.groups()[static_cast<std::size_t>(s.group)].label;
    return QStringLiteral("%1  %2%3")
        .arg(path, group.isEmpty() ? QString() : group + QStringLiteral("  "), s.label);
}

QString availableSteps(const TraceModel &model)
{
    QStringList out;
    for (const Step &s : model.steps())
        out << QStringLiteral("%1:%2").arg(s.group).arg(s.number);
    return out.isEmpty() ? QStringLiteral("none") : out.join(QStringLiteral(", "));
}

// "Memory peak (PTA+GE allocated): 1261.04296875 MB at +12345.67 us -> ... (diff +9.5 MB)": the two steps'
// peaks on their overall Allocated curves, times from each step's start; empty without memory data.
QString memoryPeakLine(const TraceModel &baseModel, const Step &baseStep, const TraceModel &comparisonModel,
                       const Step &comparisonStep)
{
    const StepMemoryComparison m =
        compareStepMemory(baseModel.memory(), baseStep, comparisonModel.memory(), comparisonStep);
    if (m.isEmpty())
        return {};
    const auto peak = [](const StepMemorySide &side) {
        return side.step
                   ? QStringLiteral("%1 MB at +%2 us")
                         .arg(bytesAsMegabytes(side.step->peakBytes), nanosAsMicros(side.step->peakTime))
                   : QStringLiteral("no data");
    };
    const bool base = m.base.curve >= 0;
    const QString &component = (base ? baseModel : comparisonModel)
                                   .memory()
                                   .curves[static_cast<std::size_t>(base ? m.base.curve : m.comparison.curve)]
                                   .component;
    QString line = QStringLiteral("Memory peak (%1 allocated): %2 -> %3")
                       .arg(component, peak(m.base), peak(m.comparison));
    if (const auto diff = m.peakDiffBytes())
        line += QStringLiteral(" (diff %1%2 MB)")
                    .arg(*diff >= 0 ? QStringLiteral("+") : QString(), bytesAsMegabytes(*diff));
    return line + QLatin1Char('\n');
}

} // namespace

int runCompareSteps(const CommandLineOptions &options)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    const QStringList specs = options.compareSteps.split(QLatin1Char(','));
    if (specs.size() != 2 || options.paths.size() != 1) {
        err << "ascend-timeline: --compare-steps needs A,B and exactly one PATH\n";
        return 2;
    }
    const std::unique_ptr<TraceModel> baseModel = loadForCommand(options.paths.first(), options, err);
    if (!baseModel)
        return 1;
    std::unique_ptr<TraceModel> other;
    const TraceModel *comparisonModel = baseModel.get();
    QString comparisonPath = options.paths.first();
    if (!options.against.isEmpty()) {
        other = loadForCommand(options.against, options, err);
        if (!other)
            return 1;
        comparisonModel = other.get();
        comparisonPath = options.against;
    }
    const int a = resolveStep(*baseModel, specs[0]);
    const int b = resolveStep(*comparisonModel, specs[1]);
    if (a < 0 || b < 0) {
        const bool first = a < 0;
        err << "ascend-timeline: " << (first ? options.paths.first() : comparisonPath) << ": no step '"
            << (first ? specs[0] : specs[1])
            << "' (steps found: " << availableSteps(first ? *baseModel : *comparisonModel) << ")\n";
        return 1;
    }
    CompareOptions compareOptions;
    compareOptions.matchShapes = options.matchShapes;
    const StepComparison c =
        compareSteps(*baseModel, baseModel->steps()[static_cast<std::size_t>(a)], *comparisonModel,
                     comparisonModel->steps()[static_cast<std::size_t>(b)], compareOptions);
    out << formatComparisonText(c, describe(options.paths.first(), *baseModel, a),
                                describe(comparisonPath, *comparisonModel, b));
    out << memoryPeakLine(*baseModel, baseModel->steps()[static_cast<std::size_t>(a)], *comparisonModel,
                          comparisonModel->steps()[static_cast<std::size_t>(b)]);
    out.flush();
    if (!stdoutWritten(out, err))
        return 1;
    QStringList inputs = inputFilesOf(*baseModel);
    if (other)
        inputs << inputFilesOf(*other);
    if (!options.csvOut.isEmpty() &&
        !writeFileAtomically(options.csvOut, formatComparisonByNameCsv(c), err, inputs))
        return 1;
    if (!options.kernelsCsvOut.isEmpty() &&
        !writeFileAtomically(options.kernelsCsvOut, formatComparisonKernelsCsv(c), err, inputs))
        return 1;
    return 0;
}

} // namespace at
