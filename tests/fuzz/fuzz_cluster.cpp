// libFuzzer target: at::fuzz::fuzzCluster (FuzzClusterEntryPoint.h). Run by tests/fuzz/run_fuzzers.sh.
#include "FuzzClusterEntryPoint.h"

#include <QCoreApplication>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static QCoreApplication app(*argc, *argv); // plugins (QSQLITE), temp paths
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    at::fuzz::fuzzCluster(data, size);
    return 0;
}
