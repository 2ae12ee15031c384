#pragma once
// The cluster page's "MoE load" tab (docs/CLUSTER.md "MoE load"): where the job has an expert-parallel group,
// the tokens each rank's grouped matmuls got per step as a rank × step heat map (unit "tokens"), and per step
// and EP group the spread (max / min, max / mean, coefficient of variation, the most and least loaded rank).
// Without an EP group or a GroupedMatmul row it says why it is empty. A heat map cell opens its rank; a
// spread row opens its most and least loaded ranks at the op.

#include "cluster/MoeLoad.h"

#include <QWidget>

#include <memory>

class QLabel;
class QScrollArea;
class QSplitter;
class QTableWidget;

namespace at {

class ClusterHeatMap;

class MoeLoadView : public QWidget
{
    Q_OBJECT
public:
    explicit MoeLoadView(QWidget *parent = nullptr);

    void setModel(std::shared_ptr<const cluster::ClusterModel> model);
    const cluster::MoeLoad &load() const { return m_load; }
    ClusterHeatMap *heatMap() const { return m_heat; }
    QTableWidget *spreadTable() const { return m_spread; }
    // The line above the map: what it shows, or why it is empty.
    QLabel *summaryLabel() const { return m_summary; }

Q_SIGNALS:
    void ranksOpenRequested(const QList<int> &ranks, const QString &op);

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void rebuild();
    void fillHeatMap();
    void fillSpread();
    void openSpreadRow(int row);
    // The map gets its whole height when the tab has room (at most two thirds of it), the spread the rest.
    void fitSplit();

    std::shared_ptr<const cluster::ClusterModel> m_model;
    cluster::MoeLoad m_load;
    QLabel *m_summary;
    ClusterHeatMap *m_heat;
    QScrollArea *m_heatArea;
    QSplitter *m_split;
    QTableWidget *m_spread;
};

} // namespace at
