#include "RawProfileReader.h"

#include "AiCpu.h"
#include "AicFrequency.h"
#include "CannAssociation.h"
#include "FlipBatches.h"
#include "GeTaskDesc.h"
#include "HcclLanes.h"
#include "HostRecords.h"
#include "HostTaskText.h"
#include "HwtsLog.h"
#include "MsprofTx.h"
#include "PmuMetrics.h"
#include "PmuRecords.h"
#include "SliceFiles.h"
#include "StarsLog.h"
#include "TaskTrack.h"
#include "TimeConverter.h"
#include "TsTrack.h"
#include "config/ChipInfo.h"
#include "config/ConfigFiles.h"
#include "folder/ProfileLayout.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QRegularExpression>

#include <cmath>
#include <cstring>
#include <deque>
#include <map>
#include <set>
#include <unordered_map>

namespace at {

using namespace raw;

namespace {

// Args of a raw slice, re-read by the details panel and by the kernel join's task-id tie-break.
struct RawSliceArgs
{
    QString taskType;
    std::int64_t stream = -1;
    std::int64_t task = -1;
    std::int64_t subtask = -1;
    std::uint64_t startTicks = 0;
    std::uint64_t endTicks = 0;
    std::int64_t threadId = -1;
    std::int64_t computeTime = -1; // AI CPU: memcpyStart − computeStart (raw units)
    std::int64_t memcpyTime = -1;
    std::int64_t modelId = -1; // Step Trace iterations
    std::int64_t indexId = -1;
    std::int32_t hostArgs = -1; // index into RawArgsReader::hostArgs: what the host says of the task
    std::int32_t batch = -1;    // batch id (task-id wraps, from flips or the host submission); -1 unknown
    bool device = true;
};

class RawArgsReader : public EventArgsReader
{
public:
    std::vector<RawSliceArgs> args;
    std::vector<std::vector<std::pair<QString, QString>>> hostArgs; // op, shapes, HCCL fields, ids
    std::vector<std::pair<QString, QString>> readArgs(std::uint64_t offset) const override
    {
        std::vector<std::pair<QString, QString>> out;
        if (offset >= args.size())
            return out;
        const RawSliceArgs &a = args[offset];
        if (!a.device) {
            out.emplace_back(QStringLiteral("Thread Id"), QString::number(a.threadId));
            return out;
        }
        if (a.modelId >= 0) {
            out.emplace_back(QStringLiteral("Model Id"), QString::number(a.modelId));
            out.emplace_back(QStringLiteral("Iteration Id"), QString::number(a.indexId));
            out.emplace_back(QStringLiteral("Start Ticks"), QString::number(a.startTicks));
            out.emplace_back(QStringLiteral("End Ticks"), QString::number(a.endTicks));
            return out;
        }
        out.emplace_back(QStringLiteral("Task Type"), a.taskType);
        out.emplace_back(QStringLiteral("Stream Id"), QString::number(a.stream));
        out.emplace_back(QStringLiteral("Task Id"), QString::number(a.task));
        if (a.subtask >= 0)
            out.emplace_back(QStringLiteral("Subtask Id"), QString::number(a.subtask));
        if (a.batch >= 0)
            out.emplace_back(QStringLiteral("Batch Id"), QString::number(a.batch));
        out.emplace_back(QStringLiteral("Start Ticks"), QString::number(a.startTicks));
        out.emplace_back(QStringLiteral("End Ticks"), QString::number(a.endTicks));
        if (a.computeTime >= 0)
            out.emplace_back(QStringLiteral("Compute Time"), QString::number(a.computeTime));
        if (a.memcpyTime >= 0)
            out.emplace_back(QStringLiteral("Memcpy Time"), QString::number(a.memcpyTime));
        if (a.hostArgs >= 0 && static_cast<std::size_t>(a.hostArgs) < hostArgs.size())
            out.insert(out.end(), hostArgs[std::size_t(a.hostArgs)].begin(),
                       hostArgs[std::size_t(a.hostArgs)].end());
        return out;
    }
};

struct HostClock
{
    std::optional<Frequency> cpuFrequency; // empty: host times are already monotonic ns
    std::uint64_t cntvct = 0;
    std::int64_t monotonicNs = 0;
    bool haveStartLog = false;
    std::optional<std::int64_t> monoToLocal;
    TimeNs toLocal(std::uint64_t value) const
    {
        const std::int64_t offset = monoToLocal.value_or(0);
        if (!cpuFrequency)
            return saturatingAdd(static_cast<TimeNs>(std::min<std::uint64_t>(value, INT64_MAX)), offset);
        ClockConverter c{*cpuFrequency, cntvct, monotonicNs, offset};
        return c.toLocal(value);
    }
};

QString firstFileStartingWith(const QString &dir, const QString &prefix)
{
    const QStringList names = QDir(dir).entryList({prefix + QLatin1Char('*')}, QDir::Files, QDir::Name);
    for (const QString &n : names)
        if (!n.endsWith(QLatin1String(".done")) && !n.endsWith(QLatin1String(".complete")))
            return QDir(dir).filePath(n);
    return {};
}

std::optional<std::int64_t> startInfoOffset(const QString &path)
{
    if (path.isEmpty())
        return std::nullopt;
    const config::JsonFile f = config::loadJsonObject(path);
    if (!f.ok())
        return std::nullopt;
    const auto begin = config::jsonInteger(f.object.value(QStringLiteral("collectionTimeBegin")));
    const auto mono = config::jsonInteger(f.object.value(QStringLiteral("clockMonotonicRaw")));
    if (!begin || !mono)
        return std::nullopt;
    return monotonicToLocalOffset(*begin, *mono);
}

// host_start.log: hostMono_ns = clock_monotonic_raw (+ cntvct_diff × 1000 / hostFreq, §5.10 step 1).
bool readHostStartLog(const QString &path, const std::optional<Frequency> &hostFreq, std::int64_t *monoNs,
                      std::uint64_t *cntvct)
{
    if (path.isEmpty())
        return false;
    const config::IniFile ini = config::loadIniFile(path);
    bool ok = false;
    const qint64 mono = ini.value(QStringLiteral("clock_monotonic_raw")).trimmed().toLongLong(&ok);
    if (!ok)
        return false;
    *monoNs = mono;
    *cntvct = ini.value(QStringLiteral("cntvct")).trimmed().toULongLong();
    const qint64 diff = ini.value(QStringLiteral("cntvct_diff")).trimmed().toLongLong();
    if (diff != 0 && hostFreq)
        *monoNs += ticksToNs(diff, *hostFreq);
    return true;
}

QString plural(std::size_t n, const char *word)
{
    return QStringLiteral("%1 %2%3").arg(n).arg(QLatin1String(word)).arg(n == 1 ? "" : "s");
}

// A task id with its batch id, as one key of a HostTaskIndex (task ids are 16 bits).
std::uint32_t batchKey(std::uint32_t task, std::uint16_t batch)
{
    return (task & 0xFFFF) | (std::uint32_t(batch) << 16);
}

class Reader
{
public:
    Reader(const DataSource &source, TraceBuilder &builder, RawReadInfo &info, StreamControl control)
        : m_source(source), m_builder(builder), m_info(info), m_stream(control)
    {
        m_args = std::make_shared<RawArgsReader>();
    }

    std::size_t run()
    {
        m_sourceIndex =
            m_builder.addSource(m_source.profPath.isEmpty() ? m_source.rootPath : m_source.profPath, m_args);
        QString hostDir;
        QList<QPair<int, QString>> deviceDirs;
        static const QRegularExpression deviceRe(QStringLiteral("device_(\\d+)/data/?$"));
        for (const QString &dir : m_source.rawDataDirs) {
            if (const auto m = deviceRe.match(dir); m.hasMatch())
                deviceDirs.append({m.captured(1).toInt(), dir});
            else
                hostDir = dir;
        }
        for (const QString &dir : m_source.rawDataDirs)
            m_listing.emplace(dir, listSliceStreams(dir)); // each folder listed once
        readHostConfig(hostDir);
        for (const QString &dir : m_source.rawDataDirs)
            readGeTaskDescs(dir);
        if (!hostDir.isEmpty())
            readHost(hostDir);
        associateHostTasks(); // needs every host family read first (FORMATS.md §5.3)
        for (const auto &[device, dir] : deviceDirs)
            readDevice(device, dir, hostDir);
        m_builder.counts().complete += m_slices;
        return m_slices;
    }

private:
    QString shortPath(const QString &path) const
    {
        const QString root = m_source.profPath.isEmpty() ? m_source.rootPath : m_source.profPath;
        return path.startsWith(root) ? QFileInfo(root).fileName() + path.mid(root.size()) : path;
    }

    void warn(const QString &text) { m_builder.addWarning(text); }
    const std::vector<SliceStreamFiles> &streamsIn(const QString &dir) const
    {
        static const std::vector<SliceStreamFiles> none;
        const auto it = m_listing.find(dir);
        return it == m_listing.end() ? none : it->second;
    }
    void warnBadMagic(const QString &stream, std::size_t bad)
    {
        if (bad)
            warn(QStringLiteral("%1: %2 with a wrong magic skipped").arg(stream, plural(bad, "record")));
    }

    void reportStream(const QString &name, const StreamStats &s, std::size_t recordSize)
    {
        for (const QString &u : s.unreadable)
            warn(u);
        if (s.trailingBytes)
            warn(QStringLiteral(
                     "%1: truncated: the last %2 bytes are not a whole %3-byte record; the %4 whole "
                     "records before them were decoded")
                     .arg(name)
                     .arg(s.trailingBytes)
                     .arg(recordSize)
                     .arg(s.records));
        m_info.recordsDecoded += s.records;
    }

    void reportPairing(const QString &name, const PairingStats &p, const RollingCounter &c)
    {
        QStringList parts;
        if (c.gaps)
            parts << QStringLiteral("lost records: the rolling cnt skipped %1 times (%2 missing)")
                         .arg(c.gaps)
                         .arg(plural(c.missing, "record"));
        if (p.badMagic)
            parts << QStringLiteral("%1 with a wrong magic skipped").arg(plural(p.badMagic, "record"));
        if (p.endsWithoutStart)
            parts
                << QStringLiteral("%1 without a start dropped").arg(plural(p.endsWithoutStart, "end record"));
        if (p.startsNeverEnded)
            parts << QStringLiteral("%1 never ended dropped").arg(plural(p.startsNeverEnded, "start record"));
        if (p.startsReplaced)
            parts << QStringLiteral("%1 replaced by a later start of the same task")
                         .arg(plural(p.startsReplaced, "start record"));
        if (!parts.isEmpty())
            warn(QStringLiteral("%1: %2").arg(name, parts.join(QStringLiteral("; "))));
    }

    void readHostConfig(const QString &hostDir)
    {
        if (hostDir.isEmpty())
            return;
        const QString info = QDir(hostDir).filePath(QStringLiteral("info.json"));
        if (QFileInfo::exists(info)) {
            const config::JsonFile f = config::loadJsonObject(info);
            const QJsonArray cpus = f.object.value(QStringLiteral("CPU")).toArray();
            if (!cpus.isEmpty())
                m_host.cpuFrequency = Frequency::parse(
                    config::jsonText(cpus.first().toObject().value(QStringLiteral("Frequency"))));
        }
        m_host.monoToLocal = startInfoOffset(firstFileStartingWith(hostDir, QStringLiteral("start_info")));
        m_host.haveStartLog =
            readHostStartLog(firstFileStartingWith(hostDir, QStringLiteral("host_start.log")),
                             m_host.cpuFrequency, &m_host.monotonicNs, &m_host.cntvct);
        if (m_host.cpuFrequency && !m_host.haveStartLog)
            warn(QStringLiteral(
                     "%1: host times are CPU ticks but host_start.log is missing or unreadable: host "
                     "times are not aligned")
                     .arg(shortPath(hostDir)));
        if (!m_host.monoToLocal)
            warn(QStringLiteral(
                     "%1: start_info is missing or unreadable: host times stay on the monotonic clock")
                     .arg(shortPath(hostDir)));
    }

    int hostThread(const char *processName, std::uint32_t tid)
    {
        const LaneKey pid = m_builder.textKey(processName);
        const int process = m_builder.process(pid);
        m_builder.setProcessName(process, m_builder.strings().intern(processName));
        const int thread = m_builder.thread(pid, m_builder.numberKey(tid));
        m_builder.setThreadName(
            thread, m_builder.strings().intern(QStringLiteral("Thread %1").arg(tid).toStdString()));
        return thread;
    }

    // Returns the lane's thread index.
    int addHostSlice(const char *processName, std::uint32_t tid, TimeNs start, TimeNs end,
                     const QString &name, const char *category = "api")
    {
        const int thread = hostThread(processName, tid);
        RawSliceArgs a;
        a.device = false;
        a.threadId = tid;
        const std::uint64_t index = m_args->args.size();
        m_args->args.push_back(a);
        m_builder.addSlice(thread, start, std::max<TimeNs>(0, saturatingSub(end, start)),
                           m_builder.strings().intern(name.toStdString()),
                           m_builder.strings().intern(category), makeSourceLocation(m_sourceIndex, index));
        ++m_slices;
        if (std::strcmp(processName, "MsprofTx") == 0)
            ++m_info.txEvents;
        else
            ++m_info.hostApis;
        return thread;
    }

    static QHash<QString, QString> readDictionary(const QStringList &files)
    {
        QHash<QString, QString> dict;
        for (const QString &file : files) {
            QByteArray bytes;
            QString problem;
            if (!config::readSmallFile(file, &bytes, &problem))
                continue;
            for (const QByteArray &line : bytes.split('\n')) {
                const int colon = line.indexOf(':');
                if (colon > 0)
                    dict.insert(QString::fromUtf8(line.left(colon)).trimmed(),
                                QString::fromUtf8(line.mid(colon + 1)).trimmed());
            }
        }
        return dict;
    }

    void readHost(const QString &dir)
    {
        static const QRegularExpression aclRe(
            QStringLiteral("^AclModule\\.acl_(op|model|rts|others)\\.\\d+$"));
        static const QRegularExpression apiRe(QStringLiteral("^(un)?aging\\.api_event\\.data$"));
        static const QRegularExpression hashRe(QStringLiteral("^(un)?aging\\.additional\\.hash_dic$"));
        static const QRegularExpression typeRe(QStringLiteral("^(un)?aging\\.additional\\.type_info_dic$"));
        static const QRegularExpression txRe(QStringLiteral("^(un)?aging\\.additional\\.msproftx$"));
        static const QRegularExpression taskTrackRe(QStringLiteral("^(un)?aging\\.compact\\.task_track$"));
        static const QRegularExpression expandRe(
            QStringLiteral("^(un)?aging\\.compact\\.expand_stream_spec$"));
        static const QRegularExpression opInfoRe(
            QStringLiteral("^(un)?aging\\.(compact\\.(node_basic_info|hccl_op_info)|additional\\.(tensor_"
                           "info|hccl_info))$"));
        const std::vector<SliceStreamFiles> &streams = streamsIn(dir);
        QStringList hashFiles, typeFiles;
        for (const SliceStreamFiles &s : streams) {
            if (hashRe.match(s.stream).hasMatch())
                hashFiles << s.files;
            if (typeRe.match(s.stream).hasMatch())
                typeFiles << s.files;
        }
        const QHash<QString, QString> hostHashes = readDictionary(hashFiles);
        for (auto it = hostHashes.begin(); it != hostHashes.end(); ++it)
            m_hashes.insert(it.key(), it.value());
        const QHash<QString, QString> &hashes = m_hashes;
        const QHash<QString, QString> types = readDictionary(typeFiles);
        for (const SliceStreamFiles &s : streams) {
            const QString name = shortPath(QDir(dir).filePath(s.stream));
            if (aclRe.match(s.stream).hasMatch()) {
                std::size_t bad = 0;
                const StreamStats st =
                    forEachRecord(m_stream, s.files, kAclModuleRecordSize, [&](const unsigned char *r) {
                        AclModuleRecord rec;
                        if (!decodeAclModule(r, rec)) {
                            ++bad;
                            return;
                        }
                        addHostSlice("AscendCL", rec.threadId, m_host.toLocal(rec.apiStart),
                                     m_host.toLocal(rec.apiEnd), rec.name);
                    });
                reportStream(name, st, kAclModuleRecordSize);
                warnBadMagic(name, bad);
            } else if (apiRe.match(s.stream).hasMatch()) {
                readApiEvents(name, s.files, hashes, types);
            } else if (txRe.match(s.stream).hasMatch()) {
                readMsprofTx(name, s.files);
            } else if (taskTrackRe.match(s.stream).hasMatch()) {
                readTaskTrack(name, s.files);
            } else if (expandRe.match(s.stream).hasMatch()) {
                // Its presence switches the STARS id decoding to stream-expand mode (FORMATS.md §5.6).
                const StreamStats st = forEachRecord(m_stream, s.files, kCompactRecordSize,
                                                     [&](const unsigned char *) { m_streamExpand = true; });
                reportStream(name, st, kCompactRecordSize);
            } else if (const auto m = opInfoRe.match(s.stream); m.hasMatch()) {
                readOpInfo(name, m.captured(3) + m.captured(4), s.files);
            } else if (!hashRe.match(s.stream).hasMatch() && !typeRe.match(s.stream).hasMatch() &&
                       !isGeTaskStream(s.stream)) {
                notDecoded(name, s.files);
            }
        }
    }

    void readApiEvents(const QString &name, const QStringList &files, const QHash<QString, QString> &hashes,
                       const QHash<QString, QString> &types)
    {
        std::size_t bad = 0, unpaired = 0;
        std::map<std::tuple<int, std::uint32_t, std::uint32_t, std::uint32_t, std::uint64_t>, std::uint64_t>
            open;
        auto add = [&](const ApiEventRecord &rec, std::uint64_t begin, std::uint64_t end) {
            if (rec.level == 20500) { // msproftx push/pop / range APIs: the MsprofTx layer
                QString tx = hashes.value(QString::number(rec.itemId));
                if (tx.isEmpty())
                    tx = types.value(QStringLiteral("%1_%2").arg(rec.level).arg(rec.type),
                                     QStringLiteral("tx %1").arg(rec.type));
                addHostSlice("MsprofTx", rec.threadId, m_host.toLocal(begin), m_host.toLocal(end), tx, "tx");
                return;
            }
            const char *prefix = rec.level == 20000   ? "AscendCL@"
                                 : rec.level == 15000 ? "Model@"
                                 : rec.level == 10000 ? "Node@"
                                 : rec.level == 5500  ? "Hccl@"
                                 : rec.level == 5000  ? "Runtime@"
                                                      : "Api@";
            QString api = types.value(QStringLiteral("%1_%2").arg(rec.level).arg(rec.type));
            if (rec.level == 10000 || api.isEmpty())
                api = hashes.value(QString::number(rec.itemId), api);
            if (api.isEmpty())
                api = QStringLiteral("type %1").arg(rec.type);
            const TimeNs start = m_host.toLocal(begin);
            const int thread =
                addHostSlice("CANN", rec.threadId, start, m_host.toLocal(end), QLatin1String(prefix) + api);
            m_cann.addApi({rec.level, rec.threadId, begin, end, rec.itemId, thread, start});
        };
        const StreamStats st =
            forEachRecord(m_stream, files, kApiEventRecordSize, [&](const unsigned char *r) {
                ApiEventRecord rec;
                if (!decodeApiEvent(r, rec)) {
                    ++bad;
                    return;
                }
                if (!rec.isEvent()) {
                    add(rec, rec.begin, rec.end);
                    return;
                }
                const auto key =
                    std::make_tuple(int(rec.level), rec.type, rec.threadId, rec.requestId, rec.itemId);
                if (const auto it = open.find(key); it != open.end()) {
                    add(rec, it->second, rec.begin);
                    open.erase(it);
                } else {
                    open.emplace(key, rec.begin);
                }
            });
        unpaired = open.size();
        reportStream(name, st, kApiEventRecordSize);
        warnBadMagic(name, bad);
        if (unpaired)
            warn(QStringLiteral("%1: %2 without its partner dropped")
                     .arg(name, plural(unpaired, "event record")));
    }

    // (un)aging.compact.task_track: the submitted tasks, whose kernel names name the device tasks (§5.3).
    void readTaskTrack(const QString &name, const QStringList &files)
    {
        std::size_t bad = 0, skipped = 0;
        const StreamStats st =
            forEachRecord(m_stream, files, kTaskTrackRecordSize, [&](const unsigned char *r) {
                TaskTrackRecord rec;
                if (!decodeTaskTrack(r, rec)) {
                    ++bad;
                    return;
                }
                if (rec.taskType == kFlipTaskType && rec.deviceType == 0)
                    m_hostFlips[rec.deviceId].addFlip(rec.streamId, m_host.toLocal(rec.timeStamp),
                                                      rec.taskId);
                if (rec.taskType == kFlipTaskType || rec.taskType == kMaintenanceTaskType ||
                    rec.deviceType != 0) {
                    ++skipped; // flips and maintenance tasks are no device tasks; DPU tasks are not decoded
                    return;
                }
                m_cann.addTask(rec);
                ++m_info.hostTaskRecords;
            });
        reportStream(name, st, kTaskTrackRecordSize);
        warnBadMagic(name, bad);
        (void)skipped;
    }

    // Framework.task_desc_info / Framework.hash_dic: read by readGeTaskDescs wherever they are.
    static bool isGeTaskStream(const QString &stream)
    {
        static const QRegularExpression re(
            QStringLiteral("^Framework\\.((host\\.)?task_desc_info\\.\\d+|hash_dic(\\.\\d+)?)$"));
        return re.match(stream).hasMatch();
    }

    // Legacy GE task descriptions (G1 raw data, FORMATS.md §5.4) in a host or device data folder: each
    // becomes a submission whose op is already known, found by the device tasks like a task_track one.
    void readGeTaskDescs(const QString &dir)
    {
        static const QRegularExpression taskRe(
            QStringLiteral("^Framework\\.(host\\.)?task_desc_info\\.(\\d+)$"));
        static const QRegularExpression hashRe(QStringLiteral("^Framework\\.hash_dic(\\.\\d+)?$"));
        const std::vector<SliceStreamFiles> &streams = streamsIn(dir);
        for (const SliceStreamFiles &s : streams)
            if (hashRe.match(s.stream).hasMatch()) {
                const QHash<QString, QString> dict = readDictionary(s.files);
                for (auto it = dict.begin(); it != dict.end(); ++it)
                    m_hashes.insert(it.key(), it.value());
            }
        for (const SliceStreamFiles &s : streams) {
            const auto m = taskRe.match(s.stream);
            if (!m.hasMatch())
                continue;
            const std::uint16_t device = static_cast<std::uint16_t>(m.captured(2).toUInt() & 0x0FFF);
            const QString name = shortPath(QDir(dir).filePath(s.stream));
            std::size_t bad = 0;
            const StreamStats st =
                forEachRecord(m_stream, s.files, kGeTaskDescRecordSize, [&](const unsigned char *r) {
                    GeTaskDesc desc;
                    if (!decodeGeTaskDesc(r, desc)) {
                        ++bad;
                        return;
                    }
                    TaskTrackRecord track;
                    track.threadId = desc.threadId;
                    track.timeStamp = desc.timeStamp;
                    track.deviceId = device;
                    track.streamId = static_cast<std::uint16_t>(desc.streamId);
                    track.taskId = desc.taskId;
                    track.batchId = desc.batchId;
                    OpDescription op;
                    op.haveBasic = true;
                    op.basic.opName = desc.opNameHash;
                    op.basic.opType = desc.opTypeHash;
                    op.basic.taskType = desc.taskType;
                    op.basic.blockDim = desc.blockDims;
                    op.opNameText = desc.opName;
                    op.opTypeText = desc.opType;
                    m_cann.addDescribedTask(track, std::move(op));
                    ++m_info.hostTaskRecords;
                });
            reportStream(name, st, kGeTaskDescRecordSize);
            warnBadMagic(name, bad);
        }
    }

    // node_basic_info / hccl_op_info (compact, 64 B) and tensor_info / hccl_info (additional, 256 B).
    void readOpInfo(const QString &name, const QString &family, const QStringList &files)
    {
        if (family == QLatin1String("node_basic_info"))
            readAssociated(name, files, kCompactRecordSize, decodeNodeBasicInfo,
                           &CannAssociation::addNodeBasicInfo);
        else if (family == QLatin1String("hccl_op_info"))
            readAssociated(name, files, kCompactRecordSize, decodeHcclOpInfo,
                           &CannAssociation::addHcclOpInfo);
        else if (family == QLatin1String("tensor_info"))
            readAssociated(name, files, kAdditionalRecordSize, decodeTensorInfo,
                           &CannAssociation::addTensorInfo);
        else
            readAssociated(name, files, kAdditionalRecordSize, decodeHcclInfo, &CannAssociation::addHcclInfo);
    }

    // One stream of one host record family, each record decoded and handed to the association.
    template <typename Info>
    void readAssociated(const QString &name, const QStringList &files, std::size_t size,
                        bool (*decode)(const unsigned char *, HostRecordHeader &, Info &),
                        void (CannAssociation::*add)(const HostRecordHeader &, const Info &))
    {
        std::size_t bad = 0;
        const StreamStats st = forEachRecord(m_stream, files, size, [&](const unsigned char *r) {
            HostRecordHeader h;
            Info info;
            if (decode(r, h, info))
                (m_cann.*add)(h, info);
            else
                ++bad;
        });
        reportStream(name, st, size);
        warnBadMagic(name, bad);
    }

    // After every host stream was read: nest the API ranges, attach op and HCCL records, resolve each
    // submitted task, and index the submissions for the device tasks (by device, stream, task, time).
    void associateHostTasks()
    {
        m_cann.finish();
        const std::vector<HostTask> &tasks = m_cann.tasks();
        for (std::size_t i = 0; i < tasks.size(); ++i) {
            const TaskTrackRecord &t = tasks[i].track;
            const TimeNs time = m_host.toLocal(t.timeStamp);
            m_hostTasks.add(t.deviceId, t.streamId, t.taskId, time, i + 1);
            m_hostTasksByBatch.add(t.deviceId, t.streamId, batchKey(t.taskId, t.batchId), time, i + 1);
        }
        m_hostTasks.finish();
        m_hostTasksByBatch.finish();
        for (auto &[device, flips] : m_hostFlips)
            flips.finish();
        if (m_cann.recordsOutsideRanges() && !m_cann.apis().empty())
            warn(QStringLiteral("host data: %1 outside any API range of its thread (no op to attach to)")
                     .arg(plural(m_cann.recordsOutsideRanges(), "op/task record")));
    }

    // Args the host adds to a device task (shown in the details panel), built once per submission.
    int hostArgsOf(std::size_t hostTask)
    {
        if (const auto it = m_hostArgsIndex.find(hostTask); it != m_hostArgsIndex.end())
            return it->second;
        const int index = static_cast<int>(m_args->hostArgs.size());
        m_args->hostArgs.push_back(m_text.args(m_cann.tasks()[hostTask]));
        m_hostArgsIndex.emplace(hostTask, index);
        return index;
    }

    // (un)aging.additional.msproftx: marks and ranges with their messages (FORMATS.md §5.3).
    void readMsprofTx(const QString &name, const QStringList &files)
    {
        MsprofTxCollector collector;
        const StreamStats st = forEachRecord(m_stream, files, kMsprofTxRecordSize,
                                             [&](const unsigned char *r) { collector.add(r); });
        const std::vector<TxEvent> events = collector.finish();
        for (const TxEvent &e : events)
            addHostSlice("MsprofTx", e.threadId, m_host.toLocal(e.startTime), m_host.toLocal(e.endTime),
                         e.message.isEmpty() ? QStringLiteral("mark %1").arg(e.markId) : e.message,
                         e.endTime == e.startTime ? "mark" : "tx");
        reportStream(name, st, kMsprofTxRecordSize);
        const MsprofTxCollector::Stats &c = collector.stats();
        QStringList parts;
        if (c.badMagic)
            parts << QStringLiteral("%1 with a wrong magic skipped").arg(plural(c.badMagic, "record"));
        if (c.missingSegments)
            parts << QStringLiteral("%1 with missing message segments (kept as read)")
                         .arg(plural(c.missingSegments, "event"));
        if (c.reversed)
            parts << QStringLiteral("%1 ending before it starts shown as marks")
                         .arg(plural(c.reversed, "range"));
        if (!parts.isEmpty())
            warn(QStringLiteral("%1: %2").arg(name, parts.join(QStringLiteral("; "))));
    }

    void notDecoded(const QString &name, const QStringList &files)
    {
        qint64 bytes = 0;
        for (const QString &f : files)
            bytes += QFileInfo(f).size();
        m_info.notDecoded
            << QStringLiteral("%1: %2, %3 bytes").arg(name, plural(files.size(), "slice")).arg(bytes);
    }

    struct DeviceContext
    {
        int device = 0;
        QString dir;
        QString processName;
        LaneKey pid;
        int process = -1;
        ClockConverter clock;
        bool clockValid = false;
        std::map<std::uint32_t, int> streamThreads;
        QJsonObject sample;
        QJsonObject deviceInfo;
        StarsIdMode starsMode;
        AicFrequencyTimeline aicFrequency; // lpmFreqConv changes, in device ticks
    };

    int streamThread(DeviceContext &d, std::uint32_t stream)
    {
        if (const auto it = d.streamThreads.find(stream); it != d.streamThreads.end())
            return it->second;
        const int thread = m_builder.thread(d.pid, m_builder.numberKey(stream));
        m_builder.setThreadName(
            thread, m_builder.strings().intern(QStringLiteral("Stream %1").arg(stream).toStdString()));
        m_builder.setThreadSortIndex(thread, stream);
        d.streamThreads.emplace(stream, thread);
        return thread;
    }

    void readDevice(int device, const QString &dir, const QString &hostDir)
    {
        DeviceContext d;
        d.device = device;
        d.dir = dir;
        const QString label = shortPath(dir);
        // info.json.<dev> (FORMATS.md §4.4): chip, hwts frequency, core counts.
        QString infoPath = QDir(dir).filePath(QStringLiteral("info.json.%1").arg(device));
        if (!QFileInfo::exists(infoPath))
            infoPath = firstFileStartingWith(dir, QStringLiteral("info.json"));
        QString platform;
        std::optional<Frequency> hwtsFrequency;
        if (!infoPath.isEmpty()) {
            const config::JsonFile f = config::loadJsonObject(infoPath);
            platform = config::jsonText(f.object.value(QStringLiteral("platform_version")));
            const QJsonArray infos = f.object.value(QStringLiteral("DeviceInfo")).toArray();
            if (!infos.isEmpty()) {
                d.deviceInfo = infos.first().toObject();
                hwtsFrequency =
                    Frequency::parse(config::jsonText(d.deviceInfo.value(QStringLiteral("hwts_frequency"))));
            }
        }
        QString samplePath = QDir(dir).filePath(QStringLiteral("sample.json"));
        if (!QFileInfo::exists(samplePath) && !hostDir.isEmpty())
            samplePath = QDir(hostDir).filePath(QStringLiteral("sample.json"));
        if (QFileInfo::exists(samplePath))
            d.sample = config::loadJsonObject(samplePath).object;

        const std::vector<SliceStreamFiles> &streams = streamsIn(dir);
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
        std::vector<const SliceStreamFiles *> hwts, aicore, stars, ffts, tsTrack, aiCpu, freq;
        for (const SliceStreamFiles &s : streams) {
            if (hwtsRe.match(s.stream).hasMatch())
                hwts.push_back(&s);
            else if (tsTrackRe.match(s.stream).hasMatch())
                tsTrack.push_back(&s);
            else if (aiCpuRe.match(s.stream).hasMatch())
                aiCpu.push_back(&s);
            else if (aicoreRe.match(s.stream).hasMatch())
                aicore.push_back(&s);
            else if (starsRe.match(s.stream).hasMatch())
                stars.push_back(&s);
            else if (fftsRe.match(s.stream).hasMatch())
                ffts.push_back(&s);
            else if (freqRe.match(s.stream).hasMatch())
                freq.push_back(&s);
            else if (!isGeTaskStream(s.stream))
                notDecoded(shortPath(QDir(dir).filePath(s.stream)), s.files);
        }
        const std::size_t deviceStreams =
            hwts.size() + aicore.size() + stars.size() + ffts.size() + tsTrack.size() + aiCpu.size();
        if (deviceStreams == 0)
            return;

        config::TaskScheduler scheduler = config::chipFromPlatformVersion(platform).scheduler;
        if (scheduler == config::TaskScheduler::Unknown) {
            scheduler = stars.empty() ? config::TaskScheduler::Hwts : config::TaskScheduler::Stars;
            warn(QStringLiteral("%1: %2; decoded as a %3 chip because of the files present")
                     .arg(label,
                          platform.isEmpty()
                              ? QStringLiteral("no info.json platform_version")
                              : QStringLiteral("unknown chip (platform_version %1)").arg(platform),
                          config::taskSchedulerName(scheduler)));
        }
        if (!hwtsFrequency) {
            std::size_t files = 0;
            for (const auto *s : hwts)
                files += s->files.size();
            for (const auto *s : stars)
                files += s->files.size();
            for (const auto *s : tsTrack)
                files += s->files.size();
            for (const auto *s : aiCpu)
                files += s->files.size();
            warn(QStringLiteral(
                     "%1: no hwts_frequency (info.json.%2 missing or incomplete): %3 of device task "
                     "logs cannot be put on the clock and were not decoded")
                     .arg(label)
                     .arg(device)
                     .arg(plural(files, "slice file")));
            for (const auto *s : hwts)
                notDecoded(shortPath(QDir(dir).filePath(s->stream)), s->files);
            for (const auto *s : stars)
                notDecoded(shortPath(QDir(dir).filePath(s->stream)), s->files);
            for (const auto *s : tsTrack)
                notDecoded(shortPath(QDir(dir).filePath(s->stream)), s->files);
            for (const auto *s : aiCpu)
                notDecoded(shortPath(QDir(dir).filePath(s->stream)), s->files);
            return;
        }
        // Clock (§5.10): dev_start.log cntvct, host_start.log clock_monotonic_raw, start_info offset.
        d.clock.frequency = *hwtsFrequency;
        bool synced = false;
        const QString devStart = firstFileStartingWith(dir, QStringLiteral("dev_start.log"));
        if (!devStart.isEmpty()) {
            const config::IniFile ini = config::loadIniFile(devStart);
            bool ok = false;
            d.clock.syncTicks = ini.value(QStringLiteral("cntvct")).trimmed().toULongLong(&ok);
            QString hostStart = firstFileStartingWith(dir, QStringLiteral("host_start.log"));
            if (hostStart.isEmpty() && !hostDir.isEmpty())
                hostStart = firstFileStartingWith(hostDir, QStringLiteral("host_start.log"));
            std::uint64_t hostTicks = 0;
            synced = ok && readHostStartLog(hostStart, m_host.cpuFrequency, &d.clock.syncMonoNs, &hostTicks);
        }
        std::optional<std::int64_t> offset =
            startInfoOffset(firstFileStartingWith(dir, QStringLiteral("start_info")));
        if (!offset)
            offset = m_host.monoToLocal;
        d.clock.monoToLocalNs = offset.value_or(0);
        if (!synced)
            warn(QStringLiteral(
                     "%1: dev_start.log / host_start.log missing or unreadable: device times are the "
                     "raw counter converted to ns, not aligned with the host")
                     .arg(label));
        if (!offset)
            warn(QStringLiteral("%1: no start_info: device times stay on the monotonic clock").arg(label));

        d.processName = scheduler == config::TaskScheduler::Stars ? QStringLiteral("Ascend Hardware")
                                                                  : QStringLiteral("Task Scheduler");
        d.pid = m_builder.textKey(QStringLiteral("%1 %2").arg(d.processName).arg(device).toStdString());
        d.process = m_builder.process(d.pid);
        m_builder.setProcessName(d.process, m_builder.strings().intern(d.processName.toStdString()));
        m_builder.setProcessLabels(
            d.process, m_builder.strings().intern(QStringLiteral("Device %1").arg(device).toStdString()));

        std::vector<DeviceTask> tasks;
        for (const SliceStreamFiles *s : hwts) {
            HwtsPairer pairer;
            qint64 bytes = 0;
            for (const QString &f : s->files)
                bytes += QFileInfo(f).size();
            pairer.reserve(static_cast<std::size_t>(bytes) / kHwtsRecordSize);
            const QString name = shortPath(QDir(dir).filePath(s->stream));
            const StreamStats st = forEachRecord(m_stream, s->files, kHwtsRecordSize,
                                                 [&](const unsigned char *r) { pairer.add(r); });
            std::vector<DeviceTask> t = pairer.finish();
            reportStream(name, st, kHwtsRecordSize);
            reportPairing(name, pairer.stats(), pairer.counter());
            tasks.insert(tasks.end(), t.begin(), t.end());
        }
        // §5.6: chip v6 logs 32-byte ACSQ records whose u32 task id replaces stream + task; stream-expand
        // mode (the host logged expand_stream_spec) decodes the ids by another table.
        d.starsMode.streamExpand = m_streamExpand;
        d.starsMode.chipV6 = config::chipFromPlatformVersion(platform).generation == QLatin1String("v6");
        const std::size_t starsRecordSize = d.starsMode.chipV6 ? kStarsV6RecordSize : kStarsRecordSize;
        for (const SliceStreamFiles *s : stars) {
            StarsPairer pairer(d.starsMode);
            const QString name = shortPath(QDir(dir).filePath(s->stream));
            const StreamStats st = forEachRecord(m_stream, s->files, starsRecordSize,
                                                 [&](const unsigned char *r) { pairer.add(r); });
            std::vector<DeviceTask> t = pairer.finish();
            reportStream(name, st, starsRecordSize);
            reportPairing(name, pairer.stats(), pairer.counter());
            tasks.insert(tasks.end(), t.begin(), t.end());
        }
        const bool isStars = scheduler == config::TaskScheduler::Stars;
        // Names: the kernel name of the host task_track submission of the same (device, stream, task),
        // else the task type.
        // ts_track first: its flips give the tasks' batch ids, its block-num records the PMU rows' Block Dim.
        readTsTrack(d, tsTrack);
        const auto hostFlips = m_hostFlips.find(static_cast<std::uint32_t>(device));
        const FlipBatches *flips = !m_deviceFlips.empty()           ? &m_deviceFlips
                                   : hostFlips != m_hostFlips.end() ? &hostFlips->second
                                                                    : nullptr;
        m_taskNames.assign(tasks.size(), 0);
        m_taskHost.assign(tasks.size(), -1);
        m_taskRow.assign(tasks.size(), -1);
        std::size_t named = 0;
        HcclLanes hccl(m_builder, m_cann, m_text, m_sourceIndex, device);
        std::vector<bool> flowStarted(m_cann.apis().size(), false);
        for (std::size_t i = 0; i < tasks.size(); ++i) {
            const DeviceTask &t = tasks[i];
            const int thread = streamThread(d, t.stream);
            const TimeNs start = d.clock.toLocal(t.startTicks);
            const TimeNs duration = d.clock.duration(t.startTicks, t.endTicks);
            RawSliceArgs a;
            a.taskType =
                QString::fromLatin1(isStars ? starsSqeTypeName(static_cast<std::uint8_t>(t.taskType))
                                            : hwtsTaskTypeName(static_cast<std::uint8_t>(t.taskType)));
            a.stream = t.stream;
            a.task = t.task;
            a.subtask = t.subtask == kNoSubtask ? -1 : t.subtask;
            a.startTicks = t.startTicks;
            a.endTicks = t.endTicks;
            // The submission: same (device, stream, task, batch) when flips give the batch, else the latest
            // submission of (device, stream, task) at or before the start.
            const HostTask *host = nullptr;
            if (flips)
                a.batch = flips->batchOf(t.stream, static_cast<std::uint16_t>(t.task), start);
            if (!m_hostTasks.empty()) {
                std::uint64_t found = 0;
                if (a.batch >= 0)
                    found = m_hostTasksByBatch.lookup(static_cast<std::uint32_t>(device), t.stream,
                                                      batchKey(t.task, static_cast<std::uint16_t>(a.batch)),
                                                      start);
                if (!found)
                    found = m_hostTasks.lookup(static_cast<std::uint32_t>(device), t.stream, t.task, start);
                if (found) {
                    m_taskHost[i] = static_cast<int>(found - 1);
                    host = &m_cann.tasks()[found - 1];
                    a.hostArgs = hostArgsOf(found - 1);
                    if (a.batch < 0)
                        a.batch = host->track.batchId;
                }
            }
            const std::uint64_t index = m_args->args.size();
            m_args->args.push_back(a);
            StringId name = 0;
            if (host)
                if (const QString n = m_text.taskName(*host); !n.isEmpty()) {
                    name = m_builder.strings().intern(n.toStdString());
                    ++named;
                }
            if (name == 0)
                name = m_builder.strings().intern(a.taskType.toStdString());
            m_taskNames[i] = name;
            m_builder.addSlice(thread, start, duration, name,
                               m_builder.strings().intern(t.ffts ? "ffts_subtask" : "task"),
                               makeSourceLocation(m_sourceIndex, index));
            ++m_slices;
            ++m_info.deviceTasks;
            if (!host)
                continue;
            // HostToDevice flow: from the op's (or caller's) API slice to every task it submitted.
            if (const int c = host->connection; c >= 0 && m_cann.apis()[std::size_t(c)].sliceThread >= 0) {
                const HostApi &api = m_cann.apis()[std::size_t(c)];
                const StringId category = m_builder.strings().intern("HostToDevice");
                const StringId id = m_builder.strings().intern("raw" + std::to_string(c));
                const StringId flowName = m_builder.strings().intern("HostToDevice" + std::to_string(c));
                if (!flowStarted[std::size_t(c)]) {
                    flowStarted[std::size_t(c)] = true;
                    m_builder.addFlowHalf(FlowPhase::Start, category, flowName, id, api.sliceThread,
                                          api.sliceStart, true);
                    ++m_builder.counts().flowStart;
                }
                m_builder.addFlowHalf(FlowPhase::End, category, flowName, id, thread, start, true);
                ++m_builder.counts().flowEnd;
                ++m_info.hostToDeviceFlows;
            }
            if (host->hccl >= 0)
                hccl.add(*host, start, duration, name, index);
        }
        hccl.finish();
        m_slices += hccl.slicesAdded();
        m_info.hcclOps += hccl.opsAdded();
        m_info.namedDeviceTasks += named;
        if (!m_hostTasks.empty() && named < tasks.size())
            warn(
                QStringLiteral("%1: %2 of %3 device tasks have no host task_track record with a known kernel "
                               "name: named by their task type")
                    .arg(label)
                    .arg(tasks.size() - named)
                    .arg(tasks.size()));
        readAicFrequency(d, freq); // before the PMU rows: their times use the frequency at the task end
        readPmu(d, tasks, aicore, ffts);
        addOpRows(d, tasks, isStars);
        readAiCpu(d, aiCpu);
    }

    // lpmFreqConv (FORMATS.md §5.5): the "AI Core Freq" counter of the device, and the frequency the PMU
    // times use (§4.2: the value at the task end).
    void readAicFrequency(DeviceContext &d, const std::vector<const SliceStreamFiles *> &files)
    {
        std::size_t bad = 0;
        for (const SliceStreamFiles *s : files) {
            const QString name = shortPath(QDir(d.dir).filePath(s->stream));
            const StreamStats st =
                forEachRecord(m_stream, s->files, kAicFrequencyRecordSize,
                              [&](const unsigned char *r) { bad += d.aicFrequency.add(r) ? 0 : 1; });
            reportStream(name, st, kAicFrequencyRecordSize);
        }
        d.aicFrequency.finish();
        if (bad)
            warn(QStringLiteral("%1: %2 with an entry count above 55 skipped")
                     .arg(shortPath(d.dir), plural(bad, "AI Core frequency record")));
        const StringId counter = m_builder.strings().intern("AI Core Freq");
        const StringId series = m_builder.strings().intern("MHz");
        for (const auto &[ticks, mhz] : d.aicFrequency.points())
            m_builder.addCounterSample(d.process, counter, series, d.clock.toLocal(ticks), mhz);
        m_builder.counts().counter += d.aicFrequency.points().size();
    }

    // AI CPU task records (FORMATS.md §5.5): an "AI CPU" process per device, one thread per stream.
    void readAiCpu(DeviceContext &d, const std::vector<const SliceStreamFiles *> &files)
    {
        if (files.empty())
            return;
        const LaneKey pid = m_builder.textKey(QStringLiteral("AI CPU %1").arg(d.device).toStdString());
        const int process = m_builder.process(pid);
        m_builder.setProcessName(process, m_builder.strings().intern("AI CPU"));
        m_builder.setProcessLabels(
            process, m_builder.strings().intern(QStringLiteral("Device %1").arg(d.device).toStdString()));
        std::map<std::uint32_t, int> threads;
        const StringId name = m_builder.strings().intern("AI_CPU");
        const StringId category = m_builder.strings().intern("aicpu");
        for (const SliceStreamFiles *s : files) {
            const QString label = shortPath(QDir(d.dir).filePath(s->stream));
            AiCpuStats stats;
            const StreamStats st =
                forEachRecord(m_stream, s->files, kAiCpuRecordSize, [&](const unsigned char *r) {
                    AiCpuRecord rec;
                    if (!acceptAiCpu(r, rec, stats))
                        return;
                    auto it = threads.find(rec.streamId);
                    if (it == threads.end()) {
                        const int thread = m_builder.thread(pid, m_builder.numberKey(rec.streamId));
                        m_builder.setThreadName(
                            thread, m_builder.strings().intern(
                                        QStringLiteral("Stream %1").arg(rec.streamId).toStdString()));
                        m_builder.setThreadSortIndex(thread, rec.streamId);
                        it = threads.emplace(rec.streamId, thread).first;
                    }
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
                    const TimeNs start = d.clock.toLocal(rec.runStartTick);
                    const TimeNs duration = d.clock.duration(rec.runStartTick, rec.runEndTick);
                    // Named like the device tasks, from the host task_track submission and its op.
                    StringId taskName = name;
                    if (!m_hostTasks.empty())
                        if (const std::uint64_t found = m_hostTasks.lookup(
                                static_cast<std::uint32_t>(d.device), rec.streamId, rec.taskId, start)) {
                            a.hostArgs = hostArgsOf(found - 1);
                            if (const QString n = m_text.taskName(m_cann.tasks()[found - 1]); !n.isEmpty())
                                taskName = m_builder.strings().intern(n.toStdString());
                        }
                    const std::uint64_t index = m_args->args.size();
                    m_args->args.push_back(a);
                    m_builder.addSlice(it->second, start, duration, taskName, category,
                                       makeSourceLocation(m_sourceIndex, index));
                    ++m_slices;
                    ++m_info.aiCpuTasks;
                    // An AI_CPU row of the kernel table, as op_summary has (no PMU metrics).
                    constexpr TimeNs kTimeLimit = TimeNs(1) << 62;
                    if (start > -kTimeLimit && start < kTimeLimit && duration < kTimeLimit) {
                        KernelRecord row;
                        row.group = m_builder.currentGroup();
                        row.start = start;
                        row.duration = duration;
                        row.name = taskName;
                        row.type = name;
                        row.acceleratorCore = name;
                        row.streamId = rec.streamId;
                        row.taskId = rec.taskId;
                        m_builder.kernels().addRow(row);
                    }
                });
            reportStream(label, st, kAiCpuRecordSize);
            QStringList parts;
            if (stats.badMagic)
                parts
                    << QStringLiteral("%1 with a wrong magic skipped").arg(plural(stats.badMagic, "record"));
            if (stats.otherTag)
                parts << QStringLiteral("%1 with another data tag skipped")
                             .arg(plural(stats.otherTag, "record"));
            if (stats.noTick)
                parts
                    << QStringLiteral("%1 without a start tick dropped").arg(plural(stats.noTick, "record"));
            if (stats.reversed)
                parts << QStringLiteral("%1 ending before it starts dropped")
                             .arg(plural(stats.reversed, "record"));
            if (!parts.isEmpty())
                warn(QStringLiteral("%1: %2").arg(label, parts.join(QStringLiteral("; "))));
        }
    }

    static std::int64_t clampTicks(std::uint64_t ticks)
    {
        return static_cast<std::int64_t>(std::min<std::uint64_t>(ticks, INT64_MAX));
    }

    void addTsTrackRecord(const DeviceContext &d, TsTrackCollector &collector, const unsigned char *r)
    {
        TsTrackRecord rec;
        if (!decodeTsTrack(r, rec)) {
            collector.add(r); // counted as an unknown tag
            return;
        }
        collector.add(rec);
        if (rec.tag == static_cast<std::uint8_t>(TsTrackTag::TaskFlip))
            m_deviceFlips.addFlip(rec.streamId, d.clock.toLocal(rec.timestamp), rec.taskId);
        if (rec.tag == static_cast<std::uint8_t>(TsTrackTag::BlockNum))
            m_blockNums.add(0, rec.streamId, rec.taskId, clampTicks(rec.timestamp), rec.blockNum);
    }

    // ts_track step trace (FORMATS.md §5.5, §7.1): "Iteration N" slices in a "Step Trace" process per
    // device (one thread per model), and the same windows declared as steps.
    void readTsTrack(DeviceContext &d, const std::vector<const SliceStreamFiles *> &files)
    {
        m_blockNums = HostTaskIndex{}; // per device
        m_deviceFlips = FlipBatches{};
        if (files.empty())
            return;
        TsTrackCollector collector;
        QStringList names;
        for (const SliceStreamFiles *s : files) {
            const QString label = shortPath(QDir(d.dir).filePath(s->stream));
            names << label;
            const StreamStats st =
                forEachRecord(m_stream, s->files, kTsTrackRecordSize,
                              [&](const unsigned char *r) { addTsTrackRecord(d, collector, r); });
            reportStream(label, st, kTsTrackRecordSize);
        }
        m_blockNums.finish();
        m_deviceFlips.finish();
        const std::vector<StepWindow> windows = collector.finish();
        const QString label = names.join(QStringLiteral(", "));
        const TsTrackCollector::Stats &c = collector.stats();
        QStringList parts;
        if (c.unknownTag)
            parts << QStringLiteral("%1 with an unknown tag skipped").arg(plural(c.unknownTag, "record"));
        if (c.iterationsWithoutEnd)
            parts << QStringLiteral("%1 without an end mark dropped")
                         .arg(plural(c.iterationsWithoutEnd, "iteration"));
        if (c.iterationsWithoutBegin)
            parts << QStringLiteral("%1 without a start mark begin at their first record")
                         .arg(plural(c.iterationsWithoutBegin, "iteration"));
        if (c.reversed)
            parts
                << QStringLiteral("%1 ending before it starts dropped").arg(plural(c.reversed, "iteration"));
        if (!parts.isEmpty())
            warn(QStringLiteral("%1: %2").arg(label, parts.join(QStringLiteral("; "))));
        if (windows.empty())
            return;
        const LaneKey pid = m_builder.textKey(QStringLiteral("Step Trace %1").arg(d.device).toStdString());
        const int process = m_builder.process(pid);
        m_builder.setProcessName(process, m_builder.strings().intern("Step Trace"));
        m_builder.setProcessLabels(
            process, m_builder.strings().intern(QStringLiteral("Device %1").arg(d.device).toStdString()));
        const StringId category = m_builder.strings().intern("step_trace");
        std::map<std::uint64_t, int> threads;
        for (const StepWindow &w : windows) {
            auto it = threads.find(w.modelId);
            if (it == threads.end()) {
                const int thread = m_builder.thread(pid, m_builder.numberKey(w.modelId));
                m_builder.setThreadName(thread, m_builder.strings().intern(
                                                    QStringLiteral("Model %1").arg(w.modelId).toStdString()));
                it = threads.emplace(w.modelId, thread).first;
            }
            RawSliceArgs a;
            a.modelId = static_cast<std::int64_t>(std::min<std::uint64_t>(w.modelId, INT64_MAX));
            a.indexId = static_cast<std::int64_t>(std::min<std::uint64_t>(w.indexId, INT64_MAX));
            a.startTicks = w.beginTicks;
            a.endTicks = w.endTicks;
            const std::uint64_t index = m_args->args.size();
            m_args->args.push_back(a);
            const TimeNs begin = d.clock.toLocal(w.beginTicks);
            const TimeNs end = d.clock.toLocal(w.endTicks);
            m_builder.addSlice(
                it->second, begin, saturatingSub(end, begin),
                m_builder.strings().intern(QStringLiteral("Iteration %1").arg(w.indexId).toStdString()),
                category, makeSourceLocation(m_sourceIndex, index));
            ++m_slices;
            // Steps are shifted by the model origin: keep only windows the builder keeps as events too.
            constexpr TimeNs kTimeLimit = TimeNs(1) << 62;
            if (begin <= -kTimeLimit || end >= kTimeLimit) {
                ++m_info.stepsOutOfRange;
                continue;
            }
            DeclaredStep step;
            step.group = m_builder.currentGroup();
            step.number = a.indexId;
            step.begin = begin;
            step.end = end;
            step.source =
                QStringLiteral("ts_track step trace (model %1) in %2").arg(w.modelId).arg(shortPath(d.dir));
            m_builder.addDeclaredStep(std::move(step));
            ++m_info.iterations;
        }
        if (m_info.stepsOutOfRange)
            warn(QStringLiteral("%1: %2 beyond ±2^62 ns (corrupt ticks) not used as steps")
                     .arg(label, plural(m_info.stepsOutOfRange, "iteration")));
    }

    QString eventsOf(const DeviceContext &d, bool aiv) const
    {
        const QString key =
            aiv ? QStringLiteral("aiv_profiling_events") : QStringLiteral("ai_core_profiling_events");
        const QString list = config::jsonText(d.sample.value(key));
        return list.isEmpty() && aiv
                   ? config::jsonText(d.sample.value(QStringLiteral("ai_core_profiling_events")))
                   : list;
    }

    // Columns of one core prefix ("" on HWTS chips, "aic_"/"aiv_" on STARS) for a calculator.
    std::vector<int> columnsFor(const PmuMetricCalculator &calc, const QString &core)
    {
        std::vector<int> columns;
        KernelTable &table = m_builder.kernels();
        for (const QString &n : calc.names()) {
            KernelMetricColumn c;
            c.header = core.isEmpty() ? n : core + QLatin1Char('_') + n;
            c.name = n;
            c.core = core;
            columns.push_back(table.addColumn(c));
        }
        return columns;
    }

    // The `*_time(us)` columns of one core, named as kernel_details / op_summary name them.
    std::vector<int> timeColumnsFor(const PmuMetricCalculator &calc, const QString &core)
    {
        std::vector<int> columns;
        KernelTable &table = m_builder.kernels();
        auto add = [&](const QString &header, const QString &name) {
            KernelMetricColumn c;
            c.header = header;
            c.name = name;
            c.core = core;
            c.unit = QStringLiteral("us");
            columns.push_back(table.addColumn(c));
        };
        add(core == QLatin1String("aiv") ? QStringLiteral("aiv_time(us)") : QStringLiteral("aicore_time(us)"),
            QStringLiteral("time(us)"));
        for (const QString &pipe : calc.timePipes())
            add((core.isEmpty() ? QString() : core + QLatin1Char('_')) + pipe + QStringLiteral("_time(us)"),
                pipe + QStringLiteral("_time(us)"));
        return columns;
    }

    // A Kernels row for a device task: from a PMU record (`pmu`, with its metric values) or, for a task
    // the host describes as an op but no PMU record reached, from the op info alone.
    void addKernelRow(const DeviceContext &d, const std::vector<DeviceTask> &tasks, std::size_t taskIndex,
                      const QString &core, const std::vector<int> &columns, const std::vector<double> &values,
                      bool isStars, bool pmu = true, const std::vector<int> &timeColumns = {},
                      const std::vector<std::uint64_t> &timeCounters = {})
    {
        const DeviceTask &t = tasks[taskIndex];
        KernelRecord row;
        row.group = m_builder.currentGroup();
        row.start = d.clock.toLocal(t.startTicks);
        row.duration = d.clock.duration(t.startTicks, t.endTicks);
        // Rows are shifted by the model origin: beyond ±2^62 ns (corrupt ticks) they are left out, as the
        // builder leaves such task slices out.
        constexpr TimeNs kTimeLimit = TimeNs(1) << 62;
        if (row.start <= -kTimeLimit || row.start >= kTimeLimit || row.duration <= -kTimeLimit ||
            row.duration >= kTimeLimit) {
            ++m_pmuOutOfRange;
            return;
        }
        const QString type =
            QString::fromLatin1(isStars ? starsSqeTypeName(static_cast<std::uint8_t>(t.taskType))
                                        : hwtsTaskTypeName(static_cast<std::uint8_t>(t.taskType)));
        row.type = m_builder.strings().intern(type.toStdString());
        row.name =
            taskIndex < m_taskNames.size() && m_taskNames[taskIndex] ? m_taskNames[taskIndex] : row.type;
        row.acceleratorCore = m_builder.strings().intern(core == QLatin1String("aiv") ? "AI_VECTOR_CORE"
                                                         : core.isEmpty() && !pmu     ? ""
                                                                                      : "AI_CORE");
        // What the host says of the op (node_basic_info, tensor_info): type, core, shapes, block dim.
        const OpDescription *op = nullptr;
        if (taskIndex < m_taskHost.size() && m_taskHost[taskIndex] >= 0)
            if (const int o = m_cann.tasks()[std::size_t(m_taskHost[taskIndex])].op; o >= 0)
                op = &m_cann.ops()[std::size_t(o)];
        if (op && op->haveBasic) {
            if (const QString type = m_text.opType(*op); !type.isEmpty())
                row.type = m_builder.strings().intern(type.toStdString());
            if (core.isEmpty() && *geTaskTypeName(op->basic.taskType))
                row.acceleratorCore = m_builder.strings().intern(geTaskTypeName(op->basic.taskType));
            row.blockDim = op->basic.blockDim;
        }
        if (op) {
            row.inputShapes = m_builder.strings().intern(tensorShapes(op->tensors, false));
            row.inputTypes = m_builder.strings().intern(tensorDataTypes(op->tensors, false));
        }
        row.streamId = t.stream;
        row.taskId = t.task;
        // Block Dim: the ts_track block-num record of the task logged last at or before its start.
        if (!m_blockNums.empty())
            if (const std::uint64_t blocks =
                    m_blockNums.lookup(0, t.stream, t.task, clampTicks(t.startTicks)))
                row.blockDim = static_cast<std::int64_t>(std::min<std::uint64_t>(blocks, INT64_MAX));
        if (t.subtask != kNoSubtask)
            row.contextId = t.subtask;
        KernelTable &table = m_builder.kernels();
        // One row per task, as op_summary has: the other core of a MIX op fills the same row's columns.
        std::size_t r = 0;
        if (taskIndex < m_taskRow.size() && m_taskRow[taskIndex] >= 0) {
            r = static_cast<std::size_t>(m_taskRow[taskIndex]);
            KernelRecord &existing = table.row(r);
            const QString had = m_builder.strings().qstring(existing.acceleratorCore);
            if (!(op && op->haveBasic && *geTaskTypeName(op->basic.taskType)) &&
                had != m_builder.strings().qstring(row.acceleratorCore))
                existing.acceleratorCore = m_builder.strings().intern(
                    had == QLatin1String("AI_VECTOR_CORE") ? "MIX_AIV" : "MIX_AIC");
        } else {
            r = table.addRow(row);
            if (taskIndex < m_taskRow.size())
                m_taskRow[taskIndex] = static_cast<int>(r);
        }
        for (std::size_t i = 0; i < columns.size() && i < values.size(); ++i)
            table.setMetric(r, columns[i], values[i]);
        if (!timeColumns.empty()) {
            // FORMATS.md §4.2: b is the block dim, or the mix block dim on the secondary core of a MIX op.
            const bool aiv = core == QLatin1String("aiv");
            std::int64_t blocks = row.blockDim;
            if (op && op->haveBasic && op->basic.mixBlockDim &&
                ((aiv && op->basic.taskType == 4) || (!aiv && op->basic.taskType == 5)))
                blocks = op->basic.mixBlockDim;
            const std::int64_t cores =
                d.deviceInfo.value(aiv ? QStringLiteral("aiv_num") : QStringLiteral("ai_core_num"))
                    .toVariant()
                    .toLongLong();
            const double mhz = d.aicFrequency.at(
                t.endTicks, d.deviceInfo.value(QStringLiteral("aic_frequency")).toVariant().toDouble());
            for (std::size_t i = 0; i < timeColumns.size() && i < timeCounters.size(); ++i)
                if (const double us = pipeTimeUs(timeCounters[i], mhz, blocks, cores); !std::isnan(us))
                    table.setMetric(r, timeColumns[i], us);
        }
        ++(pmu ? m_info.pmuRows : m_info.opRows);
    }

    // Tasks the host describes as ops (node_basic_info) that got no PMU row still get a Kernels row.
    void addOpRows(const DeviceContext &d, const std::vector<DeviceTask> &tasks, bool isStars)
    {
        for (std::size_t i = 0; i < tasks.size(); ++i) {
            if (m_taskRow[i] >= 0 || m_taskHost[i] < 0)
                continue;
            const int op = m_cann.tasks()[std::size_t(m_taskHost[i])].op;
            if (op >= 0 && m_cann.ops()[std::size_t(op)].haveBasic)
                addKernelRow(d, tasks, i, QString(), {}, {}, isStars, false);
        }
    }

    void readPmu(DeviceContext &d, const std::vector<DeviceTask> &tasks,
                 const std::vector<const SliceStreamFiles *> &aicore,
                 const std::vector<const SliceStreamFiles *> &ffts)
    {
        if (aicore.empty() && ffts.empty())
            return;
        const QString label = shortPath(d.dir);
        const auto aicEvents = parsePmuEvents(eventsOf(d, false));
        const auto aivEvents = parsePmuEvents(eventsOf(d, true));
        if (!aicEvents || aicEvents->empty()) {
            warn(QStringLiteral(
                     "%1: PMU records present but sample.json has no usable ai_core_profiling_events: "
                     "metrics not decoded")
                     .arg(label));
            for (const auto *s : aicore)
                notDecoded(shortPath(QDir(d.dir).filePath(s->stream)), s->files);
            for (const auto *s : ffts)
                notDecoded(shortPath(QDir(d.dir).filePath(s->stream)), s->files);
            return;
        }
        m_info.metricGroup = config::jsonText(d.sample.value(QStringLiteral("ai_core_metrics")));
        m_builder.kernels().setMetricGroup(m_builder.currentGroup(), m_info.metricGroup);
        const PmuMetricCalculator aic(*aicEvents);
        const PmuMetricCalculator aiv(aivEvents && !aivEvents->empty() ? *aivEvents : *aicEvents);
        // Index tasks by (stream, task, subtask) in end order (tasks are in end order for HWTS).
        std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::vector<std::size_t>> byKey;
        for (std::size_t i = 0; i < tasks.size(); ++i)
            byKey[{tasks[i].stream, tasks[i].task, tasks[i].subtask}].push_back(i);
        std::size_t unmatched = 0, overflow = 0, bad = 0;
        if (!aicore.empty()) {
            const std::vector<int> columns = columnsFor(aic, QString());
            const std::vector<int> times = timeColumnsFor(aic, QString());
            std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::size_t>
                next; // FIFO position
            for (const SliceStreamFiles *s : aicore) {
                const StreamStats st =
                    forEachRecord(m_stream, s->files, kAicorePmuRecordSize, [&](const unsigned char *r) {
                        AicorePmuRecord rec;
                        decodeAicorePmu(r, rec);
                        const std::tuple<std::uint32_t, std::uint32_t, std::uint32_t> key{
                            rec.streamId, rec.taskId, kNoSubtask};
                        const auto it = byKey.find(key);
                        std::size_t &pos = next[key];
                        if (it == byKey.end() || pos >= it->second.size()) {
                            ++unmatched;
                            return;
                        }
                        addKernelRow(d, tasks, it->second[pos++], QString(), columns,
                                     aic.compute(rec.totalCycle, rec.pmu), false, true, times,
                                     aic.timeCounters(rec.totalCycle, rec.pmu));
                    });
                reportStream(shortPath(QDir(d.dir).filePath(s->stream)), st, kAicorePmuRecordSize);
            }
        }
        if (!ffts.empty()) {
            const std::vector<int> aicColumns = columnsFor(aic, QStringLiteral("aic"));
            const std::vector<int> aivColumns = columnsFor(aiv, QStringLiteral("aiv"));
            const std::vector<int> aicTimes = timeColumnsFor(aic, QStringLiteral("aic"));
            const std::vector<int> aivTimes = timeColumnsFor(aiv, QStringLiteral("aiv"));
            struct BlockSum
            {
                std::uint64_t cycles = 0;
                std::array<std::uint64_t, 8> pmu{};
                std::size_t blocks = 0;
            };
            std::map<std::pair<std::size_t, bool>, BlockSum> blockSums; // (task, on AIV)
            std::set<std::pair<std::size_t, bool>> contextRows;         // (task, on AIV) with a context row
            for (const SliceStreamFiles *s : ffts) {
                const StreamStats st =
                    forEachRecord(m_stream, s->files, kFftsPmuRecordSize, [&](const unsigned char *r) {
                        FftsPmuRecord rec;
                        if (!decodeFftsPmu(r, rec)) {
                            ++bad;
                            return;
                        }
                        if (rec.funcType != kContextPmu && rec.funcType != kBlockPmu)
                            return;
                        if (rec.overflow) {
                            ++overflow;
                            return;
                        }
                        const StreamTask ids = decodeStarsIds(rec.rawStream, rec.rawTask, 0, d.starsMode);
                        const std::uint32_t subtask = rec.fftsType == 4 ? rec.subTaskId : kNoSubtask;
                        auto it = byKey.find({ids.stream, ids.task, subtask});
                        if (it == byKey.end())
                            it = byKey.find({ids.stream, ids.task, kNoSubtask});
                        if (it == byKey.end()) {
                            ++unmatched;
                            return;
                        }
                        // The task whose interval holds the PMU end tick, else the nearest end.
                        std::size_t best = it->second.front();
                        std::uint64_t bestDistance = ~std::uint64_t(0);
                        for (const std::size_t i : it->second) {
                            const DeviceTask &t = tasks[i];
                            if (t.startTicks <= rec.endTicks && rec.endTicks <= t.endTicks) {
                                best = i;
                                break;
                            }
                            const std::uint64_t dist = t.endTicks > rec.endTicks ? t.endTicks - rec.endTicks
                                                                                 : rec.endTicks - t.endTicks;
                            if (dist < bestDistance) {
                                bestDistance = dist;
                                best = i;
                            }
                        }
                        if (rec.funcType == kBlockPmu) { // one block of one core: summed per task and core
                            BlockSum &sum = blockSums[{best, rec.blockOnAiv}];
                            sum.cycles += rec.totalCycle;
                            for (std::size_t i = 0; i < 8; ++i)
                                sum.pmu[i] += rec.pmu[i];
                            ++sum.blocks;
                            return;
                        }
                        const bool isAic = rec.isAic();
                        contextRows.insert({best, !isAic});
                        const PmuMetricCalculator &calc = isAic ? aic : aiv;
                        addKernelRow(d, tasks, best, isAic ? QStringLiteral("aic") : QStringLiteral("aiv"),
                                     isAic ? aicColumns : aivColumns, calc.compute(rec.totalCycle, rec.pmu),
                                     true, true, isAic ? aicTimes : aivTimes,
                                     calc.timeCounters(rec.totalCycle, rec.pmu));
                    });
                reportStream(shortPath(QDir(d.dir).filePath(s->stream)), st, kFftsPmuRecordSize);
            }
            // §5.9: the blocks of a MIX op's other core summed into one row of that core, unless a context
            // PMU record already gave the task's totals for it.
            for (const auto &[key, sum] : blockSums) {
                const auto &[task, onAiv] = key;
                if (contextRows.count({task, onAiv}))
                    continue;
                const PmuMetricCalculator &calc = onAiv ? aiv : aic;
                addKernelRow(d, tasks, task, onAiv ? QStringLiteral("aiv") : QStringLiteral("aic"),
                             onAiv ? aivColumns : aicColumns, calc.compute(sum.cycles, sum.pmu), true, true,
                             onAiv ? aivTimes : aicTimes, calc.timeCounters(sum.cycles, sum.pmu));
                m_info.summedBlocks += sum.blocks;
            }
        }
        QStringList parts;
        if (unmatched)
            parts << QStringLiteral("%1 without a matching task").arg(plural(unmatched, "PMU record"));
        if (overflow)
            parts << QStringLiteral("%1 with the overflow flag dropped").arg(plural(overflow, "PMU record"));
        if (bad)
            parts << QStringLiteral("%1 with a wrong magic skipped").arg(plural(bad, "PMU record"));
        if (m_pmuOutOfRange)
            parts << QStringLiteral("%1 of tasks beyond ±2^62 ns (corrupt ticks) left out")
                         .arg(plural(m_pmuOutOfRange, "PMU record"));
        m_pmuOutOfRange = 0;
        if (!parts.isEmpty())
            warn(QStringLiteral("%1: %2").arg(label, parts.join(QStringLiteral("; "))));
    }

    const DataSource &m_source;
    TraceBuilder &m_builder;
    RawReadInfo &m_info;
    StreamControl m_stream; // cancel flag and progress counter of every record stream (forEachRecord)
    std::shared_ptr<RawArgsReader> m_args;
    std::uint32_t m_sourceIndex = 0;
    HostClock m_host;
    std::size_t m_slices = 0;
    std::size_t m_pmuOutOfRange = 0;
    QHash<QString, QString> m_hashes;      // hash_dic of the host data
    bool m_streamExpand = false;           // an expand_stream_spec record was read
    CannAssociation m_cann;                // host API ranges, op and HCCL records, submissions
    HostTaskText m_text{m_cann, m_hashes}; // names and args of the host data
    HostTaskIndex m_hostTasks;             // submissions: payload = index into m_cann.tasks() + 1
    HostTaskIndex m_hostTasksByBatch;      // the same keyed by (device, stream, task | batch << 16)
    std::map<std::uint32_t, FlipBatches> m_hostFlips; // per device: task_track flips (local time)
    FlipBatches m_deviceFlips;                        // ts_track flips of the device being read (local time)
    std::unordered_map<std::size_t, int> m_hostArgsIndex;       // submission -> RawArgsReader::hostArgs
    std::map<QString, std::vector<SliceStreamFiles>> m_listing; // slice streams of each raw data folder
    std::vector<int> m_taskHost;       // per device task of the device being read: submission or -1
    std::vector<int> m_taskRow;        // per device task: its Kernels row, or -1
    HostTaskIndex m_blockNums;         // ts_track block-num records of the device being read (ticks)
    std::vector<StringId> m_taskNames; // per device task of the device being read
};

} // namespace

std::uint64_t rawDataBytes(const DataSource &source)
{
    std::uint64_t bytes = 0;
    for (const QString &dir : source.rawDataDirs)
        for (const SliceStreamFiles &s : listSliceStreams(dir))
            for (const QString &f : s.files)
                bytes += static_cast<std::uint64_t>(QFileInfo(f).size());
    return bytes;
}

std::size_t readRawProfile(const DataSource &source, TraceBuilder &builder, RawReadInfo *info,
                           const std::atomic<bool> *cancel, std::atomic<std::uint64_t> *bytesDone)
{
    RawReadInfo local;
    Reader reader(source, builder, info ? *info : local, StreamControl(cancel, bytesDone));
    const std::size_t slices = reader.run();
    RawReadInfo &i = info ? *info : local;
    if (!i.notDecoded.isEmpty())
        builder.addWarning(QStringLiteral("Raw data not decoded yet (%1): %2")
                               .arg(i.notDecoded.size())
                               .arg(i.notDecoded.join(QStringLiteral("; "))));
    return slices;
}

} // namespace at
