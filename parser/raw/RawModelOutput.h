#pragma once

// What a raw profile decode writes into the model, in one place: the source and its args table, the
// host and device lanes, the slices (counted for RawReadInfo and the event counts) and the warnings
// about what was read (names shortened to the PROF folder).

#include "DeviceTask.h"
#include "RawArgs.h"
#include "RawProfileReader.h"
#include "SliceFiles.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace at::raw {

class RawModelOutput
{
public:
    RawModelOutput(const DataSource &source, TraceBuilder &builder, RawReadInfo &info);

    TraceBuilder &builder() { return m_builder; }
    RawReadInfo &info() { return m_info; }
    std::uint32_t sourceIndex() const { return m_sourceIndex; }
    std::size_t slices() const { return m_slices; }
    StringId intern(std::string_view text) { return m_builder.strings().intern(text); }
    StringId intern(const char *text) { return intern(std::string_view(text)); }
    StringId intern(const QString &text) { return intern(std::string_view(text.toStdString())); }

    // A path inside the PROF folder as "PROF_…/host/data/…"; `stream` names a slice stream of `dir`.
    QString shortPath(const QString &path) const;
    QString streamName(const QString &dir, const QString &stream) const;

    void warn(const QString &text) { m_builder.addWarning(text); }
    void warnBadMagic(const QString &stream, std::size_t bad);
    // The stream's unreadable slices and truncation; counts its records as decoded; notes where it ended
    // (read to the end, cut by a stop, not read) for the stop's warning.
    void reportStream(const QString &name, const StreamStats &s, std::size_t recordSize);
    // A stream left unread because the load was stopped before its family was decoded.
    void reportNotRead(const QString &name) { m_info.streamsNotRead << name; }
    void reportPairing(const QString &name, const PairingStats &p, const RollingCounter &c);
    // A stream of a family not decoded: named with its slices and bytes in the final warning.
    void notDecoded(const QString &name, const QStringList &files);

    // Args of the next slice; returns the source offset the slice is added with.
    std::uint64_t addArgs(RawSliceArgs args)
    {
        m_args->args.push_back(std::move(args));
        return m_args->args.size() - 1;
    }
    // Args the host adds to a device task, shared by every task of one submission: their index.
    int addHostArgs(std::vector<std::pair<QString, QString>> args);
    void addSlice(int thread, TimeNs start, TimeNs duration, StringId name, StringId category,
                  std::uint64_t argsIndex)
    {
        m_builder.addSlice(thread, start, duration, name, category,
                           makeSourceLocation(m_sourceIndex, argsIndex));
        ++m_slices;
    }
    // Counts the slices HcclLanes added itself.
    void addHcclSlices(std::size_t n) { m_slices += n; }
    // A slice on a host lane ("AscendCL", "CANN", "MsprofTx" thread `tid`); returns the lane's thread.
    int addHostSlice(const char *processName, std::uint32_t tid, TimeNs start, TimeNs end,
                     const QString &name, const char *category = "api");
    // A device's process "<name> <device>" labelled "Device <device>".
    int deviceProcess(const QString &name, int device, LaneKey *pid);
    // The thread `tid` of process `pid` named `name`.
    int lane(LaneKey pid, LaneKey tid, const QString &name);
    // A device process's "Stream <stream>" thread, sorted by the stream id.
    int streamLane(LaneKey pid, std::uint32_t stream);

    // Adds the slices to the event counts (once, at the end).
    void finish();

private:
    int hostThread(const char *processName, std::uint32_t tid);

    const DataSource &m_source;
    TraceBuilder &m_builder;
    RawReadInfo &m_info;
    std::shared_ptr<RawArgsReader> m_args;
    std::uint32_t m_sourceIndex = 0;
    std::size_t m_slices = 0;
};

} // namespace at::raw
