// Memory load at scale (issue 19): a generated memory_record.csv of N rows (default 5,000,000; PTA and
// PTA+GE records with allocated / reserved / active MB and TAB-suffixed µs) loaded through loadTrace(),
// against the same N samples as Chrome-trace counter events ({"ph":"C", args Allocated/Reserved/Active})
// loaded in the same run. Both get the same one-slice trace_view.json; the snapshot cache is off.
// Then the lanes of both are rendered offscreen (1920x1080) at the full view and zoomed in to 1/1000 and
// 1/100000 of it: median frame time (thread CPU) of each, and the CSV/JSON ratios.
// usage: QT_QPA_PLATFORM=offscreen bench_memory [ROWS] [REPEATS] (AT_BENCH_FRAMES=N frames, default 15)

#include "TimelineView.h"
#include "TraceLoader.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <memory>

using namespace at;

namespace {

constexpr long long kStartUs = 1736408883000000;

bool writeFolder(const QString &root, long long rows, bool asCsv)
{
    const QString out = root + QStringLiteral("/bench_ascend_pt/ASCEND_PROFILER_OUTPUT");
    if (!QDir().mkpath(out))
        return false;
    QFile trace(out + QStringLiteral("/trace_view.json"));
    if (!trace.open(QIODevice::WriteOnly))
        return false;
    QByteArray json = R"([{"ph":"X","name":"step","pid":1,"tid":1,"ts":"1736408883000000.000","dur":1000})";
    QFile csv(out + QStringLiteral("/memory_record.csv"));
    if (asCsv) {
        if (!csv.open(QIODevice::WriteOnly))
            return false;
        csv.write("Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream "
                  "Ptr,Device Type\r\n");
    }
    trace.write(json); // the slice; counter events (JSON case) follow it
    QFile &target = asCsv ? csv : trace;
    QByteArray chunk;
    char line[256];
    for (long long i = 0; i < rows; ++i) {
        const char *component = i % 2 ? "PTA+GE" : "PTA";
        const long long us = kStartUs + i / 2, ns = (i * 37) % 1000;
        const double allocated = static_cast<double>((i * 7919) % 4000000) / 1024.0;
        const double reserved = allocated + 512.0;
        const int n =
            asCsv
                ? std::snprintf(line, sizeof line, "%s,%lld.%03lld\t,%.10g,%.10g,%.10g,897357296,NPU:0\r\n",
                                component, us, ns, allocated, reserved, allocated)
                : std::snprintf(line, sizeof line,
                                ",\n{\"ph\":\"C\",\"name\":\"%s\",\"pid\":2,\"tid\":0,\"ts\":\"%lld.%03lld\","
                                "\"args\":{\"Allocated\":%.10g,\"Reserved\":%.10g,\"Active\":%.10g}}",
                                component, us, ns, allocated, reserved, allocated);
        chunk.append(line, n);
        if (chunk.size() > (8 << 20)) {
            target.write(chunk);
            chunk.clear();
        }
    }
    target.write(chunk);
    trace.write("]\n");
    return true;
}

double loadSeconds(const QString &folder, std::size_t *samples, std::unique_ptr<TraceModel> *model)
{
    LoadControl control;
    LoadOptions options; // no snapshot cache
    QElapsedTimer timer;
    timer.start();
    LoadResult result = loadTrace(folder, options, control);
    const double s = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    *samples = 0;
    if (result.model)
        for (const CounterSeries &c : result.model->counters())
            *samples += c.times.size();
    const bool ok = result.model != nullptr;
    *model = std::move(result.model);
    return ok ? s : -1;
}

// Offscreen painting is single-threaded: its thread's CPU time, not the shared machine's wall time.
double threadCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// Median frame time of the model's lanes with the view 1/zoom of the data wide, panned a little each
// frame (within the middle of the data) so that every frame is drawn anew.
double frameMs(const TraceModel &model, double zoom, int frames)
{
    TimelineView view;
    view.resize(1920, 1080);
    view.setModel(&model);
    view.show();
    QCoreApplication::processEvents();
    QImage image(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    const TimeRange data = view.zoom()->dataRange();
    const TimeNs width =
        std::max<TimeNs>(1000, static_cast<TimeNs>(static_cast<double>(data.width()) / zoom));
    std::vector<double> ms;
    for (int i = 0; i < frames; ++i) {
        const TimeNs start = data.start + (data.width() - width) / 2 + (i % 8 - 4) * width / 40;
        view.zoom()->setRange({start, start + width}, false);
        const double before = threadCpuMs();
        view.viewport()->render(&image);
        ms.push_back(threadCpuMs() - before);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int frames =
        qEnvironmentVariableIsSet("AT_BENCH_FRAMES") ? qEnvironmentVariableIntValue("AT_BENCH_FRAMES") : 15;
    const long long rows = argc > 1 ? std::atoll(argv[1]) : 5'000'000;
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 1;
    QTemporaryDir csvDir, jsonDir;
    if (!writeFolder(csvDir.path(), rows, true) || !writeFolder(jsonDir.path(), rows, false)) {
        std::fprintf(stderr, "bench_memory: cannot write the generated folders\n");
        return 1;
    }
    const QString csvFolder = csvDir.path() + QStringLiteral("/bench_ascend_pt");
    const QString jsonFolder = jsonDir.path() + QStringLiteral("/bench_ascend_pt");
    std::printf(
        "rows: %lld (memory_record.csv %.0f MB, counter JSON %.0f MB)\n", rows,
        QFileInfo(csvFolder + QStringLiteral("/ASCEND_PROFILER_OUTPUT/memory_record.csv")).size() / 1e6,
        QFileInfo(jsonFolder + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json")).size() / 1e6);
    for (int r = 0; r < repeats; ++r) {
        std::size_t csvSamples = 0, jsonSamples = 0;
        std::unique_ptr<TraceModel> csvModel, jsonModel;
        const double csv = loadSeconds(csvFolder, &csvSamples, &csvModel);
        const double json = loadSeconds(jsonFolder, &jsonSamples, &jsonModel);
        std::printf("load: memory_record.csv %.2f s (%zu lane samples)  counter JSON %.2f s (%zu samples)  "
                    "ratio csv/json %.2f\n",
                    csv, csvSamples, json, jsonSamples, json > 0 ? csv / json : 0.0);
        std::fflush(stdout);
        if (!csvModel || !jsonModel)
            return 1;
        for (const double zoom : {1.0, 1000.0, 100000.0}) {
            const double csvFrame = frameMs(*csvModel, zoom, frames);
            const double jsonFrame = frameMs(*jsonModel, zoom, frames);
            std::printf("frame at 1/%.0f of the data: memory lanes %.2f ms  counter JSON lanes %.2f ms  "
                        "ratio csv/json %.2f\n",
                        zoom, csvFrame, jsonFrame, jsonFrame > 0 ? csvFrame / jsonFrame : 0.0);
            std::fflush(stdout);
        }
    }
    return 0;
}
