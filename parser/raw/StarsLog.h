#pragma once

// stars_soc.data task logs of STARS chips (910B/910C A2/A3 and later; FORMATS.md §5.6): 64-byte records
// dispatched on funcType; ACSQ task and FFTS+ subtask start/end records are decoded and paired per §5.7.

#include "DeviceTask.h"

#include <map>
#include <tuple>
#include <vector>

namespace at::raw {

inline constexpr std::size_t kStarsRecordSize = 64;
inline constexpr std::size_t kStarsV6RecordSize = 32; // chip v6 ACSQ logs ("4HQHH3L")

enum StarsFuncType : std::uint8_t
{
    kAcsqStart = 0b000000,
    kAcsqEnd = 0b000001,
    kFftsStart = 0b100010,
    kFftsEnd = 0b100011,
    kContextPmu = 0b101000,
    kBlockPmu = 0b101001,
};

struct StarsHeader
{
    std::uint8_t funcType = 0; // bits 0–5 of u16 @0
    std::uint8_t cnt = 0;      // bits 6–9
    std::uint8_t sqeType = 0;  // bits 10–15
    std::uint16_t magic = 0;   // u16 @2
};
StarsHeader decodeStarsHeader(const unsigned char *record);

// Stream/task id decoding table of §5.6.
struct StarsIdMode
{
    bool chipV6 = false;
    bool streamExpand = false; // an expand_stream_spec record exists
};
struct StreamTask
{
    std::uint32_t stream = 0;
    std::uint32_t task = 0;
    friend bool operator==(const StreamTask &, const StreamTask &) = default;
};
StreamTask decodeStarsIds(std::uint16_t rawStream, std::uint16_t rawTask, std::uint8_t sqeType,
                          StarsIdMode mode);

struct StarsTaskRecord
{
    StarsHeader header;
    std::uint16_t rawStream = 0;
    std::uint16_t rawTask = 0;
    std::uint64_t timestamp = 0;
    std::uint16_t accId = 0;      // ACSQ: low 6 bits of u16 @18
    std::uint8_t subTaskType = 0; // FFTS+: low 8 bits of u16 @16
    std::uint16_t subTaskId = 0;  // FFTS+: u16 @18
    std::uint8_t fftsType = 0;    // FFTS+: u16 @20 >> 13
    std::uint16_t threadId = 0;   // FFTS+: u16 @22
};
// Decodes the common task-log fields (ACSQ or FFTS+ layout chosen by funcType). False on a wrong magic.
bool decodeStarsTask(const unsigned char *record, StarsTaskRecord &out);

// Collects ACSQ and FFTS+ start/end records, then pairs them: all records sorted by timestamp, FIFO queues
// per key; an end before the head start is dropped; the head start takes the end when it is the last start
// or the end comes before the next start; otherwise the head start is an orphan and dropped.
class StarsPairer
{
public:
    explicit StarsPairer(StarsIdMode mode = {}) : m_mode(mode) {}
    void add(const unsigned char *record);
    std::vector<DeviceTask> finish(); // sorted by start time
    const PairingStats &stats() const { return m_stats; }
    const RollingCounter &counter() const { return m_counter; }

private:
    struct Mark
    {
        std::uint64_t ts;
        std::uint16_t sqeType;
        bool end;
    };
    using Key = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, bool>; // stream, task, subtask, ffts
    std::map<Key, std::vector<Mark>> m_marks;
    StarsIdMode m_mode;
    PairingStats m_stats;
    RollingCounter m_counter;
};

// SQE type name used when no host data names the task (FORMATS.md §2.7, msprof sqe_type_map.py).
const char *starsSqeTypeName(std::uint8_t sqeType);

} // namespace at::raw
