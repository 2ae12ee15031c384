#pragma once

#include <QString>

namespace at {

class TimelineView;

// What a PNG export holds: the timeline as it is shown, or every lane (the whole trace height, also
// the lanes scrolled out of sight) at the shown time range.
enum class PngExtent
{
    VisibleView,
    WholeHeight
};

// Makes the widgets' exports (tables, the kernel table) write through parser/common/OutputPath.
void installOutputFileWriter();

// The timeline as a PNG image (File ▸ Export View as PNG / Export Whole Trace Height as PNG).
bool exportTimelinePng(TimelineView &view, const QString &path, PngExtent extent = PngExtent::VisibleView);
// The same view as vector graphics (text stays text); false with *error naming the file.
bool exportTimelineSvg(TimelineView &view, const QString &title, const QString &description,
                       const QString &path, QString *error);

} // namespace at
