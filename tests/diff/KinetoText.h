#pragma once
// The events of a pretty-printed Kineto trace as text blocks (FORMATS.md §10.1: libkineto writes every event
// over several lines between "  {" and "  },"), read and rewritten by the diff tests without the parser under
// test. Times are kept as their decimal text and converted to int64 ns exactly.

#include "common/Decompress.h"

#include <QFile>
#include <QHash>
#include <QRegularExpression>
#include <QStringList>

#include <optional>

namespace at::test {

// "4458676983543.183" (µs) → 4458676983543183 ns, exactly (no double).
inline qint64 microsTextToNs(const QString &text)
{
    const qsizetype dot = text.indexOf(QLatin1Char('.'));
    const QString whole = dot < 0 ? text : text.left(dot);
    QString fraction = dot < 0 ? QString() : text.mid(dot + 1);
    fraction = (fraction + QStringLiteral("000")).left(3);
    return whole.toLongLong() * 1000 + fraction.toLongLong();
}

inline QString nsToMicrosText(qint64 ns)
{
    return QStringLiteral("%1.%2").arg(ns / 1000).arg(ns % 1000, 3, 10, QLatin1Char('0'));
}

struct KinetoEvent
{
    int firstLine = 0, lastLine = 0; // the block's lines, "  {" .. "  },"
    QString ph, cat, name, pid, tid;
    qint64 ts = -1, dur = -1; // ns
    qint64 correlation = -1, id = -1;
    bool isOp() const
    {
        return ph == QLatin1String("X") &&
               (cat == QLatin1String("cpu_op") || cat == QLatin1String("user_annotation"));
    }
    bool isDeviceWork() const
    {
        return ph == QLatin1String("X") &&
               (cat == QLatin1String("kernel") || cat == QLatin1String("gpu_memcpy") ||
                cat == QLatin1String("gpu_memset"));
    }
    qint64 end() const { return ts + dur; }
};

class KinetoText
{
public:
    // Reads a .json or .json.gz trace; false when it cannot be read.
    bool read(const QString &path)
    {
        QString error;
        const Compression compression = detectCompression(path);
        const auto temporary = compression == Compression::None
                                   ? nullptr
                                   : decompressToTemporaryFile(path, compression, {}, &error);
        QFile file(temporary ? temporary->fileName() : path);
        if (!file.open(QIODevice::ReadOnly))
            return false;
        lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
        parse();
        return !events.empty();
    }

    QString text() const { return lines.join(QLatin1Char('\n')); }

    // Writes a new dur (ns) into an event's text.
    void setDuration(const KinetoEvent &event, qint64 durNs)
    {
        static const QRegularExpression dur(QStringLiteral("\"dur\": [0-9.]+"));
        for (int l = event.firstLine; l <= event.lastLine; ++l)
            if (lines[l].contains(dur)) {
                lines[l].replace(dur, QStringLiteral("\"dur\": ") + nsToMicrosText(durNs));
                return;
            }
    }

    // Writes a new ts (ns) into an event's text.
    void setStart(const KinetoEvent &event, qint64 tsNs)
    {
        static const QRegularExpression ts(QStringLiteral("\"ts\": [0-9.]+"));
        for (int l = event.firstLine; l <= event.lastLine; ++l)
            if (lines[l].contains(ts)) {
                lines[l].replace(ts, QStringLiteral("\"ts\": ") + nsToMicrosText(tsNs));
                return;
            }
    }

    void rename(const KinetoEvent &event, const QString &name)
    {
        static const QRegularExpression field(QStringLiteral("\"name\": \"(?:[^\"\\\\]|\\\\.)*\""));
        const QRegularExpressionMatch m = lines[event.firstLine + 1].indexOf(field) >= 0
                                              ? field.match(lines[event.firstLine + 1])
                                              : QRegularExpressionMatch();
        if (m.hasMatch())
            lines[event.firstLine + 1].replace(m.capturedStart(), m.capturedLength(),
                                               QStringLiteral("\"name\": \"%1\"").arg(name));
    }

    // Blanks an event's lines (the JSON stays valid: the block and its trailing comma go together).
    void remove(const KinetoEvent &event)
    {
        for (int l = event.firstLine; l <= event.lastLine; ++l)
            lines[l].clear();
    }

    QStringList lines;
    std::vector<KinetoEvent> events;

private:
    static QString field(const QString &block, const QRegularExpression &re)
    {
        const QRegularExpressionMatch m = re.match(block);
        return m.hasMatch() ? m.captured(1) : QString();
    }

    void parse()
    {
        static const QRegularExpression ph(QStringLiteral("\"ph\": \"([^\"]*)\""));
        static const QRegularExpression cat(QStringLiteral("\"cat\": \"([^\"]*)\""));
        static const QRegularExpression name(QStringLiteral("\"name\": \"((?:[^\"\\\\]|\\\\.)*)\""));
        static const QRegularExpression pid(QStringLiteral("\"pid\": (\"[^\"]*\"|-?[0-9]+)"));
        static const QRegularExpression tid(QStringLiteral("\"tid\": (\"[^\"]*\"|-?[0-9]+)"));
        static const QRegularExpression ts(QStringLiteral("\"ts\": ([0-9.]+)"));
        static const QRegularExpression dur(QStringLiteral("\"dur\": ([0-9.]+)"));
        static const QRegularExpression correlation(QStringLiteral("\"correlation\": ([0-9]+)"));
        static const QRegularExpression id(QStringLiteral("\"id\": ([0-9]+)"));
        int first = -1;
        for (int l = 0; l < lines.size(); ++l) {
            if (lines[l] == QLatin1String("  {")) {
                first = l;
                continue;
            }
            if (first < 0 || (lines[l] != QLatin1String("  },") && lines[l] != QLatin1String("  }")))
                continue;
            QString block;
            for (int k = first; k <= l; ++k)
                block += lines[k] + QLatin1Char('\n');
            // Keys of the event itself come before "args".
            const QString head = block.left(block.indexOf(QLatin1String("\"args\"")) < 0
                                                ? block.size()
                                                : block.indexOf(QLatin1String("\"args\"")));
            KinetoEvent e;
            e.firstLine = first;
            e.lastLine = l;
            e.ph = field(head, ph);
            e.cat = field(head, cat);
            e.name = field(head, name);
            e.pid = field(head, pid);
            e.tid = field(head, tid);
            const QString tsText = field(head, ts), durText = field(head, dur);
            e.ts = tsText.isEmpty() ? -1 : microsTextToNs(tsText);
            e.dur = durText.isEmpty() ? -1 : microsTextToNs(durText);
            const QString corr = field(block, correlation), idText = field(head, id);
            e.correlation = corr.isEmpty() ? -1 : corr.toLongLong();
            e.id = idText.isEmpty() ? -1 : idText.toLongLong();
            events.push_back(e);
            first = -1;
        }
    }
};

// The oracle of FORMATS.md §10.7: each GPU work item's launching op = the innermost cpu_op/user_annotation on
// the runtime call's thread that encloses the call (joined by correlation). Index into events, or -1.
inline std::vector<int> launchingOps(const KinetoText &trace)
{
    QHash<qint64, int> runtimeOf;
    QHash<QString, std::vector<int>> opsOfThread;
    for (int i = 0; i < static_cast<int>(trace.events.size()); ++i) {
        const KinetoEvent &e = trace.events[static_cast<std::size_t>(i)];
        if (e.ph == QLatin1String("X") &&
            (e.cat == QLatin1String("cuda_runtime") || e.cat == QLatin1String("cuda_driver")))
            runtimeOf.insert(e.correlation, i);
        if (e.isOp() && !e.name.startsWith(QLatin1String("ProfilerStep#")))
            opsOfThread[e.pid + QLatin1Char('/') + e.tid].push_back(i);
    }
    std::vector<int> owner(trace.events.size(), -1);
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const KinetoEvent &e = trace.events[i];
        if (!e.isDeviceWork() || !runtimeOf.contains(e.correlation))
            continue;
        const KinetoEvent &call = trace.events[static_cast<std::size_t>(runtimeOf.value(e.correlation))];
        int best = -1;
        for (const int o : opsOfThread.value(call.pid + QLatin1Char('/') + call.tid)) {
            const KinetoEvent &op = trace.events[static_cast<std::size_t>(o)];
            if (op.ts <= call.ts && call.ts <= op.end() &&
                (best < 0 || op.dur < trace.events[static_cast<std::size_t>(best)].dur))
                best = o;
        }
        owner[i] = best;
    }
    return owner;
}

} // namespace at::test
