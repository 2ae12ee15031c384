#include "SliceColors.h"

namespace at {

QColor SliceColors::colorForText(std::string_view text)
{
    // FNV-1a: stable across runs and platforms (qHash is seeded per process).
    std::uint32_t h = 2166136261u;
    for (char c : text) {
        h ^= static_cast<unsigned char>(c);
        h *= 16777619u;
    }
    const int hue = static_cast<int>(h % 360);
    const int saturation = 110 + static_cast<int>((h >> 9) % 60);
    const int value = 190 + static_cast<int>((h >> 17) % 45);
    return QColor::fromHsv(hue, saturation, value);
}

QColor SliceColors::colorFor(const StringPool &strings, StringId name)
{
    if (m_cache.size() < strings.size())
        m_cache.resize(strings.size(), 0);
    QRgb &cached = m_cache[name];
    if (cached == 0)
        cached = colorForText(strings.view(name)).rgb();
    return QColor::fromRgb(cached);
}

} // namespace at
