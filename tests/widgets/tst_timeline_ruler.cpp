#include "TestSupport.h"
#include "TimelineRulerPass.h"
#include "TimelineView.h"
#include "ViewSvg.h"

#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace at;

// Issue 17: ruler labels are distinct and exact at every zoom, down to 1 ns ticks. Checked on what the
// real view paints (its ruler text, rendered into an SVG so text stays text) and on the tick maths.
class TestTimelineRuler : public QObject
{
    Q_OBJECT
    std::unique_ptr<TraceModel> m_model;
    std::unique_ptr<TimelineView> m_view;

    // Shows `width` ns of the sample whose ruler reads from `label` on (through the time origin, so any
    // magnitude can be tried on the sample's data).
    void showView(TimeNs label, TimeNs width)
    {
        const TimeNs start = m_model->dataBegin() + 10'000'000;
        m_view->setTimeOrigin(start - label);
        m_view->zoom()->setRange({start, start + width}, false);
        QCOMPARE(m_view->zoom()->range().start, start);
        QCOMPARE(m_view->zoom()->range().width(), width);
    }

    // The tick labels the view paints, in paint order.
    QStringList paintedTicks()
    {
        const QString svg = test::paintedSvg(m_view->viewport());
        static const QRegularExpression text(
            QStringLiteral(">\\s*([+-]?[0-9]+(?:\\.[0-9]+)? (?:s|ms|µs|ns))\\s*</text>"));
        QStringList labels;
        for (auto it = text.globalMatch(svg); it.hasNext();)
            labels << it.next().captured(1);
        return labels;
    }

    // The exact ns a label states, parsed back from its decimal text.
    static TimeNs parseTick(const QString &label)
    {
        const QStringList parts = label.split(QLatin1Char(' '));
        const TimeNs unit = parts[1] == QLatin1String("s")     ? 1000000000
                            : parts[1] == QLatin1String("ms")  ? 1000000
                            : parts[1] == QStringLiteral("µs") ? 1000
                                                               : 1;
        const bool negative = parts[0].startsWith(QLatin1Char('-'));
        const bool sign = negative || parts[0].startsWith(QLatin1Char('+'));
        const QStringList number = parts[0].mid(sign ? 1 : 0).split(QLatin1Char('.'));
        TimeNs value = number[0].toLongLong() * unit;
        if (number.size() == 2) {
            TimeNs scale = unit;
            for (QChar digit : number[1]) {
                scale /= 10;
                value += digit.digitValue() * scale;
            }
        }
        return negative ? -value : value;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_model = test::loadOrFail(test::level1Rank0Trace());
        QVERIFY(m_model);
        m_view = std::make_unique<TimelineView>();
        m_view->resize(1600, 600);
        m_view->setModel(m_model.get());
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
    }

    void formatsExactly()
    {
        QCOMPARE(formatRulerTick(152'100'000, 100'000, 1'000'000), QStringLiteral("152.1 ms"));
        QCOMPARE(formatRulerTick(152'105'000, 5'000, 1'000'000), QStringLiteral("152.105 ms"));
        QCOMPARE(formatRulerTick(5'000'000'001, 1, 1'000'000'000), QStringLiteral("5.000000001 s"));
        QCOMPARE(formatRulerTick(5'020'000'000, 20'000'000, 1'000'000'000), QStringLiteral("5.02 s"));
        QCOMPARE(formatRulerTick(0, 200'000, 1'000'000), QStringLiteral("0.0 ms"));
        QCOMPARE(formatRulerTick(-2'000, 1'000, 1'000), QStringLiteral("-2 µs"));
        QCOMPARE(formatRulerTick(7, 1, 1), QStringLiteral("7 ns"));
        QCOMPARE(rulerUnit(999), TimeNs{1});
        QCOMPARE(rulerUnit(1'000), TimeNs{1'000});
        QCOMPARE(rulerUnit(152'000'000), TimeNs{1'000'000});
    }

    void labelsAreDistinctAndExact_data()
    {
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("width");
        // The views the issue names (1.9 ms, 200 µs and 34 µs at 152 ms; one 187 ms step at 5 s), then
        // narrower down to a few ns, where the step is 1 ns.
        QTest::newRow("1.9 ms at 152 ms") << qint64(152'000'000) << qint64(1'900'000);
        QTest::newRow("200 us at 152 ms") << qint64(152'100'000) << qint64(200'000);
        QTest::newRow("34 us at 152 ms") << qint64(152'123'000) << qint64(34'000);
        QTest::newRow("187 ms at 5 s") << qint64(5'000'000'000) << qint64(187'000'000);
        QTest::newRow("2 us at 5 s") << qint64(5'000'123'456) << qint64(2'000);
        QTest::newRow("20 ns at 5 s") << qint64(5'000'123'456) << qint64(20);
        QTest::newRow("20 ns at 12 ns") << qint64(12) << qint64(20);
        QTest::newRow("whole sample from 0") << qint64(0) << qint64(200'000'000);
    }

    void labelsAreDistinctAndExact()
    {
        QFETCH(qint64, start);
        QFETCH(qint64, width);
        showView(start, width);
        const QStringList labels = paintedTicks();
        QVERIFY2(labels.size() >= 3, qPrintable(labels.join(QLatin1String(", "))));
        QCOMPARE(QSet<QString>(labels.begin(), labels.end()).size(), labels.size());
        // Consecutive labels differ by exactly the frame's step, and each states its tick exactly.
        const TimelineRulerPass::Ticks ticks =
            TimelineRulerPass::ticks(m_view->axis(), m_view->timeOrigin(), m_view->fontMetrics());
        const TimeNs step = parseTick(labels[1]) - parseTick(labels[0]);
        QCOMPARE(step, ticks.step);
        for (qsizetype i = 1; i < labels.size(); ++i)
            QCOMPARE(parseTick(labels[i]) - parseTick(labels[i - 1]), step);
        // Each label (plus the base, for "+N" labels) is its tick's time from the origin, exactly.
        QCOMPARE(qsizetype(ticks.ticks.size()),
                 labels.size() + (ticks.ticks.front().time < m_view->axis().range().start ? 1 : 0));
        const TimeNs base = ticks.base.isEmpty() ? 0 : parseTick(ticks.base);
        const auto &last = ticks.ticks.back();
        QCOMPARE(base + parseTick(labels.back()), last.time - m_view->timeOrigin());
        QCOMPARE(labels.back().startsWith(QLatin1Char('+')), !ticks.base.isEmpty());
        if (width <= 20)
            QCOMPARE(step, TimeNs{1});
    }

    void longAbsoluteLabelsBecomeRelativeToABase()
    {
        showView(5'000'123'456, 2'000);
        const auto ticks =
            TimelineRulerPass::ticks(m_view->axis(), m_view->timeOrigin(), m_view->fontMetrics());
        QVERIFY(!ticks.base.isEmpty());
        QCOMPARE(ticks.ticks.front().label, QStringLiteral("+0.0 µs")); // 200 ns ticks in a 2 µs view
        QCOMPARE(parseTick(ticks.base), ticks.ticks.front().time - m_view->timeOrigin());
        // Milliseconds at microsecond ticks stay absolute.
        showView(152'123'000, 34'000);
        QVERIFY(TimelineRulerPass::ticks(m_view->axis(), m_view->timeOrigin(), m_view->fontMetrics())
                    .base.isEmpty());
    }

    void labelsNeverOverlap()
    {
        // Long labels (seconds with nine decimals) push the step up until each fits before the next.
        for (const TimeNs width : {TimeNs{20}, TimeNs{2'000}, TimeNs{34'000}, TimeNs{187'000'000}}) {
            showView(5'000'123'456, width);
            const TimeAxis axis = m_view->axis();
            const auto ticks = TimelineRulerPass::ticks(axis, m_view->timeOrigin(), m_view->fontMetrics());
            for (std::size_t i = 1; i < ticks.ticks.size(); ++i) {
                const double gap = axis.toPixel(ticks.ticks[i].time) - axis.toPixel(ticks.ticks[i - 1].time);
                QVERIFY2(gap > m_view->fontMetrics().horizontalAdvance(ticks.ticks[i - 1].label) + 3,
                         qPrintable(ticks.ticks[i - 1].label));
            }
        }
    }
};

QTEST_MAIN(TestTimelineRuler)
#include "tst_timeline_ruler.moc"
