// libFuzzer target: at::fuzz::fuzzTruncate (FuzzTruncateEntryPoint.h). Run by tests/fuzz/run_fuzzers.sh.
#include "FuzzTruncateEntryPoint.h"

#include <QCoreApplication>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static QCoreApplication app(*argc, *argv); // plugins (QSQLITE), temp paths
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    at::fuzz::fuzzTruncate(data, size);
    return 0;
}
