#pragma once

// A multi-step Chrome trace made from a real one-step trace_view.json, as text: every event is
// repeated `copies` times with its "ts" integer microseconds shifted by copy × shiftUs,
// ProfilerStep#N renumbered and flow ids made unique per copy. Metadata (M) events are written
// once. For tests that need a real file (the GUI opens paths), not just a model (TiledModel.h).

#include "json/JsonEventScanner.h"

#include <QByteArray>
#include <QRegularExpression>
#include <QString>

namespace at::test {

inline QByteArray tileTraceJson(const QByteArray &trace, int copies, qint64 shiftUs)
{
    JsonEventScanner scanner(trace.constData(), static_cast<std::size_t>(trace.size()));
    QString problem;
    if (!scanner.locateEvents(&problem))
        return {};
    static const QRegularExpression ts(QStringLiteral("\"ts\": \"(\\d+)"));
    static const QRegularExpression step(QStringLiteral("ProfilerStep#(\\d+)"));
    static const QRegularExpression id(QStringLiteral("\"id\": (\"[^\"]*\"|\\d+)"));
    std::vector<QString> events;
    JsonEventScanner::Span span;
    while (scanner.next(span))
        events.push_back(
            QString::fromUtf8(trace.constData() + span.begin, static_cast<qsizetype>(span.end - span.begin)));
    QByteArray out = "[";
    bool first = true;
    for (int copy = 0; copy < copies; ++copy) {
        for (const QString &event : events) {
            const bool metadata = event.contains(QLatin1String("\"ph\": \"M\""));
            if (metadata && copy > 0)
                continue;
            QString e = event;
            if (copy > 0) {
                auto rewrite = [&e](const QRegularExpression &re, auto replacement) {
                    QString result;
                    qsizetype last = 0;
                    for (auto it = re.globalMatch(e); it.hasNext();) {
                        const auto m = it.next();
                        result += e.mid(last, m.capturedStart() - last) + replacement(m);
                        last = m.capturedEnd();
                    }
                    e = result + e.mid(last);
                };
                rewrite(ts, [&](const QRegularExpressionMatch &m) {
                    return QStringLiteral("\"ts\": \"%1").arg(m.captured(1).toLongLong() + copy * shiftUs);
                });
                rewrite(step, [&](const QRegularExpressionMatch &m) {
                    return QStringLiteral("ProfilerStep#%1").arg(m.captured(1).toLongLong() + copy);
                });
                rewrite(id, [&](const QRegularExpressionMatch &m) {
                    QString value = m.captured(1);
                    value.remove(QLatin1Char('"'));
                    return QStringLiteral("\"id\": \"%1_%2\"").arg(value).arg(copy);
                });
            }
            if (!first)
                out += ",\n";
            first = false;
            out += e.toUtf8();
        }
    }
    return out + "]";
}

} // namespace at::test
