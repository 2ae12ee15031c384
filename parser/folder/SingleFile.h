#pragma once

// A file opened directly (§1.7 last row): classified by name, else by its first non-blank byte.

#include "folder/ProfileLayout.h"

#include <optional>

namespace at {

// Returns the source for a timeline file, or nullopt plus a diagnostic (not a timeline, unreadable).
// Only reads the first MiB of files whose name does not identify them.
std::optional<DataSource> classifySingleFile(const QString &path, QList<Diagnostic> &diagnostics);

} // namespace at
