#pragma once

#include <QList>
#include <QPair>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <optional>

namespace at {

// One entry of a Kineto trace's "deviceProperties" (FORMATS.md §10.1).
struct KinetoDevice
{
    std::int64_t id = -1;
    QString name;
    std::int64_t totalGlobalMemBytes = 0;
    std::int64_t computeMajor = -1, computeMinor = -1;
    std::int64_t numSms = 0;
};

// The top-level keys of a PyTorch profiler (Kineto) GPU trace other than "traceEvents" (FORMATS.md
// §10.1). libkineto writes some of them after the event array (baseTimeNanoseconds in mid-2024 files,
// distributedInfo today), so they are read twice: the keys before the array when the trace is
// recognised, and all of them once the parser found where the array ends.
struct KinetoMetadata
{
    std::optional<std::int64_t> baseTimeNs; // "baseTimeNanoseconds": ts are relative to it
    std::optional<std::int64_t> schemaVersion;
    QString displayTimeUnit;
    QString traceName;
    QList<QPair<QString, QString>> distributed; // distributedInfo as collection rows (backend, rank, ...)
    std::optional<std::int64_t> rank, worldSize;
    QList<KinetoDevice> devices;
    QString problem; // why the keys could not be read (the events are read all the same)
};

// True for a Kineto trace: a top-level object whose first MiB shows a Kineto key (schemaVersion,
// deviceProperties, baseTimeNanoseconds, distributedInfo) or Kineto event categories (cpu_op,
// cuda_runtime, kernel, ac2g). torch_npu and msprof write arrays (FORMATS.md §10.1).
bool looksLikeKinetoTrace(const char *data, std::size_t size);

// Reads the keys before "traceEvents" and, when eventArrayEnd (one past the array's ']') is known, the
// keys after it. Only the keys are parsed: the events are skipped, whatever their size.
KinetoMetadata readKinetoMetadata(const char *data, std::size_t size, std::size_t eventArrayEnd = 0);

} // namespace at
