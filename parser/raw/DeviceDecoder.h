#pragma once

// One device_<id>/data folder of a raw profile: its config and clock (info.json, sample.json,
// dev_start.log, start_info), the task logs (HWTS or STARS) paired into "Stream N" slices joined to their
// host submissions (names, args, HostToDevice flows, the HCCL layer), ts_track step windows and flips,
// AI CPU tasks, the AI Core frequency counter, and through PmuKernelRows the Kernels rows.

#include "DeviceContext.h"
#include "HostAssociation.h"
#include "PmuKernelRows.h"
#include "RawFolderFiles.h"
#include "RawModelOutput.h"
#include "TsTrack.h"

#include <QString>

#include <map>
#include <optional>
#include <vector>

namespace at::raw {

class DeviceDecoder
{
public:
    DeviceDecoder(RawModelOutput &out, HostAssociation &host, PmuKernelRows &rows, StreamControl control,
                  const SliceListing &listing, int device, const QString &dir, const QString &hostDir);
    void run();

private:
    using Streams = std::vector<const SliceStreamFiles *>;
    // The device's slice streams by record family.
    struct Families
    {
        Streams hwts, aicore, stars, ffts, tsTrack, aiCpu, freq;
        bool empty() const;
    };

    QString readConfig(std::optional<Frequency> *hwtsFrequency); // returns the platform_version
    static std::optional<Frequency> readHwtsFrequency(const QString &file, const QJsonObject &deviceInfo,
                                                      QString *problem);
    static constexpr std::int64_t kMaxHwtsFrequencyMHz = 100000;
    Families classify();
    void skipTaskLogs(const Families &f); // no hwts_frequency: the task logs cannot be put on the clock
    void setUpClock(const Frequency &hwtsFrequency);
    void pairTasks(const Families &f);
    void addTaskSlices();
    void readAicFrequency(const Streams &files);
    void readAiCpu(const Streams &files);
    void addTsTrackRecord(TsTrackCollector &collector, const unsigned char *r);
    void readTsTrack(const Streams &files);
    int streamThread(std::uint32_t stream);
    static QString taskTypeText(bool stars, std::uint8_t type);

    RawModelOutput &m_out;
    HostAssociation &m_host;
    PmuKernelRows &m_rows;
    StreamControl m_stream;
    const SliceListing &m_listing;
    QString m_hostDir;
    QString m_label;            // the folder as warnings name it
    QString m_frequencyProblem; // why there is no hwts_frequency (file, field, value)
    DeviceContext m_d;
    std::map<std::uint32_t, int> m_streamThreads;
};

} // namespace at::raw
