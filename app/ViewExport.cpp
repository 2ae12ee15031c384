#include "ViewExport.h"

#include "OpenDialogs.h"
#include "TableExport.h"
#include "TimelineView.h"
#include "common/OutputPath.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QScrollBar>
#include <QSvgGenerator>

namespace at {

namespace {
// The view made as tall as its lanes for one grab, then put back as it was (size and scroll position).
QPixmap grabWholeHeight(TimelineView &view)
{
    QScrollBar *bar = view.verticalScrollBar();
    const int scroll = bar->value();
    const QSize size = view.size();
    const int hidden = bar->maximum() - bar->minimum();
    bar->setValue(bar->minimum());
    view.resize(size.width(), size.height() + hidden);
    const QPixmap image = view.grab();
    view.resize(size);
    bar->setValue(scroll);
    return image;
}
} // namespace

void installOutputFileWriter()
{
    setExportFileWriter([](const QString &path, QByteArrayView bytes, QString *why) {
        return writeOutputFile(path, bytes, why);
    });
}

bool exportTimelinePng(TimelineView &view, const QString &path, PngExtent extent)
{
    const QPixmap image = extent == PngExtent::WholeHeight ? grabWholeHeight(view) : view.grab();
    QBuffer encoded;
    encoded.open(QIODevice::WriteOnly);
    QString why;
    return image.save(&encoded, "PNG") && writeOutputFile(path, encoded.data(), &why);
}

bool exportTimelineSvg(TimelineView &view, const QString &title, const QString &description,
                       const QString &path, QString *error)
{
    // The view paints itself into the SVG generator (text stays text, shapes stay vectors).
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    const QSize size = view.viewport()->size();
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(title);
    generator.setDescription(description);
    view.viewport()->render(&generator);
    buffer.close();
    QString why;
    if (!writeOutputFile(path, buffer.data(), &why)) {
        *error = QCoreApplication::translate("ViewExport", "Could not write %1: %2").arg(path, why);
        return false;
    }
    return true;
}

QString saveViewImage(QWidget *parent, TimelineView &view, ViewImageFormat format, const QString &title,
                      const QString &description)
{
    const bool svg = format == ViewImageFormat::Svg;
    const QString path =
        svg ? chooseImageToSave(parent, QStringLiteral("timeline.svg"),
                                QCoreApplication::translate("ViewExport", "SVG images (*.svg)"))
            : chooseImageToSave(parent, QStringLiteral("timeline.png"),
                                QCoreApplication::translate("ViewExport", "PNG images (*.png)"));
    if (path.isEmpty())
        return {};
    QString error = QCoreApplication::translate("ViewExport", "Could not write %1").arg(path);
    const bool written =
        svg ? exportTimelineSvg(view, title, description, path, &error)
            : exportTimelinePng(view, path,
                                format == ViewImageFormat::WholeHeightPng ? PngExtent::WholeHeight
                                                                          : PngExtent::VisibleView);
    return written ? QString() : error;
}

} // namespace at
