#include "AppTestSupport.h"
#include "ChangeColors.h"
#include "CompareWindow.h"
#include "MainWindow.h"
#include "NumberFormat.h"
#include "StepCompareView.h"
#include "TestSupport.h"
#include "TimelineView.h"
#include "WindowFixture.h"

#include <QAction>
#include <QChart>
#include <QChartView>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QMenuBar>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>
#include <QValueAxis>

using namespace at;

namespace {

// A step window of one device's PTA+GE Allocated column read from memory_record.csv by plain text
// splitting: the value holding at begin (last row at or before it) and every row in (begin, end].
struct CsvStepMemory
{
    int points = 0;
    double peakMb = -1;
    qint64 first = -1; // ns from begin of the first point
};
CsvStepMemory csvStepMemory(const QString &file, const QString &device, qint64 begin, qint64 end)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const QStringList header = lines.front().trimmed().split(QLatin1Char(','));
    const auto column = [&](const char *name) {
        return static_cast<int>(header.indexOf(QLatin1String(name)));
    };
    const int component = column("Component"), time = column("Timestamp(us)"),
              allocated = column("Total Allocated(MB)"), dev = column("Device Type");
    std::vector<std::pair<qint64, double>> rows;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        QStringList cells = lines[i].split(QLatin1Char(','));
        for (QString &c : cells)
            c = c.trimmed();
        if (cells[component] != QLatin1String("PTA+GE") || cells[dev] != device || cells[allocated].isEmpty())
            continue;
        const QStringList us = cells[time].split(QLatin1Char('.'));
        const qint64 ns =
            us[0].toLongLong() * 1000 + (us.value(1) + QStringLiteral("000")).left(3).toLongLong();
        rows.emplace_back(ns, cells[allocated].toDouble());
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto &x, const auto &y) { return x.first < y.first; });
    CsvStepMemory out;
    std::optional<double> holding;
    for (const auto &[t, mb] : rows) {
        if (t <= begin) {
            holding = mb;
        } else if (t <= end) {
            if (out.points == 0)
                out.first = t - begin;
            ++out.points;
            out.peakMb = std::max(out.peakMb, mb);
        }
    }
    if (holding) {
        out.first = 0;
        ++out.points;
        out.peakMb = std::max(out.peakMb, *holding);
    }
    return out;
}

} // namespace

// Issue 17: the compare window of one step on two ranks of one profile (the level-1 sample's rank 0
// and rank 1), as the user sees it.
class TestCompareWindow : public QObject, protected test::WindowFixture
{
    Q_OBJECT
    CompareWindow *m_compare = nullptr;

    StepCompareView *view() const { return m_compare->view(); }

    // Content y of the first device lane (a DeviceStreams process) of the pane's step's rank.
    int firstDeviceRowY(TimelineView *pane) const
    {
        const int group = (pane == view()->basePane() ? view()->baseStep() : view()->comparisonStep()).group;
        for (const LaneRow &row : pane->layout().rows()) {
            if (row.kind != LaneRow::Kind::ProcessHeader)
                continue;
            const ProcessInfo &p = pane->model()->processes()[static_cast<std::size_t>(row.process)];
            if (p.layer == Layer::DeviceStreams && p.group == group)
                return row.y;
        }
        return -1;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(setUpWindowSuite());
        QVERIFY(openWindow(test::samplePath(
            QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1"))));
    }

    void init()
    {
        const std::vector<StepChoice> choices = m_window->stepChoices();
        QCOMPARE(choices.size(), std::size_t(2)); // the step on rank 0 and on rank 1
        m_compare = m_window->compareSteps(choices[0], choices[1], false);
        QVERIFY(m_compare);
        m_compare->resize(1400, 950);
        QVERIFY(QTest::qWaitForWindowExposed(m_compare));
        QTest::qWait(20);
        if (qEnvironmentVariableIsSet("AT_SCREENSHOT_DIR"))
            m_compare->grab().save(qEnvironmentVariable("AT_SCREENSHOT_DIR") +
                                   QStringLiteral("/compare-window.png"));
    }

    void cleanup() { test::closeCompareWindows(); }
    void cleanupTestCase() { closeWindow(); }

    void bothPanesAreColouredByTheChange()
    {
        const StepComparison &c = view()->comparison();
        QVERIFY(c.matched > 10);
        int checked = 0;
        for (const KernelPair &p : c.kernels) {
            if (!p.matched())
                continue;
            QCOMPARE(view()->basePane()->sliceColor(p.base), durationChangeColor(p));
            QCOMPARE(view()->comparisonPane()->sliceColor(p.comparison), durationChangeColor(p));
            ++checked;
        }
        QCOMPARE(checked, static_cast<int>(c.matched));
        // What a pane shows is its step's rank: no lane of the other rank with name colours.
        for (TimelineView *pane : {view()->basePane(), view()->comparisonPane()}) {
            const int group =
                (pane == view()->basePane() ? view()->baseStep() : view()->comparisonStep()).group;
            for (const LaneRow &row : pane->layout().rows())
                if (row.kind == LaneRow::Kind::ProcessHeader)
                    QCOMPARE(pane->model()->processes()[static_cast<std::size_t>(row.process)].group, group);
        }
        QVERIFY(view()->baseStep().group != view()->comparisonStep().group);
    }

    void bothPanesOpenOnTheDeviceLanes()
    {
        for (TimelineView *pane : {view()->basePane(), view()->comparisonPane()}) {
            const int device = firstDeviceRowY(pane);
            QVERIFY(device > 0);
            QCOMPARE(pane->verticalScrollBar()->value(),
                     std::min(device, pane->verticalScrollBar()->maximum()));
        }
    }

    void verticalScrollingIsSynchronised()
    {
        TimelineView *base = view()->basePane(), *other = view()->comparisonPane();
        base->verticalScrollBar()->setValue(base->verticalScrollBar()->value() - 30);
        const int baseShift = firstDeviceRowY(base) - base->verticalScrollBar()->value();
        QCOMPARE(firstDeviceRowY(other) - other->verticalScrollBar()->value(), baseShift);
        other->verticalScrollBar()->setValue(0);
        QCOMPARE(base->verticalScrollBar()->value(),
                 std::clamp(firstDeviceRowY(base) - firstDeviceRowY(other), 0,
                            base->verticalScrollBar()->maximum()));
    }

    void theSummaryNeverSplitsAValue()
    {
        QTextDocument html;
        html.setHtml(view()->summary()->text());
        const QString plain = html.toRawText(); // toPlainText() would turn no-break spaces into spaces
        // Every number through the one formatter: no exponent, no float artefact (more than 3 decimals).
        static const QRegularExpression longDecimals(QStringLiteral("\\d\\.\\d{4,}"));
        QVERIFY2(!plain.contains(QStringLiteral("e+")) && !longDecimals.match(plain).hasMatch(),
                 qPrintable(plain));
        const StepComparison &c = view()->comparison();
        for (const TimePair &t : {c.stepTime, c.computing, c.communication, c.free}) {
            for (const TimeNs ns : {t.base, t.comparison}) {
                QString value = formatDurationNs(ns); // the one number formatter
                value.replace(QLatin1Char(' '), QChar(0x00A0));
                QVERIFY2(plain.contains(value), qPrintable(plain + QStringLiteral(" lacks ") + value));
            }
        }
    }

    void perKernelIsSortedByTheSizeOfTheChange()
    {
        QTableView *table = view()->kernelTable();
        QAbstractItemModel *model = table->model();
        QVERIFY(model->rowCount() > 10);
        const int diff = table->horizontalHeader()->sortIndicatorSection();
        QCOMPARE(model->headerData(diff, Qt::Horizontal).toString(), QStringLiteral("Diff"));
        QCOMPARE(table->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
        qlonglong previous = std::numeric_limits<qlonglong>::max();
        for (int r = 0; r < model->rowCount(); ++r) {
            const QVariant v = model->index(r, diff).data(Qt::UserRole);
            if (!v.isValid())
                continue; // unmatched kernels have no diff: last
            QVERIFY2(std::abs(v.toLongLong()) <= previous, qPrintable(QString::number(r)));
            previous = std::abs(v.toLongLong());
        }
    }

    // Issue 19: the Memory tab overlays both steps' PTA+GE allocated curves from their step starts; the
    // summary gives the peak difference; both agree with the two ranks' memory_record.csv.
    void memoryCurvesAreOverlaidWithTheirPeakDifference()
    {
        QTabWidget *tabs = view()->tabs();
        QCOMPARE(tabs->count(), 3);
        QVERIFY(tabs->isTabVisible(2));
        QCOMPARE(tabs->tabText(2), QStringLiteral("Memory"));
        tabs->setCurrentIndex(2);
        QChart *chart = view()->memoryChart()->chart();
        QVERIFY(chart);
        std::vector<QLineSeries *> lines;
        QScatterSeries *peaks = nullptr;
        for (QAbstractSeries *s : chart->series()) {
            if (auto *line = qobject_cast<QLineSeries *>(s); line && !qobject_cast<QScatterSeries *>(s))
                lines.push_back(line);
            else
                peaks = qobject_cast<QScatterSeries *>(s);
        }
        QCOMPARE(lines.size(), std::size_t(2));
        QCOMPARE(lines[0]->name(), QStringLiteral("Base: PTA+GE allocated"));
        QCOMPARE(lines[1]->name(), QStringLiteral("Comparison: PTA+GE allocated"));
        const TraceModel &model = *view()->basePane()->model();
        const Step *steps[2] = {&view()->baseStep(), &view()->comparisonStep()};
        const char *ranks[2] = {"rank0_ascend_pt", "rank1_ascend_pt"};
        CsvStepMemory expected[2];
        for (int i = 0; i < 2; ++i) {
            expected[i] = csvStepMemory(
                test::samplePath(
                    QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/%1/"
                                   "ASCEND_PROFILER_OUTPUT/memory_record.csv")
                        .arg(QLatin1String(ranks[i]))),
                QStringLiteral("NPU:%1").arg(i), model.origin() + steps[i]->begin(),
                model.origin() + steps[i]->end());
            QVERIFY(expected[i].points > 10);
            QCOMPARE(lines[std::size_t(i)]->count(), expected[i].points);
            // Step-relative: 0 is the step start (the records may start inside the step).
            QCOMPARE(lines[std::size_t(i)]->at(0).x(), static_cast<double>(expected[i].first) / 1e6);
        }
        QVERIFY(peaks);
        QCOMPARE(peaks->count(), 2);
        QCOMPARE(peaks->at(0).y(), expected[0].peakMb);
        QCOMPARE(peaks->at(1).y(), expected[1].peakMb);
        const auto diff = view()->memory().peakDiffBytes();
        QVERIFY(diff);
        const double diffMb = expected[1].peakMb - expected[0].peakMb;
        QCOMPARE(static_cast<double>(*diff) / (1024.0 * 1024.0), diffMb);
        const QString text = view()->memoryPeakText();
        // The one number formatter: sizes in the unit of their magnitude, the peak's time from the step
        // start.
        const QString sign = diffMb >= 0 ? QStringLiteral("+") : QString();
        const QString diffText = QStringLiteral("(%1%2)").arg(sign, formatBytes(static_cast<double>(*diff)));
        QVERIFY2(text.contains(diffText), qPrintable(text + QStringLiteral(" lacks ") + diffText));
        const StepMemorySide &base = view()->memory().base;
        QVERIFY(base.step);
        QVERIFY2(text.contains(QStringLiteral("%1 at %2")
                                   .arg(formatBytes(static_cast<double>(base.step->peakBytes)),
                                        formatDurationNs(base.step->peakTime))),
                 qPrintable(text));
        QVERIFY2(
            text.contains(QStringLiteral("%1 at").arg(formatBytes(expected[0].peakMb * 1024.0 * 1024.0))),
            qPrintable(text));
        QTextDocument html;
        html.setHtml(view()->summary()->text());
        QVERIFY(html.toPlainText().contains(text));
        // The chart's time axis follows the base pane, counted from the step start.
        const TimeRange r = view()->basePane()->zoom()->range();
        auto *x = qobject_cast<QValueAxis *>(chart->axes(Qt::Horizontal).front());
        QVERIFY(x);
        QCOMPARE(x->min(), static_cast<double>(r.start - steps[0]->begin()) / 1e6);
        if (qEnvironmentVariableIsSet("AT_SCREENSHOT_DIR"))
            m_compare->grab().save(qEnvironmentVariable("AT_SCREENSHOT_DIR") +
                                   QStringLiteral("/compare-window-memory.png"));
    }

    // Issue 19: the compare window follows View ▸ Language at once (QEvent::LanguageChange): its title,
    // menu, tabs, options and the memory texts read as in a window made in the new language.
    void languageChangeRetranslatesTheCompareWindow()
    {
        auto *chinese = m_window->findChild<QAction *>(QStringLiteral("language.zh_CN"));
        auto *english = m_window->findChild<QAction *>(QStringLiteral("language.en"));
        QVERIFY(chinese && english);
        const QString title = m_compare->windowTitle(),
                      menu = m_compare->menuBar()->actions().front()->text();
        const QString tab = view()->tabs()->tabText(2), peak = view()->memoryPeakText();
        chinese->trigger();
        QTRY_VERIFY(m_compare->menuBar()->actions().front()->text() != menu);
        const std::vector<StepChoice> choices = m_window->stepChoices();
        CompareWindow *fresh = m_window->compareSteps(choices[0], choices[1], false);
        QVERIFY(fresh && fresh != m_compare);
        QCOMPARE(m_compare->windowTitle(), fresh->windowTitle());
        QVERIFY(m_compare->windowTitle() != title);
        QCOMPARE(m_compare->menuBar()->actions().front()->text(),
                 fresh->menuBar()->actions().front()->text());
        QCOMPARE(view()->tabs()->tabText(2), fresh->view()->tabs()->tabText(2));
        QVERIFY(view()->tabs()->tabText(2) != tab);
        QCOMPARE(view()->memoryPeakText(), fresh->view()->memoryPeakText());
        QVERIFY(view()->memoryPeakText() != peak);
        QCOMPARE(view()->summary()->text(), fresh->view()->summary()->text());
        english->trigger();
        QTRY_COMPARE(m_compare->menuBar()->actions().front()->text(), menu);
        QCOMPARE(view()->tabs()->tabText(2), tab);
        QCOMPARE(view()->memoryPeakText(), peak);
        QCOMPARE(m_compare->windowTitle(), title);
    }

    void keysNavigateAfterClickingADiffRow()
    {
        QTableView *table = view()->kernelTable();
        const QRect row = table->visualRect(table->model()->index(3, 1));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier, row.center());
        QCOMPARE(table->currentIndex().row(), 3);
        const TimeRange before = view()->basePane()->zoom()->range();
        QTest::keyClick(table, Qt::Key_W);
        QCOMPARE(table->currentIndex().row(), 3); // not the type-ahead ("Write Value")
        QVERIFY(view()->basePane()->zoom()->range().width() < before.width());
        const TimeRange zoomed = view()->basePane()->zoom()->range();
        QTest::keyClick(table, Qt::Key_D);
        QVERIFY(view()->basePane()->zoom()->range().start > zoomed.start);
        QCOMPARE(table->currentIndex().row(), 3);
    }
};

QTEST_MAIN(TestCompareWindow)
#include "tst_compare_window.moc"
