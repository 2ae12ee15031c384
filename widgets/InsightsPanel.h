#pragma once

#include "Finding.h"
#include "cluster/ClusterModel.h"

#include <QFutureWatcher>
#include <QWidget>

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

class QLabel;
class QPushButton;
class QTextBrowser;
class QTreeWidget;
class QTreeWidgetItem;

namespace at {

// What one run of the checks made, shared by the Insights panel and the window's Overview page (they show
// the same findings object: the checks and the communication read run once per model and language).
struct InsightsResult
{
    const TraceModel *model = nullptr; // what the checks ran on (an empty model on a cluster page)
    std::shared_ptr<const cluster::ClusterModel> cluster; // the communication / cluster data they read
    std::shared_ptr<const std::vector<Finding>> findings; // never null
    std::vector<Finding> withoutTime; // checked, but no time left to explain (the "also checked" line)
    bool clusterPage = false;         // a cluster page without a timeline (setCluster)
};

// The Insights dock: the performance findings of core/insights (docs/INSIGHTS.md), ranked by the time they
// explain, computed on a worker thread once a model is shown (the timeline stays usable meanwhile). Each
// finding row holds its occurrences; selecting one selects its slice on the timeline, and "Show all"
// asks for every occurrence of the current finding at once.
class InsightsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit InsightsPanel(QWidget *parent = nullptr);
    ~InsightsPanel() override;

    // Starts the checks on the model in the background (null clears; a running computation on the
    // previous model is cancelled and waited for, so the model may go away after this returns).
    void setModel(const TraceModel *model);
    // The communication / cluster data of a model's folder (communication.json, the ranks' step
    // breakdowns), read by app/ with parser/cluster on the checks' worker before they run.
    using ClusterReader = std::function<std::shared_ptr<const cluster::ClusterModel>(const TraceModel &)>;
    void setClusterReader(ClusterReader reader) { m_clusterReader = std::move(reader); }
    // A cluster page without a timeline: the cluster and communication checks over its ranks' summary
    // files only (a later setModel leaves this mode).
    void setCluster(std::shared_ptr<const cluster::ClusterModel> cluster);

    const std::vector<Finding> &findings() const;
    // The last finished run for the current model (null while the checks run or without a model).
    std::shared_ptr<const InsightsResult> result() const { return m_result; }
    // How many times the checks have run since the panel was made (tests: one run per model and language).
    int runs() const { return m_runs; }
    bool isComputing() const { return m_watcher.isRunning(); }
    QTreeWidget *tree() const { return m_tree; }
    QPushButton *showAllButton() const { return m_showAll; }
    // The time and share cells of a finding or occurrence that measures no time ("—", never "0 ns"), and
    // their tooltip (the Overview's findings use them too).
    static QString noTime();
    static QString noTimeToolTip();

protected:
    // QEvent::LanguageChange: the panel's own labels at once (retranslateUi) and the findings' texts,
    // which core translates when it makes them, by running the checks again.
    void changeEvent(QEvent *event) override;

Q_SIGNALS:
    void findingsReady();
    // One occurrence was chosen: the timeline selects it.
    void occurrenceActivated(SliceRef slice);
    // "Show all": every occurrence of the current finding that has a slice (the timeline highlights
    // them and selects the first).
    void occurrencesRequested(std::vector<SliceRef> slices);

private:
    void start(const TraceModel *model, std::shared_ptr<const cluster::ClusterModel> cluster);
    void retranslateUi();
    void showStatus();
    void showFindings();
    void showCurrent();
    int currentFinding() const;

    const TraceModel *m_model = nullptr;
    std::shared_ptr<const cluster::ClusterModel> m_cluster; // set on a cluster page
    ClusterReader m_clusterReader;
    const std::unique_ptr<TraceModel> m_noTimeline =
        std::make_unique<TraceModel>(); // a cluster page's: empty
    std::shared_ptr<std::atomic_bool> m_cancel;
    QFutureWatcher<std::shared_ptr<const InsightsResult>> m_watcher;
    std::shared_ptr<const InsightsResult> m_result;
    int m_runs = 0;
    bool m_done = false;         // the checks of m_model have finished
    bool m_rerunPending = false; // a language change will make the findings again
    QLabel *m_status;
    QTreeWidget *m_tree;
    QTextBrowser *m_text;
    QPushButton *m_showAll;
};

} // namespace at
