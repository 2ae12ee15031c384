#pragma once

namespace at {

// Raises the soft limit of open files (RLIMIT_NOFILE) to the hard limit, so that a folder of
// thousands of ranks does not fail with "Too many open files" under the common soft limit of 1024.
// Returns the soft limit in effect afterwards (-1 when it cannot be read).
long raiseOpenFileLimit();

} // namespace at
