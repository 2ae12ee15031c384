#include "Lcs.h"
#include "StepComparison.h"
#include "TestSupport.h"
#include "TiledModel.h"

#include <QRandomGenerator>
#include <QTest>

using namespace at;

// Kernel matching between two steps: the LCS against a brute-force reference, and comparisons of
// real steps with known, injected changes.
class TestStepCompare : public QObject
{
    Q_OBJECT
    std::unique_ptr<TraceModel> m_level1;

    static QString alexnet(const QString &level)
    {
        return test::samplePath(QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/%1/"
                                               "rank0_ascend_pt")
                                    .arg(level));
    }

    // Length of the longest common subsequence by trying every subsequence of a (a.size() <= 12).
    static std::size_t bruteForceLcs(const std::vector<std::int32_t> &a, const std::vector<std::int32_t> &b)
    {
        std::size_t best = 0;
        for (std::uint32_t mask = 0; mask < (1u << a.size()); ++mask) {
            std::size_t j = 0, length = 0;
            bool ok = true;
            for (std::size_t i = 0; i < a.size() && ok; ++i) {
                if (!(mask & (1u << i)))
                    continue;
                while (j < b.size() && b[j] != a[i])
                    ++j;
                ok = j < b.size();
                ++j;
                ++length;
            }
            if (ok)
                best = std::max(best, length);
        }
        return best;
    }

    static bool isCommonSubsequence(const std::vector<std::pair<std::size_t, std::size_t>> &pairs,
                                    const std::vector<std::int32_t> &a, const std::vector<std::int32_t> &b)
    {
        for (std::size_t k = 0; k < pairs.size(); ++k) {
            const auto [i, j] = pairs[k];
            if (i >= a.size() || j >= b.size() || a[i] != b[j])
                return false;
            if (k > 0 && (i <= pairs[k - 1].first || j <= pairs[k - 1].second))
                return false;
        }
        return true;
    }

    // The name of a device kernel that occurs at least twice in step 50 (the longest such).
    QString repeatedKernel() const
    {
        QHash<QString, int> count;
        QHash<QString, TimeNs> longest;
        for (SliceRef r : m_level1->steps().front().deviceTasks) {
            const QString n = m_level1->sliceName(r);
            ++count[n];
            longest[n] = std::max(longest[n], m_level1->threads()[r.thread].slices.duration(r.index));
        }
        QString best;
        for (auto it = count.begin(); it != count.end(); ++it)
            if (it.value() >= 2 && (best.isEmpty() || longest[it.key()] > longest[best]))
                best = it.key();
        return best;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_level1 = test::loadOrFail(alexnet(QStringLiteral("level1")));
        QVERIFY(m_level1);
        QCOMPARE(m_level1->steps().size(), std::size_t(1));
    }

    void lcsAgainstBruteForce()
    {
        QRandomGenerator random(20261202);
        for (int round = 0; round < 3000; ++round) {
            const int alphabet = 1 + random.bounded(4);
            std::vector<std::int32_t> a(random.bounded(11)), b(random.bounded(11));
            for (auto &v : a)
                v = random.bounded(alphabet);
            for (auto &v : b)
                v = random.bounded(alphabet);
            const auto pairs = longestCommonSubsequence(a, b);
            QVERIFY(isCommonSubsequence(pairs, a, b));
            QCOMPARE(pairs.size(), bruteForceLcs(a, b));
            // The fallback for huge inputs is still a common subsequence, never longer.
            const auto fallback = longestCommonSubsequence(a, b, 0);
            QVERIFY(isCommonSubsequence(fallback, a, b));
            QVERIFY(fallback.size() <= pairs.size());
        }
    }

    void lcsOnLongSimilarSequences()
    {
        // 20,000 kernels with one deletion and one insertion: exact, and the fallback agrees.
        std::vector<std::int32_t> a(20000);
        QRandomGenerator random(7);
        for (auto &v : a)
            v = random.bounded(30);
        std::vector<std::int32_t> b = a;
        b.erase(b.begin() + 5000);
        b.insert(b.begin() + 15000, 99);
        const auto pairs = longestCommonSubsequence(a, b);
        QVERIFY(isCommonSubsequence(pairs, a, b));
        QCOMPARE(pairs.size(), a.size() - 1);
        const auto fallback = longestCommonSubsequence(a, b, 0);
        QVERIFY(isCommonSubsequence(fallback, a, b));
        QVERIFY(fallback.size() > a.size() * 9 / 10);
    }

    void stepAgainstItself()
    {
        const Step &s = m_level1->steps().front();
        const StepComparison c = compareSteps(*m_level1, s, *m_level1, s);
        QCOMPARE(c.matched, s.deviceTasks.size());
        QCOMPARE(c.onlyInBase + c.onlyInComparison, std::size_t(0));
        for (const KernelPair &p : c.kernels) {
            QCOMPARE(p.diff(), TimeNs(0));
            QCOMPARE(p.base, p.comparison);
        }
        QCOMPARE(c.stepTime.diff(), TimeNs(0));
        QVERIFY(!c.metrics.isEmpty()); // PipeUtilization columns on both sides
    }

    void injectedSlowdownAndMissingKernel()
    {
        // Step 51 = step 50 with every `slow` kernel twice as long and the first `missing` task dropped.
        const QString slow = repeatedKernel();
        QVERIFY(!slow.isEmpty());
        const Step &original = m_level1->steps().front();
        SliceRef missing;
        for (SliceRef r : original.deviceTasks)
            if (m_level1->sliceName(r) != slow && m_level1->kernels().rowOfSlice(r.thread, r.index) >= 0) {
                missing = r;
                break;
            }
        QVERIFY(missing.isValid());
        test::TileOptions options;
        options.copies = 2;
        options.duration = [&](int copy, SliceRef ref, TimeNs d) -> TimeNs {
            if (copy != 1)
                return d;
            if (ref == missing)
                return -1;
            return m_level1->sliceName(ref) == slow ? 2 * d : d;
        };
        auto model = test::tileModel(*m_level1, options);
        QCOMPARE(model->steps().size(), std::size_t(2));
        const Step &s50 = model->steps()[0], &s51 = model->steps()[1];
        QCOMPARE(s51.deviceTasks.size() + 1, s50.deviceTasks.size());

        const StepComparison c = compareSteps(*model, s50, *model, s51);
        QCOMPARE(c.matched, s50.deviceTasks.size() - 1);
        QCOMPARE(c.onlyInBase, std::size_t(1));
        QCOMPARE(c.onlyInComparison, std::size_t(0));
        const auto only = std::find_if(c.kernels.begin(), c.kernels.end(),
                                       [](const KernelPair &p) { return !p.matched(); });
        QCOMPARE(only->name, m_level1->sliceName(missing));
        QCOMPARE(only->baseDuration, m_level1->threads()[missing.thread].slices.duration(missing.index));

        for (const KernelPair &p : c.kernels) {
            if (!p.matched())
                continue;
            QCOMPARE(p.name, kernelMatchName(model->sliceName(p.comparison)));
            QCOMPARE(p.diff(), p.name == slow ? p.baseDuration : TimeNs(0));
        }
        const auto slowRow = std::find_if(c.byName.begin(), c.byName.end(),
                                          [&](const KernelNameDiff &d) { return d.name == slow; });
        QVERIFY(slowRow != c.byName.end());
        QCOMPARE(slowRow->comparisonTotal, 2 * slowRow->baseTotal);
        QCOMPARE(slowRow->ratio(), 2.0);
        QCOMPARE(slowRow->baseCount, slowRow->comparisonCount);

        // Totals of the diff table equal the step totals on both sides.
        TimeNs baseSum = 0, comparisonSum = 0, tableBase = 0, tableComparison = 0;
        for (SliceRef r : s50.deviceTasks)
            baseSum += model->threads()[r.thread].slices.duration(r.index);
        for (SliceRef r : s51.deviceTasks)
            comparisonSum += model->threads()[r.thread].slices.duration(r.index);
        for (const KernelNameDiff &d : c.byName) {
            tableBase += d.baseTotal;
            tableComparison += d.comparisonTotal;
        }
        QCOMPARE(tableBase, baseSum);
        QCOMPARE(tableComparison, comparisonSum);
        QCOMPARE(c.kernelTime.base, baseSum);
        QCOMPARE(c.kernelTime.comparison, comparisonSum);
        // Sorted by |diff|: the slowed kernel or the missing one comes first.
        QVERIFY(c.byName.front().name == slow || c.byName.front().name == only->name);
    }

    void twoProfilesWithMetrics()
    {
        // Level1 vs level2 of the same model: one from each of two opened profiles.
        auto level2 = test::loadOrFail(alexnet(QStringLiteral("level2")));
        QVERIFY(level2);
        QCOMPARE(level2->steps().size(), std::size_t(1));
        const StepComparison c =
            compareSteps(*m_level1, m_level1->steps().front(), *level2, level2->steps().front());
        QVERIFY(c.matched >= 180);
        QVERIFY(!c.metrics.isEmpty());
        std::size_t withDeltas = 0;
        for (const KernelPair &p : c.kernels)
            withDeltas += p.matched() && !p.metricDeltas.empty() && !std::isnan(p.metricDeltas.front());
        QVERIFY(withDeltas >= 150);
        QCOMPARE(c.computing.base, m_level1->steps().front().breakdown.computing);
        QCOMPARE(c.computing.comparison, level2->steps().front().breakdown.computing);
    }

    void matchingWithShapesIsStricter()
    {
        const Step &s = m_level1->steps().front();
        CompareOptions shapes;
        shapes.matchShapes = true;
        const StepComparison c = compareSteps(*m_level1, s, *m_level1, s, shapes);
        QCOMPARE(c.matched, s.deviceTasks.size()); // same step: shapes agree
    }

    void communicationOpsMatchAcrossRunCounters()
    {
        QCOMPARE(kernelMatchName(QStringLiteral("hcom_allReduce__586_0_1")),
                 QStringLiteral("hcom_allReduce__*_0_1"));
        QCOMPARE(kernelMatchName(QStringLiteral("hcom_allReduce__271_3_1")),
                 QStringLiteral("hcom_allReduce__*_3_1"));
        QCOMPARE(kernelMatchName(QStringLiteral("MatMul_586_0_1")), QStringLiteral("MatMul_586_0_1"));
        // Level1 vs level2 profiles: their all-reduce ops carry different counters, yet all match.
        auto level2 = test::loadOrFail(alexnet(QStringLiteral("level2")));
        QVERIFY(level2);
        const StepComparison c =
            compareSteps(*m_level1, m_level1->steps().front(), *level2, level2->steps().front());
        std::size_t hccl = 0;
        for (const KernelPair &p : c.kernels)
            if (p.name.startsWith(QLatin1String("hcom_"))) {
                QVERIFY2(p.matched(), qPrintable(p.name));
                ++hccl;
            }
        QCOMPARE(hccl, std::size_t(4));
    }

    void textAndCsv()
    {
        const Step &s = m_level1->steps().front();
        const StepComparison c = compareSteps(*m_level1, s, *m_level1, s);
        const QString text = formatComparisonText(c, QStringLiteral("A"), QStringLiteral("B"));
        QVERIFY(text.contains(QStringLiteral("Kernels: %1 matched, 0 only in base").arg(c.matched)));
        QVERIFY(text.contains(QStringLiteral("Computing")));
        const QList<QByteArray> byName = formatComparisonByNameCsv(c).trimmed().split('\n');
        QCOMPARE(byName.size(), qsizetype(c.byName.size() + 1));
        QVERIFY(byName.front().startsWith("Name,Base Count,Comparison Count,Matched,Base Total(us)"));
        const QList<QByteArray> kernels = formatComparisonKernelsCsv(c).trimmed().split('\n');
        QCOMPARE(kernels.size(), qsizetype(c.kernels.size() + 1));
    }
};

QTEST_GUILESS_MAIN(TestStepCompare)
#include "tst_step_compare.moc"
