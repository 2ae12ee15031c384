// Database load benchmark: loadTrace() of a profiler database against loadTrace() of the Chrome-trace
// JSON of the same workload, measured alternately in the same process and printed as a ratio (the
// machines are noisy, absolute times are not comparable between runs).
//
// usage: bench_load_db PROFILE.db TRACE.json [repetitions]
#include "TraceLoader.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>

#include <algorithm>
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
    std::size_t events = 0, slices = 0, kernels = 0, flows = 0;
};

bool load(const QString &path, Loaded &out)
{
    QElapsedTimer timer;
    timer.start();
    at::LoadControl control;
    at::LoadResult result = at::loadTrace(path, at::environmentLoadOptions(), control);
    out.seconds = timer.nsecsElapsed() / 1e9;
    if (!result.model) {
        std::fprintf(stderr, "load of %s failed: %s\n", qPrintable(path), qPrintable(result.error));
        return false;
    }
    out.events = result.model->eventCounts().total();
    out.slices = result.model->sliceCount();
    out.kernels = result.model->kernels().size();
    out.flows = result.model->flows().size();
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    qputenv("AT_NO_SNAPSHOT", "1"); // measure parsing, not the snapshot cache (bench_snapshot does)
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s PROFILE.db TRACE.json [repetitions]\n", argv[0]);
        return 2;
    }
    const QString db = QString::fromLocal8Bit(argv[1]);
    const QString json = QString::fromLocal8Bit(argv[2]);
    const int reps = argc > 3 ? std::max(1, std::atoi(argv[3])) : 5;
    std::vector<double> dbTimes, jsonTimes;
    Loaded d, j;
    for (int r = 0; r < reps; ++r) {
        if (!load(json, j) || !load(db, d))
            return 1;
        jsonTimes.push_back(j.seconds);
        dbTimes.push_back(d.seconds);
    }
    const double td = median(dbTimes), tj = median(jsonTimes);
    std::printf("json: %s (%.1f MB): %zu events, %zu slices, %zu flows: %.3f s\n", qPrintable(json),
                QFileInfo(json).size() / 1e6, j.events, j.slices, j.flows, tj);
    std::printf("db:   %s (%.1f MB): %zu events, %zu slices, %zu flows, %zu kernel rows: %.3f s\n",
                qPrintable(db), QFileInfo(db).size() / 1e6, d.events, d.slices, d.flows, d.kernels, td);
    std::printf("ratio db/json: %.2fx the JSON load's time; per slice %.2fx\n", td / tj,
                (td / static_cast<double>(std::max<std::size_t>(1, d.slices))) /
                    (tj / static_cast<double>(std::max<std::size_t>(1, j.slices))));
    return 0;
}
