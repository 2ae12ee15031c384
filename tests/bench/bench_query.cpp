// The query engine at scale (issue #31): the real level1 step tiled K times in-process (52 copies ~ the
// 100 MB tiled JSON, 520 ~ 1 GB, as bench_render), then, in the same run:
//   * `select name, count(*), sum(dur) from slice group by name` against the same aggregation written
//     directly in C++ over the model (a hash map by name id: the baseline);
//   * `select name, p90(dur) from slice group by name` against a C++ nth_element per name;
//   * a point lookup by slice id (each one a whole engine.run(): prepare, step, finalize);
//   * the same group-by over a materialised copy (`create temp table ... as select`), with what the copy
//   costs;
//   * the engine's own memory beside the model's.
// Medians of 3, in thread CPU time. usage: bench_query [COPIES...]
#include "QueryEngine.h"
#include "SqliteFloor.h"
#include "TiledModel.h"
#include "TraceLoader.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <random>
#include <unordered_map>

using namespace at;
using namespace at::query;

namespace {

double msSince(const QElapsedTimer &t)
{
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}

// This thread's CPU time in ms: the 2 shared cores run several builds at once, so wall times swing several
// times with the load while CPU time stays put (the engine runs a query on the calling thread).
double threadCpuMs()
{
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

// Median of 3 runs, in ms of thread CPU time.
template <typename Fn> double median3(Fn &&fn)
{
    std::vector<double> ms;
    for (int i = 0; i < 3; ++i) {
        const double start = threadCpuMs();
        fn();
        ms.push_back(threadCpuMs() - start);
    }
    std::sort(ms.begin(), ms.end());
    return ms[1];
}

// Resident memory of the process (Linux), in bytes.
std::size_t residentBytes()
{
    std::size_t pages = 0, resident = 0;
    if (FILE *f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%zu %zu", &pages, &resident) != 2)
            resident = 0;
        std::fclose(f);
    }
    return resident * 4096;
}

struct CountingSink : QueryResultSink
{
    std::int64_t rows = 0;
    std::int64_t checksum = 0;
    bool begin(const QStringList &) override { return true; }
    bool row(const std::vector<QueryValue> &values) override
    {
        ++rows;
        checksum += values.back().integer + static_cast<std::int64_t>(values.back().real);
        return true;
    }
};

std::int64_t runOrDie(QueryEngine &engine, const QString &sql)
{
    CountingSink sink;
    const QueryOutcome outcome = engine.run(sql, sink);
    if (!outcome.ok) {
        std::fprintf(stderr, "%s: %s\n", qPrintable(sql), qPrintable(outcome.message));
        std::exit(1);
    }
    return sink.rows;
}

// The baseline: count and sum of durations by name, straight over the columns, names as text at the end.
std::size_t groupByNameInCpp(const TraceModel &model,
                             std::vector<std::pair<QString, std::pair<std::int64_t, TimeNs>>> &out)
{
    std::unordered_map<StringId, std::pair<std::int64_t, TimeNs>> byName;
    for (const ThreadInfo &thread : model.threads()) {
        const SliceTable &t = thread.slices;
        for (std::uint32_t i = 0; i < t.size(); ++i) {
            auto &[count, sum] = byName[t.name(i)];
            ++count;
            sum += t.duration(i);
        }
    }
    out.clear();
    for (const auto &[name, value] : byName)
        out.emplace_back(model.strings().qstring(name), value);
    return out.size();
}

std::size_t p90ByNameInCpp(const TraceModel &model)
{
    std::unordered_map<StringId, std::vector<TimeNs>> byName;
    for (const ThreadInfo &thread : model.threads()) {
        const SliceTable &t = thread.slices;
        for (std::uint32_t i = 0; i < t.size(); ++i)
            byName[t.name(i)].push_back(t.duration(i));
    }
    std::size_t checksum = 0;
    for (auto &[name, v] : byName) {
        const double rank = 0.9 * static_cast<double>(v.size() - 1);
        const auto lo = static_cast<std::size_t>(rank);
        std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(lo), v.end());
        double value = static_cast<double>(v[lo]);
        if (lo + 1 < v.size())
            value += (static_cast<double>(
                          *std::min_element(v.begin() + static_cast<std::ptrdiff_t>(lo) + 1, v.end())) -
                      value) *
                     (rank - static_cast<double>(lo));
        checksum += static_cast<std::size_t>(value) + name;
    }
    return checksum;
}

// The model's (name, duration) pairs in the by-name order of the slice table's walk (names as bytes).
bench::SqliteFloor floorOf(const TraceModel &model)
{
    std::unordered_map<StringId, std::vector<TimeNs>> byName;
    for (const ThreadInfo &thread : model.threads())
        for (std::uint32_t i = 0; i < thread.slices.size(); ++i)
            byName[thread.slices.name(i)].push_back(thread.slices.duration(i));
    std::vector<StringId> names;
    for (const auto &entry : byName)
        names.push_back(entry.first);
    const StringPool &strings = model.strings();
    std::sort(names.begin(), names.end(),
              [&](StringId a, StringId b) { return strings.view(a) < strings.view(b); });
    std::vector<std::string_view> nameColumn;
    std::vector<std::int64_t> durColumn;
    for (const StringId name : names) {
        const std::vector<TimeNs> &durations = byName[name];
        nameColumn.insert(nameColumn.end(), durations.size(), strings.view(name));
        durColumn.insert(durColumn.end(), durations.begin(), durations.end());
    }
    return bench::SqliteFloor(std::move(nameColumn), std::move(durColumn));
}

// SQLite alone, per row, over a virtual table that only reads two arrays in order (see SqliteFloor.h).
void measureFloor(const TraceModel &model, double sqlGroupMs)
{
    const double rows = static_cast<double>(model.sliceCount());
    bench::SqliteFloor floor = floorOf(model);
    auto nsPerRow = [&](const char *sql) {
        return median3([&] {
                   if (floor.run(sql) < 0)
                       std::exit(1);
               }) *
               1e6 / rows;
    };
    const double loopNs = nsPerRow("select count(*) from floor");
    const double sumNs = nsPerRow("select sum(dur) from floor");
    const double groupNs = nsPerRow("select name, count(*), sum(dur) from floor group by name");
    // The shape of p90(dur) by name with SQLite's cheapest aggregate of one column.
    const double maxNs = nsPerRow("select name, max(dur) from floor group by name");
    std::printf(
        "   SQLite alone, per row (a virtual table over two arrays in name order): count(*) %.1f ns, "
        "sum(dur) %.1f ns, group by name (count, sum) %.1f ns = %.1f ms, group by name (max) %.1f ns = "
        "%.1f ms; slice table (count, sum) %.1f ns\n",
        loopNs, sumNs, groupNs, groupNs * rows / 1e6, maxNs, maxNs * rows / 1e6, sqlGroupMs * 1e6 / rows);
}

void run(const TraceModel &one, int copies)
{
    QElapsedTimer t;
    t.start();
    test::TileOptions options;
    options.copies = copies;
    const std::unique_ptr<TraceModel> model = test::tileModel(one, options);
    const double tileS = msSince(t) / 1e3;
    const std::size_t slices = model->sliceCount();
    const std::size_t modelBytes = model->memoryBytes();
    std::printf("== %d copies: %zu slices (tiled in %.1f s); model %.1f MB (%.1f B/slice)\n", copies, slices,
                tileS, static_cast<double>(modelBytes) / 1e6,
                static_cast<double>(modelBytes) / static_cast<double>(slices));

    const std::size_t rssBefore = residentBytes();
    QueryEngine engine(*model);
    const std::size_t engineAtStart = engine.memoryBytes();

    std::vector<std::pair<QString, std::pair<std::int64_t, TimeNs>>> baseline;
    const double cppGroupMs = median3([&] { groupByNameInCpp(*model, baseline); });
    std::int64_t groups = 0;
    const double sqlGroupMs = median3([&] {
        groups = runOrDie(engine, QStringLiteral("select name, count(*), sum(dur) from slice group by name"));
    });
    const double cppP90Ms = median3([&] { p90ByNameInCpp(*model); });
    const double sqlP90Ms =
        median3([&] { runOrDie(engine, QStringLiteral("select name, p90(dur) from slice group by name")); });
    const double sqlNameMs = median3([&] {
        runOrDie(engine, QStringLiteral("select count(*), sum(dur) from slice where name = 'Node@launch'"));
    });
    // A 10 ms window from the start of the middle slice (the middle of the span may be a gap between copies).
    const SliceRef middle = engine.sliceOfId(static_cast<std::int64_t>(slices / 2));
    const TimeNs mid = model->threads()[static_cast<std::size_t>(middle.thread)].slices.start(middle.index);
    std::int64_t inRange = 0;
    const double sqlRangeMs = median3([&] {
        CountingSink sink;
        engine.run(QStringLiteral("select count(*) from slice where ts between %1 and %2")
                       .arg(mid)
                       .arg(mid + 10'000'000),
                   sink);
        inRange = sink.checksum;
    });

    // Point lookups by id: 2,000 random ids, each a whole run (prepare + step + finalize).
    std::mt19937_64 random(42);
    std::uniform_int_distribution<std::int64_t> ids(0, static_cast<std::int64_t>(slices) - 1);
    const double lookupsStart = threadCpuMs();
    constexpr int kLookups = 2000;
    for (int i = 0; i < kLookups; ++i)
        runOrDie(engine, QStringLiteral("select * from slice where id = %1").arg(ids(random)));
    const double lookupUs = (threadCpuMs() - lookupsStart) * 1000.0 / kLookups;
    const std::size_t engineAfter = engine.memoryBytes();
    const std::size_t rssAfter = residentBytes();

    // A materialised copy of the columns the aggregation reads: is it worth it?
    // (Its size is the growth of SQLite's heap: the temp store is not in the connection's page cache.)
    const std::size_t heapBeforeCopy = QueryEngine::sqliteHeapBytes();
    QElapsedTimer copyTimer;
    copyTimer.start();
    runOrDie(engine, QStringLiteral("create temp table slice_copy as select id, ts, dur, name from slice"));
    const double copyMs = msSince(copyTimer);
    const std::size_t copyBytes =
        QueryEngine::sqliteHeapBytes() - std::min(QueryEngine::sqliteHeapBytes(), heapBeforeCopy);
    const double copyGroupMs = median3([&] {
        runOrDie(engine, QStringLiteral("select name, count(*), sum(dur) from slice_copy group by name"));
    });
    runOrDie(engine, QStringLiteral("drop table slice_copy"));

    std::printf("   group by name (count, sum):  SQL %8.1f ms   C++ %7.1f ms   = %5.1fx   (%lld names)\n",
                sqlGroupMs, cppGroupMs, sqlGroupMs / cppGroupMs, static_cast<long long>(groups));
    std::printf("   p90(dur) by name:            SQL %8.1f ms   C++ %7.1f ms   = %5.1fx\n", sqlP90Ms,
                cppP90Ms, sqlP90Ms / cppP90Ms);
    std::printf("   where name = ?: %.1f ms; where ts in a 10 ms window: %.1f ms (%lld slices)\n", sqlNameMs,
                sqlRangeMs, static_cast<long long>(inRange));
    std::printf("   point lookup by id: %.1f us per query (whole run)\n", lookupUs);
    std::printf("   engine memory: %.2f MB at start, %.2f MB after the queries = %.2f %% of the model; "
                "process RSS grew "
                "%.1f MB\n",
                static_cast<double>(engineAtStart) / 1e6, static_cast<double>(engineAfter) / 1e6,
                100.0 * static_cast<double>(engineAfter) / static_cast<double>(modelBytes),
                (static_cast<double>(rssAfter) - static_cast<double>(rssBefore)) / 1e6);
    std::printf("   materialised copy (id, ts, dur, name): built in %.0f ms, %.1f MB (%.0f %% of the model); "
                "group by on it %.1f ms (vs %.1f ms on the virtual table)\n",
                copyMs, static_cast<double>(copyBytes) / 1e6,
                100.0 * static_cast<double>(copyBytes) / static_cast<double>(modelBytes), copyGroupMs,
                sqlGroupMs);
    measureFloor(*model, sqlGroupMs);
    std::fflush(stdout);
}

// AT_BENCH_QUERY_PROFILE="SQL": only that query, 10 times (for perf record), and the time of each.
bool profileOnly(const TraceModel &one, int copies)
{
    const QByteArray sql = qgetenv("AT_BENCH_QUERY_PROFILE");
    if (sql.isEmpty())
        return false;
    test::TileOptions options;
    options.copies = copies;
    const std::unique_ptr<TraceModel> model = test::tileModel(one, options);
    QueryEngine engine(*model);
    for (int i = 0; i < 10; ++i) {
        const double start = threadCpuMs();
        runOrDie(engine, QString::fromUtf8(sql));
        std::printf("%.1f ms CPU\n", threadCpuMs() - start);
    }
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    std::vector<int> copies;
    for (int i = 1; i < argc; ++i)
        copies.push_back(std::atoi(argv[i]));
    if (copies.empty())
        copies = {52, 520};
    LoadControl control;
    const QString level1 = QStringLiteral(
        AT_SAMPLES_DIR "/msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt");
    LoadResult loaded = loadTrace(level1, at::environmentLoadOptions(), control);
    if (!loaded.model) {
        std::fprintf(stderr, "%s\n", qPrintable(loaded.error));
        return 1;
    }
    for (int k : copies)
        if (!profileOnly(*loaded.model, k))
            run(*loaded.model, k);
    return 0;
}
