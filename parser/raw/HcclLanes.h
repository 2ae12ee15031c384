#pragma once

// The communication layer of a raw device (FORMATS.md §2.6 "HCCL"): the device's tasks submitted under an
// HCCL range are drawn again on an "HCCL" process, per plane ("Plane N", from hccl_info), and each
// communication op (the Node range around them, e.g. hcom_allReduce_) spans its tasks on a
// "Group <name> Communication" lane.

#include "CannAssociation.h"
#include "HostTaskText.h"
#include "TraceBuilder.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <map>

namespace at::raw {

class HcclLanes
{
public:
    HcclLanes(TraceBuilder &builder, const CannAssociation &cann, const HostTaskText &text,
              std::uint32_t sourceIndex, int device)
        : m_builder(builder), m_cann(cann), m_text(text), m_sourceIndex(sourceIndex), m_device(device)
    {}
    // One device task of submission `t` (t.hccl >= 0), with the args of its timeline slice.
    void add(const HostTask &t, TimeNs start, TimeNs duration, StringId name, std::uint64_t argsIndex);
    // Adds one slice per communication op, spanning its tasks.
    void finish();
    std::size_t slicesAdded() const { return m_slices; }
    std::size_t opsAdded() const { return m_opsAdded; }

private:
    struct Op
    {
        TimeNs begin = 0, end = 0;
        std::size_t count = 0;
        std::uint64_t argsIndex = 0;
        QString group;
    };
    int lane(const QString &threadName, std::int64_t sortIndex);

    TraceBuilder &m_builder;
    const CannAssociation &m_cann;
    const HostTaskText &m_text;
    std::uint32_t m_sourceIndex;
    int m_device;
    LaneKey m_pid;
    std::map<int, Op> m_ops; // by Node range
    std::size_t m_slices = 0, m_opsAdded = 0;
};

} // namespace at::raw
