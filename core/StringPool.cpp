#include "StringPool.h"

#include <cstring>

namespace at {
namespace {
constexpr std::size_t kBlockSize = 256 * 1024;
}

StringPool::StringPool()
{
    m_views.emplace_back();
    m_ids.emplace(std::string_view(), 0);
    m_indexed = 1;
}

StringId StringPool::intern(std::string_view text)
{
    if (m_indexed < m_views.size())
        indexAppended();
    if (auto it = m_ids.find(text); it != m_ids.end())
        return it->second;
    const std::string_view stored = store(text);
    const auto id = static_cast<StringId>(m_views.size());
    m_views.push_back(stored);
    m_ids.emplace(stored, id);
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
    m_ids.reserve(m_views.size());
    for (; m_indexed < m_views.size(); ++m_indexed)
        m_ids.emplace(m_views[m_indexed], static_cast<StringId>(m_indexed)); // the first of equal texts wins
}

StringId StringPool::find(std::string_view text) const
{
    std::lock_guard lock(m_indexMutex);
    if (m_indexed < m_views.size())
        indexAppended();
    auto it = m_ids.find(text);
    return it == m_ids.end() ? kNotFound : it->second;
}

QString StringPool::qstring(StringId id) const
{
    const std::string_view v = view(id);
    return QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size()));
}

std::size_t StringPool::bytesUsed() const
{
    return m_totalBytes + m_views.size() * (sizeof(std::string_view) * 2 + sizeof(StringId));
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
