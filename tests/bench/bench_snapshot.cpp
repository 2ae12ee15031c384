// Snapshot cache benchmark (issue 10): loadTrace() cold (AT_NO_SNAPSHOT=1) against loadTrace() reopening
// the snapshot of the same input, alternately in one process, medians and their ratio (the machines are
// noisy, so only the in-run ratio is comparable), plus the snapshot's size against the input's.
// Then the codec alone, in memory (best of 3 x repetitions, the figure least disturbed by other load):
// decoding the snapshot file (header, decompression, sections, columns, validation) and encoding the
// model's payload. The cache lives in a temporary folder (XDG_CACHE_HOME), never in ~/.cache.
//
// usage: bench_snapshot TRACE [repetitions]
#include "TraceLoader.h"
#include "snapshot/SnapshotCache.h"
#include "snapshot/SnapshotCodec.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Seconds for one loadTrace, or a negative number on failure.
double timeLoad(const QString &path, bool cache, bool *fromSnapshot, std::size_t *slices)
{
    if (cache)
        qunsetenv("AT_NO_SNAPSHOT");
    else
        qputenv("AT_NO_SNAPSHOT", "1");
    QElapsedTimer timer;
    timer.start();
    at::LoadControl control;
    at::LoadResult result = at::loadTrace(path, at::environmentLoadOptions(), control);
    const double seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    if (!result.model) {
        std::fprintf(stderr, "load of %s failed: %s\n", qPrintable(path), qPrintable(result.error));
        return -1;
    }
    *fromSnapshot = result.fromSnapshot;
    *slices = result.model->sliceCount();
    return seconds;
}

// The best and the median seconds of n runs of work().
template <typename Work> std::pair<double, double> bestAndMedian(int n, Work work)
{
    std::vector<double> times;
    for (int i = 0; i < n; ++i) {
        QElapsedTimer timer;
        timer.start();
        work();
        times.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e9);
    }
    return {*std::min_element(times.begin(), times.end()), median(times)};
}

// The codec alone on the snapshot file and the model it holds; false when the file does not decode.
bool benchCodec(const QString &snapshot, int n)
{
    QFile f(snapshot);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QByteArray file = f.readAll();
    const std::string_view bytes(file.constData(), static_cast<std::size_t>(file.size()));
    QString reason;
    std::unique_ptr<at::TraceModel> model;
    const auto decode = bestAndMedian(n, [&] {
        const auto header = at::snapshot::readHeader(bytes, &reason);
        model = header ? at::snapshot::decodeBody(*header, &reason) : nullptr;
    });
    if (!model) {
        std::fprintf(stderr, "snapshot does not decode: %s\n", qPrintable(reason));
        return false;
    }
    std::size_t payloadBytes = 0;
    const auto encode = bestAndMedian(n, [&] {
        const auto payload = at::snapshot::encodePayload(*model, &reason);
        payloadBytes = payload ? payload->size() : 0;
    });
    std::printf("codec alone, %d runs: decode file best %.4f s (median %.4f), encode payload best %.4f s "
                "(median %.4f, %.1f MB)\n",
                n, decode.first, decode.second, encode.first, encode.second,
                static_cast<double>(payloadBytes) / 1e6);
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s TRACE [repetitions]\n", argv[0]);
        return 2;
    }
    QTemporaryDir cache;
    qputenv("XDG_CACHE_HOME", QFile::encodeName(cache.path()));
    const QString path = QString::fromLocal8Bit(argv[1]);
    const int reps = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
    const QString snapshot = at::snapshot::pathFor(path, at::PreferredSource::Text);

    bool fromSnapshot = false;
    std::size_t slices = 0, reopenedSlices = 0;
    // First cached load: a cold load plus encoding, compressing and writing the snapshot.
    const double firstWithWrite = timeLoad(path, true, &fromSnapshot, &slices);
    if (firstWithWrite < 0 || fromSnapshot || !QFileInfo::exists(snapshot)) {
        std::fprintf(stderr, "no snapshot was written for %s\n", qPrintable(path));
        return 1;
    }
    std::vector<double> cold, reopen;
    for (int i = 0; i < reps; ++i) {
        const double c = timeLoad(path, false, &fromSnapshot, &slices);
        const double r = timeLoad(path, true, &fromSnapshot, &reopenedSlices);
        if (c < 0 || r < 0 || !fromSnapshot || reopenedSlices != slices) {
            std::fprintf(stderr, "reopen did not use the snapshot or lost slices\n");
            return 1;
        }
        cold.push_back(c);
        reopen.push_back(r);
    }
    const double input = static_cast<double>(QFileInfo(path).size()) / 1e6;
    const double snap = static_cast<double>(QFileInfo(snapshot).size()) / 1e6;
    const double coldMedian = median(cold), reopenMedian = median(reopen);
    std::printf("input %s: %.1f MB, %zu slices\n", qPrintable(QFileInfo(path).fileName()), input, slices);
    std::printf("cold load (AT_NO_SNAPSHOT=1), median of %d:  %.3f s\n", reps, coldMedian);
    std::printf(
        "snapshot reopen, median of %d:               %.3f s  = %.1f %% of the cold load (%.1fx faster)\n",
        reps, reopenMedian, 100 * reopenMedian / coldMedian, coldMedian / reopenMedian);
    std::printf("first open with the snapshot write:          %.3f s  = %.2fx the cold load\n",
                firstWithWrite, firstWithWrite / coldMedian);
    std::printf("snapshot size: %.1f MB = %.1f %% of the input\n", snap, 100 * snap / input);
    return benchCodec(snapshot, 3 * reps) ? 0 : 1;
}
