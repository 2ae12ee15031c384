#pragma once

#include "Time.h"
#include "TraceModel.h"

#include <QObject>
#include <QStringList>

#include <memory>
#include <optional>

class QMenu;
class QToolBar;
class QAction;

namespace at {

namespace cluster {
struct ClusterModel;
}
class ClusterView;
class MainWindow;

// The window's cluster page and the flows around it (docs/CLUSTER.md). A folder of rank folders opens as
// the Cluster view (summary files only, no timeline parsed). From it, one rank opens through the ordinary
// open path, several ranks (the selected rows, a group, a matrix cell's src and dst, a finding's ranks)
// open on ONE timeline: only their rank folders are loaded (LoadOptions::rankFolders), a group per rank.
// Ranks can be closed again, offsets align them on a collective, and the "Cluster" action goes back to the
// page without dropping the loaded timeline. Owned by the window, which it drives through its load,
// views and message bar (a friend: these are the window's parts, not a public API).
class ClusterController : public QObject
{
    Q_OBJECT
public:
    ClusterController(MainWindow *window, QToolBar *toolbar);

    ClusterView *view() const { return m_view; }
    std::shared_ptr<const cluster::ClusterModel> clusterModel() const { return m_cluster; }
    bool showsCluster() const;
    QAction *clusterAction() const { return m_clusterAction; }
    QString clusterRoot() const { return m_clusterRoot; }
    QStringList loadedRankFolders() const { return m_rankFolders; }

    // false when path is not a cluster folder (or one that opens straight as a timeline).
    bool openCluster(const QString &path);
    void openClusterRanks(const QList<int> &ranks, const QString &op);
    void openRankFolders(const QString &root, const QStringList &folders, const QString &op);
    bool closeRank(int group);
    void showClusterPage();
    void showTimelinePage();
    void editRankOffsets();
    void retranslate();

    // The load flow of the window: a load starts (the cluster bookkeeping of the previous request is
    // dropped); whether it uses File ▸ Prepared Cache's folder (a cluster's ranks only); once its model is
    // shown, before and after the pending session is applied.
    void loadStarting(const QStringList &rankFolders);
    bool usesPreparedCache(const QStringList &rankFolders) const
    {
        return !rankFolders.isEmpty() || m_openingClusterRank;
    }
    void modelShown();
    // The running load was asked to show an op (a finding's ranks opened from the cluster page).
    bool showsOpAfterLoad() const { return !m_pendingOp.isEmpty(); }
    void afterLoad(); // titles, messages and the op to show once a rank subset has loaded
    // The window closed its trace.
    void traceClosed();

private:
    void openClusterRank(int rank);
    ClusterView *ensureView();
    void showModel(std::shared_ptr<cluster::ClusterModel> model);
    QString loadedRanksText() const;
    void addRankActions(QMenu *menu, int group);
    void rebasePendingSession(); // after Close Rank: the kept view follows a moved model origin
    void showPendingOp(QStringList &notes);
    void showLoadNotes(const QStringList &notes);
    // The Pipeline tab (widgets/cluster/PipelineView.h): its stage ranks loaded on one timeline, the
    // schedule built from it after the load, a block opened on it.
    void loadPipelineRanks(const QList<int> &ranks);
    void showPipelineSchedule();
    void openPipelineBlock(int group, SliceRef first, TimeNs start, TimeNs end);

    MainWindow *m_window;
    ClusterView *m_view = nullptr;
    std::shared_ptr<cluster::ClusterModel> m_cluster;
    QAction *m_clusterAction;
    QString m_clusterRoot;                // the cluster of the shown timeline (breadcrumb, Close Rank)
    bool m_openingClusterRank = false;    // openClusterRank() is opening a rank folder (usesPreparedCache)
    QStringList m_rankFolders;            // the shown timeline's rank subset (LoadOptions::rankFolders)
    QStringList m_loadingRankFolders;     // ... of the running load
    QString m_loadingClusterRoot;         // ... of the running load
    QString m_pendingOp;                  // an op to show once the running load has finished
    QStringList m_pendingNotOpened;       // ranks of the request without a timeline
    std::optional<TimeNs> m_reloadOrigin; // the origin before Close Rank's reload
    bool m_pipelinePending = false;       // the running load is the Pipeline tab's stage ranks
    const TraceModel *m_pipelineModel = nullptr; // the model the Pipeline tab's schedule was read from
};

} // namespace at
