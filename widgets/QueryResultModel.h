#pragma once

#include <QAbstractTableModel>
#include <QStringList>
#include <QVariant>

#include <cstdint>
#include <vector>

namespace at {

// The rows of one query result as the Query dock shows them: cells as SQLite typed them (qlonglong,
// double, QString, QByteArray for a blob, an invalid QVariant for NULL), shown exactly (integers in full,
// reals in their shortest round-trip form). Rows arrive in batches while the query runs; at most kMaxRows
// are kept (a result can have millions: the rest is counted, not kept). Sorting reorders a permutation,
// the cells stay where they are.
class QueryResultModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    static constexpr qsizetype kMaxRows = 1'000'000;

    explicit QueryResultModel(QObject *parent = nullptr);

    // A new result with these columns and no rows.
    void reset(const QStringList &columns);
    // Appends rows given as columnCount() cells each (row after row); returns how many were kept.
    qsizetype appendRows(std::vector<QVariant> cells);
    const QStringList &columns() const { return m_columns; }
    // The first column whose name is one of names (case-insensitive), else -1.
    int columnNamed(std::initializer_list<const char *> names) const;
    // True when every non-NULL cell of the column (in the first rows) is a number and one is.
    bool isNumeric(int column) const;
    // The raw cell of a shown row (the current sort order).
    QVariant value(int row, int column) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    void sort(int column, Qt::SortOrder order) override;

    // A cell's text: integers exact, reals shortest, NULL empty (what copy and the CSV write).
    static QString text(const QVariant &cell);
    // The order of two cells: NULL first, then numbers by value, then text.
    static bool lessThan(const QVariant &a, const QVariant &b);

private:
    std::size_t cellIndex(int row, int column) const;

    QStringList m_columns;
    std::vector<QVariant> m_cells;      // row-major
    std::vector<std::uint32_t> m_order; // shown row → stored row
};

} // namespace at
