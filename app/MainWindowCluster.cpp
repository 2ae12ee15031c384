// The window's cluster page: a folder of rank folders opens as the Cluster view (summary files only, no
// timeline parsed); activating a rank loads that one rank folder through the ordinary open path (in the
// background, with progress).
#include "MainWindow.h"

#include "InsightsPanel.h"
#include "MessageBar.h"
#include "StatusLabel.h"
#include "cluster/ClusterReader.h"
#include "cluster/ClusterView.h"

#include <QFileInfo>
#include <QLabel>
#include <QStackedWidget>
#include <algorithm>

namespace at {

namespace {
constexpr std::size_t kRanksOnOneTimeline = 8;
} // namespace

bool MainWindow::showsCluster() const
{
    return m_clusterView && m_pages->currentWidget() == m_clusterView;
}

bool MainWindow::openCluster(const QString &path)
{
    if (!QFileInfo(path).isDir() || !cluster::isClusterFolder(path))
        return false;
    auto model = std::make_shared<cluster::ClusterModel>(cluster::readCluster(path));
    // A few ranks that all have timelines still open as one timeline (one group per rank), as before; the
    // page is for clusters whose one timeline would be incomplete (summary-only ranks) or too tall.
    const bool summaryOnlyRank = std::any_of(model->ranks.begin(), model->ranks.end(),
                                             [](const cluster::Rank &r) { return !r.hasTimeline; });
    if (model->ranks.empty() || (!summaryOnlyRank && model->ranks.size() <= kRanksOnOneTimeline))
        return false;
    if (!m_clusterView) {
        m_clusterView = new ClusterView;
        m_pages->addWidget(m_clusterView);
        connect(m_clusterView, &ClusterView::rankOpenRequested, this, &MainWindow::openClusterRank);
        // Several ranks: the first here, each other one in a window of its own (its own model and snapshot).
        connect(m_clusterView, &ClusterView::ranksOpenRequested, this, [this](const QList<int> &ranks) {
            for (qsizetype i = 1; i < ranks.size(); ++i) {
                const cluster::Rank *r = m_cluster ? m_cluster->rank(ranks[i]) : nullptr;
                if (!r || !r->hasTimeline)
                    continue;
                auto *window = new MainWindow;
                window->setAttribute(Qt::WA_DeleteOnClose);
                window->setLoadOptions(m_loadOptions);
                window->show();
                window->openPath(r->folder);
            }
            openClusterRank(ranks.first());
        });
    }
    m_cluster = model;
    m_clusterView->setModel(model);
    if (auto *insights = findChild<InsightsPanel *>())
        insights->setCluster(model); // the cluster and communication checks of the ranks' summary files
    m_pages->setCurrentWidget(m_clusterView);
    setWindowTitle(tr("%1 (cluster) — Ascend Timeline").arg(QFileInfo(path).fileName()));
    m_status->setText(tr("Cluster %1: %n rank(s) read from their summary files", nullptr,
                         static_cast<int>(model->ranks.size()))
                          .arg(path));
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
    openPath(r->folder);
}

} // namespace at
