#include "HcclLanes.h"

#include "TimeConverter.h"

#include <algorithm>

namespace at::raw {

void HcclLanes::add(const HostTask &t, TimeNs start, TimeNs duration, StringId name, std::uint64_t argsIndex)
{
    const std::uint32_t plane = t.hcclInfo >= 0 ? m_cann.hcclInfos()[std::size_t(t.hcclInfo)].planeId : 0;
    m_builder.addSlice(lane(QStringLiteral("Plane %1").arg(plane), plane), start, duration, name,
                       m_builder.strings().intern("hccl_task"), makeSourceLocation(m_sourceIndex, argsIndex));
    ++m_slices;
    if (t.node < 0)
        return;
    Op &op = m_ops[t.node];
    const TimeNs end = saturatingAdd(start, duration);
    op.begin = op.count ? std::min(op.begin, start) : start;
    op.end = op.count ? std::max(op.end, end) : end;
    op.argsIndex = op.count ? op.argsIndex : argsIndex;
    ++op.count;
    if (op.group.isEmpty() && t.hcclOp >= 0)
        op.group = m_text.hashName(m_cann.hcclOps()[std::size_t(t.hcclOp)].groupName);
    if (op.group.isEmpty() && t.hcclInfo >= 0)
        op.group = m_text.hashName(m_cann.hcclInfos()[std::size_t(t.hcclInfo)].groupName);
}

void HcclLanes::finish()
{
    for (const auto &[node, op] : m_ops) {
        QString name = m_text.hashName(m_cann.apis()[std::size_t(node)].itemId);
        if (name.isEmpty())
            name = QStringLiteral("hccl op");
        const QString group = op.group.isEmpty() ? QStringLiteral("0") : op.group;
        m_builder.addSlice(lane(QStringLiteral("Group %1 Communication").arg(group), -1), op.begin,
                           op.end - op.begin, m_builder.strings().intern(name.toStdString()),
                           m_builder.strings().intern("hccl_op"),
                           makeSourceLocation(m_sourceIndex, op.argsIndex));
        ++m_slices;
        ++m_opsAdded;
    }
    m_ops.clear();
}

int HcclLanes::lane(const QString &threadName, std::int64_t sortIndex)
{
    if (m_pid.text == 0) {
        m_pid = m_builder.textKey(QStringLiteral("HCCL %1").arg(m_device).toStdString());
        const int process = m_builder.process(m_pid);
        m_builder.setProcessName(process, m_builder.strings().intern("HCCL"));
        m_builder.setProcessLabels(
            process, m_builder.strings().intern(QStringLiteral("Device %1").arg(m_device).toStdString()));
    }
    const int thread = m_builder.thread(m_pid, m_builder.textKey(threadName.toStdString()));
    m_builder.setThreadName(thread, m_builder.strings().intern(threadName.toStdString()));
    m_builder.setThreadSortIndex(thread, sortIndex);
    return thread;
}

} // namespace at::raw
