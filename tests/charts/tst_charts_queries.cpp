// core/KernelQueries on the real level1 rank0 alexnet folder (191 kernels, PipeUtilization) and on
// small hand-built models (Memory and ResourceConflictRatio groups, a communication thread).
//
// Expected values come from python3's csv module on that folder's
// ASCEND_PROFILER_OUTPUT/kernel_details.csv, durations converted to ns from the `Duration(us)` text
// (integer part * 1000 + the three decimals; no cell has more than three):
//   rows = list(csv.DictReader(open('kernel_details.csv')))
//   by name:  groups[r['Name']].append(ns(r['Duration(us)'])), sorted by -sum
//   by core:  totals[r['Accelerator Core']] += ns(r['Duration(us)'])
//   ratios:   the *_ratio cells of the row named Conv2D1 / aclnnTopk_TopkV2_TopKV2

#include "ChartsTestData.h"
#include "KernelQueries.h"

#include <QTest>

#include <cmath>

using namespace at;

namespace {

struct Expected
{
    const char *name;
    std::size_t count;
    TimeNs total, minimum, maximum;
};

// python: the first six names by total duration.
constexpr Expected kTopByName[] = {
    {"hcom_allReduce__586_0_1", 1, 79'089'520, 79'089'520, 79'089'520},
    {"hcom_allReduce__586_3_1", 1, 22'218'863, 22'218'863, 22'218'863},
    {"hcom_allReduce__586_2_1", 1, 2'402'388, 2'402'388, 2'402'388},
    {"hcom_allReduce__586_1_1", 1, 2'281'105, 2'281'105, 2'281'105},
    {"aclnnForeachAddListV2_ForeachAddListV2_ForeachAddList", 3, 1'959'079, 624'152, 706'614},
    {"aclnnInplaceCopy_TensorMoveAiCore_TensorMove", 11, 573'790, 5'780, 252'385},
};

// python: sum of all 191 durations and the per-core totals (counts).
constexpr TimeNs kAllDurations = 114'865'613;
constexpr TimeNs kAiCore = 2'805'855;             // AI_CORE (23)
constexpr TimeNs kAiVector = 5'823'400 + 238'962; // AI_VECTOR_CORE (149) + MIX_AIV (13)
constexpr TimeNs kHccl = 105'991'876;             // HCCL (4)
constexpr TimeNs kDsa = 5'520;                    // DSA_SQE (2)

double metricOf(const KernelMetricBars &bars, const QString &core, const QString &label)
{
    for (const MetricBar &bar : bars.bars)
        if (bar.core == core && bar.label == label)
            return bar.value;
    return std::nan("");
}

} // namespace

class TestChartsQueries : public QObject
{
    Q_OBJECT
    std::unique_ptr<TraceModel> m_model;

private Q_SLOTS:
    void initTestCase()
    {
        m_model = test::loadLevel1Rank0();
        QVERIFY(m_model);
        QCOMPARE(m_model->kernels().size(), std::size_t(191));
        QCOMPARE(m_model->kernels().metricGroup(), QStringLiteral("PipeUtilization"));
    }

    void aggregatesByNameSortedByTotal()
    {
        const auto all = aggregateKernels(*m_model, KernelGrouping::Name);
        QCOMPARE(all.size(), std::size_t(82)); // python: len(set(r['Name'] for r in rows))
        std::size_t count = 0;
        TimeNs total = 0;
        for (std::size_t i = 0; i < all.size(); ++i) {
            count += all[i].count;
            total += all[i].total;
            QCOMPARE(all[i].rows.size(), all[i].count);
            if (i > 0)
                QVERIFY(all[i - 1].total >= all[i].total);
        }
        QCOMPARE(count, std::size_t(191));
        QCOMPARE(total, kAllDurations);
        for (std::size_t i = 0; i < std::size(kTopByName); ++i) {
            const Expected &e = kTopByName[i];
            QCOMPARE(m_model->strings().qstring(all[i].name), QString::fromLatin1(e.name));
            QCOMPARE(all[i].count, e.count);
            QCOMPARE(all[i].total, e.total);
            QCOMPARE(all[i].minimum, e.minimum);
            QCOMPARE(all[i].maximum, e.maximum);
            QCOMPARE(m_model->kernels().rows()[all[i].longestRow].duration, e.maximum);
        }
        QCOMPARE(all[4].average(), TimeNs(653'026)); // 1959079 / 3, truncated
        QCOMPARE(all[0].category, TaskCategory::Communication);
        QCOMPARE(all[4].category, TaskCategory::AiVector);
    }

    void aggregatesByNameAndShape()
    {
        const auto all = aggregateKernels(*m_model, KernelGrouping::NameAndShape);
        QCOMPARE(all.size(), std::size_t(160)); // python: distinct (Name, Input Shapes)
        // python: the 6th and 7th (name, shape) groups by total.
        QCOMPARE(m_model->strings().qstring(all[5].name), QStringLiteral("aclnnAddmm_MatMulCommon_MatMulV2"));
        QCOMPARE(m_model->strings().qstring(all[5].inputShapes), QStringLiteral("32,9216;4096,9216;4096"));
        QCOMPARE(all[5].count, std::size_t(1));
        QCOMPARE(all[5].total, TimeNs(346'567));
        QCOMPARE(m_model->strings().qstring(all[6].name), QStringLiteral("Conv2D1"));
        QCOMPARE(all[6].total, TimeNs(313'886));
        QCOMPARE(all[6].category, TaskCategory::AiCore);
    }

    void topNIsThePrefix()
    {
        const auto top = topKernels(*m_model, 5);
        QCOMPARE(top.size(), std::size_t(5));
        for (std::size_t i = 0; i < top.size(); ++i)
            QCOMPARE(top[i].total, kTopByName[i].total);
        QCOMPARE(topKernels(*m_model, 1000).size(), std::size_t(82));
        QVERIFY(topKernels(*m_model, 0).empty());
    }

    void filterRestrictsRows()
    {
        const auto aiCore = test::rowsWithCore(*m_model, {QStringLiteral("AI_CORE")});
        QCOMPARE(aiCore.size(), std::size_t(23));
        const auto top = topKernels(*m_model, 3, KernelGrouping::Name, aiCore);
        // python, AI_CORE rows only: aclnnAddmm_MatMulCommon_MatMulV2 x3 518730 ns on top.
        QCOMPARE(m_model->strings().qstring(top[0].name), QStringLiteral("aclnnAddmm_MatMulCommon_MatMulV2"));
        QCOMPARE(top[0].count, std::size_t(3));
        QCOMPARE(top[0].total, TimeNs(518'730));
        const TaskTimeBreakdown b = timeByTaskCategory(*m_model, aiCore);
        QCOMPARE(b.sum(), kAiCore);
        QCOMPARE(b.count[static_cast<std::size_t>(TaskCategory::AiCore)], std::size_t(23));
        // Out-of-range filter entries are ignored.
        QCOMPARE(timeByTaskCategory(*m_model, {aiCore[0], 100000}).sum(),
                 m_model->kernels().rows()[aiCore[0]].duration);
    }

    void breakdownByTaskType()
    {
        const TaskTimeBreakdown b = timeByTaskCategory(*m_model);
        QCOMPARE(b.sum(), kAllDurations);
        QCOMPARE(b.of(TaskCategory::AiCore), kAiCore);
        QCOMPARE(b.of(TaskCategory::AiVector), kAiVector);
        QCOMPARE(b.of(TaskCategory::AiCpu), TimeNs(0));
        QCOMPARE(b.of(TaskCategory::Communication), kHccl);
        QCOMPARE(b.of(TaskCategory::Other), kDsa);
        QCOMPARE(b.count[static_cast<std::size_t>(TaskCategory::AiCore)], std::size_t(23));
        QCOMPARE(b.count[static_cast<std::size_t>(TaskCategory::AiVector)], std::size_t(162));
        QCOMPARE(b.count[static_cast<std::size_t>(TaskCategory::Communication)], std::size_t(4));
        QCOMPARE(b.count[static_cast<std::size_t>(TaskCategory::Other)], std::size_t(2));
    }

    void categoriesOfCores()
    {
        QCOMPARE(taskCategoryOfCore(QStringLiteral("AI_CORE")), TaskCategory::AiCore);
        QCOMPARE(taskCategoryOfCore(QStringLiteral("MIX_AIC")), TaskCategory::AiCore);
        QCOMPARE(taskCategoryOfCore(QStringLiteral("AI_VECTOR_CORE")), TaskCategory::AiVector);
        QCOMPARE(taskCategoryOfCore(QStringLiteral("MIX_AIV")), TaskCategory::AiVector);
        QCOMPARE(taskCategoryOfCore(QStringLiteral("AI_CPU")), TaskCategory::AiCpu);
        QCOMPARE(taskCategoryOfCore(QStringLiteral("HCCL")), TaskCategory::Communication);
        QCOMPARE(taskCategoryOfCore(QStringLiteral("COMMUNICATION")), TaskCategory::Communication);
        QCOMPARE(taskCategoryOfCore(QStringLiteral("DSA_SQE")), TaskCategory::Other);
        QCOMPARE(taskCategoryOfCore(QStringLiteral("N/A")), TaskCategory::Other);
        QCOMPARE(taskCategoryName(TaskCategory::AiVector), QStringLiteral("AI Vector"));
    }

    void pipeUtilizationBarsOfAKnownKernel()
    {
        const MetricChartColumns columns = metricChartColumns(m_model->kernels());
        QCOMPARE(columns.kind, MetricChartKind::PipeUtilization);
        QCOMPARE(columns.columns.size(),
                 std::size_t(9)); // aic mac/scalar/mte1/mte2/fixpipe, aiv vec/scalar/mte2/mte3

        const std::ptrdiff_t conv = test::kernelRow(*m_model, QStringLiteral("Conv2D1"));
        QVERIFY(conv >= 0);
        const KernelMetricBars bars = kernelMetricBars(*m_model, static_cast<std::size_t>(conv));
        QCOMPARE(bars.kind, MetricChartKind::PipeUtilization);
        QCOMPARE(bars.bars.size(), std::size_t(9));
        // python: Conv2D1 aic_mac_ratio 0.519, aic_scalar_ratio 0.755, aic_mte1_ratio 0.883,
        // aic_mte2_ratio 0.913, aic_fixpipe_ratio 0.085; every aiv_* ratio 0.0.
        const QString aic = QStringLiteral("aic"), aiv = QStringLiteral("aiv");
        QCOMPARE(metricOf(bars, aic, QStringLiteral("mac")), 0.519);
        QCOMPARE(metricOf(bars, aic, QStringLiteral("scalar")), 0.755);
        QCOMPARE(metricOf(bars, aic, QStringLiteral("mte1")), 0.883);
        QCOMPARE(metricOf(bars, aic, QStringLiteral("mte2")), 0.913);
        QCOMPARE(metricOf(bars, aic, QStringLiteral("fixpipe")), 0.085);
        QCOMPARE(metricOf(bars, aiv, QStringLiteral("vec")), 0.0);
        QCOMPARE(metricOf(bars, aiv, QStringLiteral("mte3")), 0.0);
        QCOMPARE(m_model->kernels().columns()[bars.bars.front().column].header,
                 QStringLiteral("aic_mac_ratio"));

        // python: aclnnTopk_TopkV2_TopKV2 (MIX_AIV) aiv_vec 0.497, aiv_scalar 0.265, aiv_mte2 0.024, aiv_mte3
        // 0.04.
        const std::ptrdiff_t topk = test::kernelRow(*m_model, QStringLiteral("aclnnTopk_TopkV2_TopKV2"));
        const KernelMetricBars mix = kernelMetricBars(*m_model, static_cast<std::size_t>(topk));
        QCOMPARE(metricOf(mix, aiv, QStringLiteral("vec")), 0.497);
        QCOMPARE(metricOf(mix, aiv, QStringLiteral("scalar")), 0.265);
        QCOMPARE(metricOf(mix, aiv, QStringLiteral("mte2")), 0.024);
        QCOMPARE(metricOf(mix, aiv, QStringLiteral("mte3")), 0.04);
        QCOMPARE(metricOf(mix, aic, QStringLiteral("mac")), 0.0);

        // Communication rows have no metrics.
        const std::ptrdiff_t hccl = test::kernelRow(*m_model, QStringLiteral("hcom_allReduce__586_0_1"));
        const KernelMetricBars none = kernelMetricBars(*m_model, static_cast<std::size_t>(hccl));
        QCOMPARE(none.kind, MetricChartKind::None);
        QVERIFY(none.bars.empty());
    }

    void longestKernel()
    {
        // python: the longest row with an aic_mac_ratio is a ForeachAddList at 706.614 us (the
        // longest row overall, hcom_allReduce__586_0_1, has no metrics).
        const std::ptrdiff_t longest = longestKernelRow(*m_model);
        QVERIFY(longest >= 0);
        const KernelRecord &k = m_model->kernels().rows()[static_cast<std::size_t>(longest)];
        QCOMPARE(m_model->strings().qstring(k.name),
                 QStringLiteral("aclnnForeachAddListV2_ForeachAddListV2_ForeachAddList"));
        QCOMPARE(k.duration, TimeNs(706'614));
        const std::ptrdiff_t named = longestKernelRow(*m_model, QStringLiteral("hcom_allReduce__586_3_1"));
        QCOMPARE(m_model->kernels().rows()[static_cast<std::size_t>(named)].duration, TimeNs(22'218'863));
        QCOMPARE(longestKernelRow(*m_model, QStringLiteral("no such kernel")), std::ptrdiff_t(-1));
    }

    void scatterPoints()
    {
        const KernelTable &table = m_model->kernels();
        const int mac = defaultScatterColumn(table);
        QVERIFY(mac >= 0);
        QCOMPARE(table.columns()[static_cast<std::size_t>(mac)].header, QStringLiteral("aic_mac_ratio"));
        QCOMPARE(scatterMetricColumns(table).size(), table.columns().size()); // every column has values
        const auto points = durationVsMetric(*m_model, static_cast<std::size_t>(mac));
        QCOMPARE(points.size(), std::size_t(185)); // python: 191 rows, 6 (HCCL, DSA_SQE) with N/A
        const std::ptrdiff_t conv = test::kernelRow(*m_model, QStringLiteral("Conv2D1"));
        bool found = false;
        for (const ScatterPoint &p : points) {
            if (p.row == static_cast<std::size_t>(conv)) {
                found = true;
                QCOMPARE(p.value, 0.519);
                QCOMPARE(p.durationUs, 313.886);
            }
        }
        QVERIFY(found);
        QVERIFY(durationVsMetric(*m_model, 10000).empty());
    }

    void memoryGroupBars()
    {
        const auto model = test::syntheticModel(QStringLiteral("Memory"));
        QVERIFY(model);
        const MetricChartColumns columns = metricChartColumns(model->kernels());
        QCOMPARE(columns.kind, MetricChartKind::Bandwidth);
        QCOMPARE(columns.unit, QStringLiteral("GB/s"));
        QCOMPARE(columns.columns.size(), std::size_t(3));
        const KernelMetricBars a = kernelMetricBars(*model, 0);
        QCOMPARE(a.kind, MetricChartKind::Bandwidth);
        QCOMPARE(a.bars.size(), std::size_t(2)); // the NaN cell is skipped
        QCOMPARE(a.bars[0].label, QStringLiteral("ub_read_bw"));
        QCOMPARE(a.bars[0].value, 12.5);
        QCOMPARE(a.bars[1].label, QStringLiteral("main_mem_read_bw"));
        QCOMPARE(a.bars[1].value, 3.0);
        QCOMPARE(kernelMetricBars(*model, 2).kind, MetricChartKind::None);
        // The longest kernel with metrics is bw_b (30 us), not comm (50 us, no metrics).
        QCOMPARE(longestKernelRow(*model), std::ptrdiff_t(1));
    }

    void resourceConflictBars()
    {
        const auto model = test::syntheticModel(QStringLiteral("ResourceConflictRatio"));
        QVERIFY(model);
        QCOMPARE(metricChartColumns(model->kernels()).kind, MetricChartKind::Ratio);
        const KernelMetricBars a = kernelMetricBars(*model, 0);
        QCOMPARE(a.kind, MetricChartKind::Ratio);
        QCOMPARE(a.bars.size(), std::size_t(2));
        QCOMPARE(a.bars[0].label, QStringLiteral("vec_bank_cflt"));
        QCOMPARE(a.bars[0].value, 0.25);
        QCOMPARE(a.bars[1].label, QStringLiteral("vec_resc_cflt"));
        QCOMPARE(a.bars[1].value, 0.5);
        // No mac ratio: the scatter defaults to the first column with values.
        QCOMPARE(defaultScatterColumn(model->kernels()), 0);
    }

    void communicationThreadMakesCommunication()
    {
        const auto model = test::syntheticModel(QStringLiteral("Memory"));
        QVERIFY(model);
        const KernelRecord &comm = model->kernels().rows()[2];
        QVERIFY2(comm.joined(), "the N/A row should join the slice on the Communication process");
        QCOMPARE(taskCategory(*model, 2), TaskCategory::Communication);
        QCOMPARE(taskCategory(*model, 3), TaskCategory::AiCpu);
        const TaskTimeBreakdown b = timeByTaskCategory(*model);
        QCOMPARE(b.of(TaskCategory::AiCore), TimeNs(10'000));
        QCOMPARE(b.of(TaskCategory::AiVector), TimeNs(30'000));
        QCOMPARE(b.of(TaskCategory::Communication), TimeNs(50'000));
        QCOMPARE(b.of(TaskCategory::AiCpu), TimeNs(7'000));
        QCOMPARE(b.sum(), TimeNs(97'000));
    }
};

QTEST_GUILESS_MAIN(TestChartsQueries)
#include "tst_charts_queries.moc"
