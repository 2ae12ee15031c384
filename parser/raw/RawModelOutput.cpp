#include "RawModelOutput.h"

#include "RawFolderFiles.h"
#include "folder/ProfileLayout.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <cstring>

namespace at::raw {

RawModelOutput::RawModelOutput(const DataSource &source, TraceBuilder &builder, RawReadInfo &info)
    : m_source(source), m_builder(builder), m_info(info), m_args(std::make_shared<RawArgsReader>())
{
    m_sourceIndex =
        m_builder.addSource(source.profPath.isEmpty() ? source.rootPath : source.profPath, m_args);
}

QString RawModelOutput::shortPath(const QString &path) const
{
    const QString root = m_source.profPath.isEmpty() ? m_source.rootPath : m_source.profPath;
    return path.startsWith(root) ? QFileInfo(root).fileName() + path.mid(root.size()) : path;
}

QString RawModelOutput::streamName(const QString &dir, const QString &stream) const
{
    return shortPath(QDir(dir).filePath(stream));
}

void RawModelOutput::warnBadMagic(const QString &stream, std::size_t bad)
{
    if (bad)
        warn(QCoreApplication::translate("Parser", "%1: %2 with a wrong magic skipped")
                 .arg(stream, plural(bad, "record")));
}

void RawModelOutput::reportStream(const QString &name, const StreamStats &s, std::size_t recordSize)
{
    for (const QString &u : s.unreadable) {
        warn(u);
        m_info.decodeProblems << u;
    }
    if (s.trailingBytes)
        warn(QCoreApplication::translate(
                 "Parser", "%1: truncated: the last %2 bytes are not a whole %3-byte record; the %4 whole "
                           "records before them were decoded")
                 .arg(name)
                 .arg(s.trailingBytes)
                 .arg(recordSize)
                 .arg(s.records));
    m_info.recordsDecoded += s.records;
    if (!s.stopped)
        m_info.streamsComplete << name;
    else if (s.records == 0 && s.stoppedAt == 0)
        m_info.streamsNotRead << name;
    else
        m_info.streamsCut << QCoreApplication::translate("Parser", "%1 after %2 records (byte %3 of %4)")
                                 .arg(name)
                                 .arg(s.records)
                                 .arg(s.stoppedAt)
                                 .arg(s.streamBytes);
}

void RawModelOutput::reportPairing(const QString &name, const PairingStats &p, const RollingCounter &c)
{
    QStringList parts;
    if (c.gaps)
        parts << QCoreApplication::translate("Parser",
                                             "lost records: the rolling cnt skipped %1 times (%2 missing)")
                     .arg(c.gaps)
                     .arg(plural(c.missing, "record"));
    if (p.badMagic)
        parts << QCoreApplication::translate("Parser", "%1 with a wrong magic skipped")
                     .arg(plural(p.badMagic, "record"));
    if (p.endsWithoutStart)
        parts << QCoreApplication::translate("Parser", "%1 without a start dropped")
                     .arg(plural(p.endsWithoutStart, "end record"));
    if (p.startsNeverEnded)
        parts << QCoreApplication::translate("Parser", "%1 never ended dropped")
                     .arg(plural(p.startsNeverEnded, "start record"));
    if (p.startsReplaced)
        parts << QCoreApplication::translate("Parser", "%1 replaced by a later start of the same task")
                     .arg(plural(p.startsReplaced, "start record"));
    if (!parts.isEmpty())
        warn(QStringLiteral("%1: %2").arg(name, parts.join(QStringLiteral("; "))));
}

void RawModelOutput::notDecoded(const QString &name, const QStringList &files)
{
    qint64 bytes = 0;
    for (const QString &f : files)
        bytes += QFileInfo(f).size();
    m_info.notDecoded << QCoreApplication::translate("Parser", "%1: %2, %3 bytes")
                             .arg(name, plural(files.size(), "slice"))
                             .arg(bytes);
}

int RawModelOutput::addHostArgs(std::vector<std::pair<QString, QString>> args)
{
    const int index = static_cast<int>(m_args->hostArgs.size());
    m_args->hostArgs.push_back(std::move(args));
    return index;
}

int RawModelOutput::hostThread(const char *processName, std::uint32_t tid)
{
    const LaneKey pid = m_builder.textKey(processName);
    const int process = m_builder.process(pid);
    m_builder.setProcessName(process, m_builder.strings().intern(processName));
    return lane(pid, m_builder.numberKey(tid), QStringLiteral("Thread %1").arg(tid));
}

int RawModelOutput::addHostSlice(const char *processName, std::uint32_t tid, TimeNs start, TimeNs end,
                                 const QString &name, const char *category)
{
    const int thread = hostThread(processName, tid);
    RawSliceArgs a;
    a.device = false;
    a.threadId = tid;
    addSlice(thread, start, std::max<TimeNs>(0, saturatingSub(end, start)), intern(name),
             m_builder.strings().intern(category), addArgs(a));
    if (std::strcmp(processName, "MsprofTx") == 0)
        ++m_info.txEvents;
    else
        ++m_info.hostApis;
    return thread;
}

int RawModelOutput::deviceProcess(const QString &name, int device, LaneKey *pid)
{
    *pid = m_builder.textKey(QStringLiteral("%1 %2").arg(name).arg(device).toStdString());
    const int process = m_builder.process(*pid);
    m_builder.setProcessName(process, intern(name));
    m_builder.setProcessLabels(process, intern(QStringLiteral("Device %1").arg(device)));
    return process;
}

int RawModelOutput::lane(LaneKey pid, LaneKey tid, const QString &name)
{
    const int thread = m_builder.thread(pid, tid);
    m_builder.setThreadName(thread, intern(name));
    return thread;
}

int RawModelOutput::streamLane(LaneKey pid, std::uint32_t stream)
{
    const int thread = lane(pid, m_builder.numberKey(stream), QStringLiteral("Stream %1").arg(stream));
    m_builder.setThreadSortIndex(thread, stream);
    return thread;
}

void RawModelOutput::finish()
{
    m_builder.counts().complete += m_slices;
}

} // namespace at::raw
