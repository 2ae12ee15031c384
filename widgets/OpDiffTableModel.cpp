#include "OpDiffTableModel.h"

#include "ChangeColors.h"
#include "ExactText.h"
#include "TableCells.h"

#include <QBrush>
#include <QFont>

#include <algorithm>
#include <cmath>
#include <limits>

namespace at {

namespace {

constexpr int kSortRole = Qt::UserRole;
constexpr int kMaxKernelNames = 4; // names shown in a kernels cell before "+N more"

using diff::DiffRow;
using diff::RowGroup;
using diff::RowKind;
using diff::RowSide;

QVariant countCell(int count, int role)
{
    if (role == kSortRole)
        return count;
    if (role == kExportTextRole)
        return QString::number(count);
    if (role == Qt::DisplayRole)
        return formatCount(count);
    return {};
}

// A duration the CSV writes as exact µs (the command line's --diff CSV does the same).
QVariant nsCell(TimeNs ns, int role, const DisplayUnit &unit)
{
    if (role == kSortRole)
        return QVariant::fromValue<qlonglong>(ns);
    if (role == kExportTextRole)
        return microsText(ns);
    if (role == Qt::DisplayRole)
        return formatDurationNs(ns, unit);
    return {};
}

// A delta shown with its sign and sorted by its signed value: the largest slowdowns first when descending.
QVariant deltaCell(TimeNs ns, int role, const DisplayUnit &unit)
{
    if (role == Qt::DisplayRole)
        return (ns > 0 ? QStringLiteral("+") : QString()) + formatDurationNs(ns, unit);
    return nsCell(ns, role, unit);
}

QVariant ratioCell(double ratio, int role, const DisplayUnit &unit)
{
    if (role == kSortRole)
        return ratio;
    if (std::isinf(ratio))
        return role == kExportTextRole ? QStringLiteral("inf") : QStringLiteral("∞");
    if (role == kExportTextRole)
        return QString::number(ratio, 'f', 4);
    if (role == Qt::DisplayRole)
        return formatInUnit(ratio, QString(), unit);
    return {};
}

double ratioOf(TimeNs base, TimeNs comparison)
{
    if (base == 0)
        return comparison == 0 ? 1.0 : std::numeric_limits<double>::infinity();
    return static_cast<double>(comparison) / static_cast<double>(base);
}

} // namespace

OpDiffTableModel::OpDiffTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void OpDiffTableModel::setResult(std::shared_ptr<const diff::DiffResult> result, const TraceModel *baseModel,
                                 const TraceModel *comparisonModel)
{
    beginResetModel();
    m_result = std::move(result);
    m_models[0] = baseModel;
    m_models[1] = comparisonModel;
    for (int side = 0; side < 2; ++side) {
        m_kernelTexts[side].clear();
        if (!m_result)
            continue;
        for (const DiffRow &row : m_result->rows)
            m_kernelTexts[side].push_back(kernelsText(side == 0 ? row.base : row.comparison, side == 1));
    }
    rebuild();
    endResetModel();
}

void OpDiffTableModel::setGrouping(Grouping grouping)
{
    if (grouping == m_grouping)
        return;
    beginResetModel();
    m_grouping = grouping;
    rebuild();
    endResetModel();
}

QString OpDiffTableModel::kernelsText(const RowSide &side, bool comparison) const
{
    const TraceModel *model = m_models[comparison ? 1 : 0];
    if (!m_result || !model || side.work.empty())
        return {};
    const diff::OpTree &tree = comparison ? m_result->comparisonTree : m_result->baseTree;
    // Names in order of first launch, repeats counted: "MatMulV2 ×2, Cast".
    std::vector<std::pair<QString, int>> names;
    for (const int w : side.work) {
        if (w < 0 || static_cast<std::size_t>(w) >= tree.work.size())
            continue;
        const QString name = model->sliceName(tree.work[static_cast<std::size_t>(w)].slice);
        auto it =
            std::find_if(names.begin(), names.end(), [&name](const auto &n) { return n.first == name; });
        if (it == names.end())
            names.emplace_back(name, 1);
        else
            ++it->second;
    }
    QStringList parts;
    for (std::size_t i = 0; i < names.size() && i < kMaxKernelNames; ++i)
        parts << (names[i].second > 1 ? tr("%1 ×%2").arg(names[i].first, formatCount(names[i].second))
                                      : names[i].first);
    if (names.size() > kMaxKernelNames)
        //: The end of a kernels cell: "+3 more" kernel names
        parts << tr("+%1 more").arg(formatCount(static_cast<qint64>(names.size() - kMaxKernelNames)));
    return parts.join(QStringLiteral(", "));
}

QString OpDiffTableModel::groupKeyOf(const DiffRow &row) const
{
    return m_grouping == Grouping::ByName ? row.name : row.module;
}

void OpDiffTableModel::rebuild()
{
    m_entries.clear();
    m_groups.clear();
    if (!m_result)
        return;
    if (m_grouping != Grouping::PerOp) {
        m_groups = m_grouping == Grouping::ByName ? diff::groupRowsByName(*m_result)
                                                  : diff::groupRowsByModule(*m_result);
        for (std::size_t g = 0; g < m_groups.size(); ++g)
            m_entries.push_back({true, static_cast<int>(g)});
    }
    for (std::size_t r = 0; r < m_result->rows.size(); ++r)
        if (m_grouping == Grouping::PerOp || m_result->rows[r].kind != RowKind::MatchedOp)
            m_entries.push_back({false, static_cast<int>(r)});
    pickUnits();
}

void OpDiffTableModel::pickUnits()
{
    TimeNs largest[ColumnCount] = {};
    const auto note = [&largest](int column, TimeNs ns) {
        largest[column] = std::max(largest[column], ns < 0 ? -ns : ns);
    };
    for (const Entry &e : m_entries) {
        if (e.group) {
            const RowGroup &g = m_groups[static_cast<std::size_t>(e.index)];
            note(BaseDeviceColumn, g.baseDeviceNs);
            note(ComparisonDeviceColumn, g.comparisonDeviceNs);
            note(DeltaColumn, g.deltaNs);
            continue;
        }
        const DiffRow &r = m_result->rows[static_cast<std::size_t>(e.index)];
        note(BaseDeviceColumn, r.base.deviceNs);
        note(ComparisonDeviceColumn, r.comparison.deviceNs);
        note(DeltaColumn, r.deltaNs);
        note(BaseHostColumn, r.base.hostNs);
        note(ComparisonHostColumn, r.comparison.hostNs);
    }
    for (int c = 0; c < ColumnCount; ++c)
        m_units[c] = durationUnitFor(largest[c]);
    m_units[RatioColumn] = DisplayUnit{Quantity::Plain, QString(), 1, 3};
}

int OpDiffTableModel::rowOfDiffRow(int diffRow) const
{
    for (std::size_t i = 0; i < m_entries.size(); ++i)
        if (!m_entries[i].group && m_entries[i].index == diffRow)
            return static_cast<int>(i);
    return -1;
}

std::vector<int> OpDiffTableModel::rowsOfGroup(int group) const
{
    std::vector<int> out;
    if (!m_result || group < 0 || static_cast<std::size_t>(group) >= m_groups.size())
        return out;
    const QString &key = m_groups[static_cast<std::size_t>(group)].key;
    for (std::size_t r = 0; r < m_result->rows.size(); ++r)
        if (m_result->rows[r].kind == RowKind::MatchedOp && groupKeyOf(m_result->rows[r]) == key)
            out.push_back(static_cast<int>(r));
    return out;
}

bool OpDiffTableModel::isTotalRow(int row) const
{
    const Entry &e = entry(row);
    return !e.group && m_result->rows[static_cast<std::size_t>(e.index)].kind != RowKind::MatchedOp;
}

int OpDiffTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_entries.size());
}

int OpDiffTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString OpDiffTableModel::specialRowName(const DiffRow &row)
{
    switch (row.kind) {
    case RowKind::MatchedOp:
        return row.name;
    case RowKind::UnmatchedOps:
        return tr("Ops of one side only (see Unmatched)");
    case RowKind::NotLaunched:
        switch (row.workKind) {
        case diff::DeviceWorkKind::Compute:
            return tr("Not launched by an op: computing");
        case diff::DeviceWorkKind::Communication:
            return tr("Not launched by an op: communication");
        case diff::DeviceWorkKind::Memory:
            return tr("Not launched by an op: memcpy/memset");
        case diff::DeviceWorkKind::Other:
            return tr("Not launched by an op: other device work");
        }
        break;
    case RowKind::Idle:
        return tr("Idle (no device work)");
    case RowKind::Concurrent:
        return tr("Overlapping device work (counted once)");
    }
    return row.name;
}

QVariant OpDiffTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || !m_result || index.row() >= rowCount())
        return {};
    const Entry &e = entry(index.row());
    if (e.group)
        return groupCell(m_groups[static_cast<std::size_t>(e.index)], index.column(), role);
    return rowCell(m_result->rows[static_cast<std::size_t>(e.index)], e.index, index.column(), role);
}

QVariant OpDiffTableModel::rowCell(const DiffRow &row, int diffRow, int column, int role) const
{
    const bool special = row.kind != RowKind::MatchedOp;
    if (role == Qt::FontRole && special) {
        QFont font;
        font.setItalic(true);
        return font;
    }
    if (role == Qt::ForegroundRole && column == DeltaColumn && row.deltaNs != 0)
        return QBrush(durationChangeColor(row.base.deviceNs, row.comparison.deviceNs).darker(130));
    if (role == Qt::ToolTipRole && (column == PathColumn || column == BaseKernelsColumn ||
                                    column == ComparisonKernelsColumn || column == ShapesColumn))
        return rowCell(row, diffRow, column, Qt::DisplayRole);
    const std::size_t r = static_cast<std::size_t>(diffRow);
    const DisplayUnit &unit = m_units[column];
    switch (column) {
    case OpColumn:
        return isValueRole(role, kSortRole) ? QVariant(special ? specialRowName(row) : row.name) : QVariant();
    case PathColumn:
        return isValueRole(role, kSortRole) ? QVariant(row.path) : QVariant();
    case ModuleColumn:
        return isValueRole(role, kSortRole) ? QVariant(row.module) : QVariant();
    case ShapesColumn:
        if (!isValueRole(role, kSortRole))
            return {};
        return row.comparisonShapes.isEmpty() || row.comparisonShapes == row.shapes
                   ? row.shapes
                   : QStringLiteral("%1 → %2").arg(row.shapes, row.comparisonShapes);
    case BaseCountColumn:
        return special && row.kind != RowKind::UnmatchedOps ? QVariant() : countCell(row.base.count, role);
    case ComparisonCountColumn:
        return special && row.kind != RowKind::UnmatchedOps ? QVariant()
                                                            : countCell(row.comparison.count, role);
    case BaseDeviceColumn:
        return nsCell(row.base.deviceNs, role, unit);
    case ComparisonDeviceColumn:
        return nsCell(row.comparison.deviceNs, role, unit);
    case DeltaColumn:
        return deltaCell(row.deltaNs, role, unit);
    case RatioColumn:
        return ratioCell(row.ratio, role, unit);
    case BaseHostColumn:
        return special ? QVariant() : nsCell(row.base.hostNs, role, unit);
    case ComparisonHostColumn:
        return special ? QVariant() : nsCell(row.comparison.hostNs, role, unit);
    case BaseKernelsColumn:
        return isValueRole(role, kSortRole) && r < m_kernelTexts[0].size() ? QVariant(m_kernelTexts[0][r])
                                                                           : QVariant();
    case ComparisonKernelsColumn:
        return isValueRole(role, kSortRole) && r < m_kernelTexts[1].size() ? QVariant(m_kernelTexts[1][r])
                                                                           : QVariant();
    default:
        return {};
    }
}

QVariant OpDiffTableModel::groupCell(const RowGroup &group, int column, int role) const
{
    if (role == Qt::ForegroundRole && column == DeltaColumn && group.deltaNs != 0)
        return QBrush(durationChangeColor(group.baseDeviceNs, group.comparisonDeviceNs).darker(130));
    const DisplayUnit &unit = m_units[column];
    switch (column) {
    case OpColumn:
        if (!isValueRole(role, kSortRole))
            return {};
        return group.key.isEmpty() && m_grouping == Grouping::ByModule ? tr("(no module)") : group.key;
    case ModuleColumn:
        if (role == Qt::DisplayRole && m_grouping == Grouping::ByName)
            //: A group row of the op diff: how many matched ops it totals
            return tr("%n op(s)", nullptr, group.rows);
        return {};
    case BaseCountColumn:
        return countCell(group.baseCount, role);
    case ComparisonCountColumn:
        return countCell(group.comparisonCount, role);
    case BaseDeviceColumn:
        return nsCell(group.baseDeviceNs, role, unit);
    case ComparisonDeviceColumn:
        return nsCell(group.comparisonDeviceNs, role, unit);
    case DeltaColumn:
        return deltaCell(group.deltaNs, role, unit);
    case RatioColumn:
        return ratioCell(ratioOf(group.baseDeviceNs, group.comparisonDeviceNs), role, unit);
    default:
        return {};
    }
}

QVariant OpDiffTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    const bool byName = m_grouping == Grouping::ByName, byModule = m_grouping == Grouping::ByModule;
    // The CSV keeps exact µs in every duration column: its header says so.
    const auto duration = [&](const QString &title) -> QVariant {
        if (role == kExportTextRole)
            return QStringLiteral("%1 (us)").arg(title);
        return role == Qt::DisplayRole ? titleWithUnit(title, m_units[section]) : QVariant();
    };
    if (role != Qt::DisplayRole && role != kExportTextRole)
        return {};
    switch (section) {
    case OpColumn:
        return byName ? tr("Op name") : byModule ? tr("Module") : tr("Op");
    case PathColumn:
        return tr("Call path");
    case ModuleColumn:
        return byName ? tr("Ops") : tr("Module");
    case ShapesColumn:
        return tr("Input shapes");
    case BaseCountColumn:
        return tr("Base count");
    case ComparisonCountColumn:
        return tr("Comparison count");
    case BaseDeviceColumn:
        return duration(tr("Base device"));
    case ComparisonDeviceColumn:
        return duration(tr("Comparison device"));
    case DeltaColumn:
        return duration(tr("Delta"));
    case RatioColumn:
        return tr("Ratio");
    case BaseHostColumn:
        return duration(tr("Base host"));
    case ComparisonHostColumn:
        return duration(tr("Comparison host"));
    case BaseKernelsColumn:
        return tr("Base kernels");
    case ComparisonKernelsColumn:
        return tr("Comparison kernels");
    default:
        return {};
    }
}

OpDiffSortProxy::OpDiffSortProxy(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(kSortRole);
    setFilterKeyColumn(-1);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
}

bool OpDiffSortProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const auto *model = static_cast<const OpDiffTableModel *>(sourceModel());
    const bool leftTotal = model->isTotalRow(left.row()), rightTotal = model->isTotalRow(right.row());
    // Total rows last in either order, among themselves in the table's own order.
    const bool descending = sortOrder() == Qt::DescendingOrder;
    if (leftTotal != rightTotal)
        return descending ? leftTotal : rightTotal;
    if (leftTotal)
        return descending ? left.row() > right.row() : left.row() < right.row();
    return QSortFilterProxyModel::lessThan(left, right);
}

bool OpDiffSortProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const auto *model = static_cast<const OpDiffTableModel *>(sourceModel());
    if (model->isTotalRow(sourceRow))
        return true;
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

} // namespace at
