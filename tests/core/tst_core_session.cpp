// Issue 29, item 8: sessionFromJson reads sessions with simdjson (a million markers took 11 s in
// QJsonDocument). It must read every text as the QJsonDocument reader did, sessionFromJsonWithQt, which it
// falls back to: the same session for what is accepted, the same message for what is refused. Each case
// is read by both; the sessions are written by the real writer and name the real level-1 sample.

#include "Session.h"
#include "TestPaths.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTest>

using namespace at;

namespace {

QString level1Trace()
{
    return QDir::cleanPath(at::test::samplesDir() +
                           QStringLiteral("/msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/"
                                          "rank0_ascend_pt"));
}

// Every field of a session set, with names that are not plain ASCII and times that are negative.
Session fullSession()
{
    Session s;
    s.paths = {level1Trace()};
    s.rankFolders = {QStringLiteral("rank0_ascend_pt"), QStringLiteral("rank1 \"quoted\"")};
    s.rankOffsets = {{QStringLiteral("Rank 1 / Device 1"), -12'345},
                     {QStringLiteral("Rank 2"), 4'000'000'000}};
    s.viewBegin = 1'000;
    s.viewEnd = 90'000'000;
    s.originText = QStringLiteral("1700000000123456.789");
    s.collapsedProcesses = {QStringLiteral("Rank 0 / Device 0 / Ascend Hardware")};
    s.collapsedGroups = {QStringLiteral("Rank 0 / Device 0")};
    s.pinnedProcesses = {QStringLiteral("Rank 0 / Device 0 / CANN")};
    s.processOrder = {QStringLiteral("b"), QStringLiteral("a")};
    s.hiddenProcesses = {QStringLiteral("Rank 0 / Device 0 / Overlay Analysis")};
    s.hiddenThreads = {QStringLiteral("Rank 0 / Device 0 / CANN / Thread 7")};
    s.markers = {{QStringLiteral("Flag 1"), 500, 500, 0xE6550D},
                 {QStringLiteral("前向 \t tab \\ slash \"q\" \u0001"), -2'000, 7'000, 0x3182BD},
                 {QString(), 9'000'000'000'000'000'000, 9'000'000'000'000'000'000, 0xABCDEF},
                 {QStringLiteral("Flag 1"), 1, 2, 0x000000}};
    s.colorRules = {{QStringLiteral("^aclnn.*"), 0x31A354}, {QStringLiteral("Mat[Mm]ul"), 0xFFFFFF}};
    s.compare = CompareSetup{3, QStringLiteral("/elsewhere/trace.json"), -4, true};
    return s;
}

struct Read
{
    std::optional<Session> session;
    QString error;
};

Read readFast(const QByteArray &text)
{
    Read r;
    r.session = sessionFromJson(text, &r.error);
    return r;
}

Read readWithQt(const QByteArray &text)
{
    Read r;
    r.session = sessionFromJsonWithQt(text, &r.error);
    return r;
}

// A session's fields with their JSON text swapped in: `{"ascendTimelineSession": 2, "paths": [...], X}`.
QByteArray withPath(const QByteArray &rest)
{
    return "{\"ascendTimelineSession\": 2, \"paths\": [\"" + level1Trace().toUtf8() + "\"], " + rest + "}";
}

// Wrong types, non-finite and out-of-range times, huge strings, escapes, odd numbers and nesting. (Outside
// the test class: moc cannot read some of these literals.)
std::vector<std::pair<const char *, QByteArray>> hostileTexts()
{
    std::vector<std::pair<const char *, QByteArray>> rows;

    const QByteArray garbage("\x00\xff\xfe{]\"\\", 7);
    rows.push_back({"empty", QByteArray()});
    rows.push_back({"garbage", garbage});
    rows.push_back({"not json", QByteArray("not json")});
    rows.push_back({"a number", QByteArray("5")});
    rows.push_back({"a string", QByteArray("\"session\"")});
    rows.push_back({"an array", QByteArray("[1, 2]")});
    rows.push_back({"no version", QByteArray("{\"paths\": [\"x\"]}")});
    rows.push_back({"version newer", QByteArray("{\"ascendTimelineSession\": 99, \"paths\": [\"a\"]}")});
    rows.push_back({"version as text", QByteArray("{\"ascendTimelineSession\": \"2\", \"paths\": [\"a\"]}")});
    rows.push_back({"version 2.0", QByteArray("{\"ascendTimelineSession\": 2.0, \"paths\": [\"a\"]}")});
    rows.push_back({"version 1.5", QByteArray("{\"ascendTimelineSession\": 1.5, \"paths\": [\"a\"]}")});
    rows.push_back({"version 1e0", QByteArray("{\"ascendTimelineSession\": 1e0, \"paths\": [\"a\"]}")});
    rows.push_back(
        {"version huge", QByteArray("{\"ascendTimelineSession\": 4294967298, \"paths\": [\"a\"]}")});
    rows.push_back({"version beyond int64",
                    QByteArray("{\"ascendTimelineSession\": 18446744073709551617, \"paths\": [\"a\"]}")});
    rows.push_back({"version true", QByteArray("{\"ascendTimelineSession\": true, \"paths\": [\"a\"]}")});
    rows.push_back(
        {"version twice, last wins",
         QByteArray("{\"ascendTimelineSession\": 99, \"paths\": [\"a\"], \"ascendTimelineSession\": 1}")});
    rows.push_back({"no paths", QByteArray("{\"ascendTimelineSession\": 2}")});
    rows.push_back({"paths not an array", QByteArray("{\"ascendTimelineSession\": 2, \"paths\": \"a\"}")});
    rows.push_back({"path empty", QByteArray("{\"ascendTimelineSession\": 2, \"paths\": [\"  \"]}")});
    rows.push_back({"path a number", QByteArray("{\"ascendTimelineSession\": 2, \"paths\": [7, \"a\"]}")});
    rows.push_back(
        {"markers wrong types", withPath(R"("markers": [1, "x", null, [], {"beginNs": 5, "endNs": 9},
            {"beginNs": "5", "endNs": "9", "name": 3, "color": 255},
            {"beginNs": "9", "endNs": "5"}, {"beginNs": "1", "endNs": "2", "color": "#12345"},
            {"beginNs": "1", "endNs": "2", "color": "#0x1234"}, {"beginNs": "1", "endNs": "2", "color": "#GGGGGG"},
            {"beginNs": "1", "endNs": "2", "color": "#ABCDEF"}, {"beginNs": "1", "endNs": "2", "color": "#abcdef0"}])")});
    rows.push_back({"markers not an array", withPath(R"("markers": {"beginNs": "1", "endNs": "2"})")});
    rows.push_back(
        {"non-finite times",
         withPath(
             R"("markers": [{"beginNs": "nan", "endNs": "inf"}, {"beginNs": "1e400", "endNs": "1e400"},
            {"beginNs": "-inf", "endNs": "0"}, {"beginNs": 1e308, "endNs": 1e309}], "view": {"beginNs": "nan"})")});
    rows.push_back({"numbers Qt refuses", withPath(R"("markers": [{"beginNs": 1e-400, "endNs": "1"}])")});
    rows.push_back({"numbers simdjson refuses", withPath(R"("markers": [{"beginNs": .5, "endNs": 1.}])")});
    rows.push_back(
        {"times beyond int64",
         withPath(R"("markers": [{"beginNs": "9223372036854775807", "endNs": "9223372036854775808"},
            {"beginNs": "-9223372036854775808", "endNs": "99999999999999999999"}])")});
    rows.push_back(
        {"times as Qt reads them",
         withPath(R"("markers": [{"beginNs": " 12 ", "endNs": "+13"}, {"beginNs": "007", "endNs": "-0"},
            {"beginNs": "", "endNs": "1"}, {"beginNs": "-", "endNs": "1"}, {"beginNs": "1 2", "endNs": "3"},
            {"beginNs": "١٢", "endNs": "13"}, {"beginNs": "123456789012345678", "endNs": "1234567890123456789"}])")});
    rows.push_back(
        {"duplicate marker keys",
         withPath(
             R"("markers": [{"beginNs": "x", "beginNs": "5", "endNs": "9", "name": "a", "name": "b"}])")});
    rows.push_back(
        {"huge string", withPath("\"markers\": [{\"beginNs\": \"1\", \"endNs\": \"2\", \"name\": \"" +
                                 QByteArray(4 << 20, 'x') + "\"}]")});
    rows.push_back(
        {"escapes",
         withPath(R"("markers": [{"beginNs": "1", "endNs": "2", "name": "a\u0000b\n\u00e9\/"}])")});
    rows.push_back(
        {"lone surrogate", withPath(R"("markers": [{"beginNs": "1", "endNs": "2", "name": "\ud800x"}])")});
    rows.push_back({"surrogate pair",
                    withPath(R"("markers": [{"beginNs": "1", "endNs": "2", "name": "\ud83d\ude00"}])")});
    rows.push_back(
        {"invalid UTF-8",
         withPath("\"markers\": [{\"beginNs\": \"1\", \"endNs\": \"2\", \"name\": \"\xc3\x28\"}]")});
    rows.push_back({"raw tab in a string", withPath("\"originUs\": \"a\tb\"")});
    rows.push_back({"byte order mark", "\xef\xbb\xbf" + withPath("\"originUs\": \"1\"")});
    rows.push_back({"trailing comma", withPath("\"markers\": [],")});
    rows.push_back({"garbage after", withPath("\"markers\": []") + " x"});
    rows.push_back({"compare null", withPath("\"compare\": null")});
    rows.push_back(
        {"compare wrong types",
         withPath(
             R"("compare": {"baseStep": 3, "comparisonPath": 5, "comparisonStep": "x", "matchShapes": "true"})")});
    rows.push_back(
        {"offsets and rules wrong types",
         withPath(
             R"("rankOffsets": [{"group": "", "offsetNs": "1"}, {"group": "g"}, 5, {"group": "g", "offsetNs": "-7"}],
            "colorRules": [{"pattern": "", "color": "#000000"}, {"pattern": "p"}, {"pattern": "p", "color": "#00ff00"}])")});
    rows.push_back({"view reversed", withPath(R"("view": {"beginNs": "9", "endNs": "1"})")});
    QByteArray nested65 = QByteArray(65, '[') + QByteArray(65, ']');
    QByteArray nested1100 = QByteArray(1100, '[') + QByteArray(1100, ']');
    rows.push_back({"nested 65", withPath("\"x\": " + nested65)});
    rows.push_back({"nested 1100", withPath("\"x\": " + nested1100)});
    return rows;
}

// Three markers, two of them damaged (a time that is not a number, an end before the begin).
const char kDamagedMarkers[] =
    R"("markers": [{"name": "bad", "beginNs": "x"}, {"name": "late", "beginNs": "9", "endNs": "5"},
                {"name": "ok", "beginNs": "5", "endNs": "9", "color": "#00ff00"}])";

} // namespace

class TestCoreSession : public QObject
{
    Q_OBJECT

    // Both readers on `text`: the same acceptance, the same session or the same message.
    static void expectSameAsQt(const QByteArray &text)
    {
        const Read fast = readFast(text);
        const Read qt = readWithQt(text);
        QCOMPARE(fast.session.has_value(), qt.session.has_value());
        if (qt.session)
            QVERIFY(*fast.session == *qt.session);
        else
            QCOMPARE(fast.error, qt.error);
        QVERIFY(fast.session || !fast.error.isEmpty());
    }

private Q_SLOTS:
    void writtenSessionReadsBackTheSame()
    {
        const Session s = fullSession();
        const QByteArray text = sessionToJson(s);
        const Read fast = readFast(text);
        QVERIFY2(fast.session, qPrintable(fast.error));
        QVERIFY(*fast.session == s);
        // Saving again writes the same bytes (the format is unchanged).
        QCOMPARE(sessionToJson(*fast.session), text);
        expectSameAsQt(text);
    }

    // Every prefix of a written session (a file cut anywhere): refused with Qt's message while the root
    // object is unclosed.
    void truncatedSessionsAsBefore()
    {
        const QByteArray text = sessionToJson(fullSession());
        const qsizetype closed = text.lastIndexOf('}') + 1;
        for (qsizetype n = 0; n < text.size(); ++n) {
            expectSameAsQt(text.left(n));
            QVERIFY2(n >= closed || !readFast(text.left(n)).session, qPrintable(QString::number(n)));
        }
        QVERIFY(readFast(text.left(text.size() / 2)).error.startsWith(QStringLiteral("not JSON (")));
    }

    void hostileTextAsBefore_data()
    {
        QTest::addColumn<QByteArray>("text");
        for (const auto &[name, text] : hostileTexts())
            QTest::newRow(name) << text;
    }

    // Each hostile text: the fast reader's result (or message) is the Qt reader's.
    void hostileTextAsBefore()
    {
        QFETCH(QByteArray, text);
        expectSameAsQt(text);
    }

    // The fuzz seeds (tests/data/fuzz/session): damaged markers, odd keys, texts and numbers.
    void fuzzSeedsAsBefore()
    {
        const QDir seeds((at::test::testDataDir() + QStringLiteral("/fuzz/session")));
        const QStringList names = seeds.entryList({QStringLiteral("*.atsession")}, QDir::Files);
        QVERIFY(names.size() >= 6);
        for (const QString &name : names) {
            QFile f(seeds.filePath(name));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray text = f.readAll();
            expectSameAsQt(text);
            if (QTest::currentTestFailed())
                qWarning("seed %s", qPrintable(name));
        }
    }

    // What the rules say, on the fast path (not only "the same as Qt"): damaged markers are skipped.
    void damagedMarkersAreSkipped()
    {
        QString error;
        const auto partial = sessionFromJson(withPath(kDamagedMarkers), &error);
        QVERIFY2(partial, qPrintable(error));
        QCOMPARE(partial->markers.size(), std::size_t(1));
        QCOMPARE(partial->markers.front().name, QStringLiteral("ok"));
        QCOMPARE(partial->markers.front().begin, TimeNs(5));
        QCOMPARE(partial->markers.front().rgb, 0x00FF00u);
        QVERIFY(!sessionFromJson("{\"ascendTimelineSession\": 99, \"paths\": [\"a\"]}", &error));
        QVERIFY(error.contains(QStringLiteral("newer")));
    }

    // 200,000 markers as the m and k keys name them: the same session as Qt's reader (how much faster is
    // bench_markers' to show, docs/PERFORMANCE.md: a timing here would fail under the sanitizers).
    void manyMarkersReadAsQtReadsThem()
    {
        constexpr int kMarkers = 200'000;
        Session s;
        s.paths = {level1Trace()};
        for (int i = 0; i < kMarkers; ++i)
            s.markers.push_back(
                {i % 2 ? QStringLiteral("Range %1").arg(i / 2 + 1) : QStringLiteral("Flag %1").arg(i / 2 + 1),
                 TimeNs(i) * 500, TimeNs(i) * 500 + (i % 2) * 20'000, 0xE6550D});
        const QByteArray text = sessionToJson(s);
        QElapsedTimer timer;
        timer.start();
        const Read fast = readFast(text);
        const qint64 fastNs = timer.nsecsElapsed();
        timer.restart();
        const Read qt = readWithQt(text);
        const qint64 qtNs = timer.nsecsElapsed();
        QVERIFY(fast.session && qt.session);
        QVERIFY(*fast.session == s);
        QVERIFY(*qt.session == s);
        qInfo("200,000 markers: simdjson %.3f s, QJsonDocument %.3f s", double(fastNs) / 1e9,
              double(qtNs) / 1e9);
    }
};

QTEST_MAIN(TestCoreSession)
#include "tst_core_session.moc"
