#pragma once

#include "ReopenableArgsReader.h"

#include <QString>

#include <memory>

namespace at {

// The args reader of a JSON source a snapshot reopened (the JSON reader's reopenArgs). Its file is opened
// (and a .zst/.gz decompressed, as the cold load does) on Qt's global thread pool from the moment it is
// made, so reopening stays fast and the first click on a slice waits only for what is left of that.
std::shared_ptr<const ReopenableArgsReader> reopenJsonArgs(const QString &path);

} // namespace at
