// Issue 21 part B, "keep what can be read": content the readers used to drop or stall on. Each case
// builds its input here with exact expected values and loads it through at::loadTrace (what the GUI
// and the command line call) or the reader itself. docs/ROBUSTNESS.md, "Round two", lists them.

#include "ParserTestUtil.h"

#include "csv/CsvReader.h"

#include <QElapsedTimer>
#include <QStringEncoder>
#include <QTest>

namespace {

using namespace at;

QByteArray traceEvent(const QByteArray &name, int tsMicros, const QByteArray &dur = "1")
{
    return "{\"ph\":\"X\",\"name\":\"" + name + "\",\"pid\":1,\"tid\":1,\"ts\":\"" +
           QByteArray::number(tsMicros) + ".000\",\"dur\":" + dur + "}";
}

bool hasSliceNamed(const TraceModel &m, const QString &name)
{
    for (std::size_t t = 0; t < m.threads().size(); ++t)
        if (!pt::slicesNamed(m, static_cast<int>(t), name).empty())
            return true;
    return false;
}

} // namespace

class TestContent : public QObject
{
    Q_OBJECT

    QTemporaryDir tmp;

private slots:
    // A number, a string, null, true and an array between events used to stop the read (every later
    // event lost); now each is skipped, counted in one warning, and the read goes on.
    void nonObjectElementsAreSkipped_data()
    {
        QTest::addColumn<QByteArray>("element");
        QTest::addColumn<QString>("kind");
        QTest::newRow("number") << QByteArray("42") << QStringLiteral("a number");
        QTest::newRow("negative") << QByteArray("-1.5e3") << QStringLiteral("a number");
        QTest::newRow("string") << QByteArray("\"text, with ] and }\"") << QStringLiteral("a string");
        QTest::newRow("null") << QByteArray("null") << QStringLiteral("null");
        QTest::newRow("true") << QByteArray("true") << QStringLiteral("a boolean");
        QTest::newRow("array") << QByteArray("[1,2,{\"ph\":\"X\"}]") << QStringLiteral("an array");
    }
    void nonObjectElementsAreSkipped()
    {
        QFETCH(QByteArray, element);
        QFETCH(QString, kind);
        const QByteArray head = "[" + traceEvent("a", 10) + ",";
        const QByteArray data = head + element + "," + element + "," + traceEvent("b", 20) + "]";
        const QString path = pt::writeFile(tmp, QStringLiteral("nonobject.json"), data);
        const auto m = pt::loadOk(path);
        QVERIFY(m);
        QCOMPARE(m->sliceCount(), std::size_t(2));
        QVERIFY(hasSliceNamed(*m, QStringLiteral("a")));
        QVERIFY(hasSliceNamed(*m, QStringLiteral("b")));
        QVERIFY2(
            pt::hasWarning(*m, {path, QStringLiteral("2 elements of the event array are not event objects"),
                                QStringLiteral("first at byte %1: %2").arg(head.size()).arg(kind)}),
            qPrintable(pt::warningsText(*m)));
    }

    // Only non-objects: nothing to show, an error naming the file (as before), now saying why.
    void onlyNonObjectsIsAnError()
    {
        const QString path = pt::writeFile(tmp, QStringLiteral("numbers.json"), "[1,2,3]");
        const LoadResult r = pt::load(path);
        QVERIFY(!r.model);
        QVERIFY2(r.error.contains(path) &&
                     r.error.contains(
                         QStringLiteral("none of the 3 elements of the event array is an event object")),
                 qPrintable(r.error));
    }

    // A 0xFF byte (not UTF-8, not GB18030) in a name: the event is kept with U+FFFD, one warning.
    void invalidUtf8NameIsKeptWithReplacement()
    {
        const QByteArray head = "[" + traceEvent("ok", 10) + ",";
        const QByteArray data = head + traceEvent("bad\xff", 20) + "," + traceEvent("bad\xfe\xff", 30) + "," +
                                traceEvent("ok2", 40) + "]";
        const QString path = pt::writeFile(tmp, QStringLiteral("ff.json"), data);
        const auto m = pt::loadOk(path);
        QVERIFY(m);
        QCOMPARE(m->sliceCount(), std::size_t(4));
        QVERIFY(hasSliceNamed(*m, QStringLiteral("bad\uFFFD")));
        QVERIFY(hasSliceNamed(*m, QStringLiteral("bad\uFFFD\uFFFD")));
        QVERIFY2(pt::hasWarning(*m, {path, QStringLiteral("2 events have text that is not valid UTF-8"),
                                     QStringLiteral("first at byte %1").arg(head.size()),
                                     QStringLiteral("U+FFFD")}),
                 qPrintable(pt::warningsText(*m)));
        QCOMPARE(pt::warningsText(*m).count(QStringLiteral("not valid UTF-8")), 1); // warned once
    }

    // A file written in GBK: every byte decodes as GB18030, so the names are read as such (exactly).
    void gbkFileIsDecodedAsGbk()
    {
        const QString names[] = {QStringLiteral("卷积算子"), QStringLiteral("矩阵乘法"),
                                 QStringLiteral("ascii")};
        QStringEncoder gbk("GB18030");
        QVERIFY(gbk.isValid());
        QByteArray data = "[";
        for (int i = 0; i < 3; ++i)
            data += (i ? "," : "") + traceEvent(gbk.encode(names[i]), 10 * (i + 1));
        data += "]";
        QVERIFY(!QByteArrayView(data).isValidUtf8());
        const QString path = pt::writeFile(tmp, QStringLiteral("gbk.json"), data);
        const auto m = pt::loadOk(path);
        QVERIFY(m);
        QCOMPARE(m->sliceCount(), std::size_t(3));
        for (const QString &name : names)
            QVERIFY2(hasSliceNamed(*m, name), qPrintable(name));
        QVERIFY2(pt::hasWarning(*m, {path, QStringLiteral("2 events have text that is not valid UTF-8"),
                                     QStringLiteral("GB18030")}),
                 qPrintable(pt::warningsText(*m)));
    }

    // Lone UTF-16 surrogate escapes used to cost the event; now they read as U+FFFD. A valid pair stays.
    void loneSurrogatesAreReplaced()
    {
        const QByteArray data = "[" + traceEvent("hi\\ud800", 10) + "," + traceEvent("\\udc00lo", 20) + "," +
                                traceEvent("pair\\ud83d\\ude00", 30) + "]";
        const QString path = pt::writeFile(tmp, QStringLiteral("surrogates.json"), data);
        const auto m = pt::loadOk(path);
        QVERIFY(m);
        QCOMPARE(m->sliceCount(), std::size_t(3));
        QVERIFY(hasSliceNamed(*m, QStringLiteral("hi\uFFFD")));
        QVERIFY(hasSliceNamed(*m, QStringLiteral("\uFFFDlo")));
        QVERIFY(hasSliceNamed(*m, QStringLiteral("pair") + QString::fromUcs4(U"\U0001F600", 1)));
        QVERIFY2(pt::hasWarning(*m, {path, QStringLiteral("2 events have text that is not valid UTF-8")}),
                 qPrintable(pt::warningsText(*m)));
    }

    // A dur of more than 2^61 ns (73 years), or whose end lies beyond 2^62 ns (or overflows int64),
    // saturates at the model's limit, with a warning;
    // the event keeps its start, the others their exact times.
    void hugeDurationSaturates_data()
    {
        QTest::addColumn<QByteArray>("dur");
        QTest::newRow("end overflows int64") << QByteArray("9223372036854775");
        QTest::newRow("end beyond 2^62") << QByteArray("5000000000000000");
        QTest::newRow("more than 73 years") << QByteArray("2400000000000000");
    }
    void hugeDurationSaturates()
    {
        QFETCH(QByteArray, dur);
        const QByteArray head = "[" + traceEvent("a", 1000) + ",";
        const QByteArray data = head + traceEvent("huge", 2000, dur) + "," + traceEvent("b", 3000) + "]";
        const QString path = pt::writeFile(tmp, QStringLiteral("hugedur.json"), data);
        const auto m = pt::loadOk(path);
        QVERIFY(m);
        QCOMPARE(m->sliceCount(), std::size_t(3));
        const int t = pt::threadWithTid(*m, pt::processWithPid(*m, 1), 1);
        const SliceRef huge = pt::slicesNamed(*m, t, QStringLiteral("huge")).at(0);
        const SliceTable &table = pt::table(*m, huge);
        const TimeNs start = table.start(huge.index) + m->origin();
        QCOMPARE(start, TimeNs(2000000));
        // The end is at the model's limit (TraceBuilder keeps ends below INT64_MAX / 4), never a
        // wrapped-around short duration.
        QCOMPARE(table.start(huge.index) + table.duration(huge.index),
                 std::numeric_limits<TimeNs>::max() / 4);
        const SliceRef b = pt::slicesNamed(*m, t, QStringLiteral("b")).at(0);
        QCOMPARE(pt::table(*m, b).duration(b.index), TimeNs(1000));
        QVERIFY2(pt::hasWarning(*m, {path, QStringLiteral("1 events have a dur so large"),
                                     QStringLiteral("first at byte %1").arg(head.size())}),
                 qPrintable(pt::warningsText(*m)));
    }

    // A second "traceEvents" key is still not read (the first array is the trace), but now it is said.
    void secondTraceEventsKeyIsReported()
    {
        const QByteArray head = "{\"traceEvents\":[" + traceEvent("first", 10) + "],\"x\":1,";
        const QByteArray data = head + "\"traceEvents\":[" + traceEvent("second", 20) + "]}";
        const QString path = pt::writeFile(tmp, QStringLiteral("twice.json"), data);
        const auto m = pt::loadOk(path);
        QVERIFY(m);
        QCOMPARE(m->sliceCount(), std::size_t(1));
        QVERIFY(hasSliceNamed(*m, QStringLiteral("first")));
        QVERIFY2(
            pt::hasWarning(
                *m, {path,
                     QStringLiteral("a second \"traceEvents\" key at byte %1 was ignored").arg(head.size())}),
            qPrintable(pt::warningsText(*m)));
        // One key: no such warning.
        const QString one =
            pt::writeFile(tmp, QStringLiteral("once.json"),
                          "{\"traceEvents\":[" + traceEvent("a", 1) + "],\"traceEventsX\":[]}");
        const auto single = pt::loadOk(one);
        QVERIFY(single);
        QVERIFY(!pt::warningsText(*single).contains(QStringLiteral("second")));
    }

    // A million-column header used to take minutes (a quadratic duplicate check). It is refused at
    // CsvOptions::kMaxColumns with an error naming the file; a header at the limit is read, duplicates
    // found in linear time.
    void wideCsvHeaderIsRefusedQuickly()
    {
        QByteArray header;
        const int columns = 1000000;
        header.reserve(columns * 8);
        for (int i = 0; i < columns; ++i)
            header += (i ? ",c" : "c") + QByteArray::number(i);
        const QByteArray data = header + "\n1,2,3\n";
        const QString path = pt::writeFile(tmp, QStringLiteral("wide.csv"), data);
        QElapsedTimer timer;
        timer.start();
        const CsvTable table = CsvReader().readFile(path);
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(table.hasErrors());
        QCOMPARE(table.rowCount(), std::size_t(0));
        bool found = false;
        for (const CsvIssue &issue : table.issues()) {
            if (issue.kind == CsvIssue::Kind::HeaderTooWide) {
                found = true;
                QVERIFY2(issue.toString().contains(path) &&
                             issue.message.contains(QStringLiteral("1000000 columns")) &&
                             issue.message.contains(QStringLiteral("4096")),
                         qPrintable(issue.toString()));
            }
        }
        QVERIFY(found);
    }

    void csvHeaderAtTheLimitIsRead()
    {
        const std::size_t limit = CsvOptions::kMaxColumns;
        QCOMPARE(limit, std::size_t(4096));
        QByteArray header;
        for (std::size_t i = 0; i < limit; ++i)
            header += (i ? ",c" : "c") + QByteArray::number(static_cast<qulonglong>(i % (limit - 2)));
        QElapsedTimer timer;
        timer.start();
        const CsvTable table =
            CsvReader().parse(std::string_view(header.constData(), static_cast<std::size_t>(header.size())),
                              QStringLiteral("limit.csv"));
        QVERIFY(timer.elapsed() < 2000);
        QVERIFY(!table.hasErrors());
        QCOMPARE(table.header().size(), limit);
        std::size_t duplicates = 0;
        for (const CsvIssue &issue : table.issues())
            duplicates += issue.kind == CsvIssue::Kind::DuplicateColumn;
        QCOMPARE(duplicates, std::size_t(2)); // c0 and c1 repeat at the end
        // Linear: 80,000 distinct columns (11 s before) under a raised limit stay well under a second.
        QByteArray wide;
        for (int i = 0; i < 80000; ++i)
            wide += (i ? ",c" : "c") + QByteArray::number(i);
        CsvOptions options;
        options.maxColumns = 100000;
        timer.restart();
        const CsvTable big = CsvReader(options).parse(
            std::string_view(wide.constData(), static_cast<std::size_t>(wide.size())),
            QStringLiteral("wide.csv"));
        QVERIFY2(timer.elapsed() < 1000, qPrintable(QString::number(timer.elapsed())));
        QCOMPARE(big.header().size(), std::size_t(80000));
        QVERIFY(!big.hasErrors());
    }
};

QTEST_GUILESS_MAIN(TestContent)
#include "tst_content.moc"
