// libFuzzer target: at::fuzz::fuzzSession (FuzzEntryPoints.h), session files. Run by
// tests/fuzz/run_fuzzers.sh.
#include "FuzzEntryPoints.h"

#include <QCoreApplication>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static QCoreApplication app(*argc, *argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    at::fuzz::fuzzSession(data, size);
    return 0;
}
