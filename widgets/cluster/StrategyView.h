#pragma once
// The cluster page's Strategy tab (docs/CLUSTER.md "Strategy view"): the ranks laid out on the grid of their
// parallel coordinates (core/cluster/ParallelStrategy.h), each cell coloured by a per-rank figure chosen in
// a combo box (the heat maps' ramp and scale), with the rank number where it fits. Hovering a rank outlines
// its group in every dimension (one colour per dimension, named in the key above the grid); ranks the
// page's findings name carry a marker whose tool tip names the findings; a click asks to open the rank.

#include "cluster/ParallelStrategy.h"

#include <QStaticText>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QScrollArea;

namespace at {

// The painted grid of the Strategy tab (StrategyView owns it). Layout (cell size, positions, label
// texts and colours) is computed when the data, the figure or the size change, never while painting.
class StrategyGrid : public QWidget
{
    Q_OBJECT
public:
    explicit StrategyGrid(QWidget *parent = nullptr);

    void setData(std::shared_ptr<const cluster::ClusterModel> model, cluster::ParallelStrategy strategy);
    void setFigure(cluster::RankFigure figure);
    // Per rank the findings naming it (their headings).
    void setFindings(std::vector<std::pair<int, QString>> findings);
    const cluster::ParallelStrategy &strategy() const { return m_strategy; }

    // For tests and tool tips.
    QRect cellRect(int rank) const;   // empty when the rank has no cell
    int rankAt(QPoint pos) const;     // -1 outside every cell
    QRect markerRect(int rank) const; // the finding marker of a rank's cell; empty without one
    int hoveredRank() const { return m_hovered; }
    // The ranks outlined along a dimension (the hovered rank's group), empty when nothing is hovered.
    std::vector<int> outlinedRanks(cluster::ParallelDimension d) const;
    QColor cellColor(int rank) const; // invalid: no value
    bool showsRankNumbers() const { return m_showNumbers; }
    QStringList findingsOn(int rank) const;
    std::optional<double> figureValue(int rank) const;
    QString legendText() const; // "Mean step time: 231.5 – 401.2 ms"
    QString keyText() const;    // "DP 2 × PP 2 (rows: PP, columns: DP)"
    QString toolTipText(int rank) const;
    // Where a dimension's outline is drawn in the key (tests check the key is not cut).
    QRect keyRect() const { return m_keyRect; }
    QRect legendRect() const { return m_legendRect; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    static QColor outlineColor(cluster::ParallelDimension d);

Q_SIGNALS:
    void rankClicked(int rank);
    void hoveredRankChanged(int rank);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;
    bool event(QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void relayout();
    void recolor();
    void setHovered(int rank);
    int placementIndex(int rank) const;                 // index into m_strategy.ranks, -1
    int modelIndex(int rank) const;                     // index into m_model->ranks, -1
    int axisOffset(int coordinate, bool columns) const; // px of a row / column from the grid's origin
    int markerSide() const;                             // px: a finding marker's side
    void paintKey(QPainter &p) const;
    void paintLegend(QPainter &p) const;

    std::shared_ptr<const cluster::ClusterModel> m_model;
    cluster::ParallelStrategy m_strategy;
    std::vector<cluster::RankFigureValues> m_figures; // every RankFigure, computed once per model
    cluster::RankFigure m_figure = cluster::RankFigure::StepTime;
    std::vector<int> m_modelIndex;       // per placement: index into m_model->ranks, -1
    std::vector<QColor> m_colors;        // per placement
    std::vector<QColor> m_textColors;    // per placement: black or white, whichever reads on it
    std::vector<QStaticText> m_labels;   // per placement: the rank number
    std::vector<QStringList> m_findings; // per placement
    double m_min = 0, m_max = 0;
    double m_scaleMin = 0; // the colour scale's bottom: m_min, or lower when the values are within 5 %
    bool m_anyValue = false;
    // Layout.
    int m_cell = 0;
    int m_rowBlock = 0, m_columnBlock = 0; // rows / columns per band of the slowest dimension on the axis
    int m_gap = 0;                         // px between bands
    QPoint m_origin;                       // the grid's top left
    int m_rowLabelWidth = 0, m_columnLabelHeight = 0; // 0: the axis' coordinate labels do not fit
    std::vector<QStaticText> m_rowLabels, m_columnLabels;
    struct KeyItem
    {
        cluster::ParallelDimension dimension;
        QRect sample; // the outline sample
        QRect text;
        QString label;
    };
    std::vector<KeyItem> m_keyItems;
    QRect m_markerKeySample, m_markerKeyText;
    QRect m_keyRect, m_legendRect;
    QString m_keyText, m_legendText; // keyText() and legendText() as laid out
    bool m_showNumbers = false;
    int m_hovered = -1;
    std::array<std::vector<int>, cluster::kParallelDimensionCount> m_outlined;
};

class StrategyView : public QWidget
{
    Q_OBJECT
public:
    explicit StrategyView(QWidget *parent = nullptr);

    void setModel(std::shared_ptr<const cluster::ClusterModel> model);
    void setFindings(std::vector<std::pair<int, QString>> findings);
    const cluster::ParallelStrategy &strategy() const { return m_grid->strategy(); }
    StrategyGrid *grid() const { return m_grid; }
    QComboBox *figureChooser() const { return m_figure; }
    cluster::RankFigure figure() const;
    // The strategy's reason line (why the groups were not used, or why there is no strategy).
    QLabel *noteLabel() const { return m_note; }

Q_SIGNALS:
    void rankOpenRequested(int rank);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void applyFigure();
    void updateNote();

    std::shared_ptr<const cluster::ClusterModel> m_model;
    QLabel *m_figureLabel;
    QComboBox *m_figure;
    QLabel *m_note;
    QScrollArea *m_scroll;
    StrategyGrid *m_grid;
};

} // namespace at
