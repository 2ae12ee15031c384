#pragma once

// Host API records: the legacy AclModule record of CANN ≤ 6.x (FORMATS.md §5.4) and the MsprofApi /
// MsprofEvent record of CANN ≥ 6.3 (§5.3).

#include <QString>

#include <cstddef>
#include <cstdint>

namespace at::raw {

inline constexpr std::uint16_t kHostMagic = 0x5A5A;
inline constexpr std::size_t kAclModuleRecordSize = 128;
inline constexpr std::size_t kApiEventRecordSize = 40;

// AclModule.acl_{op,model,rts,others}: "HHIQQII64s4Q".
struct AclModuleRecord
{
    std::uint16_t magic = 0;
    std::uint16_t dataTag = 0;
    std::uint32_t apiType = 0;
    std::uint64_t apiStart = 0;
    std::uint64_t apiEnd = 0;
    std::uint32_t processId = 0;
    std::uint32_t threadId = 0;
    QString name; // NUL-padded char[64], UTF-8
};
// False when the magic is wrong.
bool decodeAclModule(const unsigned char *record, AclModuleRecord &out);

// *.api_event.data: "HHIIIQQQ". An API range unless u64 @24 is all ones (then an Event).
struct ApiEventRecord
{
    std::uint16_t magic = 0;
    std::uint16_t level = 0; // 20000 acl, 15000 model, 10000 node, 5500 hccl, 5000 runtime, ...
    std::uint32_t type = 0;
    std::uint32_t threadId = 0;
    std::uint32_t requestId = 0;
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    std::uint64_t itemId = 0;
    bool isEvent() const { return end == ~std::uint64_t(0); }
};
bool decodeApiEvent(const unsigned char *record, ApiEventRecord &out);

} // namespace at::raw
