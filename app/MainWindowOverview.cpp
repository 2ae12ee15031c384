// The window's Overview page (issue #28 item 1): computed off the GUI thread after each load, shown first,
// one click back to from anywhere (View ▸ Overview, the toolbar's "Overview", the page's own buttons), and
// each number it shows leads to the timeline, the Kernels panel, the Insights panel or the cluster page.
// Also the pages' dock layouts: the timeline's docks belong to the timeline; the Overview and the cluster
// page get the whole window unless the user shows a dock there.
#include "MainWindow.h"

#include "ClusterController.h"
#include "CommandLine.h"
#include "InsightsPanel.h"
#include "KernelTablePanel.h"
#include "OverviewPage.h"
#include "PanelRegistry.h"
#include "StartPage.h"
#include "TimelineView.h"
#include "cluster/ClusterView.h"
#include "overview/Overview.h"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFutureWatcher>
#include <QHash>
#include <QLineEdit>
#include <QStackedWidget>
#include <QToolBar>
#include <QtConcurrent/QtConcurrentRun>

namespace at {

namespace {

// Each page keeps its own dock layout (QMainWindow::saveState). The timeline (and the start page before
// it) has the docks as the user arranged them; the Overview and the cluster page start without docks so
// they have the whole window, and a dock shown there from View ▸ Panels (Insights beside the cluster page)
// is there again next time. The timeline's layout is put back before the window saves its state on close.
class PageDocks : public QObject
{
public:
    PageDocks(QMainWindow *window, QStackedWidget *pages, QList<const QWidget *> timelinePages)
        : QObject(window), m_window(window), m_pages(pages), m_timelinePages(std::move(timelinePages))
    {
        connect(pages, &QStackedWidget::currentChanged, this, [this] { pageChanged(); });
        window->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_window && event->type() == QEvent::Close && m_shown) {
            // MainWindow::closeEvent saves the timeline's layout, not the page's.
            m_states.insert(m_shown, m_window->saveState());
            m_window->restoreState(m_timelineState);
            m_shown = nullptr;
        }
        return false;
    }

private:
    void pageChanged()
    {
        const QWidget *page = m_pages->currentWidget();
        const QWidget *key = m_timelinePages.contains(page) ? nullptr : page;
        if (key == m_shown)
            return;
        const QByteArray leaving = m_window->saveState();
        if (m_shown)
            m_states.insert(m_shown, leaving);
        else
            m_timelineState = leaving;
        m_shown = key;
        if (!key) {
            m_window->restoreState(m_timelineState);
        } else if (m_states.contains(key)) {
            m_window->restoreState(m_states.value(key));
        } else {
            for (QDockWidget *dock : m_window->findChildren<QDockWidget *>(Qt::FindDirectChildrenOnly))
                dock->hide();
        }
    }

    QMainWindow *m_window;
    QStackedWidget *m_pages;
    QList<const QWidget *> m_timelinePages;
    const QWidget *m_shown = nullptr; // the page whose docks are shown; null: the timeline's
    QByteArray m_timelineState;
    QHash<const QWidget *, QByteArray> m_states;
};

// The Overview of a model (or of a cluster page's data) from the Insights panel's run of the checks: the
// panel's findings object and the communication data it read, not computed again. Built on a worker;
// done(overview) on the GUI thread.
template <class Done>
void overviewFromInsights(QObject *owner, std::shared_ptr<const TraceModel> model,
                          std::shared_ptr<const InsightsResult> insights, Done done)
{
    auto *watcher = new QFutureWatcher<std::shared_ptr<const Overview>>(owner);
    QObject::connect(watcher, &QFutureWatcherBase::finished, owner, [watcher, done] {
        done(watcher->result());
        watcher->deleteLater();
    });
    watcher->setFuture(QtConcurrent::run([model = std::move(model), insights = std::move(insights)] {
        OverviewInputs inputs;
        inputs.model = model.get();
        inputs.cluster = insights->cluster.get();
        inputs.steps = model ? &model->steps() : nullptr;
        inputs.sharedFindings = insights->findings;
        return std::shared_ptr<const Overview>(std::make_shared<Overview>(buildOverview(inputs)));
    }));
}

} // namespace

void MainWindow::createOverviewPage(QToolBar *toolbar)
{
    m_overview = new OverviewPage;
    m_pages->addWidget(m_overview);
    new PageDocks(this, m_pages, {m_startPage, m_timeline});
    connect(m_overview, &OverviewPage::targetActivated, this, &MainWindow::activateOverviewTarget);
    connect(m_overview, &OverviewPage::timelineRequested, this, [this] { showTimelinePage(); });
    connect(m_overview, &OverviewPage::clusterRequested, this, &MainWindow::showClusterPage);
    // The Overview shows the Insights panel's findings: each run of the panel's checks (a load, a
    // language change) makes the Overview of the same model or cluster page again.
    if (auto *insights = m_panels->panel<InsightsPanel>())
        connect(insights, &InsightsPanel::findingsReady, this, [this, insights] {
            const std::shared_ptr<const InsightsResult> result = insights->result();
            if (!result)
                return;
            const cluster::ClusterModel *page = m_cluster->view() ? m_cluster->view()->model() : nullptr;
            const bool forModel = m_model && result->model == m_model.get() && !result->clusterPage;
            const bool forPage = !m_model && result->clusterPage && page && result->cluster.get() == page;
            if (!forModel && !forPage)
                return;
            const int generation = ++m_overviewGeneration;
            overviewFromInsights(this, forModel ? m_model : nullptr, result,
                                 [this, generation](std::shared_ptr<const Overview> overview) {
                                     overviewComputed(std::move(overview), generation);
                                 });
        });
    m_overviewAction = new QAction(this);
    m_overviewAction->setObjectName(QStringLiteral("OverviewAction"));
    toolbar->insertAction(toolbar->actions().value(0), m_overviewAction);
    connect(m_overviewAction, &QAction::triggered, this, &MainWindow::showOverviewPage);
    connect(m_pages, &QStackedWidget::currentChanged, this, &MainWindow::updateOverviewAction);
    updateOverviewAction();
}

void MainWindow::updateOverviewAction()
{
    m_overviewAction->setText(tr("◂ Overview"));
    m_overviewAction->setToolTip(tr("Back to the Overview: where each step's time went (View ▸ Overview)"));
    const bool data = m_model || (m_cluster && m_cluster->view() && m_cluster->view()->model());
    m_overviewAction->setVisible(data && !showsOverview() && !showsStartPage());
    // The page's own buttons only while it is shown: a hidden page's layout change would make the window
    // lay out its docks again right after a page's dock layout was restored.
    if (showsOverview())
        m_overview->setPagesAvailable(
            m_model != nullptr, m_cluster && (m_cluster->view() || !m_cluster->clusterRoot().isEmpty()));
}

void MainWindow::showClusterPage()
{
    if (m_cluster->clusterRoot().isEmpty() && m_cluster->view() && m_cluster->view()->model())
        m_pages->setCurrentWidget(m_cluster->view()); // a cluster folder opened as its page
    else
        m_cluster->showClusterPage(); // the cluster of the timeline's ranks
}

bool MainWindow::showsOverview() const
{
    return m_pages->currentWidget() == m_overview;
}

void MainWindow::showOverviewPage()
{
    if (!m_model && !(m_cluster->view() && m_cluster->view()->model()))
        return;
    m_pages->setCurrentWidget(m_overview);
    m_overview->setFocus();
}

void MainWindow::startOverview()
{
    m_overviewReady = false;
    const int generation = ++m_overviewGeneration;
    if (!m_model) {
        m_overview->setOverview(nullptr);
        return;
    }
    m_overview->setComputing();
    // The findings and the communication data are the Insights panel's (one run of the checks): taken now
    // when its run for this model is done, else when it is (findingsReady, connected in createOverviewPage).
    if (auto *insights = m_panels->panel<InsightsPanel>()) {
        const std::shared_ptr<const InsightsResult> result = insights->result();
        if (result && result->model == m_model.get() && !result->clusterPage)
            overviewFromInsights(this, m_model, result,
                                 [this, generation](std::shared_ptr<const Overview> o) {
                                     overviewComputed(std::move(o), generation);
                                 });
        return;
    }
    // Without the panel: the checks run here, with the cluster data of the model's folder.
    auto *watcher = new QFutureWatcher<std::shared_ptr<const Overview>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        overviewComputed(watcher->result(), generation);
        watcher->deleteLater();
    });
    const std::shared_ptr<const TraceModel> model = m_model;
    watcher->setFuture(QtConcurrent::run(
        [model, reader = communicationReader(m_cluster->clusterModel(), loadOptions().memoryLimitBytes)] {
            const std::shared_ptr<const cluster::ClusterModel> data = reader(*model);
            OverviewInputs inputs;
            inputs.model = model.get();
            inputs.cluster = data.get();
            inputs.steps = &model->steps();
            return std::shared_ptr<const Overview>(std::make_shared<Overview>(buildOverview(inputs)));
        }));
}

void MainWindow::showClusterOverview()
{
    // The cluster's summary files are read already; the findings are the Insights panel's run over them
    // (ClusterController::openCluster started it), taken when it is done.
    m_overviewReady = false;
    const int generation = ++m_overviewGeneration;
    const cluster::ClusterModel *data = m_cluster->view() ? m_cluster->view()->model() : nullptr;
    if (!data)
        return;
    if (auto *insights = m_panels->panel<InsightsPanel>()) {
        const std::shared_ptr<const InsightsResult> result = insights->result();
        if (result && result->clusterPage && result->cluster.get() == data)
            overviewFromInsights(this, nullptr, result,
                                 [this, generation](std::shared_ptr<const Overview> o) {
                                     overviewComputed(std::move(o), generation);
                                 });
        else
            m_overview->setComputing();
        return;
    }
    OverviewInputs inputs;
    inputs.cluster = data;
    overviewComputed(std::make_shared<Overview>(buildOverview(inputs)), generation);
}

void MainWindow::overviewComputed(std::shared_ptr<const Overview> overview, int generation)
{
    if (generation != m_overviewGeneration)
        return; // a later load's overview is on its way
    m_overview->setOverview(std::move(overview));
    updateOverviewAction();
    m_overviewReady = true;
    Q_EMIT overviewReady();
}

void MainWindow::activateOverviewTarget(const OverviewTarget &target)
{
    using K = OverviewTarget::Kind;
    switch (target.kind) {
    case K::None:
        return;
    case K::TimeRange: {
        if (!m_model)
            return;
        showTimelinePage();
        const TimeNs offset = target.group >= 0 ? m_timeline->groupOffset(target.group) : 0;
        const TimeRange range{target.begin + offset, target.end + offset};
        if (range.width() <= 0) { // an instant (the memory peak): a millisecond around it
            constexpr TimeNs kAround = 500'000;
            m_timeline->zoom()->fit({range.start - kAround, range.start + kAround});
            return;
        }
        const TimeNs margin = std::max<TimeNs>(1, range.width() / 20);
        m_timeline->zoom()->fit({range.start - margin, range.end + margin});
        m_timeline->state()->selectRange(range, {}); // Range statistics comes forward
        return;
    }
    case K::Kernel: {
        if (!m_model)
            return;
        showTimelinePage();
        raisePanel(QStringLiteral("kernels"));
        m_kernels->nameFilter()->setText(target.name);
        return;
    }
    case K::Rank:
        if (m_model) {
            showTimelinePage();
        } else {
            showClusterPage();
        }
        return;
    case K::Finding:
        if (m_model) {
            showTimelinePage();
            raisePanel(QStringLiteral("insights"));
        } else {
            showClusterPage();
        }
        return;
    }
}

bool MainWindow::raisePanel(const QString &id)
{
    QDockWidget *dock = m_panels->dock(id);
    if (!dock)
        return false;
    dock->show();
    dock->raise();
    return true;
}

QStringList MainWindow::panelIds() const
{
    return m_panels->ids();
}

} // namespace at
