// Writes fuzz_snapshot seeds: for each input, the whole snapshot file (<OUT>/<n>.atsnap) and its bare
// payload (<OUT>/<n>.payload), made by the same encoder the cache uses. Run by run_fuzzers.sh.
//
// usage: make_snapshot_seeds OUT INPUT...
#include "TraceLoader.h"
#include "snapshot/SnapshotCache.h"
#include "snapshot/SnapshotCodec.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>

#include <cstdio>

namespace {
bool save(const QString &path, const std::string &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) &&
           f.write(bytes.data(), static_cast<qint64>(bytes.size())) == static_cast<qint64>(bytes.size());
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s OUT INPUT...\n", argv[0]);
        return 2;
    }
    qputenv("AT_NO_SNAPSHOT", "1");
    const QDir out(QString::fromLocal8Bit(argv[1]));
    out.mkpath(QStringLiteral("."));
    int written = 0;
    for (int i = 2; i < argc; ++i) {
        const QString input = QString::fromLocal8Bit(argv[i]);
        at::LoadControl control;
        const at::LoadResult result = at::loadTrace(input, at::environmentLoadOptions(), control);
        if (!result.model)
            continue;
        QString reason;
        const at::snapshot::SnapshotKey key =
            at::snapshot::keyFor(*result.model, input, at::PreferredSource::Text);
        const auto file = at::snapshot::encodeSnapshot(*result.model, key, &reason);
        const auto payload = at::snapshot::encodePayload(*result.model, &reason);
        if (!file || !payload)
            continue;
        written += save(out.filePath(QStringLiteral("%1.atsnap").arg(i)), *file);
        written += save(out.filePath(QStringLiteral("%1.payload").arg(i)), *payload);
    }
    std::printf("%d seeds\n", written);
    return written > 0 ? 0 : 1;
}
