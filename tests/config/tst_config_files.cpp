// Unit tests of the lenient configuration-file loaders (parser/config/ConfigFiles.h, ChipInfo.h).

#include "ConfigTestUtil.h"

#include "config/ChipInfo.h"
#include "config/ConfigFiles.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace at;
using namespace at::config;
using namespace at::test;

class TestConfigFiles : public QObject
{
    Q_OBJECT

private slots:
    void classify_data();
    void classify();
    void jsonOneLineAndPretty();
    void jsonLenient();
    void jsonProblems();
    void jsonFileProblems();
    void iniText();
    void iniProblems();
    void scalarHelpers();
    void bigIntegersKeepPrecision();
    void utcDates();
    void chips();
    void csvHeaderReal();
    void csvHeaderSynthetic();
    void csvHeaderProblems();
};

void TestConfigFiles::classify_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("device"); // -1 = none
    QTest::addColumn<int>("rank");   // -1 = none

    const auto row = [](const char *tag, const char *path, ConfigFileKind kind, int device, int rank) {
        QTest::newRow(tag) << QString::fromLatin1(path) << int(kind) << device << rank;
    };
    row("sample", "/x/PROF_1/host/data/sample.json", ConfigFileKind::SampleJson, -1, -1);
    row("info host", "/x/host/data/info.json", ConfigFileKind::InfoJson, -1, -1);
    row("info dev", "/x/device_3/data/info.json.3", ConfigFileKind::InfoJson, 3, -1);
    row("start", "start_info", ConfigFileKind::StartInfo, -1, -1);
    row("start dev", "start_info.12", ConfigFileKind::StartInfo, 12, -1);
    row("end dev", "end_info.0", ConfigFileKind::EndInfo, 0, -1);
    row("host log", "host_start.log", ConfigFileKind::HostStartLog, -1, -1);
    row("dev log", "dev_start.log.1", ConfigFileKind::DevStartLog, 1, -1);
    row("dev log bare", "dev_start.log", ConfigFileKind::DevStartLog, -1, -1);
    row("profiler_info", "profiler_info.json", ConfigFileKind::ProfilerInfo, -1, -1);
    row("profiler_info rank", "/r/rank_7_ascend_pt/profiler_info_7.json", ConfigFileKind::ProfilerInfo, -1,
        7);
    row("metadata", "profiler_metadata.json", ConfigFileKind::ProfilerMetadata, -1, -1);
    row("unknown", "kernel_details.csv", ConfigFileKind::Unknown, -1, -1);
    row("near miss", "sample.json.bak", ConfigFileKind::Unknown, -1, -1);
    row("info suffix word", "info.json.x", ConfigFileKind::Unknown, -1, -1);
}

void TestConfigFiles::classify()
{
    QFETCH(QString, path);
    QFETCH(int, kind);
    QFETCH(int, device);
    QFETCH(int, rank);
    const ConfigFileName n = classifyConfigFile(path);
    QCOMPARE(int(n.kind), kind);
    QCOMPARE(n.device.value_or(-1), device);
    QCOMPARE(n.rank.value_or(-1), rank);
}

void TestConfigFiles::jsonOneLineAndPretty()
{
    const JsonFile one = parseJsonObject(R"({"a": "1", "b": 2, "c": {"d": true}})");
    QVERIFY(one.ok());
    QCOMPARE(jsonText(one.object.value("a")), QStringLiteral("1"));
    QCOMPARE(jsonText(jsonAt(one.object, "c/d")), QStringLiteral("true"));

    const JsonFile pretty = parseJsonObject("{\r\n    \"a\": \"1\",\r\n    \"b\": 2\r\n}\r\n");
    QVERIFY(pretty.ok());
    QCOMPARE(jsonInteger(pretty.object.value("b")).value_or(-1), 2);

    // Real pretty-printed file with a string rank_id.
    const JsonFile qwen = loadJsonObject(qwen3Rank0("profiler_info_0.json"));
    QVERIFY2(qwen.ok(), qPrintable(qwen.problem));
    QCOMPARE(jsonText(qwen.object.value("rank_id")), QStringLiteral("0"));
    QVERIFY(qwen.object.value("rank_id").isString());
}

void TestConfigFiles::jsonLenient()
{
    // UTF-8 BOM.
    QVERIFY(parseJsonObject("\xEF\xBB\xBF{\"a\":1}").ok());
    // Trailing commas.
    const JsonFile commas = parseJsonObject("{\"a\": [1, 2,], \"s\": \"x,}\",}");
    QVERIFY2(commas.ok(), qPrintable(commas.problem));
    QCOMPARE(jsonText(commas.object.value("a")), QStringLiteral("1, 2"));
    QCOMPARE(jsonText(commas.object.value("s")), QStringLiteral("x,}")); // the comma inside the string stays
    // msprof reads only the first line of info.json.
    const JsonFile firstLine = parseJsonObject("{\"platform_version\": \"5\"}\ngarbage that is not JSON\n");
    QVERIFY2(firstLine.ok(), qPrintable(firstLine.problem));
    QCOMPARE(jsonText(firstLine.object.value("platform_version")), QStringLiteral("5"));
}

void TestConfigFiles::jsonProblems()
{
    QCOMPARE(parseJsonObject("").problem, QStringLiteral("the file is empty"));
    QCOMPARE(parseJsonObject(" \n\t ").problem, QStringLiteral("the file is empty"));
    QCOMPARE(parseJsonObject("[1, 2]").problem, QStringLiteral("expected a JSON object, found an array"));
    QCOMPARE(parseJsonObject(QByteArray("{\"a\"\0:1}", 9)).problem,
             QStringLiteral("not a text file (it contains NUL bytes)"));
    // Truncated: QJsonParseError's text and offset.
    const JsonFile truncated = parseJsonObject("{\"a\": 1, \"b\": [1, 2");
    QVERIFY(!truncated.ok());
    QVERIFY2(truncated.problem.startsWith(QStringLiteral("not valid JSON (")), qPrintable(truncated.problem));
    QVERIFY2(truncated.problem.contains(QStringLiteral(" at byte ")), qPrintable(truncated.problem));
    QVERIFY(truncated.object.isEmpty());
}

void TestConfigFiles::jsonFileProblems()
{
    Scratch s;
    QVERIFY(s.isValid());
    QCOMPARE(loadJsonObject(s.path("missing.json")).problem, QStringLiteral("the file does not exist"));
    QDir().mkpath(s.path("folder.json"));
    QCOMPARE(loadJsonObject(s.path("folder.json")).problem, QStringLiteral("it is a folder, not a file"));
    QCOMPARE(loadJsonObject(s.file("empty.json", "")).problem, QStringLiteral("the file is empty"));
}

void TestConfigFiles::iniText()
{
    // Real host_start.log: "[Host]" then "key: value" lines.
    const IniFile real = loadIniFile(msconfigFile("host_start.log"));
    QVERIFY2(real.ok(), qPrintable(real.problem));
    QCOMPARE(real.entries.size(), 3);
    QCOMPARE(real.entries[0].section, QStringLiteral("Host"));
    QCOMPARE(real.entries[0].key, QStringLiteral("clock_monotonic_raw"));
    QCOMPARE(real.value("cntvct_diff"), QStringLiteral("0"));

    const IniFile mixed = parseIniText("# comment\r\n; other\r\n[Device]\r\nclock_realtime = 12:30\r\n"
                                       "cntvct:  77 \r\nnot a pair\r\n");
    QVERIFY(mixed.ok());
    QCOMPARE(mixed.entries.size(), 2);
    QCOMPARE(mixed.entries[0].section, QStringLiteral("Device"));
    QCOMPARE(mixed.value("clock_realtime"), QStringLiteral("12:30")); // '=' comes first
    QCOMPARE(mixed.value("cntvct"), QStringLiteral("77"));
    QCOMPARE(mixed.value("absent"), QString());
}

void TestConfigFiles::iniProblems()
{
    QCOMPARE(parseIniText("").problem, QStringLiteral("the file is empty"));
    QCOMPARE(parseIniText("[Host]\njust words\n").problem, QStringLiteral("no \"key: value\" lines found"));
    QCOMPARE(parseIniText(QByteArray("\x7f\x45\x4c\x46\0\0", 6)).problem,
             QStringLiteral("not a text file (it contains NUL bytes)"));
}

void TestConfigFiles::scalarHelpers()
{
    const QJsonObject o = QJsonDocument::fromJson(R"({"s": " 42 ", "i": 42, "d": 38.4, "f": 2.0, "b": false,
        "n": null, "l": ["text", "db"], "o": {}, "word": "all", "on": "on", "off": "off", "e": ""})")
                              .object();
    QCOMPARE(jsonText(o.value("s")), QStringLiteral("42"));
    QCOMPARE(jsonText(o.value("i")), QStringLiteral("42"));
    QCOMPARE(jsonText(o.value("d")), QStringLiteral("38.4"));
    QCOMPARE(jsonText(o.value("f")), QStringLiteral("2"));
    QCOMPARE(jsonText(o.value("b")), QStringLiteral("false"));
    QCOMPARE(jsonText(o.value("n")), QString());
    QCOMPARE(jsonText(o.value("l")), QStringLiteral("text, db"));
    QCOMPARE(jsonText(o.value("o")), QString());
    QCOMPARE(jsonText(o.value("missing")), QString());

    QCOMPARE(jsonInteger(o.value("s")).value_or(-1), 42);
    QCOMPARE(jsonInteger(o.value("i")).value_or(-1), 42);
    QVERIFY(!jsonInteger(o.value("d")));
    QVERIFY(!jsonInteger(o.value("word")));
    QVERIFY(!jsonInteger(o.value("missing")));

    QCOMPARE(jsonBool(o.value("on")), std::optional<bool>(true));
    QCOMPARE(jsonBool(o.value("off")), std::optional<bool>(false));
    QCOMPARE(jsonBool(o.value("e")), std::optional<bool>(false));
    QCOMPARE(jsonBool(o.value("b")), std::optional<bool>(false));
    QCOMPARE(jsonBool(o.value("i")), std::optional<bool>(true));
    QVERIFY(!jsonBool(o.value("word")));
    QVERIFY(!jsonBool(o.value("n")));

    QVERIFY(jsonAt(o, "missing/x").isUndefined());
    QVERIFY(jsonAt(o, "s/x").isUndefined());
}

void TestConfigFiles::bigIntegersKeepPrecision()
{
    // profiler_info end_info.collectionTimeEnd (level1 alexnet sample) does not fit a double exactly.
    const JsonFile f = loadJsonObject(alexnetRank0("level1", "profiler_info_0.json"));
    QVERIFY2(f.ok(), qPrintable(f.problem));
    const QJsonValue v = jsonAt(f.object, "end_info/collectionTimeEnd");
    QCOMPARE(jsonInteger(v).value_or(0), Q_INT64_C(1736408884023552840));
    QCOMPARE(jsonText(v), QStringLiteral("1736408884023552840"));
}

void TestConfigFiles::utcDates()
{
    // start_info of the msconfig sample: collectionTimeBegin 1659098679447393 µs; its collectionDateBegin
    // "2022-07-29 20:44:39.447393" is the collecting host's local time (UTC+8).
    QCOMPARE(utcDateFromMicroseconds(Q_INT64_C(1659098679447393)),
             QStringLiteral("2022-07-29 12:44:39.447393 UTC"));
    QCOMPARE(utcDateFromMicroseconds(0), QStringLiteral("1970-01-01 00:00:00.000000 UTC"));
    QCOMPARE(utcDateFromMicroseconds(123456), QStringLiteral("1970-01-01 00:00:00.123456 UTC"));
}

void TestConfigFiles::chips()
{
    ChipInfo c = chipFromPlatformVersion("0");
    QCOMPARE(c.name, QStringLiteral("Ascend 310"));
    QCOMPARE(c.scheduler, TaskScheduler::Hwts);
    c = chipFromPlatformVersion(" 5 ");
    QCOMPARE(c.platformVersion, QStringLiteral("5"));
    QCOMPARE(c.name, QStringLiteral("Ascend 910B / A2 / A3"));
    QCOMPARE(c.generation, QStringLiteral("v4"));
    QCOMPARE(taskSchedulerName(c.scheduler), QStringLiteral("STARS"));
    for (const char *id : {"7", "8", "11", "15", "16"})
        QCOMPARE(chipFromPlatformVersion(id).scheduler, TaskScheduler::Stars);
    for (const char *id : {"1", "2", "3", "4", "9"})
        QCOMPARE(chipFromPlatformVersion(id).scheduler, TaskScheduler::Hwts);
    c = chipFromPlatformVersion("42");
    QVERIFY(c.name.isEmpty());
    QCOMPARE(c.scheduler, TaskScheduler::Unknown);
    QCOMPARE(taskSchedulerName(c.scheduler), QString());
}

void TestConfigFiles::csvHeaderReal()
{
    // level1 alexnet kernel_details.csv (CRLF): 46 header cells, "Step Id" ... "cube_utilization(%)".
    const CsvHeader h = readCsvHeader(alexnetRank0("level1", "ASCEND_PROFILER_OUTPUT/kernel_details.csv"));
    QVERIFY2(h.ok(), qPrintable(h.problem));
    QCOMPARE(h.cells.size(), 46);
    QCOMPARE(h.cells.first(), QStringLiteral("Step Id"));
    QCOMPARE(h.cells[20], QStringLiteral("Context ID"));
    QCOMPARE(h.cells.last(), QStringLiteral("cube_utilization(%)"));

    // Level0: "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim".
    const CsvHeader l0 = readCsvHeader(alexnetRank0("level0", "ASCEND_PROFILER_OUTPUT/kernel_details.csv"));
    QVERIFY2(l0.ok(), qPrintable(l0.problem));
    QCOMPARE(l0.cells, QStringList({"Step Id", "Name", "Type", "Accelerator Core", "Start Time(us)",
                                    "Duration(us)", "Wait Time(us)", "Block Dim"}));
}

void TestConfigFiles::csvHeaderSynthetic()
{
    Scratch s;
    QVERIFY(s.isValid());
    // BOM, a quoted cell with a comma and a line feed, trailing TAB, no final newline after the data row.
    const QString path = s.file("k.csv", "\xEF\xBB\xBF\"Na,me\",\"Multi\nline\",Type\t\r\na,b,c");
    const CsvHeader h = readCsvHeader(path);
    QVERIFY2(h.ok(), qPrintable(h.problem));
    QCOMPARE(h.cells, QStringList({"Na,me", "Multi\nline", "Type"}));
    // Header only, without a line end.
    const CsvHeader only = readCsvHeader(s.file("h.csv", "A,B"));
    QCOMPARE(only.cells, QStringList({"A", "B"}));
}

void TestConfigFiles::csvHeaderProblems()
{
    Scratch s;
    QVERIFY(s.isValid());
    QCOMPARE(readCsvHeader(s.path("none.csv")).problem, QStringLiteral("the file does not exist"));
    QCOMPARE(readCsvHeader(s.file("empty.csv", "")).problem, QStringLiteral("the file is empty"));
    QCOMPARE(readCsvHeader(s.file("bom.csv", "\xEF\xBB\xBF\r\n")).problem,
             QStringLiteral("the file is empty"));
}

QTEST_GUILESS_MAIN(TestConfigFiles)
#include "tst_config_files.moc"
