// Load benchmark: our cold load (parse + model + index) against simdjson's On-Demand walk over the
// same events (the ceiling for any simdjson-based loader), measured in the same process and
// printed as ratios, since the machines are noisy.
//
// usage: bench_load TRACE.json [repetitions]
#include "TraceLoader.h"
#include "common/MappedFile.h"
#include "json/ChromeTraceParser.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>

#include <simdjson.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Touches every event's keys the way a trace loader must: load, iterate, read ph/ts/name.
double simdjsonWalkSeconds(const char *path, std::size_t &events)
{
    QElapsedTimer timer;
    timer.start();
    simdjson::padded_string json;
    if (simdjson::padded_string::load(path).get(json))
        return -1;
    simdjson::ondemand::parser parser;
    simdjson::ondemand::document doc;
    if (parser.iterate(json).get(doc))
        return -1;
    events = 0;
    std::size_t checksum = 0;
    for (auto element : doc.get_array()) {
        simdjson::ondemand::object object;
        if (element.get_object().get(object))
            break;
        for (auto field : object) {
            std::string_view key;
            if (field.unescaped_key().get(key))
                break;
            if (key == "ph" || key == "name") {
                std::string_view text;
                if (!field.value().get_string().get(text))
                    checksum += text.size();
            } else if (key == "ts") {
                std::string_view token;
                if (!field.value().raw_json_token().get(token))
                    checksum += token.size();
            }
        }
        ++events;
    }
    if (checksum == 0)
        std::printf(" ");
    return timer.nsecsElapsed() / 1e9;
}

double cpuSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

// The 1-minute load average (Linux), printed with the figures: on a shared 2-core machine a second
// parser thread only helps when a core is free.
double loadAverage()
{
    double load = -1;
    if (FILE *f = std::fopen("/proc/loadavg", "r")) {
        if (std::fscanf(f, "%lf", &load) != 1)
            load = -1;
        std::fclose(f);
    }
    return load;
}

struct Phases
{
    double parse = 0;    // map + scan + parse + merge into the builder
    double parseCpu = 0; // CPU seconds of all threads in the parse
    double build = 0;    // TraceBuilder::build(): sort, nest, flows, index
    double scan = 0;     // JsonEventScanner alone over the mapped file (single thread)
};

// The loader's two phases, timed separately, with a given number of parser threads.
Phases phaseSeconds(const QString &path, int threads)
{
    Phases p;
    QElapsedTimer timer;
    timer.start();
    const double cpu0 = cpuSeconds();
    QString error;
    auto mapped = at::MappedFile::open(path, &error);
    if (!mapped)
        return p;
    at::TraceBuilder builder;
    const std::uint32_t source = builder.addSource(path, nullptr);
    at::ChromeTraceParser parser(builder, source, path);
    at::ParseControl control;
    control.threads = threads;
    parser.parse(mapped->data(), mapped->size(), control, &error);
    p.parse = timer.nsecsElapsed() / 1e9;
    p.parseCpu = cpuSeconds() - cpu0;
    timer.restart();
    auto model = builder.build();
    p.build = timer.nsecsElapsed() / 1e9;
    timer.restart();
    at::JsonEventScanner scanner(mapped->data(), mapped->size());
    std::size_t spans = 0;
    at::JsonEventScanner::Span span;
    if (scanner.locateEvents(&error))
        while (scanner.next(span))
            ++spans;
    p.scan = spans ? timer.nsecsElapsed() / 1e9 : 0;
    return p;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    qputenv("AT_NO_SNAPSHOT", "1"); // measure parsing, not the snapshot cache (bench_snapshot does)
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s TRACE.json [repetitions]\n", argv[0]);
        return 2;
    }
    const QString path = QString::fromLocal8Bit(argv[1]);
    const int reps = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
    const double mb = static_cast<double>(QFileInfo(path).size()) / 1e6;
    const double loadBefore = loadAverage();
    std::vector<double> ours, baseline, parse1, parse2, build1, cpu1, cpu2, scan;
    std::size_t events = 0, modelEvents = 0, modelBytes = 0, slices = 0;
    for (int r = 0; r < reps; ++r) {
        // Alternate the two so that both see the same machine state on average.
        baseline.push_back(simdjsonWalkSeconds(argv[1], events));
        QElapsedTimer timer;
        timer.start();
        at::LoadControl control;
        at::LoadResult result = at::loadTrace(path, at::environmentLoadOptions(), control);
        ours.push_back(timer.nsecsElapsed() / 1e9);
        if (!result.model) {
            std::fprintf(stderr, "load failed: %s\n", qPrintable(result.error));
            return 1;
        }
        modelEvents = result.model->eventCounts().total();
        modelBytes = result.model->memoryBytes();
        slices = result.model->sliceCount();
        result.model.reset();
        const Phases one = phaseSeconds(path, 1);
        const Phases two = phaseSeconds(path, 2);
        parse1.push_back(one.parse);
        parse2.push_back(two.parse);
        build1.push_back(one.build);
        cpu1.push_back(one.parseCpu);
        cpu2.push_back(two.parseCpu);
        scan.push_back(one.scan);
    }
    const double o = median(ours), b = median(baseline);
    std::printf("input: %s (%.1f MB, %zu events, %zu slices), load average %.1f before, %.1f after\n",
                qPrintable(path), mb, modelEvents, slices, loadBefore, loadAverage());
    if (b > 0)
        std::printf("simdjson on-demand walk (baseline): %.3f s  %.0f MB/s  (%zu events)\n", b, mb / b,
                    events);
    else
        std::printf(
            "simdjson on-demand walk (baseline): not possible, simdjson documents are limited to 4 GB\n");
    std::printf("ascend-timeline load (parse+model+index): %.3f s  %.0f MB/s\n", o, mb / o);
    if (b > 0)
        std::printf("ratio load/baseline: %.2fx the baseline's time\n", o / b);
    const double p1 = median(parse1), p2 = median(parse2), b1 = median(build1);
    std::printf("phases (%s kernel): parse 1 thread %.3f s (%.0f MB/s), 2 threads %.3f s (%.0f MB/s, %.2fx "
                "faster); build() %.3f s\n",
                at::ChromeTraceParser::kernelName(), p1, mb / p1, p2, mb / p2, p1 / p2, b1);
    std::printf("parse CPU time: 1 thread %.3f s, 2 threads %.3f s (%.2fx: the threading overhead); "
                "event scanner alone %.3f s (%.0f MB/s)\n",
                median(cpu1), median(cpu2), median(cpu2) / median(cpu1), median(scan), mb / median(scan));
    std::printf("model memory: %.1f MB = %.1f bytes per event, %.1f bytes per slice (incl. strings, "
                "counters, flows)\n",
                modelBytes / 1e6, static_cast<double>(modelBytes) / static_cast<double>(modelEvents),
                static_cast<double>(modelBytes) / static_cast<double>(std::max<std::size_t>(1, slices)));
    return 0;
}
