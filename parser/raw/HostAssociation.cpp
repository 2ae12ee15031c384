#include "HostAssociation.h"

#include "GeTaskDesc.h"
#include "HostRecords.h"
#include "MsprofTx.h"
#include "config/ConfigFiles.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>

#include <limits>
#include <map>
#include <tuple>

namespace at::raw {

namespace {

// A task id with its batch id, as one key of a HostTaskIndex (task ids are 16 bits).
std::uint32_t batchKey(std::uint32_t task, std::uint16_t batch)
{
    return (task & 0xFFFF) | (std::uint32_t(batch) << 16);
}

} // namespace

bool isGeTaskStream(const QString &stream)
{
    static const QRegularExpression re(
        QStringLiteral("^Framework\\.((host\\.)?task_desc_info\\.\\d+|hash_dic(\\.\\d+)?)$"));
    return re.match(stream).hasMatch();
}

void HostAssociation::read(const QString &hostDir, const QStringList &dataDirs)
{
    readHostConfig(hostDir);
    for (const QString &dir : dataDirs)
        readGeTaskDescs(dir);
    if (!hostDir.isEmpty())
        readHost(hostDir);
    associate();
}

const FlipBatches *HostAssociation::flipsOf(int device) const
{
    const auto it = m_hostFlips.find(static_cast<std::uint32_t>(device));
    return it == m_hostFlips.end() ? nullptr : &it->second;
}

std::optional<std::size_t> HostAssociation::submissionOf(int device, std::uint32_t stream, std::uint32_t task,
                                                         std::int32_t batch, TimeNs start) const
{
    if (m_hostTasks.empty())
        return std::nullopt;
    std::uint64_t found = 0;
    if (batch >= 0)
        found = m_hostTasksByBatch.lookup(static_cast<std::uint32_t>(device), stream,
                                          batchKey(task, static_cast<std::uint16_t>(batch)), start);
    if (!found)
        found = m_hostTasks.lookup(static_cast<std::uint32_t>(device), stream, task, start);
    if (!found)
        return std::nullopt;
    return static_cast<std::size_t>(found - 1);
}

// Args the host adds to a device task (shown in the details panel), built once per submission.
int HostAssociation::hostArgsOf(std::size_t submission)
{
    if (const auto it = m_hostArgsIndex.find(submission); it != m_hostArgsIndex.end())
        return it->second;
    const int index = m_out.addHostArgs(m_text.args(m_cann.tasks()[submission]));
    m_hostArgsIndex.emplace(submission, index);
    return index;
}

QHash<QString, QString> HostAssociation::dictionary(const QString &dir, const QStringList &files)
{
    constexpr std::size_t kNotStopped = std::numeric_limits<std::size_t>::max();
    std::size_t stoppedAfter = kNotStopped;
    QHash<QString, QString> dict = readDictionary(files, m_stream, &stoppedAfter);
    if (stoppedAfter != kNotStopped && !files.isEmpty()) { // listed in what a stopped load kept
        const QString name = m_out.streamName(dir, sliceStreamName(QFileInfo(files.first()).fileName()));
        if (stoppedAfter == 0)
            m_out.reportNotRead(name);
        else
            m_out.info().streamsCut
                << QCoreApplication::translate("Parser", "%1 after %2 lines").arg(name).arg(stoppedAfter);
    }
    return dict;
}

void HostAssociation::readHostConfig(const QString &hostDir)
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
    m_host.haveStartLog = readHostStartLog(firstFileStartingWith(hostDir, QStringLiteral("host_start.log")),
                                           m_host.cpuFrequency, &m_host.monotonicNs, &m_host.cntvct);
    if (m_host.cpuFrequency && !m_host.haveStartLog)
        m_out.warn(
            QStringLiteral("%1: host times are CPU ticks but host_start.log is missing or unreadable: host "
                           "times are not aligned")
                .arg(m_out.shortPath(hostDir)));
    if (!m_host.monoToLocal)
        m_out.warn(
            QStringLiteral("%1: start_info is missing or unreadable: host times stay on the monotonic clock")
                .arg(m_out.shortPath(hostDir)));
}

void HostAssociation::readHost(const QString &dir)
{
    static const QRegularExpression aclRe(QStringLiteral("^AclModule\\.acl_(op|model|rts|others)\\.\\d+$"));
    static const QRegularExpression apiRe(QStringLiteral("^(un)?aging\\.api_event\\.data$"));
    static const QRegularExpression hashRe(QStringLiteral("^(un)?aging\\.additional\\.hash_dic$"));
    static const QRegularExpression typeRe(QStringLiteral("^(un)?aging\\.additional\\.type_info_dic$"));
    static const QRegularExpression txRe(QStringLiteral("^(un)?aging\\.additional\\.msproftx$"));
    static const QRegularExpression taskTrackRe(QStringLiteral("^(un)?aging\\.compact\\.task_track$"));
    static const QRegularExpression expandRe(QStringLiteral("^(un)?aging\\.compact\\.expand_stream_spec$"));
    static const QRegularExpression opInfoRe(
        QStringLiteral("^(un)?aging\\.(compact\\.(node_basic_info|hccl_op_info)|additional\\.(tensor_"
                       "info|hccl_info))$"));
    const std::vector<SliceStreamFiles> &streams = m_listing.streamsIn(dir);
    QStringList hashFiles, typeFiles;
    for (const SliceStreamFiles &s : streams) {
        if (hashRe.match(s.stream).hasMatch())
            hashFiles << s.files;
        if (typeRe.match(s.stream).hasMatch())
            typeFiles << s.files;
    }
    const QHash<QString, QString> hostHashes = dictionary(dir, hashFiles);
    for (auto it = hostHashes.begin(); it != hostHashes.end(); ++it)
        m_hashes.insert(it.key(), it.value());
    const QHash<QString, QString> types = dictionary(dir, typeFiles);
    for (const SliceStreamFiles &s : streams) {
        const QString name = m_out.streamName(dir, s.stream);
        if (aclRe.match(s.stream).hasMatch()) {
            std::size_t bad = 0;
            const StreamStats st =
                forEachRecord(m_stream, s.files, kAclModuleRecordSize, [&](const unsigned char *r) {
                    AclModuleRecord rec;
                    if (!decodeAclModule(r, rec)) {
                        ++bad;
                        return;
                    }
                    m_out.addHostSlice("AscendCL", rec.threadId, m_host.toLocal(rec.apiStart),
                                       m_host.toLocal(rec.apiEnd), rec.name);
                });
            m_out.reportStream(name, st, kAclModuleRecordSize);
            m_out.warnBadMagic(name, bad);
        } else if (apiRe.match(s.stream).hasMatch()) {
            readApiEvents(name, s.files, types);
        } else if (txRe.match(s.stream).hasMatch()) {
            readMsprofTx(name, s.files);
        } else if (taskTrackRe.match(s.stream).hasMatch()) {
            readTaskTrack(name, s.files);
        } else if (expandRe.match(s.stream).hasMatch()) {
            // Its presence switches the STARS id decoding to stream-expand mode (FORMATS.md §5.6).
            const StreamStats st = forEachRecord(m_stream, s.files, kCompactRecordSize,
                                                 [&](const unsigned char *) { m_streamExpand = true; });
            m_out.reportStream(name, st, kCompactRecordSize);
        } else if (const auto m = opInfoRe.match(s.stream); m.hasMatch()) {
            readOpInfo(name, m.captured(3) + m.captured(4), s.files);
        } else if (!hashRe.match(s.stream).hasMatch() && !typeRe.match(s.stream).hasMatch() &&
                   !isGeTaskStream(s.stream)) {
            m_out.notDecoded(name, s.files);
        }
    }
}

void HostAssociation::readApiEvents(const QString &name, const QStringList &files,
                                    const QHash<QString, QString> &types)
{
    std::size_t bad = 0, unpaired = 0;
    std::map<std::tuple<int, std::uint32_t, std::uint32_t, std::uint32_t, std::uint64_t>, std::uint64_t> open;
    auto add = [&](const ApiEventRecord &rec, std::uint64_t begin, std::uint64_t end) {
        if (rec.level == 20500) { // msproftx push/pop / range APIs: the MsprofTx layer
            QString tx = m_hashes.value(QString::number(rec.itemId));
            if (tx.isEmpty())
                tx = types.value(QStringLiteral("%1_%2").arg(rec.level).arg(rec.type),
                                 QStringLiteral("tx %1").arg(rec.type));
            m_out.addHostSlice("MsprofTx", rec.threadId, m_host.toLocal(begin), m_host.toLocal(end), tx,
                               "tx");
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
            api = m_hashes.value(QString::number(rec.itemId), api);
        if (api.isEmpty())
            api = QStringLiteral("type %1").arg(rec.type);
        const TimeNs start = m_host.toLocal(begin);
        const int thread =
            m_out.addHostSlice("CANN", rec.threadId, start, m_host.toLocal(end), QLatin1String(prefix) + api);
        m_cann.addApi({rec.level, rec.threadId, begin, end, rec.itemId, thread, start});
    };
    const StreamStats st = forEachRecord(m_stream, files, kApiEventRecordSize, [&](const unsigned char *r) {
        ApiEventRecord rec;
        if (!decodeApiEvent(r, rec)) {
            ++bad;
            return;
        }
        if (!rec.isEvent()) {
            add(rec, rec.begin, rec.end);
            return;
        }
        const auto key = std::make_tuple(int(rec.level), rec.type, rec.threadId, rec.requestId, rec.itemId);
        if (const auto it = open.find(key); it != open.end()) {
            add(rec, it->second, rec.begin);
            open.erase(it);
        } else {
            open.emplace(key, rec.begin);
        }
    });
    unpaired = open.size();
    m_out.reportStream(name, st, kApiEventRecordSize);
    m_out.warnBadMagic(name, bad);
    if (unpaired)
        m_out.warn(QCoreApplication::translate("Parser", "%1: %2 without its partner dropped")
                       .arg(name, plural(unpaired, "event record")));
}

// (un)aging.compact.task_track: the submitted tasks, whose kernel names name the device tasks (§5.3).
void HostAssociation::readTaskTrack(const QString &name, const QStringList &files)
{
    std::size_t bad = 0, skipped = 0;
    const StreamStats st = forEachRecord(m_stream, files, kTaskTrackRecordSize, [&](const unsigned char *r) {
        TaskTrackRecord rec;
        if (!decodeTaskTrack(r, rec)) {
            ++bad;
            return;
        }
        if (rec.taskType == kFlipTaskType && rec.deviceType == 0)
            m_hostFlips[rec.deviceId].addFlip(rec.streamId, m_host.toLocal(rec.timeStamp), rec.taskId);
        if (rec.taskType == kFlipTaskType || rec.taskType == kMaintenanceTaskType || rec.deviceType != 0) {
            ++skipped; // flips and maintenance tasks are no device tasks; DPU tasks are not decoded
            return;
        }
        m_cann.addTask(rec);
        ++m_out.info().hostTaskRecords;
    });
    m_out.reportStream(name, st, kTaskTrackRecordSize);
    m_out.warnBadMagic(name, bad);
    (void)skipped;
}

// Legacy GE task descriptions (G1 raw data, FORMATS.md §5.4) in a host or device data folder: each
// becomes a submission whose op is already known, found by the device tasks like a task_track one.
void HostAssociation::readGeTaskDescs(const QString &dir)
{
    static const QRegularExpression taskRe(QStringLiteral("^Framework\\.(host\\.)?task_desc_info\\.(\\d+)$"));
    static const QRegularExpression hashRe(QStringLiteral("^Framework\\.hash_dic(\\.\\d+)?$"));
    const std::vector<SliceStreamFiles> &streams = m_listing.streamsIn(dir);
    for (const SliceStreamFiles &s : streams)
        if (hashRe.match(s.stream).hasMatch()) {
            const QHash<QString, QString> dict = dictionary(dir, s.files);
            for (auto it = dict.begin(); it != dict.end(); ++it)
                m_hashes.insert(it.key(), it.value());
        }
    for (const SliceStreamFiles &s : streams) {
        const auto m = taskRe.match(s.stream);
        if (!m.hasMatch())
            continue;
        const std::uint16_t device = static_cast<std::uint16_t>(m.captured(2).toUInt() & 0x0FFF);
        const QString name = m_out.streamName(dir, s.stream);
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
                ++m_out.info().hostTaskRecords;
            });
        m_out.reportStream(name, st, kGeTaskDescRecordSize);
        m_out.warnBadMagic(name, bad);
    }
}

// node_basic_info / hccl_op_info (compact, 64 B) and tensor_info / hccl_info (additional, 256 B).
void HostAssociation::readOpInfo(const QString &name, const QString &family, const QStringList &files)
{
    if (family == QLatin1String("node_basic_info"))
        readAssociated(name, files, kCompactRecordSize, decodeNodeBasicInfo,
                       &CannAssociation::addNodeBasicInfo);
    else if (family == QLatin1String("hccl_op_info"))
        readAssociated(name, files, kCompactRecordSize, decodeHcclOpInfo, &CannAssociation::addHcclOpInfo);
    else if (family == QLatin1String("tensor_info"))
        readAssociated(name, files, kAdditionalRecordSize, decodeTensorInfo, &CannAssociation::addTensorInfo);
    else
        readAssociated(name, files, kAdditionalRecordSize, decodeHcclInfo, &CannAssociation::addHcclInfo);
}

// One stream of one host record family, each record decoded and handed to the association.
template <typename Info>
void HostAssociation::readAssociated(const QString &name, const QStringList &files, std::size_t size,
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
    m_out.reportStream(name, st, size);
    m_out.warnBadMagic(name, bad);
}

// After every host stream was read: nest the API ranges, attach op and HCCL records, resolve each
// submitted task, and index the submissions for the device tasks (by device, stream, task, time).
void HostAssociation::associate()
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
        m_out.warn(QCoreApplication::translate(
                       "Parser", "host data: %1 outside any API range of its thread (no op to attach to)")
                       .arg(plural(m_cann.recordsOutsideRanges(), "op/task record")));
}

// (un)aging.additional.msproftx: marks and ranges with their messages (FORMATS.md §5.3).
void HostAssociation::readMsprofTx(const QString &name, const QStringList &files)
{
    MsprofTxCollector collector;
    const StreamStats st = forEachRecord(m_stream, files, kMsprofTxRecordSize,
                                         [&](const unsigned char *r) { collector.add(r); });
    const std::vector<TxEvent> events = collector.finish();
    for (const TxEvent &e : events)
        m_out.addHostSlice("MsprofTx", e.threadId, m_host.toLocal(e.startTime), m_host.toLocal(e.endTime),
                           e.message.isEmpty() ? QStringLiteral("mark %1").arg(e.markId) : e.message,
                           e.endTime == e.startTime ? "mark" : "tx");
    m_out.reportStream(name, st, kMsprofTxRecordSize);
    const MsprofTxCollector::Stats &c = collector.stats();
    QStringList parts;
    if (c.badMagic)
        parts << QCoreApplication::translate("Parser", "%1 with a wrong magic skipped")
                     .arg(plural(c.badMagic, "record"));
    if (c.missingSegments)
        parts << QCoreApplication::translate("Parser", "%1 with missing message segments (kept as read)")
                     .arg(plural(c.missingSegments, "event"));
    if (c.reversed)
        parts << QCoreApplication::translate("Parser", "%1 ending before it starts shown as marks")
                     .arg(plural(c.reversed, "range"));
    if (!parts.isEmpty())
        m_out.warn(QStringLiteral("%1: %2").arg(name, parts.join(QStringLiteral("; "))));
}

} // namespace at::raw
