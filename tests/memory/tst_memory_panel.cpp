// The Memory dock through the real MainWindow on the alexnet sample: curves drawn with their peaks
// marked, the live list at the overall peak, the allocation table (filter, never-released flag), a row
// click selecting the operator's host slice on the timeline, the chart following the timeline range.

#include "AppTestSupport.h"
#include "MemoryPanel.h"
#include "StepsPanel.h"
#include "TimelineView.h"
#include "ZoomController.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QLineEdit>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QValueAxis>

using namespace at;

class TestMemoryPanel : public QObject
{
    Q_OBJECT

    QTemporaryDir m_settings;

private slots:
    void initTestCase() { test::useScratchSettings(m_settings.path()); }

    void panelShowsCurvesPeaksAndSelectsHostSlices()
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        const QString folder = test::samplePath(
            QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt"));
        QVERIFY(test::openAndWait(window, folder));
        auto *panel = window.findChild<MemoryPanel *>();
        QVERIFY(panel);
        const TraceModel &model = *window.model();
        const std::vector<DeviceMemory> devices = deviceMemory(model.memory());
        QCOMPARE(devices.size(), std::size_t(1));

        // Curves: allocated + reserved per component with values (PTA, GE, PTA+GE; APP reserved only).
        QChart *chart = panel->chartView()->chart();
        QVERIFY(chart);
        QStringList names;
        QScatterSeries *peaks = nullptr;
        int lines = 0;
        for (QAbstractSeries *s : chart->series()) {
            if (auto *scatter = qobject_cast<QScatterSeries *>(s))
                peaks = scatter;
            else if (auto *line = qobject_cast<QLineSeries *>(s)) {
                QVERIFY(line->count() > 0);
                names << line->name();
                ++lines;
            }
        }
        QVERIFY2(names.contains(QStringLiteral("PTA+GE allocated")), qPrintable(names.join(", ")));
        QVERIFY(names.contains(QStringLiteral("APP reserved")));
        QVERIFY(!names.contains(QStringLiteral("APP allocated")));
        QCOMPARE(lines, 7);
        // One peak marker per curve; the PTA+GE allocated one at its peak.
        QVERIFY(peaks);
        QCOMPARE(peaks->count(), lines);
        const DeviceMemory &d = devices.front();
        const double peakMb = static_cast<double>(d.overallPeak->bytes) / (1024.0 * 1024.0);
        bool found = false;
        for (const QPointF &p : peaks->points())
            found = found || (p.y() == peakMb && p.x() == static_cast<double>(d.overallPeak->time) / 1e6);
        QVERIFY(found);

        // What holds memory at the peak, largest first.
        QCOMPARE(panel->liveList()->topLevelItemCount(), int(d.liveAtPeak.size()));
        QCOMPARE(panel->liveList()->topLevelItem(0)->text(1),
                 bytesAsKilobytes(model.memory().allocations[d.liveAtPeak.front()].bytes));

        // The allocation table: every row of the device; the filter narrows it; unreleased rows flagged.
        QTableView *table = panel->allocationTable();
        QCOMPARE(table->model()->rowCount(), int(model.memory().allocations.size()));
        panel->filter()->setText(QStringLiteral("aten::mm"));
        const int mmRows = table->model()->rowCount();
        QVERIFY(mmRows > 0 && mmRows < int(model.memory().allocations.size()));
        bool flagged = false;
        for (int r = 0; r < mmRows; ++r)
            flagged =
                flagged || table->model()->index(r, MemoryAllocationModel::Released).data().toString() ==
                               QStringLiteral("not released");
        QVERIFY(flagged);

        // A row click selects the operator's host slice: same name, enclosing the allocation time.
        table->scrollTo(table->model()->index(0, 0));
        const QModelIndex first = table->model()->index(0, MemoryAllocationModel::Name);
        const std::size_t row = table->model()->data(first, MemoryAllocationModel::kIndexRole).toULongLong();
        const MemoryAllocation &a = model.memory().allocations[row];
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(first).center());
        const SliceRef selected = window.timeline()->selectedSlice();
        QVERIFY(selected.isValid());
        QCOMPARE(model.sliceName(selected), model.strings().qstring(a.name));
        const SliceTable &slices = model.threads()[static_cast<std::size_t>(selected.thread)].slices;
        QVERIFY(slices.start(selected.index) <= a.allocation);
        QVERIFY(slices.start(selected.index) + slices.duration(selected.index) >= a.allocation);

        // Steps dock: the one step holds the overall peak, so its peak is that peak.
        QCOMPARE(model.steps().size(), std::size_t(1));
        const Step &step = model.steps().front();
        QVERIFY(step.begin() <= d.overallPeak->time && d.overallPeak->time <= step.end());
        QTableWidget *steps = window.steps()->table();
        QCOMPARE(steps->horizontalHeaderItem(11)->text(), QStringLiteral("Peak memory (MB)"));
        QCOMPARE(steps->item(0, 11)->text(), bytesAsMegabytes(d.overallPeak->bytes));
        const MemoryCurve &overall = model.memory().curves[static_cast<std::size_t>(d.overall)];
        // Net growth: value at the step's end − the first value (the records start inside the step).
        QVERIFY(!valueAt(overall, MemoryMetric::Allocated, step.begin()));
        const auto firstSample = std::find_if(overall.times.begin(), overall.times.end(),
                                              [&](TimeNs t) { return t >= step.begin(); });
        const std::int64_t start =
            overall.allocated[static_cast<std::size_t>(firstSample - overall.times.begin())];
        QCOMPARE(steps->item(0, 12)->text(),
                 bytesAsMegabytes(*valueAt(overall, MemoryMetric::Allocated, step.end()) - start));

        // AT_MEMORY_PANEL_PNG=FILE keeps a picture of the dock to look at.
        if (const QString png = qEnvironmentVariable("AT_MEMORY_PANEL_PNG"); !png.isEmpty()) {
            panel->resize(1600, 420);
            panel->grab().save(png);
        }

        // The chart follows the timeline's visible range.
        window.timeline()->zoom()->setRange({10'000'000, 20'000'000}, true);
        const auto *x = qobject_cast<QValueAxis *>(chart->axes(Qt::Horizontal).front());
        QVERIFY(x);
        const TimeRange r = window.timeline()->zoom()->range();
        QCOMPARE(x->min(), static_cast<double>(r.start) / 1e6);
        QCOMPARE(x->max(), static_cast<double>(r.end) / 1e6);
    }

    void rowsJoinToHostSlices()
    {
        // Most operator rows of the sample have their host slice (torch_npu writes both from one run).
        const auto model = test::loadOrFail(test::samplePath(
            QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt")));
        QVERIFY(model);
        std::size_t joined = 0, named = 0;
        for (const MemoryAllocation &a : model->memory().allocations) {
            if (a.name == 0 || a.allocation == kNoTime)
                continue;
            ++named;
            if (hostSliceOf(*model, a).isValid())
                ++joined;
        }
        qInfo("%zu of %zu operator rows joined to host slices", joined, named);
        QVERIFY(named > 0);
        QVERIFY(joined * 2 > named);
    }
};

QTEST_MAIN(TestMemoryPanel)
#include "tst_memory_panel.moc"
