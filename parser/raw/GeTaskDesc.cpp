#include "GeTaskDesc.h"

#include "ByteReader.h"
#include "HostRecords.h"

namespace at::raw {

namespace {

constexpr std::uint8_t kMixHashId = 0;

// Text of a NUL-padded char field (a full field has no NUL).
std::string fieldText(const unsigned char *p, std::size_t size)
{
    std::size_t n = 0;
    while (n < size && p[n] != 0)
        ++n;
    return std::string(reinterpret_cast<const char *>(p), n);
}

} // namespace

bool decodeGeTaskDesc(const unsigned char *r, GeTaskDesc &out)
{
    if (readU16(r, 0) != kHostMagic)
        return false;
    out.taskType = readU32(r, 4);
    if (readU8(r, 8) == kMixHashId)
        out.opNameHash = readU64(r, 16);
    else
        out.opName = fieldText(r + 16, 120);
    if (readU8(r, 136) == kMixHashId)
        out.opTypeHash = readU64(r, 144);
    else
        out.opType = fieldText(r + 144, 56);
    out.iteration = readU64(r, 200);
    out.timeStamp = readU64(r, 208);
    out.shapeType = readU32(r, 216);
    out.blockDims = readU32(r, 220);
    out.modelId = readU32(r, 224);
    out.streamId = readU32(r, 228);
    out.taskId = readU16(r, 232);
    out.batchId = readU16(r, 234);
    out.threadId = readU32(r, 236);
    return true;
}

} // namespace at::raw
