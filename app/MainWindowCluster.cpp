// The window's cluster page: a folder of rank folders opens as the Cluster view (summary files only, no
// timeline parsed). From it, one rank opens through the ordinary open path, several ranks (the selected
// rows, a group, a matrix cell's src and dst, a finding's ranks) open on ONE timeline: only their rank
// folders are loaded (LoadOptions::rankFolders), in the background with progress, a group per rank.
// Ranks can be closed again, offsets align them on a collective, and the "Cluster" action goes back to
// the page without dropping the loaded timeline.
#include "MainWindow.h"

#include "CommandLine.h"

#include "InsightsPanel.h"
#include "MessageBar.h"
#include "SessionController.h"
#include "StatusLabel.h"
#include "TimelineView.h"
#include "TraceLoadJob.h"
#include "cluster/ClusterReader.h"
#include "cluster/ClusterView.h"
#include "cluster/RankOffsetsDialog.h"

#include <QAction>
#include <QDockWidget>
#include <QEvent>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QStackedWidget>
#include <QToolBar>
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

// The timeline's docks (Details, Range statistics, Kernels, Insights, ...) are about a loaded timeline: on
// the cluster page they are hidden so the page has the whole window. Each page keeps its own dock layout
// (QMainWindow::saveState): leaving the cluster page restores the timeline's exactly as the user left it,
// and a dock shown on the cluster page from View ▸ Panels (Insights lists the cluster's findings) is there
// again next time. The timeline's layout is put back before the window saves its state on close.
class ClusterPageDocks : public QObject
{
public:
    ClusterPageDocks(QMainWindow *window, QStackedWidget *pages, QWidget *clusterPage)
        : QObject(window), m_window(window), m_clusterPage(clusterPage)
    {
        connect(pages, &QStackedWidget::currentChanged, this,
                [this, pages] { pageChanged(pages->currentWidget() == m_clusterPage); });
        window->installEventFilter(this);
        pageChanged(pages->currentWidget() == m_clusterPage);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_window && event->type() == QEvent::Close)
            pageChanged(false); // MainWindow::closeEvent saves the timeline's layout, not the page's
        return false;
    }

private:
    void pageChanged(bool cluster)
    {
        if (cluster == m_onCluster)
            return;
        m_onCluster = cluster;
        if (cluster) {
            m_timelineState = m_window->saveState();
            if (!m_clusterState.isEmpty())
                m_window->restoreState(m_clusterState);
            else
                for (QDockWidget *dock : m_window->findChildren<QDockWidget *>(Qt::FindDirectChildrenOnly))
                    dock->hide();
        } else {
            m_clusterState = m_window->saveState();
            m_window->restoreState(m_timelineState);
        }
    }

    QMainWindow *m_window;
    QWidget *m_clusterPage;
    bool m_onCluster = false;
    QByteArray m_timelineState, m_clusterState;
};
} // namespace

bool MainWindow::showsCluster() const
{
    return m_clusterView && m_pages->currentWidget() == m_clusterView;
}

ClusterView *MainWindow::ensureClusterView()
{
    if (m_clusterView)
        return m_clusterView;
    m_clusterView = new ClusterView;
    m_pages->addWidget(m_clusterView);
    connect(m_clusterView, &ClusterView::rankOpenRequested, this, &MainWindow::openClusterRank);
    connect(m_clusterView, &ClusterView::ranksOpenRequested, this,
            [this](const QList<int> &ranks, const QString &op) { openClusterRanks(ranks, op); });
    connect(m_clusterView, &ClusterView::timelineRequested, this, &MainWindow::showTimelinePage);
    new ClusterPageDocks(this, m_pages, m_clusterView);
    return m_clusterView;
}

bool MainWindow::openCluster(const QString &path)
{
    if (!QFileInfo(path).isDir() || !cluster::isClusterFolder(path))
        return false;
    // With `--cache DIR` (or File ▸ Prepared Cache), ranks prepared there (`--prepare`) come from their
    // summaries (docs/CLUSTER.md).
    const QString preparedDir = loadOptions().snapshotDirectory;
    auto model = std::make_shared<cluster::ClusterModel>(cluster::readCluster(path, {preparedDir}));
    // A few ranks that all have timelines still open as one timeline (one group per rank), as before; the
    // page is for clusters whose one timeline would be incomplete (summary-only ranks) or too tall.
    const bool summaryOnlyRank = std::any_of(model->ranks.begin(), model->ranks.end(),
                                             [](const cluster::Rank &r) { return !r.hasTimeline; });
    if (model->ranks.empty() || (!summaryOnlyRank && model->ranks.size() <= kRanksOnOneTimeline))
        return false;
    ensureClusterView();
    m_cluster = model;
    m_clusterView->setModel(model);
    if (auto *insights = findChild<InsightsPanel *>())
        insights->setClusterReader(communicationReader(model)); // a rank opened from here: not read again
    // A timeline of another folder is not this cluster's: the page offers no way back to it.
    const bool sameCluster = m_model && canonicalFolder(m_clusterRoot) == canonicalFolder(path);
    m_clusterView->setLoadedTimeline(sameCluster ? loadedRanksText() : QString());
    if (auto *insights = findChild<InsightsPanel *>())
        insights->setCluster(model); // the cluster and communication checks of the ranks' summary files
    m_pages->setCurrentWidget(m_clusterView);
    m_clusterAction->setVisible(false);
    setWindowTitle(tr("%1 (cluster) — Ascend Timeline").arg(QFileInfo(path).fileName()));
    const int ranks = static_cast<int>(model->ranks.size());
    if (preparedDir.isEmpty())
        m_status->setText(
            tr("Cluster %1: %n rank(s) read from their summary files", nullptr, ranks).arg(path));
    else // how many the prepared cache held (the others were read from their files, the message says why)
        m_status->setText(
            tr("Cluster %1: %2 of %3 ranks from prepared summaries in %4")
                .arg(path)
                .arg(std::count_if(model->ranks.begin(), model->ranks.end(),
                                   [](const cluster::Rank &r) { return !r.preparedSummary.isEmpty(); }))
                .arg(ranks)
                .arg(preparedDir));
    if (!model->warnings.isEmpty())
        m_messages->showMessage(
            MessageBar::Kind::Warning,
            tr("Cluster read with %n warning(s): %1", nullptr, static_cast<int>(model->warnings.size()))
                .arg(model->warnings.first()),
            model->warnings);
    else
        m_messages->hide();
    rememberRecent(path);
    return true;
}

void MainWindow::openClusterRank(int rank)
{
    const cluster::Rank *r = m_cluster ? m_cluster->rank(rank) : nullptr;
    if (!r)
        return;
    if (!r->hasTimeline) {
        m_messages->showMessage(
            MessageBar::Kind::Info,
            tr("Rank %1 has only summary files (no trace_view.json, kernel_details.csv or "
               "database): there is no timeline to open.")
                .arg(rank));
        return;
    }
    // One rank opens as its own folder (the snapshot it shares with opening that folder directly).
    const QString root = m_cluster->root;
    m_openingClusterRank = true; // startLoad(): the saved prepared cache folder applies
    openPath(r->folder);
    m_openingClusterRank = false;
    m_loadingClusterRoot = root;
}

void MainWindow::openClusterRanks(const QList<int> &ranks, const QString &op)
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
        m_messages->showMessage(
            MessageBar::Kind::Info,
            tr("Rank(s) %1 have only summary files (no trace_view.json, kernel_details.csv "
               "or database): there is no timeline to open.")
                .arg(notOpened.join(QStringLiteral(", "))));
        return;
    }
    openRankFolders(m_cluster->root, folders, op);
    m_pendingNotOpened = notOpened;
}

void MainWindow::openRankFolders(const QString &root, const QStringList &folders, const QString &op)
{
    startLoad(root, folders);
    m_loadingClusterRoot = root;
    m_pendingOp = op;
    m_pendingNotOpened.clear();
}

void MainWindow::startLoad(const QString &path, const QStringList &rankFolders)
{
    m_sessions->dropPendingUnlessFor(path);
    // The saved prepared cache folder serves a cluster's ranks only: a folder of the user's choosing is
    // never trimmed, so other traces keep the default (trimmed) cache unless --cache says otherwise.
    LoadOptions options = rankFolders.isEmpty() && !m_openingClusterRank ? m_loadOptions : loadOptions();
    options.preferredSource = m_preferredSource;
    options.writeSnapshotInBackground = true; // the first frame does not wait for the cache write
    options.rankFolders = rankFolders;
    m_loadingRankFolders = rankFolders;
    m_loadingClusterRoot.clear();
    m_reloadOrigin.reset();
    m_pendingOp.clear();
    m_pendingNotOpened.clear();
    m_load->start(path, options);
    m_progress->setValue(0);
    m_progress->show();
    m_cancel->show();
    m_status->setText(
        rankFolders.isEmpty()
            ? tr("Loading %1…").arg(path)
            : tr("Loading %n rank(s) of %1…", nullptr, static_cast<int>(rankFolders.size())).arg(path));
}

QString MainWindow::loadedRanksText() const
{
    if (!m_model)
        return {};
    QStringList labels;
    for (const SourceGroup &g : m_model->groups())
        labels << (g.label.isEmpty() ? QFileInfo(g.path).fileName() : g.label);
    return labels.join(QStringLiteral(", "));
}

void MainWindow::afterClusterLoad()
{
    m_rankFolders = m_loadingRankFolders;
    // The cluster of this timeline: where its ranks were opened from, or the folder itself when it is one
    // (the 2-rank folder that opens straight as a timeline).
    m_clusterRoot = m_loadingClusterRoot;
    if (m_clusterRoot.isEmpty() && QFileInfo(m_currentPath).isDir() && m_model->groups().size() > 1 &&
        cluster::isClusterFolder(m_currentPath))
        m_clusterRoot = m_currentPath;
    m_clusterAction->setVisible(!m_clusterRoot.isEmpty());
    if (m_clusterView)
        m_clusterView->setLoadedTimeline(m_cluster && !m_clusterRoot.isEmpty() &&
                                                 canonicalFolder(m_cluster->root) ==
                                                     canonicalFolder(m_clusterRoot)
                                             ? loadedRanksText()
                                             : QString());
    if (!m_rankFolders.isEmpty())
        setWindowTitle(
            tr("%1 (%2) — Ascend Timeline").arg(QFileInfo(m_currentPath).fileName(), loadedRanksText()));
    QStringList notes;
    if (!m_pendingNotOpened.isEmpty())
        notes << tr("Not opened (summary files only, no timeline): rank(s) %1.")
                     .arg(m_pendingNotOpened.join(QStringLiteral(", ")));
    if (!m_pendingOp.isEmpty()) {
        // The op on every open rank: its instances selected (the first) and framed together.
        std::vector<SliceRef> found;
        TimeRange span{0, 0};
        std::vector<bool> groupDone(m_model->groups().size(), false);
        const StringId name = m_model->strings().find(m_pendingOp.toStdString());
        for (std::size_t t = 0; name != StringPool::kNotFound && t < m_model->threads().size(); ++t) {
            const ThreadInfo &thread = m_model->threads()[t];
            const ProcessInfo &process = m_model->processes()[static_cast<std::size_t>(thread.process)];
            if (process.layer != Layer::Communication || groupDone[static_cast<std::size_t>(process.group)])
                continue;
            const SliceTable &slices = thread.slices;
            for (std::uint32_t i = 0; i < slices.size(); ++i) {
                if (slices.name(i) != name)
                    continue;
                const TimeNs offset = m_timeline->groupOffset(process.group);
                const TimeRange r{slices.start(i) + offset, slices.end(i) + offset};
                span =
                    found.empty() ? r : TimeRange{std::min(span.start, r.start), std::max(span.end, r.end)};
                found.push_back({static_cast<std::int32_t>(t), i});
                groupDone[static_cast<std::size_t>(process.group)] = true;
                break;
            }
        }
        if (found.empty()) {
            notes << tr("%1 is not on the timeline of the open ranks (no communication lane has it).")
                         .arg(m_pendingOp);
        } else {
            m_timeline->selectSlice(found.front(), false);
            m_timeline->setHighlightedSlices(found);
            const TimeNs margin = std::max<TimeNs>(1000, span.width() / 4);
            m_timeline->zoom()->setRange({span.start - margin, span.end + margin}, true);
            m_timeline->revealSliceRow(found.front());
            m_status->setText(
                tr("%1 on %n rank(s)", nullptr, static_cast<int>(found.size())).arg(m_pendingOp));
        }
    }
    // Said before the model's own warnings, which stay reachable (Show all).
    if (!notes.isEmpty() && !m_model->warnings().isEmpty())
        m_messages->showMessage(
            MessageBar::Kind::Warning,
            notes.join(QLatin1Char(' ')) + QLatin1Char(' ') +
                tr("Opened with %n warning(s): %1", nullptr, static_cast<int>(m_model->warnings().size()))
                    .arg(m_model->warnings().first()),
            m_model->warnings());
    else if (!notes.isEmpty())
        m_messages->showMessage(MessageBar::Kind::Info, notes.join(QLatin1Char(' ')));
    m_pendingOp.clear();
    m_pendingNotOpened.clear();
    m_loadingClusterRoot.clear();
    m_loadingRankFolders.clear();
}

bool MainWindow::closeRank(int group)
{
    if (!m_model || m_clusterRoot.isEmpty() || group < 0 ||
        static_cast<std::size_t>(group) >= m_model->groups().size())
        return false;
    QStringList remaining;
    for (std::size_t g = 0; g < m_model->groups().size(); ++g)
        if (static_cast<int>(g) != group)
            remaining << m_model->groups()[g].path;
    const QString root = m_clusterRoot;
    if (remaining.isEmpty()) {
        // The last rank: release the model, back to the cluster page.
        attachViews(nullptr);
        m_model.reset();
        m_rankFolders.clear();
        m_currentPath.clear();
        m_clusterRoot.clear();
        if (m_clusterView)
            m_clusterView->setLoadedTimeline({});
        showClusterPage();
        if (!openCluster(root))
            closeTrace();
        return true;
    }
    // The view, lanes, markers and offsets of the other ranks come back with the reloaded model.
    Session keep = captureSession();
    keep.paths = {root};
    keep.rankFolders = remaining;
    const TimeNs origin = m_model->origin();
    startLoad(root, remaining);
    m_sessions->setPending(keep);
    m_loadingClusterRoot = root;
    m_reloadOrigin = origin;
    return true;
}

void MainWindow::rebasePendingSession()
{
    // The model's origin is its earliest event: without the closed rank it can move, and the kept view
    // and markers (relative to it) move back by as much, so they stay where they were on the clock.
    const std::optional<TimeNs> old = std::exchange(m_reloadOrigin, std::nullopt);
    if (!old || !m_model || !m_sessions->pending())
        return;
    Session s = *m_sessions->pending();
    const TimeNs delta = *old - m_model->origin();
    s.viewBegin += delta;
    s.viewEnd += delta;
    for (Marker &m : s.markers) {
        m.begin += delta;
        m.end += delta;
    }
    s.originText = formatAbsoluteMicros(m_model->origin());
    m_sessions->setPending(std::move(s));
}

void MainWindow::showClusterPage()
{
    if (m_clusterRoot.isEmpty())
        return;
    if (m_cluster && m_clusterView && canonicalFolder(m_cluster->root) == canonicalFolder(m_clusterRoot)) {
        m_clusterView->setLoadedTimeline(loadedRanksText());
        m_pages->setCurrentWidget(m_clusterView);
        m_clusterAction->setVisible(false);
        setWindowTitle(tr("%1 (cluster) — Ascend Timeline").arg(QFileInfo(m_clusterRoot).fileName()));
        return;
    }
    // A cluster opened straight as a timeline (up to 8 ranks with timelines): its page is read now.
    auto model = std::make_shared<cluster::ClusterModel>(
        cluster::readCluster(m_clusterRoot, {loadOptions().snapshotDirectory}));
    if (model->ranks.empty())
        return;
    ensureClusterView();
    m_cluster = model;
    m_clusterView->setModel(model);
    if (auto *insights = findChild<InsightsPanel *>())
        insights->setClusterReader(communicationReader(model));
    showClusterPage();
}

void MainWindow::showTimelinePage()
{
    if (!m_model)
        return;
    m_pages->setCurrentWidget(m_timeline);
    m_clusterAction->setVisible(!m_clusterRoot.isEmpty());
    showModelSummary();
    if (!m_rankFolders.isEmpty())
        setWindowTitle(
            tr("%1 (%2) — Ascend Timeline").arg(QFileInfo(m_currentPath).fileName(), loadedRanksText()));
    m_timeline->setFocus();
}

void MainWindow::addRankActions(QMenu *menu, int group)
{
    if (!m_model || group < 0 || static_cast<std::size_t>(group) >= m_model->groups().size())
        return;
    const QString label = m_model->groups()[static_cast<std::size_t>(group)].label;
    menu->addSeparator();
    if (!m_clusterRoot.isEmpty()) {
        QAction *close =
            menu->addAction(tr("Close %1").arg(label), this, [this, group] { closeRank(group); });
        close->setToolTip(tr("Reload the timeline without this rank (its memory is released)"));
    }
    if (m_model->groups().size() > 1)
        menu->addAction(tr("Rank Offsets…"), this, &MainWindow::editRankOffsets);
}

void MainWindow::editRankOffsets()
{
    if (!m_model || m_model->groups().size() < 2) {
        m_messages->showMessage(MessageBar::Kind::Info,
                                tr("Rank offsets need a timeline with several ranks (open ranks from the "
                                   "Cluster page, or a folder of rank folders)."));
        return;
    }
    QStringList labels;
    std::vector<TimeNs> offsets;
    for (std::size_t g = 0; g < m_model->groups().size(); ++g) {
        labels << m_model->groups()[g].label;
        offsets.push_back(m_timeline->groupOffset(static_cast<int>(g)));
    }
    auto *dialog = new RankOffsetsDialog(labels, offsets, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("RankOffsetsDialog"));
    connect(dialog, &RankOffsetsDialog::applied, m_timeline, &TimelineView::setGroupOffsets);
    // A reload (Close Rank) or another model makes the rows stale.
    connect(this, &MainWindow::loadFinished, dialog, &QDialog::close);
    dialog->show();
}

void MainWindow::createClusterActions(QToolBar *toolbar)
{
    m_clusterAction = new QAction(this);
    m_clusterAction->setObjectName(QStringLiteral("ClusterAction"));
    connect(m_clusterAction, &QAction::triggered, this, &MainWindow::showClusterPage);
    toolbar->insertAction(toolbar->actions().value(0), m_clusterAction);
    m_clusterAction->setVisible(false);
    // Not in the menus: every menu entry is a registry command (Commands.h); the rank header's menu offers
    // Close Rank and Rank Offsets….
    connect(m_timeline, &TimelineView::laneMenuRequested, this, &MainWindow::addRankActions);
    retranslateClusterActions();
}

void MainWindow::retranslateClusterActions()
{
    m_clusterAction->setText(tr("◂ Cluster"));
    m_clusterAction->setToolTip(tr("Back to the Cluster page of these ranks (the timeline stays loaded)"));
}

} // namespace at
