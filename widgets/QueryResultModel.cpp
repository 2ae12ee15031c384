#include "QueryResultModel.h"

#include "TableExport.h"

#include <QApplication>
#include <QLocale>
#include <QPalette>

#include <algorithm>
#include <numeric>

namespace at {

namespace {

bool isNumber(const QVariant &v)
{
    const int type = v.typeId();
    return type == QMetaType::LongLong || type == QMetaType::Double;
}

// How many rows isNumeric() looks at: enough to see a text cell in a mixed column, cheap on a million.
constexpr int kTypeSampleRows = 10000;

} // namespace

QueryResultModel::QueryResultModel(QObject *parent) : QAbstractTableModel(parent) {}

void QueryResultModel::reset(const QStringList &columns)
{
    beginResetModel();
    m_columns = columns;
    m_cells.clear();
    m_cells.shrink_to_fit();
    m_order.clear();
    m_order.shrink_to_fit();
    endResetModel();
}

qsizetype QueryResultModel::appendRows(std::vector<QVariant> cells)
{
    if (m_columns.isEmpty() || cells.empty())
        return 0;
    const auto width = static_cast<std::size_t>(m_columns.size());
    const std::size_t have = m_order.size();
    const std::size_t room = static_cast<std::size_t>(kMaxRows) - std::min<std::size_t>(have, kMaxRows);
    const std::size_t rows = std::min(cells.size() / width, room);
    if (rows == 0)
        return 0;
    beginInsertRows({}, static_cast<int>(have), static_cast<int>(have + rows - 1));
    m_cells.insert(m_cells.end(), std::make_move_iterator(cells.begin()),
                   std::make_move_iterator(cells.begin() + static_cast<std::ptrdiff_t>(rows * width)));
    for (std::size_t r = 0; r < rows; ++r)
        m_order.push_back(static_cast<std::uint32_t>(have + r));
    endInsertRows();
    return static_cast<qsizetype>(rows);
}

int QueryResultModel::columnNamed(std::initializer_list<const char *> names) const
{
    for (const char *name : names)
        for (int c = 0; c < m_columns.size(); ++c)
            if (m_columns[c].compare(QLatin1String(name), Qt::CaseInsensitive) == 0)
                return c;
    return -1;
}

bool QueryResultModel::isNumeric(int column) const
{
    if (column < 0 || column >= m_columns.size())
        return false;
    bool any = false;
    const int rows = std::min(rowCount(), kTypeSampleRows);
    for (int r = 0; r < rows; ++r) {
        const QVariant &v = m_cells[cellIndex(r, column)];
        if (!v.isValid())
            continue;
        if (!isNumber(v))
            return false;
        any = true;
    }
    return any;
}

std::size_t QueryResultModel::cellIndex(int row, int column) const
{
    return static_cast<std::size_t>(m_order[static_cast<std::size_t>(row)]) *
               static_cast<std::size_t>(m_columns.size()) +
           static_cast<std::size_t>(column);
}

QVariant QueryResultModel::value(int row, int column) const
{
    if (row < 0 || row >= rowCount() || column < 0 || column >= m_columns.size())
        return {};
    return m_cells[cellIndex(row, column)];
}

int QueryResultModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_order.size());
}

int QueryResultModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_columns.size());
}

QString QueryResultModel::text(const QVariant &cell)
{
    switch (cell.typeId()) {
    case QMetaType::LongLong:
        return QString::number(cell.toLongLong());
    case QMetaType::Double:
        return QString::number(cell.toDouble(), 'g', QLocale::FloatingPointShortest);
    case QMetaType::QByteArray:
        return QString::fromLatin1(cell.toByteArray().toHex());
    default:
        return cell.toString();
    }
}

QVariant QueryResultModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const QVariant &cell = m_cells[cellIndex(index.row(), index.column())];
    switch (role) {
    case Qt::DisplayRole:
        if (!cell.isValid())
            return QStringLiteral("NULL");
        if (cell.typeId() == QMetaType::QByteArray)
            return tr("(blob, %n byte(s))", nullptr, static_cast<int>(cell.toByteArray().size()));
        return text(cell);
    case kExportTextRole:
        return text(cell);
    case Qt::ToolTipRole:
        return cell.typeId() == QMetaType::QString && cell.toString().size() > 40 ? cell : QVariant();
    case Qt::ForegroundRole:
        if (!cell.isValid())
            return QApplication::palette().color(QPalette::PlaceholderText);
        return {};
    case Qt::TextAlignmentRole:
        return isNumber(cell) ? QVariant(static_cast<int>(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    default:
        return {};
    }
}

QVariant QueryResultModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole && role != kExportTextRole)
        return {};
    if (orientation == Qt::Horizontal)
        return section >= 0 && section < m_columns.size() ? QVariant(m_columns[section]) : QVariant();
    return section + 1;
}

bool QueryResultModel::lessThan(const QVariant &a, const QVariant &b)
{
    const int rankA = !a.isValid() ? 0 : isNumber(a) ? 1 : 2;
    const int rankB = !b.isValid() ? 0 : isNumber(b) ? 1 : 2;
    if (rankA != rankB)
        return rankA < rankB;
    if (rankA == 0)
        return false;
    if (rankA == 1) {
        if (a.typeId() == QMetaType::LongLong && b.typeId() == QMetaType::LongLong)
            return a.toLongLong() < b.toLongLong();
        return a.toDouble() < b.toDouble();
    }
    return a.toString() < b.toString();
}

void QueryResultModel::sort(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= m_columns.size())
        return;
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const auto width = static_cast<std::size_t>(m_columns.size());
    const auto col = static_cast<std::size_t>(column);
    const auto cellOf = [this, width, col](std::uint32_t stored) -> const QVariant & {
        return m_cells[stored * width + col];
    };
    std::stable_sort(m_order.begin(), m_order.end(), [&](std::uint32_t x, std::uint32_t y) {
        return order == Qt::AscendingOrder ? lessThan(cellOf(x), cellOf(y)) : lessThan(cellOf(y), cellOf(x));
    });
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

} // namespace at
