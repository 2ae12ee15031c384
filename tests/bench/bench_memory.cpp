// Memory load at scale (issue 19): a generated memory_record.csv of N rows (default 5,000,000; PTA and
// PTA+GE records with allocated / reserved / active MB and TAB-suffixed µs) loaded through loadTrace(),
// against the same N samples as Chrome-trace counter events ({"ph":"C", args Allocated/Reserved/Active})
// loaded in the same run. Both get the same one-slice trace_view.json; the snapshot cache is off.
// usage: bench_memory [ROWS] [REPEATS]

#include "TraceLoader.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <cstdio>

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

double loadSeconds(const QString &folder, std::size_t *samples)
{
    LoadControl control;
    LoadOptions options; // no snapshot cache
    QElapsedTimer timer;
    timer.start();
    const LoadResult result = loadTrace(folder, options, control);
    const double s = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    *samples = 0;
    if (result.model)
        for (const CounterSeries &c : result.model->counters())
            *samples += c.times.size();
    return result.model ? s : -1;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
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
        const double csv = loadSeconds(csvFolder, &csvSamples);
        const double json = loadSeconds(jsonFolder, &jsonSamples);
        std::printf("memory_record.csv: %.2f s (%zu lane samples)  counter JSON: %.2f s (%zu samples)  "
                    "ratio csv/json: %.2f\n",
                    csv, csvSamples, json, jsonSamples, json > 0 ? csv / json : 0.0);
    }
    return 0;
}
