// Kineto load benchmark (issue 30 item 4): loadTrace() of a PyTorch profiler GPU trace against
// loadTrace() of an Ascend trace_view.json of the same size, alternately in the same process, printed
// as MB/s and their ratio (the machines are noisy: absolute times are not comparable between runs).
// The Kineto trace is decompressed once into a temporary folder (never beside the sample); the Ascend
// trace is the level-1 alexnet trace_view.json tiled (tests/common/TiledTrace.h) to at least that size.
//
// usage: bench_kineto_load [KINETO.json.gz] [ASCEND_trace_view.json] [repetitions]
#include "Steps.h"
#include "TiledTrace.h"
#include "TraceLoader.h"
#include "common/Decompress.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

struct Loaded
{
    double seconds = 0;
    std::size_t events = 0, slices = 0, flows = 0, steps = 0;
};

bool load(const QString &path, Loaded &out)
{
    at::LoadOptions options = at::environmentLoadOptions();
    options.useSnapshotCache = false; // a cold parse every time
    QElapsedTimer timer;
    timer.start();
    at::LoadControl control;
    at::LoadResult result = at::loadTrace(path, options, control);
    out.seconds = timer.nsecsElapsed() / 1e9;
    if (!result.model) {
        std::fprintf(stderr, "load of %s failed: %s\n", qPrintable(path), qPrintable(result.error));
        return false;
    }
    out.events = result.model->eventCounts().total();
    out.slices = result.model->sliceCount();
    out.flows = result.model->flows().size();
    out.steps = result.model->steps().size();
    return true;
}

QString decompressedCopy(const QString &path, const QTemporaryDir &dir)
{
    QString error;
    const auto file = at::decompressToTemporaryFile(path, at::detectCompression(path), {}, &error);
    if (!file) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return {};
    }
    const QString copy = dir.filePath(QFileInfo(path).completeBaseName()); // x.json.gz → x.json
    return QFile::copy(file->fileName(), copy) ? copy : QString();
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QString samples = QStringLiteral(AT_SAMPLES_DIR);
    const QStringList args = app.arguments();
    const QString kinetoSource =
        args.size() > 1 && !args[1].isEmpty()
            ? args[1]
            : samples + QStringLiteral("/hta_kineto_gpu_traces/df_index_resolver.json.gz");
    const QString ascendSource =
        args.size() > 2 && !args[2].isEmpty()
            ? args[2]
            : samples + QStringLiteral("/msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/"
                                       "rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json");
    const int repetitions = args.size() > 3 ? std::max(1, args[3].toInt()) : 5;

    QTemporaryDir dir; // the system temp folder
    if (!dir.isValid())
        return 1;
    const QString kineto = at::detectCompression(kinetoSource) == at::Compression::None
                               ? kinetoSource
                               : decompressedCopy(kinetoSource, dir);
    QFile ascendFile(ascendSource);
    if (kineto.isEmpty() || !ascendFile.open(QIODevice::ReadOnly))
        return 1;
    const QByteArray ascendText = ascendFile.readAll();
    const qint64 kinetoBytes = QFileInfo(kineto).size();
    const int copies = static_cast<int>(std::ceil(static_cast<double>(kinetoBytes) / ascendText.size()));
    const QString ascend = dir.filePath(QStringLiteral("trace_view.json"));
    {
        QFile out(ascend);
        const QByteArray tiled = at::test::tileTraceJson(ascendText, copies, 10'000'000);
        if (tiled.isEmpty() || !out.open(QIODevice::WriteOnly) || out.write(tiled) != tiled.size())
            return 1;
    }
    const qint64 ascendBytes = QFileInfo(ascend).size();

    std::vector<double> kinetoSeconds, ascendSeconds;
    Loaded k, a;
    for (int r = 0; r < repetitions + 1; ++r) { // the first round warms the page cache, not counted
        if (!load(kineto, k) || !load(ascend, a))
            return 1;
        if (r > 0) {
            kinetoSeconds.push_back(k.seconds);
            ascendSeconds.push_back(a.seconds);
        }
    }
    const double kSec = median(kinetoSeconds), aSec = median(ascendSeconds);
    const double kRate = kinetoBytes / 1e6 / kSec, aRate = ascendBytes / 1e6 / aSec;
    std::printf(
        "Kineto  %s: %.1f MB, %zu events, %zu slices, %zu flows, %zu steps: median %.3f s = %.1f MB/s\n",
        qPrintable(QFileInfo(kinetoSource).fileName()), kinetoBytes / 1e6, k.events, k.slices, k.flows,
        k.steps, kSec, kRate);
    std::printf(
        "Ascend  trace_view.json x%d: %.1f MB, %zu events, %zu slices, %zu flows, %zu steps: median %.3f s "
        "= %.1f MB/s\n",
        copies, ascendBytes / 1e6, a.events, a.slices, a.flows, a.steps, aSec, aRate);
    std::printf(
        "Kineto / Ascend throughput: %.2f in MB/s, %.2f in events/s (%d repetitions each, alternated)\n",
        kRate / aRate, (k.events / kSec) / (a.events / aSec), repetitions);
    return 0;
}
