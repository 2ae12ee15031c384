#include "MarkerList.h"

#include <QSet>

namespace at {

const std::vector<std::uint32_t> &markerPalette()
{
    static const std::vector<std::uint32_t> colors = {0xE6550D, 0x3182BD, 0x31A354,
                                                      0x756BB1, 0xD6616B, 0x636363};
    return colors;
}

int MarkerList::add(Marker marker)
{
    if (marker.name.isEmpty())
        marker.name = nextName(marker.isFlag());
    m_markers.push_back(std::move(marker));
    Q_EMIT changed();
    return size() - 1;
}

void MarkerList::rename(int i, const QString &name)
{
    if (i < 0 || i >= size() || m_markers[static_cast<std::size_t>(i)].name == name)
        return;
    m_markers[static_cast<std::size_t>(i)].name = name;
    Q_EMIT changed();
}

void MarkerList::recolor(int i, std::uint32_t rgb)
{
    if (i < 0 || i >= size())
        return;
    m_markers[static_cast<std::size_t>(i)].rgb = rgb;
    Q_EMIT changed();
}

void MarkerList::remove(int i)
{
    if (i < 0 || i >= size())
        return;
    m_markers.erase(m_markers.begin() + i);
    Q_EMIT changed();
}

void MarkerList::setAll(std::vector<Marker> markers)
{
    m_markers = std::move(markers);
    Q_EMIT changed();
}

QString MarkerList::nextName(bool flag) const
{
    // A new marker's name, in the language of the moment (names are the user's data afterwards). The names
    // in use are hashed once: trying "Flag 1", "Flag 2", … against every marker was quadratic (a session of
    // a million flags named so would hang the k key).
    const QString base = flag ? tr("Flag %1") : tr("Range %1");
    QSet<QString> used;
    used.reserve(size());
    for (const Marker &m : m_markers)
        used.insert(m.name);
    for (int n = 1;; ++n) {
        QString name = base.arg(n);
        if (!used.contains(name))
            return name;
    }
}

} // namespace at
