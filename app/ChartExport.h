#pragma once

#include "TraceModel.h"

#include <QImage>
#include <QSize>
#include <QString>
#include <QStringList>

class QChart;

namespace at {

// Charts by name for `--chart NAME --out FILE.png PATH`. A name may carry one argument after ':':
//   top-kernels[:N]              top N kernels by total time (default 10)
//   kernel-metrics[:KERNEL]      metric group of the longest kernel with metrics, or of the
//                                longest kernel of that exact name
//   time-by-type                 device time per task type (pie)
//   scatter[:METRIC]             duration vs a metric column header (default aic_mac_ratio)
QStringList chartNames(); // the four names without arguments

// The named chart (owned by the caller), or nullptr with *error set for an unknown name or argument.
QChart *buildNamedChart(const TraceModel &model, const QString &chartName, QString *error = nullptr);

// Renders a chart into an image of the given size (white background) without showing a window.
// Needs a QApplication (any platform, e.g. QT_QPA_PLATFORM=offscreen).
QImage renderChartImage(QChart *chart, QSize size);

// Builds the named chart and writes it to outPath as PNG. false with *error (naming the chart or
// the file) on an unknown chart, an empty size, no QApplication, or a failed write.
bool renderChartPng(const TraceModel &model, const QString &chartName, const QString &outPath, QSize size,
                    QString *error);

} // namespace at
