#include "../raw/RawRecordWriter.h"
#include "CollectionPanel.h"
#include "DetailsPanel.h"
#include "KernelTablePanel.h"
#include "MainWindow.h"
#include "MessageBar.h"
#include "SearchBar.h"
#include "SummaryTablesPanel.h"
#include "TestPaths.h"
#include "TestSupport.h"
#include "TimelineView.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QMimeData>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace at;

// The whole window offscreen: loading (bundled sample, drop, errors, cancel), search and keys.
class TestMainWindow : public QObject
{
    Q_OBJECT
    std::unique_ptr<MainWindow> m_window;
    QTemporaryDir m_dir;

    // Waits for the next loadFinished and checks its outcome.
    bool waitForLoad(QSignalSpy &spy, bool expectOk)
    {
        const qsizetype before = spy.count();
        while (spy.count() == before)
            if (!spy.wait(60000))
                return false;
        return spy.last().at(0).toBool() == expectOk;
    }

    QString writeFile(const QString &name, const QByteArray &content)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(content);
        return path;
    }

    static QByteArray sampleBytes()
    {
        QFile f(test::level1Rank0Trace());
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private Q_SLOTS:
    void initTestCase()
    {
        // Settings (recent files, window layout) go to a scratch folder, never the user's.
        QVERIFY(m_dir.isValid());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                           m_dir.filePath(QStringLiteral("settings")));
        QSettings().clear();
    }

    void init()
    {
        m_window = std::make_unique<MainWindow>();
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanup() { m_window.reset(); }

    void opensTheBundledSample()
    {
        QSignalSpy spy(m_window.get(), &MainWindow::loadFinished);
        m_window->openBundledSample();
        QVERIFY(waitForLoad(spy, true));
        QVERIFY(m_window->model());
        QCOMPARE(m_window->model()->eventCounts().total(), std::size_t(10112));
        QCOMPARE(m_window->model()->sliceCount(), std::size_t(4384));
        QVERIFY(m_window->windowTitle().contains(QStringLiteral("Bundled sample")));
        QCOMPARE(m_window->timeline()->model(), m_window->model());
        // Args are re-read from the decompressed temporary copy.
        const SliceRef step = test::uniqueSlice(*m_window->model(), QStringLiteral("ProfilerStep#50"));
        QVERIFY(!m_window->model()->sliceArgs(step).empty());
    }

    void dropOpensAFile()
    {
        QSignalSpy spy(m_window.get(), &MainWindow::loadFinished);
        const QString path = test::level1Rank0Trace();
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path)});
        const QPoint pos = m_window->rect().center();
        QDragEnterEvent enter(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(m_window.get(), &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(pos), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(m_window.get(), &drop);
        QVERIFY(waitForLoad(spy, true));
        QCOMPARE(m_window->currentPath(), path);
        QCOMPARE(m_window->model()->eventCounts().complete, std::size_t(4384));
    }

    // A result with both its msprof export and the raw slices: the export loads; File ▸ Reload from Raw Data
    // decodes the slices; Reload from Other Source goes back to the export.
    void reloadFromRawDataAndBack()
    {
        QTemporaryDir d;
        const QString prof = d.filePath(QStringLiteral("PROF_000001_20240101000000000_ABCDEFGHIJKLMNOP"));
        test::writeFile(prof + "/device_0/data/info.json.0",
                        R"({"platform_version":"1","DeviceInfo":[{"id":0,"hwts_frequency":"50"}]})");
        test::writeFile(prof + "/device_0/data/hwts.data.0.slice_0",
                        test::hwtsRecord(0, 0, 0, 1, 1000, 2) + test::hwtsRecord(1, 1, 0, 1, 1100, 2) +
                            test::hwtsRecord(0, 2, 0, 2, 1200, 2) + test::hwtsRecord(1, 3, 0, 2, 1300, 2));
        test::writeFile(prof + "/mindstudio_profiler_output/msprof_20240101000000.json",
                        R"([{"name":"Exported","ph":"X","pid":1,"tid":3,"ts":"1.000","dur":2}])");
        QSignalSpy spy(m_window.get(), &MainWindow::loadFinished);
        m_window->setPreferredSource(PreferredSource::Text);
        m_window->openPath(d.path());
        QVERIFY(waitForLoad(spy, true));
        QCOMPARE(m_window->model()->sliceCount(), std::size_t(1));
        QVERIFY(!provenanceRow(m_window->model()->groups().front().provenance, QStringLiteral("raw data"))
                     .isEmpty());
        QVERIFY(m_window->reloadFromRawData());
        QVERIFY(waitForLoad(spy, true));
        QCOMPARE(m_window->preferredSource(), PreferredSource::Raw);
        QCOMPARE(m_window->model()->sliceCount(), std::size_t(2));
        QVERIFY(
            provenanceRow(m_window->model()->groups().front().provenance, QStringLiteral("timeline source"))
                .startsWith(QStringLiteral("raw data")));
        QVERIFY(!m_window->reloadFromRawData()); // already raw
        QVERIFY(m_window->reloadWithOtherSource());
        QVERIFY(waitForLoad(spy, true));
        QCOMPARE(m_window->model()->sliceCount(), std::size_t(1));
        m_window->setPreferredSource(PreferredSource::Text);
    }

    void badFileShowsErrorAndKeepsTheOpenTrace()
    {
        QSignalSpy spy(m_window.get(), &MainWindow::loadFinished);
        m_window->openPath(test::level1Rank0Trace());
        QVERIFY(waitForLoad(spy, true));
        const TraceModel *before = m_window->model();
        const QString garbage = writeFile(QStringLiteral("garbage.json"), "<html>not a trace</html>");
        m_window->openPath(garbage);
        QVERIFY(waitForLoad(spy, false));
        QCOMPARE(m_window->model(), before);
        QCOMPARE(m_window->messageBar()->kind(), MessageBar::Kind::Error);
        QVERIFY(m_window->messageBar()->isVisible());
        QVERIFY2(m_window->messageBar()->text().contains(garbage),
                 qPrintable(m_window->messageBar()->text()));
        QVERIFY(m_window->messageBar()->text().contains(QStringLiteral("byte 0")));

        const QString empty = writeFile(QStringLiteral("empty.json"), QByteArray());
        m_window->openPath(empty);
        QVERIFY(waitForLoad(spy, false));
        QVERIFY(m_window->messageBar()->text().contains(QStringLiteral("empty")));
    }

    void truncatedFileKeepsCompleteEventsAndWarns()
    {
        QSignalSpy spy(m_window.get(), &MainWindow::loadFinished);
        const QByteArray bytes = sampleBytes();
        const QString cut = writeFile(QStringLiteral("cut.json"), bytes.left(bytes.size() / 2));
        m_window->openPath(cut);
        QVERIFY(waitForLoad(spy, true));
        QVERIFY(m_window->model()->eventCounts().total() > 1000);
        QVERIFY(m_window->model()->eventCounts().total() < 10112);
        QCOMPARE(m_window->messageBar()->kind(), MessageBar::Kind::Warning);
        QVERIFY2(m_window->messageBar()->text().contains(QStringLiteral("truncated at byte")),
                 qPrintable(m_window->messageBar()->text()));
    }

    void findStepsThroughMatches()
    {
        QSignalSpy spy(m_window.get(), &MainWindow::loadFinished);
        m_window->openPath(test::level1Rank0Trace());
        QVERIFY(waitForLoad(spy, true));
        QTest::keyClick(m_window.get(), Qt::Key_F, Qt::ControlModifier);
        SearchBar *search = m_window->searchBar();
        QVERIFY(search->isVisible());
        QTest::keyClicks(search->lineEdit(), QStringLiteral("profilerstep"));
        QTest::keyClick(search->lineEdit(), Qt::Key_Return);
        QCOMPARE(m_window->model()->sliceName(m_window->timeline()->selectedSlice()),
                 QStringLiteral("ProfilerStep#50"));
        QCOMPARE(search->statusText(), QStringLiteral("1 of 1"));
        QCOMPARE(m_window->details()->fieldValue(QStringLiteral("Name")), QStringLiteral("ProfilerStep#50"));
        // Case-sensitive search for the lower-case text finds nothing.
        search->caseSensitive()->setChecked(true);
        QCOMPARE(search->statusText(), QStringLiteral("no matches"));
        // Several matches: Enter steps forward in time, Shift+Enter back.
        search->caseSensitive()->setChecked(false);
        search->lineEdit()->setText(QStringLiteral("MEMCPY_ASYNC"));
        QTest::keyClick(search->lineEdit(), Qt::Key_Return);
        QTest::keyClick(search->lineEdit(), Qt::Key_Return);
        QVERIFY(search->statusText().startsWith(QStringLiteral("2 of ")));
        QTest::keyClick(search->lineEdit(), Qt::Key_Return, Qt::ShiftModifier);
        QVERIFY(search->statusText().startsWith(QStringLiteral("1 of ")));
        QTest::keyClick(search->lineEdit(), Qt::Key_Escape);
        QVERIFY(!search->isVisible());
    }

    void navigationKeysWorkFromAnyPanel()
    {
        QSignalSpy spy(m_window.get(), &MainWindow::loadFinished);
        m_window->openPath(test::level1Rank0Trace());
        QVERIFY(waitForLoad(spy, true));
        m_window->details()->setFocus();
        const TimeNs width = m_window->timeline()->zoom()->range().width();
        QTest::keyClick(m_window->details(), Qt::Key_W);
        QVERIFY(m_window->timeline()->zoom()->range().width() < width);
        QTest::keyClick(m_window->details(), Qt::Key_Backspace);
        QCOMPARE(m_window->timeline()->zoom()->range().width(), width);
    }

    void droppedFolderShowsRanksKernelsAndCollection()
    {
        QSignalSpy spy(m_window.get(), &MainWindow::loadFinished);
        const QString folder =
            test::samplePath(QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1"));
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(folder)});
        QDragEnterEvent enter(m_window->rect().center(), Qt::CopyAction, &mime, Qt::LeftButton,
                              Qt::NoModifier);
        QApplication::sendEvent(m_window.get(), &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(m_window->rect().center()), Qt::CopyAction, &mime, Qt::LeftButton,
                        Qt::NoModifier);
        QApplication::sendEvent(m_window.get(), &drop);
        QVERIFY(waitForLoad(spy, true));
        // Two group headers, one per rank.
        int groupHeaders = 0;
        for (const LaneRow &row : m_window->timeline()->layout().rows())
            groupHeaders += row.kind == LaneRow::Kind::GroupHeader ? 1 : 0;
        QCOMPARE(groupHeaders, 2);
        KernelTablePanel *kernels = m_window->kernels();
        QCOMPARE(kernels->kernelModel()->rowCount(), 382);
        QVERIFY2(kernels->summaryText().contains(QStringLiteral("382 kernels, 0 not joined")),
                 qPrintable(kernels->summaryText()));
        QVERIFY(kernels->summaryText().contains(QStringLiteral("PipeUtilization")));
        // Filter to one kernel and activate it: the timeline selects and centres it, the details
        // panel shows its metrics.
        kernels->proxy()->setFilterFixedString(QStringLiteral("trans_TransData_0"));
        QVERIFY(kernels->proxy()->rowCount() >= 1);
        const QModelIndex first = kernels->proxy()->index(0, KernelTableModel::Name);
        Q_EMIT kernels->table()->activated(first);
        const SliceRef selected = m_window->timeline()->selectedSlice();
        QVERIFY(selected.isValid());
        QCOMPARE(m_window->model()->sliceName(selected), QStringLiteral("trans_TransData_0"));
        QCOMPARE(m_window->details()->fieldValue(QStringLiteral("AI Core metrics")),
                 QStringLiteral("PipeUtilization"));
        const TimeRange range = m_window->timeline()->zoom()->range();
        const SliceTable &t = m_window->model()->threads()[static_cast<std::size_t>(selected.thread)].slices;
        QVERIFY(range.start <= t.start(selected.index) && range.end >= t.end(selected.index));
        // Selecting on the timeline selects the row.
        kernels->proxy()->setFilterFixedString(QString());
        const KernelRecord &other = m_window->model()->kernels().rows()[5];
        m_window->timeline()->selectSlice({other.thread, other.slice}, true);
        const QModelIndexList rows = kernels->table()->selectionModel()->selectedRows();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first().data(KernelTableModel::kRowRole).toULongLong(), 5ull);
        // The Collection panel names each source and its layout.
        const QString collection = m_window->collection()->text();
        QVERIFY2(collection.contains(QStringLiteral("Rank 1 / Device 1: G4")), qPrintable(collection));
        QVERIFY(collection.contains(QStringLiteral("AI Core metric group: PipeUtilization")));
        QVERIFY(collection.contains(QStringLiteral("Warning: L2 cache collection was on")));
        // The Tables dock offers every other summary CSV of both ranks.
        QVERIFY(m_window->tables()->chooser()->count() >= 8);
        QVERIFY(
            m_window->tables()->chooser()->itemText(0).startsWith(QStringLiteral("Rank 0 / Device 0 · ")));
        QVERIFY(m_window->tables()->tableModel()->rowCount() >= 1);
    }

    void screenshotCommandMatchesTheWindow()
    {
        QSettings().remove(QStringLiteral("window"));
        // The command line renders the same window offscreen; compare with an in-process grab.
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("shot.png"));
        QProcess process;
        // The command line reads its own settings; give it an empty set, like the test window's.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
        process.setProcessEnvironment(env);
        process.start(at::test::appBinary(), {QStringLiteral("--screenshot"), out, QStringLiteral("--size"),
                                              QStringLiteral("1200x800")});
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitCode(), 0);
        QImage fromCli(out);
        QVERIFY(!fromCli.isNull());

        QSignalSpy spy(m_window.get(), &MainWindow::loadFinished);
        m_window->resize(1200, 800);
        m_window->openBundledSample();
        QVERIFY(waitForLoad(spy, true));
        QTRY_VERIFY(m_window->overviewIsReady()); // the command line waits for the Overview too
        QCoreApplication::processEvents();
        const QImage grabbed = m_window->grab().toImage().convertToFormat(fromCli.format());
        QCOMPARE(grabbed.size(), fromCli.size());
        qsizetype differing = 0;
        for (int y = 0; y < grabbed.height(); ++y)
            for (int x = 0; x < grabbed.width(); ++x)
                differing += grabbed.pixel(x, y) != fromCli.pixel(x, y) ? 1 : 0;
        // Identical but for the odd focus/hover pixel.
        QVERIFY2(differing < grabbed.width() * grabbed.height() / 200,
                 qPrintable(QString::number(differing)));
        // And it is a real picture of the trace: the timeline area is not blank.
        const QRect lanes = m_window->timeline()->geometry();
        QVERIFY(lanes.width() > 400);
    }

    void exportViewWritesWhatTheTimelineShows()
    {
        QSignalSpy spy(m_window.get(), &MainWindow::loadFinished);
        m_window->openPath(test::level1Rank0Trace());
        QVERIFY(waitForLoad(spy, true));
        const QString path = m_dir.filePath(QStringLiteral("view.png"));
        QVERIFY(m_window->exportViewPng(path));
        const QImage saved(path);
        const QImage shown = m_window->timeline()->grab().toImage().convertToFormat(saved.format());
        QCOMPARE(saved.size(), m_window->timeline()->size() * m_window->timeline()->devicePixelRatio());
        QCOMPARE(saved, shown);
    }

    void recentPathsAndLayoutSurviveARestart()
    {
        QSettings().remove(QStringLiteral("recent"));
        QSignalSpy spy(m_window.get(), &MainWindow::loadFinished);
        const QString path = test::level1Rank0Trace();
        m_window->openPath(path);
        QVERIFY(waitForLoad(spy, true));
        QCOMPARE(m_window->recentPaths().value(0), QFileInfo(path).absoluteFilePath());
        // The bundled sample is not a recent file; a failed load is not either.
        m_window->openBundledSample();
        QVERIFY(waitForLoad(spy, true));
        QCOMPARE(m_window->recentPaths().size(), qsizetype(1));
        // A dock the user closed (on the timeline, where the docks are) stays closed in the next session.
        m_window->showTimelinePage();
        auto *kernelsDock = m_window->findChild<QDockWidget *>(QStringLiteral("KernelsDock"));
        QVERIFY(kernelsDock);
        kernelsDock->close();
        m_window->close();
        m_window = std::make_unique<MainWindow>();
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QCOMPARE(m_window->recentPaths().value(0), QFileInfo(path).absoluteFilePath());
        QVERIFY(!m_window->findChild<QDockWidget *>(QStringLiteral("KernelsDock"))->isVisible());
        QSettings().remove(QStringLiteral("window"));
    }

    void cancelStopsALargeLoadQuickly()
    {
        // A ~60 MB trace: the sample's events repeated (same times; enough to take a while to load).
        QByteArray bytes = sampleBytes();
        QVERIFY(bytes.endsWith(']'));
        const QByteArray events = bytes.mid(1, bytes.size() - 2);
        QByteArray big = "[";
        for (int i = 0; i < 28; ++i) {
            if (i)
                big += ',';
            big += events;
        }
        big += ']';
        const QString path = writeFile(QStringLiteral("big.json"), big);
        QSignalSpy spy(m_window.get(), &MainWindow::loadFinished);
        m_window->openPath(path);
        QVERIFY(m_window->isLoading());
        QElapsedTimer timer;
        timer.start();
        m_window->cancelLoading();
        QVERIFY(timer.elapsed() < 2000);
        QVERIFY(!m_window->isLoading());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.last().at(0).toBool(), false);
        QVERIFY(!m_window->model());
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
