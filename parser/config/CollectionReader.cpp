#include "config/CollectionReader.h"

#include "config/ChipInfo.h"
#include "config/ConfigFiles.h"
#include "csv/CsvMetrics.h"
#include "folder/ProfileLayout.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QSet>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace at {
namespace {

using namespace at::config;

// ---------------------------------------------------------------------------------------------------------
// Switches

enum Sw : int
{
    AclApi,
    TaskTime,
    TaskTimeL0,
    AicoreMetrics,
    Aicpu,
    L2Cache,
    HcclTrace,
    TrainingTrace,
    Msproftx,
    RuntimeApi,
    ActivityCpu,
    ActivityNpu,
    SwitchCount
};

constexpr const char *kSwitchNames[SwitchCount] = {
    "ACL_PROF_ACL_API",  "ACL_PROF_TASK_TIME",   "ACL_PROF_TASK_TIME_L0", "ACL_PROF_AICORE_METRICS",
    "ACL_PROF_AICPU",    "ACL_PROF_L2CACHE",     "ACL_PROF_HCCL_TRACE",   "ACL_PROF_TRAINING_TRACE",
    "ACL_PROF_MSPROFTX", "ACL_PROF_RUNTIME_API", "ProfilerActivity.CPU",  "ProfilerActivity.NPU",
};

// The nine switches of the FORMATS.md §4.3 table.
constexpr Sw kAclSwitches[] = {AclApi,    TaskTime,      AicoreMetrics, Aicpu,     L2Cache,
                               HcclTrace, TrainingTrace, Msproftx,      RuntimeApi};

enum class Tri : std::uint8_t
{
    Unknown,
    Off,
    On
};

struct SwitchSet
{
    Tri state[SwitchCount] = {};

    // "On" from any source dominates; "Off" only fills an unknown switch.
    void merge(Sw s, bool on)
    {
        if (on)
            state[s] = Tri::On;
        else if (state[s] == Tri::Unknown)
            state[s] = Tri::Off;
    }
    void set(Sw s, bool on) { state[s] = on ? Tri::On : Tri::Off; }
};

// sample.json keys per switch (FORMATS.md §4.3 table).
struct SampleKeys
{
    Sw sw;
    const char *keys[6];
};
constexpr SampleKeys kSampleKeys[] = {
    {AclApi, {"acl"}},
    {TaskTime, {"hwts_log", "hwts_log1", "ts_memcpy", "stars_acsq_task", "ts_keypoint", "taskTime"}},
    {AicoreMetrics, {"ai_core_profiling", "aiv_profiling"}},
    {Aicpu, {"aicpuTrace"}},
    {L2Cache, {"l2CacheTaskProfiling"}},
    {HcclTrace, {"hcclTrace"}},
    {TrainingTrace, {"ts_fw_training"}},
    {Msproftx, {"msproftx"}},
    {RuntimeApi, {"runtimeApi", "runtimeTrace"}},
};

// sample.json switch values are "on"/"off"/"" strings; some newer keys carry levels ("l0", "l1").
std::optional<bool> sampleSwitchValue(const QJsonValue &v)
{
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    if (v.isBool())
        return v.toBool();
    if (v.isDouble())
        return v.toDouble() != 0.0;
    if (v.isString()) {
        const QString s = v.toString().trimmed().toLower();
        return !(s.isEmpty() || s == QLatin1String("off") || s == QLatin1String("0") ||
                 s == QLatin1String("false") || s == QLatin1String("no"));
    }
    return std::nullopt;
}

// ---------------------------------------------------------------------------------------------------------
// Metric groups (FORMATS.md §4.1, current msprof column)

QStringList groupMetrics(MetricGroup g)
{
    switch (g) {
    case MetricGroup::ArithmeticUtilization:
        return {"mac_fp16_ratio", "mac_int8_ratio",  "vec_fp32_ratio",
                "vec_fp16_ratio", "vec_int32_ratio", "vec_misc_ratio"};
    case MetricGroup::PipeUtilization:
        return {"vec_ratio",  "mac_ratio",  "scalar_ratio",    "mte1_ratio",
                "mte2_ratio", "mte3_ratio", "icache_miss_rate"};
    case MetricGroup::Memory:
        return {"ub_read_bw", "ub_write_bw", "l1_read_bw",       "l1_write_bw",
                "l2_read_bw", "l2_write_bw", "main_mem_read_bw", "main_mem_write_bw"};
    case MetricGroup::MemoryL0:
        return {"l0a_read_bw", "l0a_write_bw", "l0b_read_bw",      "l0b_write_bw",
                "l0c_read_bw", "l0c_write_bw", "l0c_read_bw_cube", "l0c_write_bw_cube"};
    case MetricGroup::ResourceConflictRatio:
        return {"vec_bankgroup_cflt_ratio", "vec_bank_cflt_ratio", "vec_resc_cflt_ratio"};
    case MetricGroup::MemoryUB:
        return {"ub_read_bw_mte",     "ub_write_bw_mte",   "ub_read_bw_vector",
                "ub_write_bw_vector", "ub_read_bw_scalar", "ub_write_bw_scalar"};
    case MetricGroup::L2Cache:
        return {"write_cache_hit",   "write_cache_miss_allocate",
                "r0_read_cache_hit", "r0_read_cache_miss_allocate",
                "r1_read_cache_hit", "r1_read_cache_miss_allocate"};
    case MetricGroup::PipelineExecuteUtilization:
        return {"vec_exe_ratio",  "mac_exe_ratio",  "scalar_exe_ratio", "mte1_exe_ratio",
                "mte2_exe_ratio", "mte3_exe_ratio", "fixpipe_exe_ratio"};
    case MetricGroup::MemoryAccess:
        return {"read_main_memory_datas", "write_main_memory_datas", "gm_to_l1_datas", "l0c_to_l1_datas",
                "l0c_to_gm_datas",        "gm_to_ub_datas",          "ub_to_gm_datas"};
    case MetricGroup::None:
    case MetricGroup::Unknown:
        break;
    }
    return {};
}

QString groupText(MetricGroup g)
{
    const std::string_view n = metricGroupName(g);
    return QString::fromLatin1(n.data(), qsizetype(n.size()));
}

MetricGroup groupFromText(const QString &name)
{
    return metricGroupFromName(name.trimmed().toStdString());
}

// torch_npu levels that force ACL_AICORE_NONE (FORMATS.md §4.1).
bool torchLevelWithoutMetrics(const QString &level)
{
    const QString l = level.trimmed().toLower();
    return l == QLatin1String("level0") || l == QLatin1String("level_none");
}

// ---------------------------------------------------------------------------------------------------------
// Accumulated state

struct Accum
{
    QHash<QString, QString> props; // key -> value (first wins)
    void prop(const QString &key, const QString &value)
    {
        const QString v = value.trimmed();
        if (!v.isEmpty() && !props.contains(key))
            props.insert(key, v);
    }

    // Rank candidates in priority order.
    std::optional<qint64> rankInfo, rankInfoName, rankMeta, rankInfoJson;
    // Devices: info.json contents and suffix; other file suffixes; sample.json.
    QList<int> devInfo, devSuffix, devSample;

    QString dateBegin, dateEnd;                     // start_info / end_info strings
    std::optional<qint64> epochBeginUs, epochEndUs; // start_info / end_info / profiler_info numbers

    // sample.json
    SwitchSet sample;
    bool sampleRead = false;
    QString sampleLevel;
    std::optional<bool> aicProfiling, aivProfiling;
    QString aicMetrics, aivMetrics, aicMode, aivMode;
    bool taskTimeL0 = false;

    // profiler_info
    bool torchRead = false;
    QString torchLevel;
    std::optional<QString> torchAic;
    std::optional<bool> actCpu, actNpu, l2, msprofTx, mstx;
    std::optional<qint64> firstProfiledStep;

    bool launchBlocking = false;

    QStringList problems; // "Cannot read ..." warnings
    QStringList files;
};

void addUnique(QList<int> &list, qint64 v)
{
    if (v >= 0 && v <= INT32_MAX && !list.contains(int(v)))
        list.append(int(v));
}

// "0", "0,1", " 0, 1 ", 0, [0, 1]; "all" and other words are ignored.
void addDeviceList(QList<int> &list, const QJsonValue &v)
{
    if (v.isArray()) {
        for (const QJsonValue &e : v.toArray())
            addDeviceList(list, e);
        return;
    }
    if (v.isDouble()) {
        if (const auto n = jsonInteger(v))
            addUnique(list, *n);
        return;
    }
    if (v.isString()) {
        for (const QString &part : v.toString().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            bool ok = false;
            const int n = part.trimmed().toInt(&ok);
            if (ok)
                addUnique(list, n);
        }
    }
}

// Epoch times: µs per FORMATS.md §4.4; values beyond 1e17 can only be ns.
std::optional<qint64> epochMicroseconds(const QJsonValue &v)
{
    const auto n = jsonInteger(v);
    if (!n || *n <= 0)
        return std::nullopt;
    return *n > 100000000000000000LL ? *n / 1000 : *n;
}

QString boolText(const QJsonValue &v)
{
    const auto b = jsonBool(v);
    if (!b)
        return jsonText(v);
    return *b ? QStringLiteral("true") : QStringLiteral("false");
}

// ---------------------------------------------------------------------------------------------------------
// Per-file readers

void readProfilerInfo(const QJsonObject &root, const ConfigFileName &name, Accum &a)
{
    a.torchRead = true;
    const QJsonObject common = jsonAt(root, QStringLiteral("config/common_config")).toObject();
    const QJsonObject exp = jsonAt(root, QStringLiteral("config/experimental_config")).toObject();

    if (const QJsonValue act = common.value(QLatin1String("activities")); act.isArray() || act.isString()) {
        const QString text = jsonText(act).toUpper();
        if (!a.actCpu)
            a.actCpu = text.contains(QLatin1String("CPU"));
        if (!a.actNpu)
            a.actNpu = text.contains(QLatin1String("NPU"));
    }

    const QJsonValue schedule = common.value(QLatin1String("schedule"));
    if (schedule.isObject()) {
        const QJsonObject s = schedule.toObject();
        QStringList parts;
        qint64 first = 0;
        bool any = false;
        for (const char *key : {"wait", "warmup", "active", "repeat", "skip_first"}) {
            const QJsonValue v = s.value(QLatin1String(key));
            const QString t = jsonText(v);
            if (t.isEmpty())
                continue;
            parts.append(QStringLiteral("%1=%2").arg(QLatin1String(key), t));
            if (qstrcmp(key, "wait") == 0 || qstrcmp(key, "warmup") == 0 || qstrcmp(key, "skip_first") == 0) {
                if (const auto n = jsonInteger(v)) {
                    first += std::max<qint64>(*n, 0);
                    any = true;
                }
            }
        }
        a.prop(QStringLiteral("schedule"), parts.join(QStringLiteral(", ")));
        if (any && !a.firstProfiledStep)
            a.firstProfiledStep = first;
    }
    for (const char *key : {"record_shapes", "profile_memory", "with_stack", "with_flops", "with_modules"})
        a.prop(QLatin1String(key), boolText(common.value(QLatin1String(key))));

    if (a.torchLevel.isEmpty())
        a.torchLevel = jsonText(exp.value(QLatin1String("_profiler_level")));
    if (!a.torchAic) {
        const QString aic = jsonText(exp.value(QLatin1String("_aic_metrics")));
        if (!aic.isEmpty())
            a.torchAic = aic;
    }
    if (!a.l2)
        a.l2 = jsonBool(exp.value(QLatin1String("_l2_cache")));
    if (!a.msprofTx)
        a.msprofTx = jsonBool(exp.value(QLatin1String("_msprof_tx")));
    if (!a.mstx)
        a.mstx = jsonBool(exp.value(QLatin1String("_mstx")));
    a.prop(QStringLiteral("export type"), jsonText(exp.value(QLatin1String("_export_type"))));

    a.prop(QStringLiteral("torch_npu version"), jsonText(root.value(QLatin1String("torch_npu_version"))));
    a.prop(QStringLiteral("CANN version"), jsonText(root.value(QLatin1String("cann_version"))));

    if (!a.rankInfo)
        a.rankInfo = jsonInteger(root.value(QLatin1String("rank_id")));
    if (!a.rankInfoName && name.rank)
        a.rankInfoName = *name.rank;

    if (!a.epochEndUs)
        a.epochEndUs = epochMicroseconds(jsonAt(root, QStringLiteral("end_info/collectionTimeEnd")));
}

void readProfilerMetadata(const QJsonObject &root, Accum &a)
{
    const QJsonObject dist = root.value(QLatin1String("distributed_args")).toObject();
    if (!dist.isEmpty()) {
        if (!a.rankMeta)
            a.rankMeta = jsonInteger(dist.value(QLatin1String("rank")));
        a.prop(QStringLiteral("world size"), jsonText(dist.value(QLatin1String("world_size"))));
        static const std::pair<const char *, const char *> kParallel[] = {
            {"tensor_model_parallel_size", "tp"}, {"pipeline_model_parallel_size", "pp"},
            {"data_parallel_size", "dp"},         {"context_parallel_size", "cp"},
            {"expert_model_parallel_size", "ep"}, {"sequence_parallel", "sequence_parallel"},
        };
        QStringList parts;
        for (const auto &[key, label] : kParallel) {
            const QString t = jsonText(dist.value(QLatin1String(key)));
            if (!t.isEmpty())
                parts.append(QStringLiteral("%1=%2").arg(QLatin1String(label), t));
        }
        a.prop(QStringLiteral("parallelism"), parts.join(QStringLiteral(", ")));
    }
    const QJsonObject env = root.value(QLatin1String("ENV_VARIABLES")).toObject();
    QStringList set;
    for (auto it = env.constBegin(); it != env.constEnd(); ++it) {
        const QString v = jsonText(it.value());
        if (v.isEmpty())
            continue;
        set.append(QStringLiteral("%1=%2").arg(it.key(), v));
        if (it.key() == QLatin1String("ASCEND_LAUNCH_BLOCKING") && jsonBool(it.value()).value_or(true))
            a.launchBlocking = true;
    }
    a.prop(QStringLiteral("environment"), set.join(QStringLiteral(", ")));
}

void readInfoJson(const QJsonObject &root, const ConfigFileName &name, Accum &a)
{
    if (name.device)
        addUnique(a.devInfo, *name.device);
    addDeviceList(a.devInfo, root.value(QLatin1String("devices")));
    const QJsonArray devInfo = root.value(QLatin1String("DeviceInfo")).toArray();
    for (const QJsonValue &d : devInfo) {
        if (const auto id = jsonInteger(d.toObject().value(QLatin1String("id"))))
            addUnique(a.devInfo, *id);
    }

    const QString platform = jsonText(root.value(QLatin1String("platform_version")));
    if (!platform.isEmpty()) {
        const ChipInfo chip = chipFromPlatformVersion(platform);
        a.prop(QStringLiteral("chip"),
               chip.name.isEmpty()
                   ? QCoreApplication::translate("Parser", "unknown chip (platform_version %1)")
                         .arg(chip.platformVersion)
                   : QStringLiteral("%1 (chip %2, platform_version %3)")
                         .arg(chip.name, chip.generation, chip.platformVersion));
        a.prop(QStringLiteral("chip family"), taskSchedulerName(chip.scheduler));
    }
    if (!devInfo.isEmpty()) {
        const QJsonObject d = devInfo.first().toObject();
        a.prop(QStringLiteral("ai_core_num"), jsonText(d.value(QLatin1String("ai_core_num"))));
        a.prop(QStringLiteral("aiv_num"), jsonText(d.value(QLatin1String("aiv_num"))));
        a.prop(QStringLiteral("aic_frequency (MHz)"), jsonText(d.value(QLatin1String("aic_frequency"))));
        a.prop(QStringLiteral("aiv_frequency (MHz)"), jsonText(d.value(QLatin1String("aiv_frequency"))));
        a.prop(QStringLiteral("hwts_frequency (MHz)"), jsonText(d.value(QLatin1String("hwts_frequency"))));
    }
    a.prop(QStringLiteral("hostname"), jsonText(root.value(QLatin1String("hostname"))));
    a.prop(QStringLiteral("CANN version"), jsonText(root.value(QLatin1String("cannVersion"))));
    a.prop(QStringLiteral("driver version"), jsonText(root.value(QLatin1String("drvVersion"))));
    if (!a.rankInfoJson) {
        const auto r = jsonInteger(root.value(QLatin1String("rank_id")));
        if (r && *r >= 0)
            a.rankInfoJson = r;
    }
}

void readSampleJson(const QJsonObject &root, Accum &a)
{
    a.sampleRead = true;
    for (const SampleKeys &k : kSampleKeys) {
        for (const char *key : k.keys) {
            if (!key)
                break;
            if (const auto on = sampleSwitchValue(root.value(QLatin1String(key))))
                a.sample.merge(k.sw, *on);
        }
    }
    if (jsonText(root.value(QLatin1String("taskTime"))).compare(QLatin1String("l0"), Qt::CaseInsensitive) ==
        0)
        a.taskTimeL0 = true;

    if (a.sampleLevel.isEmpty())
        a.sampleLevel = jsonText(root.value(QLatin1String("profLevel")));
    if (a.sampleLevel.isEmpty())
        a.sampleLevel = jsonText(root.value(QLatin1String("prof_level")));

    if (!a.aicProfiling)
        a.aicProfiling = sampleSwitchValue(root.value(QLatin1String("ai_core_profiling")));
    if (!a.aivProfiling)
        a.aivProfiling = sampleSwitchValue(root.value(QLatin1String("aiv_profiling")));
    if (a.aicMetrics.isEmpty())
        a.aicMetrics = jsonText(root.value(QLatin1String("ai_core_metrics")));
    if (a.aivMetrics.isEmpty())
        a.aivMetrics = jsonText(root.value(QLatin1String("aiv_metrics")));
    if (a.aicMode.isEmpty())
        a.aicMode = jsonText(root.value(QLatin1String("ai_core_profiling_mode")));
    if (a.aivMode.isEmpty())
        a.aivMode = jsonText(root.value(QLatin1String("aiv_profiling_mode")));

    addDeviceList(a.devSample, root.value(QLatin1String("devices")));

    const QString app = jsonText(root.value(QLatin1String("app")));
    const QString params = jsonText(root.value(QLatin1String("app_parameters")));
    a.prop(QStringLiteral("application"), params.isEmpty() ? app : app + QLatin1Char(' ') + params);
}

void readStartInfo(const QJsonObject &root, Accum &a)
{
    if (a.dateBegin.isEmpty())
        a.dateBegin = jsonText(root.value(QLatin1String("collectionDateBegin")));
    if (!a.epochBeginUs)
        a.epochBeginUs = epochMicroseconds(root.value(QLatin1String("collectionTimeBegin")));
}

void readEndInfo(const QJsonObject &root, Accum &a)
{
    if (a.dateEnd.isEmpty())
        a.dateEnd = jsonText(root.value(QLatin1String("collectionDateEnd")));
    if (!a.epochEndUs)
        a.epochEndUs = epochMicroseconds(root.value(QLatin1String("collectionTimeEnd")));
    // One known file writes collectionTimeBegin into end_info (FORMATS.md §4.4).
    if (!a.epochEndUs)
        a.epochEndUs = epochMicroseconds(root.value(QLatin1String("collectionTimeBegin")));
}

// Reads one file into `a`; returns false (and records the problem) when it could not be read.
bool readConfigFile(const QString &path, Accum &a)
{
    const ConfigFileName name = classifyConfigFile(path);
    switch (name.kind) {
    case ConfigFileKind::Unknown:
        return false;
    case ConfigFileKind::HostStartLog:
    case ConfigFileKind::DevStartLog: {
        const IniFile ini = loadIniFile(path);
        if (!ini.ok()) {
            a.problems.append(unreadableFileWarning(path, ini.problem));
            return false;
        }
        if (name.device)
            addUnique(a.devSuffix, *name.device);
        return true;
    }
    case ConfigFileKind::SampleJson:
    case ConfigFileKind::InfoJson:
    case ConfigFileKind::StartInfo:
    case ConfigFileKind::EndInfo:
    case ConfigFileKind::ProfilerInfo:
    case ConfigFileKind::ProfilerMetadata:
        break;
    }
    const JsonFile json = loadJsonObject(path);
    if (!json.ok()) {
        a.problems.append(unreadableFileWarning(path, json.problem));
        return false;
    }
    switch (name.kind) {
    case ConfigFileKind::SampleJson:
        readSampleJson(json.object, a);
        break;
    case ConfigFileKind::InfoJson:
        readInfoJson(json.object, name, a);
        break;
    case ConfigFileKind::StartInfo:
        readStartInfo(json.object, a);
        if (name.device)
            addUnique(a.devSuffix, *name.device);
        break;
    case ConfigFileKind::EndInfo:
        readEndInfo(json.object, a);
        if (name.device)
            addUnique(a.devSuffix, *name.device);
        break;
    case ConfigFileKind::ProfilerInfo:
        readProfilerInfo(json.object, name, a);
        break;
    case ConfigFileKind::ProfilerMetadata:
        readProfilerMetadata(json.object, a);
        break;
    case ConfigFileKind::Unknown:
    case ConfigFileKind::HostStartLog:
    case ConfigFileKind::DevStartLog:
        break;
    }
    return true;
}

// torch_npu's data-type mask from profiler_info (FORMATS.md §4.3; torch_npu `npu_profiler.h` Level0/1/2).
SwitchSet torchSwitches(const Accum &a, bool metricsCollected)
{
    SwitchSet s;
    if (!a.torchRead)
        return s;
    if (a.actCpu)
        s.set(ActivityCpu, *a.actCpu);
    if (a.actNpu)
        s.set(ActivityNpu, *a.actNpu);
    if (a.actNpu && !*a.actNpu) {
        for (Sw sw : kAclSwitches)
            s.set(sw, false);
        return s;
    }
    const QString level = a.torchLevel.trimmed().toLower();
    const bool l0 = level == QLatin1String("level0");
    const bool l1 = level == QLatin1String("level1");
    const bool l2 = level == QLatin1String("level2");
    const bool none = level == QLatin1String("level_none");
    if (l0 || l1 || l2 || none) {
        s.set(AclApi, !none);
        s.set(TaskTime, l1 || l2);
        if (l0)
            s.set(TaskTimeL0, true);
        s.set(AicoreMetrics, (l1 || l2) && metricsCollected);
        s.set(HcclTrace, l1 || l2);
        s.set(Aicpu, l2);
        s.set(RuntimeApi, l2);
        s.set(TrainingTrace, false);
    }
    if (a.l2)
        s.set(L2Cache, *a.l2);
    if (a.msprofTx || a.mstx)
        s.set(Msproftx, a.msprofTx.value_or(false) || a.mstx.value_or(false));
    return s;
}

QString deviceText(const QList<int> &devices)
{
    QList<int> sorted = devices;
    std::sort(sorted.begin(), sorted.end());
    QStringList parts;
    for (int d : sorted)
        parts.append(QString::number(d));
    return parts.join(QStringLiteral(", "));
}

void appendUnique(QStringList &list, const QString &s)
{
    if (!list.contains(s))
        list.append(s);
}

// The metric columns of the kernel table's header (the one given, else the summary file's first row).
struct SummaryMetrics
{
    bool headerUsable = false;
    MetricLayout layout;
    QStringList metrics;
};

SummaryMetrics summaryMetrics(const CollectionInputs &in, Accum &a)
{
    SummaryMetrics out;
    QStringList header = in.summaryHeader;
    out.headerUsable = !header.isEmpty();
    if (!out.headerUsable && !in.summaryFile.isEmpty()) {
        const CsvHeader h = readCsvHeader(in.summaryFile);
        if (h.ok()) {
            header = h.cells;
            out.headerUsable = true;
        } else {
            a.problems.append(unreadableFileWarning(in.summaryFile, h.problem));
        }
    }
    if (!out.headerUsable)
        return out;
    std::vector<std::string> cells;
    cells.reserve(std::size_t(header.size()));
    for (const QString &c : header)
        cells.push_back(c.trimmed().toStdString());
    out.layout = detectMetricColumns(cells);
    for (const MetricColumn &m : out.layout.metrics)
        out.metrics.append(QString::fromStdString(m.header));
    if (!in.summaryFile.isEmpty())
        a.files.append(in.summaryFile);
    return out;
}

// The AI Core metric group the configuration names: known (an empty name: none was collected) or not
// recorded at all.
std::pair<bool, QString> configuredMetricGroup(const Accum &a)
{
    bool configKnown = false;
    QString configName;
    if (a.torchAic) {
        configKnown = true;
        configName = *a.torchAic;
    } else if (a.sampleRead) {
        const bool aicOff = a.aicProfiling.has_value() && !*a.aicProfiling;
        const bool aivOff = !a.aivProfiling.has_value() || !*a.aivProfiling;
        if (aicOff && aivOff) {
            configKnown = true; // both explicitly (or implicitly for aiv) off
        } else if (!a.aicMetrics.isEmpty() && a.aicProfiling.value_or(true)) {
            configKnown = true;
            configName = a.aicMetrics;
        } else if (!a.aivMetrics.isEmpty() && a.aivProfiling.value_or(false)) {
            configKnown = true;
            configName = a.aivMetrics;
        }
    }
    if (a.torchRead && torchLevelWithoutMetrics(a.torchLevel)) {
        configKnown = true;
        configName.clear();
    }
    return {configKnown, configName};
}

// "Rank 0 / Device 3" when the source has no label of its own.
QString sourceLabelFor(const std::optional<qint64> &rank, const QList<int> &devices)
{
    QStringList parts;
    if (rank && *rank >= 0)
        parts.append(QStringLiteral("Rank %1").arg(*rank));
    if (devices.size() == 1)
        parts.append(QStringLiteral("Device %1").arg(devices.first()));
    else if (devices.size() > 1)
        parts.append(QStringLiteral("Devices %1").arg(deviceText(devices)));
    return parts.join(QStringLiteral(" / "));
}

} // namespace

// -------------------------------------------------------------------------------------------------------------

QString l2CacheWarning()
{
    return QCoreApplication::translate(
        "Parser", "L2 cache collection was on: it adds overhead and inflates kernel times");
}

QString sampleBasedWarning()
{
    return QCoreApplication::translate(
        "Parser", "AI Core metrics were collected in sample-based mode: metrics are not per task, so they "
                  "cannot be attributed to individual operators");
}

QString launchBlockingWarning()
{
    return QCoreApplication::translate(
        "Parser", "ASCEND_LAUNCH_BLOCKING was set: operators ran synchronously, so the timeline does not "
                  "show the normal host/device overlap");
}

QString unreadableFileWarning(const QString &path, const QString &problem)
{
    return QCoreApplication::translate("Parser", "Cannot read %1: %2").arg(path, problem);
}

QStringList stepWarnings(const QList<int> &profiledSteps)
{
    QList<int> early;
    for (int s : profiledSteps) {
        if (s >= 0 && s < 10 && !early.contains(s))
            early.append(s);
    }
    std::sort(early.begin(), early.end());
    QStringList out;
    for (int s : early)
        out.append(QCoreApplication::translate(
                       "Parser", "Step %1 is among the first ten: it may include operator compilation; the "
                                 "profiler docs advise profiling after step 10")
                       .arg(s));
    return out;
}

QStringList metricsOfGroup(const QString &groupName)
{
    return groupMetrics(groupFromText(groupName));
}

CollectionInputs collectionInputsFrom(const DataSource &source)
{
    CollectionInputs in;
    in.sourceLabel = source.label;
    in.configFiles = source.configFiles;
    in.rankId = source.rankId;
    in.deviceId = source.deviceId;
    for (const char *type : {"kernel_details", "op_summary"}) {
        const QStringList files = source.summaries(QLatin1String(type));
        if (!files.isEmpty()) {
            in.summaryFile = files.first();
            break;
        }
    }
    return in;
}

CollectionInfo readCollectionInfo(const DataSource &source)
{
    return readCollectionInfo(collectionInputsFrom(source));
}

CollectionInfo readCollectionInfo(const CollectionInputs &in)
{
    Accum a;
    QSet<QString> seen;
    for (const QString &path : in.configFiles) {
        if (path.isEmpty() || seen.contains(path))
            continue;
        seen.insert(path);
        if (readConfigFile(path, a))
            a.files.append(path);
    }

    const SummaryMetrics summary = summaryMetrics(in, a);
    const bool headerUsable = summary.headerUsable;
    const MetricLayout &layout = summary.layout;
    const QStringList &csvMetrics = summary.metrics;

    CollectionInfo info;

    // Level and metric group.
    info.profilerLevel = !a.torchLevel.isEmpty() ? a.torchLevel : a.sampleLevel;
    const auto [configKnown, configName] = configuredMetricGroup(a);
    if (configKnown) {
        const MetricGroup g = groupFromText(configName);
        if (g == MetricGroup::None)
            info.metricGroup.clear();
        else if (g == MetricGroup::Unknown)
            info.metricGroup = configName.trimmed(); // a chip-specific name this library does not know
        else
            info.metricGroup = groupText(g);
    } else if (headerUsable && layout.group != MetricGroup::None) {
        info.metricGroup = groupText(layout.group); // "Unknown" when no signature metric matched
    }
    info.metrics = !csvMetrics.isEmpty() ? csvMetrics : groupMetrics(groupFromText(info.metricGroup));

    // Switches: sample.json wins, profiler_info fills the rest.
    const SwitchSet torch = torchSwitches(a, !info.metricGroup.isEmpty());
    SwitchSet sample = a.sample;
    if (a.taskTimeL0)
        sample.set(TaskTimeL0, true);
    for (int i = 0; i < SwitchCount; ++i) {
        const Tri t = sample.state[i] != Tri::Unknown ? sample.state[i] : torch.state[i];
        if (t == Tri::On)
            info.switchesOn.append(QLatin1String(kSwitchNames[i]));
        else if (t == Tri::Off)
            info.switchesOff.append(QLatin1String(kSwitchNames[i]));
    }
    const auto switchState = [&](Sw s) {
        return sample.state[s] != Tri::Unknown ? sample.state[s] : torch.state[s];
    };

    // Properties.
    std::optional<qint64> rank = a.rankInfo;
    for (const auto &r : {a.rankInfoName, a.rankMeta, a.rankInfoJson}) {
        if (!rank)
            rank = r;
    }
    if (!rank && in.rankId)
        rank = *in.rankId;
    if (rank && *rank >= 0)
        a.prop(QStringLiteral("rank"), QString::number(*rank));

    QList<int> devices = a.devInfo;
    if (devices.isEmpty())
        devices = a.devSuffix;
    if (devices.isEmpty())
        devices = a.devSample;
    if (devices.isEmpty() && in.deviceId && *in.deviceId >= 0)
        devices.append(*in.deviceId);
    a.prop(QStringLiteral("device"), deviceText(devices));

    if (switchState(AicoreMetrics) != Tri::Off) {
        const bool aicOn = a.aicProfiling.value_or(true);
        a.prop(QStringLiteral("AI Core mode"), aicOn ? a.aicMode : a.aivMode);
    }

    a.prop(QStringLiteral("collection start"), !a.dateBegin.isEmpty() ? a.dateBegin
                                               : a.epochBeginUs ? utcDateFromMicroseconds(*a.epochBeginUs)
                                                                : QString());
    a.prop(QStringLiteral("collection end"), !a.dateEnd.isEmpty() ? a.dateEnd
                                             : a.epochEndUs       ? utcDateFromMicroseconds(*a.epochEndUs)
                                                                  : QString());

    for (std::string_view key : kCollectionPropertyKeys) {
        const QString k = QString::fromLatin1(key.data(), qsizetype(key.size()));
        const auto it = a.props.constFind(k);
        if (it != a.props.constEnd())
            info.properties.append({k, it.value()});
    }

    // Source label.
    info.sourceLabel = !in.sourceLabel.isEmpty() ? in.sourceLabel : sourceLabelFor(rank, devices);

    // Warnings.
    for (const QString &w : a.problems)
        appendUnique(info.warnings, w);
    if (switchState(L2Cache) == Tri::On)
        appendUnique(info.warnings, l2CacheWarning());
    if (!in.profiledSteps.isEmpty()) {
        for (const QString &w : stepWarnings(in.profiledSteps))
            appendUnique(info.warnings, w);
    } else if (a.firstProfiledStep && *a.firstProfiledStep < 10) {
        for (const QString &w : stepWarnings({int(*a.firstProfiledStep)}))
            appendUnique(info.warnings, w);
    }
    const bool sampleBased = a.aicMode.compare(QLatin1String("sample-based"), Qt::CaseInsensitive) == 0 ||
                             a.aivMode.compare(QLatin1String("sample-based"), Qt::CaseInsensitive) == 0;
    if (sampleBased && switchState(AicoreMetrics) != Tri::Off)
        appendUnique(info.warnings, sampleBasedWarning());
    if (configKnown && headerUsable && !csvMetrics.isEmpty() && layout.group != MetricGroup::Unknown &&
        layout.group != MetricGroup::None) {
        const QString csvName = in.summaryFile.isEmpty()
                                    ? QCoreApplication::translate("Parser", "the summary CSV")
                                    : QFileInfo(in.summaryFile).fileName();
        const QString csvGroup = groupText(layout.group);
        if (info.metricGroup.isEmpty()) {
            appendUnique(info.warnings,
                         QCoreApplication::translate(
                             "Parser", "The configuration records no AI Core metric group, but %1 has metric "
                                       "columns of %2")
                             .arg(csvName, csvGroup));
        } else if (groupFromText(info.metricGroup) != MetricGroup::Unknown && info.metricGroup != csvGroup) {
            appendUnique(info.warnings,
                         QCoreApplication::translate(
                             "Parser", "The AI Core metric group in the configuration (%1) differs from the "
                                       "metric columns of %2 (%3)")
                             .arg(info.metricGroup, csvName, csvGroup));
        }
    }
    if (a.launchBlocking)
        appendUnique(info.warnings, launchBlockingWarning());

    info.files = a.files;
    return info;
}

} // namespace at
