// Name patterns of FORMATS.md §1.7 and newest-export selection (§1.2, §1.4).

#include "folder/NamePatterns.h"

#include <QTest>

using namespace at::profile_names;

class TestFolderPatterns : public QObject
{
    Q_OBJECT

private slots:
    void exportFileNames_data();
    void exportFileNames();
    void masterTimelineNames();
    void folderAndFileNames();
    void naturalOrder();
    void newestExportSelection();
    void newestExportSelectionG1();
};

void TestFolderPatterns::exportFileNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("type");
    QTest::addColumn<int>("iteration"); // -1: not a G1 per-iteration name
    QTest::addColumn<int>("slice");     // -1: unsliced
    QTest::addColumn<QString>("timestamp");

    // G1 is tried before G3, otherwise msprof_0_1_1.json would be type "msprof_0_1".
    QTest::newRow("g1") << "msprof_0_1_1.json"
                        << "msprof" << 1 << -1 << "";
    QTest::newRow("g1 task_time") << "task_time_0_1_12.json"
                                  << "task_time" << 12 << -1 << "";
    QTest::newRow("g1 csv") << "op_summary_0_1_3.csv"
                            << "op_summary" << 3 << -1 << "";
    QTest::newRow("g1 slice+ts") << "msprof_0_1_2_slice_1_20220729204439.json"
                                 << "msprof" << 2 << 1 << "20220729204439";
    QTest::newRow("g3") << "msprof_20230919172305.json"
                        << "msprof" << -1 << -1 << "20230919172305";
    QTest::newRow("g3 slice") << "msprof_slice_10_20230919172304.json"
                              << "msprof" << -1 << 10 << "20230919172304";
    QTest::newRow("g3 sanitised") << "op_summary_001.csv"
                                  << "op_summary" << -1 << -1 << "001";
    QTest::newRow("g3 csv slice") << "op_summary_slice_2_20230919172304.csv"
                                  << "op_summary" << -1 << 2 << "20230919172304";
    QTest::newRow("g3 tx") << "msprof_tx_20230919172305.json"
                           << "msprof_tx" << -1 << -1 << "20230919172305";
    QTest::newRow("g3 digit type") << "prof_rule_0_20230919172305.json"
                                   << "prof_rule_0" << -1 << -1 << "20230919172305";
    QTest::newRow("g4 plain") << "kernel_details.csv"
                              << "kernel_details" << -1 << -1 << "";
    QTest::newRow("g4 plain json") << "trace_view.json"
                                   << "trace_view" << -1 << -1 << "";
}

void TestFolderPatterns::exportFileNames()
{
    QFETCH(QString, name);
    QFETCH(QString, type);
    QFETCH(int, iteration);
    QFETCH(int, slice);
    QFETCH(QString, timestamp);
    const auto parsed = parseExportFileName(name);
    QVERIFY(parsed);
    QCOMPARE(parsed->type, type);
    QCOMPARE(parsed->iteration.value_or(-1), iteration);
    QCOMPARE(parsed->slice.value_or(-1), slice);
    QCOMPARE(parsed->timestamp, timestamp);
}

void TestFolderPatterns::masterTimelineNames()
{
    for (const char *yes : {"msprof_0_1_1.json", "msprof_20230919172305.json",
                            "msprof_slice_0_20230919172304.json", "msprof_001.json", "msprof.json"})
        QVERIFY2(isMasterTimelineName(QString::fromLatin1(yes)), yes);
    for (const char *no : {"msprof_tx_20230919172305.json", "msprof_0_1_1.csv", "trace_view.json",
                           "task_time_0_1_1.json", "xmsprof_1.json"})
        QVERIFY2(!isMasterTimelineName(QString::fromLatin1(no)), no);
}

void TestFolderPatterns::folderAndFileNames()
{
    QVERIFY(isStrictProfDirName("PROF_000001_20220729204439087_FMDBBBNDOAKFEOIA"));
    QVERIFY(!isStrictProfDirName("PROF_001"));
    QVERIFY(isProfDirName("PROF_001"));
    QCOMPARE(deviceIdFromDirName("device_12").value_or(-1), 12);
    QVERIFY(!deviceIdFromDirName("device_x"));
    QVERIFY(isTorchRootName("host_123_20240101_ascend_pt"));
    QVERIFY(isTorchRootName("rank0_ascend_ms"));
    QVERIFY(!isTorchRootName("rank0_ascend_pt_old"));
    QCOMPARE(rankFromProfilerInfoName("profiler_info_3.json").value_or(-1), 3);
    QVERIFY(isProfilerInfoName("profiler_info.json"));
    QVERIFY(!rankFromProfilerInfoName("profiler_info.json"));
    QVERIFY(isMsprofDbName("msprof_20230919172305.db"));
    QVERIFY(!isMsprofDbName("msprof.db"));
    QVERIFY(isTorchDbName("ascend_pytorch_profiler.db"));
    QCOMPARE(rankFromTorchDbName("ascend_pytorch_profiler_7.db").value_or(-1), 7);
    QVERIFY(isTorchDbName("ascend_mindspore_profiler_1.db"));
    QVERIFY(!isTorchDbName("analysis.db"));
    for (const char *yes :
         {"sample.json", "info.json", "info.json.0", "start_info", "end_info.3", "host_start.log",
          "dev_start.log.1", "profiler_info_0.json", "profiler_metadata.json"})
        QVERIFY2(isConfigFileName(QString::fromLatin1(yes)), yes);
    QVERIFY(!isConfigFileName("info.json.done"));
    QCOMPARE(rankFromFolderName("rank0_ascend_pt").value_or(-1), 0);
    QCOMPARE(rankFromFolderName("rank_3").value_or(-1), 3);
    QCOMPARE(rankFromFolderName("job_Rank-12_x").value_or(-1), 12);
    QVERIFY(!rankFromFolderName("frank2"));
    QVERIFY(!rankFromFolderName("ranking"));
}

void TestFolderPatterns::naturalOrder()
{
    QVERIFY(naturalLess("msprof_slice_2_1.json", "msprof_slice_10_1.json"));
    QVERIFY(naturalLess("device_9", "device_10"));
    QVERIFY(!naturalLess("device_10", "device_9"));
    QVERIFY(naturalLess("a", "b"));
    QVERIFY(naturalLess("rank", "rank0"));
    QCOMPARE(compareTimestamps("001", "1"), 0);
    QVERIFY(compareTimestamps("", "0") < 0);
    QVERIFY(compareTimestamps("20230919172305", "20230919172304") > 0);
    QVERIFY(compareTimestamps("99", "100") < 0);
}

static QList<ExportFile> exportFiles(const QStringList &names)
{
    QList<ExportFile> out;
    for (const QString &n : names)
        out.append({n, *parseExportFileName(n)});
    return out;
}

static QStringList paths(const QList<ExportFile> &files)
{
    QStringList out;
    for (const ExportFile &f : files)
        out.append(f.path);
    return out;
}

void TestFolderPatterns::newestExportSelection()
{
    // Old export: three slices at ...100. New export: slices 0..2 written over two seconds, plus slice_10.
    const QStringList names = {"msprof_slice_0_20240101000100.json",  "msprof_slice_1_20240101000100.json",
                               "msprof_slice_2_20240101000100.json",  "msprof_slice_0_20240101000200.json",
                               "msprof_slice_10_20240101000201.json", "msprof_slice_2_20240101000201.json",
                               "msprof_slice_1_20240101000200.json",  "op_summary_20240101000100.csv",
                               "op_summary_20240101000202.csv"};
    QCOMPARE(paths(selectNewestExports(exportFiles(names))),
             QStringList({"msprof_slice_0_20240101000200.json", "msprof_slice_1_20240101000200.json",
                          "msprof_slice_2_20240101000201.json", "msprof_slice_10_20240101000201.json",
                          "op_summary_20240101000202.csv"}));

    // An unsliced re-export newer than the sliced one replaces it, and vice versa.
    QCOMPARE(paths(selectNewestExports(
                 exportFiles({"msprof_slice_0_5.json", "msprof_slice_1_5.json", "msprof_6.json"}))),
             QStringList({"msprof_6.json"}));
    QCOMPARE(paths(selectNewestExports(
                 exportFiles({"msprof_slice_0_7.json", "msprof_slice_1_7.json", "msprof_6.json"}))),
             QStringList({"msprof_slice_0_7.json", "msprof_slice_1_7.json"}));
}

void TestFolderPatterns::newestExportSelectionG1()
{
    // Every iteration is kept (one file set per iteration); a timestamped re-export replaces its iteration.
    const QStringList names = {"msprof_0_1_2.json", "msprof_0_1_10.json", "msprof_0_1_1.json",
                               "msprof_0_1_1_20220801000000.json", "hccl_0_1_1.json"};
    QCOMPARE(paths(selectNewestExports(exportFiles(names))),
             QStringList({"hccl_0_1_1.json", "msprof_0_1_1_20220801000000.json", "msprof_0_1_2.json",
                          "msprof_0_1_10.json"}));
}

QTEST_GUILESS_MAIN(TestFolderPatterns)
#include "tst_folder_patterns.moc"
