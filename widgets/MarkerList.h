#pragma once

#include "Session.h"

#include <QObject>

#include <vector>

namespace at {

// The markers of one window (m: a slice's range, k: a flag), shared by the timeline that draws them
// and the Markers dock that lists them. Emits changed() after every edit.
class MarkerList : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    const std::vector<Marker> &markers() const { return m_markers; }
    int size() const { return static_cast<int>(m_markers.size()); }
    const Marker &at(int i) const { return m_markers[static_cast<std::size_t>(i)]; }

    int add(Marker marker);
    void rename(int i, const QString &name);
    void recolor(int i, std::uint32_t rgb);
    void remove(int i);
    void setAll(std::vector<Marker> markers);
    // "Flag 3", "Range 2": the next unused default name.
    QString nextName(bool flag) const;

Q_SIGNALS:
    void changed();

private:
    std::vector<Marker> m_markers;
};

// Marker colours offered by the dock (and cycled through for new markers).
const std::vector<std::uint32_t> &markerPalette();

} // namespace at
