#include "MainWindow.h"

#include "ChartsPanel.h"
#include "CollectionPanel.h"
#include "ColorRulesDialog.h"
#include "CompareLauncher.h"
#include "DetailsPanel.h"
#include "KernelColorChooser.h"
#include "KernelTablePanel.h"
#include "LoadProgress.h"
#include "MarkerList.h"
#include "MarkersPanel.h"
#include "MessageBar.h"
#include "OpenDialogs.h"
#include "OverviewPage.h"
#include "PanelRegistry.h"
#include "RecentPaths.h"
#include "SearchBar.h"
#include "SessionController.h"
#include "StartPage.h"
#include "StatisticsPanel.h"
#include "StatusLabel.h"
#include "StepsPanel.h"
#include "SummaryTablesPanel.h"
#include "TimelineKeyboard.h"
#include "TimelineView.h"
#include "ToolBarAutoHide.h"
#include "TraceLoadJob.h"
#include "TraceQueries.h"
#include "ViewExport.h"
#include "WindowLayout.h"

#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QLabel>
#include <QMimeData>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

static void initResources()
{
    Q_INIT_RESOURCE(resources);
}

namespace at {

namespace {
QList<MainWindow *> &windowRegistry()
{
    static QList<MainWindow *> windows;
    return windows;
}
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_timeline(new TimelineView), m_search(new SearchBar), m_pages(new QStackedWidget),
      m_startPage(new StartPage), m_markerList(new MarkerList(this)),
      m_colorBy(new KernelColorChooser(m_timeline)), m_messages(new MessageBar), m_status(new StatusLabel),
      m_panels(std::make_unique<PanelRegistry>(this)), m_compare(new CompareLauncher(this)),
      m_sessions(new SessionController(this, m_compare)), m_load(new TraceLoadJob(this))
{
    initResources();
    installOutputFileWriter();
    windowRegistry().append(this);
    setWindowTitle(tr("Ascend Timeline"));
    setAcceptDrops(true);
    resize(1400, 900);

    auto *central = new QWidget;
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_messages);
    layout->addWidget(m_search);
    m_pages->addWidget(m_startPage);
    m_pages->addWidget(m_timeline);
    // The timeline's minimum: a taller page (the cluster page's table, chart and tabs) must not set the
    // window's, or it would squeeze the docks each time the window lays them out again.
    m_pages->setMinimumSize(400, 200);
    layout->addWidget(m_pages, 1);
    connect(m_startPage, &StartPage::openPathRequested, this, &MainWindow::openPath);
    connect(m_startPage, &StartPage::openSampleRequested, this, &MainWindow::openBundledSample);
    connect(m_startPage, &StartPage::openFileRequested, this, &MainWindow::chooseFileToOpen);
    connect(m_startPage, &StartPage::openFolderRequested, this, &MainWindow::chooseFolderToOpen);
    m_search->hide();
    setCentralWidget(central);
    createPanels();

    // Long status texts are cut with "…" (StatusLabel), they do not widen the window.
    statusBar()->addWidget(m_status, 1);
    m_progress = new LoadProgress(statusBar(), m_status, m_load); // "n% read" and Cancel
    connect(m_load, &TraceLoadJob::finished, this, &MainWindow::onLoadFinished);
    connect(m_load, &TraceLoadJob::cancelled, this, &MainWindow::onLoadCancelled);

    auto *toolbar = addToolBar(tr("View"));
    toolbar->setObjectName(QStringLiteral("ViewToolBar"));
    auto *colorLabel = new QLabel(tr(" Colour kernels: "));
    colorLabel->setObjectName(QStringLiteral("ColorByLabel"));
    QAction *colorLabelAction = toolbar->addWidget(colorLabel);
    QAction *colorByAction = toolbar->addWidget(m_colorBy);
    // Kernel colours are the timeline's: with no timeline loaded (the start page, a cluster folder read from
    // its summary files) the chooser would be an empty combo box.
    connect(m_pages, &QStackedWidget::currentChanged, this, [this, colorLabelAction, colorByAction] {
        const bool timeline = m_model != nullptr;
        colorLabelAction->setVisible(timeline);
        colorByAction->setVisible(timeline);
    });
    colorLabelAction->setVisible(false); // the start page comes first
    colorByAction->setVisible(false);
    m_timeline->setMarkers(m_markerList);
    const auto select = [this](SliceRef ref) { m_timeline->selectSlice(ref, true); };
    connect(m_search, &SearchBar::matchActivated, m_timeline, select);
    connect(m_search, &SearchBar::closed, m_timeline, [this] {
        m_timeline->clearHighlights();
        m_timeline->setFocus();
    });
    connect(m_search, &SearchBar::matchesChanged, m_timeline, &TimelineView::setHighlightedSlices);
    m_search->followTimeline(m_timeline->state());
    // w/s/a/d (held too), 0, f, Backspace, Esc drive the timeline from any panel of the window.
    new NavigationKeyFilter(this, [this] { return m_timeline; });
    createActions();
    m_cluster = new ClusterController(this, toolbar); // the "Cluster" breadcrumb, Close Rank, Rank Offsets
    createOverviewPage(toolbar);                      // the first page after a load, and "◂ Overview"
    m_layoutRestored = restoreWindowLayout(*this);    // geometry and docks as the user left them
    new ToolBarAutoHide(toolbar);                     // no empty strip when no button applies
    m_timeline->setFocus();
}

QList<MainWindow *> MainWindow::openWindows()
{
    return windowRegistry();
}

bool MainWindow::showsStartPage() const
{
    return m_pages->currentWidget() == m_startPage;
}

MainWindow::~MainWindow()
{
    windowRegistry().removeAll(this);
    delete m_load; // stops and waits for a running load
    // The panels are destroyed by ~QWidget, after our members: they must not keep a pointer to
    // the model past this point (a hidden table still asks its model for header data).
    attachViews(nullptr);
    m_model.reset();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveWindowLayout(*this);
    QMainWindow::closeEvent(event);
}

void MainWindow::resizeEvent(QResizeEvent *event)
{
    QMainWindow::resizeEvent(event);
    // The docks keep their size when the window shrinks; past these shares the timeline gets the room.
    // Once the layout has given the docks their new sizes (a window resized before it is shown has
    // none yet).
    QTimer::singleShot(0, this, [this] { m_panels->limitAreaShares(kSideShare, kBottomShare); });
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    // Without a saved layout the docks get the default room for the window's size (WindowLayout.h), once
    // the window is shown: before that the dock areas have no sizes to set.
    if (!m_layoutRestored && !m_defaultLayoutApplied) {
        m_defaultLayoutApplied = true;
        applyDefaultDockSizes(*this, *m_panels);
    }
}

bool MainWindow::exportViewSvg(const QString &path, QString *error) const
{
    return exportTimelineSvg(*m_timeline, windowTitle(), viewDescription(), path, error);
}

QString MainWindow::viewDescription() const
{
    return tr("Ascend Timeline view of %1").arg(m_currentPath);
}

void MainWindow::rememberRecent(const QString &path)
{
    if (path == QLatin1String(kBundledSample))
        return;
    rememberRecentPath(path);
    m_recentMenu->refill();
}

void MainWindow::chooseFileToOpen()
{
    if (const QString path = chooseTraceFile(this, tr("Open trace")); !path.isEmpty())
        openPath(path);
}

void MainWindow::chooseFolderToOpen()
{
    if (const QString path = chooseResultFolder(this); !path.isEmpty())
        openPath(path);
}

void MainWindow::closeTrace()
{
    attachViews(nullptr);
    m_model.reset();
    m_currentPath.clear();
    m_markerList->setAll({});
    m_compare->forget();
    m_cluster->traceClosed();
    setWindowTitle(tr("Ascend Timeline"));
    m_status->clear();
    m_messages->hide();     // the warnings were about the closed data
    ++m_overviewGeneration; // a running overview is of the closed data
    m_overview->setOverview(nullptr);
    m_pages->setCurrentWidget(m_startPage);
}

void MainWindow::attachViews(const TraceModel *model)
{
    m_timeline->setModel(model);
    m_search->setModel(model);
    m_panels->setModel(model);
    m_colorBy->fill();
}

bool MainWindow::openSession(const QString &path)
{
    QString error;
    if (!m_sessions->read(path, &error)) {
        failLoad(tr("%1: %2").arg(path, error), tr("Could not open the session %1"));
        return false;
    }
    const Session &pending = *m_sessions->pending();
    if (!pending.rankFolders.isEmpty()) // ranks of a cluster opened on one timeline
        openRankFolders(pending.paths.first(), pending.rankFolders);
    else
        openPath(pending.paths.first());
    return true;
}

void MainWindow::setColorRules(const std::vector<ColorRule> &rules)
{
    m_timeline->setColorRules(rules);
}

void MainWindow::editColorRules()
{
    auto *dialog = new ColorRulesDialog(m_timeline->colorRules(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ColorRulesDialog::applied, this, &MainWindow::setColorRules);
    connect(dialog, &ColorRulesDialog::invalidPattern, this,
            [this](const QString &message) { m_messages->showMessage(MessageBar::Kind::Error, message); });
    dialog->show();
}

bool MainWindow::reloadWithOtherSource()
{
    // The loader records in each group's provenance which other exports the result has.
    if (!m_model || m_currentPath.isEmpty() ||
        std::ranges::none_of(m_model->groups(),
                             [](const SourceGroup &g) { return g.provenance.hasOtherExport(); }))
        return false;
    // A database opened directly: its folder holds the text export.
    const QFileInfo current(m_currentPath);
    reloadAs(preferredSource() == PreferredSource::Text ? PreferredSource::Database : PreferredSource::Text,
             current.isFile() && m_currentPath.endsWith(QStringLiteral(".db")) ? current.absolutePath()
                                                                               : m_currentPath);
    return true;
}

bool MainWindow::reloadFromRawData()
{
    // The loader records the raw data folders of each source.
    if (!m_model || m_currentPath.isEmpty() || preferredSource() == PreferredSource::Raw ||
        std::ranges::none_of(m_model->groups(),
                             [](const SourceGroup &g) { return g.provenance.hasRawData(); }))
        return false;
    reloadAs(PreferredSource::Raw, m_currentPath);
    return true;
}

void MainWindow::reloadAs(PreferredSource source, const QString &path)
{
    setPreferredSource(source);
    if (const QStringList ranks = loadedRankFolders(); !ranks.isEmpty()) // the same ranks of the cluster
        openRankFolders(m_currentPath, ranks);
    else
        openPath(path);
}

void MainWindow::openPath(const QString &path)
{
    if (path.endsWith(QLatin1String(kSessionSuffix))) {
        openSession(path);
        return;
    }
    if (m_cluster->openCluster(path)) {
        showClusterOverview(); // the cluster's Overview first; its page is one click away
        m_pages->setCurrentWidget(m_overview);
        return;
    }
    startLoad(path, {});
}

void MainWindow::startLoad(const QString &path, const QStringList &rankFolders)
{
    m_sessions->dropPendingUnlessFor(path);
    // The saved prepared cache folder serves a cluster's ranks only: a folder of the user's choosing is
    // never trimmed, so other traces keep the default (trimmed) cache unless --cache says otherwise.
    LoadOptions options = m_loadOptions.forLoad(m_cluster->usesPreparedCache(rankFolders));
    options.writeSnapshotInBackground = true; // the first frame does not wait for the cache write
    options.rankFolders = rankFolders;
    m_cluster->loadStarting(rankFolders);
    m_load->start(path, options);
    m_progress->started();
    m_status->setText(
        rankFolders.isEmpty()
            ? tr("Loading %1…").arg(path)
            : tr("Loading %n rank(s) of %1…", nullptr, static_cast<int>(rankFolders.size())).arg(path));
}

void MainWindow::onLoadCancelled(const QString &path)
{
    m_progress->stopped();
    m_status->setText(tr("Loading of %1 cancelled").arg(path));
    Q_EMIT loadFinished(false);
}

void MainWindow::failLoad(const QString &error, const QString &message)
{
    m_lastError = error;
    m_messages->showMessage(MessageBar::Kind::Error, message.arg(error));
    Q_EMIT loadFinished(false);
}

void MainWindow::onLoadFinished(const QString &path, const std::shared_ptr<LoadResult> &result)
{
    m_progress->stopped();
    if (!result || !result->model) {
        m_status->setText(m_model ? tr("Showing %1").arg(m_currentPath) : QString());
        failLoad(result && result->cancelled() ? tr("Loading of %1 cancelled").arg(path)
                                               : (result ? result->error : tr("unknown error")),
                 tr("Could not open %1"));
        return;
    }
    showModel(std::move(result->model), path);
    rememberRecent(path);
    m_cluster->modelShown(); // before the session is applied: it may be captured again
    // A session restores a view and an op asked for from the cluster page is shown on the timeline: those
    // loads show the timeline; every other load opens on the Overview.
    const bool toTimeline = m_sessions->pending() || m_cluster->showsOpAfterLoad();
    m_pages->setCurrentWidget(toTimeline ? static_cast<QWidget *>(m_timeline) : m_overview);
    m_sessions->applyPending();
    m_cluster->afterLoad(); // rank subset title, messages, the op to show
    Q_EMIT loadFinished(true);
}

void MainWindow::showModelSummary()
{
    const bool bundled = m_currentPath == QLatin1String(kBundledSample);
    setWindowTitle(
        tr("%1 — Ascend Timeline").arg(bundled ? tr("Bundled sample") : QFileInfo(m_currentPath).fileName()));
    const EventCounts &counts = m_model->eventCounts();
    m_status->setText(tr("%1: %2 events, %3 slices, %4 flows, span %5")
                          .arg(bundled ? tr("Bundled sample (AlexNet, 1 step, rank 0)") : m_currentPath)
                          .arg(counts.total())
                          .arg(m_model->sliceCount())
                          .arg(m_model->flows().size())
                          .arg(formatDuration(m_model->dataEnd() - m_model->dataBegin())));
}

void MainWindow::showModel(std::unique_ptr<TraceModel> model, const QString &path)
{
    // Views drop their pointers before the old model goes away.
    attachViews(nullptr);
    m_model = std::move(model);
    m_currentPath = path;
    m_markerList->setAll({}); // markers belong to the data they were set on
    m_compare->forget();
    attachViews(m_model.get());
    startOverview();
    showModelSummary();
    if (!m_model->warnings().isEmpty()) {
        m_messages->showMessage(
            MessageBar::Kind::Warning,
            tr("Opened with %n warning(s): %1", nullptr, static_cast<int>(m_model->warnings().size()))
                .arg(m_model->warnings().first()),
            m_model->warnings());
    } else {
        m_messages->hide();
    }
    m_timeline->setFocus();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    for (const QUrl &url : urls) {
        if (url.isLocalFile()) {
            openPath(url.toLocalFile());
            event->acceptProposedAction();
            return;
        }
    }
}

} // namespace at
