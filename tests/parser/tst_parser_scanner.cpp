// parser/json/JsonEventScanner (event spans without parsing, all the container quirks of
// FORMATS.md §2.1) and ChromeTraceParser driven directly from memory. Offsets are counted by hand.

#include "TraceBuilder.h"
#include "json/ChromeTraceParser.h"
#include "json/JsonEventScanner.h"

#include <QTest>

using at::JsonEventScanner;
using State = at::JsonEventScanner::State;

namespace {

struct Scan
{
    bool located = false;
    QString problem;
    std::vector<std::pair<std::size_t, std::size_t>> spans;
    State state = State::Events;
    std::size_t problemOffset = 0;
    bool trailingComma = false;
};

Scan scan(const QByteArray &data)
{
    Scan s;
    JsonEventScanner scanner(data.constData(), static_cast<std::size_t>(data.size()));
    s.located = scanner.locateEvents(&s.problem);
    if (!s.located)
        return s;
    JsonEventScanner::Span span;
    while (scanner.next(span))
        s.spans.emplace_back(span.begin, span.end);
    s.state = scanner.state();
    s.problemOffset = scanner.problemOffset();
    s.trailingComma = scanner.sawTrailingComma();
    if (s.problem.isEmpty())
        s.problem = scanner.problem();
    return s;
}

using Spans = std::vector<std::pair<std::size_t, std::size_t>>;

} // namespace

class TestParserScanner : public QObject
{
    Q_OBJECT

private slots:
    void arrayForm()
    {
        //                  0         1         2
        //                  0123456789012345678901234567
        const QByteArray d("[ {\"a\":1} ,\n{\"b\":\"}\"} ]");
        const Scan s = scan(d);
        QVERIFY(s.located);
        QCOMPARE(s.spans, (Spans{{2, 9}, {12, 21}}));
        QCOMPARE(s.state, State::Finished);
        QVERIFY(!s.trailingComma);
    }

    void objectFormSkipsOtherKeys()
    {
        // A nested "traceEvents" and brackets inside strings before the real one.
        const QByteArray d("{\"meta\": {\"traceEvents\": [{\"x\":1}]}, \"s\": \"[{\", \"traceEvents\": "
                           "[{\"a\":1}], \"z\": 1}");
        const Scan s = scan(d);
        QVERIFY2(s.located, qPrintable(s.problem));
        QCOMPARE(s.spans.size(), std::size_t(1));
        QCOMPARE(d.mid(static_cast<qsizetype>(s.spans[0].first),
                       static_cast<qsizetype>(s.spans[0].second - s.spans[0].first)),
                 QByteArray("{\"a\":1}"));
        QCOMPARE(s.state, State::Finished);
    }

    void trailingAndDoubledCommas()
    {
        Scan s = scan("[{\"a\":1},]");
        QCOMPARE(s.spans, (Spans{{1, 8}}));
        QCOMPARE(s.state, State::Finished);
        QVERIFY(s.trailingComma);
        s = scan("[{\"a\":1},,{\"b\":2}]");
        QCOMPARE(s.spans, (Spans{{1, 8}, {10, 17}}));
        QCOMPARE(s.state, State::Finished);
    }

    void missingClosingBracket()
    {
        Scan s = scan("[{\"a\":1}\n");
        QCOMPARE(s.spans, (Spans{{1, 8}}));
        QCOMPARE(s.state, State::Truncated);
        QCOMPARE(s.problemOffset, std::size_t(9)); // the end of the data
        s = scan("[{\"a\":1},");
        QCOMPARE(s.spans, (Spans{{1, 8}}));
        QCOMPARE(s.state, State::Truncated);
    }

    void cutInsideEvent()
    {
        // The second event starts at byte 9 and never ends.
        Scan s = scan("[{\"a\":1},{\"b\":{\"c\":\"}}}");
        QCOMPARE(s.spans, (Spans{{1, 8}}));
        QCOMPARE(s.state, State::Truncated);
        QCOMPARE(s.problemOffset, std::size_t(9));
        // Ends with a lone backslash inside a string: the quote after it would be escaped.
        s = scan("[{\"a\":\"x\\");
        QVERIFY(s.spans.empty());
        QCOMPARE(s.state, State::Truncated);
        QCOMPARE(s.problemOffset, std::size_t(1));
    }

    void malformed()
    {
        // Not a JSON value at all (a number, string, null or array is skipped: tst_content_json).
        const Scan s = scan("[{\"a\":1}, x]");
        QCOMPARE(s.spans, (Spans{{1, 8}}));
        QCOMPARE(s.state, State::Malformed);
        QCOMPARE(s.problemOffset, std::size_t(10));
        QVERIFY(!s.problem.isEmpty());
    }

    void escapesInStrings()
    {
        // "x\\" ends with an escaped backslash (the quote closes the string); "\\\"}" holds an
        // escaped quote and a brace.
        const QByteArray d("[{\"a\":\"x\\\\\"},{\"b\":\"\\\\\\\"}\"}]");
        const Scan s = scan(d);
        QCOMPARE(s.spans.size(), std::size_t(2));
        QCOMPARE(s.state, State::Finished);
        QCOMPARE(d.mid(static_cast<qsizetype>(s.spans[1].first),
                       static_cast<qsizetype>(s.spans[1].second - s.spans[1].first)),
                 QByteArray("{\"b\":\"\\\\\\\"}\"}"));
    }

    void locateFailures_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QString>("problem");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("empty");
        QTest::newRow("whitespace") << QByteArray("  \n ") << QStringLiteral("whitespace");
        QTest::newRow("text") << QByteArray("hello") << QStringLiteral("not JSON");
        QTest::newRow("object without traceEvents")
            << QByteArray("{\"a\": 1}") << QStringLiteral("traceEvents");
        QTest::newRow("object cut in a value") << QByteArray("{\"a\": [1, 2") << QStringLiteral("ends");
        QTest::newRow("object cut in a key") << QByteArray("{\"trace") << QStringLiteral("ends");
    }

    void locateFailures()
    {
        QFETCH(QByteArray, data);
        QFETCH(QString, problem);
        const Scan s = scan(data);
        QVERIFY(!s.located);
        QVERIFY2(s.problem.contains(problem), qPrintable(s.problem));
    }

    void valueEnd()
    {
        auto end = [](const QByteArray &d, std::size_t begin) {
            return JsonEventScanner::valueEnd(d.constData(), static_cast<std::size_t>(d.size()), begin);
        };
        QCOMPARE(end("\"abc\" ", 0), std::size_t(5));
        QCOMPARE(end("\"a\\\"b\"x", 0), std::size_t(6));
        QCOMPARE(end("[1, [2, {\"x\": \"]\"}]]  ", 0), std::size_t(20));
        QCOMPARE(end("12345, 6", 0), std::size_t(5));
        QCOMPARE(end("true}", 0), std::size_t(4));
        QCOMPARE(end("{\"a\": 1", 0), JsonEventScanner::npos);
        QCOMPARE(end("\"open", 0), JsonEventScanner::npos);
        QCOMPARE(end("x", 5), JsonEventScanner::npos);
    }

    // ChromeTraceParser from memory: results and messages.
    // The block scan (16/32 bytes at a time) against a byte-by-byte reference, on random objects
    // whose quotes, escapes and brackets fall at every position of a block, including the end.
    void valueEndMatchesByteScan()
    {
        auto reference = [](const QByteArray &s, std::size_t begin) -> std::size_t {
            std::size_t depth = 0;
            bool inString = false;
            for (std::size_t p = begin; p < static_cast<std::size_t>(s.size()); ++p) {
                const char c = s[static_cast<qsizetype>(p)];
                if (inString) {
                    if (c == '\\')
                        ++p;
                    else if (c == '"')
                        inString = false;
                } else if (c == '"') {
                    inString = true;
                } else if (c == '{' || c == '[') {
                    ++depth;
                } else if ((c == '}' || c == ']') && --depth == 0) {
                    return p + 1;
                }
            }
            return JsonEventScanner::npos;
        };
        std::uint32_t seed = 12345;
        auto next = [&seed] {
            seed = seed * 1664525u + 1013904223u;
            return seed >> 8;
        };
        const char alphabet[] = {'a', ' ', '"', '\\', '{', '}', '[', ']', ':', ','};
        for (int round = 0; round < 20000; ++round) {
            QByteArray s = "{";
            const int length = static_cast<int>(next() % 120);
            for (int i = 0; i < length; ++i)
                s += alphabet[next() % sizeof(alphabet)];
            if (next() % 2)
                s += "}}}]]\"}}";
            const std::size_t expected = reference(s, 0);
            const std::size_t got =
                JsonEventScanner::valueEnd(s.constData(), static_cast<std::size_t>(s.size()), 0);
            if (got != expected)
                QFAIL(qPrintable(QStringLiteral("'%1': %2 vs %3")
                                     .arg(QString::fromLatin1(s))
                                     .arg(static_cast<qlonglong>(got))
                                     .arg(static_cast<qlonglong>(expected))));
        }
    }

    void parserResults()
    {
        auto parse = [](const QByteArray &data, QString *error, std::size_t *events) {
            at::TraceBuilder builder;
            const auto source = builder.addSource(QStringLiteral("mem.json"), nullptr);
            at::ChromeTraceParser parser(builder, source, QStringLiteral("mem.json"));
            const auto result =
                parser.parse(data.constData(), static_cast<std::size_t>(data.size()), {}, error);
            *events = parser.eventsRead();
            return result;
        };
        QString error;
        std::size_t events = 0;
        QCOMPARE(parse("[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":\"1.000\",\"dur\":1}]",
                       &error, &events),
                 at::ChromeTraceParser::Result::Ok);
        QCOMPARE(events, std::size_t(1));
        error.clear();
        QCOMPARE(parse("nope", &error, &events), at::ChromeTraceParser::Result::Failed);
        QVERIFY2(error.startsWith(QStringLiteral("mem.json: ")), qPrintable(error));
        error.clear();
        // (A 0xFF byte in a name no longer costs the event: tst_content_json.)
        QCOMPARE(parse("[{\"ph\":\"X\",\"name\":}]", &error, &events), at::ChromeTraceParser::Result::Failed);
        QVERIFY2(error.contains(QStringLiteral("mem.json")) && error.contains(QStringLiteral("byte 1")),
                 qPrintable(error));

        std::atomic<bool> cancel{true};
        std::atomic<std::uint64_t> done{0};
        at::TraceBuilder builder;
        at::ChromeTraceParser parser(builder, builder.addSource(QStringLiteral("mem.json"), nullptr),
                                     QStringLiteral("mem.json"));
        const QByteArray data(
            "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":\"1.000\",\"dur\":1}]");
        QCOMPARE(
            parser.parse(data.constData(), static_cast<std::size_t>(data.size()), {&cancel, &done}, &error),
            at::ChromeTraceParser::Result::Cancelled);
    }
};

QTEST_GUILESS_MAIN(TestParserScanner)
#include "tst_parser_scanner.moc"
