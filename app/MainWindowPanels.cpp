// MainWindow's docks: one registration per panel (PanelRegistry), and what each listens to. Panels observe
// the timeline's one TimelineState (selection, visible range, range selection and lanes, rank offsets);
// what they ask of the timeline (select, zoom, highlight) goes to the view.
#include "MainWindow.h"

#include "ChartsPanel.h"
#include "ClusterController.h"
#include "CollectionPanel.h"
#include "CommandLine.h"
#include "DetailsPanel.h"
#include "InsightsPanel.h"
#include "KernelTablePanel.h"
#include "MarkerList.h"
#include "MarkersPanel.h"
#include "MemoryPanel.h"
#include "PanelRegistry.h"
#include "QueryPanel.h"
#include "StatisticsPanel.h"
#include "StepsPanel.h"
#include "SummaryTablesPanel.h"
#include "TimelineView.h"

#include <limits>

namespace at {

void MainWindow::createPanels()
{
    const PanelPlacement right{Qt::RightDockWidgetArea, 420}, bottom{Qt::BottomDockWidgetArea, 220};
    const auto select = [this](SliceRef ref) { m_timeline->selectSlice(ref, true); };
    TimelineView *t = m_timeline;
    const TimelineState *state = t->state();
    PanelRegistry *panels = m_panels.get();
    // What the user just did is shown in front: a clicked slice in Details, a dragged range in Range
    // statistics (raising a tab never takes the keyboard focus from the timeline).
    m_details = m_panels->add<DetailsPanel>(
        "panel.details", "DetailsDock", right, new DetailsPanel, [t, state, select, panels](DetailsPanel *p) {
            connect(state, &TimelineState::selectionChanged, p, &DetailsPanel::showSlice);
            connect(state, &TimelineState::selectionChanged, p, [p, panels](SliceRef ref) {
                if (ref.isValid())
                    panels->raise(p);
            });
            connect(p, &DetailsPanel::jumpTo, t, select);
        });
    m_statistics = m_panels->add<StatisticsPanel>(
        "panel.statistics", "StatisticsDock", bottom, new StatisticsPanel,
        [t, state, select, panels](StatisticsPanel *p) {
            p->followTimeline(state);
            connect(p, &StatisticsPanel::sliceActivated, t, select);
            connect(state, &TimelineState::rangeSelected, p, [p, panels] { panels->raise(p); });
        });
    m_kernels = m_panels->add<KernelTablePanel>("panel.kernels", "KernelsDock", bottom, new KernelTablePanel,
                                                [t, state, select](KernelTablePanel *p) {
                                                    p->followTimeline(state);
                                                    connect(p, &KernelTablePanel::kernelActivated, t, select);
                                                });
    m_tables =
        m_panels->add<SummaryTablesPanel>("panel.tables", "TablesDock", bottom, new SummaryTablesPanel);
    m_charts = m_panels->add<ChartsPanel>(
        "panel.charts", "ChartsDock", bottom, new ChartsPanel, [this, t, state, select](ChartsPanel *p) {
            connect(state, &TimelineState::selectionChanged, p, &ChartsPanel::selectSlice);
            connect(p, &ChartsPanel::kernelActivated, t, select);
            connect(m_kernels, &KernelTablePanel::filterChanged, p, [p](const KernelRows &rows) {
                // The charts read an empty list as "all kernels"; a filter that matches nothing is
                // kept empty with an index no table has.
                p->setFilter(rows.empty() ? KernelRows{std::numeric_limits<std::size_t>::max()} : rows);
            });
        });
    m_steps =
        m_panels->add<StepsPanel>("panel.steps", "StepsDock", bottom, new StepsPanel, [this](StepsPanel *p) {
            connect(p, &StepsPanel::stepActivated, this, &MainWindow::showStep);
            connect(p, &StepsPanel::compareRequested, this, [this] { chooseStepsToCompare(); });
        });
    m_markersPanel = m_panels->add<MarkersPanel>(
        "panel.markers", "MarkersDock", bottom, new MarkersPanel(m_markerList), [this, t](MarkersPanel *p) {
            connect(p, &MarkersPanel::markerActivated, t, [this, t](int i) {
                const Marker &m = m_markerList->at(i);
                if (m.isFlag()) {
                    const TimeRange r = t->zoom()->range();
                    t->zoom()->setRange({m.begin - r.width() / 2, m.begin - r.width() / 2 + r.width()}, true);
                } else {
                    t->zoom()->fit({m.begin, m.end});
                }
            });
        });
    m_panels->add<MemoryPanel>(
        "panel.memory", "MemoryDock", bottom, new MemoryPanel, [t, state](MemoryPanel *p) {
            connect(state, &TimelineState::visibleRangeChanged, p, &MemoryPanel::setVisibleRange);
            connect(p, &MemoryPanel::sliceRequested, t, [t](SliceRef ref) {
                if (ref.isValid())
                    t->selectSlice(ref, true);
            });
            // An allocation's lifetime: marked, and the view widened to it when it does not fit.
            connect(p, &MemoryPanel::spanRequested, t, [t](const TimelineSpan &span) {
                t->setHighlightedSpan(span);
                const TimeRange r = t->zoom()->range();
                // Where it is drawn: an aligned rank's span is moved by the rank's offset.
                const TimeNs offset = t->model() ? t->groupOffset(groupOfSpan(*t->model(), span)) : 0;
                const TimeNs begin = span.begin + offset, end = span.end + offset;
                if (begin < r.start || end > r.end) {
                    const TimeNs margin = std::max<TimeNs>(1, (end - begin) / 20);
                    t->zoom()->fit({begin - margin, end + margin});
                }
            });
        });
    m_collection =
        m_panels->add<CollectionPanel>("panel.collection", "CollectionDock", right, new CollectionPanel);
    // Insights: an occurrence selects its slice; "show all" outlines every occurrence on the timeline
    // (the Find highlights) and selects the first.
    m_panels->add<InsightsPanel>(
        "panel.insights", "InsightsDock", bottom, new InsightsPanel, [t, select](InsightsPanel *p) {
            connect(p, &InsightsPanel::occurrenceActivated, t, select);
            connect(p, &InsightsPanel::occurrencesRequested, t, &TimelineView::setHighlightedSlices);
            // communication.json of the model's rank folders (the cluster page's model once one is read:
            // MainWindow::openCluster / showClusterPage; MainWindow::setLoadOptions gives it the
            // --memory-limit).
            p->setClusterReader(communicationReader(nullptr, 0));
        });
    // Query (issue #31): SQL over the timeline's model and the cluster data (the cluster page alone too);
    // rows select and mark slices; the timeline's slice menu opens a ready query. Hidden until asked for.
    m_panels->add<QueryPanel>(
        "panel.query", "QueryDock", bottom, new QueryPanel, [this, t, select](QueryPanel *p) {
            p->setSourceProvider([this] { return QuerySources{sharedModel(), m_cluster->clusterModel()}; });
            connect(p, &QueryPanel::sliceActivated, t, select);
            connect(p, &QueryPanel::slicesMarked, t, [t](const std::vector<SliceRef> &slices) {
                t->setHighlightedSlices(slices);
                t->selectSlice(slices.front(), true);
            });
            connect(p, &QueryPanel::showRequested, this, [this] { raisePanel(QStringLiteral("query")); });
            connect(t, &TimelineView::sliceMenuRequested, p, [t, p](QMenu *menu, SliceRef slice) {
                const QString name = t->model() ? t->model()->sliceName(slice) : QString();
                if (!name.isEmpty())
                    menu->addAction(QueryPanel::querySlicesNamedText(), p,
                                    [p, name] { p->querySlicesNamed(name); });
            });
        });
    m_panels->finish();
    QDockWidget *queryDock = m_panels->dock(QStringLiteral("query"));
    queryDock->toggleViewAction()->setShortcuts(commandKeys(command("panel.query")));
    queryDock->hide();
}

void MainWindow::setLoadOptions(const LoadOptions &options)
{
    m_loadOptions.set(options);
    // The Insights panel reads the communication data of a loaded model's rank folders itself (unless the
    // cluster page has read them): under the same memory limit as every other read.
    if (auto *insights = m_panels->panel<InsightsPanel>())
        insights->setClusterReader(
            communicationReader(m_cluster->clusterModel(), loadOptions().memoryLimitBytes));
}

} // namespace at
