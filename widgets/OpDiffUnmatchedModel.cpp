#include "OpDiffUnmatchedModel.h"

#include "ExactText.h"
#include "TableCells.h"

namespace at {

namespace {

constexpr int kSortRole = Qt::UserRole;

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

} // namespace

OpDiffUnmatchedModel::OpDiffUnmatchedModel(QObject *parent) : QAbstractTableModel(parent) {}

void OpDiffUnmatchedModel::setResult(std::shared_ptr<const diff::DiffResult> result)
{
    beginResetModel();
    m_result = std::move(result);
    TimeNs host = 0, device = 0;
    if (m_result)
        for (const auto *ops : {&m_result->unmatchedBase, &m_result->unmatchedComparison})
            for (const diff::UnmatchedOp &op : *ops) {
                host = std::max(host, op.hostNs);
                device = std::max(device, op.deviceNs);
            }
    m_host = durationUnitFor(host);
    m_device = durationUnitFor(device);
    endResetModel();
}

std::pair<bool, const diff::UnmatchedOp *> OpDiffUnmatchedModel::opAt(int row) const
{
    if (!m_result || row < 0)
        return {false, nullptr};
    const auto r = static_cast<std::size_t>(row);
    if (r < m_result->unmatchedBase.size())
        return {false, &m_result->unmatchedBase[r]};
    const std::size_t c = r - m_result->unmatchedBase.size();
    if (c < m_result->unmatchedComparison.size())
        return {true, &m_result->unmatchedComparison[c]};
    return {false, nullptr};
}

int OpDiffUnmatchedModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || !m_result)
        return 0;
    return static_cast<int>(m_result->unmatchedBase.size() + m_result->unmatchedComparison.size());
}

int OpDiffUnmatchedModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OpDiffUnmatchedModel::data(const QModelIndex &index, int role) const
{
    const auto [comparison, op] = opAt(index.row());
    if (!op)
        return {};
    if (role == Qt::ToolTipRole && index.column() == PathColumn)
        return op->path;
    if (!isValueRole(role, kSortRole))
        return {};
    switch (index.column()) {
    case SideColumn:
        return comparison ? tr("Only in comparison") : tr("Only in base");
    case OpColumn:
        return op->name;
    case PathColumn:
        return op->path;
    case ShapesColumn:
        return op->shapes;
    case HostColumn:
        return nsCell(op->hostNs, role, m_host);
    case DeviceColumn:
        return nsCell(op->deviceNs, role, m_device);
    default:
        return {};
    }
}

QVariant OpDiffUnmatchedModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != kExportTextRole))
        return QAbstractTableModel::headerData(section, orientation, role);
    const bool exported = role == kExportTextRole;
    switch (section) {
    case SideColumn:
        return tr("Side");
    case OpColumn:
        return tr("Op");
    case PathColumn:
        return tr("Call path");
    case ShapesColumn:
        return tr("Input shapes");
    case HostColumn:
        return exported ? QStringLiteral("%1 (us)").arg(tr("Host")) : titleWithUnit(tr("Host"), m_host);
    case DeviceColumn:
        return exported ? QStringLiteral("%1 (us)").arg(tr("Device")) : titleWithUnit(tr("Device"), m_device);
    default:
        return {};
    }
}

} // namespace at
