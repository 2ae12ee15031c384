#pragma once

#include <QString>

class QWidget;

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

// File ▸ Export View as PNG / Export Whole Trace Height as PNG / Export View as SVG: asks where (a file
// dialog over parent), then writes. Returns the error to show, naming the file; empty when written or when
// the user chose no file. title and description go into an SVG.
enum class ViewImageFormat
{
    Png,
    WholeHeightPng,
    Svg
};
QString saveViewImage(QWidget *parent, TimelineView &view, ViewImageFormat format, const QString &title,
                      const QString &description);

} // namespace at
