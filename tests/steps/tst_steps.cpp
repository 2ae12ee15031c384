#include "Steps.h"
#include "TestSupport.h"
#include "TiledModel.h"
#include "TraceBuilder.h"

#include <QTest>

#include <cmath>

using namespace at;

// Step detection (FORMATS.md §7) on the real level1 sample, on multi-step models tiled from it,
// and on every other step source with hand-built models.
class TestSteps : public QObject
{
    Q_OBJECT
    std::unique_ptr<TraceModel> m_level1; // rank 0 trace_view.json + kernel_details + step_trace_time

    static QString level1Folder()
    {
        return test::samplePath(
            QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt"));
    }

    // step_trace_time.csv value (µs text) of a column in ns.
    static TimeNs reported(const TraceModel &m, const QString &column)
    {
        for (const SummaryTable &t : m.summaryTables())
            if (t.type == QLatin1String("step_trace_time") && t.rowCount() == 1 && t.column(column) >= 0)
                return static_cast<TimeNs>(std::llround(t.cell(0, t.column(column)).toDouble() * 1000.0));
        return -1;
    }

    static QStringList taskNames(const TraceModel &m, const Step &s)
    {
        QStringList names;
        for (SliceRef r : s.deviceTasks)
            names << m.sliceName(r);
        return names;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_level1 = test::loadOrFail(level1Folder());
        QVERIFY(m_level1);
    }

    void profilerStepOfRealProfile()
    {
        const TraceModel &m = *m_level1;
        QCOMPARE(m.steps().size(), std::size_t(1));
        const Step &s = m.steps().front();
        QCOMPARE(s.number, 50);
        QCOMPARE(s.label, QStringLiteral("ProfilerStep#50"));
        QCOMPARE(s.source, StepSource::ProfilerStep);
        QCOMPARE(m.sliceName(s.marker), QStringLiteral("ProfilerStep#50"));
        // Device work lags the host (FORMATS.md §7.2: 13.3 ms in this sample).
        QVERIFY(s.deviceBegin > s.hostBegin + 13'000'000);
        QVERIFY(s.flowAttributedTasks > 150);
        // The profiler on/off marker tasks lie outside the step and never belong to it.
        const QStringList names = taskNames(m, s);
        QVERIFY(!names.contains(QStringLiteral("PROFILING_ENABLE")));
        QVERIFY(!names.contains(QStringLiteral("PROFILING_DISABLE")));
        // Every kernel of the kernel table (all of step 50) is a device task of the step.
        std::size_t kernelsInStep = 0;
        for (const KernelRecord &k : m.kernels().rows())
            kernelsInStep +=
                std::count(s.deviceTasks.begin(), s.deviceTasks.end(), SliceRef{k.thread, k.slice});
        QCOMPARE(kernelsInStep, m.kernels().size());
    }

    void breakdownEqualsStepTraceTime()
    {
        // torch_npu sums the Overlap Analysis events of the step into step_trace_time.csv; our
        // breakdown must give the same numbers (to the CSV's µs rounding).
        const TraceModel &m = *m_level1;
        const StepBreakdown &b = m.steps().front().breakdown;
        QVERIFY(b.fromOverlapAnalysis);
        const std::pair<TimeNs, const char *> expected[] = {
            {b.computing, "Computing"},
            {b.communication, "Communication"},
            {b.communicationNotOverlapped, "Communication(Not Overlapped)"},
            {b.free, "Free"}};
        for (const auto &[ours, column] : expected) {
            const TimeNs theirs = reported(m, QString::fromLatin1(column));
            QVERIFY2(theirs > 0, column);
            QVERIFY2(std::abs(ours - theirs) <= 2,
                     qPrintable(QStringLiteral("%1: %2 vs %3").arg(column).arg(ours).arg(theirs)));
        }
    }

    void derivedBreakdownWithoutOverlapLanes()
    {
        // The same step with the Overlap Analysis lanes removed: the breakdown derived from the device
        // tasks must agree with torch_npu's to within a few percent (it cannot see what torch_npu
        // excludes, e.g. tasks it does not count as computing).
        test::TileOptions options;
        options.copies = 1;
        options.duration = [this](int, SliceRef ref, TimeNs d) {
            const int process = m_level1->threads()[static_cast<std::size_t>(ref.thread)].process;
            return m_level1->processes()[static_cast<std::size_t>(process)].layer == Layer::OverlapAnalysis
                       ? -1
                       : d;
        };
        auto model = test::tileModel(*m_level1, options);
        QCOMPARE(model->steps().size(), std::size_t(1));
        const StepBreakdown &b = model->steps().front().breakdown;
        QVERIFY(!b.fromOverlapAnalysis);
        const StepBreakdown &real = m_level1->steps().front().breakdown;
        QVERIFY(b.computing > 0 && b.communication > 0);
        // FORMATS.md §9.2 recomputed: compute-kernel tasks only (the head MEMCPY_ASYNC and the Notify
        // Wait tasks are neither computing nor free), so the busy span is torch_npu's Stage, 136581.009 µs.
        QCOMPARE(b.computing + b.communicationNotOverlapped + b.free, TimeNs(136'581'009));
        // (the tiled copy's task times are whole-µs-rounded text: a few ns over 187 tasks)
        QVERIFY2(std::abs(b.computing - real.computing) <= 50,
                 qPrintable(QStringLiteral("%1 vs %2").arg(b.computing).arg(real.computing)));
        QVERIFY2(std::abs(b.free - real.free) <= 50,
                 qPrintable(QStringLiteral("%1 vs %2").arg(b.free).arg(real.free)));
        QVERIFY2(std::abs(b.communication - real.communication) < real.communication / 20,
                 qPrintable(QStringLiteral("%1 vs %2").arg(b.communication).arg(real.communication)));
    }

    void tiledStepsAreFoundAndEqual()
    {
        test::TileOptions options;
        options.copies = 4;
        auto model = test::tileModel(*m_level1, options);
        QCOMPARE(model->steps().size(), std::size_t(4));
        const Step &original = m_level1->steps().front();
        for (int i = 0; i < 4; ++i) {
            const Step &s = model->steps()[static_cast<std::size_t>(i)];
            QCOMPARE(s.number, 50 + i);
            QCOMPARE(s.deviceTasks.size(), original.deviceTasks.size());
            QCOMPARE(s.flowAttributedTasks, original.flowAttributedTasks);
            QCOMPARE(s.breakdown.computing, original.breakdown.computing);
            QCOMPARE(s.breakdown.free, original.breakdown.free);
            QCOMPARE(s.duration(), original.duration());
            QCOMPARE(taskNames(*model, s), taskNames(*m_level1, original));
            if (i > 0)
                QVERIFY(s.begin() > model->steps()[static_cast<std::size_t>(i - 1)].end());
        }
        QCOMPARE(findStep(model->steps(), 52), 2);
        QCOMPARE(findStep(model->steps(), 49), -1);
    }

    void deviceTailPastHostEndStaysWithItsStep()
    {
        // Copy 1 ends its host step 60 ms early: its last device tasks now run after the host step
        // ended (and before step 52 starts); they still belong to step 51.
        test::TileOptions options;
        options.copies = 3;
        options.stepMarkerDuration = [](int copy, TimeNs d) { return copy == 1 ? d - 60'000'000 : d; };
        auto model = test::tileModel(*m_level1, options);
        QCOMPARE(model->steps().size(), std::size_t(3));
        const Step &s51 = model->steps()[1];
        QCOMPARE(s51.number, 51);
        QVERIFY(s51.stageEnd > s51.hostEnd);
        QVERIFY(s51.deviceEnd >= s51.stageEnd);
        QCOMPARE(s51.deviceTasks.size(), m_level1->steps().front().deviceTasks.size());
        std::size_t afterHostEnd = 0;
        for (SliceRef r : s51.deviceTasks)
            afterHostEnd +=
                model->threads()[static_cast<std::size_t>(r.thread)].slices.start(r.index) > s51.hostEnd;
        QVERIFY(afterHostEnd > 10);
        QCOMPARE(model->steps()[2].deviceTasks.size(), m_level1->steps().front().deviceTasks.size());
    }

    void iterationSlicesDeclaredStepsAndTables_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("Iteration slices") << 0;
        QTest::newRow("declared windows") << 1;
        QTest::newRow("step_trace csv") << 2;
        QTest::newRow("kernel Step Id") << 3;
    }
    void iterationSlicesDeclaredStepsAndTables()
    {
        // Two steps of 100 µs at absolute 1e15 ns, device tasks without flows inside each.
        QFETCH(int, kind);
        const TimeNs t0 = 1'000'000'000'000'000;
        TraceBuilder b;
        SourceGroup g;
        g.timelineFiles = {QStringLiteral("synthetic")};
        b.addGroup(g);
        auto name = [&b](const char *s) { return b.strings().intern(s); };
        const int stepTrace = b.thread(b.numberKey(1), b.numberKey(1));
        b.setProcessName(b.process(b.numberKey(1)), name("Step Trace"));
        const int device = b.process(b.numberKey(2));
        b.setProcessName(device, name("Ascend Hardware"));
        const int stream = b.thread(b.numberKey(2), b.numberKey(7));
        b.addSlice(stream, t0 - 50'000, 10'000, name("PROFILING_ENABLE"), 0, kNoSource);
        for (int step = 1; step <= 2; ++step) {
            const TimeNs begin = t0 + (step - 1) * 200'000;
            for (int k = 0; k < 5; ++k) {
                b.addSlice(stream, begin + k * 20'000, 10'000, name("MatMul"), 0, kNoSource);
                if (kind == 3) {
                    KernelRecord r;
                    r.name = name("MatMul");
                    r.start = begin + k * 20'000;
                    r.duration = 10'000;
                    r.streamId = 7;
                    r.stepId = step;
                    b.kernels().addRow(r);
                }
            }
            if (kind == 0)
                b.addSlice(stepTrace, begin, 100'000,
                           b.strings().intern(QStringLiteral("Iteration %1").arg(step).toStdString()), 0,
                           kNoSource);
            if (kind == 1)
                b.addDeclaredStep({0, step, begin, begin + 100'000, QStringLiteral("test"), -1});
        }
        if (kind == 2) {
            SummaryTable t;
            t.type = QStringLiteral("step_trace");
            t.header = QStringList{"Iteration ID", "FP Start(us)", "BP End(us)", "Iteration End(us)"};
            for (int step = 1; step <= 2; ++step) {
                const TimeNs begin = t0 + (step - 1) * 200'000;
                t.cells.push_back(QString::number(step));
                t.cells.push_back(QString::number(begin / 1000) + QStringLiteral(".000"));
                t.cells.push_back(QString());
                t.cells.push_back(QString::number((begin + 100'000) / 1000) + QStringLiteral(".000"));
            }
            b.addSummaryTable(t);
        }
        auto m = b.build();
        QCOMPARE(m->steps().size(), std::size_t(2));
        const StepSource expected[] = {StepSource::Iteration, StepSource::Declared, StepSource::StepTraceCsv,
                                       StepSource::KernelStepId};
        for (int step = 1; step <= 2; ++step) {
            const Step &s = m->steps()[static_cast<std::size_t>(step - 1)];
            QCOMPARE(s.number, step);
            QCOMPARE(s.source, expected[kind]);
            QCOMPARE(s.hostBegin + m->origin(), t0 + (step - 1) * 200'000);
            QCOMPARE(s.deviceTasks.size(), std::size_t(5));
            QCOMPARE(s.flowAttributedTasks, std::size_t(0));
            // 5 × 10 µs busy over a stage of 90 µs (first start to last end).
            QCOMPARE(s.stageDuration(), TimeNs(90'000));
            QCOMPARE(s.breakdown.computing, TimeNs(50'000));
            QCOMPARE(s.breakdown.free, TimeNs(40'000));
            QCOMPARE(s.breakdown.communication, TimeNs(0));
        }
    }

    void noStepMarkersNoSteps()
    {
        // The single-file trace of another profile kind without any step source.
        auto m = test::loadOrFail(test::samplePath(QStringLiteral(
            "ascend_msprof_skill_cann8_sanitized/tests/fixtures/real_cann_minimal/reports/PROF_001/"
            "mindstudio_profiler_output/msprof_001.json")));
        QVERIFY(m);
        QVERIFY(m->steps().empty());
    }

    void summaryListsSteps()
    {
        const QString text = formatSummaryText(*m_level1, summarize(*m_level1));
        QVERIFY(text.contains(QStringLiteral("Steps: 1")));
        QVERIFY(text.contains(QStringLiteral("ProfilerStep#50  [ProfilerStep slices]")));
        QVERIFY(text.contains(QStringLiteral("computing 8.874 ms")));
    }
};

QTEST_GUILESS_MAIN(TestSteps)
#include "tst_steps.moc"
