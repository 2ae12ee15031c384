#pragma once

#include "MemoryAnalysis.h"
#include "StepComparison.h"
#include "TimelineView.h"

#include <QHash>
#include <QWidget>

#include <optional>

class QChartView;
class QCheckBox;
class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;
class QTabWidget;

namespace at {

class ComparisonTableModel;

// Two steps one above the other in synchronised timelines (each ruler counts from its step's
// start), kernels coloured by their duration change, and the diff table below. w/s/a/d, wheel and
// drag in either pane move both; panes are aligned on the step starts or on a chosen kernel pair.
// With memory data, a Memory tab overlays the two steps' memory curves on step-relative time and the
// summary gives the difference of their peaks. The models must outlive the view.
class StepCompareView : public QWidget
{
    Q_OBJECT
public:
    enum class Align
    {
        StepStart,
        SelectedKernel
    };

    explicit StepCompareView(QWidget *parent = nullptr);
    ~StepCompareView() override;

    void setSteps(const TraceModel *baseModel, int baseStep, const TraceModel *comparisonModel,
                  int comparisonStep, const QString &baseLabel, const QString &comparisonLabel);
    void setMatchShapes(bool on);
    void setAlign(Align align);
    Align align() const { return m_align; }

    TimelineView *basePane() const { return m_panes[0]; }
    TimelineView *comparisonPane() const { return m_panes[1]; }
    // The pane keys drive: the focused one, else the base pane (the other follows it).
    TimelineView *activePane() const { return m_panes[1]->hasFocus() ? m_panes[1] : m_panes[0]; }
    QTableView *nameTable() const { return m_nameTable; }
    QTableView *kernelTable() const { return m_kernelTable; }
    QLabel *summary() const { return m_summary; }
    QTabWidget *tabs() const { return m_tabs; }
    const StepComparison &comparison() const { return m_comparison; }
    // The two steps' overall Allocated curves (compareStepMemory) and the chart overlaying them.
    const StepMemoryComparison &memory() const { return m_memory; }
    QChartView *memoryChart() const { return m_memoryChart; }
    // "Memory peak (PTA+GE allocated): 1261.04 MB at 12.345 ms → ..."; empty without memory data.
    QString memoryPeakText() const;
    const Step &baseStep() const;
    const Step &comparisonStep() const;

    // Index into comparison().kernels of the pair a slice belongs to (pane 0 = base, 1 = comparison).
    std::optional<std::size_t> pairOf(int pane, SliceRef ref) const;
    // Selects the pair in both panes and brings it into view (aligned on it in SelectedKernel mode).
    void showPair(std::size_t pair);
    // Puts baseTime of the base pane and comparisonTime of the comparison pane at the same x, the zoom
    // kept (the diff by framework op aligns on a matched op); setAlign() or a kernel pair realigns.
    void alignOnTimes(TimeNs baseTime, TimeNs comparisonTime);

protected:
    void changeEvent(QEvent *event) override;

private:
    // Every text of the view in the current language (the constructor and QEvent::LanguageChange).
    void retranslateUi();
    void updatePaneTitles();
    void updateMemory();
    void updateMemoryAxis();
    void recompare();
    void syncFrom(int pane);
    void syncScrollFrom(int pane);
    // Content y of the pane's first device lane (0 when it has none).
    int deviceLanesTop(int pane) const;
    void onPaneSelection(int pane, SliceRef ref);
    void onPaneHover(int pane, SliceRef ref);
    SliceRef sideOf(const KernelPair &p, int pane) const { return pane == 0 ? p.base : p.comparison; }
    void updateSummary();
    void alignOn(std::optional<std::size_t> pair);

    const TraceModel *m_models[2] = {nullptr, nullptr};
    int m_steps[2] = {-1, -1};
    QString m_labels[2];
    TimelineView *m_panes[2];
    QLabel *m_paneTitles[2];
    TimeNs m_offsets[2] = {0, 0}; // pane time shown at the same screen x: t - offset equal in both
    bool m_syncing = false;
    Align m_align = Align::StepStart;
    std::optional<std::size_t> m_selectedPair;
    CompareOptions m_options;
    StepComparison m_comparison;
    QHash<std::uint64_t, std::size_t> m_pairBySlice[2];
    StepMemoryComparison m_memory;
    QComboBox *m_alignChooser;
    QCheckBox *m_shapes;
    QLabel *m_legend;
    QChartView *m_memoryChart;
    QLabel *m_summary;
    QTabWidget *m_tabs;
    QTableView *m_nameTable;
    QTableView *m_kernelTable;
    ComparisonTableModel *m_nameModel;
    ComparisonTableModel *m_kernelModel;
    QSortFilterProxyModel *m_nameProxy;
    QSortFilterProxyModel *m_kernelProxy;
};

} // namespace at
