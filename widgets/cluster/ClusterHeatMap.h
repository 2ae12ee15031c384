#pragma once
// A heat map: rows × columns of values, each cell coloured on one sequential ramp (dark purple for the
// smallest value to yellow for the largest, the same in both themes) with its value written in it where it
// fits, in black or white whichever reads on the cell. Row and column labels (elided with a tool tip when
// long, every k-th one when they are many), an axis title for each, and a colour scale under the grid from
// the smallest to the largest value with the unit. Used for the rank × step step time and the src × dst
// communication matrix.

#include <QStringList>
#include <QWidget>

#include <optional>
#include <vector>

class QPainter;

namespace at {

class ClusterHeatMap : public QWidget
{
    Q_OBJECT
public:
    explicit ClusterHeatMap(QWidget *parent = nullptr);

    // values[row][column]; nullopt cells are drawn empty. unit follows the values in the scale and in
    // tool tips ("ms", "GB/s").
    void setData(const QStringList &rows, const QStringList &columns,
                 std::vector<std::vector<std::optional<double>>> values, const QString &unit);
    // What the rows and the columns are ("Rank", "Step"; "Source rank", "Destination rank").
    void setAxisTitles(const QString &rowTitle, const QString &columnTitle);
    int rowCount() const { return static_cast<int>(m_rows.size()); }
    int columnCount() const { return static_cast<int>(m_columns.size()); }
    std::optional<double> value(int row, int column) const;
    // The cell under a point of the widget, or (-1, -1).
    std::pair<int, int> cellAt(QPoint pos) const;
    QRect cellRect(int row, int column) const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    // What an empty heat map says ("No values to show"), in the current language.
    QString emptyText() const { return m_emptyText; }

    // What the map draws, for tests and tool tips.
    // Whether the cells are big enough to carry their values (a map of many cells draws small cells
    // without them; the scale and the tool tips give the values).
    bool showsCellValues() const;
    // The text drawn in a cell: its value, or empty (no value, or cells too small).
    QString cellText(int row, int column) const;
    QColor cellColor(int row, int column) const;     // invalid for an empty cell
    QColor cellTextColor(int row, int column) const; // the one of black and white that reads on it
    // The row / column label as drawn (elided, or empty where labels are thinned out).
    QString rowLabelText(int row) const;
    QString columnLabelText(int column) const;
    // The colour scale under the grid: its bar and its caption ("231 – 401 ms").
    QRect scaleRect() const;
    QString scaleCaption() const;
    double minimum() const { return m_min; }
    double maximum() const { return m_max; }
    // The ramp: t in [0, 1] from the smallest value to the largest.
    static QColor rampColor(double t);
    // Black or white, whichever contrasts more with `fill` (WCAG relative luminance): at least 4.6:1
    // anywhere on the ramp.
    static QColor textColorOn(const QColor &fill);
    // The colour scale as the map draws it under its grid: the ramp in `bar`, `low` and `high` under its
    // ends, `unit` to its right (also the strategy view's legend).
    static void paintScale(QPainter &p, const QRect &bar, const QString &low, const QString &high,
                           const QString &unit, const QPalette &palette, int lineHeight);

Q_SIGNALS:
    void cellClicked(int row, int column);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    bool event(QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi(); // the constructor and QEvent::LanguageChange
    void relayout();      // cell and label sizes for the data and the font
    QString valueText(double value) const;
    int labelWidth() const { return m_labelWidth; }
    int headerHeight() const;
    int gridBottom() const;
    // Every k-th label is drawn when they would overlap.
    int rowLabelEvery() const;
    int columnLabelEvery() const;

    QStringList m_rows, m_columns;
    std::vector<std::vector<std::optional<double>>> m_values;
    QString m_unit;
    QString m_rowTitle, m_columnTitle;
    double m_min = 0, m_max = 0;
    bool m_any = false;
    int m_rangeDecimals = 0; // decimals that tell the smallest and the largest value apart
    int m_labelWidth = 0;
    int m_cellWidth = 28;
    int m_cellHeight = 24;
    bool m_compact = false;
    int m_columnLabelEvery = 1;
    QString m_emptyText;
};

} // namespace at
