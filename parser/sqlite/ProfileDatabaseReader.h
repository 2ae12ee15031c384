#pragma once

#include "TraceBuilder.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <atomic>

namespace at {

// What reading one database found, for the loader's collection info.
struct DatabaseReadInfo
{
    std::size_t slices = 0;
    std::size_t kernelRows = 0;
    std::size_t counterSamples = 0;
    QStringList metricHeaders; // kernel metric columns, named like kernel_details.csv headers
    QString metricGroup;       // from the metric names, e.g. "PipeUtilization"
    // chip, hostname, rank, device, collection start/end, database schema
    QList<QPair<QString, QString>> properties;
};

// Reads a profiler database (msprof_<n>.db, ascend_pytorch_profiler[_<rank>].db; FORMATS.md §6) into the
// builder's current group: device tasks, CANN / PyTorch APIs, communication ops and tasks, MSTX events,
// overlap analysis, counters, flows, the kernel table with TASK_PMU_INFO metrics and STEP_TIME steps.
// The file is opened read-only and immutable and never changed. Missing tables or columns and read
// errors become one warning naming the file and what was missing; whatever could be read is kept.
// Returns false, with an error naming the file, when it is not a readable SQLite database at all.
// `cancel`, when given, is checked every 1,024 rows; the rows read before it was set are kept.
bool readProfileDatabase(const QString &path, TraceBuilder &builder, DatabaseReadInfo *info, QString *error,
                         const std::atomic<bool> *cancel = nullptr);

} // namespace at
