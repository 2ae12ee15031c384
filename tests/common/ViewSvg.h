#pragma once

#include <QBuffer>
#include <QString>
#include <QSvgGenerator>
#include <QWidget>

namespace at::test {

// What a widget paints, as SVG text: painted text stays text, so a test can read the labels a view
// drew (ruler ticks, lane names) instead of guessing from pixels.
inline QString paintedSvg(QWidget *widget)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(widget->size());
    widget->render(&generator);
    return QString::fromUtf8(buffer.data());
}

} // namespace at::test
