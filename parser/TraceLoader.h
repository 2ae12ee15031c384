#pragma once

#include "TraceModel.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <cstdint>
#include <memory>

namespace at {

// Shared between the loading thread and the GUI: progress to show, and a flag to stop.
struct LoadControl
{
    std::atomic<bool> cancel{false};
    std::atomic<std::uint64_t> bytesDone{0};
    std::atomic<std::uint64_t> bytesTotal{0};
};

struct LoadResult
{
    std::unique_ptr<TraceModel> model; // null on failure or cancel
    QString error;                     // names the file and what is wrong
    bool cancelled = false;
};

// Opens a trace file (.json, .json.zst, .json.gz, or a Qt resource path) and builds the model.
// Safe to call from a worker thread; the GUI and the command line both load through here.
LoadResult loadTrace(const QString &path, LoadControl &control);

} // namespace at
