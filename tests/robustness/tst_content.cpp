// Issue 21 part B, "keep what can be read": content the readers used to drop or stall on. Each case
// builds its input here with exact expected values and loads it through at::loadTrace (what the GUI
// and the command line call) or the reader itself. docs/ROBUSTNESS.md, "Round two", lists them.

#include "ParserTestUtil.h"
#include "RawRecordWriter.h"

#include "LoadMemoryGuard.h"
#include "common/Decompress.h"
#include "csv/CsvReader.h"
#include "json/ChromeTraceParser.h"

#include <zlib.h>
#include <zstd.h>

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

constexpr const char *kProf = "PROF_000001_20240101000000000_ABCDEFGHIJKLMNOP";

// A raw PROF_* folder (as tests/raw/tst_raw_folder.cpp writes them) with one HWTS task and the given
// device info.json.0 text (none when empty).
void writeRawFolder(const QString &root, const QByteArray &deviceInfoJson)
{
    const QString host = root + "/" + kProf + "/host/data", dev = root + "/" + kProf + "/device_0/data";
    test::writeFile(host + "/info.json",
                    R"({"CPU":[{"Id":0,"Frequency":""}],"DeviceInfo":[],"platform_version":"1"})");
    test::writeFile(host + "/start_info",
                    R"({"collectionTimeBegin":"1700000000000000","clockMonotonicRaw":"4000000000"})");
    test::writeFile(host + "/host_start.log",
                    "[Host]\nclock_monotonic_raw: 5000000000\ncntvct: 0\ncntvct_diff: 0\n");
    if (!deviceInfoJson.isEmpty())
        test::writeFile(dev + "/info.json.0", deviceInfoJson);
    test::writeFile(dev + "/start_info.0",
                    R"({"collectionTimeBegin":"1700000000000000","clockMonotonicRaw":"4000000000"})");
    test::writeFile(dev + "/dev_start.log.0", "[Device]\nclock_monotonic_raw: 5000000000\ncntvct: 1000000\n");
    test::writeFile(dev + "/hwts.data.0.slice_0",
                    test::hwtsRecord(0, 0, 0, 10, 1050000, 3) + test::hwtsRecord(1, 1, 0, 10, 1050100, 3));
    test::writeFile(host + "/AclModule.acl_op.0.slice_0",
                    test::aclModuleRecord(1, 5000040000, 5000090000, 8, 100, "aclmdlExecute"));
}

QByteArray gzip(const QByteArray &data)
{
    z_stream zs{};
    deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
    QByteArray out(static_cast<qsizetype>(deflateBound(&zs, static_cast<uLong>(data.size())) + 64),
                   Qt::Uninitialized);
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.constData()));
    zs.avail_in = static_cast<uInt>(data.size());
    zs.next_out = reinterpret_cast<Bytef *>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    deflate(&zs, Z_FINISH);
    out.resize(static_cast<qsizetype>(zs.total_out));
    deflateEnd(&zs);
    return out;
}

QByteArray zstd(const QByteArray &data)
{
    QByteArray out(static_cast<qsizetype>(ZSTD_compressBound(static_cast<std::size_t>(data.size()))),
                   Qt::Uninitialized);
    const std::size_t n = ZSTD_compress(out.data(), static_cast<std::size_t>(out.size()), data.constData(),
                                        static_cast<std::size_t>(data.size()), 3);
    out.resize(static_cast<qsizetype>(n));
    return out;
}

bool hasSliceNamed(const TraceModel &m, const QString &name)
{
    for (std::size_t t = 0; t < m.threads().size(); ++t)
        if (!pt::slicesNamed(m, static_cast<int>(t), name).empty())
            return true;
    return false;
}

QByteArray smallJson()
{
    return "[" + traceEvent("a", 10) + "," + traceEvent("b", 20) + "]";
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

    // info.json missing or garbage, hwts_frequency missing, 0, negative, NaN, huge or text: the task logs
    // cannot be put on the clock (as before), and the warning now names the file, the field and the value.
    void rawFrequencyProblemsAreNamed_data()
    {
        QTest::addColumn<QByteArray>("infoJson");
        QTest::addColumn<QStringList>("expected");
        auto withFrequency = [](const QByteArray &value) {
            return R"({"platform_version":"1","DeviceInfo":[{"id":0,"hwts_frequency":)" + value + "}]}";
        };
        const QString field =
            QStringLiteral("DeviceInfo[0].hwts_frequency is \"%1\", not a frequency in MHz");
        QTest::newRow("info.json missing")
            << QByteArray() << QStringList{QStringLiteral("has no info.json.0")};
        QTest::newRow("info.json garbage")
            << QByteArray("\x01\x02 not json {") << QStringList{QStringLiteral("info.json.0: ")};
        QTest::newRow("no DeviceInfo") << QByteArray(R"({"platform_version":"1"})")
                                       << QStringList{QStringLiteral("info.json.0 has no DeviceInfo entry")};
        QTest::newRow("no field") << QByteArray(R"({"platform_version":"1","DeviceInfo":[{"id":0}]})")
                                  << QStringList{
                                         QStringLiteral("info.json.0: DeviceInfo[0] has no hwts_frequency")};
        QTest::newRow("zero") << withFrequency("\"0\"") << QStringList{field.arg(QStringLiteral("0"))};
        QTest::newRow("negative") << withFrequency("\"-50\"")
                                  << QStringList{field.arg(QStringLiteral("-50"))};
        QTest::newRow("NaN") << withFrequency("\"NaN\"") << QStringList{field.arg(QStringLiteral("NaN"))};
        QTest::newRow("huge") << withFrequency("\"99999999999\"")
                              << QStringList{field.arg(QStringLiteral("99999999999")),
                                             QStringLiteral("at most 100000")};
        QTest::newRow("text") << withFrequency("\"fast\"") << QStringList{field.arg(QStringLiteral("fast"))};
        QTest::newRow("number 0") << withFrequency("0") << QStringList{field.arg(QStringLiteral("0"))};
    }
    void rawFrequencyProblemsAreNamed()
    {
        QFETCH(QByteArray, infoJson);
        QFETCH(QStringList, expected);
        QTemporaryDir d;
        writeRawFolder(d.path(), infoJson);
        const auto m = pt::loadOk(d.path());
        QVERIFY(m);
        const QString text = pt::warningsText(*m);
        QStringList parts{
            QStringLiteral("no hwts_frequency (info.json.0 missing or incomplete): 1 slice file")};
        parts += expected;
        QVERIFY2(pt::hasWarning(*m, parts), qPrintable(text));
        // A good frequency decodes the task (the control).
        if (QTest::currentDataTag() == QByteArray("zero")) {
            QTemporaryDir good;
            writeRawFolder(good.path(),
                           R"({"platform_version":"1","DeviceInfo":[{"id":0,"hwts_frequency":"50"}]})");
            const auto decoded = pt::loadOk(good.path());
            QVERIFY(decoded);
            QVERIFY2(!pt::warningsText(*decoded).contains(QStringLiteral("no hwts_frequency")),
                     qPrintable(pt::warningsText(*decoded)));
        }
    }

    // A compressed file whose content is not JSON stops after the first inflated bytes (it used to
    // inflate all of it into the temporary folder first), with an error naming the file.
    void compressedNotJsonStopsEarly_data()
    {
        QTest::addColumn<bool>("useZstd");
        QTest::newRow("gzip") << false;
        QTest::newRow("zstd") << true;
    }
    void compressedNotJsonStopsEarly()
    {
        QFETCH(bool, useZstd);
        const QByteArray zeros(64 << 20, '\0'); // 64 MiB of zeros: a few KB compressed
        const QByteArray packed = useZstd ? zstd(zeros) : gzip(zeros);
        const QString path = pt::writeFile(
            tmp, useZstd ? QStringLiteral("zeros.json.zst") : QStringLiteral("zeros.json.gz"), packed);
        const Compression compression = detectCompression(path);
        QCOMPARE(compression, useZstd ? Compression::Zstd : Compression::Gzip);
        QString error;
        QElapsedTimer timer;
        timer.start();
        const auto out = decompressToTemporaryFile(path, compression, {}, &error);
        QVERIFY(!out);
        QVERIFY2(error.contains(path) &&
                     error.contains(QStringLiteral("the decompressed data is not JSON: byte 0 is 0x00")),
                 qPrintable(error));
        // Through the loader: the same error.
        const LoadResult r = pt::load(path);
        QVERIFY(!r.model);
        QVERIFY2(r.error.contains(QStringLiteral("not JSON")), qPrintable(r.error));
        // Leading whitespace and a BOM are fine.
        const QByteArray json = "\xEF\xBB\xBF \n\t" + smallJson();
        const QString ok = pt::writeFile(tmp, QStringLiteral("bom.json.gz"), gzip(json));
        const auto model = pt::loadOk(ok);
        QVERIFY(model);
        QCOMPARE(model->sliceCount(), std::size_t(2));
    }

    // An event larger than ParseControl::maxEventBytes (set from the memory limit) is skipped with a
    // warning instead of taking several times its size at once.
    void oversizedEventIsSkipped()
    {
        TraceBuilder builder;
        const auto source = builder.addSource(QStringLiteral("mem.json"), nullptr);
        ChromeTraceParser parser(builder, source, QStringLiteral("mem.json"));
        const QByteArray head = "[" + traceEvent("a", 10) + ",";
        const QByteArray data =
            head + traceEvent(QByteArray(5000, 'n'), 20) + "," + traceEvent("b", 30) + "]";
        ParseControl control;
        control.maxEventBytes = 4096;
        QString error;
        QCOMPARE(parser.parse(data.constData(), static_cast<std::size_t>(data.size()), control, &error),
                 ChromeTraceParser::Result::Ok);
        QCOMPARE(parser.eventsRead(), std::size_t(2));
        const auto m = builder.build();
        QCOMPARE(m->sliceCount(), std::size_t(2)); // not parsed as part of the chunk around it either
        QVERIFY2(pt::hasWarning(
                     *m, {QStringLiteral("mem.json: 1 events were skipped because each is larger than 4 KiB"),
                          QStringLiteral("first at byte %1").arg(head.size())}),
                 qPrintable(pt::warningsText(*m)));
    }

    // The decompressed output stops at the cap (the memory limit, or the temporary folder's free space):
    // what was decompressed is kept, with a warning naming the file and the cap.
    void compressedOutputIsCapped()
    {
        QByteArray json = "[";
        for (int i = 0; i < 200000; ++i)
            json += (i ? ",\n" : "") + traceEvent("e" + QByteArray::number(i % 7), 10 + i);
        json += "]";
        QVERIFY(json.size() > 12 << 20);
        const QString path = pt::writeFile(tmp, QStringLiteral("big.json.zst"), zstd(json));
        DecompressControl control;
        control.maxOutputBytes = 4 << 20;
        QString warning;
        const auto out = decompressToTemporaryFile(path, Compression::Zstd, control, &warning);
        QVERIFY(out);
        QCOMPARE(out->size(), qint64(4 << 20));
        QVERIFY2(warning.contains(path) && warning.contains(QStringLiteral("larger than 4 MiB")) &&
                     warning.contains(QStringLiteral("memory limit")),
                 qPrintable(warning));
        // What was kept is JSON cut inside an event: the parser keeps the complete events before the cut.
        const QString cut = pt::writeFile(tmp, QStringLiteral("cut.json"), pt::readFile(out->fileName()));
        const auto m = pt::loadOk(cut);
        QVERIFY(m);
        QVERIFY(m->sliceCount() > 1000);
        QVERIFY(m->sliceCount() < 200000);
    }
};

QTEST_GUILESS_MAIN(TestContent)
#include "tst_content.moc"
