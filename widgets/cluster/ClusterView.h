#pragma once
// The Cluster page (docs/CLUSTER.md): shown first when a folder of rank folders is opened, built from the
// ranks' summary files only. A sortable rank table, a stacked bar chart of each rank's step breakdown, a
// rank × step heat map of step time, the findings (stage imbalance, slow ranks, msprof-analyze's rule,
// slow links, waits), the communication matrix, the per-op communication table and the parallel strategy grid
// (StrategyView; the page opens on it when the job has two parallel dimensions or more). Activating a rank
// asks the window to open its timeline.

#include "cluster/ClusterModel.h"

#include <QWidget>

#include <memory>

class QChartView;
class QComboBox;
class QLabel;
class QListWidget;
class QListWidgetItem;
class QPushButton;
class QSplitter;
class QStandardItemModel;
class QTableView;
class QTabWidget;

namespace at {

namespace cluster {
struct CommBoundAnalysis;
} // namespace cluster

class ClusterHeatMap;
class CommunicationTable;
class MoeLoadView;
class StrategyView;
class PipelineView;

class ClusterView : public QWidget
{
    Q_OBJECT
public:
    explicit ClusterView(QWidget *parent = nullptr);

    // The view keeps the model alive while it shows it (the window owns it too); nullptr clears.
    void setModel(std::shared_ptr<const cluster::ClusterModel> model);
    const cluster::ClusterModel *model() const { return m_model.get(); }

    QTableView *rankTable() const { return m_table; }
    QChartView *breakdownChart() const { return m_chart; }
    ClusterHeatMap *stepHeatMap() const { return m_stepHeat; }
    ClusterHeatMap *matrixHeatMap() const { return m_matrixHeat; }
    QListWidget *findings() const { return m_findings; }
    // The Communication tab: one row per (op, rank) (widgets/cluster/CommunicationTable.h).
    CommunicationTable *communicationTable() const { return m_communication; }
    // The Strategy tab: the ranks on the grid of their parallel coordinates (widgets/cluster/StrategyView.h).
    StrategyView *strategyView() const { return m_strategy; }
    // The Pipeline tab: per stage the forward/backward blocks and bubbles (widgets/cluster/PipelineView.h).
    PipelineView *pipelineView() const { return m_pipeline; }
    void showPipelineTab();
    // The tab a --screenshot --tab key names (findings, steps, matrix, communication, strategy, pipeline,
    // moe); false for another key.
    bool showTab(const QString &key);
    static QStringList tabKeys();
    // The MoE load tab: tokens per rank and step of the grouped matmuls (widgets/cluster/MoeLoadView.h).
    MoeLoadView *moeLoadView() const { return m_moeLoad; }
    // The matrix's choice of group (all, or one group hash) and op (all ops' -total entries, one op type's
    // -total entries, or one op by name).
    QComboBox *matrixGroupChooser() const { return m_matrixGroup; }
    QComboBox *matrixOpChooser() const { return m_matrixOp; }
    // The global ranks of the matrix's rows (= columns), and the op a click on cell (row, column) opens
    // the timeline at (empty when the matrix entries name none).
    const std::vector<int> &matrixRanks() const { return m_matrixRanks; }
    QString matrixCellOp(int row, int column) const;
    // The comparison group (core/cluster/ClusterAnalysis.h) of a rank, and its slowest and fastest ranks
    // by mean step time (computing + communication not overlapped + free); empty when unknown.
    QList<int> groupOf(int rank) const;
    QList<int> slowestAndFastestOf(int rank) const;
    // "Back to Timeline" is offered while the window has a timeline loaded (text: what is loaded).
    void setLoadedTimeline(const QString &description);
    QPushButton *openSelectedButton() const { return m_open; }
    QPushButton *openGroupButton() const { return m_openGroup; }
    QPushButton *openExtremesButton() const { return m_openExtremes; }
    QPushButton *backToTimelineButton() const { return m_back; }
    // "Host or Device Bound?": asks the window to load the timelines the comm_bound finding needs
    // (commBoundRequested); setCommBound() shows its verdicts among the findings (docs/CLUSTER.md).
    QPushButton *commBoundButton() const { return m_commBoundButton; }
    void setCommBound(std::shared_ptr<const cluster::CommBoundAnalysis> analysis);
    // The rank shown in a row of the (possibly sorted) table, or -1.
    int rankAtRow(int row) const;
    // Ranks of the selected rows, in table order.
    QList<int> selectedRanks() const;

public Q_SLOTS:
    // Emits rankOpenRequested for the rank (the table row's, a bar's, a heat map row's).
    void openRank(int rank);

Q_SIGNALS:
    void rankOpenRequested(int rank);
    // These ranks on one timeline (the selected rows, a group, a matrix cell's src and dst, a finding's
    // ranks); op: an op to show on them (empty: none).
    void ranksOpenRequested(const QList<int> &ranks, const QString &op);
    void timelineRequested();  // "Back to Timeline"
    void commBoundRequested(); // "Host or Device Bound?"

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    // Texts that do not depend on the model: buttons, tabs, the matrix's labels (constructor and
    // QEvent::LanguageChange).
    void retranslateUi();
    void updateButtons();
    // Shares the page between the rank table, the chart and the tabs for the current size (a 900 x 700
    // window as well as a 1600 x 1000 one). Wide: the table across the top (every column), the chart beside
    // the tabs. Narrow: the chart beside the table (at least its legend's width; the table scrolls), the
    // tabs below. The top is as high as the table's rows, the rest is for the tabs.
    void fitSplits();
    int rankTableWidth() const;
    int rankTableHeight() const;
    void fillMatrixChoosers();
    void openFinding(QListWidgetItem *item);
    void rebuild();
    void fillTable();
    void fillChart();
    void fillStepHeatMap();
    void fillFindings();
    void fillMatrix();

    std::shared_ptr<const cluster::ClusterModel> m_model;
    QLabel *m_title;
    QStandardItemModel *m_rows;
    QTableView *m_table;
    QPushButton *m_open;
    QPushButton *m_openGroup;
    QPushButton *m_openExtremes;
    QPushButton *m_back;
    QLabel *m_loadedLabel;
    QLabel *m_matrixGroupLabel;
    QLabel *m_matrixOpLabel;
    QComboBox *m_matrixGroup;
    QComboBox *m_matrixOp;
    QString m_loadedTimeline;
    QChartView *m_chart;
    QWidget *m_tableBox;
    QSplitter *m_top;
    QSplitter *m_split;
    QSplitter *m_bottom; // the tabs, and the chart beside them in a wide window
    QTabWidget *m_tabs;
    ClusterHeatMap *m_stepHeat;
    ClusterHeatMap *m_matrixHeat;
    QLabel *m_matrixTitle;
    QListWidget *m_findings;
    CommunicationTable *m_communication;
    StrategyView *m_strategy;
    PipelineView *m_pipeline;
    MoeLoadView *m_moeLoad;
    std::vector<int> m_matrixRanks; // global rank of each matrix row/column
    std::int64_t m_matrixStep = -1;
    QPushButton *m_commBoundButton = nullptr;
    std::shared_ptr<const cluster::CommBoundAnalysis> m_commBound; // null until computed for this model
};

} // namespace at
