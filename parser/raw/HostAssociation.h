#pragma once

// The host half of a raw profile (FORMATS.md §5.3): reads host/data (clock, AscendCL and api_event API
// slices, msproftx, task_track submissions, op and HCCL records, legacy GE task descriptions), associates
// them (CannAssociation), and then answers for each device task which submission it executes.

#include "CannAssociation.h"
#include "FlipBatches.h"
#include "HostTaskText.h"
#include "RawFolderFiles.h"
#include "RawModelOutput.h"
#include "TaskTrack.h"

#include <QHash>
#include <QString>

#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>

namespace at::raw {

class HostAssociation
{
public:
    HostAssociation(RawModelOutput &out, StreamControl control, const SliceListing &listing)
        : m_out(out), m_stream(control), m_listing(listing)
    {}
    HostAssociation(const HostAssociation &) = delete;
    HostAssociation &operator=(const HostAssociation &) = delete;

    // Reads the host folder (may be empty) and the GE task descriptions of every data folder, then
    // associates the host records: needs every host family read first.
    void read(const QString &hostDir, const QStringList &dataDirs);

    const HostClock &clock() const { return m_host; }
    bool streamExpand() const { return m_streamExpand; } // an expand_stream_spec record was read
    const CannAssociation &cann() const { return m_cann; }
    const HostTaskText &text() const { return m_text; }
    bool hasSubmissions() const { return !m_hostTasks.empty(); }
    // The task_track flips of a device (local time), or null.
    const FlipBatches *flipsOf(int device) const;
    // The submission a device task executes (index into cann().tasks()): same (device, stream, task,
    // batch) when the batch is known (>= 0), else the latest of (device, stream, task) at or before start.
    std::optional<std::size_t> submissionOf(int device, std::uint32_t stream, std::uint32_t task,
                                            std::int32_t batch, TimeNs start) const;
    // The index of the host args of a submission (RawSliceArgs::hostArgs), made once per submission.
    int hostArgsOf(std::size_t submission);

private:
    void readHostConfig(const QString &hostDir);
    // readDictionary with the load's stop; a dictionary cut by a stop is listed as such.
    QHash<QString, QString> dictionary(const QString &dir, const QStringList &files);
    void readHost(const QString &dir);
    void readApiEvents(const QString &name, const QStringList &files, const QHash<QString, QString> &types);
    void readTaskTrack(const QString &name, const QStringList &files);
    void readGeTaskDescs(const QString &dir);
    void readOpInfo(const QString &name, const QString &family, const QStringList &files);
    template <typename Info>
    void readAssociated(const QString &name, const QStringList &files, std::size_t size,
                        bool (*decode)(const unsigned char *, HostRecordHeader &, Info &),
                        void (CannAssociation::*add)(const HostRecordHeader &, const Info &));
    void readMsprofTx(const QString &name, const QStringList &files);
    void associate();

    RawModelOutput &m_out;
    StreamControl m_stream; // cancel flag and progress counter of every record stream (forEachRecord)
    const SliceListing &m_listing;
    HostClock m_host;
    QHash<QString, QString> m_hashes;      // hash_dic of the host data
    bool m_streamExpand = false;           // an expand_stream_spec record was read
    CannAssociation m_cann;                // host API ranges, op and HCCL records, submissions
    HostTaskText m_text{m_cann, m_hashes}; // names and args of the host data
    HostTaskIndex m_hostTasks;             // submissions: payload = index into m_cann.tasks() + 1
    HostTaskIndex m_hostTasksByBatch;      // the same keyed by (device, stream, task | batch << 16)
    std::map<std::uint32_t, FlipBatches> m_hostFlips;     // per device: task_track flips (local time)
    std::unordered_map<std::size_t, int> m_hostArgsIndex; // submission -> RawArgsReader::hostArgs
};

// Framework.task_desc_info / Framework.hash_dic streams: read by HostAssociation wherever they are.
bool isGeTaskStream(const QString &stream);

} // namespace at::raw
