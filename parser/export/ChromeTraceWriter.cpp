#include "ChromeTraceWriter.h"

#include "common/OutputPath.h"
#include <QCoreApplication>
#include <QFile>
#include <QHash>

#include <QSaveFile>

#include <cmath>

namespace at {

namespace {

void appendEscaped(QByteArray &out, QByteArrayView text)
{
    out += '"';
    for (const char c : text) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20)
                out += QByteArray("\\u00") +
                       QByteArray::number(static_cast<unsigned char>(c), 16).rightJustified(2, '0');
            else
                out += c;
        }
    }
    out += '"';
}

void appendEscaped(QByteArray &out, const QString &text)
{
    appendEscaped(out, QByteArrayView(text.toUtf8()));
}

// µs text with exactly 3 decimals from ns (negative values keep their sign).
QByteArray microsText(TimeNs ns)
{
    const bool negative = ns < 0;
    const std::uint64_t magnitude =
        negative ? 0 - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
    QByteArray text = negative ? QByteArray("-") : QByteArray();
    text += QByteArray::number(magnitude / 1000) + '.' +
            QByteArray::number(magnitude % 1000).rightJustified(3, '0');
    return text;
}

class Writer
{
public:
    Writer(const TraceModel &model, const ChromeTraceWriteOptions &options)
        : m_model(model), m_options(options)
    {
        m_base = model.fullBegin();
    }

    QByteArray run()
    {
        m_out = "{\"traceEvents\":[\n";
        for (std::size_t p = 0; p < m_model.processes().size(); ++p)
            writeProcess(static_cast<int>(p));
        writeFlows();
        if (m_out.endsWith(",\n"))
            m_out.chop(2);
        m_out += "\n]}\n";
        return std::move(m_out);
    }

private:
    void appendTs(TimeNs relative)
    {
        m_out += "\"ts\":";
        if (m_options.perfetto) {
            m_out += microsText(relative - m_base);
        } else {
            m_out += '"' + microsText(m_model.origin() + relative) + '"';
        }
    }

    void appendTid(int thread)
    {
        const ThreadInfo &t = m_model.threads()[static_cast<std::size_t>(thread)];
        m_out += "\"tid\":";
        if (t.tid.text == 0) {
            m_out += QByteArray::number(t.tid.number);
        } else if (m_options.perfetto) {
            m_out += QByteArray::number(1000000 + thread); // text tids become unique numbers
        } else {
            appendEscaped(m_out, QByteArrayView(m_model.strings().view(t.tid.text)));
        }
    }

    void metadata(const char *name, int process, int thread, const QByteArray &argsJson)
    {
        m_out += "{\"ph\":\"M\",\"name\":\"";
        m_out += name;
        m_out += "\",\"pid\":" + QByteArray::number(process + 1);
        if (thread >= 0) {
            m_out += ',';
            appendTid(thread);
        }
        m_out += ",\"args\":" + argsJson + "},\n";
    }

    QByteArray nameArg(StringId id) const
    {
        QByteArray a = "{\"name\":";
        appendEscaped(a, QByteArrayView(m_model.strings().view(id)));
        return a + '}';
    }

    void writeProcess(int p)
    {
        const ProcessInfo &process = m_model.processes()[static_cast<std::size_t>(p)];
        if (process.name)
            metadata("process_name", p, -1, nameArg(process.name));
        if (process.labels) {
            QByteArray a = "{\"labels\":";
            appendEscaped(a, QByteArrayView(m_model.strings().view(process.labels)));
            metadata("process_labels", p, -1, a + '}');
        }
        if (process.sortIndex)
            metadata("process_sort_index", p, -1,
                     "{\"sort_index\":" + QByteArray::number(*process.sortIndex) + '}');
        for (const int t : process.threads) {
            const ThreadInfo &thread = m_model.threads()[static_cast<std::size_t>(t)];
            if (thread.name)
                metadata("thread_name", p, t, nameArg(thread.name));
            if (thread.sortIndex)
                metadata("thread_sort_index", p, t,
                         "{\"sort_index\":" + QByteArray::number(*thread.sortIndex) + '}');
            const SliceTable &slices = thread.slices;
            for (std::uint32_t i = 0; i < slices.size(); ++i) {
                m_out += "{\"ph\":\"X\",\"name\":";
                appendEscaped(m_out, QByteArrayView(m_model.strings().view(slices.name(i))));
                if (slices.category(i)) {
                    m_out += ",\"cat\":";
                    appendEscaped(m_out, QByteArrayView(m_model.strings().view(slices.category(i))));
                }
                m_out += ",\"pid\":" + QByteArray::number(p + 1) + ',';
                appendTid(t);
                m_out += ',';
                appendTs(slices.start(i));
                m_out += ",\"dur\":";
                m_out += m_options.perfetto ? microsText(slices.duration(i))
                                            : '"' + microsText(slices.duration(i)) + '"';
                const auto args = m_model.sliceArgs(SliceRef{t, i});
                if (!args.empty()) {
                    m_out += ",\"args\":{";
                    bool first = true;
                    for (const auto &[key, value] : args) {
                        if (!first)
                            m_out += ',';
                        first = false;
                        appendEscaped(m_out, key);
                        m_out += ':';
                        appendEscaped(m_out, value);
                    }
                    m_out += '}';
                }
                m_out += "},\n";
            }
        }
        for (const int c : process.counters) {
            const CounterSeries &series = m_model.counters()[static_cast<std::size_t>(c)];
            for (std::size_t i = 0; i < series.times.size(); ++i) {
                m_out += "{\"ph\":\"C\",\"name\":";
                appendEscaped(m_out, QByteArrayView(m_model.strings().view(series.name)));
                m_out += ",\"pid\":" + QByteArray::number(p + 1) + ",\"tid\":0,";
                appendTs(series.times[i]);
                m_out += ",\"args\":{";
                appendEscaped(m_out, QByteArrayView(m_model.strings().view(series.seriesKey ? series.seriesKey
                                                                                            : series.name)));
                const double v = series.values[i];
                m_out +=
                    ':' + (std::isfinite(v) ? QByteArray::number(v, 'g', 17) : QByteArray("0")) + "}},\n";
            }
        }
    }

    void flowHalf(const char *ph, const FlowInfo &f, SliceRef ref, TimeNs ts, std::size_t index)
    {
        const ThreadInfo &thread = m_model.threads()[static_cast<std::size_t>(ref.thread)];
        m_out += "{\"ph\":\"";
        m_out += ph;
        m_out += "\",\"bp\":\"e\",\"name\":";
        appendEscaped(m_out, QByteArrayView(m_model.strings().view(f.name)));
        m_out += ",\"cat\":";
        appendEscaped(m_out, QByteArrayView(m_model.strings().view(f.category)));
        m_out += ",\"id\":";
        if (m_options.perfetto)
            m_out += QByteArray::number(static_cast<qulonglong>(index) + 1);
        else
            appendEscaped(m_out, QByteArrayView(m_model.strings().view(f.id)));
        m_out += ",\"pid\":" + QByteArray::number(thread.process + 1) + ',';
        appendTid(ref.thread);
        m_out += ',';
        appendTs(ts);
        m_out += "},\n";
    }

    void writeFlows()
    {
        for (std::size_t i = 0; i < m_model.flows().size(); ++i) {
            const FlowInfo &f = m_model.flows()[i];
            if (!f.from.isValid() || !f.to.isValid())
                continue;
            flowHalf("s", f, f.from, f.fromTime, i);
            flowHalf("f", f, f.to, f.toTime, i);
        }
    }

    const TraceModel &m_model;
    ChromeTraceWriteOptions m_options;
    TimeNs m_base = 0;
    QByteArray m_out;
};

} // namespace

bool writeChromeTrace(const TraceModel &model, const QString &path, const ChromeTraceWriteOptions &options,
                      QString *error)
{
    const QByteArray bytes = Writer(model, options).run();
    QString why;
    if (!writeOutputFile(path, bytes, &why, inputFilesOf(model))) {
        if (error)
            *error = QCoreApplication::translate("Parser", "%1: cannot write: %2").arg(path, why);
        return false;
    }
    return true;
}

} // namespace at
