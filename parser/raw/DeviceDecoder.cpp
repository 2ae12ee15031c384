#include "DeviceDecoder.h"

#include "AiCpu.h"
#include "HcclLanes.h"
#include "HwtsLog.h"
#include "common/MessageText.h"
#include "config/ChipInfo.h"
#include "config/ConfigFiles.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>

#include <array>

namespace at::raw {

namespace {

// Moves the first stream's tasks instead of copying them: a copy would hold every task twice at once.
void appendTasks(std::vector<DeviceTask> &tasks, std::vector<DeviceTask> &&more)
{
    if (tasks.empty())
        tasks = std::move(more);
    else
        tasks.insert(tasks.end(), more.begin(), more.end());
}

} // namespace

DeviceDecoder::DeviceDecoder(RawModelOutput &out, HostAssociation &host, PmuKernelRows &rows,
                             StreamControl control, const SliceListing &listing, int device,
                             const QString &dir, const QString &hostDir)
    : m_out(out), m_host(host), m_rows(rows), m_stream(control), m_listing(listing), m_hostDir(hostDir),
      m_label(out.shortPath(dir))
{
    m_d.device = device;
    m_d.dir = dir;
}

bool DeviceDecoder::Families::empty() const
{
    return hwts.empty() && aicore.empty() && stars.empty() && ffts.empty() && tsTrack.empty() &&
           aiCpu.empty();
}

void DeviceDecoder::run()
{
    std::optional<Frequency> hwtsFrequency;
    const QString platform = readConfig(&hwtsFrequency);
    const Families f = classify();
    if (f.empty())
        return;
    const config::ChipInfo chip = config::chipFromPlatformVersion(platform);
    config::TaskScheduler scheduler = chip.scheduler;
    if (scheduler == config::TaskScheduler::Unknown) {
        scheduler = f.stars.empty() ? config::TaskScheduler::Hwts : config::TaskScheduler::Stars;
        m_out.warn(
            QCoreApplication::translate("Parser", "%1: %2; decoded as a %3 chip because of the files present")
                .arg(m_label,
                     platform.isEmpty()
                         ? QCoreApplication::translate("Parser", "no info.json platform_version")
                         : QCoreApplication::translate("Parser", "unknown chip (platform_version %1)")
                               .arg(platform),
                     config::taskSchedulerName(scheduler)));
    }
    if (!hwtsFrequency) {
        skipTaskLogs(f);
        return;
    }
    setUpClock(*hwtsFrequency);
    m_d.isStars = scheduler == config::TaskScheduler::Stars;
    m_d.process = m_out.deviceProcess(m_d.isStars ? QStringLiteral("Ascend Hardware")
                                                  : QStringLiteral("Task Scheduler"),
                                      m_d.device, &m_d.pid);
    // §5.6: chip v6 logs 32-byte ACSQ records whose u32 task id replaces stream + task; stream-expand
    // mode (the host logged expand_stream_spec) decodes the ids by another table.
    m_d.starsMode.streamExpand = m_host.streamExpand();
    m_d.starsMode.chipV6 = chip.generation == QLatin1String("v6");
    pairTasks(f);
    // ts_track first: its flips give the tasks' batch ids, its block-num records the PMU rows' Block Dim.
    readTsTrack(f.tsTrack);
    addTaskSlices();
    readAicFrequency(f.freq); // before the PMU rows: their times use the frequency at the task end
    m_rows.addPmuRows(m_d, f.aicore, f.ffts);
    m_rows.addOpRows(m_d);
    readAiCpu(f.aiCpu);
}

// DeviceInfo[0].hwts_frequency in MHz, or nullopt and *problem naming the file, the field and the value.
std::optional<Frequency> DeviceDecoder::readHwtsFrequency(const QString &file, const QJsonObject &deviceInfo,
                                                          QString *problem)
{
    const QJsonValue value = deviceInfo.value(QStringLiteral("hwts_frequency"));
    if (value.isUndefined() || value.isNull()) {
        *problem = QCoreApplication::translate("Parser", "%1: DeviceInfo[0] has no hwts_frequency").arg(file);
        return std::nullopt;
    }
    const QString text = config::jsonText(value);
    const std::optional<Frequency> f = Frequency::parse(text);
    // A task clock runs at some MHz (19.2, 50, 100, 1000 are seen); beyond 100 GHz the value is damaged.
    if (!f || f->numerator > kMaxHwtsFrequencyMHz * f->denominator) {
        *problem = QCoreApplication::translate(
                       "Parser", "%1: DeviceInfo[0].hwts_frequency is \"%2\", not a frequency in MHz above 0 "
                                 "and at most %3")
                       .arg(file, printableText(text))
                       .arg(kMaxHwtsFrequencyMHz);
        return std::nullopt;
    }
    return f;
}

// info.json.<dev> (FORMATS.md §4.4): chip, hwts frequency, core counts; sample.json: the PMU events.
QString DeviceDecoder::readConfig(std::optional<Frequency> *hwtsFrequency)
{
    const QString &dir = m_d.dir;
    QString infoPath = QDir(dir).filePath(QStringLiteral("info.json.%1").arg(m_d.device));
    if (!QFileInfo::exists(infoPath))
        infoPath = firstFileStartingWith(dir, QStringLiteral("info.json"));
    QString platform;
    if (infoPath.isEmpty()) {
        m_frequencyProblem =
            QCoreApplication::translate("Parser", "%1 has no info.json.%2 (nor any info.json* file)")
                .arg(m_out.shortPath(dir))
                .arg(m_d.device);
    } else {
        const config::JsonFile f = config::loadJsonObject(infoPath);
        const QString file = m_out.shortPath(infoPath);
        platform = config::jsonText(f.object.value(QStringLiteral("platform_version")));
        const QJsonArray infos = f.object.value(QStringLiteral("DeviceInfo")).toArray();
        if (!f.ok()) {
            m_frequencyProblem = QCoreApplication::translate("Parser", "%1: %2").arg(file, f.problem);
        } else if (infos.isEmpty() || !infos.first().isObject()) {
            m_frequencyProblem =
                QCoreApplication::translate("Parser", "%1 has no DeviceInfo entry").arg(file);
        } else {
            m_d.deviceInfo = infos.first().toObject();
            *hwtsFrequency = readHwtsFrequency(file, m_d.deviceInfo, &m_frequencyProblem);
        }
    }
    QString samplePath = QDir(dir).filePath(QStringLiteral("sample.json"));
    if (!QFileInfo::exists(samplePath) && !m_hostDir.isEmpty())
        samplePath = QDir(m_hostDir).filePath(QStringLiteral("sample.json"));
    if (QFileInfo::exists(samplePath))
        m_d.sample = config::loadJsonObject(samplePath).object;
    return platform;
}

DeviceDecoder::Families DeviceDecoder::classify()
{
    static const QRegularExpression hwtsRe(
        QStringLiteral("^hwts\\.(data|aiv_data)\\.\\d+$|^hwts\\.log\\.data\\."));
    static const QRegularExpression aicoreRe(
        QStringLiteral("^aicore\\.data\\.\\d+(\\.dev\\.profiler_default_tag\\.\\d+)?$"));
    static const QRegularExpression starsRe(QStringLiteral("^stars_soc\\.data\\.\\d+$"));
    static const QRegularExpression fftsRe(QStringLiteral("^ffts_profile\\.data\\.\\d+$"));
    static const QRegularExpression tsTrackRe(
        QStringLiteral("^ts_track\\.(data|aiv_data)\\.\\d+$|^ts_track\\.data\\.\\d+\\.\\d+\\.\\d+$"));
    static const QRegularExpression aiCpuRe(
        QStringLiteral("^aicpu\\.data\\.\\d+$|^DATA_PREPROCESS\\.(dev\\.)?AICPU\\.\\d+$"));
    static const QRegularExpression freqRe(QStringLiteral("^lpmFreqConv\\.data\\.\\d+$"));
    Families f;
    for (const SliceStreamFiles &s : m_listing.streamsIn(m_d.dir)) {
        if (hwtsRe.match(s.stream).hasMatch())
            f.hwts.push_back(&s);
        else if (tsTrackRe.match(s.stream).hasMatch())
            f.tsTrack.push_back(&s);
        else if (aiCpuRe.match(s.stream).hasMatch())
            f.aiCpu.push_back(&s);
        else if (aicoreRe.match(s.stream).hasMatch())
            f.aicore.push_back(&s);
        else if (starsRe.match(s.stream).hasMatch())
            f.stars.push_back(&s);
        else if (fftsRe.match(s.stream).hasMatch())
            f.ffts.push_back(&s);
        else if (freqRe.match(s.stream).hasMatch())
            f.freq.push_back(&s);
        else if (!isGeTaskStream(s.stream))
            m_out.notDecoded(m_out.streamName(m_d.dir, s.stream), s.files);
    }
    return f;
}

void DeviceDecoder::skipTaskLogs(const Families &f)
{
    std::size_t files = 0;
    for (const Streams *family : {&f.hwts, &f.stars, &f.tsTrack, &f.aiCpu})
        for (const auto *s : *family)
            files += s->files.size();
    m_out.warn(QCoreApplication::translate(
                   "Parser", "%1: no hwts_frequency (info.json.%2 missing or incomplete): %3 of device task "
                             "logs cannot be put on the clock and were not decoded (%4)")
                   .arg(m_label)
                   .arg(m_d.device)
                   .arg(plural(files, "slice file"))
                   .arg(m_frequencyProblem));
    for (const Streams *family : {&f.hwts, &f.stars, &f.tsTrack, &f.aiCpu})
        for (const auto *s : *family)
            m_out.notDecoded(m_out.streamName(m_d.dir, s->stream), s->files);
    m_out.info().decodeProblems << m_frequencyProblem;
}

// Clock (§5.10): dev_start.log cntvct, host_start.log clock_monotonic_raw, start_info offset.
void DeviceDecoder::setUpClock(const Frequency &hwtsFrequency)
{
    const QString &dir = m_d.dir;
    ClockConverter &clock = m_d.clock;
    clock.frequency = hwtsFrequency;
    bool synced = false;
    const QString devStart = firstFileStartingWith(dir, QStringLiteral("dev_start.log"));
    if (!devStart.isEmpty()) {
        const config::IniFile ini = config::loadIniFile(devStart);
        bool ok = false;
        clock.syncTicks = ini.value(QStringLiteral("cntvct")).trimmed().toULongLong(&ok);
        QString hostStart = firstFileStartingWith(dir, QStringLiteral("host_start.log"));
        if (hostStart.isEmpty() && !m_hostDir.isEmpty())
            hostStart = firstFileStartingWith(m_hostDir, QStringLiteral("host_start.log"));
        std::uint64_t hostTicks = 0;
        synced =
            ok && readHostStartLog(hostStart, m_host.clock().cpuFrequency, &clock.syncMonoNs, &hostTicks);
    }
    std::optional<std::int64_t> offset =
        startInfoOffset(firstFileStartingWith(dir, QStringLiteral("start_info")));
    if (!offset)
        offset = m_host.clock().monoToLocal;
    clock.monoToLocalNs = offset.value_or(0);
    if (!synced)
        m_out.warn(
            QStringLiteral("%1: dev_start.log / host_start.log missing or unreadable: device times are "
                           "the raw counter converted to ns, not aligned with the host")
                .arg(m_label));
    if (!offset)
        m_out.warn(
            QStringLiteral("%1: no start_info: device times stay on the monotonic clock").arg(m_label));
}

// HWTS start/end pairs or STARS ACSQ/FFTS+ records of every stream into m_d.tasks.
void DeviceDecoder::pairTasks(const Families &f)
{
    std::vector<DeviceTask> &tasks = m_d.tasks;
    for (const SliceStreamFiles *s : f.hwts) {
        HwtsPairer pairer;
        qint64 bytes = 0;
        for (const QString &file : s->files)
            bytes += QFileInfo(file).size();
        pairer.reserve(static_cast<std::size_t>(bytes) / kHwtsRecordSize);
        const QString name = m_out.streamName(m_d.dir, s->stream);
        const StreamStats st = forEachRecord(m_stream, s->files, kHwtsRecordSize,
                                             [&](const unsigned char *r) { pairer.add(r); });
        appendTasks(tasks, pairer.finish());
        m_out.reportStream(name, st, kHwtsRecordSize);
        m_out.reportPairing(name, pairer.stats(), pairer.counter());
    }
    const std::size_t starsRecordSize = m_d.starsMode.chipV6 ? kStarsV6RecordSize : kStarsRecordSize;
    for (const SliceStreamFiles *s : f.stars) {
        StarsPairer pairer(m_d.starsMode);
        const QString name = m_out.streamName(m_d.dir, s->stream);
        const StreamStats st = forEachRecord(m_stream, s->files, starsRecordSize,
                                             [&](const unsigned char *r) { pairer.add(r); });
        appendTasks(tasks, pairer.finish());
        m_out.reportStream(name, st, starsRecordSize);
        m_out.reportPairing(name, pairer.stats(), pairer.counter());
    }
}

// One shared QString per task type: the args of a million tasks do not hold a million copies.
QString DeviceDecoder::taskTypeText(bool stars, std::uint8_t type)
{
    static const std::array<std::array<QString, 256>, 2> texts = [] {
        std::array<std::array<QString, 256>, 2> t;
        for (int i = 0; i < 256; ++i) {
            t[0][std::size_t(i)] = QString::fromLatin1(hwtsTaskTypeName(static_cast<std::uint8_t>(i)));
            t[1][std::size_t(i)] = QString::fromLatin1(starsSqeTypeName(static_cast<std::uint8_t>(i)));
        }
        return t;
    }();
    return texts[stars ? 1 : 0][type];
}

int DeviceDecoder::streamThread(std::uint32_t stream)
{
    if (const auto it = m_streamThreads.find(stream); it != m_streamThreads.end())
        return it->second;
    const int thread = m_out.streamLane(m_d.pid, stream);
    m_streamThreads.emplace(stream, thread);
    return thread;
}

// A "Stream N" slice per task, named by the kernel name of its host submission (same device, stream,
// task and batch), else by its task type; with the HostToDevice flow from the submitting API slice and,
// under an HCCL range, a copy on the HCCL layer.
void DeviceDecoder::addTaskSlices()
{
    const std::vector<DeviceTask> &tasks = m_d.tasks;
    const FlipBatches *flips = !m_d.flips.empty() ? &m_d.flips : m_host.flipsOf(m_d.device);
    const CannAssociation &cann = m_host.cann();
    m_d.taskNames.assign(tasks.size(), 0);
    m_d.taskHost.assign(tasks.size(), -1);
    m_d.taskRow.assign(tasks.size(), -1);
    std::size_t named = 0;
    HcclLanes hccl(m_out.builder(), cann, m_host.text(), m_out.sourceIndex(), m_d.device);
    std::vector<bool> flowStarted(cann.apis().size(), false);
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        // The memory guard (or the user) stops the load: building slices is where the memory goes, so
        // it is checked here too, not only while the records are read.
        if ((i & 0xFFFF) == 0 && i > 0 && m_stream.cancel &&
            m_stream.cancel->load(std::memory_order_relaxed)) {
            m_out.warn(QCoreApplication::translate(
                           "Parser", "%1: the load was stopped while device task slices were made: %2 of %3 "
                                     "tasks were kept")
                           .arg(m_label)
                           .arg(i)
                           .arg(tasks.size()));
            break;
        }
        const DeviceTask &t = tasks[i];
        const int thread = streamThread(t.stream);
        const TimeNs start = m_d.clock.toLocal(t.startTicks);
        const TimeNs duration = m_d.clock.duration(t.startTicks, t.endTicks);
        RawSliceArgs a;
        a.taskType = taskTypeText(m_d.isStars, static_cast<std::uint8_t>(t.taskType));
        a.stream = t.stream;
        a.task = t.task;
        a.subtask = t.subtask == kNoSubtask ? -1 : t.subtask;
        a.startTicks = t.startTicks;
        a.endTicks = t.endTicks;
        const HostTask *host = nullptr;
        if (flips)
            a.batch = flips->batchOf(t.stream, static_cast<std::uint16_t>(t.task), start);
        if (const auto found = m_host.submissionOf(m_d.device, t.stream, t.task, a.batch, start)) {
            m_d.taskHost[i] = static_cast<int>(*found);
            host = &cann.tasks()[*found];
            a.hostArgs = m_host.hostArgsOf(*found);
            if (a.batch < 0)
                a.batch = host->track.batchId;
        }
        StringId name = 0;
        if (host)
            if (const QString n = m_host.text().taskName(*host); !n.isEmpty()) {
                name = m_out.intern(n);
                ++named;
            }
        if (name == 0)
            name = m_out.intern(a.taskType);
        m_d.taskNames[i] = name;
        const std::uint64_t index = m_out.addArgs(std::move(a));
        m_out.addSlice(thread, start, duration, name, m_out.intern(t.ffts ? "ffts_subtask" : "task"), index);
        ++m_out.info().deviceTasks;
        if (!host)
            continue;
        // HostToDevice flow: from the op's (or caller's) API slice to every task it submitted.
        if (const int c = host->connection; c >= 0 && cann.apis()[std::size_t(c)].sliceThread >= 0) {
            const HostApi &api = cann.apis()[std::size_t(c)];
            const StringId category = m_out.intern("HostToDevice");
            const StringId id = m_out.intern("raw" + std::to_string(c));
            const StringId flowName = m_out.intern("HostToDevice" + std::to_string(c));
            TraceBuilder &builder = m_out.builder();
            if (!flowStarted[std::size_t(c)]) {
                flowStarted[std::size_t(c)] = true;
                builder.addFlowHalf(FlowPhase::Start, category, flowName, id, api.sliceThread, api.sliceStart,
                                    true);
                ++builder.counts().flowStart;
            }
            builder.addFlowHalf(FlowPhase::End, category, flowName, id, thread, start, true);
            ++builder.counts().flowEnd;
            ++m_out.info().hostToDeviceFlows;
        }
        if (host->hccl >= 0)
            hccl.add(*host, start, duration, name, index);
    }
    hccl.finish();
    m_out.addHcclSlices(hccl.slicesAdded());
    m_out.info().hcclOps += hccl.opsAdded();
    m_out.info().namedDeviceTasks += named;
    if (m_host.hasSubmissions() && named < tasks.size())
        m_out.warn(QCoreApplication::translate(
                       "Parser",
                       "%1: %2 of %3 device tasks have no host task_track record with a known kernel "
                       "name: named by their task type")
                       .arg(m_label)
                       .arg(tasks.size() - named)
                       .arg(tasks.size()));
}

// lpmFreqConv (FORMATS.md §5.5): the "AI Core Freq" counter of the device, and the frequency the PMU
// times use (§4.2: the value at the task end).
void DeviceDecoder::readAicFrequency(const Streams &files)
{
    std::size_t bad = 0;
    for (const SliceStreamFiles *s : files) {
        const QString name = m_out.streamName(m_d.dir, s->stream);
        const StreamStats st =
            forEachRecord(m_stream, s->files, kAicFrequencyRecordSize,
                          [&](const unsigned char *r) { bad += m_d.aicFrequency.add(r) ? 0 : 1; });
        m_out.reportStream(name, st, kAicFrequencyRecordSize);
    }
    m_d.aicFrequency.finish();
    if (bad)
        m_out.warn(QCoreApplication::translate("Parser", "%1: %2 with an entry count above 55 skipped")
                       .arg(m_out.shortPath(m_d.dir), plural(bad, "AI Core frequency record")));
    const StringId counter = m_out.intern("AI Core Freq");
    const StringId series = m_out.intern("MHz");
    for (const auto &[ticks, mhz] : m_d.aicFrequency.points())
        m_out.builder().addCounterSample(m_d.process, counter, series, m_d.clock.toLocal(ticks), mhz);
    m_out.builder().counts().counter += m_d.aicFrequency.points().size();
}

// AI CPU task records (FORMATS.md §5.5): an "AI CPU" process per device, one thread per stream.
void DeviceDecoder::readAiCpu(const Streams &files)
{
    if (files.empty())
        return;
    LaneKey pid;
    m_out.deviceProcess(QStringLiteral("AI CPU"), m_d.device, &pid);
    std::map<std::uint32_t, int> threads;
    const StringId name = m_out.intern("AI_CPU");
    const StringId category = m_out.intern("aicpu");
    for (const SliceStreamFiles *s : files) {
        const QString label = m_out.streamName(m_d.dir, s->stream);
        AiCpuStats stats;
        const StreamStats st =
            forEachRecord(m_stream, s->files, kAiCpuRecordSize, [&](const unsigned char *r) {
                AiCpuRecord rec;
                if (!acceptAiCpu(r, rec, stats))
                    return;
                auto it = threads.find(rec.streamId);
                if (it == threads.end())
                    it = threads.emplace(rec.streamId, m_out.streamLane(pid, rec.streamId)).first;
                RawSliceArgs a;
                a.taskType = QStringLiteral("AI_CPU");
                a.stream = rec.streamId;
                a.task = rec.taskId;
                a.startTicks = rec.runStartTick;
                a.endTicks = rec.runEndTick;
                a.computeTime =
                    static_cast<std::int64_t>(std::min<std::uint64_t>(rec.computeTime(), INT64_MAX));
                a.memcpyTime =
                    static_cast<std::int64_t>(std::min<std::uint64_t>(rec.memcpyTime(), INT64_MAX));
                const TimeNs start = m_d.clock.toLocal(rec.runStartTick);
                const TimeNs duration = m_d.clock.duration(rec.runStartTick, rec.runEndTick);
                // Named like the device tasks, from the host task_track submission and its op.
                StringId taskName = name;
                if (const auto found = m_host.submissionOf(m_d.device, rec.streamId, rec.taskId, -1, start)) {
                    a.hostArgs = m_host.hostArgsOf(*found);
                    if (const QString n = m_host.text().taskName(m_host.cann().tasks()[*found]); !n.isEmpty())
                        taskName = m_out.intern(n);
                }
                m_out.addSlice(it->second, start, duration, taskName, category, m_out.addArgs(std::move(a)));
                ++m_out.info().aiCpuTasks;
                // An AI_CPU row of the kernel table, as op_summary has (no PMU metrics).
                constexpr TimeNs kTimeLimit = TimeNs(1) << 62;
                if (start > -kTimeLimit && start < kTimeLimit && duration < kTimeLimit) {
                    KernelRecord row;
                    row.group = m_out.builder().currentGroup();
                    row.start = start;
                    row.duration = duration;
                    row.name = taskName;
                    row.type = name;
                    row.acceleratorCore = name;
                    row.streamId = rec.streamId;
                    row.taskId = rec.taskId;
                    m_out.builder().kernels().addRow(row);
                }
            });
        m_out.reportStream(label, st, kAiCpuRecordSize);
        QStringList parts;
        if (stats.badMagic)
            parts << QCoreApplication::translate("Parser", "%1 with a wrong magic skipped")
                         .arg(plural(stats.badMagic, "record"));
        if (stats.otherTag)
            parts << QCoreApplication::translate("Parser", "%1 with another data tag skipped")
                         .arg(plural(stats.otherTag, "record"));
        if (stats.noTick)
            parts << QCoreApplication::translate("Parser", "%1 without a start tick dropped")
                         .arg(plural(stats.noTick, "record"));
        if (stats.reversed)
            parts << QCoreApplication::translate("Parser", "%1 ending before it starts dropped")
                         .arg(plural(stats.reversed, "record"));
        if (!parts.isEmpty())
            m_out.warn(QStringLiteral("%1: %2").arg(label, parts.join(QStringLiteral("; "))));
    }
}

void DeviceDecoder::addTsTrackRecord(TsTrackCollector &collector, const unsigned char *r)
{
    TsTrackRecord rec;
    if (!decodeTsTrack(r, rec)) {
        collector.add(r); // counted as an unknown tag
        return;
    }
    collector.add(rec);
    if (rec.tag == static_cast<std::uint8_t>(TsTrackTag::TaskFlip))
        m_d.flips.addFlip(rec.streamId, m_d.clock.toLocal(rec.timestamp), rec.taskId);
    if (rec.tag == static_cast<std::uint8_t>(TsTrackTag::BlockNum))
        m_d.blockNums.add(0, rec.streamId, rec.taskId, clampTicks(rec.timestamp), rec.blockNum);
}

// ts_track step trace (FORMATS.md §5.5, §7.1): "Iteration N" slices in a "Step Trace" process per
// device (one thread per model), and the same windows declared as steps.
void DeviceDecoder::readTsTrack(const Streams &files)
{
    m_d.blockNums = HostTaskIndex{}; // per device
    m_d.flips = FlipBatches{};
    if (files.empty())
        return;
    TsTrackCollector collector;
    QStringList names;
    for (const SliceStreamFiles *s : files) {
        const QString label = m_out.streamName(m_d.dir, s->stream);
        names << label;
        const StreamStats st = forEachRecord(m_stream, s->files, kTsTrackRecordSize,
                                             [&](const unsigned char *r) { addTsTrackRecord(collector, r); });
        m_out.reportStream(label, st, kTsTrackRecordSize);
    }
    m_d.blockNums.finish();
    m_d.flips.finish();
    const std::vector<StepWindow> windows = collector.finish();
    const QString label = names.join(QStringLiteral(", "));
    const TsTrackCollector::Stats &c = collector.stats();
    QStringList parts;
    if (c.unknownTag)
        parts << QCoreApplication::translate("Parser", "%1 with an unknown tag skipped")
                     .arg(plural(c.unknownTag, "record"));
    if (c.iterationsWithoutEnd)
        parts << QCoreApplication::translate("Parser", "%1 without an end mark dropped")
                     .arg(plural(c.iterationsWithoutEnd, "iteration"));
    if (c.iterationsWithoutBegin)
        parts << QCoreApplication::translate("Parser", "%1 without a start mark begin at their first record")
                     .arg(plural(c.iterationsWithoutBegin, "iteration"));
    if (c.reversed)
        parts << QCoreApplication::translate("Parser", "%1 ending before it starts dropped")
                     .arg(plural(c.reversed, "iteration"));
    if (!parts.isEmpty())
        m_out.warn(QStringLiteral("%1: %2").arg(label, parts.join(QStringLiteral("; "))));
    if (windows.empty())
        return;
    LaneKey pid;
    m_out.deviceProcess(QStringLiteral("Step Trace"), m_d.device, &pid);
    const StringId category = m_out.intern("step_trace");
    std::map<std::uint64_t, int> threads;
    for (const StepWindow &w : windows) {
        auto it = threads.find(w.modelId);
        if (it == threads.end())
            it = threads
                     .emplace(w.modelId,
                              m_out.lane(pid, m_out.builder().numberKey(static_cast<std::int64_t>(w.modelId)),
                                         QStringLiteral("Model %1").arg(w.modelId)))
                     .first;
        RawSliceArgs a;
        a.modelId = static_cast<std::int64_t>(std::min<std::uint64_t>(w.modelId, INT64_MAX));
        a.indexId = static_cast<std::int64_t>(std::min<std::uint64_t>(w.indexId, INT64_MAX));
        a.startTicks = w.beginTicks;
        a.endTicks = w.endTicks;
        const std::uint64_t index = m_out.addArgs(a);
        const TimeNs begin = m_d.clock.toLocal(w.beginTicks);
        const TimeNs end = m_d.clock.toLocal(w.endTicks);
        m_out.addSlice(it->second, begin, saturatingSub(end, begin),
                       m_out.intern(QStringLiteral("Iteration %1").arg(w.indexId)), category, index);
        // Steps are shifted by the model origin: keep only windows the builder keeps as events too.
        constexpr TimeNs kTimeLimit = TimeNs(1) << 62;
        if (begin <= -kTimeLimit || end >= kTimeLimit) {
            ++m_out.info().stepsOutOfRange;
            continue;
        }
        DeclaredStep step;
        step.group = m_out.builder().currentGroup();
        step.number = a.indexId;
        step.begin = begin;
        step.end = end;
        step.source = QStringLiteral("ts_track step trace (model %1) in %2")
                          .arg(w.modelId)
                          .arg(m_out.shortPath(m_d.dir));
        m_out.builder().addDeclaredStep(std::move(step));
        ++m_out.info().iterations;
    }
    if (m_out.info().stepsOutOfRange)
        m_out.warn(
            QCoreApplication::translate("Parser", "%1: %2 beyond ±2^62 ns (corrupt ticks) not used as steps")
                .arg(label, plural(m_out.info().stepsOutOfRange, "iteration")));
}
} // namespace at::raw
