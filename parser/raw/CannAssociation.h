#pragma once

// What the host knows about each device task (FORMATS.md §5.3, "Association"): per host thread the
// api_event ranges nest (AscendCL 20000 ⊃ Model 15000 ⊃ Node 10000 ⊃ HCCL 5500 ⊃ Runtime 5000), and
// the compact / additional records attach to the innermost range containing their timestamp:
//  - node_basic_info (64 B) and tensor_info (256 B) describe the op of a Node range: op name and type,
//    GE task type, block dims, input/output shapes, data types and formats;
//  - hccl_op_info (64 B) describes a communication op (its group), hccl_info (256 B) one of its small
//    tasks (name, plane, ranks, data size, link type);
//  - task_track (64 B, TaskTrack.h) is a task submitted by a Runtime range.
// CannAssociation resolves every submitted task to its op and to the range a HostToDevice flow
// starts from (the enclosing Node range, else the range that called the runtime).

#include "TaskTrack.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace at::raw {

inline constexpr std::size_t kCompactRecordSize = 64;     // MsprofCompactInfo
inline constexpr std::size_t kAdditionalRecordSize = 256; // MsprofAdditionalInfo

inline constexpr std::uint16_t kAclLevel = 20000;
inline constexpr std::uint16_t kModelLevel = 15000;
inline constexpr std::uint16_t kNodeLevel = 10000;
inline constexpr std::uint16_t kHcclLevel = 5500;
inline constexpr std::uint16_t kRuntimeLevel = 5000;

// The 24-byte header shared by compact and additional records.
struct HostRecordHeader
{
    std::uint16_t magic = 0;
    std::uint16_t level = 0;
    std::uint32_t type = 0;
    std::uint32_t threadId = 0;
    std::uint64_t timeStamp = 0;
};

struct NodeBasicInfo
{
    std::uint64_t opName = 0;      // hash_dic
    std::uint64_t opType = 0;      // hash_dic
    std::uint32_t taskType = 0;    // GE task type (geTaskTypeName)
    std::uint32_t blockDim = 0;    // low 16 bits of blockNum
    std::uint32_t mixBlockDim = 0; // high 16 × low 16 bits
    bool hf32 = false;
    std::uint8_t opState = 0;
};

struct TensorDesc
{
    bool output = false;
    std::uint32_t format = 0;
    std::uint32_t dataType = 0;
    std::vector<std::uint32_t> shape; // trailing zero dims dropped
};

struct TensorInfo
{
    std::uint64_t opName = 0;
    std::vector<TensorDesc> tensors;
};

struct HcclInfo
{
    std::uint64_t itemId = 0; // hash_dic: the small task's name (e.g. Notify_Wait, Memcpy)
    std::uint64_t groupName = 0;
    std::uint32_t localRank = 0, remoteRank = 0, rankSize = 0, planeId = 0, ctxId = 0;
    std::uint64_t notifyId = 0;
    double durationEstimated = 0;
    std::uint64_t dataSize = 0;
    std::uint32_t opType = 0, dataType = 0, linkType = 0, transportType = 0, rdmaType = 0;
};

struct HcclOpInfo
{
    std::uint8_t dataType = 0;
    std::uint64_t algType = 0; // hash_dic
    std::uint64_t count = 0;
    std::uint64_t groupName = 0; // hash_dic
};

// Decoders at explicit offsets; false when the magic is not 0x5A5A.
bool decodeHostRecordHeader(const unsigned char *record, HostRecordHeader &out);
bool decodeNodeBasicInfo(const unsigned char *record, HostRecordHeader &header, NodeBasicInfo &out);
bool decodeTensorInfo(const unsigned char *record, HostRecordHeader &header, TensorInfo &out);
bool decodeHcclInfo(const unsigned char *record, HostRecordHeader &header, HcclInfo &out);
bool decodeHcclOpInfo(const unsigned char *record, HostRecordHeader &header, HcclOpInfo &out);

// GE enums as msprof prints them (op_summary "Task Type", "Input Data Types", "Input Formats").
// Values not listed come back empty; callers show the number.
const char *geTaskTypeName(std::uint32_t taskType);
const char *geDataTypeName(std::uint32_t dataType);
const char *geFormatName(std::uint32_t format);
// "1,3,224,224;64" etc. over the inputs (or outputs) of an op.
std::string tensorShapes(const std::vector<TensorDesc> &tensors, bool outputs);
std::string tensorDataTypes(const std::vector<TensorDesc> &tensors, bool outputs);
std::string tensorFormats(const std::vector<TensorDesc> &tensors, bool outputs);

// One api_event range, on the host's raw clock, with the timeline slice it became (for flows).
struct HostApi
{
    std::uint16_t level = 0;
    std::uint32_t threadId = 0;
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    std::uint64_t itemId = 0;
    int sliceThread = -1;
    std::int64_t sliceStart = 0; // local ns
};

// A submitted task and what the association found for it.
struct HostTask
{
    TaskTrackRecord track;
    int node = -1;          // enclosing Node-level range: the op
    int hccl = -1;          // enclosing HCCL-level range: a communication task
    int connection = -1;    // range the HostToDevice flow starts from
    int op = -1;            // index into ops(): node_basic_info + tensor_info of the Node range
    int hcclInfo = -1;      // index into hcclInfos()
    int hcclOp = -1;        // index into hcclOps(): hccl_op_info of the Node range
    bool described = false; // came with its op (legacy GE task_desc_info): nothing to resolve
};

struct OpDescription
{
    NodeBasicInfo basic;
    bool haveBasic = false;
    std::vector<TensorDesc> tensors;
    // Legacy GE task descriptions may carry the names as text instead of hashes (GeTaskDesc.h).
    std::string opNameText, opTypeText;
};

class CannAssociation
{
public:
    int addApi(const HostApi &api);
    void addNodeBasicInfo(const HostRecordHeader &h, const NodeBasicInfo &info);
    void addTensorInfo(const HostRecordHeader &h, const TensorInfo &info);
    void addHcclInfo(const HostRecordHeader &h, const HcclInfo &info);
    void addHcclOpInfo(const HostRecordHeader &h, const HcclOpInfo &info);
    void addTask(const TaskTrackRecord &track);
    // A task whose op is already known (legacy GE task_desc_info): no range needed.
    void addDescribedTask(const TaskTrackRecord &track, OpDescription op);

    // Builds the per-thread range trees and resolves every task. Counts what found no range.
    void finish();

    const std::vector<HostApi> &apis() const { return m_apis; }
    const std::vector<HostTask> &tasks() const { return m_tasks; }
    const std::vector<OpDescription> &ops() const { return m_ops; }
    const std::vector<HcclInfo> &hcclInfos() const { return m_hcclInfos; }
    const std::vector<HcclOpInfo> &hcclOps() const { return m_hcclOps; }
    std::size_t recordsOutsideRanges() const { return m_outside; }

private:
    struct Pending
    {
        std::uint32_t threadId;
        std::uint64_t time;
        int kind; // 0 node_basic_info, 1 tensor_info, 2 hccl_info, 3 hccl_op_info
        std::size_t index;
    };
    struct ThreadTree
    {
        std::vector<int> byBegin;          // api indices sorted by (begin, end descending)
        std::vector<std::uint64_t> begins; // parallel to byBegin (searched without touching m_apis)
        std::vector<std::uint64_t> ends;
        std::vector<int> parent; // parallel to byBegin: position of the parent, or -1
    };
    int innermost(std::uint32_t threadId, std::uint64_t time) const; // api index or -1
    int ancestorAt(int api, std::uint16_t level) const;              // the api itself or an ancestor
    int parentOf(int api) const;

    std::vector<HostApi> m_apis;
    std::vector<HostTask> m_tasks;
    std::vector<NodeBasicInfo> m_basics;
    std::vector<TensorInfo> m_tensorInfos;
    std::vector<HcclInfo> m_hcclInfos;
    std::vector<HcclOpInfo> m_hcclOps;
    std::vector<Pending> m_pending;
    std::unordered_map<std::uint32_t, ThreadTree> m_trees;
    std::vector<int> m_parentOfApi;   // api index -> parent api index
    std::vector<OpDescription> m_ops; // one per Node range that has node_basic_info or tensor_info
    std::unordered_map<int, int> m_opOfNode, m_hcclOpOfNode;
    std::unordered_map<int, std::vector<int>> m_hcclInfosOfRange;
    std::size_t m_outside = 0;
};

} // namespace at::raw
