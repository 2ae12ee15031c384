// Folder layout detection on the real sample results in shared/samples (FORMATS.md §8.2).

#include "FolderTestUtil.h"
#include "TestPaths.h"

#include "folder/ProfileLayoutDetector.h"

#include <QTest>

using namespace at;
using at::test::describe;
using at::test::detectWithReaders;
using at::test::fileNames;
using at::test::labels;

namespace {

QString sample(const QString &relative)
{
    return QDir::cleanPath((at::test::samplesDir() + QStringLiteral("/")) + relative);
}

const QString kAlexText = QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text");
const QString kAlexDb = QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/db");
const QString kQwen = QStringLiteral("msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2");
const QString kG3Reports =
    QStringLiteral("ascend_msprof_skill_cann8_sanitized/tests/fixtures/real_cann_minimal/reports");
const QString kMisc = QStringLiteral("msinsight_msprof_db_and_misc/server/src/test/test_data");

const QStringList kLevel1Csv = {"api_statistic",    "kernel_details",  "l2_cache",
                                "memory_record",    "npu_module_mem",  "op_statistic",
                                "operator_details", "operator_memory", "step_trace_time"};

QStringList csvTypes(const DataSource &s)
{
    return s.summaryFiles.keys();
}

} // namespace

class TestFolderSamples : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void alexnetSingleLevel_data();
    void alexnetSingleLevel();
    void alexnetLevel1TwoRanks();
    void alexnetAllLevelsAreSeparateRuns();
    void alexnetDatabaseOnly();
    void qwenFourRanksWithoutTimeline();
    void g3ProfFolder_data();
    void g3ProfFolder();
    void samplesRootStopsAtDepthLimit();
    void samplesRootWithDeeperLimit();
    void traceViewFileOpenedDirectly();
    void outputFolderChosenLoadsRank();
    void looseTraceViewFolder();
    void msprofDatabaseFile();
    void nonTimelineFiles();
};

void TestFolderSamples::initTestCase()
{
    QVERIFY2(QFileInfo(at::test::samplesDir()).isDir(), "the samples folder (AT_SAMPLES_DIR) is missing");
}

void TestFolderSamples::alexnetSingleLevel_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QStringList>("csv");

    QTest::newRow("level0") << kAlexText + "/level0/rank0_ascend_pt"
                            << QStringList{"kernel_details", "l2_cache",         "memory_record",
                                           "npu_module_mem", "operator_details", "operator_memory",
                                           "step_trace_time"};
    QTest::newRow("level1 rank0") << kAlexText + "/level1/rank0_ascend_pt" << kLevel1Csv;
    QTest::newRow("level2") << kAlexText + "/level2" << kLevel1Csv;
}

void TestFolderSamples::alexnetSingleLevel()
{
    QFETCH(QString, path);
    QFETCH(QStringList, csv);
    const DetectedProfile r = detectWithReaders(sample(path));
    QVERIFY2(r.sources.size() == 1, describe(r));
    const DataSource &s = r.sources.front();
    QCOMPARE(s.generation, ProfileGeneration::G4);
    QCOMPARE(s.format, jsonTimelineReader().formatId());
    QVERIFY(s.torchRoot);
    QCOMPARE(s.label, QStringLiteral("Rank 0"));
    QCOMPARE(s.rankId.value_or(-1), 0);
    QVERIFY(!s.deviceId);
    QCOMPARE(fileNames(s.timelineFiles), QStringList{"trace_view.json"});
    QVERIFY(s.timelineFiles.front().endsWith("rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"));
    QCOMPARE(csvTypes(s), csv);
    QCOMPARE(fileNames(s.configFiles), QStringList({"profiler_info_0.json", "profiler_metadata.json"}));
    QVERIFY(s.timelineDatabase.isEmpty());
    QVERIFY(s.profPath.isEmpty());
    QVERIFY2(r.diagnostics.isEmpty(), describe(r));
}

void TestFolderSamples::alexnetLevel1TwoRanks()
{
    const QString level1 = sample(kAlexText + "/level1");
    const DetectedProfile r = detectWithReaders(level1);
    QCOMPARE(labels(r), QStringList({"Rank 0", "Rank 1"}));
    QVERIFY2(r.diagnostics.isEmpty(), describe(r));
    for (int rank = 0; rank < 2; ++rank) {
        const DataSource &s = r.sources[rank];
        QCOMPARE(s.generation, ProfileGeneration::G4);
        QCOMPARE(s.rankId.value_or(-1), rank);
        QCOMPARE(s.clusterPath, level1); // siblings: one multi-rank run
        QCOMPARE(s.timelineFiles,
                 QStringList{level1 + QStringLiteral("/rank%1_ascend_pt/ASCEND_PROFILER_OUTPUT/"
                                                     "trace_view.json")
                                          .arg(rank)});
        QCOMPARE(csvTypes(s), kLevel1Csv);
        QCOMPARE(fileNames(s.summaries("kernel_details")), QStringList{"kernel_details.csv"});
        QCOMPARE(fileNames(s.configFiles),
                 QStringList({QStringLiteral("profiler_info_%1.json").arg(rank), "profiler_metadata.json"}));
    }
}

void TestFolderSamples::alexnetAllLevelsAreSeparateRuns()
{
    const DetectedProfile r = detectWithReaders(sample(kAlexText));
    QCOMPARE(labels(r), QStringList({"Rank 0 (level0/rank0_ascend_pt)", "Rank 0 (level1/rank0_ascend_pt)",
                                     "Rank 1", "Rank 0 (level2/rank0_ascend_pt)"}));
    QVERIFY2(r.hasDiagnostic(DiagnosticCode::MultipleRuns), describe(r));
    QCOMPARE(r.diagnostics.size(), 1);
    QVERIFY(r.hasLoadableTimeline());
}

void TestFolderSamples::alexnetDatabaseOnly()
{
    for (const QString &path : {kAlexDb, kAlexDb + "/level1", kAlexDb + "/level1/rank0_ascend_pt"}) {
        const DetectedProfile r = detectWithReaders(sample(path));
        QVERIFY2(r.sources.size() == 1, describe(r));
        const DataSource &s = r.sources.front();
        QCOMPARE(s.generation, ProfileGeneration::G4);
        QCOMPARE(s.format, databaseReader().formatId());
        QCOMPARE(s.label, QStringLiteral("Rank 0"));
        QCOMPARE(fileNames(s.timelineFiles), QStringList{"ascend_pytorch_profiler_0.db"});
        QCOMPARE(s.timelineDatabase, s.timelineFiles.front());
        QCOMPARE(fileNames(s.otherDatabases), QStringList{"analysis.db"});
        QVERIFY(s.summaryFiles.isEmpty());
        QCOMPARE(fileNames(s.configFiles), QStringList{"profiler_info_0.json"});
        QVERIFY2(r.diagnostics.isEmpty(), describe(r));
    }
}

void TestFolderSamples::qwenFourRanksWithoutTimeline()
{
    const DetectedProfile r = detectWithReaders(sample(kQwen));
    QCOMPARE(labels(r), QStringList({"Rank 0", "Rank 1", "Rank 2", "Rank 3"}));
    QVERIFY(!r.hasLoadableTimeline());
    QCOMPARE(r.diagnosticsWith(DiagnosticCode::NoTimeline).size(), 4);
    QCOMPARE(r.diagnostics.size(), 4);
    const QStringList full = {"api_statistic", "kernel_details",  "memory_record",  "npu_module_mem",
                              "op_statistic",  "operator_memory", "step_trace_time"};
    for (int rank = 0; rank < 4; ++rank) {
        const DataSource &s = r.sources[rank];
        QCOMPARE(s.generation, ProfileGeneration::G4);
        QCOMPARE(s.format, QString());
        QVERIFY(s.timelineFiles.isEmpty());
        QCOMPARE(s.rankId.value_or(-1), rank);
        QCOMPARE(fileNames(s.otherDatabases), QStringList{"analysis.db"});
        QCOMPARE(csvTypes(s), rank % 2 == 0 ? full : QStringList{"step_trace_time"});
    }
}

void TestFolderSamples::g3ProfFolder_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("PROF_001") << kG3Reports + "/PROF_001";
    QTest::newRow("reports") << kG3Reports;
    QTest::newRow("fixture root") << kG3Reports + "/../..";
}

void TestFolderSamples::g3ProfFolder()
{
    QFETCH(QString, path);
    const DetectedProfile r = detectWithReaders(sample(path));
    QVERIFY2(r.sources.size() == 1, describe(r));
    const DataSource &s = r.sources.front();
    QCOMPARE(s.generation, ProfileGeneration::G3);
    QCOMPARE(s.format, jsonTimelineReader().formatId());
    QVERIFY(!s.torchRoot);
    QCOMPARE(s.label, QStringLiteral("PROF_001"));
    QCOMPARE(s.rootPath, sample(kG3Reports + "/PROF_001"));
    QCOMPARE(s.profPath, s.rootPath);
    QCOMPARE(s.timelineFiles, QStringList{s.rootPath + "/mindstudio_profiler_output/msprof_001.json"});
    QCOMPARE(csvTypes(s), QStringList({"api_statistic", "op_statistic", "op_summary", "task_time"}));
    QCOMPARE(fileNames(s.summaries("op_summary")), QStringList{"op_summary_001.csv"});
    QVERIFY2(r.diagnostics.isEmpty(), describe(r));
}

void TestFolderSamples::samplesRootStopsAtDepthLimit()
{
    // The G3 PROF_001 is 6 levels down (found); the AlexNet ranks are 7 levels down (not searched). The two
    // GPU traces are ranks 0 and 1 too: those labels say where they are.
    const DetectedProfile r = detectWithReaders(at::test::samplesDir());
    const QString qwen = QStringLiteral("msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2/");
    QCOMPARE(labels(r), QStringList({"PROF_001", "Rank 0 (hta_kineto_gpu_traces/nccl_data.json.gz)",
                                     "Rank 1 (hta_kineto_gpu_traces/df_index_resolver.json.gz)",
                                     "Rank 0 (" + qwen + "rank_0_ascend_pt)",
                                     "Rank 1 (" + qwen + "rank_1_ascend_pt)", "Rank 2", "Rank 3"}));
    QCOMPARE(r.sources.front().generation, ProfileGeneration::G3);
    const auto depth = r.diagnosticsWith(DiagnosticCode::DepthLimit);
    QCOMPARE(depth.size(), 1);
    QCOMPARE(depth.front().severity, DiagnosticSeverity::Info);
    QVERIFY(r.hasDiagnostic(DiagnosticCode::MultipleRuns));
}

void TestFolderSamples::samplesRootWithDeeperLimit()
{
    DetectOptions options;
    options.maxDepth = 7;
    const DetectedProfile r = detectWithReaders(at::test::samplesDir(), options);
    QCOMPARE(r.sources.size(), 12); // + AlexNet level0/1/2 text (4 ranks) and db (1 rank); the 2 GPU traces
    QVERIFY(!r.hasDiagnostic(DiagnosticCode::DepthLimit));
}

void TestFolderSamples::traceViewFileOpenedDirectly()
{
    const QString file = sample(kAlexText + "/level1/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json");
    const DetectedProfile r = detectWithReaders(file);
    QVERIFY2(r.sources.size() == 1, describe(r));
    const DataSource &s = r.sources.front();
    QCOMPARE(s.generation, ProfileGeneration::G4);
    QCOMPARE(s.format, jsonTimelineReader().formatId());
    QCOMPARE(s.timelineFiles, QStringList{file});
    QCOMPARE(s.label, QStringLiteral("Rank 1")); // from the root's profiler_info_1.json
    QVERIFY(r.diagnostics.isEmpty());
}

void TestFolderSamples::outputFolderChosenLoadsRank()
{
    const QString root = sample(kAlexText + "/level1/rank1_ascend_pt");
    const DetectedProfile r = detectWithReaders(root + "/ASCEND_PROFILER_OUTPUT");
    QCOMPARE(labels(r), QStringList{"Rank 1"});
    QCOMPARE(r.sources.front().rootPath, root);
    QCOMPARE(csvTypes(r.sources.front()), kLevel1Csv);
    QVERIFY2(r.hasDiagnostic(DiagnosticCode::EnclosingFolderUsed), describe(r));
}

void TestFolderSamples::looseTraceViewFolder()
{
    const DetectedProfile r = detectWithReaders(sample(kMisc + "/heatMap"));
    QVERIFY2(r.sources.size() == 1, describe(r));
    QCOMPARE(r.sources.front().generation, ProfileGeneration::G4);
    QCOMPARE(fileNames(r.sources.front().timelineFiles), QStringList{"trace_view.json"});
    QCOMPARE(r.sources.front().label, QStringLiteral("heatMap"));
    QVERIFY(r.hasDiagnostic(DiagnosticCode::LooseFilesUsed));
}

void TestFolderSamples::msprofDatabaseFile()
{
    const QString db = sample(kMisc + "/full_db/msprof_0.db");
    DetectedProfile r = detectWithReaders(db);
    QVERIFY2(r.sources.size() == 1, describe(r));
    QCOMPARE(r.sources.front().generation, ProfileGeneration::G3);
    QCOMPARE(r.sources.front().format, databaseReader().formatId());
    QCOMPARE(r.sources.front().timelineFiles, QStringList{db});

    r = detectWithReaders(sample(kMisc + "/full_db")); // folder with a copied DB
    QVERIFY2(r.sources.size() == 1, describe(r));
    QCOMPARE(r.sources.front().format, databaseReader().formatId());
    QCOMPARE(r.sources.front().timelineFiles, QStringList{db});
}

void TestFolderSamples::nonTimelineFiles()
{
    for (const QString &path :
         {sample(kAlexText + "/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"),
          sample(kAlexDb + "/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/analysis.db"),
          sample(kMisc + "/metadata/profiler_metadata.json")}) {
        const DetectedProfile r = detectWithReaders(path);
        QVERIFY2(r.sources.isEmpty(), describe(r));
        QVERIFY2(r.hasDiagnostic(DiagnosticCode::NotATimelineFile), describe(r));
    }
}

QTEST_GUILESS_MAIN(TestFolderSamples)
#include "tst_folder_samples.moc"
