#pragma once

#include <QString>

namespace at {

class TimelineView;

// The timeline as it is shown, as a PNG image (File ▸ Export View as PNG).
bool exportTimelinePng(TimelineView &view, const QString &path);
// The same view as vector graphics (text stays text); false with *error naming the file.
bool exportTimelineSvg(TimelineView &view, const QString &title, const QString &description,
                       const QString &path, QString *error);

} // namespace at
