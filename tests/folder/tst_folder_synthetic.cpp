// Folder layout detection on synthetic trees built in a QTemporaryDir: layouts without real samples
// (G1, G2, sliced G3, raw-only, unparsed G4) and the error paths (loops, permissions, depth, nothing found).

#include "FolderTestUtil.h"

#include "folder/ProfileLayoutDetector.h"

#include "Unprivileged.h"

#include <QDirIterator>
#include <QTest>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

using namespace at;
using at::test::describe;
using at::test::detectWithReaders;
using at::test::fileNames;
using at::test::labels;
using at::test::Tree;

namespace {

const QString kProf = QStringLiteral("PROF_000001_20220729204439087_FMDBBBNDOAKFEOIA");

QStringList treeSnapshot(const QString &root)
{
    QStringList out;
    QDirIterator it(root, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        out.append(it.next());
    out.sort();
    return out;
}

} // namespace

class TestFolderSynthetic : public QObject
{
    Q_OBJECT

private slots:
    void g1PerIterationFiles();
    void g1ChosenTimelineFolderLoadsWholeProf();
    void g2PrefersTopLevelTimeline();
    void g2FallsBackToHostAndDeviceCopies();
    void g3NewestSlicedGroup();
    void g3CsvSlices();
    void g3DatabaseOnly();
    void rawOnlyProf();
    void unparsedTorchProfile();
    void g4IgnoresEmbeddedProf();
    void g4FallsBackToEmbeddedProf();
    void parentWithThreeRanks();
    void rankFromFolderNames();
    void symlinkLoop();
    void unreadableDirectory();
    void nothingRecognised();
    void depthLimit();
    void folderLimit();
    void singleFiles();
    void missingPath();
};

void TestFolderSynthetic::g1PerIterationFiles()
{
    Tree t;
    const QString prof = "result/" + kProf;
    QVERIFY(t.files(prof + "/device_0/timeline",
                    {"msprof_0_1_1.json", "msprof_0_1_2.json", "msprof_0_1_10.json", "task_time_0_1_1.json",
                     "hccl_0_1_1.json", "acl_0_1_1.json", "ge_0_1_1.json", "runtime_api_0_1_1.json",
                     "step_trace_0_1_1.json", "msprof_tx_0_1_1.json"}));
    QVERIFY(t.files(prof + "/device_0/summary",
                    {"op_summary_0_1_1.csv", "op_summary_0_1_2.csv", "op_summary_0_1_10.csv",
                     "task_time_0_1_1.csv", "op_statistic_0_1_1.csv", "step_trace_0_1_1.csv",
                     "aicpu_0_1_1.csv", "acl_0_1_1.csv"}));
    QVERIFY(t.files(prof + "/device_0/data",
                    {"info.json.0", "sample.json", "start_info.0", "end_info.0", "dev_start.log.0",
                     "hwts.log.data.45.dev.profiler_default_tag.0.slice_0",
                     "hwts.log.data.45.dev.0.slice_0.done"}));
    QVERIFY(t.file(prof + "/device_0/sqlite/hwts.db", ""));
    QVERIFY(t.files(prof + "/device_1/timeline", {"msprof_1_1_1.json"}));
    QVERIFY(t.files(prof + "/device_1/data", {"info.json.1"}));
    QVERIFY(t.files(prof + "/host/data", {"info.json", "host_start.log", "sample.json", "start_info"}));
    QVERIFY(t.files(prof + "/host/timeline", {"acl_0_1_1.json"})); // no msprof*.json: still G1, not G2
    const QStringList before = treeSnapshot(t.root());

    const DetectedProfile r = detectWithReaders(t.path("result"));
    QCOMPARE(labels(r), QStringList({"Device 0", "Device 1"}));
    QVERIFY2(r.diagnostics.isEmpty(), describe(r));
    const DataSource &s = r.sources.front();
    QCOMPARE(s.generation, ProfileGeneration::G1);
    QCOMPARE(s.format, jsonTimelineReader().formatId());
    QCOMPARE(s.deviceId.value_or(-1), 0);
    QCOMPARE(s.rootPath, t.path(prof));
    // Every iteration in iteration order; task_time/acl/ge/runtime_api/step_trace duplicate msprof_*.
    QCOMPARE(fileNames(s.timelineFiles),
             QStringList({"msprof_0_1_1.json", "msprof_0_1_2.json", "msprof_0_1_10.json"}));
    QCOMPARE(fileNames(s.supplementaryTimelineFiles), QStringList{"hccl_0_1_1.json"});
    QCOMPARE(s.summaryFiles.keys(),
             QStringList({"acl", "aicpu", "op_statistic", "op_summary", "step_trace", "task_time"}));
    QCOMPARE(fileNames(s.summaries("op_summary")),
             QStringList({"op_summary_0_1_1.csv", "op_summary_0_1_2.csv", "op_summary_0_1_10.csv"}));
    QCOMPARE(fileNames(s.configFiles),
             QStringList({"host_start.log", "info.json", "sample.json", "start_info", "dev_start.log.0",
                          "end_info.0", "info.json.0", "sample.json", "start_info.0"}));
    QCOMPARE(s.rawDataDirs, QStringList({t.path(prof + "/host/data"), t.path(prof + "/device_0/data")}));
    QVERIFY(s.timelineDatabase.isEmpty()); // sqlite/hwts.db is an msprof intermediate

    const DataSource &d1 = r.sources[1];
    QCOMPARE(fileNames(d1.timelineFiles), QStringList{"msprof_1_1_1.json"});
    QCOMPARE(fileNames(d1.configFiles),
             QStringList({"host_start.log", "info.json", "sample.json", "start_info", "info.json.1"}));

    QCOMPARE(treeSnapshot(t.root()), before); // detection never writes into the input
}

void TestFolderSynthetic::g1ChosenTimelineFolderLoadsWholeProf()
{
    Tree t;
    QVERIFY(t.files(kProf + "/device_0/timeline", {"msprof_0_1_1.json"}));
    QVERIFY(t.files(kProf + "/device_2/timeline", {"msprof_2_1_1.json"}));
    const DetectedProfile r = detectWithReaders(t.path(kProf + "/device_0/timeline"));
    QCOMPARE(labels(r), QStringList({"Device 0", "Device 2"}));
    QVERIFY2(r.hasDiagnostic(DiagnosticCode::EnclosingFolderUsed), describe(r));
}

void TestFolderSynthetic::g2PrefersTopLevelTimeline()
{
    Tree t;
    QVERIFY(t.files(kProf + "/timeline", {"msprof_20230101120000.json"}));
    QVERIFY(t.files(kProf + "/host/timeline", {"msprof_20230101120000.json", "acl_20230101120000.json"}));
    QVERIFY(t.files(kProf + "/host/summary", {"acl_statistic_20230101120000.csv"}));
    QVERIFY(t.files(kProf + "/device_0/timeline", {"msprof_0_1_1.json", "task_time_0_1_1.json"}));
    QVERIFY(t.files(kProf + "/device_0/summary", {"op_summary_0_1_1.csv"}));
    QVERIFY(t.files(kProf + "/device_0/data", {"info.json.0"}));

    const DetectedProfile r = detectWithReaders(t.root());
    QVERIFY2(r.sources.size() == 1, describe(r));
    const DataSource &s = r.sources.front();
    QCOMPARE(s.generation, ProfileGeneration::G2);
    QCOMPARE(s.label, QStringLiteral("Device 0"));
    QCOMPARE(s.timelineFiles, QStringList{t.path(kProf + "/timeline/msprof_20230101120000.json")});
    QCOMPARE(s.summaryFiles.keys(), QStringList({"acl_statistic", "op_summary"}));
    QVERIFY2(r.diagnostics.isEmpty(), describe(r));
}

void TestFolderSynthetic::g2FallsBackToHostAndDeviceCopies()
{
    Tree t;
    QVERIFY(t.files(kProf + "/host/timeline", {"msprof_20230101120000.json"}));
    QVERIFY(t.files(kProf + "/device_0/timeline", {"msprof_0_1_1.json", "task_time_0_1_1.json"}));
    QVERIFY(t.files(kProf + "/device_1/timeline", {"msprof_1_1_1.json"}));

    const DetectedProfile r = detectWithReaders(t.path(kProf));
    QVERIFY2(r.sources.size() == 1, describe(r));
    const DataSource &s = r.sources.front();
    QCOMPARE(s.generation, ProfileGeneration::G2);
    QVERIFY(!s.deviceId); // two devices merged in one source
    QCOMPARE(s.label, kProf);
    QCOMPARE(s.timelineFiles, QStringList({t.path(kProf + "/host/timeline/msprof_20230101120000.json"),
                                           t.path(kProf + "/device_0/timeline/msprof_0_1_1.json"),
                                           t.path(kProf + "/device_1/timeline/msprof_1_1_1.json")}));
}

void TestFolderSynthetic::g3NewestSlicedGroup()
{
    Tree t;
    const QString out = kProf + "/mindstudio_profiler_output";
    // Old export: 2 slices. New export: slices 0..10 written over two seconds.
    QVERIFY(t.files(out, {"msprof_slice_0_20240101000100.json", "msprof_slice_1_20240101000100.json"}));
    QStringList expected;
    for (int k = 0; k <= 10; ++k) {
        const QString name = QStringLiteral("msprof_slice_%1_2024010100020%2.json").arg(k).arg(k < 6 ? 0 : 1);
        QVERIFY(t.file(out + "/" + name));
        expected.append(name);
    }
    QVERIFY(t.files(out, {"msprof_tx_20240101000200.json", "step_trace_20240101000200.json",
                          "op_summary_20240101000100.csv", "op_summary_20240101000200.csv", "README.txt"}));
    QVERIFY(t.file(kProf + "/msprof_20240101000200.db", ""));
    QVERIFY(t.files(kProf + "/device_0/data", {"info.json.0", "sample.json"}));
    QVERIFY(t.files(kProf + "/host/data", {"info.json"}));

    DetectedProfile r = detectWithReaders(t.root());
    QVERIFY2(r.sources.size() == 1, describe(r));
    const DataSource &s = r.sources.front();
    QCOMPARE(s.generation, ProfileGeneration::G3);
    QCOMPARE(s.format, jsonTimelineReader().formatId());
    QCOMPARE(s.label, QStringLiteral("Device 0"));
    QCOMPARE(fileNames(s.timelineFiles), expected); // slice_10 after slice_2
    QCOMPARE(fileNames(s.summaries("op_summary")), QStringList{"op_summary_20240101000200.csv"});
    QCOMPARE(QFileInfo(s.timelineDatabase).fileName(), QStringLiteral("msprof_20240101000200.db"));
    QVERIFY2(r.diagnostics.isEmpty(), describe(r));

    DetectOptions preferDb;
    preferDb.preferDatabase = true;
    r = detectWithReaders(t.root(), preferDb);
    QCOMPARE(r.sources.front().format, databaseReader().formatId());
    QCOMPARE(fileNames(r.sources.front().timelineFiles), QStringList{"msprof_20240101000200.db"});
}

void TestFolderSynthetic::g3CsvSlices()
{
    Tree t;
    const QString out = "PROF_001/mindstudio_profiler_output";
    QVERIFY(t.files(out, {"msprof_20240101000300.json", "op_summary_20240101000100.csv",
                          "op_summary_slice_0_20240101000300.csv", "op_summary_slice_1_20240101000300.csv",
                          "op_summary_slice_2_20240101000300.csv", "op_summary_slice_10_20240101000301.csv",
                          "task_time_slice_1_20240101000300.csv", "task_time_slice_0_20240101000300.csv",
                          "api_statistic_20240101000300.csv"}));
    const DetectedProfile r = detectWithReaders(t.path("PROF_001"));
    QVERIFY2(r.sources.size() == 1, describe(r));
    const DataSource &s = r.sources.front();
    QCOMPARE(s.summaryFiles.keys(), QStringList({"api_statistic", "op_summary", "task_time"}));
    QCOMPARE(
        fileNames(s.summaries("op_summary")),
        QStringList({"op_summary_slice_0_20240101000300.csv", "op_summary_slice_1_20240101000300.csv",
                     "op_summary_slice_2_20240101000300.csv", "op_summary_slice_10_20240101000301.csv"}));
    QCOMPARE(fileNames(s.summaries("task_time")),
             QStringList({"task_time_slice_0_20240101000300.csv", "task_time_slice_1_20240101000300.csv"}));
}

void TestFolderSynthetic::g3DatabaseOnly()
{
    Tree t;
    QVERIFY(t.file(kProf + "/msprof_20240101000000.db", ""));
    QVERIFY(t.files(kProf + "/device_4/data", {"info.json.4"}));
    const DetectedProfile r = detectWithReaders(t.root());
    QVERIFY2(r.sources.size() == 1, describe(r));
    QCOMPARE(r.sources.front().generation, ProfileGeneration::G3);
    QCOMPARE(r.sources.front().format, databaseReader().formatId());
    QCOMPARE(r.sources.front().label, QStringLiteral("Device 4"));
    QCOMPARE(fileNames(r.sources.front().timelineFiles), QStringList{"msprof_20240101000000.db"});
}

void TestFolderSynthetic::rawOnlyProf()
{
    Tree t;
    QVERIFY(t.files(kProf + "/device_0/data", {"hwts.log.data.45.dev.profiler_default_tag.0.slice_0",
                                               "info.json.0", "sample.json", "start_info.0", "end_info.0"}));
    QVERIFY(t.files(kProf + "/host/data",
                    {"aging.additional.type_info_dic.slice_0", "info.json", "host_start.log"}));

    const DetectedProfile r = detectWithReaders(t.root());
    QVERIFY2(r.sources.size() == 1, describe(r));
    const DataSource &s = r.sources.front();
    QCOMPARE(s.generation, ProfileGeneration::RawOnly);
    QCOMPARE(s.format, rawDataReader().formatId());
    QVERIFY(!s.hasTimeline());
    QVERIFY(!r.hasLoadableTimeline());
    QCOMPARE(s.rawDataDirs, QStringList({t.path(kProf + "/host/data"), t.path(kProf + "/device_0/data")}));
    const auto raw = r.diagnosticsWith(DiagnosticCode::RawDataOnly);
    QCOMPARE(raw.size(), 1);
    QVERIFY2(raw.front().message.contains(
                 QStringLiteral("raw data only: run `msprof --export=on --output=%1`").arg(t.path(kProf))),
             qPrintable(raw.front().message));
    QVERIFY(!r.hasDiagnostic(DiagnosticCode::NothingRecognised));
}

void TestFolderSynthetic::unparsedTorchProfile()
{
    Tree t;
    const QString root = "prof/host_1234_20240101120000000_ascend_pt";
    QVERIFY(t.files(root + "/FRAMEWORK", {"torch.op_range", "torch.memory_usage"}));
    QVERIFY(t.files(root + "/" + kProf + "/device_0/data", {"info.json.0", "stars_soc.data.0.slice_0"}));
    QVERIFY(t.files(root + "/" + kProf + "/host/data", {"info.json"}));

    const DetectedProfile r = detectWithReaders(t.path("prof"));
    QVERIFY2(r.sources.size() == 1, describe(r));
    const DataSource &s = r.sources.front();
    QVERIFY(s.torchRoot);
    QCOMPARE(s.generation, ProfileGeneration::RawOnly);
    QCOMPARE(s.format, rawDataReader().formatId());
    QCOMPARE(s.label, QStringLiteral("Device 0"));
    const auto unparsed = r.diagnosticsWith(DiagnosticCode::UnparsedTorchProfile);
    QCOMPARE(unparsed.size(), 1);
    QVERIFY(unparsed.front().message.contains(
        QStringLiteral("run `torch_npu.profiler.profiler.analyse(\"%1\")`").arg(t.path(root))));
    QVERIFY2(!r.hasDiagnostic(DiagnosticCode::RawDataOnly), describe(r)); // one clear message, not two
}

void TestFolderSynthetic::g4IgnoresEmbeddedProf()
{
    Tree t;
    const QString root = "run/rank_2_ascend_pt";
    const QString prof = root + "/" + kProf;
    QVERIFY(t.files(root, {"profiler_info_2.json", "profiler_metadata.json"}));
    QVERIFY(t.files(root + "/ASCEND_PROFILER_OUTPUT",
                    {"trace_view.json", "kernel_details.csv", "step_trace_time.csv"}));
    QVERIFY(t.files(
        prof + "/mindstudio_profiler_output",
        {"msprof_20240101000000.json", "op_summary_20240101000000.csv", "npu_mem_20240101000000.csv"}));
    QVERIFY(t.files(prof + "/device_3/data", {"info.json.3"}));
    // A second path to the embedded PROF must not create a second source.
    QVERIFY(t.link("run/alias_of_prof", t.path(prof)));

    DetectedProfile r = detectWithReaders(t.path("run"));
    QVERIFY2(r.sources.size() == 1, describe(r));
    const DataSource &s = r.sources.front();
    QCOMPARE(s.generation, ProfileGeneration::G4);
    QCOMPARE(s.label, QStringLiteral("Rank 2 / Device 3"));
    QCOMPARE(fileNames(s.timelineFiles), QStringList{"trace_view.json"});
    QCOMPARE(s.profPath, t.path(prof));
    // kernel_details replaces op_summary; embedded tables fill gaps only.
    QCOMPARE(s.summaryFiles.keys(), QStringList({"kernel_details", "npu_mem", "step_trace_time"}));
    QCOMPARE(fileNames(s.configFiles),
             QStringList({"profiler_info_2.json", "profiler_metadata.json", "info.json.3"}));
    QVERIFY2(r.diagnostics.isEmpty(), describe(r));

    // Choosing the embedded PROF itself is honoured, with a hint about the G4 root.
    r = detectWithReaders(t.path(prof));
    QVERIFY2(r.sources.size() == 1, describe(r));
    QCOMPARE(r.sources.front().generation, ProfileGeneration::G3);
    QVERIFY(r.hasDiagnostic(DiagnosticCode::EmbeddedProfSelected));
}

void TestFolderSynthetic::g4FallsBackToEmbeddedProf()
{
    Tree t;
    const QString root = "w_ascend_pt";
    QVERIFY(t.files(root, {"profiler_info.json"}));
    QVERIFY(t.files(root + "/ASCEND_PROFILER_OUTPUT", {"kernel_details.csv"}));
    QVERIFY(t.files(root + "/PROF_000002_20240101000000000_ABCDEFGHIJKLMNOP/mindstudio_profiler_output",
                    {"msprof_slice_0_20240101000000.json", "msprof_slice_1_20240101000000.json",
                     "op_summary_20240101000000.csv"}));
    const DetectedProfile r = detectWithReaders(t.path(root));
    QVERIFY2(r.sources.size() == 1, describe(r));
    const DataSource &s = r.sources.front();
    QVERIFY(s.torchRoot);
    QCOMPARE(s.generation, ProfileGeneration::G3);
    QCOMPARE(s.format, jsonTimelineReader().formatId());
    QCOMPARE(fileNames(s.timelineFiles),
             QStringList({"msprof_slice_0_20240101000000.json", "msprof_slice_1_20240101000000.json"}));
    QCOMPARE(s.summaryFiles.keys(), QStringList{"kernel_details"});
    QVERIFY(r.hasDiagnostic(DiagnosticCode::EmbeddedProfFallback));
}

void TestFolderSynthetic::parentWithThreeRanks()
{
    Tree t;
    const QStringList roots = {"node-a_100_20240101_ascend_pt", "node-a_101_20240101_ascend_pt",
                               "node-b_200_20240101_ascend_pt"};
    const QList<int> ranks = {10, 0, 1};
    for (int i = 0; i < 3; ++i) {
        QVERIFY(t.files("top/job_42/" + roots[i], {QStringLiteral("profiler_info_%1.json").arg(ranks[i])}));
        QVERIFY(t.files("top/job_42/" + roots[i] + "/ASCEND_PROFILER_OUTPUT", {"trace_view.json"}));
    }
    const DetectedProfile r = detectWithReaders(t.path("top"));
    QCOMPARE(labels(r), QStringList({"Rank 0", "Rank 1", "Rank 10"}));
    for (const DataSource &s : r.sources)
        QCOMPARE(s.clusterPath, t.path("top/job_42"));
    QVERIFY2(r.diagnostics.isEmpty(), describe(r)); // one run: no MultipleRuns
}

void TestFolderSynthetic::rankFromFolderNames()
{
    Tree t;
    QVERIFY(t.files("runs/rank_3/" + kProf + "/mindstudio_profiler_output", {"msprof_1.json"}));
    QVERIFY(t.files("runs/rank_3/" + kProf + "/device_5/data", {"info.json.5"}));
    QVERIFY(t.files("runs/rank12_ascend_pt/ASCEND_PROFILER_OUTPUT", {"trace_view.json"}));
    const DetectedProfile r = detectWithReaders(t.path("runs"));
    QCOMPARE(labels(r), QStringList({"Rank 12", "Rank 3 / Device 5"}));
}

void TestFolderSynthetic::symlinkLoop()
{
    Tree t;
    QVERIFY(t.files("run/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT", {"trace_view.json"}));
    QVERIFY(t.dir("run/sub"));
    QVERIFY(t.link("run/loop", t.path("run")));
    QVERIFY(t.link("run/sub/up", t.root()));
    const DetectedProfile r = detectWithReaders(t.root());
    QCOMPARE(labels(r), QStringList{"Rank 0"});
    QCOMPARE(r.diagnosticsWith(DiagnosticCode::SymlinkLoop).size(), 2);
}

void TestFolderSynthetic::unreadableDirectory()
{
    Tree t;
    QVERIFY(t.files("run/ok_ascend_pt/ASCEND_PROFILER_OUTPUT", {"trace_view.json"}));
    QVERIFY(t.files("run/locked/" + kProf + "/mindstudio_profiler_output", {"msprof_1.json"}));
    const QString locked = t.path("run/locked");
    QVERIFY(QFile::setPermissions(locked, QFileDevice::Permissions()));
    DetectedProfile r;
    DetectedProfile direct;
    {
        // As root (CI), chmod 000 stops nobody: detect as an unprivileged user instead.
        const at::test::AsUnprivilegedUser unprivileged(t.root());
        QVERIFY(unprivileged.ok());
        r = detectWithReaders(t.path("run"));
        direct = detectWithReaders(locked);
    }
    QFile::setPermissions(locked, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);

    QCOMPARE(labels(r), QStringList{"ok_ascend_pt"});
    const auto denied = r.diagnosticsWith(DiagnosticCode::PermissionDenied);
    QCOMPARE(denied.size(), 1);
    QCOMPARE(denied.front().path, locked);
    QCOMPARE(denied.front().severity, DiagnosticSeverity::Warning);
    QVERIFY(direct.sources.isEmpty());
    QCOMPARE(direct.diagnosticsWith(DiagnosticCode::PermissionDenied).size(), 1);
    QCOMPARE(direct.diagnostics.front().severity, DiagnosticSeverity::Error);
}

void TestFolderSynthetic::nothingRecognised()
{
    Tree t;
    QVERIFY(t.file("docs/readme.txt", "hello"));
    QVERIFY(t.file("other/settings.json", "{\"a\": 1}"));
    QVERIFY(t.dir("PROF_empty/device_0")); // PROF_ without data: not a result
    const DetectedProfile r = detectWithReaders(t.root());
    QVERIFY(r.sources.isEmpty());
    const auto none = r.diagnosticsWith(DiagnosticCode::NothingRecognised);
    QCOMPARE(none.size(), 1);
    QCOMPARE(none.front().severity, DiagnosticSeverity::Error);
    QVERIFY(none.front().message.contains(QDir::cleanPath(t.root())));
    QVERIFY(none.front().message.contains("_ascend_pt"));
}

void TestFolderSynthetic::depthLimit()
{
    Tree t;
    // Found: 6 levels below the chosen folder. Not found: 7 levels below.
    QVERIFY(t.files("d1/d2/d3/d4/d5/six_ascend_pt/ASCEND_PROFILER_OUTPUT", {"trace_view.json"}));
    QVERIFY(t.files("e1/e2/e3/e4/e5/e6/seven_ascend_pt/ASCEND_PROFILER_OUTPUT", {"trace_view.json"}));

    DetectedProfile r = detectWithReaders(t.root());
    QCOMPARE(labels(r), QStringList{"six_ascend_pt"});
    auto depth = r.diagnosticsWith(DiagnosticCode::DepthLimit);
    QCOMPARE(depth.size(), 1);
    QCOMPARE(depth.front().path, t.path("e1/e2/e3/e4/e5/e6"));

    r = detectWithReaders(t.path("e1"));
    QVERIFY(r.sources.isEmpty() == false); // seven_ascend_pt is 6 levels below e1
    r = detectWithReaders(t.path("e1"), DetectOptions{.maxDepth = 5});
    QVERIFY(r.sources.isEmpty());
    QCOMPARE(r.diagnosticsWith(DiagnosticCode::DepthLimit).front().severity, DiagnosticSeverity::Warning);
    QVERIFY(r.hasDiagnostic(DiagnosticCode::NothingRecognised));

    r = detectWithReaders(t.root(), DetectOptions{.maxDepth = 7});
    QCOMPARE(labels(r), QStringList({"six_ascend_pt", "seven_ascend_pt"}));
}

void TestFolderSynthetic::folderLimit()
{
    Tree t;
    for (const char *d : {"a", "b", "c", "d", "e"})
        QVERIFY(t.dir(QStringLiteral("many/%1/x").arg(QLatin1String(d))));
    QVERIFY(t.files("many/z/last_ascend_pt/ASCEND_PROFILER_OUTPUT", {"trace_view.json"}));
    DetectOptions options;
    options.maxFolders = 4;
    const DetectedProfile r = detectWithReaders(t.path("many"), options);
    QVERIFY(r.sources.isEmpty());
    QVERIFY2(r.hasDiagnostic(DiagnosticCode::FolderLimit), describe(r));
    QCOMPARE(labels(detectWithReaders(t.path("many"))), QStringList{"last_ascend_pt"});
}

void TestFolderSynthetic::singleFiles()
{
    Tree t;
    QVERIFY(t.file("custom.json", "  \n{\"displayTimeUnit\": \"ns\", \"traceEvents\": []}"));
    QVERIFY(t.file("events.txt", "\xEF\xBB\xBF  [ ]"));
    QVERIFY(t.file("notes.json", "{\"a\": 1}"));
    QVERIFY(t.file("trace_view.json.zst", "\x28\xB5\x2F\xFD"));
    QVERIFY(t.file("msprof_20240101000000.json.gz", "\x1F\x8B"));
    QVERIFY(t.file(kProf + "/device_0/timeline/msprof_0_1_1.json", "not sniffed"));
    QVERIFY(t.file("ascend_pytorch_profiler_5.db", ""));

    struct Case
    {
        QString file;
        ProfileGeneration generation;
        QString format;
    };
    const QList<Case> cases = {
        {"custom.json", ProfileGeneration::Unknown, jsonTimelineReader().formatId()},
        {"events.txt", ProfileGeneration::Unknown, jsonTimelineReader().formatId()},
        {"trace_view.json.zst", ProfileGeneration::G4, jsonTimelineReader().formatId()},
        {"msprof_20240101000000.json.gz", ProfileGeneration::G3, jsonTimelineReader().formatId()},
        {kProf + "/device_0/timeline/msprof_0_1_1.json", ProfileGeneration::G1,
         jsonTimelineReader().formatId()},
        {"ascend_pytorch_profiler_5.db", ProfileGeneration::G4, databaseReader().formatId()},
    };
    for (const Case &c : cases) {
        const DetectedProfile r = detectWithReaders(t.path(c.file));
        QVERIFY2(r.sources.size() == 1, describe(r));
        QCOMPARE(r.sources.front().generation, c.generation);
        QCOMPARE(r.sources.front().format, c.format);
        QCOMPARE(r.sources.front().timelineFiles, QStringList{t.path(c.file)});
    }
    QCOMPARE(detectWithReaders(t.path("ascend_pytorch_profiler_5.db")).sources.front().label,
             QStringLiteral("Rank 5"));

    const DetectedProfile notTrace = detectWithReaders(t.path("notes.json"));
    QVERIFY(notTrace.sources.isEmpty());
    QVERIFY(notTrace.hasDiagnostic(DiagnosticCode::NotATimelineFile));
}

void TestFolderSynthetic::missingPath()
{
    Tree t;
    const DetectedProfile r = detectWithReaders(t.path("does/not/exist"));
    QVERIFY(r.sources.isEmpty());
    QCOMPARE(r.diagnostics.size(), 1);
    QCOMPARE(r.diagnostics.front().code, DiagnosticCode::NotFound);
}

QTEST_GUILESS_MAIN(TestFolderSynthetic)
#include "tst_folder_synthetic.moc"
