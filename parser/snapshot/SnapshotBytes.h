#pragma once

#include <QString>
#include <QStringList>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace at::snapshot {

// Appends little-endian values byte by byte (never a struct cast), so the file is the same on
// every host.
class ByteWriter
{
public:
    std::string &buffer() { return m_buffer; }
    std::size_t size() const { return m_buffer.size(); }

    void u8(std::uint8_t v) { m_buffer.push_back(static_cast<char>(v)); }
    void u32(std::uint32_t v)
    {
        char b[4];
        for (int i = 0; i < 4; ++i)
            b[i] = static_cast<char>(v >> (8 * i));
        m_buffer.append(b, 4);
    }
    void u64(std::uint64_t v)
    {
        char b[8];
        for (int i = 0; i < 8; ++i)
            b[i] = static_cast<char>(v >> (8 * i));
        m_buffer.append(b, 8);
    }
    void i32(std::int32_t v) { u32(static_cast<std::uint32_t>(v)); }
    void i64(std::int64_t v) { u64(static_cast<std::uint64_t>(v)); }
    void f64(double v)
    {
        std::uint64_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        u64(bits);
    }
    void bytes(std::string_view text)
    {
        u64(text.size());
        m_buffer.append(text.data(), text.size());
    }
    void string(const QString &text) { bytes(text.toUtf8().toStdString()); }
    void strings(const QStringList &list)
    {
        u64(static_cast<std::uint64_t>(list.size()));
        for (const QString &s : list)
            string(s);
    }
    // Overwrites 8 bytes at pos (a section length written after its contents).
    void patchU64(std::size_t pos, std::uint64_t v)
    {
        for (int i = 0; i < 8; ++i)
            m_buffer[pos + static_cast<std::size_t>(i)] = static_cast<char>(v >> (8 * i));
    }

private:
    std::string m_buffer;
};

// The little-endian value of Width bytes at p.
template <std::size_t Width> std::uint64_t readLittleEndian(const unsigned char *p)
{
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < Width; ++i)
        v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
    return v;
}

// Reads what ByteWriter wrote from untrusted bytes: every read checks the remaining length, and the
// first failure makes the reader fail (ok() false) and return zeros from then on, so callers check
// once per section instead of after every field.
class ByteReader
{
public:
    ByteReader(const char *data, std::size_t size) : m_data(data), m_size(size) {}

    bool ok() const { return m_ok; }
    bool atEnd() const { return m_pos == m_size; }
    std::size_t remaining() const { return m_size - m_pos; }
    void fail() { m_ok = false; }

    std::uint8_t u8() { return static_cast<std::uint8_t>(take(1) ? m_data[m_pos - 1] : 0); }
    std::uint32_t u32() { return take(4) ? static_cast<std::uint32_t>(readLittleEndian<4>(last(4))) : 0; }
    std::uint64_t u64() { return take(8) ? readLittleEndian<8>(last(8)) : 0; }
    std::int32_t i32() { return static_cast<std::int32_t>(u32()); }
    std::int64_t i64() { return static_cast<std::int64_t>(u64()); }
    double f64()
    {
        const std::uint64_t bits = u64();
        double v;
        std::memcpy(&v, &bits, sizeof v);
        return v;
    }
    std::string_view bytes()
    {
        const std::uint64_t n = u64();
        if (!m_ok || n > remaining()) {
            m_ok = false;
            return {};
        }
        const std::string_view v(m_data + m_pos, static_cast<std::size_t>(n));
        m_pos += static_cast<std::size_t>(n);
        return v;
    }
    QString string()
    {
        const std::string_view v = bytes();
        QString text = QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size()));
        // A path under the folder the snapshot was made from (or a message starting with one): under the
        // folder it is reopened from (PathMove, SnapshotCodec.h).
        if (!m_moveFrom.isEmpty() && text.startsWith(m_moveFrom) &&
            (text.size() == m_moveFrom.size() || text.at(m_moveFrom.size()) == QLatin1Char('/')))
            text.replace(0, m_moveFrom.size(), m_moveTo);
        return text;
    }
    // Strings starting with the path `from` (followed by '/' or nothing) are read with `to` instead.
    void movePaths(const QString &from, const QString &to)
    {
        m_moveFrom = from == to || from == QStringLiteral("/") ? QString() : from;
        m_moveTo = to;
    }
    QStringList strings()
    {
        QStringList list;
        const std::size_t n = count(8);
        for (std::size_t i = 0; i < n && m_ok; ++i)
            list << string();
        return list;
    }
    // An element count, checked against the bytes left (each element takes at least minBytes), so
    // a corrupt count can never make the caller reserve more than the file could hold.
    std::size_t count(std::size_t minBytes)
    {
        const std::uint64_t n = u64();
        if (!m_ok || (minBytes > 0 && n > remaining() / minBytes) || (minBytes == 0 && n > remaining())) {
            m_ok = false;
            return 0;
        }
        return static_cast<std::size_t>(n);
    }
    // n fixed-width little-endian values (Width 4 or 8 bytes) into out, with one length check for the
    // whole column instead of one per value.
    template <std::size_t Width, typename T> void column(std::vector<T> &out, std::size_t n)
    {
        static_assert(Width == 4 || Width == 8);
        if (!m_ok || n > remaining() / Width) {
            m_ok = false;
            out.clear();
            return;
        }
        out.resize(n);
        const auto *p = reinterpret_cast<const unsigned char *>(m_data + m_pos);
        for (std::size_t i = 0; i < n; ++i, p += Width) {
            const std::uint64_t v = readLittleEndian<Width>(p);
            if constexpr (std::is_same_v<T, double>)
                std::memcpy(&out[i], &v, sizeof(double));
            else
                out[i] = static_cast<T>(v);
        }
        m_pos += n * Width;
    }

    // The next n bytes as they are.
    std::string_view raw(std::uint64_t n)
    {
        if (!m_ok || n > remaining()) {
            m_ok = false;
            return {};
        }
        const std::string_view v(m_data + m_pos, static_cast<std::size_t>(n));
        m_pos += static_cast<std::size_t>(n);
        return v;
    }
    // A sub-reader over the next n bytes (a section), which this reader then skips.
    ByteReader section(std::uint64_t n)
    {
        if (!m_ok || n > remaining()) {
            m_ok = false;
            return ByteReader(nullptr, 0);
        }
        ByteReader sub(m_data + m_pos, static_cast<std::size_t>(n));
        sub.movePaths(m_moveFrom, m_moveTo);
        m_pos += static_cast<std::size_t>(n);
        return sub;
    }

private:
    // The n bytes just taken.
    const unsigned char *last(std::size_t n) const
    {
        return reinterpret_cast<const unsigned char *>(m_data + m_pos - n);
    }
    bool take(std::size_t n)
    {
        if (!m_ok || n > remaining()) {
            m_ok = false;
            return false;
        }
        m_pos += n;
        return true;
    }

    const char *m_data;
    std::size_t m_size;
    std::size_t m_pos = 0;
    bool m_ok = true;
    QString m_moveFrom, m_moveTo;
};

} // namespace at::snapshot
