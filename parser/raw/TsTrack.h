#pragma once

// ts_track.data of the task scheduler (FORMATS.md §5.5): 40-byte records whose byte 1 is a tag. Step trace
// records (tag 10) mark model start/end, FP/BP, iteration end and step start/end per (model, index); they
// become the device's iteration windows. Flip (14) and block-num (15) records are decoded and counted.

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace at::raw {

inline constexpr std::size_t kTsTrackRecordSize = 40;

enum class TsTrackTag : std::uint8_t
{
    StepTrace = 10,
    TaskMemcpy = 11,
    TaskType = 12,
    TaskFlipOld = 13,
    TaskFlip = 14,
    BlockNum = 15,
};

// Step trace tag ids (step_trace_constant.py).
inline constexpr std::uint16_t kStepModelStart = 0;
inline constexpr std::uint16_t kStepModelEnd = 1;
inline constexpr std::uint16_t kStepFp = 2;
inline constexpr std::uint16_t kStepBp = 3;
inline constexpr std::uint16_t kStepIterationEnd = 4;
inline constexpr std::uint16_t kStepStart = 60000;
inline constexpr std::uint16_t kStepEnd = 60001;

// One decoded record; which fields are meaningful depends on `tag`.
struct TsTrackRecord
{
    std::uint8_t header = 0; // byte 0 (cnt in bits 4–7, as in the other device logs)
    std::uint8_t tag = 0;
    std::uint64_t timestamp = 0; // ticks, @8 for every tag
    // StepTrace (10): "BBHLQQQHHHH"
    std::uint64_t indexId = 0;
    std::uint64_t modelId = 0;
    std::uint16_t tagId = 0;
    // StepTrace @32/@34; TaskMemcpy/TaskType/TaskFlip/BlockNum @16/@18 (flip: task @22)
    std::uint32_t streamId = 0; // 11 bits
    std::uint16_t taskId = 0;
    std::uint16_t flipNum = 0;   // TaskFlip
    std::uint32_t blockNum = 0;  // BlockNum
    std::uint16_t taskType = 0;  // TaskType
    std::uint8_t taskStatus = 0; // TaskMemcpy / TaskType
};

// Decodes one 40-byte record at explicit offsets. Returns false for a tag this decoder does not know.
bool decodeTsTrack(const unsigned char *record, TsTrackRecord &out);

// One iteration of one model, in device ticks.
struct StepWindow
{
    std::uint64_t modelId = 0;
    std::uint64_t indexId = 0;
    std::uint64_t beginTicks = 0;
    std::uint64_t endTicks = 0;
    std::uint64_t fpTicks = 0; // 0 when absent
    std::uint64_t bpTicks = 0;
};

// Collects ts_track records and builds iteration windows per model: an iteration ends at its iteration
// end (tag 4), step end (60001) or model end (1) mark, and begins at its step start (60000) or model start
// (0) mark, else at the previous iteration's end of the same model.
class TsTrackCollector
{
public:
    void add(const unsigned char *record);
    void add(const TsTrackRecord &record);
    std::vector<StepWindow> finish();

    struct Stats
    {
        std::size_t records = 0;
        std::size_t stepRecords = 0;
        std::size_t flipRecords = 0;
        std::size_t blockNumRecords = 0;
        std::size_t otherRecords = 0; // memcpy, task type, old flip
        std::size_t unknownTag = 0;
        std::size_t iterationsWithoutEnd = 0;   // a start mark whose iteration never ended: dropped
        std::size_t iterationsWithoutBegin = 0; // the first iteration of a model with no start mark: begins
                                                // at its first record
        std::size_t reversed = 0;               // end before begin: dropped
    };
    const Stats &stats() const { return m_stats; }

private:
    struct Marks
    {
        std::uint64_t first = ~std::uint64_t(0);
        std::uint64_t start = 0, end = 0, fp = 0, bp = 0;
        bool hasStart = false, hasEnd = false;
    };
    std::map<std::pair<std::uint64_t, std::uint64_t>, Marks> m_marks; // (model, index)
    Stats m_stats;
};

} // namespace at::raw
