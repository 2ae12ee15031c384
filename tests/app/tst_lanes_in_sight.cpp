// Issue #28 items 3 and 4, through the real main window: a single rank opens with its device lanes in
// sight (deep host stacks start collapsed; a click or ↑ opens them), the sticky headers name the lanes
// below them, group headers speak the user's words, and the compare dialog takes a result folder.

#include "CompareWindow.h"
#include "Layer.h"
#include "MessageBar.h"
#include "Steps.h"
#include "TestSupport.h"
#include "TimelineLanesPass.h"
#include "TimelineView.h"
#include "WindowFixture.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTimer>
#include <QToolButton>

using namespace at;

namespace {

QString level1Folder(int rank)
{
    return test::samplePath(
        QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank%1_ascend_pt")
            .arg(rank));
}

QString level1DatabaseFolder()
{
    return test::samplePath(
        QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/db/level1/rank0_ascend_pt"));
}

// Types path into the next modal file dialog's name field, as a user does, and presses Open.
void answerNextFileDialog(const QString &path)
{
    auto *poll = new QTimer;
    poll->setInterval(20);
    QObject::connect(poll, &QTimer::timeout, poll, [poll, path] {
        auto *dialog = qobject_cast<QFileDialog *>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        poll->stop();
        poll->deleteLater();
        auto *name = dialog->findChild<QLineEdit *>(QStringLiteral("fileNameEdit"));
        QVERIFY(name);
        name->setText(path);
        QMetaObject::invokeMethod(dialog, "accept"); // a public slot of QDialog
    });
    poll->start();
}

// The process and depth of the deepest host (Python, CANN API) thread.
struct DeepestHost
{
    int process = -1;
    int thread = -1;
    int depth = 0;
};

DeepestHost deepestHostThread(const TraceModel &model)
{
    DeepestHost deepest;
    for (std::size_t t = 0; t < model.threads().size(); ++t) {
        const int process = model.threads()[t].process;
        const Layer layer = model.processes()[static_cast<std::size_t>(process)].layer;
        const int depth = model.threads()[t].slices.depthCount();
        if ((layer == Layer::Framework || layer == Layer::CannApi) && depth > deepest.depth)
            deepest = {process, static_cast<int>(t), depth};
    }
    return deepest;
}

int processNamed(const TraceModel &model, const QString &name, int group = 0)
{
    for (std::size_t p = 0; p < model.processes().size(); ++p)
        if (model.processes()[p].group == group && model.processDisplayName(static_cast<int>(p)) == name)
            return static_cast<int>(p);
    return -1;
}

// The first thread row of a layer, -1 when there is none.
int firstLaneOf(const TimelineView &view, Layer layer)
{
    const auto &rows = view.layout().rows();
    for (std::size_t k = 0; k < rows.size(); ++k)
        if (rows[k].kind == LaneRow::Kind::Thread &&
            view.model()->processes()[static_cast<std::size_t>(rows[k].process)].layer == layer)
            return static_cast<int>(k);
    return -1;
}

// The bottom of the first thread lane of a layer in a layout of model with `collapsed` closed, -1 when there
// is none.
int firstLaneBottom(const TraceModel &model, const QSet<int> &collapsed, Layer layer)
{
    LaneLayout layout;
    layout.rebuild(&model, collapsed);
    for (const LaneRow &r : layout.rows())
        if (r.kind == LaneRow::Kind::Thread &&
            model.processes()[static_cast<std::size_t>(r.process)].layer == layer)
            return r.y + r.height;
    return -1;
}

// Every host process (Python, CANN API) of the model.
QSet<int> hostProcesses(const TraceModel &model)
{
    QSet<int> host;
    for (std::size_t p = 0; p < model.processes().size(); ++p)
        if (model.processes()[p].layer == Layer::Framework || model.processes()[p].layer == Layer::CannApi)
            host.insert(static_cast<int>(p));
    return host;
}

} // namespace

class TestLanesInSight : public QObject, protected test::WindowFixture
{
    Q_OBJECT

    TimelineView *view() const { return m_window->timeline(); }
    const LaneRow &row(int index) const { return view()->layout().rows()[static_cast<std::size_t>(index)]; }
    // The lanes' visible height below the ruler, and a content row's top in viewport coordinates.
    int lanesHeight() const { return view()->viewport()->height() - TimelineView::kRulerHeight; }
    int viewportY(const LaneRow &r) const
    {
        return TimelineView::kRulerHeight + r.y - view()->verticalScrollBar()->value();
    }
    void clickAt(int y) { QTest::mouseClick(view()->viewport(), Qt::LeftButton, {}, QPoint(40, y)); }
    QSet<int> collapsedProcesses() const
    {
        QSet<int> collapsed;
        for (std::size_t p = 0; p < view()->model()->processes().size(); ++p)
            if (view()->isCollapsed(static_cast<int>(p)))
                collapsed.insert(static_cast<int>(p));
        return collapsed;
    }
    // Whether the first lane of a layer is entirely in the viewport (the vertical scroll taken into account);
    // a message naming where it is otherwise.
    QString laneOutOfSight(Layer layer) const
    {
        const int lane = firstLaneOf(*view(), layer);
        if (lane < 0)
            return QStringLiteral("no %1 lane").arg(layerDisplayName(layer));
        const int top = viewportY(row(lane)), bottom = top + row(lane).height;
        // A scrolled view keeps the rank's header on top (sticky).
        const int sticky =
            view()->verticalScrollBar()->value() > 0 && row(0).kind == LaneRow::Kind::GroupHeader
                ? row(0).height
                : 0;
        if (top >= TimelineView::kRulerHeight + sticky && bottom <= view()->viewport()->height())
            return {};
        return QStringLiteral("%1 lane at %2..%3, viewport %4 px high (window %5x%6, message bar %7)")
            .arg(layerDisplayName(layer))
            .arg(top)
            .arg(bottom)
            .arg(view()->viewport()->height())
            .arg(m_window->width())
            .arg(m_window->height())
            .arg(m_window->messageBar()->isVisible() ? m_window->messageBar()->height() : 0);
    }
    // Whether the lanes area can hold the first device lane and the first communication lane together, with
    // the whole host side collapsed: from the top, or scrolled to the device lanes' header (under the
    // rank's).
    bool communicationCanBeInSight() const
    {
        const TraceModel &model = *view()->model();
        LaneLayout layout;
        layout.rebuild(&model, hostProcesses(model));
        const int bottom = firstLaneBottom(model, hostProcesses(model), Layer::Communication);
        const int device = firstLaneOf(*view(), Layer::DeviceStreams);
        if (bottom < 0 || device < 0)
            return false;
        const int header = layout.headerRowOfProcess(row(device).process);
        const int sticky =
            layout.rows().front().kind == LaneRow::Kind::GroupHeader ? LaneLayout::kGroupHeaderHeight : 0;
        return bottom <= lanesHeight() ||
               bottom - (layout.rows()[static_cast<std::size_t>(header)].y - sticky) <= lanesHeight();
    }
    // The first device lane is in sight; so is the first communication lane whenever the lanes area can hold
    // both. A view that starts scrolled hides nothing open above its first lane in sight.
    void verifyDeviceAndCommunicationInSight() const
    {
        const QString device = laneOutOfSight(Layer::DeviceStreams);
        QVERIFY2(device.isEmpty(), qPrintable(device));
        if (communicationCanBeInSight()) {
            const QString communication = laneOutOfSight(Layer::Communication);
            QVERIFY2(communication.isEmpty(), qPrintable(communication));
        }
        const int scroll = view()->verticalScrollBar()->value();
        for (const LaneRow &r : view()->layout().rows())
            if (r.y + r.height <= scroll)
                QVERIFY2(
                    r.kind == LaneRow::Kind::GroupHeader ||
                        (r.kind == LaneRow::Kind::ProcessHeader && view()->isCollapsed(r.process)),
                    qPrintable(
                        QStringLiteral("row at %1 open above the view scrolled to %2").arg(r.y).arg(scroll)));
    }
    // Resizes the window and lets the layout settle (the docks' shares are limited a turn of the event loop
    // later).
    void resizeWindow(QSize size)
    {
        m_window->resize(size);
        QTRY_COMPARE(m_window->size(), size);
        QCoreApplication::processEvents();
        QTest::qWait(20);
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(setUpWindowSuite()); }
    void cleanup()
    {
        // Windows a test opened besides its own (the compare tests' other runs).
        for (MainWindow *w : MainWindow::openWindows())
            if (w != m_window.get())
                delete w;
        closeWindow();
    }

    void deviceLanesInSightAfterALoad_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QSize>("size");
        for (const QSize size : {QSize(900, 700), QSize(1600, 1000)}) {
            const QString at = QStringLiteral(" %1x%2").arg(size.width()).arg(size.height());
            QTest::newRow(qPrintable(QStringLiteral("level1 folder") + at)) << level1Folder(0) << size;
            QTest::newRow(qPrintable(QStringLiteral("level1 trace") + at))
                << test::level1Rank0Trace() << size;
            QTest::newRow(qPrintable(QStringLiteral("level1 database") + at))
                << level1DatabaseFolder() << size;
        }
        // Without any host data, device tasks drawn from kernel_details.csv, under a three-line message bar.
        QTest::newRow("qwen3 rank 900x700")
            << test::samplePath(
                   QStringLiteral("msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2/rank_0_ascend_pt"))
            << QSize(900, 700);
        // Shorter than the lanes above the first device lane with only the Python stack collapsed: the CANN
        // lanes collapse too.
        QTest::newRow("level1 folder 900x560") << level1Folder(0) << QSize(900, 560);
    }

    void deviceLanesInSightAfterALoad()
    {
        QFETCH(QString, path);
        QFETCH(QSize, size);
        QVERIFY(openWindow(path, size));
        const TraceModel &model = *m_window->model();
        QCOMPARE(model.groups().size(), std::size_t(1));
        QVERIFY(view()->isVisible());
        // The result folders open with a collection warning above the timeline (L2 cache collection on, no
        // timeline file): the lanes below have that much less room.
        QCOMPARE(m_window->messageBar()->isVisible(), !path.endsWith(QLatin1String(".json")));
        verifyDeviceAndCommunicationInSight();
        if (hostProcesses(model).isEmpty())
            return; // no host side (the Qwen3 rank): nothing to collapse
        // The deep Python stack (30 levels here) starts collapsed to its header and busy preview.
        const DeepestHost deep = deepestHostThread(model);
        QVERIFY2(deep.depth > TimelineView::kDeepStackLevels, qPrintable(QString::number(deep.depth)));
        QVERIFY(view()->isCollapsed(deep.process));
        QCOMPARE(row(view()->layout().rowOfThread(deep.thread)).kind, LaneRow::Kind::ProcessHeader);
        // Shallow host stacks (CANN API, a few levels) stay open, unless open they would push the device lane
        // (or, where the lanes area can hold it with the host side collapsed, the communication lane) out of
        // sight: each one collapsed is needed for that.
        const QSet<int> collapsed = collapsedProcesses();
        const bool communicationFits = communicationCanBeInSight();
        for (const int p : collapsed) {
            int depth = 0;
            for (int t : model.processes()[static_cast<std::size_t>(p)].threads)
                depth = std::max(depth, model.threads()[static_cast<std::size_t>(t)].slices.depthCount());
            QSet<int> open = collapsed;
            open.remove(p);
            QVERIFY2(
                depth > TimelineView::kDeepStackLevels ||
                    firstLaneBottom(model, open, Layer::DeviceStreams) > lanesHeight() ||
                    (communicationFits && firstLaneBottom(model, open, Layer::Communication) > lanesHeight()),
                qPrintable(model.processDisplayName(p)));
        }
        // At 1600x1000 the default layout leaves room for the device streams and the communication (HCCL)
        // lanes of the alexnet rank: both start in sight (the database export's, scrolled to the device
        // lanes).
        if (size == QSize(1600, 1000) && firstLaneOf(*view(), Layer::Communication) >= 0) {
            QVERIFY(communicationFits);
            const QString communication = laneOutOfSight(Layer::Communication);
            QVERIFY2(communication.isEmpty(), qPrintable(communication));
        }
    }

    // The rule holds again after each resize, and a window grown back opens what the short one collapsed.
    void lanesStayInSightAcrossResizes()
    {
        QVERIFY(openWindow(level1Folder(0), {1600, 1000}));
        QVERIFY(m_window->messageBar()->isVisible());
        verifyDeviceAndCommunicationInSight();
        const TraceModel &model = *m_window->model();
        const QSet<int> large = collapsedProcesses();
        QCOMPARE(large, TimelineView::initiallyCollapsed(model, lanesHeight()));
        QCOMPARE(view()->verticalScrollBar()->value(), 0); // the text export's HCCL fits from the top
        resizeWindow({900, 700});
        verifyDeviceAndCommunicationInSight();
        QCOMPARE(collapsedProcesses(), TimelineView::initiallyCollapsed(model, lanesHeight()));
        QVERIFY(collapsedProcesses().contains(large));
        // Short enough that only the device lanes fit, then tall enough for every host lane: the CANN lanes
        // collapse, then open again.
        const int cann = processNamed(model, QStringLiteral("CANN"));
        QVERIFY(cann >= 0);
        resizeWindow({900, 600});
        verifyDeviceAndCommunicationInSight();
        QVERIFY(view()->isCollapsed(cann));
        resizeWindow({1600, 2000});
        verifyDeviceAndCommunicationInSight();
        QVERIFY(!view()->isCollapsed(cann));
        QCOMPARE(collapsedProcesses(), TimelineView::initiallyCollapsed(model, lanesHeight()));
        // Back at 1600x1000 (the docks may keep another height after the tall window: the fit follows the
        // lanes' height, whatever it is).
        resizeWindow({1600, 1000});
        verifyDeviceAndCommunicationInSight();
        QCOMPARE(collapsedProcesses(), TimelineView::initiallyCollapsed(model, lanesHeight()));
        // Dismissing the message bar gives the lanes its height: still in sight, nothing more collapsed.
        const QSet<int> withBar = collapsedProcesses();
        const int before = lanesHeight();
        QTest::mouseClick(m_window->messageBar()->closeButton(), Qt::LeftButton);
        QTRY_VERIFY(!m_window->messageBar()->isVisible());
        QTRY_VERIFY(lanesHeight() > before);
        verifyDeviceAndCommunicationInSight();
        QVERIFY(withBar.contains(collapsedProcesses()));
        // Once the user opens or closes a process, a resize leaves the choice alone.
        const DeepestHost deep = deepestHostThread(model);
        view()->setCollapsed(deep.process, false);
        const QSet<int> chosen = collapsedProcesses();
        resizeWindow({900, 700});
        QCOMPARE(collapsedProcesses(), chosen);
    }

    // A load opens on the Overview: the timeline, hidden behind it while the message bar appeared and the
    // window was resized, fits its lanes when it is shown.
    void lanesInSightAfterOverviewToTimeline()
    {
        QVERIFY(showWindow({1600, 1000}));
        // The toolbar's kernel colour chooser needs a timeline: none on the start page.
        auto *colorBy = m_window->findChild<QLabel *>(QStringLiteral("ColorByLabel"));
        QVERIFY(colorBy);
        QVERIFY(!colorBy->isVisible());
        QVERIFY(test::openOnOverview(*m_window, level1Folder(0)));
        QVERIFY(m_window->showsOverview());
        QVERIFY(m_window->messageBar()->isVisible());
        QTRY_VERIFY(colorBy->isVisible());
        resizeWindow({900, 700});
        m_window->showTimelinePage();
        QTRY_VERIFY(view()->isVisible());
        QCoreApplication::processEvents();
        verifyDeviceAndCommunicationInSight();
        // And back to the Overview, larger, then to the timeline again.
        m_window->showOverviewPage();
        resizeWindow({1600, 1000});
        m_window->showTimelinePage();
        QTRY_VERIFY(view()->isVisible());
        QCoreApplication::processEvents();
        verifyDeviceAndCommunicationInSight();
        const QString communication = laneOutOfSight(Layer::Communication);
        QVERIFY2(communication.isEmpty(), qPrintable(communication));
    }

    // The bar above the lanes speaks the window's language after View ▸ Language, like the rest of it.
    void messageBarFollowsTheLanguage()
    {
        QVERIFY(openWindow(level1Folder(0), {900, 700}));
        MessageBar *bar = m_window->messageBar();
        QVERIFY(bar->isVisible());
        QCOMPARE(bar->copyButton()->text(), QStringLiteral("Copy"));
        QVERIFY(setUiLanguage(QStringLiteral("zh_CN")));
        QTRY_VERIFY(bar->copyButton()->text() != QStringLiteral("Copy"));
        QCOMPARE(bar->copyButton()->text(), QCoreApplication::translate("at::MessageBar", "Copy"));
        QVERIFY(!bar->closeButton()->toolTip().isEmpty());
        QVERIFY(!bar->detailsView()->isVisible()); // still folded
        QVERIFY(setUiLanguage(QStringLiteral("en")));
        QTRY_COMPARE(bar->copyButton()->text(), QStringLiteral("Copy"));
    }

    void clickOnTheHeaderOpensADeepStack()
    {
        QVERIFY(openWindow(level1Folder(0), {900, 700}));
        const DeepestHost deep = deepestHostThread(*m_window->model());
        QVERIFY(view()->isCollapsed(deep.process));
        const int header = view()->layout().headerRowOfProcess(deep.process);
        clickAt(viewportY(row(header)) + 8);
        QVERIFY(!view()->isCollapsed(deep.process));
        const int lane = view()->layout().rowOfThread(deep.thread);
        QCOMPARE(row(lane).kind, LaneRow::Kind::Thread);
        QCOMPARE(row(lane).height,
                 2 * LaneLayout::kTrackPadding + deep.depth * LaneLayout::kSliceHeight); // every level
        // And closes it again.
        clickAt(viewportY(row(header)) + 8);
        QVERIFY(view()->isCollapsed(deep.process));
    }

    void upArrowIntoACollapsedStackOpensIt()
    {
        QVERIFY(openWindow(level1Folder(0), {900, 700}));
        const TraceModel &model = *m_window->model();
        const DeepestHost deep = deepestHostThread(model);
        QVERIFY(view()->isCollapsed(deep.process));
        // At the default layout the shallow CANN stack may start collapsed too (a short view): open every
        // other process, so that the deep stack is the one above the first lane in sight.
        for (std::size_t p = 0; p < model.processes().size(); ++p)
            if (static_cast<int>(p) != deep.process)
                view()->setCollapsed(static_cast<int>(p), false);
        view()->setFocus();
        // ↓ without a lane: the first lane in sight, which is below the collapsed stack.
        QTest::keyClick(view(), Qt::Key_Down);
        const int first = view()->currentLane();
        QVERIFY(first >= 0);
        QVERIFY(model.threads()[static_cast<std::size_t>(first)].process != deep.process);
        QVERIFY(view()->isCollapsed(deep.process));
        // ↑ from it goes into the stack above and opens it, on its last lane.
        QTest::keyClick(view(), Qt::Key_Up);
        QVERIFY(!view()->isCollapsed(deep.process));
        const int lane = view()->currentLane();
        QCOMPARE(model.threads()[static_cast<std::size_t>(lane)].process, deep.process);
        const std::vector<int> &threads = model.processes()[static_cast<std::size_t>(deep.process)].threads;
        int last = -1;
        for (int t : threads)
            if (view()->layout().rowOfThread(t) > view()->layout().rowOfThread(last))
                last = t;
        QCOMPARE(lane, last);
        QVERIFY(view()->selectedSlice().isValid());
        QCOMPARE(view()->selectedSlice().thread, lane);
        // The lane it selected is in sight.
        const LaneRow &r = row(view()->layout().rowOfThread(lane));
        QVERIFY(viewportY(r) >= TimelineView::kRulerHeight && viewportY(r) < view()->viewport()->height());
    }

    void stickyProcessHeaderNamesTheLanesBelowIt()
    {
        QVERIFY(openWindow(level1Folder(0), {900, 700}));
        const TraceModel &model = *m_window->model();
        const DeepestHost deep = deepestHostThread(model);
        view()->setCollapsed(deep.process, false); // a tall stack above the CANN lanes
        const int cann = processNamed(model, QStringLiteral("CANN"));
        const int hardware = processNamed(model, QStringLiteral("Ascend Hardware"));
        QVERIFY(cann >= 0 && hardware >= 0);
        view()->setCollapsed(cann, false); // may start collapsed at the default layout (a short view)
        view()->setCollapsed(hardware, false);
        // The CANN header just scrolled under the rank's sticky header: the row at the very top is still
        // the Python stack's, but every lane in sight below the headers is CANN's.
        for (const int process : {cann, hardware}) {
            const LaneRow header = row(view()->layout().headerRowOfProcess(process));
            for (const int into : {4, LaneLayout::kGroupHeaderHeight - 2, 40}) {
                view()->verticalScrollBar()->setValue(header.y + into - LaneLayout::kGroupHeaderHeight);
                const int firstBelow =
                    view()->layout().rowAt(view()->verticalScrollBar()->value() +
                                           LaneLayout::kGroupHeaderHeight + LaneLayout::kHeaderHeight);
                QCOMPARE(row(firstBelow).process, process);
                // The sticky process header is the one a click under the rank header toggles.
                QVERIFY(!view()->isCollapsed(process));
                clickAt(TimelineView::kRulerHeight + LaneLayout::kGroupHeaderHeight + 8);
                QVERIFY2(view()->isCollapsed(process),
                         qPrintable(QStringLiteral("%1, %2 px into it: the sticky header is not its own")
                                        .arg(model.processDisplayName(process))
                                        .arg(into)));
                view()->setCollapsed(process, false);
                QVERIFY(!view()->isCollapsed(deep.process));
            }
        }
    }

    void stickyRankHeaderNamesTheRankBelowIt()
    {
        // Two ranks of one run: scroll rank 1's header just under the top; rank 1 is what is in sight.
        QVERIFY(openWindow(
            test::samplePath(QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1")),
            {900, 700}));
        QCOMPARE(m_window->model()->groups().size(), std::size_t(2));
        int rank1 = -1;
        const auto &rows = view()->layout().rows();
        for (std::size_t k = 0; k < rows.size(); ++k)
            if (rows[k].kind == LaneRow::Kind::GroupHeader && rows[k].process == 1)
                rank1 = static_cast<int>(k);
        QVERIFY(rank1 > 0);
        view()->verticalScrollBar()->setValue(row(rank1).y + 6);
        clickAt(TimelineView::kRulerHeight + 8);
        QVERIFY(view()->isGroupCollapsed(1));
        QVERIFY(!view()->isGroupCollapsed(0));
        view()->setGroupCollapsed(1, false);
        // Rank 1's own header 10 px below the top: no rank 0 header is drawn over it, a click on it is its.
        view()->verticalScrollBar()->setValue(row(rank1).y - 10);
        clickAt(TimelineView::kRulerHeight + 10 + 8);
        QVERIFY(view()->isGroupCollapsed(1));
        QVERIFY(!view()->isGroupCollapsed(0));
    }

    void groupHeadersSpeakTheUsersWords_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("expected"); // the text of the first group, empty: only checked for codes
        QTest::newRow("torch_npu text export")
            << level1Folder(0) << QStringLiteral("torch_npu profiler export");
        QTest::newRow("torch_npu database")
            << level1DatabaseFolder()
            << QStringLiteral("torch_npu profiler export, database ascend_pytorch_profiler_0.db");
        QTest::newRow("msprof export")
            << test::samplePath(QStringLiteral(
                   "ascend_msprof_skill_cann8_sanitized/tests/fixtures/real_cann_minimal/reports/PROF_001"))
            << QStringLiteral("msprof export (CANN ≥ 7.0)");
        QTest::newRow("kernel rows")
            << test::samplePath(
                   QStringLiteral("msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2/rank_0_ascend_pt"))
            << QStringLiteral("torch_npu profiler export, device tasks drawn from kernel_details.csv");
    }

    void groupHeadersSpeakTheUsersWords()
    {
        QFETCH(QString, path);
        QFETCH(QString, expected);
        QVERIFY(openWindow(path, {900, 700}));
        const TraceModel &model = *m_window->model();
        QVERIFY(LaneLayout::showsGroups(&model));
        static const QRegularExpression code(QStringLiteral("\\bG[1-4]\\b"));
        for (const SourceGroup &group : model.groups()) {
            QVERIFY2(code.match(group.layout).hasMatch(), qPrintable(group.layout)); // --summary keeps it
            const QString text = TimelineLanesPass::sourceKindText(group);
            QVERIFY2(!text.isEmpty() && !code.match(text).hasMatch(), qPrintable(text));
        }
        QCOMPARE(TimelineLanesPass::sourceKindText(model.groups().front()), expected);
    }

    void compareAsksForAnotherRunAndTakesAFolder()
    {
        // One step here and no other profile open: Compare asks for the other run right away.
        QVERIFY(openWindow(test::level1Rank0Trace(), {900, 700}));
        QCOMPARE(m_window->model()->steps().size(), std::size_t(1));
        auto *compare = m_window->findChild<QAction *>(QStringLiteral("view.compareSteps"));
        QVERIFY(compare);
        const QList<MainWindow *> before = MainWindow::openWindows();
        answerNextFileDialog(level1Folder(1)); // a folder, typed as a user does
        compare->trigger();
        QPointer<MainWindow> other;
        for (MainWindow *w : MainWindow::openWindows())
            if (!before.contains(w))
                other = w;
        QVERIFY(other);
        CompareStepsDialog *dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dialog = m_window->findChild<CompareStepsDialog *>()) != nullptr, 60000);
        QCOMPARE(other->currentPath(), level1Folder(1));
        QVERIFY(!other->model()->kernels().empty()); // the folder's kernel table came with it
        QVERIFY(dialog->base().model.get() == m_window->model());
        QVERIFY(dialog->comparison().model == other->sharedModel());

        // The dialog's Another Run… button asks again, and a file is still taken too.
        auto *another = dialog->findChild<QPushButton *>(QStringLiteral("compare.anotherRun"));
        QVERIFY(another);
        const QList<MainWindow *> two = MainWindow::openWindows();
        answerNextFileDialog(level1DatabaseFolder() +
                             QStringLiteral("/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db"));
        QTest::mouseClick(another, Qt::LeftButton);
        QPointer<MainWindow> third;
        for (MainWindow *w : MainWindow::openWindows())
            if (!two.contains(w))
                third = w;
        QVERIFY(third);
        const QPointer<CompareStepsDialog> first(dialog);
        QTRY_VERIFY_WITH_TIMEOUT(!first && (dialog = m_window->findChild<CompareStepsDialog *>()) != nullptr,
                                 60000);
        QVERIFY(dialog->base().model.get() == m_window->model());
        QVERIFY(dialog->comparison().model == third->sharedModel());
        dialog->reject();
    }
};

QTEST_MAIN(TestLanesInSight)
#include "tst_lanes_in_sight.moc"
