#pragma once

#include <QString>

namespace at {

// Why PATH cannot be opened as a trace file or folder, said plainly and naming it, or empty when it
// may be (it need not exist: the loader says "no such file or folder"). Checks the type without
// opening anything, so a FIFO never blocks: a FIFO, socket or device, a dangling symlink, a symlink
// into /proc or /sys (virtual files that report size 0 or never end), and a path the system cannot
// resolve because it is longer than PATH_MAX or has a name longer than NAME_MAX.
QString inputPathProblem(const QString &path);

} // namespace at
