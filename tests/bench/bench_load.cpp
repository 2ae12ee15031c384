// Load benchmark: our cold load (parse + model + index) against simdjson's On-Demand walk over the
// same events (the ceiling for any simdjson-based loader), measured in the same process and
// printed as ratios, since the machines are noisy.
//
// usage: bench_load TRACE.json [repetitions]
#include "TraceLoader.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>

#include <simdjson.h>

#include <algorithm>
#include <cstdio>
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
    std::vector<double> ours, baseline;
    std::size_t events = 0, modelEvents = 0, modelBytes = 0, slices = 0;
    for (int r = 0; r < reps; ++r) {
        // Alternate the two so that both see the same machine state on average.
        baseline.push_back(simdjsonWalkSeconds(argv[1], events));
        QElapsedTimer timer;
        timer.start();
        at::LoadControl control;
        at::LoadResult result = at::loadTrace(path, control);
        ours.push_back(timer.nsecsElapsed() / 1e9);
        if (!result.model) {
            std::fprintf(stderr, "load failed: %s\n", qPrintable(result.error));
            return 1;
        }
        modelEvents = result.model->eventCounts().total();
        modelBytes = result.model->memoryBytes();
        slices = result.model->sliceCount();
    }
    const double o = median(ours), b = median(baseline);
    std::printf("input: %s (%.1f MB, %zu events, %zu slices)\n", qPrintable(path), mb, modelEvents, slices);
    std::printf("simdjson on-demand walk (baseline): %.3f s  %.0f MB/s  (%zu events)\n", b, mb / b, events);
    std::printf("ascend-timeline load (parse+model+index): %.3f s  %.0f MB/s\n", o, mb / o);
    std::printf("ratio load/baseline: %.2fx the baseline's time\n", o / b);
    std::printf("model memory: %.1f MB = %.1f bytes per event, %.1f bytes per slice (incl. strings, "
                "counters, flows)\n",
                modelBytes / 1e6, static_cast<double>(modelBytes) / static_cast<double>(modelEvents),
                static_cast<double>(modelBytes) / static_cast<double>(std::max<std::size_t>(1, slices)));
    return 0;
}
