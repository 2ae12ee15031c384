#include "TsTrack.h"

#include "ByteReader.h"

#include <algorithm>

namespace at::raw {

bool decodeTsTrack(const unsigned char *r, TsTrackRecord &out)
{
    out = TsTrackRecord{};
    out.header = readU8(r, 0);
    out.tag = readU8(r, 1);
    out.timestamp = readU64(r, 8);
    switch (static_cast<TsTrackTag>(out.tag)) {
    case TsTrackTag::StepTrace:
        out.indexId = readU64(r, 16);
        out.modelId = readU64(r, 24);
        out.streamId = readU16(r, 32) & 0x7FF;
        out.taskId = readU16(r, 34);
        out.tagId = readU16(r, 36);
        return true;
    case TsTrackTag::TaskMemcpy:
        out.streamId = readU16(r, 16) & 0x7FF;
        out.taskId = readU16(r, 18);
        out.taskStatus = readU8(r, 20);
        return true;
    case TsTrackTag::TaskType:
        out.streamId = readU16(r, 16) & 0x7FF;
        out.taskId = readU16(r, 18);
        out.taskType = readU16(r, 20);
        out.taskStatus = readU8(r, 22);
        return true;
    case TsTrackTag::TaskFlipOld:
        return true;
    case TsTrackTag::TaskFlip:
        out.streamId = readU16(r, 16) & 0x7FF;
        out.flipNum = readU16(r, 18);
        out.taskId = readU16(r, 22);
        return true;
    case TsTrackTag::BlockNum:
        out.streamId = readU16(r, 16) & 0x7FF;
        out.taskId = readU16(r, 18);
        out.blockNum = readU32(r, 20);
        return true;
    }
    return false;
}

void TsTrackCollector::add(const unsigned char *record)
{
    TsTrackRecord r;
    if (!decodeTsTrack(record, r)) {
        ++m_stats.records;
        ++m_stats.unknownTag;
        return;
    }
    add(r);
}

void TsTrackCollector::add(const TsTrackRecord &r)
{
    ++m_stats.records;
    switch (static_cast<TsTrackTag>(r.tag)) {
    case TsTrackTag::StepTrace:
        break;
    case TsTrackTag::TaskFlip:
        ++m_stats.flipRecords;
        return;
    case TsTrackTag::BlockNum:
        ++m_stats.blockNumRecords;
        return;
    case TsTrackTag::TaskMemcpy:
    case TsTrackTag::TaskType:
    case TsTrackTag::TaskFlipOld:
        ++m_stats.otherRecords;
        return;
    default:
        ++m_stats.unknownTag;
        return;
    }
    ++m_stats.stepRecords;
    Marks &m = m_marks[{r.modelId, r.indexId}];
    m.first = std::min(m.first, r.timestamp);
    switch (r.tagId) {
    case kStepModelStart:
    case kStepStart:
        // A step start wins over a model start; the earliest mark of a kind is kept.
        if (!m.hasStart || r.tagId == kStepStart || r.timestamp < m.start) {
            m.start = r.timestamp;
            m.hasStart = true;
        }
        break;
    case kStepModelEnd:
    case kStepIterationEnd:
    case kStepEnd:
        // The iteration end mark wins; otherwise the latest end mark.
        if (!m.hasEnd || r.tagId == kStepIterationEnd || r.timestamp > m.end) {
            m.end = r.timestamp;
            m.hasEnd = true;
        }
        break;
    case kStepFp:
        m.fp = r.timestamp;
        break;
    case kStepBp:
        m.bp = r.timestamp;
        break;
    default: // all-reduce (>= 10000), GetNext (>= 20000): part of the iteration, not its bounds
        break;
    }
}

std::vector<StepWindow> TsTrackCollector::finish()
{
    std::vector<StepWindow> out;
    std::uint64_t model = ~std::uint64_t(0);
    bool havePrevious = false;
    std::uint64_t previousEnd = 0;
    for (const auto &[key, m] : m_marks) { // ordered by (model, index)
        if (key.first != model) {
            model = key.first;
            havePrevious = false;
        }
        if (!m.hasEnd) {
            ++m_stats.iterationsWithoutEnd;
            continue;
        }
        StepWindow w;
        w.modelId = key.first;
        w.indexId = key.second;
        w.endTicks = m.end;
        if (m.hasStart) {
            w.beginTicks = m.start;
        } else if (havePrevious && previousEnd <= m.end) {
            w.beginTicks = previousEnd;
        } else {
            w.beginTicks = m.first;
            ++m_stats.iterationsWithoutBegin;
        }
        w.fpTicks = m.fp;
        w.bpTicks = m.bp;
        havePrevious = true;
        previousEnd = m.end;
        if (w.endTicks < w.beginTicks) {
            ++m_stats.reversed;
            continue;
        }
        out.push_back(w);
    }
    m_marks.clear();
    return out;
}

} // namespace at::raw
