// Charts and heat maps that read at a glance (issue #28 item 3): round tick values (widgets/ChartScale),
// heat maps with values in their cells, a colour scale with its unit and labelled rows and columns
// (widgets/cluster/ClusterHeatMap), one fixed colour per series, the same in light and dark and distinct
// within a chart, and a memory chart whose part curves (PTA) are drawn above their sum (PTA+GE). The
// charts are checked through the real MainWindow on the real samples.
//
// With AT_TEST_SCREENSHOTS=DIR the views are saved as drawn, to look at (not compared).
#include "AppTestSupport.h"
#include "ChartScale.h"
#include "ChartsPanel.h"
#include "MemoryPanel.h"
#include "Theme.h"
#include "Translations.h"
#include "cluster/ClusterHeatMap.h"
#include "cluster/ClusterView.h"

#include <QAbstractBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QDir>
#include <QDockWidget>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QImage>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

#include <cmath>
#include <limits>

using namespace at;

namespace {

QString qwen3Cluster()
{
    return test::samplePath(QStringLiteral("msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2"));
}

QString level1Rank0Folder()
{
    return test::samplePath(
        QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt"));
}

void saveGrab(QWidget *widget, const QString &name)
{
    const QString dir = qEnvironmentVariable("AT_TEST_SCREENSHOTS");
    if (!dir.isEmpty() && QDir().mkpath(dir))
        widget->grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
}

// A step of 1, 2 or 5 × 10^k.
bool isRoundStep(double step)
{
    if (!(step > 0) || !std::isfinite(step))
        return false;
    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-12));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (std::abs(mantissa - m) < 1e-6 * m)
            return true;
    return false;
}

bool isMultipleOf(double value, double step)
{
    const double n = value / step;
    return std::abs(n - std::round(n)) < 1e-6 * std::max(1.0, std::abs(n));
}

// The ticks a fixed-tick value axis draws: tickCount values from min to max.
QList<double> ticksOf(const QValueAxis *axis)
{
    QList<double> ticks;
    const int n = axis->tickCount();
    for (int i = 0; i < n; ++i)
        ticks << axis->min() + (axis->max() - axis->min()) * i / std::max(1, n - 1);
    return ticks;
}

// Every tick of the axis is a multiple of a 1-2-5 step, and its label (the axis's printf format) is short.
QString roundTicksProblem(const QValueAxis *axis)
{
    const QList<double> ticks = ticksOf(axis);
    if (ticks.size() < 2)
        return QStringLiteral("only %1 ticks").arg(ticks.size());
    const double step = ticks[1] - ticks[0];
    if (!isRoundStep(step))
        return QStringLiteral("step %1").arg(step);
    for (double t : ticks) {
        if (!isMultipleOf(t, step))
            return QStringLiteral("tick %1 is not a multiple of %2").arg(t).arg(step);
        const QString label = QString::asprintf(axis->labelFormat().toLatin1().constData(), t);
        if (label.contains(QLatin1Char('e')) || std::abs(label.toDouble() - t) > step * 1e-6)
            return QStringLiteral("label %1 for %2").arg(label).arg(t);
    }
    return {};
}

// WCAG contrast ratio of two colours.
double contrast(const QColor &a, const QColor &b)
{
    auto luminance = [](const QColor &c) {
        auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
    };
    const double x = luminance(a), y = luminance(b);
    return (std::max(x, y) + 0.05) / (std::min(x, y) + 0.05);
}

// The colour of each series of a chart (bar sets of bar series, the pen of line series, scatter series),
// named, in order.
QList<std::pair<QString, QColor>> seriesColours(QChart *chart)
{
    QList<std::pair<QString, QColor>> colours;
    for (QAbstractSeries *series : chart->series()) {
        if (auto *bars = qobject_cast<QAbstractBarSeries *>(series))
            for (QBarSet *set : bars->barSets())
                colours << std::pair{set->label(), set->color()};
        else if (auto *scatter = qobject_cast<QScatterSeries *>(series))
            colours << std::pair{scatter->name(), scatter->color()};
        else if (auto *line = qobject_cast<QLineSeries *>(series))
            colours << std::pair{line->name(), line->pen().color()};
    }
    return colours;
}

QString repeatedColour(const QList<std::pair<QString, QColor>> &colours)
{
    for (qsizetype i = 0; i < colours.size(); ++i)
        for (qsizetype j = i + 1; j < colours.size(); ++j)
            if (colours[i].second == colours[j].second)
                return colours[i].first + QStringLiteral(" and ") + colours[j].first;
    return {};
}

} // namespace

class TstChartReadability : public QObject
{
    Q_OBJECT
    QTemporaryDir m_settings;

private Q_SLOTS:
    void initTestCase() { test::useScratchSettings(m_settings.path()); }
    void cleanup() { applyUiTheme(UiTheme::Light); }

    void tickChooserGivesRoundTicks_data()
    {
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        QTest::addColumn<int>("intervals");
        const std::tuple<const char *, double, double, int> cases[] = {
            {"cluster chart", 0, 850.7, 5}, {"memory chart", 0, 554.9, 4},
            {"0-span at 0", 0, 0, 5},       {"0-span", 42.5, 42.5, 5},
            {"negative 0-span", -3, -3, 5}, {"inverted", 10, 2, 5},
            {"across 0", -3, 7, 5},         {"negative", -1234.5, -17, 5},
            {"tiny", 0, 3e-7, 5},           {"tiny offset", 1.0000001, 1.0000004, 5},
            {"huge", 0, 1e300, 5},          {"huge ns", 1.7e18, 1.70000000003e18, 6},
            {"one interval", 0, 7, 1},      {"percent", 0, 100, 5},
            {"ratio", 0.13, 0.87, 5},       {"time window", 12345.678, 12399.1, 6},
        };
        for (const auto &[name, low, high, intervals] : cases)
            QTest::newRow(name) << low << high << intervals;
    }
    void tickChooserGivesRoundTicks()
    {
        QFETCH(double, low);
        QFETCH(double, high);
        QFETCH(int, intervals);
        const NiceScale s = niceScale(low, high, intervals);
        QVERIFY2(isRoundStep(s.step), qPrintable(QString::number(s.step)));
        QVERIFY(isMultipleOf(s.min, s.step));
        QVERIFY(isMultipleOf(s.max, s.step));
        QVERIFY(s.min <= std::min(low, high));
        QVERIFY(s.max >= std::max(low, high));
        QVERIFY(s.intervals() >= 1);
        QVERIFY2(s.intervals() <= intervals, qPrintable(QString::number(s.intervals())));
        // Not wider than needed: the next smaller 1-2-5 step would need more intervals.
        if (high != low) {
            const double mantissa = s.step / std::pow(10.0, std::floor(std::log10(s.step) + 1e-12));
            const double smaller = s.step * (std::abs(mantissa - 1) < 1e-6 ? 0.5 : mantissa > 4 ? 0.4 : 0.5);
            auto steps = [&](double v) {
                const double n = v / smaller;
                const double tolerance =
                    std::max(1e-9, 64 * std::numeric_limits<double>::epsilon() * std::abs(n));
                return std::abs(n - std::round(n)) <= tolerance ? std::round(n) : n;
            };
            const double needed =
                std::ceil(steps(std::max(low, high))) - std::floor(steps(std::min(low, high)));
            QVERIFY2(needed > intervals, qPrintable(QString::number(needed)));
        }
        // The labels: exact, no exponent.
        QValueAxis axis;
        applyNiceScale(&axis, low, high, intervals);
        QCOMPARE(axis.min(), s.min);
        QCOMPARE(axis.max(), s.max);
        QCOMPARE(axis.tickCount(), s.intervals() + 1);
        if (std::abs(s.max) < 1e15)
            QVERIFY2(roundTicksProblem(&axis).isEmpty(), qPrintable(roundTicksProblem(&axis)));
    }

    void tickChooserKnownValues()
    {
        const NiceScale cluster = niceScale(0, 850.7, 5);
        QCOMPARE(cluster.min, 0.0);
        QCOMPARE(cluster.max, 1000.0);
        QCOMPARE(cluster.step, 200.0);
        const NiceScale memory = niceScale(0, 554.9, 4);
        QCOMPARE(memory.max, 600.0);
        QCOMPARE(memory.step, 200.0);
        const NiceScale empty = niceScale(0, 0, 5);
        QCOMPARE(empty.min, 0.0);
        QCOMPARE(empty.max, 1.0);
        QCOMPARE(empty.decimals(), 1);
        const NiceScale broken = niceScale(std::nan(""), 1, 5);
        QCOMPARE(broken.min, 0.0);
        QCOMPARE(broken.max, 1.0);
        QCOMPARE(niceScale(0, 3e-7, 5).decimals(), 7);
        QVERIFY(std::isfinite(niceScale(-1e308, 1e308, 5).step));
    }

    // The step heat map and the communication matrix of the Qwen3 cluster: a value in every cell that has
    // one, readable on its colour; the colour spread over the data range; a scale with the unit; labelled
    // rows and columns.
    void heatMapsCarryValuesScaleAndLabels()
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        window.openPath(qwen3Cluster());
        QVERIFY(window.showsOverview()); // a cluster opens on its Overview
        window.showClusterPage();
        QVERIFY(window.showsCluster());
        ClusterView *view = window.clusterView();
        auto *tabs = view->findChild<QTabWidget *>();
        QVERIFY(tabs);
        struct Map
        {
            ClusterHeatMap *map;
            int tab;
            QString unit;
            QString name;
        };
        for (const Map &m :
             {Map{view->stepHeatMap(), 1, QStringLiteral("ms"), QStringLiteral("step")},
              Map{view->matrixHeatMap(), 2, QStringLiteral("GB/s"), QStringLiteral("matrix")}}) {
            tabs->setCurrentIndex(m.tab);
            QCoreApplication::processEvents();
            ClusterHeatMap *map = m.map;
            QVERIFY(map->rowCount() > 0 && map->columnCount() > 0);
            QVERIFY(map->showsCellValues());
            const QFontMetrics metrics = map->fontMetrics();
            int filled = 0;
            std::optional<std::pair<int, int>> low, high;
            for (int r = 0; r < map->rowCount(); ++r) {
                QVERIFY2(!map->rowLabelText(r).isEmpty(), qPrintable(m.name));
                for (int c = 0; c < map->columnCount(); ++c) {
                    const std::optional<double> v = map->value(r, c);
                    if (!v) {
                        QVERIFY(map->cellText(r, c).isEmpty());
                        continue;
                    }
                    ++filled;
                    const QString text = map->cellText(r, c);
                    QVERIFY2(!text.isEmpty(), qPrintable(m.name));
                    QVERIFY(!text.contains(QLatin1Char('e')));
                    // The text fits its cell and reads on its colour (WCAG AA: 4.5).
                    QVERIFY(metrics.horizontalAdvance(text) < map->cellRect(r, c).width());
                    QVERIFY2(contrast(map->cellTextColor(r, c), map->cellColor(r, c)) >= 4.5,
                             qPrintable(map->cellColor(r, c).name()));
                    if (!low || *v < *map->value(low->first, low->second))
                        low = {r, c};
                    if (!high || *v > *map->value(high->first, high->second))
                        high = {r, c};
                }
            }
            QVERIFY(filled > 0);
            // The smallest and the largest value read apart (the step times differ by about a ms in 810).
            QVERIFY(map->cellText(low->first, low->second) != map->cellText(high->first, high->second));
            for (int c = 0; c < map->columnCount(); ++c)
                QVERIFY(!map->columnLabelText(c).isEmpty());
            // The ramp spans the data: the smallest and the largest value are far apart in lightness.
            QVERIFY(contrast(map->cellColor(low->first, low->second),
                             map->cellColor(high->first, high->second)) > 5);
            // The scale: under the grid, inside the map's size, captioned with the range and the unit.
            const QRect scale = map->scaleRect();
            QVERIFY(!scale.isEmpty());
            QVERIFY(QRect(QPoint(0, 0), map->sizeHint()).contains(scale));
            QVERIFY(scale.top() > map->cellRect(map->rowCount() - 1, 0).bottom());
            QVERIFY2(map->scaleCaption().endsWith(QLatin1Char(' ') + m.unit),
                     qPrintable(map->scaleCaption()));

            // As drawn: each cell's colour at its corner, the ramp's ends at the scale's ends.
            map->resize(map->sizeHint());
            const QImage image = map->grab().toImage();
            const qreal ratio = image.devicePixelRatio();
            auto pixel = [&](QPoint p) {
                return image.pixelColor(QPoint(int(p.x() * ratio), int(p.y() * ratio)));
            };
            const QRect lowCell = map->cellRect(low->first, low->second);
            QCOMPARE(pixel(lowCell.topLeft() + QPoint(2, 2)), map->cellColor(low->first, low->second));
            const QColor scaleStart = pixel(QPoint(scale.left() + 2, scale.center().y()));
            const QColor rampStart = ClusterHeatMap::rampColor(0.0);
            QVERIFY2(std::abs(scaleStart.red() - rampStart.red()) +
                             std::abs(scaleStart.green() - rampStart.green()) +
                             std::abs(scaleStart.blue() - rampStart.blue()) <
                         12,
                     qPrintable(scaleStart.name()));
            saveGrab(map, QStringLiteral("heatmap-") + m.name);
        }
    }

    // Many cells: small cells without values, every k-th label, still a scale.
    void aLargeHeatMapDropsCellValuesButKeepsItsScale()
    {
        ClusterHeatMap map;
        QStringList labels;
        std::vector<std::vector<std::optional<double>>> values(300, std::vector<std::optional<double>>(300));
        for (int i = 0; i < 300; ++i) {
            labels << QString::number(i);
            for (int j = 0; j < 300; ++j)
                values[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = i * 300.0 + j;
        }
        map.setAxisTitles(QStringLiteral("Source rank"), QStringLiteral("Destination rank"));
        map.setData(labels, labels, std::move(values), QStringLiteral("GB/s"));
        QVERIFY(!map.showsCellValues());
        QVERIFY(map.cellText(0, 0).isEmpty());
        QVERIFY(!map.scaleRect().isEmpty());
        QCOMPARE(map.scaleCaption(), QStringLiteral("0 – 89,999 GB/s"));
        // Labels: the first one, then as many as fit without overlapping.
        QVERIFY(!map.rowLabelText(0).isEmpty());
        QVERIFY(!map.columnLabelText(0).isEmpty());
        QVERIFY(map.columnLabelText(1).isEmpty()); // "1", "2" ... at 14 px a column would overlap "0"
        const QFontMetrics metrics = map.fontMetrics();
        int previous = 0, shown = 0;
        for (int c = 1; c < map.columnCount(); ++c)
            if (const QString label = map.columnLabelText(c); !label.isEmpty()) {
                QVERIFY(map.cellRect(0, c).left() - map.cellRect(0, previous).left() >=
                        metrics.horizontalAdvance(map.columnLabelText(previous)));
                previous = c;
                ++shown;
            }
        QVERIFY(shown > 10);
        previous = 0;
        for (int r = 1; r < map.rowCount(); ++r)
            if (!map.rowLabelText(r).isEmpty()) {
                QVERIFY(map.cellRect(r, 0).top() - map.cellRect(previous, 0).top() >= metrics.height());
                previous = r;
            }
        QVERIFY(map.sizeHint().width() < 300 * 20);
    }

    // The cluster chart: the same colours in both themes, three distinct ones, round ticks, a unit.
    void clusterChartColoursAndTicks()
    {
        QList<std::pair<QString, QColor>> light;
        for (UiTheme theme : {UiTheme::Light, UiTheme::Dark}) {
            applyUiTheme(theme);
            MainWindow window;
            window.resize(900, 700);
            window.show();
            window.openPath(qwen3Cluster());
            QVERIFY(window.showsOverview()); // a cluster opens on its Overview
            window.showClusterPage();
            QVERIFY(window.showsCluster());
            QCoreApplication::processEvents();
            QChart *chart = window.clusterView()->breakdownChart()->chart();
            const auto colours = seriesColours(chart);
            QCOMPARE(colours.size(), 3);
            QVERIFY2(repeatedColour(colours).isEmpty(), qPrintable(repeatedColour(colours)));
            if (theme == UiTheme::Light)
                light = colours;
            else
                QCOMPARE(colours, light);
            auto *y = qobject_cast<QValueAxis *>(chart->axes(Qt::Vertical).value(0));
            QVERIFY(y);
            QVERIFY2(roundTicksProblem(y).isEmpty(), qPrintable(roundTicksProblem(y)));
            QCOMPARE(y->min(), 0.0);
            QCOMPARE(y->max(), 1000.0); // the largest mean step is 850.7 ms (rank 3)
            QVERIFY(y->titleText().contains(QStringLiteral("(ms)")));
            saveGrab(window.clusterView()->breakdownChart(),
                     QStringLiteral("cluster-chart-") + uiThemeName(theme));
        }
    }

    // The memory chart of the level-1 rank: every series its own colour, the same in both themes; PTA
    // above PTA+GE and visible; round ticks on both axes.
    void memoryChartSeriesAreDistinctAndVisible()
    {
        QList<std::pair<QString, QColor>> light;
        for (UiTheme theme : {UiTheme::Light, UiTheme::Dark}) {
            applyUiTheme(theme);
            MainWindow window;
            window.resize(1600, 1000);
            window.show();
            QVERIFY(test::openAndWait(window, level1Rank0Folder()));
            auto *panel = window.findChild<MemoryPanel *>();
            QVERIFY(panel);
            QChart *chart = panel->chartView()->chart();
            const auto colours = seriesColours(chart);
            QVERIFY(colours.size() >= 6);
            QVERIFY2(repeatedColour(colours).isEmpty(), qPrintable(repeatedColour(colours)));
            if (theme == UiTheme::Light)
                light = colours;
            else
                QCOMPARE(colours, light);

            // Draw order: the sum first, its parts above it, thinner.
            QLineSeries *sum = nullptr, *part = nullptr;
            int sumIndex = -1, partIndex = -1;
            for (int i = 0; i < chart->series().size(); ++i) {
                auto *line = qobject_cast<QLineSeries *>(chart->series()[i]);
                if (line && line->name() == QStringLiteral("PTA+GE allocated")) {
                    sum = line;
                    sumIndex = i;
                }
                if (line && line->name() == QStringLiteral("PTA allocated")) {
                    part = line;
                    partIndex = i;
                }
            }
            QVERIFY(sum && part);
            QVERIFY(sumIndex < partIndex);
            QVERIFY(part->pen().widthF() < sum->pen().widthF());

            // PTA's colour is drawn: the chart view grabbed at a readable size shows pixels of it.
            panel->chartView()->resize(700, 400);
            const QImage image = panel->chartView()->grab().toImage();
            int ptaPixels = 0;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x)
                    ptaPixels += image.pixel(x, y) == part->pen().color().rgb() ? 1 : 0;
            QVERIFY2(ptaPixels > 100, qPrintable(QString::number(ptaPixels)));

            auto *y = qobject_cast<QValueAxis *>(chart->axes(Qt::Vertical).value(0));
            QVERIFY(y);
            QVERIFY2(roundTicksProblem(y).isEmpty(), qPrintable(roundTicksProblem(y)));
            QVERIFY(y->titleText().contains(QStringLiteral("(MB)")));
            auto *x = qobject_cast<QValueAxis *>(chart->axes(Qt::Horizontal).value(0));
            QVERIFY(x);
            QCOMPARE(x->tickType(), QValueAxis::TicksDynamic);
            QVERIFY(isRoundStep(x->tickInterval()));
            QCOMPARE(x->tickAnchor(), 0.0);
            QVERIFY(x->titleText().contains(QStringLiteral("(ms)")));
            // Following the timeline from a 1 µs window back to the whole profile: the step follows the
            // range (a 1 µs step over 400 ms would be 400,000 ticks).
            const TimeRange whole{window.model()->dataBegin(), window.model()->dataEnd()};
            for (const TimeRange &range : {TimeRange{whole.start, whole.start + 1000}, whole}) {
                panel->setVisibleRange(range);
                QCOMPARE(x->min(), static_cast<double>(range.start) / 1e6);
                QVERIFY(isRoundStep(x->tickInterval()));
                QVERIFY((x->max() - x->min()) / x->tickInterval() <= 6.0 + 1e-9);
                QVERIFY((x->max() - x->min()) / x->tickInterval() >= 2.0);
            }
            saveGrab(panel->chartView(), QStringLiteral("memory-chart-") + uiThemeName(theme));
        }
    }

    // The Charts panel: top kernels and kernel metrics keep their colours across themes, distinct.
    void chartsPanelColoursAreFixed()
    {
        std::map<int, QList<std::pair<QString, QColor>>> light;
        for (UiTheme theme : {UiTheme::Light, UiTheme::Dark}) {
            applyUiTheme(theme);
            MainWindow window;
            window.resize(1600, 1000);
            window.show();
            QVERIFY(test::openAndWait(window, level1Rank0Folder()));
            auto *panel = window.findChild<ChartsPanel *>();
            QVERIFY(panel);
            for (ChartKind kind : {ChartKind::TopKernels, ChartKind::KernelMetrics, ChartKind::TimeByType}) {
                panel->setCurrentChart(kind);
                QChart *chart = panel->chart();
                QVERIFY(chart);
                auto colours = seriesColours(chart);
                QVERIFY2(repeatedColour(colours).isEmpty(), qPrintable(repeatedColour(colours)));
                if (theme == UiTheme::Light)
                    light[static_cast<int>(kind)] = colours;
                else
                    QCOMPARE(colours, light[static_cast<int>(kind)]);
                for (QAbstractAxis *axis : chart->axes())
                    if (auto *values = qobject_cast<QValueAxis *>(axis)) {
                        QVERIFY2(roundTicksProblem(values).isEmpty(), qPrintable(roundTicksProblem(values)));
                        QVERIFY2(values->titleText().contains(QLatin1Char('(')),
                                 qPrintable(values->titleText()));
                    }
                panel->resize(700, 400);
                saveGrab(panel, QStringLiteral("charts-%1-%2").arg(chartKindName(kind), uiThemeName(theme)));
            }
        }
    }

    // At the window's default layout (900 x 700 and 1600 x 1000) the Charts and the Memory docks draw
    // their charts at a readable size: no axis label, title or legend entry elided to "…".
    void chartsReadAtTheDefaultDockSize_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("language");
        QTest::newRow("900x700 en") << QSize(900, 700) << QStringLiteral("en");
        QTest::newRow("900x700 zh_CN") << QSize(900, 700) << QStringLiteral("zh_CN");
        QTest::newRow("1600x1000 en") << QSize(1600, 1000) << QStringLiteral("en");
    }
    void chartsReadAtTheDefaultDockSize()
    {
        QFETCH(QSize, size);
        QFETCH(QString, language);
        QVERIFY(setUiLanguage(language));
        MainWindow window;
        window.resize(size);
        window.show();
        QVERIFY(test::openAndWait(window, level1Rank0Folder()));
        for (const char *name : {"ChartsDock", "MemoryDock"}) {
            auto *dock = window.findChild<QDockWidget *>(QString::fromLatin1(name));
            QVERIFY2(dock, name);
            dock->show();
            dock->raise();
            QTest::qWait(50); // the chart lays its texts out for the view's new size
            saveGrab(dock, QStringLiteral("dock-%1-%2x%3-%4")
                               .arg(QString::fromLatin1(name))
                               .arg(size.width())
                               .arg(size.height())
                               .arg(language));
            auto *view = dock->widget()->findChild<QChartView *>();
            QVERIFY(view);
            QVERIFY2(view->height() >= view->minimumHeight() && view->width() >= view->minimumWidth(),
                     qPrintable(QStringLiteral("%1: %2x%3")
                                    .arg(QString::fromLatin1(name))
                                    .arg(view->width())
                                    .arg(view->height())));
            QVERIFY(view->minimumHeight() >= kReadableChartHeight);
            // Qt Charts cuts a text that does not fit with "..." (a label only "…" when nothing fits); the
            // builders' own "…" in the middle of a long kernel name (full name in the tool tip) is fine.
            for (QGraphicsItem *item : view->chart()->scene()->items())
                if (auto *text = dynamic_cast<QGraphicsTextItem *>(item); text && text->isVisible())
                    QVERIFY2(!text->toPlainText().contains(QLatin1String("...")) &&
                                 text->toPlainText() != QString(QChar(0x2026)),
                             qPrintable(QStringLiteral("%1: %2").arg(QString::fromLatin1(name),
                                                                     text->toPlainText())));
        }
        QVERIFY(setUiLanguage(QStringLiteral("en")));
    }
};

QTEST_MAIN(TstChartReadability)
#include "tst_chart_readability.moc"
