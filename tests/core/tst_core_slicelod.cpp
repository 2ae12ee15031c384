// core/SliceLod: the per-column picture drawn from the level of detail against brute force over every
// slice, on seeded random tables (dense bursts with idle gaps, long slices spanning many buckets,
// zero-length slices, improperly overlapping slices) at many zoom levels and offsets: the columns
// with work must be exactly the same, busy time must add up.

#include "SliceLod.h"
#include "SliceTable.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

using at::SliceLod;
using at::SliceTable;
using at::TimeNs;

namespace {

struct Generator
{
    std::mt19937_64 rng;
    explicit Generator(std::uint64_t seed) : rng(seed) {}
    std::int64_t uniform(std::int64_t lo, std::int64_t hi)
    {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    }
    bool chance(int percent) { return uniform(0, 99) < percent; }

    // Bursts of short slices separated by idle gaps, some long ones and some zero-length ones, at
    // one depth mostly (overlaps make a few deeper).
    std::vector<SliceTable::Raw> make(int n)
    {
        std::vector<SliceTable::Raw> raw;
        TimeNs t = uniform(0, 1'000'000);
        for (int i = 0; i < n; ++i) {
            if (chance(2))
                t += uniform(1'000'000, 50'000'000); // idle gap
            TimeNs d = uniform(1, 2'000);
            if (chance(1))
                d = uniform(100'000, 20'000'000); // long: spans many buckets
            if (chance(3))
                d = 0;
            TimeNs s = t;
            if (chance(1))
                s = std::max<TimeNs>(0, t - uniform(1, 500)); // improper overlap with the previous one
            raw.push_back({s, d, static_cast<at::StringId>(uniform(1, 9)), 0, at::kNoSource});
            t = s + d + (chance(30) ? 0 : uniform(1, 3'000));
        }
        return raw;
    }
};

struct Expected
{
    std::vector<char> work;
    std::vector<double> busy;
};

std::int64_t columnOf(TimeNs t, TimeNs start, double npp)
{
    return at::ColumnGrid{start, npp}.columnOf(t);
}

TimeNs columnStart(std::int64_t c, TimeNs start, double npp)
{
    return at::ColumnGrid{start, npp}.columnStart(c);
}

// Every slice, one by one: which columns it touches and how much of each it covers (union).
Expected bruteForce(const SliceTable &t, int d, TimeNs start, double npp, int count)
{
    Expected e{std::vector<char>(static_cast<std::size_t>(count), 0),
               std::vector<double>(static_cast<std::size_t>(count), 0)};
    const TimeNs end = columnStart(count, start, npp);
    const auto [first, last] = t.depthRange(d);
    TimeNs covered = std::numeric_limits<TimeNs>::min();
    for (auto i = first; i < last; ++i) {
        const TimeNs s = t.start(i);
        const TimeNs lastNs = t.duration(i) == 0 ? s : t.end(i) - 1;
        if (lastNs < start || s >= end)
            continue;
        const auto c0 = std::max<std::int64_t>(0, columnOf(std::max(s, start), start, npp));
        const auto c1 = std::min<std::int64_t>(count - 1, columnOf(std::min(lastNs, end - 1), start, npp));
        for (auto c = c0; c <= c1; ++c) {
            e.work[static_cast<std::size_t>(c)] = 1;
            const TimeNs from = std::max({s, columnStart(c, start, npp), covered});
            const TimeNs to = std::min(t.end(i), columnStart(c + 1, start, npp));
            if (to > from)
                e.busy[static_cast<std::size_t>(c)] += static_cast<double>(to - from);
        }
        covered = std::max(covered, t.end(i));
    }
    return e;
}

} // namespace

class TestSliceLod : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void matchesBruteForce_data()
    {
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<int>("slices");
        for (quint64 seed = 1; seed <= 12; ++seed)
            QTest::addRow("seed %llu", static_cast<unsigned long long>(seed))
                << seed << int(500 + seed * 700);
    }

    void matchesBruteForce()
    {
        QFETCH(quint64, seed);
        QFETCH(int, slices);
        Generator g(seed);
        const SliceTable table = SliceTable::build(g.make(slices));
        const SliceLod lod = SliceLod::build(table);
        QVERIFY(lod.baseBucket(0) > 0);
        const auto [first, last] = table.depthRange(0);
        const TimeNs begin = table.start(first);
        TimeNs endAll = begin;
        for (auto i = first; i < last; ++i)
            endAll = std::max(endAll, table.end(i));
        int checked = 0;
        for (int count : {97, 1000, 1920}) {
            // From the full view down to the base bucket, at random offsets.
            for (double npp = static_cast<double>(endAll - begin) / count * 1.3; npp >= 1; npp /= 1.7) {
                for (int k = 0; k < 3; ++k) {
                    const TimeNs start = k == 0 ? begin - 1000 : g.uniform(begin, endAll);
                    std::vector<SliceLod::Column> cols;
                    if (!lod.columns(0, start, npp, count, cols)) {
                        QVERIFY(npp < static_cast<double>(lod.baseBucket(0)));
                        continue;
                    }
                    ++checked;
                    const Expected e = bruteForce(table, 0, start, npp, count);
                    double lodTotal = 0, exactTotal = 0;
                    for (int c = 0; c < count; ++c) {
                        const auto &col = cols[static_cast<std::size_t>(c)];
                        QVERIFY2(col.work == (e.work[static_cast<std::size_t>(c)] != 0),
                                 qPrintable(QStringLiteral("npp %1 start %2 column %3: lod %4 exact %5")
                                                .arg(npp)
                                                .arg(start)
                                                .arg(c)
                                                .arg(col.work)
                                                .arg(int(e.work[static_cast<std::size_t>(c)]))));
                        // A bucket straddling a column edge is split by extent, not by content.
                        QVERIFY(std::abs(col.busy - e.busy[static_cast<std::size_t>(c)]) <= npp + 1);
                        QVERIFY(col.busy <= npp * 1.001 + 1);
                        if (col.work)
                            QVERIFY(col.name >= 1 && col.name <= 9);
                        lodTotal += col.busy;
                        exactTotal += e.busy[static_cast<std::size_t>(c)];
                    }
                    QVERIFY(std::abs(lodTotal - exactTotal) <= 2 * npp + 1e-4 * exactTotal);
                }
            }
        }
        QVERIFY(checked > 10);
    }

    void memoryIsSmall()
    {
        Generator g(99);
        const SliceTable table = SliceTable::build(g.make(200'000));
        const SliceLod lod = SliceLod::build(table);
        const double perSlice = static_cast<double>(lod.memoryBytes()) / static_cast<double>(table.size());
        qInfo("SliceLod: %.2f bytes per slice (%d levels at depth 0)", perSlice, lod.levelCount(0));
        // Bursts every ~50 slices and long slices every ~100 are a hard case (real device lanes are
        // denser: see docs/PERFORMANCE.md); 24-byte records, ~1 per 6 slices at the base level.
        QVERIFY(perSlice < 12);
    }

    void levelsAreSortedAndDisjoint()
    {
        Generator g(7);
        const SliceTable table = SliceTable::build(g.make(20'000));
        const SliceLod lod = SliceLod::build(table);
        for (int d = 0; d < table.depthCount(); ++d) {
            if (lod.baseBucket(d) == 0)
                continue;
            for (int l = 0; l < lod.levelCount(d); ++l) {
                const auto &records = lod.level(d, l);
                for (std::size_t i = 0; i < records.size(); ++i) {
                    QVERIFY(records[i].first <= records[i].last);
                    if (i > 0)
                        QVERIFY(records[i - 1].last < records[i].first);
                }
            }
            QCOMPARE(lod.level(d, lod.levelCount(d) - 1).size() <= 3, true);
        }
    }

    void smallDepthsHaveNoSummary()
    {
        const SliceTable table =
            SliceTable::build({{0, 10, 1, 0, at::kNoSource}, {20, 10, 2, 0, at::kNoSource}});
        const SliceLod lod = SliceLod::build(table);
        QCOMPARE(lod.baseBucket(0), TimeNs(0));
        std::vector<SliceLod::Column> cols;
        QVERIFY(!lod.columns(0, 0, 100.0, 10, cols));
    }
};

QTEST_GUILESS_MAIN(TestSliceLod)
#include "tst_core_slicelod.moc"
