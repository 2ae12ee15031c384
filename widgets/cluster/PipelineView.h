#pragma once
// The cluster page's Pipeline tab (issue #32, docs/CLUSTER.md "Pipeline view"): one row per pipeline stage
// (the rank whose timeline was read), its forward and backward blocks per micro-batch in two colours, the
// bubbles between them hatched, a time axis with round ticks, a legend, a tooltip per block or bubble, and a
// click that opens the rank's timeline at the block. The schedule needs the stages' timelines: the tab says
// which ranks it would load (or why it cannot be built) and asks the window to load them.

#include "cluster/PipelineSchedule.h"

#include <QWidget>

class QPushButton;
class QLabel;

namespace at {

namespace cluster {
struct ClusterModel;
}

class PipelineView : public QWidget
{
    Q_OBJECT
public:
    explicit PipelineView(QWidget *parent = nullptr);

    // The cluster shown by the page: which rank of each stage would be loaded, or why there is no view.
    // Clears a schedule of another cluster.
    void setCluster(const cluster::ClusterModel *model);
    // The schedule read from the loaded stage timelines (ClusterController builds it after the load).
    void setSchedule(cluster::PipelineSchedule schedule);
    // The timeline the schedule was read from is gone (another load, closed): back to the Load button.
    void clearSchedule();
    // While the stage timelines load (the window shows the load's progress).
    void setLoading(bool loading);

    const cluster::PipelineSchedule &schedule() const { return m_schedule; }
    const cluster::PipelineRankChoice &rankChoice() const { return m_choice; }
    QPushButton *loadButton() const { return m_load; }
    QLabel *messageLabel() const { return m_message; }
    // Where block `block` of stage row `row` is drawn (empty when not shown), and the tooltip at a point.
    QRect blockRect(std::size_t row, std::size_t block) const;
    QString toolTipAt(QPoint point) const;

public Q_SLOTS:
    // Asks for the stage ranks' load (the Load button; --screenshot --tab pipeline).
    void requestLoad();

Q_SIGNALS:
    // Load these ranks (one per stage) on one timeline.
    void loadRequested(const QList<int> &ranks);
    // Open the rank's timeline at a block: the rank's group in the loaded model, the block's first kernel
    // and its bounds (the model's times plus the rank's offset).
    void blockOpenRequested(int group, at::SliceRef first, at::TimeNs start, at::TimeNs end);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;
    bool event(QEvent *event) override;

private:
    struct Layout
    {
        QRect plot; // the rows' area (blocks and bubbles)
        int labelWidth = 0;
        int rowHeight = 0;
        int legendTop = 0;
    };
    struct Hit
    {
        int row = -1;
        int block = -1;  // a block, else
        int bubble = -1; // a bubble
    };
    void retranslateUi();
    void updateMessage();
    Layout layout() const;
    int xOf(const Layout &l, TimeNs t) const;
    QRect rowRect(const Layout &l, std::size_t row) const;
    QString stageLabel(const cluster::PipelineStage &stage) const;
    QString bubbleLabel(const cluster::PipelineStage &stage) const;
    Hit hitAt(QPoint point) const;
    void paintLegend(QPainter &p, const Layout &l) const;
    void paintAxis(QPainter &p, const Layout &l) const;
    void paintRow(QPainter &p, const Layout &l, std::size_t row) const;

    const cluster::ClusterModel *m_cluster = nullptr;
    cluster::PipelineRankChoice m_choice;
    cluster::PipelineSchedule m_schedule;
    bool m_loading = false;
    QPushButton *m_load;
    QLabel *m_message;
};

// The blocks' colours, the same in light and dark themes (each readable on either background).
QColor pipelineForwardColor();
QColor pipelineBackwardColor();

} // namespace at
