#include "MainWindow.h"

#include "ChartsPanel.h"
#include "CollectionPanel.h"
#include "ColorRulesDialog.h"
#include "CompareLauncher.h"
#include "DetailsPanel.h"
#include "KernelTablePanel.h"
#include "MarkerList.h"
#include "MarkersPanel.h"
#include "MessageBar.h"
#include "OpenDialogs.h"
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
#include "TraceLoadJob.h"
#include "TraceQueries.h"
#include "ViewExport.h"

#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QLabel>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
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
      m_startPage(new StartPage), m_markerList(new MarkerList(this)), m_colorBy(new QComboBox),
      m_messages(new MessageBar), m_progress(new QProgressBar), m_cancel(new QPushButton(tr("Cancel"))),
      m_status(new StatusLabel), m_panels(std::make_unique<PanelRegistry>(this)),
      m_compare(new CompareLauncher(this)), m_sessions(new SessionController(this, m_compare)),
      m_load(new TraceLoadJob(this))
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
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    m_progress->setRange(0, 1000);
    m_progress->setFormat(tr("%p% read"));
    m_progress->setMaximumWidth(260);
    m_progress->hide();
    m_cancel->hide();
    connect(m_cancel, &QPushButton::clicked, this, &MainWindow::cancelLoading);
    connect(m_load, &TraceLoadJob::progress, this,
            [this](const QString &path, double doneMb, double totalMb, double fraction) {
                m_progress->setValue(static_cast<int>(1000.0 * fraction));
                m_status->setText(
                    tr("Loading %1… %2 of %3 MB").arg(path).arg(doneMb, 0, 'f', 1).arg(totalMb, 0, 'f', 1));
            });
    connect(m_load, &TraceLoadJob::finished, this, &MainWindow::onLoadFinished);
    connect(m_load, &TraceLoadJob::cancelled, this, &MainWindow::onLoadCancelled);

    auto *toolbar = addToolBar(tr("View"));
    toolbar->setObjectName(QStringLiteral("ViewToolBar"));
    auto *colorLabel = new QLabel(tr(" Colour kernels: "));
    colorLabel->setObjectName(QStringLiteral("ColorByLabel"));
    toolbar->addWidget(colorLabel);
    m_colorBy->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_colorBy->setToolTip(
        tr("Colour device kernels by name, by duration percentile, or by an AI Core metric"));
    toolbar->addWidget(m_colorBy);
    connect(m_colorBy, &QComboBox::currentIndexChanged, this, &MainWindow::applyColoring);
    m_timeline->setMarkers(m_markerList);
    const auto select = [this](SliceRef ref) { m_timeline->selectSlice(ref, true); };
    connect(m_search, &SearchBar::matchActivated, m_timeline, select);
    connect(m_search, &SearchBar::closed, m_timeline, [this] {
        m_timeline->clearHighlights();
        m_timeline->setFocus();
    });
    connect(m_search, &SearchBar::matchesChanged, m_timeline, &TimelineView::setHighlightedSlices);
    // Ranks aligned on a collective: Find steps through the matches in the order they are drawn.
    connect(m_timeline, &TimelineView::groupOffsetsChanged, m_search,
            [this] { m_search->setGroupOffsets(m_timeline->groupOffsets()); });
    // w/s/a/d (held too), 0, f, Backspace, Esc drive the timeline from any panel of the window.
    new NavigationKeyFilter(this, [this] { return m_timeline; });
    createActions();
    createClusterActions(toolbar); // MainWindowCluster.cpp: the "Cluster" breadcrumb, Rank Offsets
    // Window geometry and dock layout as the user left them.
    QSettings settings;
    if (restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        fitOnScreen();
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_timeline->setFocus();
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

QList<MainWindow *> MainWindow::openWindows()
{
    return windowRegistry();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    QMainWindow::closeEvent(event);
}

void MainWindow::resizeEvent(QResizeEvent *event)
{
    QMainWindow::resizeEvent(event);
    // The docks keep their size when the window shrinks; past these shares the timeline gets the room.
    // Once the layout has given the docks their new sizes (a window resized before it is shown has
    // none yet).
    QTimer::singleShot(0, this, [this] {
        constexpr double kSideShare = 0.3, kBottomShare = 0.35;
        m_panels->limitAreaShares(kSideShare, kBottomShare);
    });
}

void MainWindow::fitOnScreen()
{
    const QScreen *s = screen();
    if (!s)
        return;
    const QRect available = s->availableGeometry();
    resize(std::min(width(), available.width()), std::min(height(), available.height()));
    move(std::clamp(x(), available.left(), std::max(available.left(), available.right() + 1 - width())),
         std::clamp(y(), available.top(), std::max(available.top(), available.bottom() + 1 - height())));
}

bool MainWindow::exportViewPng(const QString &path, bool wholeHeight) const
{
    return exportTimelinePng(*m_timeline, path,
                             wholeHeight ? PngExtent::WholeHeight : PngExtent::VisibleView);
}

bool MainWindow::exportViewSvg(const QString &path, QString *error) const
{
    return exportTimelineSvg(*m_timeline, windowTitle(), tr("Ascend Timeline view of %1").arg(m_currentPath),
                             path, error);
}

QStringList MainWindow::recentPaths() const
{
    return at::recentPaths();
}

void MainWindow::rememberRecent(const QString &path)
{
    if (path == QLatin1String(kBundledSample))
        return;
    rememberRecentPath(path);
    fillRecentMenu();
}

void MainWindow::fillRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList paths = recentPaths();
    for (const QString &path : paths)
        m_recentMenu->addAction(path, this, [this, path] { openPath(path); });
    m_recentMenu->setEnabled(!paths.isEmpty());
    m_startPage->setRecentPaths(paths);
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

bool MainWindow::showsStartPage() const
{
    return m_pages->currentWidget() == m_startPage;
}

void MainWindow::closeTrace()
{
    attachViews(nullptr);
    m_model.reset();
    m_currentPath.clear();
    m_markerList->setAll({});
    m_compare->forget();
    m_rankFolders.clear();
    m_clusterRoot.clear();
    m_clusterAction->setVisible(false);
    setWindowTitle(tr("Ascend Timeline"));
    m_status->clear();
    m_messages->hide(); // the warnings were about the closed data
    m_pages->setCurrentWidget(m_startPage);
}

void MainWindow::attachViews(const TraceModel *model)
{
    m_timeline->setModel(model);
    m_search->setModel(model);
    m_panels->setModel(model);
    fillColorChooser();
}

void MainWindow::fillColorChooser()
{
    const QSignalBlocker blocker(m_colorBy);
    m_colorBy->clear();
    m_colorBy->addItem(tr("by name"), -2);
    const TraceModel *model = m_timeline->model();
    if (model && !model->kernels().empty()) {
        m_colorBy->addItem(tr("by duration percentile"), -1);
        const auto &columns = model->kernels().columns();
        for (std::size_t c = 0; c < columns.size(); ++c)
            m_colorBy->addItem(tr("by %1").arg(columns[c].header), static_cast<int>(c));
    }
    m_colorBy->setCurrentIndex(0);
}

void MainWindow::applyColoring()
{
    const int choice = m_colorBy->currentData().toInt();
    MetricColoring &coloring = m_timeline->coloring();
    if (choice == -2)
        coloring.setByName();
    else if (choice == -1)
        coloring.setByDurationPercentile();
    else
        coloring.setByMetric(choice);
    m_timeline->refreshColors();
}

Session MainWindow::captureSession() const
{
    return m_sessions->capture();
}

bool MainWindow::saveSession(const QString &path, QString *error) const
{
    return m_sessions->save(path, error);
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

std::vector<StepChoice> MainWindow::stepChoices() const
{
    return m_compare->stepChoices();
}

CompareWindow *MainWindow::compareSteps(const StepChoice &base, const StepChoice &comparison,
                                        bool matchShapes)
{
    return m_compare->compareSteps(base, comparison, matchShapes);
}

void MainWindow::chooseStepsToCompare()
{
    m_compare->chooseStepsToCompare();
}

void MainWindow::openBundledSample()
{
    openPath(QString::fromLatin1(kBundledSample));
}

bool MainWindow::reloadWithOtherSource()
{
    if (!m_model || m_currentPath.isEmpty())
        return false;
    // The loader records in each group's provenance which other exports the result has.
    bool hasOther = false;
    for (const SourceGroup &group : m_model->groups())
        hasOther = hasOther || group.provenance.hasOtherExport();
    if (!hasOther)
        return false;
    m_preferredSource =
        m_preferredSource == PreferredSource::Text ? PreferredSource::Database : PreferredSource::Text;
    if (!m_rankFolders.isEmpty()) { // the same ranks of the cluster, from their other export
        openRankFolders(m_currentPath, m_rankFolders);
        return true;
    }
    QString path = m_currentPath;
    // A database opened directly: its folder holds the text export.
    if (QFileInfo(path).isFile() && path.endsWith(QStringLiteral(".db")))
        path = QFileInfo(path).absolutePath();
    openPath(path);
    return true;
}

bool MainWindow::reloadFromRawData()
{
    if (!m_model || m_currentPath.isEmpty() || m_preferredSource == PreferredSource::Raw)
        return false;
    // The loader records the raw data folders of each source.
    bool hasRaw = false;
    for (const SourceGroup &group : m_model->groups())
        hasRaw = hasRaw || group.provenance.hasRawData();
    if (!hasRaw)
        return false;
    m_preferredSource = PreferredSource::Raw;
    if (!m_rankFolders.isEmpty())
        openRankFolders(m_currentPath, m_rankFolders);
    else
        openPath(m_currentPath);
    return true;
}

void MainWindow::openPath(const QString &path)
{
    if (path.endsWith(QLatin1String(kSessionSuffix))) {
        openSession(path);
        return;
    }
    if (openCluster(path))
        return;
    startLoad(path, {}); // MainWindowCluster.cpp
}

bool MainWindow::isLoading() const
{
    return m_load->isRunning();
}

void MainWindow::cancelLoading()
{
    m_load->cancel();
}

void MainWindow::onLoadCancelled(const QString &path)
{
    m_progress->hide();
    m_cancel->hide();
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
    m_progress->hide();
    m_cancel->hide();
    if (!result || !result->model) {
        m_status->setText(m_model ? tr("Showing %1").arg(m_currentPath) : QString());
        failLoad(result && result->cancelled() ? tr("Loading of %1 cancelled").arg(path)
                                               : (result ? result->error : tr("unknown error")),
                 tr("Could not open %1"));
        return;
    }
    showModel(std::move(result->model), path);
    rememberRecent(path);
    m_rankFolders = m_loadingRankFolders; // before the session is applied: it may be captured again
    rebasePendingSession();
    m_sessions->applyPending();
    afterClusterLoad(); // MainWindowCluster.cpp: rank subset title, messages, the op to show
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
    m_pages->setCurrentWidget(m_timeline);
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
