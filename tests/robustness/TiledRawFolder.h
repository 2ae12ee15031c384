#pragma once

// A large multi-family raw PROF_* folder for the memory-limit tests (issue 21): the configuration files of a
// real msprof run (samples/msprof_ut_raw_meta_files: info.json, sample.json, start_info, host_start.log) and
// one block of records of every decoded family, written from the documented layouts (RawRecordWriter.h,
// FORMATS.md §5) and tiled `tiles` times with shifted times and task ids into slice files of `sliceBytes`.
// Every tile holds kTasksPerTile device tasks; each task has HWTS start/end records, an AI Core PMU record,
// a host api_event Node range and Runtime range, a task_track submission and a node_basic_info record; every
// 16th task an AI CPU record, every 64th an msproftx mark, every 1,024th a ts_track step window.

#include "RawRecordWriter.h"

#include <QDir>
#include <QFile>
#include <QString>

#include <cstdint>
#include <map>
#include <memory>

namespace at::test {

inline constexpr int kTasksPerTile = 4096;
inline constexpr std::uint16_t kStepStartTag = 60000; // ts_track step trace tag ids (TsTrack.h)
inline constexpr std::uint16_t kStepEndTag = 60001;
inline const char *const kTiledProf = "PROF_000001_20220729204439087_FMDBBBNDOAKFEOIA";
inline const char *const kRawMetaSample =
    "/work/shared/samples/msprof_ut_raw_meta_files/test/msprof_python/ut/"
    "testcase/msconfig";

// Writes the records of one stream into `<dir>/<stream>.slice_<k>` files of at most sliceBytes each (a
// record may straddle two slices, as the profiler writes them).
class SliceWriter
{
public:
    SliceWriter(QString dir, QString stream, qint64 sliceBytes)
        : m_dir(std::move(dir)), m_stream(std::move(stream)), m_sliceBytes(sliceBytes)
    {}
    ~SliceWriter() { flush(true); }
    void add(const QByteArray &record)
    {
        m_buffer += record;
        if (m_buffer.size() >= (1 << 20))
            flush(false);
    }
    qint64 bytes() const { return m_total + m_buffer.size(); }

private:
    void flush(bool last)
    {
        qsizetype at = 0;
        while (at < m_buffer.size()) {
            if (!m_file) {
                m_file = std::make_unique<QFile>(
                    QDir(m_dir).filePath(QStringLiteral("%1.slice_%2").arg(m_stream).arg(m_slice++)));
                if (!m_file->open(QIODevice::WriteOnly))
                    qFatal("cannot write %s", qPrintable(m_file->fileName()));
                m_inFile = 0;
            }
            const qint64 n = std::min<qint64>(m_sliceBytes - m_inFile, m_buffer.size() - at);
            m_file->write(m_buffer.constData() + at, n);
            at += n;
            m_inFile += n;
            m_total += n;
            if (m_inFile == m_sliceBytes)
                m_file.reset();
        }
        m_buffer.clear();
        if (last)
            m_file.reset();
    }

    QString m_dir, m_stream;
    qint64 m_sliceBytes;
    QByteArray m_buffer;
    std::unique_ptr<QFile> m_file;
    qint64 m_inFile = 0, m_total = 0;
    int m_slice = 0;
};

struct TiledRawFolder
{
    QString prof;                          // the PROF_* folder
    std::map<QString, qint64> streamBytes; // "host/data/unaging.api_event.data" -> bytes
    qint64 totalBytes = 0;
};

// Copies one configuration file of the real sample, or fails the whole test run.
inline void copyMeta(const QString &name, const QString &to)
{
    QFile::remove(to);
    if (!QFile::copy(QStringLiteral("%1/%2").arg(QLatin1String(kRawMetaSample), name), to))
        qFatal("cannot copy %s to %s", qPrintable(name), qPrintable(to));
}

// stars: an Ascend 910B device (platform_version 5: STARS ACSQ task log and FFTS+ context PMU) instead of the
// sample's Ascend 310 (HWTS task log and aicore.data PMU).
inline TiledRawFolder writeTiledRawFolder(const QString &root, int tiles, bool stars = false,
                                          qint64 sliceBytes = 8 << 20)
{
    TiledRawFolder out;
    out.prof = QDir(root).filePath(QLatin1String(kTiledProf));
    const QString host = out.prof + QStringLiteral("/host/data");
    const QString dev = out.prof + QStringLiteral("/device_0/data");
    QDir().mkpath(host);
    QDir().mkpath(dev);
    // The real run's files: host clock (CPU at 100 MHz, monotonic 0 at cntvct 0), device info (Ascend 310,
    // hwts_frequency 100 MHz), the PMU events of sample.json.
    copyMeta(QStringLiteral("info.json"), host + QStringLiteral("/info.json"));
    copyMeta(QStringLiteral("start_info"), host + QStringLiteral("/start_info"));
    copyMeta(QStringLiteral("host_start.log"), host + QStringLiteral("/host_start.log"));
    copyMeta(QStringLiteral("info.json"), dev + QStringLiteral("/info.json.0"));
    if (stars) {
        QFile info(dev + QStringLiteral("/info.json.0"));
        if (!info.open(QIODevice::ReadWrite))
            qFatal("cannot edit info.json.0");
        const QByteArray edited =
            info.readAll().replace("\"platform_version\": \"0\"", "\"platform_version\": \"5\"");
        info.resize(0);
        info.write(edited);
    }
    copyMeta(QStringLiteral("start_info"), dev + QStringLiteral("/start_info.0"));
    copyMeta(QStringLiteral("sample.json"), dev + QStringLiteral("/sample.json"));
    writeFile(dev + QStringLiteral("/dev_start.log.0"), "[Device]\nclock_monotonic_raw: 0\ncntvct: 0\n");
    writeFile(host + QStringLiteral("/unaging.additional.hash_dic.slice_0"),
              "101:Conv2D\n102:MatMul\n103:te_conv2d_kernel\n");
    writeFile(host + QStringLiteral("/unaging.additional.type_info_dic.slice_0"), "5000_1:launch\n");

    {
        SliceWriter hwts(dev, stars ? QStringLiteral("stars_soc.data.0") : QStringLiteral("hwts.data.0"),
                         sliceBytes);
        SliceWriter aicore(
            dev, stars ? QStringLiteral("ffts_profile.data.0") : QStringLiteral("aicore.data.0"), sliceBytes);
        SliceWriter aiCpu(dev, QStringLiteral("aicpu.data.0"), sliceBytes);
        SliceWriter tsTrack(dev, QStringLiteral("ts_track.data.0"), sliceBytes);
        SliceWriter api(host, QStringLiteral("unaging.api_event.data"), sliceBytes);
        SliceWriter track(host, QStringLiteral("unaging.compact.task_track"), sliceBytes);
        SliceWriter node(host, QStringLiteral("unaging.compact.node_basic_info"), sliceBytes);
        SliceWriter tx(host, QStringLiteral("unaging.additional.msproftx"), sliceBytes);
        const std::uint64_t pmu[8] = {10, 20, 30, 40, 50, 60, 70, 80};
        int cnt = 0;
        for (int tile = 0; tile < tiles; ++tile) {
            for (int k = 0; k < kTasksPerTile; ++k) {
                const std::uint64_t g = std::uint64_t(tile) * kTasksPerTile + std::uint64_t(k);
                const auto task = static_cast<std::uint16_t>(g & 0xFFFF);
                const auto stream = static_cast<std::uint32_t>(g % 8);
                // Device ticks at 100 MHz = host ns / 10 (both clocks start at 0): one task every 1 µs.
                const std::uint64_t start = 1000000 + g * 100, end = start + 60;
                if (stars) {
                    hwts.add(
                        acsqRecord(false, cnt++ & 15, 0, static_cast<std::uint16_t>(stream), task, start));
                    hwts.add(acsqRecord(true, cnt++ & 15, 0, static_cast<std::uint16_t>(stream), task, end));
                    aicore.add(contextPmuRecord(cnt & 15, static_cast<std::uint16_t>(stream), task, 0, 0, 0,
                                                1000 + g % 97, pmu, start + 1, end - 1));
                } else {
                    hwts.add(hwtsRecord(0, cnt++ & 15, 0, task, start, stream));
                    hwts.add(hwtsRecord(1, cnt++ & 15, 0, task, end, stream));
                    aicore.add(aicoreRecord(task, stream, 1000 + g % 97, pmu));
                }
                const std::uint64_t hostStart = start * 10 - 500;
                api.add(apiEventRecord(10000, 0, 7, hostStart, hostStart + 400, 101 + g % 2));
                api.add(apiEventRecord(5000, 1, 7, hostStart + 100, hostStart + 300, 0));
                track.add(taskTrackRecord(7, hostStart + 200, 0, static_cast<std::uint16_t>(stream), task, 0,
                                          0, 103));
                node.add(nodeBasicInfoRecord(7, hostStart + 50, 101 + g % 2, 0, 102, 8, false));
                if (g % 16 == 0)
                    aiCpu.add(aiCpuRecord(9, task, start, start + 50));
                if (g % 64 == 0)
                    tx.add(msprofTxRecord(7, 0, hostStart, hostStart, g, "mark"));
                if (g % 1024 == 0)
                    tsTrack.add(tsTrackStepRecord(start, g / 1024, 1, kStepStartTag));
                if (g % 1024 == 1023)
                    tsTrack.add(tsTrackStepRecord(end, g / 1024, 1, kStepEndTag));
            }
        }
        for (const auto &[name, w] : std::initializer_list<std::pair<const char *, const SliceWriter *>>{
                 {stars ? "device_0/data/stars_soc.data.0" : "device_0/data/hwts.data.0", &hwts},
                 {stars ? "device_0/data/ffts_profile.data.0" : "device_0/data/aicore.data.0", &aicore},
                 {"device_0/data/aicpu.data.0", &aiCpu},
                 {"device_0/data/ts_track.data.0", &tsTrack},
                 {"host/data/unaging.api_event.data", &api},
                 {"host/data/unaging.compact.task_track", &track},
                 {"host/data/unaging.compact.node_basic_info", &node},
                 {"host/data/unaging.additional.msproftx", &tx}}) {
            out.streamBytes[QLatin1String(name)] = w->bytes();
            out.totalBytes += w->bytes();
        }
    }
    return out;
}

} // namespace at::test
