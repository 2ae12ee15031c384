#include "ViewExport.h"

#include "TimelineView.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QSaveFile>
#include <QSvgGenerator>

namespace at {

bool exportTimelinePng(TimelineView &view, const QString &path)
{
    return view.grab().save(path, "PNG");
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
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(buffer.data()) != buffer.data().size() ||
        !file.commit()) {
        *error =
            QCoreApplication::translate("ViewExport", "Could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace at
