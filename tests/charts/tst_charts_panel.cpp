// widgets/ChartsPanel and its chart builders on the real level1 rank0 alexnet folder (offscreen).
// Expected values come from python3's csv module on that folder's
// ASCEND_PROFILER_OUTPUT/kernel_details.csv (see tst_charts_queries.cpp for the method):
//   top names by total: hcom_allReduce__586_0_1 79089.52 us, _3_1 22218.863, _2_1 2402.388,
//   _1_1 2281.105 (HCCL), aclnnForeachAddListV2_ForeachAddListV2_ForeachAddList 1959.079 (AI_VECTOR_CORE)
//   Conv2D1: aic mac 0.519, scalar 0.755, mte1 0.883, mte2 0.913, fixpipe 0.085, duration 313.886 us
//   per core: AI_CORE 2805.855 us, AI_VECTOR_CORE + MIX_AIV 6062.362, HCCL 105991.876, DSA_SQE 5.52

#include "ChartsPanel.h"
#include "ChartsTestData.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QPieSeries>
#include <QPieSlice>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QValueAxis>

#include <memory>

using namespace at;

namespace {

template <typename T> T *onlySeries(QChart *chart)
{
    if (!chart || chart->series().size() != 1)
        return nullptr;
    return qobject_cast<T *>(chart->series().front());
}

QBarSet *setNamed(QAbstractBarSeries *series, const QString &label)
{
    for (QBarSet *set : series->barSets())
        if (set->label() == label)
            return set;
    return nullptr;
}

QStringList categoriesOf(QChart *chart)
{
    for (QAbstractAxis *axis : chart->axes(Qt::Vertical))
        if (auto *categories = qobject_cast<QBarCategoryAxis *>(axis))
            return categories->categories();
    return {};
}

double pieSum(QPieSeries *pie)
{
    double sum = 0;
    for (QPieSlice *slice : pie->slices())
        sum += slice->value();
    return sum;
}

} // namespace

class TestChartsPanel : public QObject
{
    Q_OBJECT
    std::unique_ptr<TraceModel> m_model;
    std::size_t m_conv = 0;

private Q_SLOTS:
    void initTestCase()
    {
        m_model = test::loadLevel1Rank0();
        QVERIFY(m_model);
        QCOMPARE(m_model->kernels().size(), std::size_t(191));
        const std::ptrdiff_t conv = test::kernelRow(*m_model, QStringLiteral("Conv2D1"));
        QVERIFY(conv >= 0);
        m_conv = static_cast<std::size_t>(conv);
    }

    void chartNames()
    {
        for (ChartKind kind :
             {ChartKind::TopKernels, ChartKind::KernelMetrics, ChartKind::TimeByType, ChartKind::Scatter})
            QCOMPARE(chartKindFromName(chartKindName(kind)), std::optional<ChartKind>(kind));
        QCOMPARE(chartKindName(ChartKind::TimeByType), QStringLiteral("time-by-type"));
        QVERIFY(!chartKindFromName(QStringLiteral("pie")));
    }

    void topKernelsChart()
    {
        std::unique_ptr<QChart> chart(buildTopKernelsChart(*m_model, 5));
        auto *series = onlySeries<QHorizontalStackedBarSeries>(chart.get());
        QVERIFY(series);
        // Largest on top: the category axis lists bottom-up.
        const QStringList categories = categoriesOf(chart.get());
        QCOMPARE(categories.size(), 5);
        QCOMPARE(categories.last(), QStringLiteral("1. hcom_allReduce__586_0_1"));
        QCOMPARE(categories[3], QStringLiteral("2. hcom_allReduce__586_3_1"));
        QVERIFY(categories.first().startsWith(QStringLiteral("5. aclnnForeachAddListV2_")));
        // Coloured by task type: one set per category present, each bar in exactly one set.
        QCOMPARE(series->count(), 2);
        QBarSet *comm = setNamed(series, QStringLiteral("Communication"));
        QBarSet *vector = setNamed(series, QStringLiteral("AI Vector"));
        QVERIFY(comm && vector);
        QCOMPARE(comm->color(), taskCategoryColor(TaskCategory::Communication));
        const double commValues[] = {0, 2281.105, 2402.388, 22218.863, 79089.52};
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(comm->at(i), commValues[i]);
            QCOMPARE(vector->at(i), i == 0 ? 1959.079 : 0.0);
        }
        // The bar's kernel is the longest of its group.
        const KernelRows rows = seriesKernelRows(series);
        QCOMPARE(rows.size(), std::size_t(5));
        QCOMPARE(m_model->kernels().rows()[rows[0]].duration, TimeNs(706'614));
        QCOMPARE(series->property(kToolTipsProperty).toStringList().size(), 5);
    }

    void kernelMetricsChartOfAKnownKernel()
    {
        std::unique_ptr<QChart> chart(buildKernelMetricsChart(*m_model, {m_conv}));
        auto *series = onlySeries<QHorizontalBarSeries>(chart.get());
        QVERIFY(series);
        // Pipes run in parallel, so their bars stand side by side, not stacked.
        QVERIFY(!qobject_cast<QHorizontalStackedBarSeries *>(series));
        // Conv2D1 runs on the cube core only (its aiv ratios are all 0): one group of bars.
        QCOMPARE(categoriesOf(chart.get()), QStringList{QStringLiteral("AI Cube (aic)")});
        QCOMPARE(seriesKernelRows(series), KernelRows{m_conv});
        const std::pair<const char *, double> expected[] = {
            {"mac", 51.9}, {"scalar", 75.5}, {"mte1", 88.3}, {"mte2", 91.3}, {"fixpipe", 8.5}};
        QCOMPARE(series->count(), 5);
        for (const auto &[pipe, percent] : expected) {
            QBarSet *set = setNamed(series, QString::fromLatin1(pipe));
            QVERIFY2(set, pipe);
            QCOMPARE(set->count(), 1);
            QVERIFY(qFuzzyCompare(set->at(0), percent));
        }
        // Each bar is one pipe's share: a 0-100 % axis in steps of 20 (the ratios add up to 315.5 %,
        // which a stacked bar used to show).
        auto *axis = qobject_cast<QValueAxis *>(chart->axes(Qt::Horizontal).value(0));
        QVERIFY(axis);
        QCOMPARE(axis->min(), 0.0);
        QCOMPARE(axis->max(), 100.0);
        QCOMPARE(axis->tickCount(), 6);

        // Two kernels: one category per (kernel, busy core), first kernel on top.
        const std::size_t topk =
            static_cast<std::size_t>(test::kernelRow(*m_model, QStringLiteral("aclnnTopk_TopkV2_TopKV2")));
        std::unique_ptr<QChart> two(buildKernelMetricsChart(*m_model, {m_conv, topk}));
        auto *both = onlySeries<QHorizontalBarSeries>(two.get());
        QVERIFY(both);
        const QStringList categories = categoriesOf(two.get());
        QCOMPARE(categories.size(), 2);
        QCOMPARE(categories[1], QStringLiteral("1. Conv2D1 · aic"));
        QCOMPARE(categories[0], QStringLiteral("2. aclnnTopk_TopkV2_TopKV2 · aiv"));
        QVERIFY(qFuzzyCompare(setNamed(both, QStringLiteral("vec"))->at(0), 49.7));
        QCOMPARE(setNamed(both, QStringLiteral("vec"))->at(1), 0.0);
        QVERIFY(qFuzzyCompare(setNamed(both, QStringLiteral("mac"))->at(1), 51.9));
    }

    void kernelMetricsDefaultsToTheLongestKernelWithMetrics()
    {
        std::unique_ptr<QChart> chart(buildKernelMetricsChart(*m_model, {}));
        auto *series = onlySeries<QHorizontalBarSeries>(chart.get());
        QVERIFY(series);
        const KernelRows rows = seriesKernelRows(series);
        QVERIFY(!rows.empty());
        QCOMPARE(m_model->kernels().rows()[rows[0]].duration, TimeNs(706'614));
        // python: that ForeachAddList row has aiv_mte2_ratio 0.987.
        QVERIFY(qFuzzyCompare(setNamed(series, QStringLiteral("mte2"))->at(0), 98.7));

        // A communication kernel has no metric values: the title says so.
        const std::size_t hccl =
            static_cast<std::size_t>(test::kernelRow(*m_model, QStringLiteral("hcom_allReduce__586_0_1")));
        std::unique_ptr<QChart> none(buildKernelMetricsChart(*m_model, {hccl}));
        QVERIFY(none->series().isEmpty());
        QVERIFY(none->title().contains(QStringLiteral("no PipeUtilization values")));
    }

    void kernelMetricsDrawsAtMostTwelveKernels()
    {
        const KernelRows aiCore = test::rowsWithCore(*m_model, {QStringLiteral("AI_CORE")});
        QCOMPARE(aiCore.size(), std::size_t(23));
        std::unique_ptr<QChart> chart(buildKernelMetricsChart(*m_model, aiCore));
        QVERIFY(chart->title().endsWith(QStringLiteral("(first 12 of 23 selected)")));
        // Every AI_CORE kernel here uses only the cube core: one category per kernel.
        QCOMPARE(categoriesOf(chart.get()).size(), 12);
    }

    void memoryAndConflictCharts()
    {
        const auto memory = test::syntheticModel(QStringLiteral("Memory"));
        std::unique_ptr<QChart> chart(buildKernelMetricsChart(*memory, {0, 1}));
        auto *bars = onlySeries<QHorizontalBarSeries>(chart.get());
        QVERIFY(bars);
        // Categories are the GB/s columns (first column on top), one bar set per kernel.
        QCOMPARE(categoriesOf(chart.get()),
                 (QStringList{QStringLiteral("aiv main_mem_read_bw"), QStringLiteral("aiv ub_write_bw"),
                              QStringLiteral("aic ub_read_bw")}));
        QCOMPARE(bars->count(), 2);
        const QBarSet *a = bars->barSets()[0];
        const QBarSet *b = bars->barSets()[1];
        QCOMPARE(a->at(0), 3.0);
        QCOMPARE(a->at(1), 0.0);
        QCOMPARE(a->at(2), 12.5);
        QCOMPARE(b->at(0), 0.5);
        QCOMPARE(b->at(1), 40.0);
        QCOMPARE(seriesKernelRows(bars), (KernelRows{0, 1}));

        const auto conflict = test::syntheticModel(QStringLiteral("ResourceConflictRatio"));
        std::unique_ptr<QChart> ratios(buildKernelMetricsChart(*conflict, {0}));
        auto *ratioBars = onlySeries<QHorizontalBarSeries>(ratios.get());
        QVERIFY(ratioBars);
        QCOMPARE(categoriesOf(ratios.get()),
                 (QStringList{QStringLiteral("aiv vec_resc_cflt"), QStringLiteral("aiv vec_bank_cflt")}));
        QCOMPARE(ratioBars->barSets()[0]->at(0), 50.0); // percent
        QCOMPARE(ratioBars->barSets()[0]->at(1), 25.0);
    }

    void timeByTypePie()
    {
        std::unique_ptr<QChart> chart(buildTimeByTypeChart(*m_model));
        auto *pie = onlySeries<QPieSeries>(chart.get());
        QVERIFY(pie);
        QCOMPARE(pie->count(), 4);                       // no AI CPU kernels in this profile
        QVERIFY(qFuzzyCompare(pieSum(pie), 114865.613)); // the sum of all 191 durations
        const std::pair<const char *, double> expected[] = {
            {"AI Core", 2805.855}, {"AI Vector", 6062.362}, {"Communication", 105991.876}, {"Other", 5.52}};
        for (int i = 0; i < 4; ++i) {
            QVERIFY(pie->slices()[i]->label().startsWith(QString::fromLatin1(expected[i].first)));
            QVERIFY(qFuzzyCompare(pie->slices()[i]->value(), expected[i].second));
        }
        QCOMPARE(pie->slices()[2]->color(), taskCategoryColor(TaskCategory::Communication));
    }

    void scatterChart()
    {
        const int mac = defaultScatterColumn(m_model->kernels());
        std::unique_ptr<QChart> chart(buildScatterChart(*m_model, mac));
        int points = 0;
        bool found = false;
        for (QAbstractSeries *s : chart->series()) {
            auto *scatter = qobject_cast<QScatterSeries *>(s);
            QVERIFY(scatter);
            const KernelRows rows = seriesKernelRows(scatter);
            QCOMPARE(rows.size(), static_cast<std::size_t>(scatter->count()));
            points += scatter->count();
            for (int i = 0; i < scatter->count(); ++i) {
                if (rows[static_cast<std::size_t>(i)] == m_conv) {
                    found = true;
                    QCOMPARE(scatter->at(i), QPointF(0.519, 313.886));
                    QCOMPARE(scatter->name(), QStringLiteral("AI Core (23)"));
                }
            }
        }
        QCOMPARE(points, 185); // 191 kernels, 6 without aic_mac_ratio (HCCL, DSA_SQE)
        QVERIFY(found);
        QCOMPARE(chart->series().size(), 2); // AI Core 23, AI Vector 162
    }

    void panelFollowsChooserSpinBoxAndFilter()
    {
        ChartsPanel panel;
        panel.setModel(m_model.get());
        QCOMPARE(panel.currentChart(), ChartKind::TopKernels);
        QCOMPARE(categoriesOf(panel.chart()).size(), 10);
        panel.topCountBox()->setValue(3);
        QCOMPARE(categoriesOf(panel.chart()).size(), 3);
        QCOMPARE(categoriesOf(panel.chart()).last(), QStringLiteral("1. hcom_allReduce__586_0_1"));

        panel.setCurrentChart(ChartKind::TimeByType);
        QVERIFY(onlySeries<QPieSeries>(panel.chart()));
        QCOMPARE(onlySeries<QPieSeries>(panel.chart())->count(), 4);
        panel.setFilter(test::rowsWithCore(*m_model, {QStringLiteral("AI_CORE")}));
        auto *pie = onlySeries<QPieSeries>(panel.chart());
        QCOMPARE(pie->count(), 1);
        QVERIFY(qFuzzyCompare(pieSum(pie), 2805.855));
        panel.setFilter({});
        QCOMPARE(onlySeries<QPieSeries>(panel.chart())->count(), 4);

        panel.setCurrentChart(ChartKind::Scatter);
        QCOMPARE(panel.metricChooser()->currentText(), QStringLiteral("aic_mac_ratio"));
        QCOMPARE(panel.metricChooser()->count(), static_cast<int>(m_model->kernels().columns().size()));
        const int vec = m_model->kernels().columnIndex(QStringLiteral("aiv_vec_ratio"));
        panel.setScatterColumn(vec);
        QCOMPARE(panel.scatterColumn(), vec);
        QVERIFY(panel.chart()->title().contains(QStringLiteral("aiv_vec_ratio")));
    }

    void panelShowsSelectedKernels()
    {
        ChartsPanel panel;
        panel.setModel(m_model.get());
        panel.setCurrentChart(ChartKind::KernelMetrics);
        // Nothing selected: the longest kernel with metrics.
        QVERIFY(panel.chart()->title().contains(QStringLiteral("aclnnForeachAddListV2")));
        // A timeline selection of Conv2D1's slice shows Conv2D1.
        const KernelRecord &k = m_model->kernels().rows()[m_conv];
        QVERIFY(k.joined());
        panel.selectSlice(SliceRef{k.thread, k.slice});
        QCOMPARE(panel.selectedKernels(), KernelRows{m_conv});
        auto *series = onlySeries<QHorizontalBarSeries>(panel.chart());
        QVERIFY(series);
        QVERIFY(qFuzzyCompare(setNamed(series, QStringLiteral("mac"))->at(0), 51.9));
        panel.showKernels({});
        QVERIFY(panel.chart()->title().contains(QStringLiteral("aclnnForeachAddListV2")));
        // A new model clears the selection and the filter.
        panel.showKernels({m_conv});
        panel.setFilter({m_conv});
        panel.setModel(m_model.get());
        QVERIFY(panel.selectedKernels().empty());
        QVERIFY(panel.filter().empty());
        panel.setModel(nullptr);
        QVERIFY(panel.chart()->series().isEmpty());
    }

    void clickingAScatterPointActivatesItsKernel()
    {
        ChartsPanel panel;
        panel.resize(1000, 760);
        panel.setModel(m_model.get());
        panel.setCurrentChart(ChartKind::Scatter);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QCoreApplication::processEvents();

        QScatterSeries *core = nullptr;
        for (QAbstractSeries *s : panel.chart()->series())
            if (s->name().startsWith(QStringLiteral("AI Core")))
                core = qobject_cast<QScatterSeries *>(s);
        QVERIFY(core);
        const QPointF value(0.519, 313.886); // Conv2D1, the only kernel at this point
        const QPointF inChart = panel.chart()->mapToPosition(value, core);
        const QPoint inView = panel.chartView()->mapFromScene(panel.chart()->mapToScene(inChart));
        QVERIFY(panel.chartView()->viewport()->rect().contains(inView));

        QSignalSpy slices(&panel, &ChartsPanel::kernelActivated);
        QSignalSpy rows(&panel, &ChartsPanel::kernelRowActivated);
        QTest::mouseClick(panel.chartView()->viewport(), Qt::LeftButton, {}, inView);
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.front().front().toULongLong(), qulonglong(m_conv));
        QCOMPARE(slices.size(), 1);
        const auto ref = slices.front().front().value<SliceRef>();
        const KernelRecord &k = m_model->kernels().rows()[m_conv];
        QCOMPARE(ref, (SliceRef{k.thread, k.slice}));
        QCOMPARE(m_model->sliceName(ref), QStringLiteral("Conv2D1"));

        // A click on empty plot area activates nothing (no kernel has mac_ratio > 0.842).
        auto *yAxis = qobject_cast<QValueAxis *>(panel.chart()->axes(Qt::Vertical).value(0));
        QVERIFY(yAxis);
        const QPointF emptyValue(0.95, yAxis->max() * 0.8);
        const QPoint emptyPoint = panel.chartView()->mapFromScene(
            panel.chart()->mapToScene(panel.chart()->mapToPosition(emptyValue, core)));
        QVERIFY(panel.chartView()->viewport()->rect().contains(emptyPoint));
        QTest::mouseClick(panel.chartView()->viewport(), Qt::LeftButton, {}, emptyPoint);
        QCOMPARE(rows.size(), 1);
    }

    void clickingATopKernelBarActivatesItsLongestKernel()
    {
        ChartsPanel panel;
        panel.resize(1000, 760);
        panel.setModel(m_model.get());
        panel.setTopCount(5);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QCoreApplication::processEvents();
        auto *series = onlySeries<QHorizontalStackedBarSeries>(panel.chart());
        QVERIFY(series);
        // The middle of bar 5 (category 0, ForeachAddList, 1959.079 us).
        const QPointF inChart = panel.chart()->mapToPosition(QPointF(1959.079 / 2, 0), series);
        const QPoint inView = panel.chartView()->mapFromScene(panel.chart()->mapToScene(inChart));
        QSignalSpy rows(&panel, &ChartsPanel::kernelRowActivated);
        QTest::mouseClick(panel.chartView()->viewport(), Qt::LeftButton, {}, inView);
        QCOMPARE(rows.size(), 1);
        const auto row = static_cast<std::size_t>(rows.front().front().toULongLong());
        QCOMPARE(m_model->strings().qstring(m_model->kernels().rows()[row].name),
                 QStringLiteral("aclnnForeachAddListV2_ForeachAddListV2_ForeachAddList"));
        QCOMPARE(m_model->kernels().rows()[row].duration, TimeNs(706'614));
    }
};

QTEST_MAIN(TestChartsPanel)
#include "tst_charts_panel.moc"
