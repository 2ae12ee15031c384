#include "AppTestSupport.h"
#include "CompareWindow.h"
#include "MainWindow.h"
#include "MarkerList.h"
#include "MarkersPanel.h"
#include "Session.h"
#include "StartPage.h"
#include "TestSupport.h"
#include "TimelineView.h"
#include "WindowFixture.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QListWidget>
#include <QPointer>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace at;

// Markers (m, k, the dock) and sessions (save → open restores the view) in the real window, on the
// two-rank level1 folder.
class TestMarkersSessions : public QObject, protected test::WindowFixture
{
    Q_OBJECT

    static QString level1()
    {
        return test::samplePath(
            QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1"));
    }

    static bool open(MainWindow &w, const QString &path, bool expectOk = true)
    {
        QSignalSpy spy(&w, &MainWindow::loadFinished);
        w.openPath(path);
        return (!spy.isEmpty() || spy.wait(60000)) && spy.first().first().toBool() == expectOk;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(setUpWindowSuite()); }

    void init() { QVERIFY(openWindow(level1())); }
    void cleanup() { closeWindow(); }

    void markAndFlagWithKeys()
    {
        TimelineView *t = m_window->timeline();
        const TraceModel &model = *m_window->model();
        SliceRef step; // rank 0's optimizer step (each rank has one)
        for (SliceRef r : searchSlices(model, QStringLiteral("Optimizer.step#SGD.step"), {true}))
            if (!step.isValid() && model.sliceName(r) == QStringLiteral("Optimizer.step#SGD.step"))
                step = r;
        QVERIFY(step.isValid());
        t->selectSlice(step, true);
        t->setFocus();
        QTest::keyClick(t, Qt::Key_M);
        QCOMPARE(m_window->markers()->size(), 1);
        const Marker &range = m_window->markers()->at(0);
        const SliceTable &table = model.threads()[static_cast<std::size_t>(step.thread)].slices;
        QCOMPARE(range.begin, table.start(step.index));
        QCOMPARE(range.end, table.end(step.index));
        QCOMPARE(range.name, QStringLiteral("Optimizer.step#SGD.step"));
        // k drops a flag exactly at the time under the mouse.
        const QPoint at(TimelineView::kLabelWidth + 400, std::min(300, t->viewport()->height() / 2));
        QTest::mouseMove(t->viewport(), at);
        const TimeNs expected = t->axis().toTime(at.x() - TimelineView::kLabelWidth);
        QTest::keyClick(t, Qt::Key_K);
        QCOMPARE(m_window->markers()->size(), 2);
        QVERIFY(m_window->markers()->at(1).isFlag());
        QCOMPARE(m_window->markers()->at(1).begin, expected);
        QCOMPARE(m_window->markers()->at(1).name, QStringLiteral("Flag 1"));
        // The flag is drawn in its colour at its x.
        const QImage image = t->viewport()->grab().toImage();
        int drawn = 0; // pixels of the flag's colour in its column
        for (int y = 0; y < image.height(); ++y)
            drawn += (image.pixelColor(at.x(), y).rgb() & 0xFFFFFF) == m_window->markers()->at(1).rgb;
        QVERIFY2(drawn > 0, qPrintable(QString::number(drawn)));
        // m without a selection does nothing (and says why).
        t->selectSlice({}, false);
        QTest::keyClick(t, Qt::Key_M);
        QCOMPARE(m_window->markers()->size(), 2);
    }

    void markersDockEditsAndJumps()
    {
        MarkerList *markers = m_window->markers();
        markers->add({QStringLiteral("first"), 1'000'000, 3'000'000, 0xE6550D});
        markers->add({QString(), 50'000'000, 50'000'000, 0x3182BD});
        QTableView *table = m_window->markersPanel()->table();
        QAbstractItemModel *rows = table->model();
        QCOMPARE(rows->rowCount(), 2);
        QCOMPARE(rows->index(1, 0).data().toString(), QStringLiteral("Flag 1"));
        QCOMPARE(rows->index(0, 2).data().toString(), formatDuration(2'000'000));
        QCOMPARE(rows->index(1, 2).data().toString(), QStringLiteral("flag"));
        QCOMPARE(rows->index(0, 0).data(Qt::DecorationRole).value<QColor>(), QColor::fromRgb(0xE6550D));
        // Rename in place (only the name is editable).
        QVERIFY(!(rows->flags(rows->index(0, 1)) & Qt::ItemIsEditable));
        QVERIFY(rows->setData(rows->index(0, 0), QStringLiteral("warm-up")));
        QCOMPARE(markers->at(0).name, QStringLiteral("warm-up"));
        QCOMPARE(rows->index(0, 0).data().toString(), QStringLiteral("warm-up"));
        // Click jumps: a range is fitted, a flag is centred.
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                          table->visualRect(rows->index(0, 1)).center());
        const TimeRange r = m_window->timeline()->zoom()->range();
        QVERIFY(r.start <= 1'000'000 && r.end >= 3'000'000 && r.width() < 4'000'000);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                          table->visualRect(rows->index(1, 1)).center());
        QCOMPARE(m_window->timeline()->zoom()->range().center(), 50'000'000);
        // Recolour and delete the selected marker.
        table->selectRow(1);
        const std::uint32_t before = markers->at(1).rgb;
        QTest::mouseClick(m_window->markersPanel()->colorButton(), Qt::LeftButton);
        QVERIFY(markers->at(1).rgb != before);
        table->selectRow(0);
        QTest::mouseClick(m_window->markersPanel()->deleteButton(), Qt::LeftButton);
        QCOMPARE(markers->size(), 1);
        QVERIFY(markers->at(0).isFlag());
        // A new load clears the markers (they belong to the data).
        QVERIFY(open(*m_window, test::level1Rank0Trace()));
        QCOMPARE(markers->size(), 0);
    }

    void sessionRoundTrip()
    {
        TimelineView *t = m_window->timeline();
        const TraceModel &model = *m_window->model();
        // Lane state, view, markers, a colour rule and a compare window (rank 0 vs rank 1 step 50).
        int hardware = -1;
        for (int p : model.processOrder())
            if (model.processDisplayName(p) == QStringLiteral("Ascend Hardware") && hardware < 0)
                hardware = p;
        QVERIFY(hardware >= 0);
        t->setCollapsed(hardware, true);
        t->setGroupCollapsed(1, true);
        // Pin rank 0's Overlap Analysis above everything, hide its HCCL and one Python thread.
        int overlap = -1, hccl = -1;
        for (int p : model.processOrder()) {
            if (model.processes()[static_cast<std::size_t>(p)].group != 0)
                continue;
            if (model.processDisplayName(p) == QStringLiteral("Overlap Analysis"))
                overlap = p;
            if (model.processDisplayName(p) == QStringLiteral("HCCL"))
                hccl = p;
        }
        QVERIFY(overlap >= 0 && hccl >= 0);
        const int pythonThread =
            model.processes()[static_cast<std::size_t>(model.processOrder().front())].threads.front();
        // Drag rank 0's CANN header above its Python header (press in the label column, move, release).
        int python = -1, cann = -1;
        for (int p : model.processOrder())
            if (model.processes()[static_cast<std::size_t>(p)].group == 0) {
                if (model.processDisplayName(p) == QStringLiteral("Python") && python < 0)
                    python = p;
                if (model.processDisplayName(p) == QStringLiteral("CANN") && cann < 0)
                    cann = p;
            }
        QVERIFY(python >= 0 && cann >= 0);
        t->setGroupCollapsed(1, false);
        t->setCollapsed(python, true); // small rows, so both headers are on screen
        t->setCollapsed(cann, true);
        auto headerCenter = [t](int process) {
            const LaneRow &row =
                t->layout().rows()[static_cast<std::size_t>(t->layout().headerRowOfProcess(process))];
            return QPoint(60, row.y + row.height / 2 + TimelineView::kRulerHeight -
                                  t->verticalScrollBar()->value());
        };
        const QPoint from = headerCenter(cann), to = headerCenter(python);
        QTest::mousePress(t->viewport(), Qt::LeftButton, {}, from);
        QTest::mouseMove(t->viewport(), from + QPoint(0, -8));
        QTest::mouseMove(t->viewport(), to);
        QTest::mouseRelease(t->viewport(), Qt::LeftButton, {}, to);
        QVERIFY(t->layout().headerRowOfProcess(cann) < t->layout().headerRowOfProcess(python));
        QVERIFY(t->isCollapsed(cann)); // a drag is not a click: nothing toggled
        t->setCollapsed(python, false);
        t->setCollapsed(cann, false);
        t->setGroupCollapsed(1, true);
        t->setProcessPinned(overlap, true);
        t->setProcessHidden(hccl, true);
        t->setThreadHidden(pythonThread, true);
        QCOMPARE(t->layout().rows().front().kind, LaneRow::Kind::ProcessHeader);
        QCOMPARE(t->layout().rows().front().process, overlap);
        QCOMPARE(t->layout().headerRowOfProcess(hccl), -1);
        QCOMPARE(t->layout().rowOfThread(pythonThread), -1);
        t->zoom()->setRange({20'000'000, 45'000'000}, true);
        m_window->markers()->add({QStringLiteral("range"), 21'000'000, 22'500'000, 0x31A354});
        m_window->markers()->add({QStringLiteral("flag"), 30'000'000, 30'000'000, 0xE6550D});
        m_window->setColorRules({{QStringLiteral("^aclnn"), 0x123456}});
        const std::vector<StepChoice> choices = m_window->stepChoices();
        QCOMPARE(choices.size(), std::size_t(2));
        m_window->compareSteps(choices[0], choices[1], true);
        const Session saved = m_window->captureSession();
        QVERIFY(saved.compare.has_value());
        QCOMPARE(saved.compare->matchShapes, true);
        const QString path = m_dir.filePath(QStringLiteral("view.atsession"));
        QString error;
        QVERIFY2(m_window->saveSession(path, &error), qPrintable(error));
        test::closeCompareWindows();

        // A fresh window opening the session file gets everything back.
        MainWindow restored;
        restored.resize(1400, 900);
        restored.show();
        QVERIFY(open(restored, path));
        QCOMPARE(restored.currentPath(), level1());
        QCOMPARE(restored.captureSession(), saved);
        QCOMPARE(restored.timeline()->zoom()->range(), (TimeRange{20'000'000, 45'000'000}));
        QVERIFY(restored.timeline()->isCollapsed(hardware));
        QCOMPARE(restored.timeline()->layout().rows().front().process, overlap);
        QVERIFY(restored.timeline()->layout().headerRowOfProcess(cann) <
                restored.timeline()->layout().headerRowOfProcess(python));
        QCOMPARE(restored.timeline()->layout().headerRowOfProcess(hccl), -1);
        QCOMPARE(restored.timeline()->layout().rowOfThread(pythonThread), -1);
        QVERIFY(restored.timeline()->isGroupCollapsed(1));
        QVERIFY(!restored.timeline()->isGroupCollapsed(0));
        QCOMPARE(restored.markers()->size(), 2);
        QCOMPARE(restored.markers()->at(0).name, QStringLiteral("range"));
        // The colour rule paints matching slices.
        const std::vector<SliceRef> aclnn = searchSlices(*restored.model(), QStringLiteral("aclnn"), {true});
        QVERIFY(!aclnn.empty());
        const SliceRef first = *std::find_if(aclnn.begin(), aclnn.end(), [&](SliceRef r) {
            return restored.model()->sliceName(r).startsWith(QStringLiteral("aclnn"));
        });
        QCOMPARE(restored.timeline()->sliceColor(first).rgb() & 0xFFFFFF, 0x123456u);
        // And the compare window is back.
        int compares = 0;
        for (QWidget *w : QApplication::topLevelWidgets())
            compares += qobject_cast<CompareWindow *>(w) ? 1 : 0;
        QCOMPARE(compares, 1);
    }

    void exportViewAsSvg()
    {
        m_window->markers()->add({QStringLiteral("svg-flag"), 30'000'000, 30'000'000, 0xE6550D});
        m_window->timeline()->zoom()->setRange({0, 200'000'000}, true);
        const QString path = m_dir.filePath(QStringLiteral("view.svg"));
        QString error;
        QVERIFY2(m_window->exportViewSvg(path, &error), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray svg = f.readAll();
        QVERIFY(svg.contains("<svg"));
        // Labels are text in the SVG: the ruler, a lane name and the marker's name.
        QVERIFY(svg.contains("View: 200.000 ms"));
        QVERIFY(svg.contains("Rank 0 / Device 0"));
        QVERIFY(svg.contains("svg-flag"));
    }

    void startPageListsRecentPaths()
    {
        // init() opened the level1 folder: File ▸ Close shows the start page with it as most recent.
        QVERIFY(!m_window->showsStartPage());
        m_window->closeTrace();
        QVERIFY(m_window->showsStartPage());
        QVERIFY(!m_window->model());
        QListWidget *recent = m_window->startPage()->recentList();
        QVERIFY(recent->count() >= 1);
        QCOMPARE(recent->item(0)->data(Qt::UserRole).toString(), QFileInfo(level1()).absoluteFilePath());
        // Activating it opens it again.
        QSignalSpy spy(m_window.get(), &MainWindow::loadFinished);
        emit recent->itemActivated(recent->item(0));
        QVERIFY(spy.wait(60000));
        QVERIFY(spy.first().first().toBool());
        QVERIFY(!m_window->showsStartPage());
        QCOMPARE(m_window->timeline()->model(), m_window->model());
    }

    // Issue 29, item 8: a session of many markers opens. The dock made three QTableWidgetItems per marker
    // (0.3 ms a marker: 200,000 took a minute) and naming the next flag compared every name with every
    // other. Now the dock is a view of the list and the load, the dock and a frame take seconds.
    void sessionWithManyMarkersOpens()
    {
        constexpr int kMarkers = 200000;
        Session s;
        s.paths = {level1()};
        for (int i = 0; i < kMarkers; ++i)
            s.markers.push_back({QStringLiteral("Flag %1").arg(i + 1), TimeNs(i) * 1000,
                                 TimeNs(i) * 1000 + (i % 2) * 500, 0xE6550D});
        const QString file = m_dir.filePath(QStringLiteral("many.atsession"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(sessionToJson(s));
        f.close();
        QElapsedTimer timer;
        timer.start();
        QVERIFY(open(*m_window, file));
        m_window->markersPanel()->table()->scrollToBottom();
        QVERIFY(!m_window->grab().isNull()); // a frame of the timeline and the dock with every marker
        const qint64 ms = timer.elapsed();
        QCOMPARE(m_window->markers()->size(), kMarkers);
        QAbstractItemModel *rows = m_window->markersPanel()->table()->model();
        QCOMPARE(rows->rowCount(), kMarkers);
        QCOMPARE(rows->index(kMarkers - 1, 0).data().toString(), QStringLiteral("Flag %1").arg(kMarkers));
        QCOMPARE(rows->index(kMarkers - 1, 2).data().toString(), formatDuration(500));
        // The next flag's name skips every name in use.
        QCOMPARE(m_window->markers()->nextName(true), QStringLiteral("Flag %1").arg(kMarkers + 1));
        // The old dock took about 60 s here before the first frame; the bound leaves room for a loaded
        // machine.
        QVERIFY2(ms < 30000, qPrintable(QString::number(ms)));
    }

    void badSessionFiles()
    {
        const TraceModel *before = m_window->model();
        const QString garbage = m_dir.filePath(QStringLiteral("garbage.atsession"));
        QFile f(garbage);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"paths\": [\"x\"]}");
        f.close();
        QVERIFY(open(*m_window, garbage, false));
        QVERIFY(m_window->lastError().startsWith(garbage));
        QVERIFY(m_window->lastError().contains(QStringLiteral("not an Ascend Timeline session")));
        QCOMPARE(m_window->model(), before); // what was open stays open
        QString error;
        QVERIFY(!sessionFromJson("not json", &error));
        QVERIFY(error.startsWith(QStringLiteral("not JSON")));
        QVERIFY(!sessionFromJson("{\"ascendTimelineSession\": 99, \"paths\": [\"a\"]}", &error));
        QVERIFY(error.contains(QStringLiteral("newer")));
        // A damaged marker is skipped; the rest of the session is kept.
        const auto partial = sessionFromJson(
            R"({"ascendTimelineSession": 1, "paths": ["a"], "markers": [{"name": "bad", "beginNs": "x"},
               {"name": "ok", "beginNs": "5", "endNs": "9", "color": "#00ff00"}]})",
            &error);
        QVERIFY(partial);
        QCOMPARE(partial->markers.size(), std::size_t(1));
        QCOMPARE(partial->markers.front().rgb, 0x00FF00u);
    }
};

QTEST_MAIN(TestMarkersSessions)
#include "tst_markers_sessions.moc"
