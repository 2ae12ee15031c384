#pragma once

#include "KernelQueries.h"
#include "TraceModel.h"

#include <QColor>
#include <QStringList>
#include <QWidget>

#include <optional>
#include <vector>

class QAbstractSeries;
class QChart;
class QChartView;
class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;

namespace at {

// The charts of the Charts panel and of `--chart NAME`.
enum class ChartKind
{
    TopKernels,    // "top-kernels": top-N kernel names by total time, horizontal bars by task type
    KernelMetrics, // "kernel-metrics": the metric group of the selected kernel(s)
    TimeByType,    // "time-by-type": device time per task type category, pie
    Scatter        // "scatter": duration against a metric column, one series per task type
};
QString chartKindName(ChartKind kind);
QString chartKindTitle(ChartKind kind); // "Top kernels", "Kernel metrics", ...
std::optional<ChartKind> chartKindFromName(const QString &name);

QColor taskCategoryColor(TaskCategory category);

// Chart builders: each returns a new chart (owned by the caller) with animations off, so it can be
// shown in a QChartView, inspected by tests, or rendered to an image. Series carry the kernel rows
// behind their bars/points in the property kKernelRowsProperty (QList<qulonglong>): per category
// for bar series (top kernels: the longest kernel of the group; kernel metrics: the kernel of the
// category), per point for scatter series. Bar series also carry per-category tool tips in
// kToolTipsProperty (QStringList).
inline constexpr char kKernelRowsProperty[] = "kernelRows";
inline constexpr char kToolTipsProperty[] = "categoryToolTips";
// Set (true) on bar series whose kernel rows are per category rather than per bar set.
inline constexpr char kRowsPerCategoryProperty[] = "rowsPerCategory";

// Top n groups by total duration (values in µs); categories bottom-up so the largest is on top,
// labelled "1. name"; one bar set per task category present (stacked, so each bar has one colour).
QChart *buildTopKernelsChart(const TraceModel &model, int n, KernelGrouping grouping = KernelGrouping::Name,
                             const KernelRows &filter = {});
// PipeUtilization: per (kernel, core) a group of horizontal bars, one bar set per pipe side by side
// (pipes run in parallel: their ratios do not add up), values in % of the kernel's time (ratio × 100)
// on a 0–100 % axis. Bandwidth groups: one bar per GB/s column, one bar set per kernel. Other ratio groups
// (ResourceConflictRatio): as bandwidth, in %. At most kMaxMetricKernels kernels are drawn.
inline constexpr std::size_t kMaxMetricKernels = 12;
QChart *buildKernelMetricsChart(const TraceModel &model, const KernelRows &kernels);
// Pie of timeByTaskCategory (slice values in µs), empty categories left out.
QChart *buildTimeByTypeChart(const TraceModel &model, const KernelRows &filter = {});
// x = the metric column's value, y = duration (µs); one QScatterSeries per task category.
QChart *buildScatterChart(const TraceModel &model, int column, const KernelRows &filter = {});
// The kernel rows stored in a series by the builders.
KernelRows seriesKernelRows(const QAbstractSeries *series);

// Dockable Charts panel: a chart chooser and the chart, reacting to the selected kernels and the
// filter. Clicking a scatter point or a top-kernel bar emits kernelActivated for that kernel.
class ChartsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ChartsPanel(QWidget *parent = nullptr);
    ~ChartsPanel() override;

    ChartKind currentChart() const;
    void setCurrentChart(ChartKind kind);
    int topCount() const;
    void setTopCount(int n);
    // Metric column of the scatter (index into kernels().columns()), -1 when there is none.
    int scatterColumn() const;
    void setScatterColumn(int column);

    const KernelRows &selectedKernels() const { return m_selected; }
    const KernelRows &filter() const { return m_filter; }
    QChartView *chartView() const { return m_view; }
    QChart *chart() const;
    QComboBox *chartChooser() const { return m_chooser; }
    QSpinBox *topCountBox() const { return m_topCount; }
    QComboBox *metricChooser() const { return m_metric; }

public Q_SLOTS:
    void setModel(const at::TraceModel *model);
    // The kernel rows the "Kernel metrics" chart shows (empty: the longest kernel with metrics).
    void showKernels(std::vector<std::size_t> rows);
    // Restricts every chart to these kernel rows (empty: all kernels).
    void setFilter(std::vector<std::size_t> rows);
    // A timeline selection: shows the metrics of the kernel joined to this slice, if any.
    void selectSlice(at::SliceRef ref);

Q_SIGNALS:
    void kernelActivated(at::SliceRef ref);
    void kernelRowActivated(qulonglong row);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi(); // the controls' texts; the constructor sets them through it too
    void rebuild();
    void updateControls();
    void populateMetrics();
    void connectChart(QChart *chart);
    void activateRow(std::size_t row);

    const TraceModel *m_model = nullptr;
    KernelRows m_selected;
    KernelRows m_filter;
    QLabel *m_chartLabel;
    QComboBox *m_chooser;
    QLabel *m_topLabel;
    QSpinBox *m_topCount;
    QCheckBox *m_byShape;
    QLabel *m_metricLabel;
    QComboBox *m_metric;
    QChartView *m_view;
};

} // namespace at
