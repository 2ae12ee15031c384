#pragma once

// The small files of a raw PROF_* data folder that put its records on a clock or name them (start_info,
// host_start.log, hash dictionaries), and the slice streams of every data folder, each folder listed once.

#include "SliceFiles.h"
#include "TimeConverter.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <map>
#include <optional>
#include <vector>

namespace at::raw {

// The first file of `dir` named `prefix*` that is no `.done`/`.complete` companion, or empty.
QString firstFileStartingWith(const QString &dir, const QString &prefix);
// start_info's monotonic → local offset (§5.10 step 5); nullopt when missing or unreadable.
std::optional<std::int64_t> startInfoOffset(const QString &path);
// host_start.log: hostMono_ns = clock_monotonic_raw (+ cntvct_diff × 1000 / hostFreq, §5.10 step 1).
bool readHostStartLog(const QString &path, const std::optional<Frequency> &hostFreq, std::int64_t *monoNs,
                      std::uint64_t *cntvct);
// `key: value` lines of hash_dic / type_info_dic files. Once the load is stopped (control) it ends within
// 65,536 lines; *stoppedAfter (when given) is then the number of lines read, else it is left alone.
QHash<QString, QString> readDictionary(const QStringList &files, const StreamControl &control = {},
                                       std::size_t *stoppedAfter = nullptr);
// "1 record", "2 records".
QString plural(std::size_t n, const char *word);

// The host's clock (info.json CPU frequency, host_start.log, start_info).
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

// The slice streams of each raw data folder, listed once when made.
class SliceListing
{
public:
    explicit SliceListing(const QStringList &dirs);
    const std::vector<SliceStreamFiles> &streamsIn(const QString &dir) const;

private:
    std::map<QString, std::vector<SliceStreamFiles>> m_streams;
};

} // namespace at::raw
