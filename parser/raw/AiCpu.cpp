#include "AiCpu.h"

#include "ByteReader.h"
#include "HostRecords.h"

namespace at::raw {

bool decodeAiCpu(const unsigned char *r, AiCpuRecord &out)
{
    out.magic = readU16(r, 0);
    out.dataTag = readU16(r, 2);
    out.streamId = readU16(r, 4);
    out.taskId = readU16(r, 6);
    out.runStartTime = readU64(r, 8);
    out.runStartTick = readU64(r, 16);
    out.computeStartTime = readU64(r, 24);
    out.memcpyStartTime = readU64(r, 32);
    out.memcpyEndTime = readU64(r, 40);
    out.runEndTime = readU64(r, 48);
    out.runEndTick = readU64(r, 56);
    out.threadId = readU32(r, 64);
    out.deviceId = readU32(r, 68);
    out.submitTick = readU64(r, 72);
    out.scheduleTick = readU64(r, 80);
    out.tickBeforeRun = readU64(r, 88);
    out.tickAfterRun = readU64(r, 96);
    out.kernelType = readU32(r, 104);
    out.dispatchTime = readU32(r, 108);
    out.totalTime = readU32(r, 112);
    out.fftsThreadId = readU16(r, 116);
    out.version = readU8(r, 118);
    return out.magic == kHostMagic;
}

bool acceptAiCpu(const unsigned char *record, AiCpuRecord &out, AiCpuStats &stats)
{
    ++stats.records;
    if (!decodeAiCpu(record, out)) {
        ++stats.badMagic;
        return false;
    }
    if (out.dataTag != kAiCpuDataTag) {
        ++stats.otherTag;
        return false;
    }
    if (out.runStartTick == 0) {
        ++stats.noTick;
        return false;
    }
    if (out.runEndTick < out.runStartTick) {
        ++stats.reversed;
        return false;
    }
    return true;
}

} // namespace at::raw
