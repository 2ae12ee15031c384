#pragma once

// Little-endian field access at explicit byte offsets (FORMATS.md §5.1). Raw profiler records are
// `#pragma pack(1)` C structs; they are never cast to structs here: each field is assembled from its
// bytes, so alignment and host byte order do not matter (compilers turn this into plain loads).

#include <cstddef>
#include <cstdint>

namespace at::raw {

inline std::uint8_t readU8(const unsigned char *p, std::size_t offset)
{
    return p[offset];
}

inline std::uint16_t readU16(const unsigned char *p, std::size_t offset)
{
    return static_cast<std::uint16_t>(p[offset] | (p[offset + 1] << 8));
}

inline std::uint32_t readU32(const unsigned char *p, std::size_t offset)
{
    return static_cast<std::uint32_t>(p[offset]) | (static_cast<std::uint32_t>(p[offset + 1]) << 8) |
           (static_cast<std::uint32_t>(p[offset + 2]) << 16) |
           (static_cast<std::uint32_t>(p[offset + 3]) << 24);
}

inline std::uint64_t readU64(const unsigned char *p, std::size_t offset)
{
    return static_cast<std::uint64_t>(readU32(p, offset)) |
           (static_cast<std::uint64_t>(readU32(p, offset + 4)) << 32);
}

// A bounds-checked view of one record: reads outside the record return 0 and set `overrun`.
class ByteReader
{
public:
    ByteReader(const unsigned char *data, std::size_t size) : m_data(data), m_size(size) {}
    std::size_t size() const { return m_size; }
    const unsigned char *data() const { return m_data; }
    bool fits(std::size_t offset, std::size_t bytes) const
    {
        return offset <= m_size && bytes <= m_size - offset;
    }
    std::uint8_t u8(std::size_t offset) const
    {
        return fits(offset, 1) ? readU8(m_data, offset) : fail<std::uint8_t>();
    }
    std::uint16_t u16(std::size_t offset) const
    {
        return fits(offset, 2) ? readU16(m_data, offset) : fail<std::uint16_t>();
    }
    std::uint32_t u32(std::size_t offset) const
    {
        return fits(offset, 4) ? readU32(m_data, offset) : fail<std::uint32_t>();
    }
    std::uint64_t u64(std::size_t offset) const
    {
        return fits(offset, 8) ? readU64(m_data, offset) : fail<std::uint64_t>();
    }
    bool overrun() const { return m_overrun; }

private:
    template <typename T> T fail() const
    {
        m_overrun = true;
        return 0;
    }
    const unsigned char *m_data;
    std::size_t m_size;
    mutable bool m_overrun = false;
};

} // namespace at::raw
