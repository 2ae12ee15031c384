// libFuzzer target: at::fuzz::fuzzRaw (FuzzRawEntryPoint.h), the raw PROF_* record decoders. Run by
// tests/fuzz/run_fuzzers.sh, which first runs it with AT_FUZZ_WRITE_SEEDS=DIR to get synthetic seeds.
#include "FuzzRawEntryPoint.h"

#include <QCoreApplication>
#include <QFile>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static QCoreApplication app(*argc, *argv);
    const QString seedDir = qEnvironmentVariable("AT_FUZZ_WRITE_SEEDS");
    if (!seedDir.isEmpty()) {
        QDir().mkpath(seedDir);
        int n = 0;
        for (const QByteArray &seed : at::fuzz::raw_records::rawSeeds()) {
            QFile f(QDir(seedDir).filePath(QStringLiteral("seed_%1.bin").arg(n++)));
            if (f.open(QIODevice::WriteOnly))
                f.write(seed);
        }
        std::exit(0);
    }
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    at::fuzz::fuzzRaw(data, size);
    return 0;
}
