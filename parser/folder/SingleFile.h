#pragma once

// A file opened directly (§1.7 last row): the readers judge its name, else its first bytes
// (folder/InputFormat.h).

#include "folder/InputFormat.h"
#include "folder/ProfileLayout.h"

#include <optional>

namespace at {

// Returns the source for a timeline file, or nullopt plus a diagnostic (not a timeline, unreadable).
// Only reads the first MiB of files whose name no reader claims or refuses.
// The source of a file a reader claimed: its format, paths and the rank its folder names.
DataSource claimedFileSource(const QString &path, const FileClaim &claim);

std::optional<DataSource> classifySingleFile(const QString &path, const InputFormats &formats,
                                             QList<Diagnostic> &diagnostics);

} // namespace at
