#pragma once

#include <QString>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

namespace at {

using StringId = std::uint32_t;

// Interns UTF-8 strings: each distinct text is stored once and named by a dense id, so tables
// hold 4-byte ids instead of strings. Id 0 is always the empty string. Views stay valid for the
// pool's lifetime (text lives in fixed blocks that never move).
class StringPool
{
public:
    StringPool();
    StringPool(const StringPool &) = delete;
    StringPool &operator=(const StringPool &) = delete;

    StringId intern(std::string_view text);
    // Stores text as the next id without looking it up, for readers of lists that are distinct by
    // construction (a snapshot's string table): hashing millions of flow ids was most of a reopen.
    // The lookup index catches up on the next intern() or find().
    StringId append(std::string_view text);
    std::string_view view(StringId id) const { return m_views[id]; }
    QString qstring(StringId id) const;
    std::size_t size() const { return m_views.size(); }
    // Returns the id of text if it was interned, or nullopt-like ~0u.
    StringId find(std::string_view text) const;
    static constexpr StringId kNotFound = ~StringId(0);
    std::size_t bytesUsed() const;

private:
    // Open addressing (linear probing) over ids: no node per string, and a probe compares the stored
    // hash before the text. Interning is a large part of a JSON load (every flow id is a string).
    struct Slot
    {
        StringId id = kNotFound;
        std::uint32_t hash = 0;
    };
    static std::uint32_t hashOf(std::string_view text);
    std::string_view store(std::string_view text);
    void indexAppended() const;
    // The slot holding text, or the empty slot where it would go.
    std::size_t probe(std::string_view text, std::uint32_t hash) const;
    void insert(StringId id, std::uint32_t hash) const;

    std::vector<std::string_view> m_views;
    // Lookup index over m_views[0, m_indexed); find() may complete it from several readers at once.
    mutable std::vector<Slot> m_slots; // power-of-two size, at most half full
    mutable std::size_t m_indexed = 0;
    mutable std::mutex m_indexMutex;
    std::vector<std::unique_ptr<char[]>> m_blocks;
    std::size_t m_blockUsed = 0;
    std::size_t m_blockSize = 0;
    std::size_t m_totalBytes = 0;
};

} // namespace at
