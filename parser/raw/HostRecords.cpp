#include "HostRecords.h"

#include "ByteReader.h"

namespace at::raw {

bool decodeAclModule(const unsigned char *r, AclModuleRecord &out)
{
    out.magic = readU16(r, 0);
    out.dataTag = readU16(r, 2);
    out.apiType = readU32(r, 4);
    out.apiStart = readU64(r, 8);
    out.apiEnd = readU64(r, 16);
    out.processId = readU32(r, 24);
    out.threadId = readU32(r, 28);
    std::size_t length = 0;
    while (length < 64 && r[32 + length] != 0)
        ++length;
    out.name = QString::fromUtf8(reinterpret_cast<const char *>(r + 32), static_cast<qsizetype>(length));
    return out.magic == kHostMagic;
}

bool decodeApiEvent(const unsigned char *r, ApiEventRecord &out)
{
    out.magic = readU16(r, 0);
    out.level = readU16(r, 2);
    out.type = readU32(r, 4);
    out.threadId = readU32(r, 8);
    out.requestId = readU32(r, 12);
    out.begin = readU64(r, 16);
    out.end = readU64(r, 24);
    out.itemId = readU64(r, 32);
    return out.magic == kHostMagic;
}

} // namespace at::raw
