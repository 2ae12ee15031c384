#pragma once
// The Cluster page (docs/CLUSTER.md): shown first when a folder of rank folders is opened, built from the
// ranks' summary files only. A sortable rank table, a stacked bar chart of each rank's step breakdown, a
// rank × step heat map of step time, the findings (stage imbalance, slow ranks, msprof-analyze's rule,
// slow links, waits) and the communication matrix. Activating a rank asks the window to open its timeline.

#include "cluster/ClusterModel.h"

#include <QWidget>

#include <memory>

class QChartView;
class QLabel;
class QListWidget;
class QPushButton;
class QStandardItemModel;
class QTableView;
class QTabWidget;

namespace at {

class ClusterHeatMap;

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
    // The rank shown in a row of the (possibly sorted) table, or -1.
    int rankAtRow(int row) const;
    // Ranks of the selected rows, in table order.
    QList<int> selectedRanks() const;

public Q_SLOTS:
    // Emits rankOpenRequested for the rank (the table row's, a bar's, a heat map row's).
    void openRank(int rank);

Q_SIGNALS:
    void rankOpenRequested(int rank);
    // The button with several rows selected: the window opens the first here, the others in new windows.
    void ranksOpenRequested(const QList<int> &ranks);

protected:
    void changeEvent(QEvent *event) override;

private:
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
    QChartView *m_chart;
    QTabWidget *m_tabs;
    ClusterHeatMap *m_stepHeat;
    ClusterHeatMap *m_matrixHeat;
    QLabel *m_matrixTitle;
    QListWidget *m_findings;
    std::vector<int> m_matrixRanks; // global rank of each matrix row/column
};

} // namespace at
