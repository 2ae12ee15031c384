#pragma once

// Legacy GE task descriptions (FORMATS.md §5.4, CANN ≤ 6.x, needed for G1 E2E raw data): 256-byte
// `Framework.task_desc_info.<dev>` records, one per task GE launched, with the op name and type, the GE
// task type, block dims and the (stream, task, batch) ids that name a device task. Op name and type are
// "mix data": a type byte (0 hash id, 1 string) then a union of a u64 hash (Framework.hash_dic) and text.
//   @0 u16 magic 0x5A5A, @2 u16 data tag, @4 u32 task type (GE: 0 AI_CORE, 1 AI_CPU, 2 AIV, …)
//   @8 u8 op-name type, @16 op name (u64 hash or char[120])
//   @136 u8 op-type type, @144 op type (u64 hash or char[56])
//   @200 u64 iteration, @208 u64 timestamp (host), @216 u32 shape type (0 static, 1 dynamic),
//   @220 u32 block dims, @224 u32 model id, @228 u32 stream id, @232 u16 task id, @234 u16 batch id,
//   @236 u32 thread id.

#include <cstddef>
#include <cstdint>
#include <string>

namespace at::raw {

inline constexpr std::size_t kGeTaskDescRecordSize = 256;

struct GeTaskDesc
{
    std::uint32_t taskType = 0;
    std::uint64_t opNameHash = 0; // when the name is a hash id
    std::string opName;           // when it is text
    std::uint64_t opTypeHash = 0;
    std::string opType;
    std::uint64_t iteration = 0;
    std::uint64_t timeStamp = 0;
    std::uint32_t shapeType = 0;
    std::uint32_t blockDims = 0;
    std::uint32_t modelId = 0;
    std::uint32_t streamId = 0;
    std::uint16_t taskId = 0;
    std::uint16_t batchId = 0;
    std::uint32_t threadId = 0;
};

// False when the magic is not 0x5A5A.
bool decodeGeTaskDesc(const unsigned char *record, GeTaskDesc &out);

} // namespace at::raw
