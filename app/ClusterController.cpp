#include "ClusterController.h"

#include "ClusterCommBound.h"
#include "CommandLine.h"
#include "InsightsPanel.h"
#include "MainWindow.h"
#include "MessageBar.h"
#include "PanelRegistry.h"
#include "SessionController.h"
#include "StatusLabel.h"
#include "TimelineView.h"
#include "cluster/ClusterAnalysisDb.h"
#include "cluster/ClusterReader.h"
#include "cluster/ClusterView.h"
#include "cluster/GpuRankReader.h"
#include "cluster/MsprofAnalyzeOutput.h"
#include "cluster/PipelineSchedule.h"
#include "cluster/PipelineView.h"
#include "cluster/RankOffsetsDialog.h"
#include "snapshot/SnapshotCache.h"

#include <QAction>
#include <QDockWidget>
#include <QEvent>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMenu>
#include <QStackedWidget>
#include <QToolBar>
#include <QtConcurrent>

#include <algorithm>
#include <utility>

namespace at {

namespace {
constexpr std::size_t kRanksOnOneTimeline = 8;

QString canonicalFolder(const QString &path)
{
    const QString c = QFileInfo(path).canonicalFilePath();
    return c.isEmpty() ? QFileInfo(path).absoluteFilePath() : c;
}

// The cluster read with the prepared cache folder (`--cache DIR` or File ▸ Prepared Cache Folder), unless
// that folder lies inside the cluster or any profile data folder: then it is read without it (*cacheDir is
// cleared) and says so, as `--cluster` and `--prepare` refuse it (issue 29 item 6; the snapshot writer
// refuses it too).
cluster::ClusterModel readClusterWithCache(const QString &root, QString *cacheDir,
                                           std::uint64_t memoryLimitBytes)
{
    if (cacheDir->isEmpty() || !snapshot::insideDataFolder(root, *cacheDir))
        return cluster::readCluster(root, {*cacheDir, memoryLimitBytes});
    const QString refused = std::exchange(*cacheDir, QString());
    const QString dataFolder = snapshot::profileDataFolderAbove(refused);
    cluster::ClusterModel model = cluster::readCluster(root, {{}, memoryLimitBytes});
    model.warnings.prepend(
        ClusterController::tr("the prepared cache folder %1 lies inside the data folder %2: the cluster was "
                              "read without it and nothing is written there")
            .arg(refused, dataFolder.isEmpty() ? root : dataFolder));
    return model;
}

// The comm_bound verdicts (app/ClusterCommBound) on a worker: the named ranks' timelines are loaded there and
// dropped once judged; the page shows the verdicts if it still shows the same cluster.
void startCommBound(ClusterView *view, std::shared_ptr<const cluster::ClusterModel> model,
                    LoadOptions options)
{
    auto *watcher = new QFutureWatcher<cluster::CommBoundAnalysis>(view);
    QObject::connect(
        watcher, &QFutureWatcher<cluster::CommBoundAnalysis>::finished, view, [view, watcher, model] {
            if (view->model() == model.get())
                view->setCommBound(std::make_shared<const cluster::CommBoundAnalysis>(watcher->result()));
            watcher->deleteLater();
        });
    watcher->setFuture(QtConcurrent::run([model, options] {
        QString problems; // each failed rank is named in its verdict's reason
        QTextStream err(&problems);
        return runCommBound(*model, options, err);
    }));
}

} // namespace

ClusterController::ClusterController(MainWindow *window, QToolBar *toolbar)
    : QObject(window), m_window(window), m_clusterAction(new QAction(window))
{
    m_clusterAction->setObjectName(QStringLiteral("ClusterAction"));
    connect(m_clusterAction, &QAction::triggered, this, &ClusterController::showClusterPage);
    toolbar->insertAction(toolbar->actions().value(0), m_clusterAction);
    m_clusterAction->setVisible(false);
    // Not in the menus: every menu entry is a registry command (Commands.h); the rank header's menu offers
    // Close Rank and Rank Offsets….
    connect(window->timeline(), &TimelineView::laneMenuRequested, this, &ClusterController::addRankActions);
    retranslate();
}

void ClusterController::retranslate()
{
    m_clusterAction->setText(tr("◂ Cluster"));
    m_clusterAction->setToolTip(tr("Back to the Cluster page of these ranks (the timeline stays loaded)"));
}

bool ClusterController::showsCluster() const
{
    return m_view && m_window->m_pages->currentWidget() == m_view;
}

ClusterView *ClusterController::ensureView()
{
    if (m_view)
        return m_view;
    m_view = new ClusterView;
    m_window->m_pages->addWidget(m_view);
    connect(m_view, &ClusterView::rankOpenRequested, this, &ClusterController::openClusterRank);
    connect(m_view, &ClusterView::ranksOpenRequested, this,
            [this](const QList<int> &ranks, const QString &op) { openClusterRanks(ranks, op); });
    connect(m_view, &ClusterView::timelineRequested, this, &ClusterController::showTimelinePage);
    connect(m_view->pipelineView(), &PipelineView::loadRequested, this,
            &ClusterController::loadPipelineRanks);
    connect(m_view->pipelineView(), &PipelineView::blockOpenRequested, this,
            &ClusterController::openPipelineBlock);
    connect(m_window, &MainWindow::loadFinished, this, [this](bool ok) {
        if (!ok && std::exchange(m_pipelinePending, false)) // failed or cancelled: the tab offers Load again
            m_view->pipelineView()->setLoading(false);
    });
    connect(m_view, &ClusterView::commBoundRequested, this,
            [this] { startCommBound(m_view, m_cluster, m_window->loadOptions()); });
    // The page's docks: MainWindow's PageDocks (app/MainWindowOverview.cpp) hides the timeline's here.
    return m_view;
}

void ClusterController::showModel(std::shared_ptr<cluster::ClusterModel> model)
{
    ensureView();
    m_cluster = std::move(model);
    m_view->setModel(m_cluster);
    if (auto *insights = m_window->m_panels->panel<InsightsPanel>())
        // a rank opened from here: not read again
        insights->setClusterReader(communicationReader(m_cluster, m_window->loadOptions().memoryLimitBytes));
}

bool ClusterController::openCluster(const QString &path)
{
    // A folder of ranks, or msprof-analyze's cluster_analysis.db (recognised by its tables) or a folder
    // holding one.
    const bool databaseFile = QFileInfo(path).isFile();
    if (databaseFile ? !cluster::isClusterAnalysisDatabase(path) : !cluster::isClusterFolder(path))
        return false;
    // GPU rank traces are read whole: a few open as one timeline without being read twice (the page reads
    // them when asked, docs/CLUSTER.md "GPU rank traces").
    if (!databaseFile && cluster::findClusterAnalysisDatabase(path).isEmpty() &&
        cluster::findClusterAnalysisOutput(path).isEmpty() && cluster::findRankFolders(path).isEmpty() &&
        static_cast<std::size_t>(cluster::findGpuRankTraces(path).size()) <= kRanksOnOneTimeline)
        return false;
    // With `--cache DIR` (or File ▸ Prepared Cache), ranks prepared there (`--prepare`) come from their
    // summaries (docs/CLUSTER.md).
    QString preparedDir = m_window->loadOptions().snapshotDirectory;
    auto model = std::make_shared<cluster::ClusterModel>(
        readClusterWithCache(path, &preparedDir, m_window->loadOptions().memoryLimitBytes));
    // A few ranks that all have timelines still open as one timeline (one group per rank), as before; the
    // page is for clusters whose one timeline would be incomplete (summary-only ranks) or too tall.
    const bool summaryOnlyRank = std::any_of(model->ranks.begin(), model->ranks.end(),
                                             [](const cluster::Rank &r) { return !r.hasTimeline; });
    if (model->ranks.empty() ||
        (!databaseFile && !summaryOnlyRank && model->ranks.size() <= kRanksOnOneTimeline))
        return false;
    showModel(model);
    // A timeline of another folder is not this cluster's: the page offers no way back to it.
    const bool sameCluster = m_window->m_model && canonicalFolder(m_clusterRoot) == canonicalFolder(path);
    m_view->setLoadedTimeline(sameCluster ? loadedRanksText() : QString());
    if (auto *insights = m_window->m_panels->panel<InsightsPanel>())
        insights->setCluster(model); // the cluster and communication checks of the ranks' summary files
    m_window->m_pages->setCurrentWidget(m_view);
    m_clusterAction->setVisible(false);
    m_window->setWindowTitle(tr("%1 (cluster) — Ascend Timeline").arg(QFileInfo(path).fileName()));
    const int ranks = static_cast<int>(model->ranks.size());
    StatusLabel *status = m_window->m_status;
    if (preparedDir.isEmpty())
        status->setText(tr("Cluster %1: %n rank(s) read from their summary files", nullptr, ranks).arg(path));
    else // how many the prepared cache held (the others were read from their files, the message says why)
        status->setText(
            tr("Cluster %1: %2 of %3 ranks from prepared summaries in %4")
                .arg(path)
                .arg(std::count_if(model->ranks.begin(), model->ranks.end(),
                                   [](const cluster::Rank &r) { return !r.preparedSummary.isEmpty(); }))
                .arg(ranks)
                .arg(preparedDir));
    if (!model->warnings.isEmpty())
        m_window->m_messages->showMessage(
            MessageBar::Kind::Warning,
            tr("Cluster read with %n warning(s): %1", nullptr, static_cast<int>(model->warnings.size()))
                .arg(model->warnings.first()),
            model->warnings);
    else
        m_window->m_messages->hide();
    m_window->rememberRecent(path);
    return true;
}

void ClusterController::openClusterRank(int rank)
{
    const cluster::Rank *r = m_cluster ? m_cluster->rank(rank) : nullptr;
    if (!r)
        return;
    if (!r->hasTimeline) {
        m_window->m_messages->showMessage(
            MessageBar::Kind::Info,
            tr("Rank %1 has only summary files (no trace_view.json, kernel_details.csv or "
               "database): there is no timeline to open.")
                .arg(rank));
        return;
    }
    // One rank opens as its own folder (the snapshot it shares with opening that folder directly).
    const QString root = m_cluster->root;
    m_openingClusterRank = true; // usesPreparedCache(): the saved prepared cache folder applies
    m_window->openPath(r->folder);
    m_openingClusterRank = false;
    m_loadingClusterRoot = root;
}

void ClusterController::openClusterRanks(const QList<int> &ranks, const QString &op)
{
    if (!m_cluster)
        return;
    QStringList folders, notOpened;
    for (int rank : ranks) {
        const cluster::Rank *r = m_cluster->rank(rank);
        if (!r)
            continue;
        if (r->hasTimeline && !folders.contains(r->folder))
            folders << r->folder;
        else if (!r->hasTimeline)
            notOpened << QString::number(rank);
    }
    if (folders.isEmpty()) {
        m_window->m_messages->showMessage(
            MessageBar::Kind::Info,
            tr("Rank(s) %1 have only summary files (no trace_view.json, kernel_details.csv "
               "or database): there is no timeline to open.")
                .arg(notOpened.join(QStringLiteral(", "))));
        return;
    }
    openRankFolders(m_cluster->root, folders, op);
    m_pendingNotOpened = notOpened;
}

void ClusterController::openRankFolders(const QString &root, const QStringList &folders, const QString &op)
{
    m_window->startLoad(root, folders);
    m_loadingClusterRoot = root;
    m_pendingOp = op;
    m_pendingNotOpened.clear();
}

void ClusterController::loadStarting(const QStringList &rankFolders)
{
    m_loadingRankFolders = rankFolders;
    m_loadingClusterRoot.clear();
    m_reloadOrigin.reset();
    m_pendingOp.clear();
    m_pendingNotOpened.clear();
    if (m_pipelinePending && m_view) // another load replaces the Pipeline tab's
        m_view->pipelineView()->setLoading(false);
    m_pipelinePending = false;
}

QString ClusterController::loadedRanksText() const
{
    if (!m_window->m_model)
        return {};
    QStringList labels;
    for (const SourceGroup &g : m_window->m_model->groups())
        labels << (g.label.isEmpty() ? QFileInfo(g.path).fileName() : g.label);
    return labels.join(QStringLiteral(", "));
}

void ClusterController::modelShown()
{
    if (m_view && m_window->m_model.get() != m_pipelineModel) {
        m_pipelineModel = nullptr; // the schedule's groups and slices were those of another model
        m_view->pipelineView()->clearSchedule();
    }
    m_rankFolders = m_loadingRankFolders; // before the session is applied: it may be captured again
    rebasePendingSession();
}

void ClusterController::afterLoad()
{
    const QString &currentPath = m_window->m_currentPath;
    m_rankFolders = m_loadingRankFolders;
    // The cluster of this timeline: where its ranks were opened from, or the folder itself when it is one
    // (the 2-rank folder that opens straight as a timeline).
    m_clusterRoot = m_loadingClusterRoot;
    if (m_clusterRoot.isEmpty() && QFileInfo(currentPath).isDir() && m_window->m_model->groups().size() > 1 &&
        cluster::isClusterFolder(currentPath))
        m_clusterRoot = currentPath;
    m_clusterAction->setVisible(!m_clusterRoot.isEmpty());
    if (m_view)
        m_view->setLoadedTimeline(m_cluster && !m_clusterRoot.isEmpty() &&
                                          canonicalFolder(m_cluster->root) == canonicalFolder(m_clusterRoot)
                                      ? loadedRanksText()
                                      : QString());
    if (!m_rankFolders.isEmpty())
        m_window->setWindowTitle(
            tr("%1 (%2) — Ascend Timeline").arg(QFileInfo(currentPath).fileName(), loadedRanksText()));
    QStringList notes;
    if (!m_pendingNotOpened.isEmpty())
        notes << tr("Not opened (summary files only, no timeline): rank(s) %1.")
                     .arg(m_pendingNotOpened.join(QStringLiteral(", ")));
    if (!m_pendingOp.isEmpty())
        showPendingOp(notes);
    showLoadNotes(notes);
    if (std::exchange(m_pipelinePending, false))
        showPipelineSchedule();
    m_pendingOp.clear();
    m_pendingNotOpened.clear();
    m_loadingClusterRoot.clear();
    m_loadingRankFolders.clear();
}

namespace {

// Whether a slice of this name is on a lane of the layer.
bool hasOnLayer(const TraceModel &model, StringId name, Layer layer)
{
    for (const ThreadInfo &thread : model.threads()) {
        if (model.processes()[static_cast<std::size_t>(thread.process)].layer != layer)
            continue;
        for (std::uint32_t i = 0; i < thread.slices.size(); ++i)
            if (thread.slices.name(i) == name)
                return true;
    }
    return false;
}

} // namespace

void ClusterController::showPendingOp(QStringList &notes)
{
    // The op on every open rank: its instances selected (the first) and framed together.
    const TraceModel &model = *m_window->m_model;
    TimelineView *timeline = m_window->m_timeline;
    std::vector<SliceRef> found;
    TimeRange span{0, 0};
    std::vector<bool> groupDone(model.groups().size(), false);
    const StringId name = model.strings().find(m_pendingOp.toStdString());
    // A collective on the communication lanes; a kernel (a MoE finding's grouped matmul) on the device
    // streams when no communication lane has it.
    const bool onCommunication =
        name != StringPool::kNotFound && hasOnLayer(model, name, Layer::Communication);
    const Layer layer = onCommunication ? Layer::Communication : Layer::DeviceStreams;
    for (std::size_t t = 0; name != StringPool::kNotFound && t < model.threads().size(); ++t) {
        const ThreadInfo &thread = model.threads()[t];
        const ProcessInfo &process = model.processes()[static_cast<std::size_t>(thread.process)];
        if (process.layer != layer || groupDone[static_cast<std::size_t>(process.group)])
            continue;
        const SliceTable &slices = thread.slices;
        for (std::uint32_t i = 0; i < slices.size(); ++i) {
            if (slices.name(i) != name)
                continue;
            const TimeNs offset = timeline->groupOffset(process.group);
            const TimeRange r{slices.start(i) + offset, slices.end(i) + offset};
            span = found.empty() ? r : TimeRange{std::min(span.start, r.start), std::max(span.end, r.end)};
            found.push_back({static_cast<std::int32_t>(t), i});
            groupDone[static_cast<std::size_t>(process.group)] = true;
            break;
        }
    }
    if (found.empty()) {
        notes << tr("%1 is not on the timeline of the open ranks (no communication lane has it).")
                     .arg(m_pendingOp);
        return;
    }
    timeline->selectSlice(found.front(), false);
    timeline->setHighlightedSlices(found);
    const TimeNs margin = std::max<TimeNs>(1000, span.width() / 4);
    timeline->zoom()->setRange({span.start - margin, span.end + margin}, true);
    timeline->revealSliceRow(found.front());
    m_window->m_status->setText(
        tr("%1 on %n rank(s)", nullptr, static_cast<int>(found.size())).arg(m_pendingOp));
}

void ClusterController::showLoadNotes(const QStringList &notes)
{
    const QStringList &warnings = m_window->m_model->warnings();
    // Said before the model's own warnings, which stay reachable (Show all).
    if (!notes.isEmpty() && !warnings.isEmpty())
        m_window->m_messages->showMessage(
            MessageBar::Kind::Warning,
            notes.join(QLatin1Char(' ')) + QLatin1Char(' ') +
                tr("Opened with %n warning(s): %1", nullptr, static_cast<int>(warnings.size()))
                    .arg(warnings.first()),
            warnings);
    else if (!notes.isEmpty())
        m_window->m_messages->showMessage(MessageBar::Kind::Info, notes.join(QLatin1Char(' ')));
}

void ClusterController::loadPipelineRanks(const QList<int> &ranks)
{
    openClusterRanks(ranks, QString());
    if (!m_window->isLoading())
        return;
    m_pipelinePending = true;
    m_view->pipelineView()->setLoading(true);
}

void ClusterController::showPipelineSchedule()
{
    if (!m_view || !m_cluster || !m_window->m_model)
        return;
    const TraceModel &model = *m_window->m_model;
    const cluster::PipelineRankChoice choice = cluster::choosePipelineRanks(*m_cluster);
    m_pipelineModel = &model;
    m_view->pipelineView()->setSchedule(cluster::buildPipelineSchedule(
        model,
        cluster::pipelineRanksOnModel(model, *m_cluster, choice, m_window->m_timeline->groupOffsets())));
    showClusterPage();
    m_view->showPipelineTab();
}

void ClusterController::openPipelineBlock(int group, SliceRef first, TimeNs start, TimeNs end)
{
    if (!m_window->m_model || m_window->m_model.get() != m_pipelineModel || group < 0)
        return;
    showTimelinePage();
    TimelineView *timeline = m_window->m_timeline;
    timeline->selectSlice(first, false);
    const TimeNs margin = std::max<TimeNs>(1000, (end - start) / 20);
    timeline->zoom()->setRange({start - margin, end + margin}, true);
    timeline->revealSliceRow(first);
}

void ClusterController::traceClosed()
{
    m_pipelineModel = nullptr;
    if (m_view)
        m_view->pipelineView()->clearSchedule();
    m_rankFolders.clear();
    m_clusterRoot.clear();
    m_clusterAction->setVisible(false);
}

bool ClusterController::closeRank(int group)
{
    const std::shared_ptr<TraceModel> &model = m_window->m_model;
    if (!model || m_clusterRoot.isEmpty() || group < 0 ||
        static_cast<std::size_t>(group) >= model->groups().size())
        return false;
    QStringList remaining;
    for (std::size_t g = 0; g < model->groups().size(); ++g)
        if (static_cast<int>(g) != group)
            remaining << model->groups()[g].path;
    const QString root = m_clusterRoot;
    if (remaining.isEmpty()) {
        // The last rank: release the model, back to the cluster page.
        m_window->attachViews(nullptr);
        m_window->m_model.reset();
        m_rankFolders.clear();
        m_window->m_currentPath.clear();
        m_clusterRoot.clear();
        if (m_view)
            m_view->setLoadedTimeline({});
        if (!openCluster(root))
            m_window->closeTrace();
        return true;
    }
    // The view, lanes, markers and offsets of the other ranks come back with the reloaded model.
    Session keep = m_window->captureSession();
    keep.paths = {root};
    keep.rankFolders = remaining;
    const TimeNs origin = model->origin();
    m_window->startLoad(root, remaining);
    m_window->m_sessions->setPending(keep);
    m_loadingClusterRoot = root;
    m_reloadOrigin = origin;
    return true;
}

void ClusterController::rebasePendingSession()
{
    // The model's origin is its earliest event: without the closed rank it can move, and the kept view
    // and markers (relative to it) move back by as much, so they stay where they were on the clock.
    SessionController *sessions = m_window->m_sessions;
    const std::optional<TimeNs> old = std::exchange(m_reloadOrigin, std::nullopt);
    if (!old || !m_window->m_model || !sessions->pending())
        return;
    Session s = *sessions->pending();
    const TimeNs origin = m_window->m_model->origin(), delta = *old - origin;
    s.viewBegin += delta;
    s.viewEnd += delta;
    for (Marker &m : s.markers) {
        m.begin += delta;
        m.end += delta;
    }
    s.originText = formatAbsoluteMicros(origin);
    sessions->setPending(std::move(s));
}

void ClusterController::showClusterPage()
{
    if (m_clusterRoot.isEmpty())
        return;
    if (m_cluster && m_view && canonicalFolder(m_cluster->root) == canonicalFolder(m_clusterRoot)) {
        m_view->setLoadedTimeline(loadedRanksText());
        m_window->m_pages->setCurrentWidget(m_view);
        m_clusterAction->setVisible(false);
        m_window->setWindowTitle(
            tr("%1 (cluster) — Ascend Timeline").arg(QFileInfo(m_clusterRoot).fileName()));
        return;
    }
    // A cluster opened straight as a timeline (up to 8 ranks with timelines): its page is read now.
    QString preparedDir = m_window->loadOptions().snapshotDirectory;
    auto model = std::make_shared<cluster::ClusterModel>(
        readClusterWithCache(m_clusterRoot, &preparedDir, m_window->loadOptions().memoryLimitBytes));
    if (model->ranks.empty())
        return;
    showModel(model);
    showClusterPage();
}

void ClusterController::showTimelinePage()
{
    if (!m_window->m_model)
        return;
    m_window->m_pages->setCurrentWidget(m_window->m_timeline);
    m_clusterAction->setVisible(!m_clusterRoot.isEmpty());
    m_window->showModelSummary();
    if (!m_rankFolders.isEmpty())
        m_window->setWindowTitle(tr("%1 (%2) — Ascend Timeline")
                                     .arg(QFileInfo(m_window->m_currentPath).fileName(), loadedRanksText()));
    m_window->m_timeline->setFocus();
}

void ClusterController::addRankActions(QMenu *menu, int group)
{
    const TraceModel *model = m_window->model();
    if (!model || group < 0 || static_cast<std::size_t>(group) >= model->groups().size())
        return;
    const QString label = model->groups()[static_cast<std::size_t>(group)].label;
    menu->addSeparator();
    if (!m_clusterRoot.isEmpty()) {
        QAction *close =
            menu->addAction(tr("Close %1").arg(label), this, [this, group] { closeRank(group); });
        close->setToolTip(tr("Reload the timeline without this rank (its memory is released)"));
    }
    if (model->groups().size() > 1)
        menu->addAction(tr("Rank Offsets…"), this, &ClusterController::editRankOffsets);
}

void ClusterController::editRankOffsets()
{
    const TraceModel *model = m_window->model();
    if (!model || model->groups().size() < 2) {
        m_window->m_messages->showMessage(
            MessageBar::Kind::Info, tr("Rank offsets need a timeline with several ranks (open ranks from "
                                       "the Cluster page, or a folder of rank folders)."));
        return;
    }
    QStringList labels;
    std::vector<TimeNs> offsets;
    TimelineView *timeline = m_window->m_timeline;
    for (std::size_t g = 0; g < model->groups().size(); ++g) {
        labels << model->groups()[g].label;
        offsets.push_back(timeline->groupOffset(static_cast<int>(g)));
    }
    auto *dialog = new RankOffsetsDialog(labels, offsets, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("RankOffsetsDialog"));
    connect(dialog, &RankOffsetsDialog::applied, timeline, &TimelineView::setGroupOffsets);
    // A reload (Close Rank) or another model makes the rows stale.
    connect(m_window, &MainWindow::loadFinished, dialog, &QDialog::close);
    dialog->show();
}

} // namespace at
