#include "CannAssociation.h"

#include "ByteReader.h"
#include "HostRecords.h"

#include <algorithm>
#include <cstring>

namespace at::raw {

namespace {

constexpr std::size_t kTensorsPerRecord = 5;
constexpr std::size_t kTensorBytes = 11 * 4;     // tensorType, format, dataType, shape[8]
constexpr std::uint32_t kFftsPlusGeTaskType = 6; // node_basic_info marking an FFTS+ graph, not an op

} // namespace

bool decodeHostRecordHeader(const unsigned char *r, HostRecordHeader &out)
{
    out.magic = readU16(r, 0);
    out.level = readU16(r, 2);
    out.type = readU32(r, 4);
    out.threadId = readU32(r, 8);
    out.timeStamp = readU64(r, 16);
    return out.magic == kHostMagic;
}

bool decodeNodeBasicInfo(const unsigned char *r, HostRecordHeader &header, NodeBasicInfo &out)
{
    if (!decodeHostRecordHeader(r, header))
        return false;
    out.opName = readU64(r, 24);
    out.taskType = readU32(r, 32);
    out.opType = readU64(r, 36);
    const std::uint32_t blockNum = readU32(r, 44);
    out.blockDim = blockNum & 0xFFFF;
    out.mixBlockDim = (blockNum >> 16) * (blockNum & 0xFFFF);
    out.hf32 = readU32(r, 48) != 0;
    out.opState = readU8(r, 52);
    return true;
}

bool decodeTensorInfo(const unsigned char *r, HostRecordHeader &header, TensorInfo &out)
{
    if (!decodeHostRecordHeader(r, header))
        return false;
    out.opName = readU64(r, 24);
    const std::size_t n = std::min<std::size_t>(readU32(r, 32), kTensorsPerRecord);
    out.tensors.clear();
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t at = 36 + i * kTensorBytes;
        TensorDesc t;
        t.output = readU32(r, at) == 1;
        t.format = readU32(r, at + 4);
        t.dataType = readU32(r, at + 8);
        for (std::size_t d = 0; d < 8; ++d)
            t.shape.push_back(readU32(r, at + 12 + d * 4));
        while (!t.shape.empty() && t.shape.back() == 0)
            t.shape.pop_back();
        out.tensors.push_back(std::move(t));
    }
    return true;
}

bool decodeHcclInfo(const unsigned char *r, HostRecordHeader &header, HcclInfo &out)
{
    if (!decodeHostRecordHeader(r, header))
        return false;
    out.itemId = readU64(r, 24);
    out.groupName = readU64(r, 40);
    out.localRank = readU32(r, 48);
    out.remoteRank = readU32(r, 52);
    out.rankSize = readU32(r, 56);
    out.planeId = readU32(r, 64);
    out.ctxId = readU32(r, 68);
    out.notifyId = readU64(r, 72);
    const std::uint64_t bits = readU64(r, 88);
    std::memcpy(&out.durationEstimated, &bits, sizeof bits);
    out.dataSize = readU64(r, 112);
    out.opType = readU32(r, 120);
    out.dataType = readU32(r, 124);
    out.linkType = readU32(r, 128);
    out.transportType = readU32(r, 132);
    out.rdmaType = readU32(r, 136);
    return true;
}

bool decodeHcclOpInfo(const unsigned char *r, HostRecordHeader &header, HcclOpInfo &out)
{
    if (!decodeHostRecordHeader(r, header))
        return false;
    out.dataType = readU8(r, 25);
    out.algType = readU64(r, 26);
    out.count = readU64(r, 34);
    out.groupName = readU64(r, 42);
    return true;
}

const char *geTaskTypeName(std::uint32_t t)
{
    switch (t) {
    case 0:
        return "AI_CORE";
    case 1:
        return "AI_CPU";
    case 2:
        return "AI_VECTOR_CORE";
    case 4:
        return "MIX_AIC";
    case 5:
        return "MIX_AIV";
    case 6:
        return "FFTS_PLUS";
    case 9:
        return "HCCL";
    case 11:
        return "HCCL_AI_CPU";
    default:
        return "";
    }
}

const char *geDataTypeName(std::uint32_t t)
{
    switch (t) {
    case 0:
        return "FLOAT";
    case 1:
        return "FLOAT16";
    case 2:
        return "INT8";
    case 3:
        return "INT32";
    case 4:
        return "UINT8";
    case 6:
        return "INT16";
    case 7:
        return "UINT16";
    case 8:
        return "UINT32";
    case 9:
        return "INT64";
    case 10:
        return "UINT64";
    case 11:
        return "DOUBLE";
    case 12:
        return "BOOL";
    case 27:
        return "BF16";
    default:
        return "";
    }
}

const char *geFormatName(std::uint32_t f)
{
    switch (f & 0xFF) { // the high bytes carry sub-format and C0 size
    case 0:
        return "NCHW";
    case 1:
        return "NHWC";
    case 2:
        return "ND";
    case 3:
        return "NC1HWC0";
    case 4:
        return "FRACTAL_Z";
    case 29:
        return "FRACTAL_NZ";
    default:
        return "";
    }
}

namespace {

template <typename Field>
std::string joinTensors(const std::vector<TensorDesc> &tensors, bool outputs, Field field)
{
    std::string out;
    bool first = true;
    for (const TensorDesc &t : tensors) {
        if (t.output != outputs)
            continue;
        if (!first)
            out += ';';
        first = false;
        out += field(t);
    }
    return out;
}

std::string nameOr(const char *name, std::uint32_t value)
{
    return *name ? std::string(name) : std::to_string(value);
}

} // namespace

std::string tensorShapes(const std::vector<TensorDesc> &tensors, bool outputs)
{
    return joinTensors(tensors, outputs, [](const TensorDesc &t) {
        std::string s;
        for (std::size_t i = 0; i < t.shape.size(); ++i)
            s += (i ? "," : "") + std::to_string(t.shape[i]);
        return s;
    });
}

std::string tensorDataTypes(const std::vector<TensorDesc> &tensors, bool outputs)
{
    return joinTensors(tensors, outputs,
                       [](const TensorDesc &t) { return nameOr(geDataTypeName(t.dataType), t.dataType); });
}

std::string tensorFormats(const std::vector<TensorDesc> &tensors, bool outputs)
{
    return joinTensors(tensors, outputs,
                       [](const TensorDesc &t) { return nameOr(geFormatName(t.format), t.format); });
}

int CannAssociation::addApi(const HostApi &api)
{
    m_apis.push_back(api);
    return static_cast<int>(m_apis.size() - 1);
}

void CannAssociation::addNodeBasicInfo(const HostRecordHeader &h, const NodeBasicInfo &info)
{
    m_basics.push_back(info);
    m_pending.push_back({h.threadId, h.timeStamp, 0, m_basics.size() - 1});
}

void CannAssociation::addTensorInfo(const HostRecordHeader &h, const TensorInfo &info)
{
    // Records with the same (op, time, thread) continue each other (more than 5 tensors).
    if (!m_pending.empty() && m_pending.back().kind == 1 && m_pending.back().threadId == h.threadId &&
        m_pending.back().time == h.timeStamp && m_tensorInfos.back().opName == info.opName) {
        auto &tensors = m_tensorInfos.back().tensors;
        tensors.insert(tensors.end(), info.tensors.begin(), info.tensors.end());
        return;
    }
    m_tensorInfos.push_back(info);
    m_pending.push_back({h.threadId, h.timeStamp, 1, m_tensorInfos.size() - 1});
}

void CannAssociation::addHcclInfo(const HostRecordHeader &h, const HcclInfo &info)
{
    m_hcclInfos.push_back(info);
    m_pending.push_back({h.threadId, h.timeStamp, 2, m_hcclInfos.size() - 1});
}

void CannAssociation::addHcclOpInfo(const HostRecordHeader &h, const HcclOpInfo &info)
{
    m_hcclOps.push_back(info);
    m_pending.push_back({h.threadId, h.timeStamp, 3, m_hcclOps.size() - 1});
}

void CannAssociation::addTask(const TaskTrackRecord &track)
{
    HostTask t;
    t.track = track;
    m_tasks.push_back(t);
}

void CannAssociation::addDescribedTask(const TaskTrackRecord &track, OpDescription op)
{
    HostTask t;
    t.track = track;
    t.described = true;
    t.op = static_cast<int>(m_ops.size());
    m_ops.push_back(std::move(op));
    m_tasks.push_back(t);
}

int CannAssociation::innermost(std::uint32_t threadId, std::uint64_t time) const
{
    const auto it = m_trees.find(threadId);
    if (it == m_trees.end())
        return -1;
    const ThreadTree &tree = it->second;
    // The last range starting at or before `time`, then up its ancestors to the first that contains
    // it: ranges nest, so that is the innermost one.
    const auto after = std::upper_bound(tree.begins.begin(), tree.begins.end(), time);
    for (int pos = static_cast<int>(after - tree.begins.begin()) - 1; pos >= 0;
         pos = tree.parent[std::size_t(pos)])
        if (tree.ends[std::size_t(pos)] >= time)
            return tree.byBegin[std::size_t(pos)];
    return -1;
}

int CannAssociation::parentOf(int api) const
{
    return api < 0 ? -1 : m_parentOfApi[std::size_t(api)];
}

int CannAssociation::ancestorAt(int api, std::uint16_t level) const
{
    for (; api >= 0; api = parentOf(api))
        if (m_apis[std::size_t(api)].level == level)
            return api;
    return -1;
}

void CannAssociation::finish()
{
    m_parentOfApi.assign(m_apis.size(), -1);
    struct Range
    {
        std::uint64_t begin, end;
        std::uint16_t level;
        int api;
    };
    std::unordered_map<std::uint32_t, std::vector<Range>> rangesOf;
    for (std::size_t i = 0; i < m_apis.size(); ++i)
        rangesOf[m_apis[i].threadId].push_back(
            {m_apis[i].begin, m_apis[i].end, m_apis[i].level, static_cast<int>(i)});
    for (auto &[thread, ranges] : rangesOf) {
        // Equal begins: the longer range first (it is the parent), then the higher level.
        std::sort(ranges.begin(), ranges.end(), [](const Range &x, const Range &y) {
            if (x.begin != y.begin)
                return x.begin < y.begin;
            if (x.end != y.end)
                return x.end > y.end;
            return x.level > y.level;
        });
        ThreadTree &tree = m_trees[thread];
        tree.parent.assign(ranges.size(), -1);
        for (const Range &r : ranges) {
            tree.byBegin.push_back(r.api);
            tree.begins.push_back(r.begin);
            tree.ends.push_back(r.end);
        }
        std::vector<int> stack; // positions of the open ranges
        for (std::size_t pos = 0; pos < ranges.size(); ++pos) {
            while (!stack.empty() && tree.ends[std::size_t(stack.back())] < ranges[pos].end)
                stack.pop_back(); // ended before this one does: not an ancestor
            if (!stack.empty()) {
                tree.parent[pos] = stack.back();
                m_parentOfApi[std::size_t(ranges[pos].api)] = tree.byBegin[std::size_t(stack.back())];
            }
            stack.push_back(static_cast<int>(pos));
        }
    }

    auto opOf = [&](int node) -> OpDescription & {
        const auto [it, inserted] = m_opOfNode.emplace(node, static_cast<int>(m_ops.size()));
        if (inserted)
            m_ops.emplace_back();
        return m_ops[std::size_t(it->second)];
    };
    for (const Pending &p : m_pending) {
        const int inner = innermost(p.threadId, p.time);
        const int node = ancestorAt(inner, kNodeLevel);
        switch (p.kind) {
        case 0: { // the op of a Node range; an FFTS+ graph marker is not the op
            const NodeBasicInfo &b = m_basics[p.index];
            if (node < 0) {
                ++m_outside;
            } else if (b.taskType != kFftsPlusGeTaskType || !opOf(node).haveBasic) {
                OpDescription &op = opOf(node);
                if (!op.haveBasic || op.basic.taskType == kFftsPlusGeTaskType) {
                    op.basic = b;
                    op.haveBasic = true;
                }
            }
            break;
        }
        case 1: // tensors of the op: the first tensor_info of the Node range
            if (node < 0)
                ++m_outside;
            else if (OpDescription &op = opOf(node); op.tensors.empty())
                op.tensors = m_tensorInfos[p.index].tensors;
            break;
        case 2: { // a small communication task: attached to its HCCL range
            const int hccl = ancestorAt(inner, kHcclLevel);
            if (hccl < 0)
                ++m_outside;
            else
                m_hcclInfosOfRange[hccl].push_back(static_cast<int>(p.index));
            break;
        }
        case 3:
            if (node < 0)
                ++m_outside;
            else
                m_hcclOpOfNode.emplace(node, static_cast<int>(p.index));
            break;
        }
    }

    for (HostTask &t : m_tasks) {
        if (t.described)
            continue;
        const int inner = innermost(t.track.threadId, t.track.timeStamp);
        if (inner < 0) {
            ++m_outside;
            continue;
        }
        t.node = ancestorAt(inner, kNodeLevel);
        t.hccl = ancestorAt(inner, kHcclLevel);
        // The flow starts at the op's Node range; a task outside any op (a memcpy, an event record)
        // starts it at the range that called the runtime.
        t.connection = t.node >= 0 ? t.node
                       : (m_apis[std::size_t(inner)].level == kRuntimeLevel && parentOf(inner) >= 0)
                           ? parentOf(inner)
                           : inner;
        if (t.node >= 0) {
            if (const auto it = m_opOfNode.find(t.node); it != m_opOfNode.end())
                t.op = it->second;
            if (const auto it = m_hcclOpOfNode.find(t.node); it != m_hcclOpOfNode.end())
                t.hcclOp = it->second;
        }
        if (t.hccl >= 0)
            if (const auto it = m_hcclInfosOfRange.find(t.hccl);
                it != m_hcclInfosOfRange.end() && !it->second.empty())
                t.hcclInfo = it->second.front();
    }
}

} // namespace at::raw
