// The chunked parse gives the same model whatever the thread count, chunk size and SIMD kernel:
// chunks are parsed into plain records on worker threads and merged into the builder in file order.
#include "ParserTestUtil.h"
#include "TiledTrace.h"

#include "json/ChromeTraceParser.h"
#include "json/ChunkKernel.h"

#include <QCryptographicHash>
#include <QTest>

using namespace at;

namespace {

struct Options
{
    int threads = 1;
    std::size_t chunkBytes = 0;
    bool portable = false;
};

// Every field of the built model that the parser influences, as text (diffable on failure).
QByteArray dump(const TraceModel &m)
{
    QByteArray out;
    auto line = [&out](const QString &s) { out += s.toUtf8() + '\n'; };
    for (std::size_t i = 0; i < m.strings().size(); ++i)
        out += "s " +
               QByteArray(m.strings().view(static_cast<StringId>(i)).data(),
                          static_cast<qsizetype>(m.strings().view(static_cast<StringId>(i)).size())) +
               '\n';
    const EventCounts &c = m.eventCounts();
    line(QStringLiteral("counts %1 %2 %3 %4 %5 %6 %7 %8 %9 %10")
             .arg(c.complete)
             .arg(c.begin)
             .arg(c.end)
             .arg(c.instant)
             .arg(c.counter)
             .arg(c.flowStart)
             .arg(c.flowStep)
             .arg(c.flowEnd)
             .arg(c.metadata)
             .arg(c.other));
    line(QStringLiteral("time %1 %2 %3 %4 %5 %6")
             .arg(m.origin())
             .arg(m.dataBegin())
             .arg(m.dataEnd())
             .arg(m.fullBegin())
             .arg(m.fullEnd())
             .arg(m.outlierCount()));
    for (const QString &w : m.warnings())
        line(QStringLiteral("warning ") + w);
    for (const ProcessInfo &p : m.processes()) {
        QStringList threads, counters;
        for (int t : p.threads)
            threads << QString::number(t);
        for (int k : p.counters)
            counters << QString::number(k);
        line(QStringLiteral("process %1 %2/%3 %4 %5 %6 %7 t[%8] c[%9]")
                 .arg(p.group)
                 .arg(p.pid.number)
                 .arg(p.pid.text)
                 .arg(p.name)
                 .arg(p.labels)
                 .arg(p.sortIndex ? QString::number(*p.sortIndex) : QStringLiteral("-"))
                 .arg(int(p.layer))
                 .arg(threads.join(u','), counters.join(u',')));
    }
    for (const ThreadInfo &t : m.threads()) {
        line(QStringLiteral("thread %1 %2/%3 %4 %5 %6")
                 .arg(t.process)
                 .arg(t.tid.number)
                 .arg(t.tid.text)
                 .arg(t.name)
                 .arg(t.sortIndex ? QString::number(*t.sortIndex) : QStringLiteral("-"))
                 .arg(t.slices.size()));
        for (std::uint32_t i = 0; i < t.slices.size(); ++i)
            out += QByteArray::number(t.slices.start(i)) + ' ' + QByteArray::number(t.slices.duration(i)) +
                   ' ' + QByteArray::number(t.slices.name(i)) + ' ' +
                   QByteArray::number(t.slices.category(i)) + ' ' + QByteArray::number(t.slices.parent(i)) +
                   ' ' + QByteArray::number(static_cast<qulonglong>(t.slices.source(i))) + '\n';
    }
    for (const CounterSeries &s : m.counters()) {
        line(QStringLiteral("counter %1 %2 %3 %4")
                 .arg(s.process)
                 .arg(s.name)
                 .arg(s.seriesKey)
                 .arg(s.times.size()));
        for (std::size_t i = 0; i < s.times.size(); ++i)
            out += QByteArray::number(s.times[i]) + ' ' + QByteArray::number(s.values[i], 'g', 17) + '\n';
    }
    for (const FlowInfo &f : m.flows())
        line(QStringLiteral("flow %1 %2 %3 %4:%5 %6:%7 %8 %9")
                 .arg(f.category)
                 .arg(f.name)
                 .arg(f.id)
                 .arg(f.from.thread)
                 .arg(f.from.index)
                 .arg(f.to.thread)
                 .arg(f.to.index)
                 .arg(f.fromTime)
                 .arg(f.toTime));
    return out;
}

QByteArray parseToDump(const QByteArray &json, const Options &o, int *threadsUsed = nullptr)
{
    TraceBuilder builder;
    const std::uint32_t source = builder.addSource(QStringLiteral("test.json"), nullptr);
    ChromeTraceParser parser(builder, source, QStringLiteral("test.json"));
    ParseControl control;
    control.threads = o.threads;
    control.chunkBytes = o.chunkBytes;
    control.portableKernel = o.portable;
    QString error;
    const auto status =
        parser.parse(json.constData(), static_cast<std::size_t>(json.size()), control, &error);
    if (status != ChromeTraceParser::Result::Ok)
        return "failed: " + error.toUtf8();
    if (threadsUsed)
        *threadsUsed = parser.threadsUsed();
    auto model = builder.build();
    return dump(*model);
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

void compareAll(const QByteArray &json)
{
    // The reference: one thread, one big chunk, the kernel this CPU gets.
    const QByteArray reference = parseToDump(json, {1, 1u << 30, false});
    QVERIFY(!reference.startsWith("failed"));
    QVERIFY(reference.contains("\nthread "));
    const std::vector<Options> variants = {
        {1, 0, false},        {2, 0, false},    {1, 16 << 10, false}, {2, 16 << 10, false},
        {3, 16 << 10, false}, {2, 1000, false}, {2, 16 << 10, true},  {1, 1u << 30, true},
    };
    for (const Options &o : variants) {
        int used = 0;
        const QByteArray other = parseToDump(json, o, &used);
        QCOMPARE(used, o.threads);
        if (other != reference) {
            // Show the first differing line.
            const auto a = reference.split('\n'), b = other.split('\n');
            for (qsizetype i = 0; i < std::min(a.size(), b.size()); ++i)
                if (a[i] != b[i])
                    QFAIL(qPrintable(QStringLiteral("threads %1 chunk %2 portable %3: line %4: '%5' vs '%6'")
                                         .arg(o.threads)
                                         .arg(o.chunkBytes)
                                         .arg(o.portable)
                                         .arg(i)
                                         .arg(QString::fromUtf8(a[i]), QString::fromUtf8(b[i]))));
            QFAIL("dumps differ in length");
        }
    }
}

} // namespace

class TestParserThreads : public QObject
{
    Q_OBJECT
private slots:
    void kernelChoice()
    {
        qInfo("chunk kernel: %s", ChromeTraceParser::kernelName());
        QCOMPARE(QByteArray(jsonkernel::genericKernel().name), QByteArray("generic"));
        if (const jsonkernel::Kernel *fast = jsonkernel::haswellKernel())
            QCOMPARE(QByteArray(fast->name), QByteArray("haswell"));
    }

    // The kernels' fast paths for ts/dur and pid/tid text agree with core/Time.h on every shape.
    void fastNumberPathsMatchTimeH()
    {
        std::vector<std::string> texts = {"",
                                          ".5",
                                          "1.",
                                          "-1.5",
                                          "+3",
                                          " 12",
                                          "1e3",
                                          "0001.1",
                                          "145.57",
                                          "1736408883688177.930",
                                          "1736408883688177.9305",
                                          "9223372036854775.807",
                                          "9223372036854775.808",
                                          "9223372036854776",
                                          "99999999999999999",
                                          "123456789012345678",
                                          "1234567890123456789",
                                          "12.3.4"};
        std::uint32_t seed = 7;
        auto next = [&seed] {
            seed = seed * 1664525u + 1013904223u;
            return seed >> 8;
        };
        for (int k = 0; k < 20000; ++k) {
            std::string t;
            const unsigned whole = next() % 19;
            for (unsigned i = 0; i < whole; ++i)
                t += static_cast<char>('0' + next() % 10);
            if (next() % 2) {
                t += '.';
                const unsigned fraction = next() % 6;
                for (unsigned i = 0; i < fraction; ++i)
                    t += static_cast<char>('0' + next() % 10);
            }
            texts.push_back(t);
        }
        for (const std::string &t : texts) {
            for (bool halfUp : {false, true}) {
                std::int64_t ns = -1;
                const bool ok = jsonkernel::parseTimeNs(t, halfUp, &ns);
                const auto expected =
                    parseMicrosToNs(t, halfUp ? FractionRounding::HalfUp : FractionRounding::Truncate);
                QVERIFY2(ok == expected.has_value() && (!ok || ns == *expected), t.c_str());
            }
            std::int64_t value = -1;
            const bool ok = jsonkernel::parseInteger(t, &value);
            const auto expected = parseInt64(t);
            QVERIFY2(ok == expected.has_value() && value == expected.value_or(0), t.c_str());
        }
    }

    void realSampleSameModel() { compareAll(readFile(pt::samplePath(pt::kLevel1Rank0))); }

    void otherSamplesSameModel()
    {
        for (const char *sample : {pt::kLevel2Rank0, pt::kHeatMap, pt::kMsprof001})
            compareAll(readFile(pt::samplePath(sample)));
    }

    void tiledTraceSameModel()
    {
        compareAll(at::test::tileTraceJson(readFile(pt::samplePath(pt::kLevel1Rank0)), 12, 1'000'000));
    }

    // A cancelled parse returns Cancelled promptly with any thread count (and never hangs).
    void cancelStops()
    {
        const QByteArray json =
            at::test::tileTraceJson(readFile(pt::samplePath(pt::kLevel1Rank0)), 6, 1'000'000);
        for (int threads : {1, 2, 3}) {
            TraceBuilder builder;
            const std::uint32_t source = builder.addSource(QStringLiteral("test.json"), nullptr);
            ChromeTraceParser parser(builder, source, QStringLiteral("test.json"));
            std::atomic<bool> cancel{true};
            ParseControl control;
            control.cancel = &cancel;
            control.threads = threads;
            control.chunkBytes = 64 << 10;
            QString error;
            QCOMPARE(parser.parse(json.constData(), static_cast<std::size_t>(json.size()), control, &error),
                     ChromeTraceParser::Result::Cancelled);
            QVERIFY(parser.eventsRead() < 10000);
        }
    }

    // A chunk with an unreadable event falls back to event-by-event parsing; the warnings (count,
    // first offset) and the model stay the same.
    void badEventsSameModel()
    {
        QByteArray json = at::test::tileTraceJson(readFile(pt::samplePath(pt::kLevel1Rank0)), 4, 1'000'000);
        const QByteArray bad = R"({"ph": "X", "name": "bad" "ts": 1, "pid": 1, "tid": 1})";
        for (qsizetype at : {json.size() / 5, json.size() / 2, json.size() * 4 / 5}) {
            const qsizetype next = json.indexOf("\n{", at);
            QVERIFY(next > 0);
            json.insert(next + 1, bad + ",\n");
        }
        const QByteArray reference = parseToDump(json, {1, 1u << 30, false});
        QVERIFY2(reference.contains("3 events could not be read"), reference.left(2000).constData());
        compareAll(json);
    }
};

QTEST_GUILESS_MAIN(TestParserThreads)
#include "tst_parser_threads.moc"
