#include "ChartExport.h"

#include "ChartsPanel.h"
#include "KernelQueries.h"

#include "common/OutputPath.h"

#include <QApplication>
#include <QBuffer>
#include <QChart>
#include <QChartView>
#include <QEventLoop>
#include <QFileInfo>
#include <QImageWriter>
#include <QPainter>

namespace at {

QStringList chartNames()
{
    return {chartKindName(ChartKind::TopKernels), chartKindName(ChartKind::KernelMetrics),
            chartKindName(ChartKind::TimeByType), chartKindName(ChartKind::Scatter)};
}

QChart *buildNamedChart(const TraceModel &model, const QString &chartName, QString *error)
{
    auto fail = [error](const QString &message) -> QChart * {
        if (error)
            *error = message;
        return nullptr;
    };
    const qsizetype colon = chartName.indexOf(QLatin1Char(':'));
    const QString name = (colon < 0 ? chartName : chartName.left(colon)).trimmed();
    const QString argument = colon < 0 ? QString() : chartName.mid(colon + 1).trimmed();
    const std::optional<ChartKind> kind = chartKindFromName(name);
    if (!kind)
        return fail(QObject::tr("unknown chart \"%1\" (expected one of: %2)")
                        .arg(name, chartNames().join(QStringLiteral(", "))));
    switch (*kind) {
    case ChartKind::TopKernels: {
        int n = 10;
        if (!argument.isEmpty()) {
            bool ok = false;
            n = argument.toInt(&ok);
            if (!ok || n < 1)
                return fail(
                    QObject::tr("top-kernels: \"%1\" is not a positive number of kernels").arg(argument));
        }
        return buildTopKernelsChart(model, n);
    }
    case ChartKind::KernelMetrics: {
        const std::ptrdiff_t row = longestKernelRow(model, argument);
        if (row < 0 && !argument.isEmpty())
            return fail(QObject::tr("kernel-metrics: no kernel named \"%1\"").arg(argument));
        return buildKernelMetricsChart(model,
                                       row < 0 ? KernelRows{} : KernelRows{static_cast<std::size_t>(row)});
    }
    case ChartKind::TimeByType:
        return buildTimeByTypeChart(model);
    case ChartKind::Scatter: {
        int column = defaultScatterColumn(model.kernels());
        if (!argument.isEmpty()) {
            column = model.kernels().columnIndex(argument);
            if (column < 0)
                return fail(QObject::tr("scatter: no metric column \"%1\"").arg(argument));
        }
        return buildScatterChart(model, column);
    }
    }
    return fail(QObject::tr("unknown chart \"%1\"").arg(name));
}

QImage renderChartImage(QChart *chart, QSize size)
{
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    if (!chart || size.isEmpty())
        return image;
    QChartView view;
    QChart *initial = view.chart();
    view.setChart(chart);
    delete initial;
    view.setFrameShape(QFrame::NoFrame);
    view.setRenderHint(QPainter::Antialiasing);
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.resize(size);
    view.show();
    // Lets the chart lay itself out (layout requests are posted events); user input waits.
    QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        view.render(&painter);
    }
    // Hand the chart back to the caller: the view deletes only the chart it holds at the end.
    view.setChart(new QChart);
    return image;
}

bool renderChartPng(const TraceModel &model, const QString &chartName, const QString &outPath, QSize size,
                    QString *error)
{
    auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return false;
    };
    if (!qobject_cast<QApplication *>(QCoreApplication::instance()))
        return fail(QObject::tr("rendering a chart needs a QApplication (use QT_QPA_PLATFORM=offscreen)"));
    if (size.isEmpty())
        return fail(QObject::tr("chart size %1x%2 is empty").arg(size.width()).arg(size.height()));
    QString buildError;
    std::unique_ptr<QChart> chart(buildNamedChart(model, chartName, &buildError));
    if (!chart)
        return fail(buildError);
    const QImage image = renderChartImage(chart.get(), size);
    QBuffer encoded;
    encoded.open(QIODevice::WriteOnly);
    QImageWriter writer(&encoded, "png");
    QString why;
    if (!writer.write(image) || !writeOutputFile(outPath, encoded.data(), &why, inputFilesOf(model)))
        return fail(
            QObject::tr("%1: cannot write PNG: %2")
                .arg(QFileInfo(outPath).absoluteFilePath(), why.isEmpty() ? writer.errorString() : why));
    return true;
}

} // namespace at
