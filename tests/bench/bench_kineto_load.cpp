// Kineto load benchmark (issue 30 item 4): loadTrace() of a PyTorch profiler GPU trace against
// loadTrace() of an Ascend trace_view.json of the same size, alternately in the same process, printed
// as MB/s and their ratio (the machines are noisy: absolute times are not comparable between runs).
// The Kineto trace is decompressed once into a temporary folder (never beside the sample), and tiled
// `copies` times when asked (tileKinetoJson below: ~200 MB from df_index_resolver with 4); the Ascend
// trace is the level-1 alexnet trace_view.json tiled (tests/common/TiledTrace.h) to at least that size.
//
// usage: bench_kineto_load [KINETO.json(.gz)] [ASCEND_trace_view.json] [repetitions] [kineto copies]
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
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>
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

// Calls fn(position of the digits, their length, value) for each unquoted integer after `key` (`"ts": `)
// in the event text: the integer part of a fractional ts too.
template <class Fn> void forEachInteger(std::string_view event, std::string_view key, Fn &&fn)
{
    for (std::size_t p = event.find(key); p != std::string_view::npos; p = event.find(key, p + 1)) {
        std::size_t begin = p + key.size();
        std::size_t end = begin;
        while (end < event.size() &&
               (std::isdigit(static_cast<unsigned char>(event[end])) || (end == begin && event[end] == '-')))
            ++end;
        long long value = 0;
        if (std::from_chars(event.data() + begin, event.data() + end, value).ec == std::errc())
            fn(begin, end - begin, value);
    }
}

// A multi-step PyTorch GPU trace from a real one: the object's keys kept, every event of the array
// repeated `copies` times, copy c with its ts shifted by c × (the trace's time span + 1 ms), numeric flow
// ids made unique per copy and ProfilerStep#N renumbered after the previous copy's steps. Metadata (M)
// events are written once.
QByteArray tileKinetoJson(const QByteArray &trace, int copies)
{
    at::JsonEventScanner scanner(trace.constData(), static_cast<std::size_t>(trace.size()));
    QString problem;
    if (!scanner.locateEvents(&problem))
        return {};
    std::vector<std::string_view> events;
    at::JsonEventScanner::Span span;
    while (scanner.next(span))
        events.emplace_back(trace.constData() + span.begin, span.end - span.begin);
    if (events.empty() || scanner.state() != at::JsonEventScanner::State::Finished)
        return {};
    long long first = std::numeric_limits<long long>::max(), last = std::numeric_limits<long long>::min();
    long long firstStep = std::numeric_limits<long long>::max(), lastStep = -1, lastId = 0;
    for (std::string_view e : events) {
        forEachInteger(e, "\"ts\": ", [&](std::size_t, std::size_t, long long ts) {
            first = std::min(first, ts);
            last = std::max(last, ts);
        });
        forEachInteger(e, "ProfilerStep#", [&](std::size_t, std::size_t, long long n) {
            firstStep = std::min(firstStep, n);
            lastStep = std::max(lastStep, n);
        });
        forEachInteger(
            e, "\"id\": ", [&](std::size_t, std::size_t, long long id) { lastId = std::max(lastId, id); });
    }
    const long long shiftUs = last - first + 1000;
    const long long steps = lastStep >= firstStep ? lastStep - firstStep + 1 : 0;
    const std::size_t arrayBegin = static_cast<std::size_t>(events.front().data() - trace.constData());
    const std::size_t arrayEnd =
        static_cast<std::size_t>(events.back().data() + events.back().size() - trace.constData());
    std::string out(trace.constData(), arrayBegin);
    out.reserve(static_cast<std::size_t>(trace.size()) * static_cast<std::size_t>(copies));
    for (int copy = 0; copy < copies; ++copy) {
        for (std::size_t i = 0; i < events.size(); ++i) {
            const std::string_view e = events[i];
            if (copy > 0 && e.find("\"ph\": \"M\"") != std::string_view::npos)
                continue;
            if (copy > 0 || i > 0)
                out += ",\n  ";
            std::string text(e);
            // Rewrites from the end so that the positions found stay valid.
            std::vector<std::pair<std::size_t, std::pair<std::size_t, long long>>> edits;
            forEachInteger(e, "\"ts\": ", [&](std::size_t at, std::size_t n, long long ts) {
                edits.push_back({at, {n, ts + copy * shiftUs}});
            });
            forEachInteger(e, "ProfilerStep#", [&](std::size_t at, std::size_t n, long long step) {
                edits.push_back({at, {n, step + copy * steps}});
            });
            forEachInteger(e, "\"id\": ", [&](std::size_t at, std::size_t n, long long id) {
                edits.push_back({at, {n, id + copy * (lastId + 1)}});
            });
            std::sort(edits.begin(), edits.end(),
                      [](const auto &a, const auto &b) { return a.first > b.first; });
            if (copy > 0)
                for (const auto &[at, edit] : edits)
                    text.replace(at, edit.first, std::to_string(edit.second));
            out += text;
        }
    }
    out.append(trace.constData() + arrayEnd, static_cast<std::size_t>(trace.size()) - arrayEnd);
    return QByteArray(out.data(), static_cast<qsizetype>(out.size()));
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
    const int kinetoCopies = args.size() > 4 ? std::max(1, args[4].toInt()) : 1;

    QTemporaryDir dir; // the system temp folder
    if (!dir.isValid())
        return 1;
    // AT_BENCH_KEEP=1: the tiled files are kept (their paths printed) for perf or the command line.
    dir.setAutoRemove(qEnvironmentVariableIntValue("AT_BENCH_KEEP") == 0);
    if (!dir.autoRemove())
        std::printf("tiled files kept in %s\n", qPrintable(dir.path()));
    QString kineto = at::detectCompression(kinetoSource) == at::Compression::None
                         ? kinetoSource
                         : decompressedCopy(kinetoSource, dir);
    if (!kineto.isEmpty() && kinetoCopies > 1) {
        QFile in(kineto);
        const QString tiledPath = dir.filePath(QStringLiteral("tiled.pt.trace.json"));
        QFile out(tiledPath);
        const QByteArray tiled =
            in.open(QIODevice::ReadOnly) ? tileKinetoJson(in.readAll(), kinetoCopies) : QByteArray();
        if (tiled.isEmpty() || !out.open(QIODevice::WriteOnly) || out.write(tiled) != tiled.size())
            return 1;
        kineto = tiledPath;
    }
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
        "Kineto  %s x%d: %.1f MB, %zu events, %zu slices, %zu flows, %zu steps: median %.3f s = %.1f MB/s\n",
        qPrintable(QFileInfo(kinetoSource).fileName()), kinetoCopies, kinetoBytes / 1e6, k.events, k.slices,
        k.flows, k.steps, kSec, kRate);
    std::printf(
        "Ascend  trace_view.json x%d: %.1f MB, %zu events, %zu slices, %zu flows, %zu steps: median %.3f s "
        "= %.1f MB/s\n",
        copies, ascendBytes / 1e6, a.events, a.slices, a.flows, a.steps, aSec, aRate);
    std::printf(
        "Kineto / Ascend throughput: %.2f in MB/s, %.2f in events/s (%d repetitions each, alternated)\n",
        kRate / aRate, (k.events / kSec) / (a.events / aSec), repetitions);
    return 0;
}
