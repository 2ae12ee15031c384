// The Memory dock through the real MainWindow on the alexnet sample: curves drawn with their peaks
// marked, the live list at the overall peak, the allocation table (filter, never-released flag), a row
// click selecting the operator's host slice on the timeline, the chart following the timeline range.

#include "AppTestSupport.h"
#include "ChartScale.h"
#include "MemoryLanes.h"
#include "MemoryPanel.h"
#include "NumberFormat.h"
#include "StepsPanel.h"
#include "TableExport.h"
#include "Theme.h"
#include "TimelineView.h"
#include "Translations.h"
#include "ZoomController.h"

#include <QAbstractAxis>
#include <QAction>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDockWidget>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QScatterSeries>
#include <QScopeGuard>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QTabWidget>
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
        // The first is the largest: its size reads in its own unit, which is the column's.
        QCOMPARE(panel->liveList()->topLevelItem(0)->text(1),
                 formatBytes(static_cast<double>(model.memory().allocations[d.liveAtPeak.front()].bytes)));

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
        // Issue 28: the header names the memory shown; the one row reads in its own unit, the CSV keeps MB.
        QCOMPARE(steps->horizontalHeaderItem(11)->text(), QStringLiteral("Peak allocated (operators)"));
        QCOMPARE(steps->item(0, 11)->text(), formatBytes(static_cast<double>(d.overallPeak->bytes)));
        QCOMPARE(steps->item(0, 11)->data(kExportTextRole).toString(),
                 bytesAsMegabytes(d.overallPeak->bytes));
        const MemoryCurve &overall = model.memory().curves[static_cast<std::size_t>(d.overall)];
        // Net growth: value at the step's end − the first value (the records start inside the step).
        QVERIFY(!valueAt(overall, MemoryMetric::Allocated, step.begin()));
        const auto firstSample = std::find_if(overall.times.begin(), overall.times.end(),
                                              [&](TimeNs t) { return t >= step.begin(); });
        const std::int64_t start =
            overall.allocated[static_cast<std::size_t>(firstSample - overall.times.begin())];
        const std::int64_t growth = *valueAt(overall, MemoryMetric::Allocated, step.end()) - start;
        QCOMPARE(steps->item(0, 12)->text(), formatBytes(static_cast<double>(growth)));
        QCOMPARE(steps->item(0, 12)->data(kExportTextRole).toString(), bytesAsMegabytes(growth));

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

    // Issue 19: clicking a live allocation selects its host slice and marks its lifetime, from the
    // allocation to the release, as a band over the device's Memory lanes and the host slice's lane
    // (seen in the pixels); Esc and another selection clear it.
    void rowClickMarksTheAllocationLifetime()
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QVERIFY(test::openAndWait(window, test::samplePath(QStringLiteral(
                                              "msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/"
                                              "rank0_ascend_pt"))));
        auto *panel = window.findChild<MemoryPanel *>();
        QVERIFY(panel);
        TimelineView *timeline = window.timeline();
        const TraceModel &model = *window.model();
        // The largest allocation live at the peak that is released later and has its host slice.
        QTreeWidget *live = panel->liveList();
        QTreeWidgetItem *item = nullptr;
        for (int i = 0; i < live->topLevelItemCount() && !item; ++i) {
            const MemoryAllocation &a =
                model.memory().allocations[live->topLevelItem(i)->data(0, Qt::UserRole).toULongLong()];
            if (a.released() && hostSliceOf(model, a).isValid())
                item = live->topLevelItem(i);
        }
        QVERIFY(item);
        const MemoryAllocation &a = model.memory().allocations[item->data(0, Qt::UserRole).toULongLong()];
        live->scrollToItem(item);
        QTest::mouseClick(live->viewport(), Qt::LeftButton, {}, live->visualItemRect(item).center());
        const SliceRef host = timeline->selectedSlice();
        QVERIFY(host.isValid());
        QCOMPARE(model.sliceName(host), model.strings().qstring(a.name));

        QVERIFY(timeline->highlightedSpan());
        const TimelineSpan span = *timeline->highlightedSpan();
        QCOMPARE(span.begin, a.allocation);
        QCOMPARE(span.end, a.release);
        // The device's Memory process, found by its name here.
        int memoryProcess = -1;
        for (std::size_t p = 0; p < model.processes().size(); ++p)
            if (model.strings().qstring(model.processes()[p].name) == QStringLiteral("Memory (NPU 0)"))
                memoryProcess = static_cast<int>(p);
        QVERIFY(memoryProcess >= 0);
        QCOMPARE(span.processes, std::vector<int>{memoryProcess});
        QCOMPARE(span.threads, std::vector<int>{host.thread});
        // The size and the lifetime in the one formatter's units, as the Memory dock writes them.
        QCOMPARE(span.label,
                 QStringLiteral("%1 · %2 · %3")
                     .arg(model.strings().qstring(a.name), formatBytes(static_cast<double>(a.bytes)),
                          formatDurationNs(a.release - a.allocation)));
        QVERIFY2(!span.label.contains(QStringLiteral(" KB ·")), qPrintable(span.label));
        // The whole lifetime is in view.
        const TimeRange r = timeline->zoom()->range();
        QVERIFY(r.start <= span.begin && span.end <= r.end);

        // In the pixels: a band over a counter row of the Memory lanes, between the two times only.
        int counterRow = -1;
        for (std::size_t row = 0; row < timeline->layout().rows().size(); ++row) {
            const LaneRow &lane = timeline->layout().rows()[row];
            if (lane.kind == LaneRow::Kind::Counter && lane.process == memoryProcess) {
                counterRow = static_cast<int>(row);
                break;
            }
        }
        QVERIFY(counterRow >= 0);
        const LaneRow &lane = timeline->layout().rows()[static_cast<std::size_t>(counterRow)];
        timeline->verticalScrollBar()->setValue(std::max(0, lane.y - 100));
        const int y = lane.y + TimelineView::kRulerHeight - timeline->verticalScrollBar()->value() + 3;
        const int inside =
            TimelineView::kLabelWidth +
            static_cast<int>(timeline->axis().toPixel(span.begin + (span.end - span.begin) / 2));
        const int outside = timeline->viewport()->width() - 4; // right of the release (5 % margin)
        QVERIFY(timeline->axis().toPixel(span.end) + TimelineView::kLabelWidth < outside - 2);
        const QImage marked = timeline->viewport()->grab().toImage();
        if (qEnvironmentVariableIsSet("AT_SCREENSHOT_DIR"))
            window.grab().save(qEnvironmentVariable("AT_SCREENSHOT_DIR") +
                               QStringLiteral("/memory-span.png"));
        QTest::keyClick(timeline, Qt::Key_Escape);
        QVERIFY(!timeline->highlightedSpan());
        const QImage plain = timeline->viewport()->grab().toImage();
        QVERIFY2(marked.pixelColor(inside, y) != plain.pixelColor(inside, y), "no band inside the lifetime");
        QCOMPARE(marked.pixelColor(outside, y), plain.pixelColor(outside, y));

        // Another selection clears it too.
        QTest::mouseClick(live->viewport(), Qt::LeftButton, {}, live->visualItemRect(item).center());
        QVERIFY(timeline->highlightedSpan());
        timeline->selectSlice({}, false);
        QVERIFY(!timeline->highlightedSpan());
    }

    // Issue 19: View ▸ Language retranslates the Memory dock at once: its labels, list and table headers
    // and chart series read as in a panel made in the new language.
    void languageChangeRetranslatesThePanel()
    {
        MainWindow window;
        window.show();
        QVERIFY(test::openAndWait(window, test::samplePath(QStringLiteral(
                                              "msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/"
                                              "rank0_ascend_pt"))));
        auto *panel = window.findChild<MemoryPanel *>();
        QVERIFY(panel);
        const auto texts = [](MemoryPanel *p) {
            QStringList out{p->filter()->placeholderText(), p->liveList()->headerItem()->text(0),
                            p->allocationTable()->model()->headerData(0, Qt::Horizontal).toString(),
                            p->deviceBox()->currentText()};
            for (QAbstractSeries *s : p->chartView()->chart()->series())
                out << s->name();
            return out;
        };
        const QStringList english = texts(panel);
        QCOMPARE(english.front(), QStringLiteral("Filter operators"));
        window.findChild<QAction *>(QStringLiteral("language.zh_CN"))->trigger();
        MemoryPanel fresh; // made in Chinese
        fresh.setModel(window.model());
        QTRY_COMPARE(texts(panel), texts(&fresh));
        QVERIFY(texts(panel).front() != english.front());
        window.findChild<QAction *>(QStringLiteral("language.en"))->trigger();
        QTRY_COMPARE(texts(panel), english);
    }

    // Issue 28: at the window's default layout the Memory dock reads uncut, in both languages and themes: the
    // chart at its readable size with every legend entry whole, the lists in tabs beside it at 900 px (side
    // by side at 1600 px), every size, time and lifetime cell as wide as its text (no "147456…").
    void dockReadsUncutAtTheDefaultLayout_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("language");
        QTest::addColumn<int>("theme");
        QTest::newRow("900x700 en light") << QSize(900, 700) << QStringLiteral("en") << int(UiTheme::Light);
        QTest::newRow("900x700 zh_CN dark")
            << QSize(900, 700) << QStringLiteral("zh_CN") << int(UiTheme::Dark);
        QTest::newRow("900x700 zh_CN light")
            << QSize(900, 700) << QStringLiteral("zh_CN") << int(UiTheme::Light);
        QTest::newRow("1600x1000 en dark") << QSize(1600, 1000) << QStringLiteral("en") << int(UiTheme::Dark);
    }
    void dockReadsUncutAtTheDefaultLayout()
    {
        QFETCH(QSize, size);
        QFETCH(QString, language);
        QFETCH(int, theme);
        QVERIFY(setUiLanguage(language));
        applyUiTheme(static_cast<UiTheme>(theme));
        const auto restore = qScopeGuard([] {
            setUiLanguage(QStringLiteral("en"));
            applyUiTheme(UiTheme::System);
        });
        QSettings().clear(); // the default layout, not one a test before left
        MainWindow window;
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(test::openAndWait(window, test::samplePath(QStringLiteral(
                                              "msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/"
                                              "rank0_ascend_pt"))));
        auto *dock = window.findChild<QDockWidget *>(QStringLiteral("MemoryDock"));
        QVERIFY(dock);
        dock->show();
        dock->raise();
        auto *panel = window.findChild<MemoryPanel *>();
        QVERIFY(panel);
        QTRY_VERIFY(panel->isVisible());
        QTest::qWait(50); // the chart lays its texts out for the view's new size
        QCoreApplication::processEvents();

        // One device: no device row; the chart whole (not scrolled), at least its readable size.
        QVERIFY(!panel->deviceBox()->isVisible());
        QChartView *view = panel->chartView();
        QVERIFY(view->parentWidget()); // the viewport of the scroll area a low dock would scroll it in
        QVERIFY2(view->height() <= view->parentWidget()->height(),
                 qPrintable(QStringLiteral("chart %1 px high in %2 px")
                                .arg(view->height())
                                .arg(view->parentWidget()->height())));
        QVERIFY(view->height() >= kReadableChartHeight);
        QStringList legend;
        for (QLegendMarker *marker : view->chart()->legend()->markers())
            legend << marker->label();
        QCOMPARE(legend.size(), 8); // seven curves and the peaks
        for (QGraphicsItem *item : view->chart()->scene()->items())
            if (auto *text = dynamic_cast<QGraphicsTextItem *>(item); text && text->isVisible())
                QVERIFY2(!text->toPlainText().contains(QLatin1String("...")) &&
                             !text->toPlainText().contains(QChar(0x2026)),
                         qPrintable(text->toPlainText()));

        // The lists: tabs at 900 px, side by side at 1600 px.
        QCOMPARE(panel->listsInTabs(), size.width() < MemoryPanel::kSideBySideWidth);
        if (panel->listsInTabs()) {
            QCOMPARE(panel->listTabs()->count(), 2);
            QVERIFY(panel->listTabs()->isVisible());
        }
        // Every number of the live list reads whole: its column is as wide as its text.
        QTreeWidget *live = panel->liveList();
        QVERIFY(live->isVisible());
        QVERIFY(live->topLevelItemCount() > 0);
        const QFontMetrics fm(live->font());
        for (int column = 1; column < live->columnCount(); ++column)
            for (int r = 0; r < live->topLevelItemCount(); ++r) {
                const QString text = live->topLevelItem(r)->text(column);
                QVERIFY2(fm.horizontalAdvance(text) <= live->columnWidth(column),
                         qPrintable(QStringLiteral("column %1: \"%2\" is %3 px, the column %4 px")
                                        .arg(column)
                                        .arg(text)
                                        .arg(fm.horizontalAdvance(text))
                                        .arg(live->columnWidth(column))));
                QVERIFY(!text.contains(QLatin1String("e+")));
            }
        // ... and inside the list's viewport: no column of numbers scrolled or cut off at its right edge.
        for (int column = 1; column < live->columnCount(); ++column)
            QVERIFY2(live->header()->sectionViewportPosition(column) + live->columnWidth(column) <=
                         live->viewport()->width(),
                     qPrintable(
                         QStringLiteral("column %1 ends at %2 of %3 px")
                             .arg(column)
                             .arg(live->header()->sectionViewportPosition(column) + live->columnWidth(column))
                             .arg(live->viewport()->width())));
        // The size column reads in one scaled unit ("144.00 MB"), as NumberFormat writes it.
        QVERIFY2(live->topLevelItem(0)->text(1).endsWith(QLatin1String(" MB")),
                 qPrintable(live->topLevelItem(0)->text(1)));
        // ... and so does the allocation table, in its own tab.
        if (panel->listsInTabs())
            panel->listTabs()->setCurrentIndex(1);
        QTableView *table = panel->allocationTable();
        QTRY_VERIFY(table->isVisible());
        const QFontMetrics tableFm(table->font());
        for (int column = MemoryAllocationModel::Size; column < MemoryAllocationModel::ColumnCount; ++column)
            for (int r = 0; r < table->model()->rowCount(); ++r) {
                const QString text = table->model()->index(r, column).data().toString();
                QVERIFY2(tableFm.horizontalAdvance(text) <= table->columnWidth(column),
                         qPrintable(QStringLiteral("table column %1: \"%2\"").arg(column).arg(text)));
            }
        QVERIFY(table->horizontalHeader()->sectionViewportPosition(MemoryAllocationModel::Size) +
                    table->columnWidth(MemoryAllocationModel::Size) <=
                table->viewport()->width());
        QVERIFY(window.grab().save(m_settings.filePath(QStringLiteral("memory-dock.png"))));
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
