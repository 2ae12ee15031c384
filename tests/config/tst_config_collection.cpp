// Tests of readCollectionInfo (parser/config/CollectionReader.h) on the real sample files and on hand-written
// corrupt, empty and missing ones. Expected values were read from the sample files by hand; each is noted.

#include "ConfigTestUtil.h"

#include "InputReader.h"
#include "config/CollectionReader.h"
#include "folder/ProfileLayoutDetector.h"

using namespace at;
using namespace at::test;

namespace {

const QStringList kPipeMetrics = {"vec_ratio",  "mac_ratio",  "scalar_ratio",    "mte1_ratio",
                                  "mte2_ratio", "mte3_ratio", "icache_miss_rate"};

// Metric columns of the A2 PipeUtilization kernel_details.csv header (level1 alexnet and qwen3 samples):
// every column after "Context ID".
const QStringList kPipeCsvColumns = {
    "aicore_time(us)",      "aic_total_cycles",    "aic_mac_time(us)",     "aic_mac_ratio",
    "aic_scalar_time(us)",  "aic_scalar_ratio",    "aic_mte1_time(us)",    "aic_mte1_ratio",
    "aic_mte2_time(us)",    "aic_mte2_ratio",      "aic_fixpipe_time(us)", "aic_fixpipe_ratio",
    "aic_icache_miss_rate", "aiv_time(us)",        "aiv_total_cycles",     "aiv_vec_time(us)",
    "aiv_vec_ratio",        "aiv_scalar_time(us)", "aiv_scalar_ratio",     "aiv_mte2_time(us)",
    "aiv_mte2_ratio",       "aiv_mte3_time(us)",   "aiv_mte3_ratio",       "aiv_icache_miss_rate",
    "cube_utilization(%)"};

QString stepWarning(int n)
{
    return QStringLiteral(
               "Step %1 is among the first ten: it may include operator compilation; the profiler docs "
               "advise profiling after step 10")
        .arg(n);
}

QStringList header(const char *csv)
{
    return QString::fromLatin1(csv).split(QLatin1Char(','));
}

} // namespace

class TestConfigCollection : public QObject
{
    Q_OBJECT

private slots:
    void emptyInputs();
    void msprofMsconfig();
    void alexnetLevel1();
    void alexnetLevel1WithCsv();
    void alexnetLevel0();
    void qwen3Level2();
    void ftracePrettyPrinted();
    void csvHeaderOnly_data();
    void csvHeaderOnly();
    void corruptFilesKeepReading();
    void unknownNamesIgnored();
    void earlyStepFromSchedule();
    void stepWarningsHelper();
    void profiledStepsReplaceSchedule();
    void sampleBasedMode();
    void sampleSwitchesOff();
    void sampleWinsOverProfilerInfo();
    void metricGroupMismatch();
    void unknownMetricGroupKept();
    void cpuOnlyActivity();
    void lenientValues();
    void dataSourceOverload();
    void metricsOfGroupLists();
};

void TestConfigCollection::emptyInputs()
{
    const CollectionInfo info = readCollectionInfo(CollectionInputs{});
    QVERIFY(info.isEmpty());
    QVERIFY(info.warnings.isEmpty());
    QVERIFY(info.metrics.isEmpty());
    QCOMPARE(info.sourceLabel, QString());
}

void TestConfigCollection::msprofMsconfig()
{
    CollectionInputs in;
    for (const char *n : {"info.json", "sample.json", "start_info", "end_info", "host_start.log"})
        in.configFiles.append(msconfigFile(QLatin1String(n)));
    const CollectionInfo info = readCollectionInfo(in);

    // sample.json has no profLevel key.
    QCOMPARE(info.profilerLevel, QString());
    // "ai_core_profiling":"on", "ai_core_metrics":"PipeUtilization".
    QCOMPARE(info.metricGroup, QStringLiteral("PipeUtilization"));
    QCOMPARE(info.metrics, kPipeMetrics);
    // acl on; hwts_log on; ai_core_profiling on; aicpuTrace on; runtimeApi on.
    QCOMPARE(info.switchesOn,
             QStringList({"ACL_PROF_ACL_API", "ACL_PROF_TASK_TIME", "ACL_PROF_AICORE_METRICS",
                          "ACL_PROF_AICPU", "ACL_PROF_RUNTIME_API"}));
    // l2CacheTaskProfiling "off", hcclTrace "", ts_fw_training "", msproftx "off".
    QCOMPARE(info.switchesOff, QStringList({"ACL_PROF_L2CACHE", "ACL_PROF_HCCL_TRACE",
                                            "ACL_PROF_TRAINING_TRACE", "ACL_PROF_MSPROFTX"}));
    // info.json: "devices":"0", platform_version "0", DeviceInfo[0] ai_core_num 8, aiv_num 0,
    // aic_frequency "1150", aiv_frequency "1000", hwts_frequency "100". (sample.json says "devices":"2";
    // info.json wins.) start_info / end_info dates as written.
    const QStringList expected = {
        "device=0",
        "chip=Ascend 310 (chip v1, platform_version 0)",
        "chip family=HWTS",
        "ai_core_num=8",
        "aiv_num=0",
        "aic_frequency (MHz)=1150",
        "aiv_frequency (MHz)=1000",
        "hwts_frequency (MHz)=100",
        "AI Core mode=task-based",
        "application=python3 train.py --model resnet50 --epochs 1 --pretrained --data-path "
        "/data/ImageNet2012 "
        "-b 256 --lr 0.01 --lr-step-size 10 --output-dir /home/ppd_2/resume/ --device_id 2",
        "collection start=2022-07-29 20:44:39.447393",
        "collection end=2022-07-29 21:16:50.422400",
    };
    QCOMPARE(propertyLines(info), expected);
    QCOMPARE(info.property("chip family"), QStringLiteral("HWTS"));
    QCOMPARE(info.sourceLabel, QStringLiteral("Device 0"));
    QCOMPARE(info.warnings, QStringList());
    QCOMPARE(info.files, in.configFiles);
    QVERIFY(!info.isEmpty());
}

void TestConfigCollection::alexnetLevel1()
{
    CollectionInputs in;
    in.configFiles = {alexnetRank0("level1", "profiler_info_0.json"),
                      alexnetRank0("level1", "profiler_metadata.json")};
    const CollectionInfo info = readCollectionInfo(in);

    QCOMPARE(info.profilerLevel, QStringLiteral("Level1"));
    // "_aic_metrics": "ACL_AICORE_PIPE_UTILIZATION"
    QCOMPARE(info.metricGroup, QStringLiteral("PipeUtilization"));
    QCOMPARE(info.metrics, kPipeMetrics);
    // Level1 mask + "_l2_cache": true + activities CPU and NPU.
    QCOMPARE(
        info.switchesOn,
        QStringList({"ACL_PROF_ACL_API", "ACL_PROF_TASK_TIME", "ACL_PROF_AICORE_METRICS", "ACL_PROF_L2CACHE",
                     "ACL_PROF_HCCL_TRACE", "ProfilerActivity.CPU", "ProfilerActivity.NPU"}));
    // "_msprof_tx": false; no AICPU / RUNTIME_API at Level1; torch_npu never sets TRAINING_TRACE.
    QCOMPARE(info.switchesOff, QStringList({"ACL_PROF_AICPU", "ACL_PROF_TRAINING_TRACE", "ACL_PROF_MSPROFTX",
                                            "ACL_PROF_RUNTIME_API"}));
    // schedule {wait 0, active 1, warmup 10, repeat 1, skip_first 40}; record_shapes, profile_memory,
    // with_stack, with_modules true; with_flops false; _export_type "text"; rank_id 0; end_info
    // collectionTimeEnd 1736408884023552840 ns. ENV_VARIABLES are all empty: no "environment".
    const QStringList expected = {
        "rank=0",
        "schedule=wait=0, warmup=10, active=1, repeat=1, skip_first=40",
        "record_shapes=true",
        "profile_memory=true",
        "with_stack=true",
        "with_flops=false",
        "with_modules=true",
        "export type=text",
        "collection end=2025-01-09 07:48:04.023552 UTC",
    };
    QCOMPARE(propertyLines(info), expected);
    QCOMPARE(info.sourceLabel, QStringLiteral("Rank 0"));
    // L2 cache was on in that run; the first profiled step is 40 + 0 + 10 = 50 (trace_view: ProfilerStep#50).
    QCOMPARE(info.warnings, QStringList({l2CacheWarning()}));
    QCOMPARE(info.warnings.first(),
             QStringLiteral("L2 cache collection was on: it adds overhead and inflates kernel times"));
    QCOMPARE(info.files, in.configFiles);
}

void TestConfigCollection::alexnetLevel1WithCsv()
{
    CollectionInputs in;
    in.configFiles = {alexnetRank0("level1", "profiler_info_0.json")};
    in.summaryFile = alexnetRank0("level1", "ASCEND_PROFILER_OUTPUT/kernel_details.csv");
    const CollectionInfo info = readCollectionInfo(in);
    QCOMPARE(info.metricGroup, QStringLiteral("PipeUtilization"));
    QCOMPARE(info.metrics, kPipeCsvColumns);
    QCOMPARE(info.warnings, QStringList({l2CacheWarning()})); // the CSV agrees with the configuration
    QCOMPARE(info.files, QStringList({in.configFiles.first(), in.summaryFile}));
}

void TestConfigCollection::alexnetLevel0()
{
    CollectionInputs in;
    in.configFiles = {alexnetRank0("level0", "profiler_info_0.json"),
                      alexnetRank0("level0", "profiler_metadata.json")};
    in.summaryFile = alexnetRank0("level0", "ASCEND_PROFILER_OUTPUT/kernel_details.csv");
    const CollectionInfo info = readCollectionInfo(in);

    QCOMPARE(info.profilerLevel, QStringLiteral("Level0"));
    // "_aic_metrics": "ACL_AICORE_NONE"; Level0 has no metric group and its CSV no metric columns.
    QCOMPARE(info.metricGroup, QString());
    QCOMPARE(info.metrics, QStringList());
    // Level0 mask = ACL_API | TASK_TIME_L0; "_l2_cache": true (the folder has l2_cache.csv).
    QCOMPARE(info.switchesOn, QStringList({"ACL_PROF_ACL_API", "ACL_PROF_TASK_TIME_L0", "ACL_PROF_L2CACHE",
                                           "ProfilerActivity.CPU", "ProfilerActivity.NPU"}));
    QCOMPARE(info.switchesOff, QStringList({"ACL_PROF_TASK_TIME", "ACL_PROF_AICORE_METRICS", "ACL_PROF_AICPU",
                                            "ACL_PROF_HCCL_TRACE", "ACL_PROF_TRAINING_TRACE",
                                            "ACL_PROF_MSPROFTX", "ACL_PROF_RUNTIME_API"}));
    // end_info collectionTimeEnd 1736405444130566220 ns.
    QCOMPARE(info.property("collection end"), QStringLiteral("2025-01-09 06:50:44.130566 UTC"));
    QCOMPARE(info.property("rank"), QStringLiteral("0"));
    QCOMPARE(info.warnings, QStringList({l2CacheWarning()}));
    QCOMPARE(info.files.size(), 3);
}

void TestConfigCollection::qwen3Level2()
{
    CollectionInputs in;
    in.configFiles = {qwen3Rank0("profiler_info_0.json"), qwen3Rank0("profiler_metadata.json")};
    const CollectionInfo info = readCollectionInfo(in);

    QCOMPARE(info.profilerLevel, QStringLiteral("Level2"));
    QCOMPARE(info.metricGroup, QStringLiteral("PipeUtilization"));
    // Level2 mask; "_l2_cache": false, "_msprof_tx": false, "_mstx": false.
    QCOMPARE(info.switchesOn,
             QStringList({"ACL_PROF_ACL_API", "ACL_PROF_TASK_TIME", "ACL_PROF_AICORE_METRICS",
                          "ACL_PROF_AICPU", "ACL_PROF_HCCL_TRACE", "ACL_PROF_RUNTIME_API",
                          "ProfilerActivity.CPU", "ProfilerActivity.NPU"}));
    QCOMPARE(info.switchesOff,
             QStringList({"ACL_PROF_L2CACHE", "ACL_PROF_TRAINING_TRACE", "ACL_PROF_MSPROFTX"}));
    // "rank_id": "0" (string); distributed_args tp 1, pp 2, dp 2, cp 1, ep 1, sequence_parallel false,
    // world_size 4; ENV_VARIABLES ASCEND_GLOBAL_LOG_LEVEL "3", PYTORCH_NPU_ALLOC_CONF
    // "expandable_segments:True"; "cann_version": "8.3.RC1", "torch_npu_version": "2.7.1";
    // "_export_type": ["text"]; schedule {wait 0, active 1, warmup 1, repeat 1, skip_first 12};
    // with_stack / with_modules false; collectionTimeEnd 1764246878131995320 ns.
    const QStringList expected = {
        "rank=0",
        "world size=4",
        "parallelism=tp=1, pp=2, dp=2, cp=1, ep=1, sequence_parallel=false",
        "CANN version=8.3.RC1",
        "torch_npu version=2.7.1",
        "schedule=wait=0, warmup=1, active=1, repeat=1, skip_first=12",
        "record_shapes=true",
        "profile_memory=true",
        "with_stack=false",
        "with_flops=false",
        "with_modules=false",
        "export type=text",
        "environment=ASCEND_GLOBAL_LOG_LEVEL=3, PYTORCH_NPU_ALLOC_CONF=expandable_segments:True",
        "collection end=2025-11-27 12:34:38.131995 UTC",
    };
    QCOMPARE(propertyLines(info), expected);
    // First profiled step 12 + 0 + 1 = 13: not among the first ten. L2 off.
    QCOMPARE(info.warnings, QStringList());
}

void TestConfigCollection::ftracePrettyPrinted()
{
    // Pretty-printed start_info {clockMonotonicRaw "123456000000", collectionTimeBegin "123456"} and an
    // end_info that reuses collectionTimeBegin ("123457"). No date strings: the µs epoch is shown in UTC.
    CollectionInputs in;
    in.configFiles = {ftraceData("start_info"), ftraceData("end_info")};
    const CollectionInfo info = readCollectionInfo(in);
    QCOMPARE(propertyLines(info), QStringList({"collection start=1970-01-01 00:00:00.123456 UTC",
                                               "collection end=1970-01-01 00:00:00.123457 UTC"}));
    QCOMPARE(info.warnings, QStringList());
    QCOMPARE(info.files, in.configFiles);
    QCOMPARE(info.metricGroup, QString());
    QVERIFY(info.switchesOn.isEmpty() && info.switchesOff.isEmpty());
}

void TestConfigCollection::csvHeaderOnly_data()
{
    QTest::addColumn<QStringList>("csvHeader");
    QTest::addColumn<QString>("group");
    QTest::addColumn<QStringList>("metrics");

    // The level1 alexnet kernel_details.csv header, verbatim.
    QTest::newRow("kernel_details A2 pipe")
        << header("Step Id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),"
                  "Duration(us),Wait Time(us),Block Dim,Mix Block Dim,HF32 Eligible,Input Shapes,Input Data "
                  "Types,"
                  "Input Formats,Output Shapes,Output Data Types,Output Formats,Context ID,aicore_time(us),"
                  "aic_total_cycles,aic_mac_time(us),aic_mac_ratio,aic_scalar_time(us),aic_scalar_ratio,"
                  "aic_mte1_time(us),aic_mte1_ratio,aic_mte2_time(us),aic_mte2_ratio,aic_fixpipe_time(us),"
                  "aic_fixpipe_ratio,aic_icache_miss_rate,aiv_time(us),aiv_total_cycles,aiv_vec_time(us),"
                  "aiv_vec_ratio,aiv_scalar_time(us),aiv_scalar_ratio,aiv_mte2_time(us),aiv_mte2_ratio,"
                  "aiv_mte3_time(us),aiv_mte3_ratio,aiv_icache_miss_rate,cube_utilization(%)")
        << QStringLiteral("PipeUtilization") << kPipeCsvColumns;
    // Older op_summary without Context ID (FORMATS.md §3.2): metrics follow Output Formats.
    QTest::newRow("op_summary 910A pipe")
        << header("Model ID,Task ID,Stream ID,Op Name,OP Type,Task Type,Task Start Time,Task Duration(us),"
                  "Task Wait Time(us),Block Dim,Input Shapes,Input Data Types,Input Formats,Output Shapes,"
                  "Output Data Types,Output Formats,aicore_time(us),total_cycles,vec_time(us),vec_ratio,"
                  "mac_time(us),mac_ratio")
        << QStringLiteral("PipeUtilization")
        << QStringList(
               {"aicore_time(us)", "total_cycles", "vec_time(us)", "vec_ratio", "mac_time(us)", "mac_ratio"});
    QTest::newRow("A2 MemoryL0")
        << header("Op Name,Output Formats,Context ID,aicore_time(us),aic_total_cycles,aic_l0a_read_bw(GB/s),"
                  "aiv_l0c_write_bw(GB/s)")
        << QStringLiteral("MemoryL0")
        << QStringList(
               {"aicore_time(us)", "aic_total_cycles", "aic_l0a_read_bw(GB/s)", "aiv_l0c_write_bw(GB/s)"});
    // Level0 kernel_details: no metric columns.
    QTest::newRow("level0")
        << header("Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim")
        << QString() << QStringList();
    // Metric columns, but none identifies a group.
    QTest::newRow("unknown metrics") << header("Output Formats,aicore_time(us),aic_total_cycles,my_counter")
                                     << QStringLiteral("Unknown")
                                     << QStringList({"aicore_time(us)", "aic_total_cycles", "my_counter"});
}

void TestConfigCollection::csvHeaderOnly()
{
    QFETCH(QStringList, csvHeader);
    QFETCH(QString, group);
    QFETCH(QStringList, metrics);
    CollectionInputs in;
    in.summaryHeader = csvHeader;
    const CollectionInfo info = readCollectionInfo(in);
    QCOMPARE(info.metricGroup, group);
    QCOMPARE(info.metrics, metrics);
    QCOMPARE(info.warnings, QStringList());
    QCOMPARE(info.files, QStringList()); // no file named
    QVERIFY(info.switchesOn.isEmpty());
}

void TestConfigCollection::corruptFilesKeepReading()
{
    Scratch s;
    QVERIFY(s.isValid());
    const QString emptySample = s.file("host/data/sample.json", "");
    const QString truncatedInfo = s.file("device_0/data/info.json.0", "{\"platform_version\": \"5\", \"Devi");
    const QString arrayInfo = s.file("profiler_info_1.json", "[{\"rank_id\": 1}]");
    const QString binaryLog = s.file("host/data/host_start.log", QByteArray("\x01\x02\0\0binary", 10));
    const QString wordsLog = s.file("device_0/data/dev_start.log.0", "nothing useful here\n");
    const QString missing = s.path("device_0/data/end_info.0");
    const QString goodStart = s.file("device_0/data/start_info.0",
                                     "{\"collectionDateBegin\": \"2024-01-02 "
                                     "03:04:05.000006\",\"collectionTimeBegin\": \"1704135845000006\"}");
    const QString missingCsv = s.path("kernel_details.csv");
    const QStringList before = s.listing();

    CollectionInputs in;
    in.configFiles = {emptySample, truncatedInfo, arrayInfo, binaryLog, wordsLog, missing, goodStart};
    in.summaryFile = missingCsv;
    const CollectionInfo info = readCollectionInfo(in);

    QCOMPARE(info.warnings.size(), 7);
    QCOMPARE(info.warnings[0], QStringLiteral("Cannot read %1: the file is empty").arg(emptySample));
    QVERIFY2(
        info.warnings[1].startsWith(QStringLiteral("Cannot read %1: not valid JSON (").arg(truncatedInfo)),
        qPrintable(info.warnings[1]));
    QCOMPARE(info.warnings[2],
             QStringLiteral("Cannot read %1: expected a JSON object, found an array").arg(arrayInfo));
    QCOMPARE(info.warnings[3],
             QStringLiteral("Cannot read %1: not a text file (it contains NUL bytes)").arg(binaryLog));
    QCOMPARE(info.warnings[4], QStringLiteral("Cannot read %1: no \"key: value\" lines found").arg(wordsLog));
    QCOMPARE(info.warnings[5], QStringLiteral("Cannot read %1: the file does not exist").arg(missing));
    QCOMPARE(info.warnings[6], QStringLiteral("Cannot read %1: the file does not exist").arg(missingCsv));

    // The good file is still read; its ".0" suffix gives the device.
    QCOMPARE(info.files, QStringList({goodStart}));
    QCOMPARE(propertyLines(info), QStringList({"device=0", "collection start=2024-01-02 03:04:05.000006"}));
    QCOMPARE(info.sourceLabel, QStringLiteral("Device 0"));
    QCOMPARE(info.metricGroup, QString());
    // Nothing was written or created.
    QCOMPARE(s.listing(), before);
}

void TestConfigCollection::unknownNamesIgnored()
{
    Scratch s;
    QVERIFY(s.isValid());
    CollectionInputs in;
    in.configFiles = {s.file("notes.json", "{\"profLevel\": \"l2\"}"), QString()};
    const CollectionInfo info = readCollectionInfo(in);
    QVERIFY(info.isEmpty());
    QVERIFY(info.warnings.isEmpty());
    QCOMPARE(info.profilerLevel, QString());
}

void TestConfigCollection::earlyStepFromSchedule()
{
    Scratch s;
    QVERIFY(s.isValid());
    // One line, numbers as strings, no experimental_config: skip_first 2 + wait 1 + warmup 1 = step 4.
    const QString info =
        s.file("profiler_info.json", R"({"config": {"common_config": {"schedule": {"wait": "1", "active": 2,)"
                                     R"( "warmup": 1, "repeat": 0, "skip_first": "2"}}}, "rank_id": "3"})");
    CollectionInputs in;
    in.configFiles = {info};
    const CollectionInfo r = readCollectionInfo(in);
    QCOMPARE(r.warnings, QStringList({stepWarning(4)}));
    QCOMPARE(r.warnings.first(),
             QStringLiteral("Step 4 is among the first ten: it may include operator "
                            "compilation; the profiler docs advise profiling after step 10"));
    QCOMPARE(r.property("schedule"), QStringLiteral("wait=1, warmup=1, active=2, repeat=0, skip_first=2"));
    QCOMPARE(r.property("rank"), QStringLiteral("3"));
    QCOMPARE(r.sourceLabel, QStringLiteral("Rank 3"));
    // No level: no switches derived.
    QVERIFY(r.switchesOn.isEmpty() && r.switchesOff.isEmpty());
    QCOMPARE(r.profilerLevel, QString());

    // Exactly at the boundary: 9 warns, 10 does not.
    const QString nine =
        s.file("a/profiler_info_0.json", R"({"config": {"common_config": {"schedule": {"skip_first": 9}}}})");
    in.configFiles = {nine};
    QCOMPARE(readCollectionInfo(in).warnings, QStringList({stepWarning(9)}));
    const QString ten =
        s.file("b/profiler_info_0.json",
               R"({"config": {"common_config": {"schedule": {"skip_first": 5, "wait": 5}}}})");
    in.configFiles = {ten};
    QCOMPARE(readCollectionInfo(in).warnings, QStringList());
    // A null schedule says nothing.
    const QString none =
        s.file("c/profiler_info_0.json", R"({"config": {"common_config": {"schedule": null}}})");
    in.configFiles = {none};
    QCOMPARE(readCollectionInfo(in).warnings, QStringList());
}

void TestConfigCollection::stepWarningsHelper()
{
    QCOMPARE(stepWarnings({}), QStringList());
    QCOMPARE(stepWarnings({50, 10}), QStringList());
    QCOMPARE(stepWarnings({7, 0, 7, 12, -1}), QStringList({stepWarning(0), stepWarning(7)}));
    QCOMPARE(stepWarnings({1}).first(),
             QStringLiteral("Step 1 is among the first ten: it may include operator "
                            "compilation; the profiler docs advise profiling after "
                            "step 10"));
}

void TestConfigCollection::profiledStepsReplaceSchedule()
{
    // The level1 alexnet schedule says step 50; a caller that saw ProfilerStep#3 overrides it.
    CollectionInputs in;
    in.configFiles = {alexnetRank0("level1", "profiler_info_0.json")};
    in.profiledSteps = {3};
    QCOMPARE(readCollectionInfo(in).warnings, QStringList({l2CacheWarning(), stepWarning(3)}));
    in.profiledSteps = {50};
    QCOMPARE(readCollectionInfo(in).warnings, QStringList({l2CacheWarning()}));

    // And the other way round: the schedule says step 0, the real step number is 20.
    Scratch s;
    QVERIFY(s.isValid());
    in.configFiles = {s.file("profiler_info_0.json", R"({"config": {"common_config": {"schedule": {}}}})")};
    in.profiledSteps = {};
    QCOMPARE(readCollectionInfo(in).warnings, QStringList());
    in.configFiles = {
        s.file("x/profiler_info_0.json", R"({"config": {"common_config": {"schedule": {"wait": 0}}}})")};
    QCOMPARE(readCollectionInfo(in).warnings, QStringList({stepWarning(0)}));
    in.profiledSteps = {20};
    QCOMPARE(readCollectionInfo(in).warnings, QStringList());
}

void TestConfigCollection::sampleBasedMode()
{
    Scratch s;
    QVERIFY(s.isValid());
    const QString sample =
        s.file("sample.json", R"({"ai_core_profiling":"on","ai_core_metrics":"Memory",)"
                              R"("ai_core_profiling_mode":"sample-based","aicore_sampling_interval":10,)"
                              R"("profLevel":"l1","devices":"1,3"})");
    CollectionInputs in;
    in.configFiles = {sample};
    const CollectionInfo info = readCollectionInfo(in);
    QCOMPARE(info.profilerLevel, QStringLiteral("l1"));
    QCOMPARE(info.metricGroup, QStringLiteral("Memory"));
    QCOMPARE(info.metrics,
             QStringList({"ub_read_bw", "ub_write_bw", "l1_read_bw", "l1_write_bw", "l2_read_bw",
                          "l2_write_bw", "main_mem_read_bw", "main_mem_write_bw"}));
    QCOMPARE(info.switchesOn, QStringList({"ACL_PROF_AICORE_METRICS"}));
    QCOMPARE(info.switchesOff, QStringList());
    QCOMPARE(info.warnings, QStringList({sampleBasedWarning()}));
    QCOMPARE(
        info.warnings.first(),
        QStringLiteral("AI Core metrics were collected in sample-based mode: metrics are not per task, so "
                       "they cannot be attributed to individual operators"));
    QCOMPARE(propertyLines(info), QStringList({"device=1, 3", "AI Core mode=sample-based"}));
    QCOMPARE(info.sourceLabel, QStringLiteral("Devices 1, 3"));
}

void TestConfigCollection::sampleSwitchesOff()
{
    Scratch s;
    QVERIFY(s.isValid());
    // AI Core off (its metric name is ignored), L2 and TX on, task time via the STARS key only, "l0"
    // taskTime.
    const QString sample = s.file(
        "sample.json", "{\n  \"acl\": \"off\",\n  \"ai_core_profiling\": \"off\",\n  \"ai_core_metrics\": "
                       "\"PipeUtilization\",\n  \"ai_core_profiling_mode\": \"sample-based\",\n"
                       "  \"hwts_log\": \"\",\n  \"stars_acsq_task\": \"on\",\n  \"taskTime\": \"l0\",\n"
                       "  \"l2CacheTaskProfiling\": \"on\",\n  \"msproftx\": \"on\",\n"
                       "  \"runtimeApi\": \"off\",\n  \"runtimeTrace\": \"on\"\n}\n");
    CollectionInputs in;
    in.configFiles = {sample};
    const CollectionInfo info = readCollectionInfo(in);
    QCOMPARE(info.metricGroup, QString());
    QCOMPARE(info.metrics, QStringList());
    QCOMPARE(info.switchesOn, QStringList({"ACL_PROF_TASK_TIME", "ACL_PROF_TASK_TIME_L0", "ACL_PROF_L2CACHE",
                                           "ACL_PROF_MSPROFTX", "ACL_PROF_RUNTIME_API"}));
    QCOMPARE(info.switchesOff, QStringList({"ACL_PROF_ACL_API", "ACL_PROF_AICORE_METRICS"}));
    // L2 warning; no sample-based warning because AI Core profiling was off.
    QCOMPARE(info.warnings, QStringList({l2CacheWarning()}));
    QCOMPARE(info.property("AI Core mode"), QString());
}

void TestConfigCollection::sampleWinsOverProfilerInfo()
{
    // A G4 root with its embedded PROF_* sample.json: sample.json's switches win, profiler_info fills the
    // rest.
    Scratch s;
    QVERIFY(s.isValid());
    const QString info =
        s.file("profiler_info_0.json",
               R"({"config": {"common_config": {"activities": ["ProfilerActivity.NPU"]},)"
               R"( "experimental_config": {"_profiler_level": "Level1", "_aic_metrics":)"
               R"( "ACL_AICORE_MEMORY_UB", "_l2_cache": false, "_mstx": true}}, "rank_id": 2})");
    const QString sample =
        s.file("PROF_1/device_2/data/sample.json",
               R"({"l2CacheTaskProfiling":"on","ai_core_metrics":"PipeUtilization","prof_level":"l1"})");
    const QString devInfo =
        s.file("PROF_1/device_2/data/info.json.2",
               R"({"platform_version":"5","DeviceInfo":[{"id":2,"ai_core_num":24,)"
               R"("aiv_num":48,"aic_frequency":"1800","hwts_frequency":"50"}],)"
               R"("hostname":"node-1","drvVersion":"24.1.rc2","cannVersion":"8.0.RC3","rank_id":-1})");
    CollectionInputs in;
    in.configFiles = {info, sample, devInfo};
    in.deviceId = 9; // ignored: info.json.2 says device 2
    const CollectionInfo r = readCollectionInfo(in);
    QCOMPARE(r.profilerLevel, QStringLiteral("Level1")); // profiler_info's level first
    QCOMPARE(r.metricGroup, QStringLiteral("MemoryUB")); // profiler_info's _aic_metrics first
    QCOMPARE(r.switchesOn, QStringList({"ACL_PROF_ACL_API", "ACL_PROF_TASK_TIME", "ACL_PROF_AICORE_METRICS",
                                        "ACL_PROF_L2CACHE", "ACL_PROF_HCCL_TRACE", "ACL_PROF_MSPROFTX",
                                        "ProfilerActivity.NPU"}));
    // activities lists only NPU, so the CPU activity is known to be off.
    QCOMPARE(r.switchesOff, QStringList({"ACL_PROF_AICPU", "ACL_PROF_TRAINING_TRACE", "ACL_PROF_RUNTIME_API",
                                         "ProfilerActivity.CPU"}));
    QCOMPARE(r.warnings, QStringList({l2CacheWarning()}));
    QCOMPARE(propertyLines(r),
             QStringList({"rank=2", "device=2", "hostname=node-1",
                          "chip=Ascend 910B / A2 / A3 (chip v4, platform_version 5)", "chip family=STARS",
                          "ai_core_num=24", "aiv_num=48", "aic_frequency (MHz)=1800",
                          "hwts_frequency (MHz)=50", "CANN version=8.0.RC3", "driver version=24.1.rc2"}));
    QCOMPARE(r.sourceLabel, QStringLiteral("Rank 2 / Device 2"));
}

void TestConfigCollection::metricGroupMismatch()
{
    Scratch s;
    QVERIFY(s.isValid());
    const QString sample = s.file("sample.json", R"({"ai_core_profiling":"on","ai_core_metrics":"Memory"})");
    CollectionInputs in;
    in.configFiles = {sample};
    in.summaryHeader = header("Output Formats,Context ID,aicore_time(us),aic_mac_ratio,aiv_vec_ratio");
    in.summaryFile = QStringLiteral("/somewhere/op_summary_20250101.csv");
    CollectionInfo info = readCollectionInfo(in);
    QCOMPARE(info.metricGroup, QStringLiteral("Memory"));
    QCOMPARE(info.metrics, QStringList({"aicore_time(us)", "aic_mac_ratio", "aiv_vec_ratio"}));
    QCOMPARE(
        info.warnings,
        QStringList({"The AI Core metric group in the configuration (Memory) differs from the metric columns "
                     "of op_summary_20250101.csv (PipeUtilization)"}));
    QCOMPARE(info.files, QStringList({sample, in.summaryFile}));

    // Configuration says none, the CSV has metrics.
    const QString off = s.file("x/sample.json", R"({"ai_core_profiling":"off","aiv_profiling":"off"})");
    in.configFiles = {off};
    in.summaryFile.clear();
    info = readCollectionInfo(in);
    QCOMPARE(info.metricGroup, QString());
    QCOMPARE(info.warnings,
             QStringList({"The configuration records no AI Core metric group, but the summary CSV "
                          "has metric columns of PipeUtilization"}));
}

void TestConfigCollection::unknownMetricGroupKept()
{
    Scratch s;
    QVERIFY(s.isValid());
    // Chip-v5 group names (FORMATS.md §4.1) are not known to CsvMetrics: kept as written, no metric list.
    const QString sample =
        s.file("sample.json", R"({"ai_core_profiling":"on","ai_core_metrics":"PipeStallCycle"})");
    CollectionInputs in;
    in.configFiles = {sample};
    const CollectionInfo info = readCollectionInfo(in);
    QCOMPARE(info.metricGroup, QStringLiteral("PipeStallCycle"));
    QCOMPARE(info.metrics, QStringList());
    QCOMPARE(info.warnings, QStringList());
}

void TestConfigCollection::cpuOnlyActivity()
{
    Scratch s;
    QVERIFY(s.isValid());
    const QString info = s.file("profiler_info_0.json",
                                R"({"config": {"common_config": {"activities": ["ProfilerActivity.CPU"]},)"
                                R"( "experimental_config": {"_profiler_level": "Level2", "_l2_cache": true,)"
                                R"( "_aic_metrics": "ACL_AICORE_NONE", "_export_type": ["text", "db"]}}})");
    CollectionInputs in;
    in.configFiles = {info};
    const CollectionInfo r = readCollectionInfo(in);
    QCOMPARE(r.switchesOn, QStringList({"ProfilerActivity.CPU"}));
    QCOMPARE(r.switchesOff, QStringList({"ACL_PROF_ACL_API", "ACL_PROF_TASK_TIME", "ACL_PROF_AICORE_METRICS",
                                         "ACL_PROF_AICPU", "ACL_PROF_L2CACHE", "ACL_PROF_HCCL_TRACE",
                                         "ACL_PROF_TRAINING_TRACE", "ACL_PROF_MSPROFTX",
                                         "ACL_PROF_RUNTIME_API", "ProfilerActivity.NPU"}));
    QCOMPARE(r.warnings, QStringList()); // no NPU: the L2 flag had no effect
    QCOMPARE(r.metricGroup, QString());  // ACL_AICORE_NONE
    QCOMPARE(r.property("export type"), QStringLiteral("text, db"));
    QCOMPARE(r.property("rank"), QStringLiteral("0")); // from the file name profiler_info_0.json
}

void TestConfigCollection::lenientValues()
{
    Scratch s;
    QVERIFY(s.isValid());
    // Booleans as strings, a Level_none run with mstx, an env var that serialises the device, a trailing
    // comma.
    const QString info =
        s.file("profiler_info_5.json",
               "{\"config\": {\"common_config\": {\"record_shapes\": \"True\", \"with_stack\": 0,},"
               " \"experimental_config\": {\"_profiler_level\": \"Level_none\", \"_aic_metrics\":"
               " \"ACL_AICORE_PIPE_UTILIZATION\", \"_mstx\": \"true\"}}}");
    const QString meta = s.file("profiler_metadata.json",
                                R"({"ENV_VARIABLES": {"ASCEND_LAUNCH_BLOCKING": "1", "HCCL_ALGO": ""},)"
                                R"( "distributed_args": {"rank": 5, "world_size": "8"}})");
    CollectionInputs in;
    in.configFiles = {info, meta};
    const CollectionInfo r = readCollectionInfo(in);
    QCOMPARE(r.profilerLevel, QStringLiteral("Level_none"));
    QCOMPARE(r.metricGroup, QString()); // Level_none forces ACL_AICORE_NONE
    QCOMPARE(r.switchesOn, QStringList({"ACL_PROF_MSPROFTX"}));
    QCOMPARE(r.switchesOff, QStringList({"ACL_PROF_ACL_API", "ACL_PROF_TASK_TIME", "ACL_PROF_AICORE_METRICS",
                                         "ACL_PROF_AICPU", "ACL_PROF_HCCL_TRACE", "ACL_PROF_TRAINING_TRACE",
                                         "ACL_PROF_RUNTIME_API"}));
    QCOMPARE(propertyLines(r), QStringList({"rank=5", "world size=8", "record_shapes=true",
                                            "with_stack=false", "environment=ASCEND_LAUNCH_BLOCKING=1"}));
    QCOMPARE(r.warnings, QStringList({launchBlockingWarning()}));
    QCOMPARE(r.warnings.first(),
             QStringLiteral("ASCEND_LAUNCH_BLOCKING was set: operators ran synchronously, so "
                            "the timeline does not show the normal host/device overlap"));
}

void TestConfigCollection::dataSourceOverload()
{
    const QString root = samplePath(
        QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt"));
    const DetectedProfile detected = ProfileLayoutDetector::detect(root, inputFormats());
    QCOMPARE(detected.sources.size(), 1);
    const DataSource &source = detected.sources.first();

    const CollectionInputs in = collectionInputsFrom(source);
    QCOMPARE(in.sourceLabel, source.label);
    QCOMPARE(in.configFiles, source.configFiles);
    QVERIFY2(in.summaryFile.endsWith(QStringLiteral("/ASCEND_PROFILER_OUTPUT/kernel_details.csv")),
             qPrintable(in.summaryFile));

    const CollectionInfo info = readCollectionInfo(source);
    QCOMPARE(info.sourceLabel, source.label);
    QCOMPARE(info.profilerLevel, QStringLiteral("Level1"));
    QCOMPARE(info.metricGroup, QStringLiteral("PipeUtilization"));
    QCOMPARE(info.metrics, kPipeCsvColumns);
    QCOMPARE(info.property("rank"), QStringLiteral("0"));
    QCOMPARE(info.warnings, QStringList({l2CacheWarning()}));
    QStringList names;
    for (const QString &f : info.files)
        names.append(QFileInfo(f).fileName());
    names.sort();
    QCOMPARE(names, QStringList({"kernel_details.csv", "profiler_info_0.json", "profiler_metadata.json"}));
}

void TestConfigCollection::metricsOfGroupLists()
{
    QCOMPARE(metricsOfGroup("PipeUtilization"), kPipeMetrics);
    QCOMPARE(metricsOfGroup("ACL_AICORE_PIPE_UTILIZATION"), kPipeMetrics);
    QCOMPARE(metricsOfGroup("ACL_AICORE_L0B_AND_WIDTH").size(), 8);
    QCOMPARE(metricsOfGroup("ResourceConflictRatio"),
             QStringList({"vec_bankgroup_cflt_ratio", "vec_bank_cflt_ratio", "vec_resc_cflt_ratio"}));
    QCOMPARE(metricsOfGroup("MemoryAccess").last(), QStringLiteral("ub_to_gm_datas"));
    QCOMPARE(metricsOfGroup("PipelineExecuteUtilization").size(), 7);
    QCOMPARE(metricsOfGroup("L2Cache").size(), 6);
    QCOMPARE(metricsOfGroup("MemoryUB").size(), 6);
    QCOMPARE(metricsOfGroup("ArithmeticUtilization").size(), 6);
    QCOMPARE(metricsOfGroup("AiCoreNone"), QStringList());
    QCOMPARE(metricsOfGroup("ACL_AICORE_NONE"), QStringList());
    QCOMPARE(metricsOfGroup("nonsense"), QStringList());
}

QTEST_GUILESS_MAIN(TestConfigCollection)
#include "tst_config_collection.moc"
