#pragma once

#include "NumberFormat.h"

#include <QStringList>
#include <QWidget>

#include <vector>

class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QScrollArea;

namespace at {

class QueryResultModel;

// The Query dock's chart of the current result (Qt Charts): a histogram of one numeric column, or a bar
// chart of a label column × a value column (the first kMaxBars rows as the table orders them). A column
// of durations in ns (dur, self_time, wait, p90(dur), …) reads in ms / µs through NumberFormat. The value
// axes have round ticks (ChartScale); a bar chart keeps a text line per bar and scrolls when the dock is
// lower than that.
class QueryChart : public QWidget
{
    Q_OBJECT
public:
    enum class Kind
    {
        Histogram,
        Bars
    };
    static constexpr int kMaxBins = 40;
    static constexpr int kMaxBars = 25;

    explicit QueryChart(const QueryResultModel *model, QWidget *parent = nullptr);

    // Reads the result again (new columns or rows): keeps the chosen columns when they are still there.
    void refresh();
    void setKind(Kind kind);
    Kind kind() const;
    // Chooses the value column by name; false when the result has no such numeric column.
    bool setValueColumn(const QString &name);
    QString valueColumn() const;
    // The histogram drawn last: the count of each bin (empty for a bar chart).
    const std::vector<qint64> &binCounts() const { return m_bins; }
    QChartView *view() const { return m_view; }
    // A bar chart's tool tip texts, one per bar in the category axis's order (bottom first): the whole label
    // and the value.
    const QStringList &barToolTips() const { return m_barTips; }
    // Whether a column holds durations in ns (by its name), shown in a duration unit.
    static bool isDurationColumn(const QString &name);

protected:
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void fillColumns();
    void redraw();
    QChart *newChart() const;
    QChart *histogram(int column);
    QChart *bars(int labelColumn, int valueColumn);
    int readableBarsHeight(int bars) const;
    // The bar labels (m_fullLabels) fitted to the share of the width Qt Charts gives them, as HTML.
    QStringList barLabels(const QFont &font) const;
    void relabelBars();
    void retranslate();

    const QueryResultModel *m_model;
    QComboBox *m_kind;
    QComboBox *m_value;
    QComboBox *m_label;
    QLabel *m_labelCaption;
    QChartView *m_view;
    QScrollArea *m_scroll;
    std::vector<qint64> m_bins;
    QStringList m_barTips;    // per bar, bottom first (the axis order): the whole label and the value
    QStringList m_fullLabels; // per bar, bottom first: the label column's text
    bool m_filling = false;
};

} // namespace at
