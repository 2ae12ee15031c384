#pragma once
// A small heat map: rows × columns of values, each cell coloured from low (light) to high (strong), with
// its value on hover. Used for the rank × step step time and the src × dst communication matrix.

#include <QStringList>
#include <QWidget>

#include <optional>
#include <vector>

namespace at {

class ClusterHeatMap : public QWidget
{
    Q_OBJECT
public:
    explicit ClusterHeatMap(QWidget *parent = nullptr);

    // values[row][column]; nullopt cells are drawn empty. unit is appended in tooltips ("ms", "GB/s").
    void setData(const QStringList &rows, const QStringList &columns,
                 std::vector<std::vector<std::optional<double>>> values, const QString &unit);
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

Q_SIGNALS:
    void cellClicked(int row, int column);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    bool event(QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi(); // the constructor and QEvent::LanguageChange
    int labelWidth() const;
    int headerHeight() const;

    QStringList m_rows, m_columns;
    std::vector<std::vector<std::optional<double>>> m_values;
    QString m_unit;
    double m_min = 0, m_max = 0;
    QString m_emptyText;
};

} // namespace at
