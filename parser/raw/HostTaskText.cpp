#include "HostTaskText.h"

namespace at::raw {

QString HostTaskText::hashName(std::uint64_t hash) const
{
    return hash ? m_hashes.value(QString::number(hash)) : QString();
}

QString HostTaskText::opName(const OpDescription &op) const
{
    return op.opNameText.empty() ? hashName(op.basic.opName) : QString::fromStdString(op.opNameText);
}

QString HostTaskText::opType(const OpDescription &op) const
{
    return op.opTypeText.empty() ? hashName(op.basic.opType) : QString::fromStdString(op.opTypeText);
}

QString HostTaskText::taskName(const HostTask &t) const
{
    QString name;
    if (t.hcclInfo >= 0)
        name = hashName(m_cann.hcclInfos()[std::size_t(t.hcclInfo)].itemId);
    if (name.isEmpty() && t.op >= 0 && m_cann.ops()[std::size_t(t.op)].haveBasic)
        name = opName(m_cann.ops()[std::size_t(t.op)]);
    if (name.isEmpty() && t.node >= 0)
        name = hashName(m_cann.apis()[std::size_t(t.node)].itemId);
    if (name.isEmpty())
        name = hashName(t.track.kernelName);
    return name;
}

std::vector<std::pair<QString, QString>> HostTaskText::args(const HostTask &t) const
{
    std::vector<std::pair<QString, QString>> out;
    auto add = [&](const char *key, const QString &value) {
        if (!value.isEmpty())
            out.emplace_back(QLatin1String(key), value);
    };
    if (t.node >= 0)
        add("Op", hashName(m_cann.apis()[std::size_t(t.node)].itemId));
    if (t.op >= 0) {
        const OpDescription &op = m_cann.ops()[std::size_t(t.op)];
        if (op.haveBasic) {
            add("OP Type", opType(op));
            const char *type = geTaskTypeName(op.basic.taskType);
            add("Op Task Type", *type ? QString::fromLatin1(type) : QString::number(op.basic.taskType));
            add("Block Dim", QString::number(op.basic.blockDim));
            if (op.basic.mixBlockDim)
                add("Mix Block Dim", QString::number(op.basic.mixBlockDim));
            add("HF32 Eligible", op.basic.hf32 ? QStringLiteral("YES") : QStringLiteral("NO"));
        }
        for (const bool outputs : {false, true}) {
            add(outputs ? "Output Shapes" : "Input Shapes",
                QString::fromStdString(tensorShapes(op.tensors, outputs)));
            add(outputs ? "Output Data Types" : "Input Data Types",
                QString::fromStdString(tensorDataTypes(op.tensors, outputs)));
            add(outputs ? "Output Formats" : "Input Formats",
                QString::fromStdString(tensorFormats(op.tensors, outputs)));
        }
    }
    if (t.hcclOp >= 0) {
        const HcclOpInfo &h = m_cann.hcclOps()[std::size_t(t.hcclOp)];
        add("Group Name", hashName(h.groupName));
        add("Algorithm", hashName(h.algType));
        add("Count", QString::number(h.count));
    }
    if (t.hcclInfo >= 0) {
        const HcclInfo &h = m_cann.hcclInfos()[std::size_t(t.hcclInfo)];
        add("Plane Id", QString::number(h.planeId));
        add("Local Rank", QString::number(h.localRank));
        add("Remote Rank", QString::number(h.remoteRank));
        add("Rank Size", QString::number(h.rankSize));
        add("Data Size", QString::number(h.dataSize));
        add("Notify Id", QString::number(h.notifyId));
        add("Link Type", QString::number(h.linkType));
        add("Transport Type", QString::number(h.transportType));
        add("Duration Estimated(us)", QString::number(h.durationEstimated));
    }
    return out;
}

} // namespace at::raw
