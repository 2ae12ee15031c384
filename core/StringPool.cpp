#include "StringPool.h"

#include <cstring>
#include <functional>

namespace at {
namespace {
constexpr std::size_t kBlockSize = std::size_t{256} * 1024;
}

StringPool::StringPool()
{
    m_views.emplace_back();
    m_slots.resize(1024);
    insert(0, hashOf(std::string_view()));
    m_indexed = 1;
}

std::uint32_t StringPool::hashOf(std::string_view text)
{
    const std::size_t h = std::hash<std::string_view>{}(text);
    return static_cast<std::uint32_t>(h ^ (h >> 32));
}

std::size_t StringPool::probe(std::string_view text, std::uint32_t hash) const
{
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
        const Slot &s = m_slots[i];
        if (s.id == kNotFound || (s.hash == hash && m_views[s.id] == text))
            return i;
    }
}

void StringPool::insert(StringId id, std::uint32_t hash) const
{
    if ((m_indexed + 1) * 2 > m_slots.size()) { // keep at most half full: short probes
        std::vector<Slot> old(m_slots.size() * 2);
        old.swap(m_slots);
        const std::size_t mask = m_slots.size() - 1;
        for (const Slot &s : old)
            if (s.id != kNotFound) {
                std::size_t i = s.hash & mask;
                while (m_slots[i].id != kNotFound)
                    i = (i + 1) & mask;
                m_slots[i] = s;
            }
    }
    const std::size_t i = probe(m_views[id], hash);
    if (m_slots[i].id == kNotFound) // equal texts (appended twice): the first id wins
        m_slots[i] = Slot{id, hash};
}

StringId StringPool::intern(std::string_view text)
{
    if (m_indexed < m_views.size())
        indexAppended();
    const std::uint32_t hash = hashOf(text);
    if (const Slot &s = m_slots[probe(text, hash)]; s.id != kNotFound)
        return s.id;
    const auto id = static_cast<StringId>(m_views.size());
    m_views.push_back(store(text));
    insert(id, hash);
    m_indexed = m_views.size();
    return id;
}

StringId StringPool::append(std::string_view text)
{
    const auto id = static_cast<StringId>(m_views.size());
    m_views.push_back(store(text));
    return id;
}

void StringPool::indexAppended() const
{
    for (; m_indexed < m_views.size(); ++m_indexed)
        insert(static_cast<StringId>(m_indexed), hashOf(m_views[m_indexed]));
}

StringId StringPool::find(std::string_view text) const
{
    std::lock_guard lock(m_indexMutex);
    if (m_indexed < m_views.size())
        indexAppended();
    const Slot &s = m_slots[probe(text, hashOf(text))];
    return s.id;
}

QString StringPool::qstring(StringId id) const
{
    const std::string_view v = view(id);
    return QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size()));
}

std::size_t StringPool::bytesUsed() const
{
    return m_totalBytes + m_views.size() * sizeof(std::string_view) + m_slots.size() * sizeof(Slot);
}

std::string_view StringPool::store(std::string_view text)
{
    if (text.size() > kBlockSize / 4) {
        // Large strings get a block of their own so they do not waste the shared one.
        auto block = std::make_unique<char[]>(text.size());
        std::memcpy(block.get(), text.data(), text.size());
        std::string_view stored(block.get(), text.size());
        m_blocks.insert(m_blocks.end() - (m_blocks.empty() ? 0 : 1), std::move(block));
        m_totalBytes += text.size();
        return stored;
    }
    if (m_blocks.empty() || m_blockUsed + text.size() > m_blockSize) {
        m_blocks.push_back(std::make_unique<char[]>(kBlockSize));
        m_blockSize = kBlockSize;
        m_blockUsed = 0;
    }
    char *dst = m_blocks.back().get() + m_blockUsed;
    if (!text.empty())
        std::memcpy(dst, text.data(), text.size());
    m_blockUsed += text.size();
    m_totalBytes += text.size();
    return {dst, text.size()};
}

} // namespace at
