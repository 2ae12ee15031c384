// A PyTorch profiler (Kineto) GPU trace through the real main window: the lanes read "GPU 0" and
// "stream 7" under GPU wording, and the Steps dock lists the trace's ProfilerStep#N steps.

#include "LaneLayout.h"
#include "LayerWording.h"
#include "StepsPanel.h"
#include "TimelineView.h"
#include "WindowFixture.h"

#include <QTableWidget>

using namespace at;

class TestKinetoWindow : public QObject, protected test::WindowFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY(setUpWindowSuite()); }
    void cleanup() { closeWindow(); }

    void gpuTraceOpensWithItsLanesAndSteps()
    {
        QVERIFY(openWindow(test::samplePath(QStringLiteral("hta_kineto_gpu_traces/nccl_data.json.gz"))));
        const TraceModel &model = *m_window->model();
        QStringList headers, lanes;
        for (const LaneRow &row : m_window->timeline()->layout().rows()) {
            if (row.kind == LaneRow::Kind::ProcessHeader)
                headers << model.processDisplayName(row.process);
            else if (row.kind == LaneRow::Kind::Thread)
                lanes << model.threadDisplayName(row.index);
        }
        QVERIFY2(headers.contains(QStringLiteral("GPU 0")), qPrintable(headers.join(QLatin1Char('|'))));
        QVERIFY(!headers.contains(QStringLiteral("GPU 1"))); // listed by the M events, no events
        QVERIFY(headers.first().startsWith(QStringLiteral("CPU · python3.10 (pid "))); // host above the GPU
        QVERIFY2(lanes.contains(QStringLiteral("stream 7")), qPrintable(lanes.join(QLatin1Char('|'))));
        QVERIFY(lanes.contains(QStringLiteral("stream 40 (NCCL)")));
        QVERIFY(lanes.contains(QStringLiteral("stream 7 · GPU annotations")));
        // The header words are the GPU's, not Ascend's.
        const int gpu = static_cast<int>(std::ranges::find_if(model.processes(),
                                                              [&model](const ProcessInfo &p) {
                                                                  return model.strings().qstring(p.name) ==
                                                                         QLatin1String("GPU 0");
                                                              }) -
                                         model.processes().begin());
        QCOMPARE(layerDisplayName(model.processes()[static_cast<std::size_t>(gpu)].layer,
                                  model.groups()[0].layout),
                 QStringLiteral("GPU kernels (CUDA)"));

        // The Steps dock: ProfilerStep#4–#6 of the trace.
        QTableWidget *steps = m_window->steps()->table();
        QCOMPARE(steps->rowCount(), 3);
        QStringList labels;
        for (int r = 0; r < steps->rowCount(); ++r)
            for (int c = 0; c < steps->columnCount(); ++c)
                if (steps->item(r, c) && steps->item(r, c)->text().startsWith(QLatin1String("ProfilerStep#")))
                    labels << steps->item(r, c)->text();
        labels.sort();
        QCOMPARE(labels, (QStringList{QStringLiteral("ProfilerStep#4"), QStringLiteral("ProfilerStep#5"),
                                      QStringLiteral("ProfilerStep#6")}));
    }
};

QTEST_MAIN(TestKinetoWindow)
#include "tst_kineto_window.moc"
