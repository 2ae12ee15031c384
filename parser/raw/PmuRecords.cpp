#include "PmuRecords.h"

#include "ByteReader.h"
#include "HwtsLog.h"

namespace at::raw {

void decodeAicorePmu(const unsigned char *r, AicorePmuRecord &out)
{
    out.cnt = readU8(r, 0) >> 4;
    out.taskId = readU16(r, 6);
    out.totalCycle = readU64(r, 16);
    for (std::size_t i = 0; i < 8; ++i)
        out.pmu[i] = readU64(r, 32 + 8 * i);
    out.streamId = readU32(r, 96) % 2048;
}

PmuCore FftsPmuRecord::core() const
{
    const bool fftsPlus = fftsType == 4;
    if (fftsPlus && subTaskType == 6)
        return PmuCore::MixAic;
    if (fftsPlus && subTaskType == 7)
        return PmuCore::MixAiv;
    if ((fftsPlus && subTaskType == 0) || fftsType == 5 || fftsType == 0)
        return PmuCore::Aic;
    return PmuCore::Aiv;
}

bool decodeFftsPmu(const unsigned char *r, FftsPmuRecord &out)
{
    const std::uint16_t h = readU16(r, 0);
    out.funcType = h & 0x3F;
    out.cnt = (h >> 6) & 0xF;
    out.magic = readU16(r, 2);
    out.rawStream = readU16(r, 4);
    out.rawTask = readU16(r, 6);
    const std::uint16_t at16 = readU16(r, 16);
    out.subTaskType = at16 & 0xFF;
    out.overflow = (at16 >> 10) & 1;
    out.subTaskId = readU16(r, 18);
    out.fftsType = static_cast<std::uint8_t>(readU16(r, 20) >> 13);
    if (out.funcType == 0b101001) { // block PMU: core and FFTS type are bytes, the overflow bit is not there
        out.overflow = false;
        out.blockOnAiv = (readU8(r, 20) & 1) != 0;
        out.coreId = static_cast<std::uint8_t>(readU8(r, 20) >> 1);
        out.fftsType = static_cast<std::uint8_t>(readU8(r, 21) >> 5);
        out.subBlockId = readU16(r, 28);
        out.blockId = readU16(r, 30);
    }
    out.totalCycle = readU64(r, 32);
    for (std::size_t i = 0; i < 8; ++i)
        out.pmu[i] = readU64(r, 48 + 8 * i);
    out.startTicks = readU64(r, 112);
    out.endTicks = readU64(r, 120);
    return out.magic == kDeviceMagic;
}

} // namespace at::raw
