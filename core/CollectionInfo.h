#pragma once

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace at {

// How a profile was collected, as read from sample.json, info.json, profiler_info*.json,
// profiler_metadata.json and the summary CSV headers. Plain data: the Collection panel and
// `--summary` show it; readers live in parser/config.
struct CollectionInfo
{
    QString sourceLabel;                       // "Rank 0 / Device 0"
    QString profilerLevel;                     // "Level1", "l1", or empty
    QString metricGroup;                       // "PipeUtilization", ... or empty when none was collected
    QStringList metrics;                       // metric names of the group (e.g. vec_ratio, mac_ratio, ...)
    QStringList switchesOn;                    // "ACL_PROF_ACL_API", "ACL_PROF_TASK_TIME", ... that were on
    QStringList switchesOff;                   // those known to be off
    QList<QPair<QString, QString>> properties; // device, chip, frequencies, versions, schedule, ...
    QStringList warnings;                      // where the data may mislead (L2 cache on, early step, ...)
    QStringList files;                         // configuration files that were read

    bool isEmpty() const
    {
        return metricGroup.isEmpty() && switchesOn.isEmpty() && switchesOff.isEmpty() &&
               properties.isEmpty() && files.isEmpty();
    }
    QString property(const QString &key) const
    {
        for (const auto &p : properties)
            if (p.first == key)
                return p.second;
        return {};
    }
};

} // namespace at
