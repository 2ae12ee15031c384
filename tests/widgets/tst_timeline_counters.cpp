#include "TestSupport.h"
#include "TimelineView.h"
#include "ViewSvg.h"

#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace at;

// Issue 17: counters stay readable on a real level2 rank (Acc PMU writes 112 series, all zero here):
// all-zero series are one row until clicked, names keep the end where they differ, maxima are plain
// numbers.
class TestTimelineCounters : public QObject
{
    Q_OBJECT
    std::unique_ptr<TraceModel> m_model;
    std::unique_ptr<TimelineView> m_view;
    int m_accPmu = -1;

    QList<const LaneRow *> rowsOf(int process, LaneRow::Kind kind) const
    {
        QList<const LaneRow *> rows;
        for (const LaneRow &row : m_view->layout().rows())
            if (row.process == process && row.kind == kind)
                rows << &row;
        return rows;
    }

    void clickRow(const LaneRow &row)
    {
        m_view->verticalScrollBar()->setValue(std::max(0, row.y - 100));
        const int y =
            row.y + row.height / 2 + TimelineView::kRulerHeight - m_view->verticalScrollBar()->value();
        QTest::mouseClick(m_view->viewport(), Qt::LeftButton, {}, QPoint(60, y));
    }

    QString paintedSvg() { return test::paintedSvg(m_view->viewport()); }

private Q_SLOTS:
    void initTestCase()
    {
        m_model = test::loadOrFail(test::samplePath(
            QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level2/rank0_ascend_pt")));
        QVERIFY(m_model);
        for (std::size_t p = 0; p < m_model->processes().size(); ++p)
            if (m_model->processDisplayName(static_cast<int>(p)) == QLatin1String("Acc PMU"))
                m_accPmu = static_cast<int>(p);
        QVERIFY(m_accPmu >= 0);
        QCOMPARE(m_model->processes()[static_cast<std::size_t>(m_accPmu)].counters.size(), std::size_t(112));
    }

    void init()
    {
        m_view = std::make_unique<TimelineView>();
        m_view->resize(1600, 900);
        m_view->setModel(m_model.get());
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
    }

    void allZeroSeriesAreOneRowUntilClicked()
    {
        QCOMPARE(rowsOf(m_accPmu, LaneRow::Kind::Counter).size(), 0);
        const auto zero = rowsOf(m_accPmu, LaneRow::Kind::ZeroCounters);
        QCOMPARE(zero.size(), 1);
        QCOMPARE(zero.front()->index, 112);
        // Series with data keep their rows (HBM: 8 series with traffic).
        int hbm = -1;
        for (std::size_t p = 0; p < m_model->processes().size(); ++p)
            if (m_model->processDisplayName(static_cast<int>(p)) == QLatin1String("HBM"))
                hbm = static_cast<int>(p);
        QCOMPARE(rowsOf(hbm, LaneRow::Kind::Counter).size(), 8);
        QCOMPARE(rowsOf(hbm, LaneRow::Kind::ZeroCounters).size(), 0);

        const LaneRow row = *zero.front();
        clickRow(row);
        QCOMPARE(rowsOf(m_accPmu, LaneRow::Kind::Counter).size(), 112);
        QVERIFY(m_view->laneVisibility().zeroCountersShown.contains(m_accPmu));
        clickRow(*rowsOf(m_accPmu, LaneRow::Kind::ZeroCounters).front());
        QCOMPARE(rowsOf(m_accPmu, LaneRow::Kind::Counter).size(), 0);
    }

    void labelsKeepTheirDistinctEndAndPlainMaxima()
    {
        m_view->setZeroCountersShown(m_accPmu, true);
        const auto rows = rowsOf(m_accPmu, LaneRow::Kind::Counter);
        m_view->verticalScrollBar()->setValue(rows.front()->y);
        const QString svg = paintedSvg();
        // Every Acc PMU label painted names its acc_id, and no two painted labels are the same.
        static const QRegularExpression label(QStringLiteral(">\\s*([^<]*acc_id[^<]*)</text>"));
        QStringList labels;
        for (auto it = label.globalMatch(svg); it.hasNext();)
            labels << it.next().captured(1).trimmed();
        QVERIFY2(labels.size() >= 10, qPrintable(QString::number(labels.size())));
        QCOMPARE(QSet<QString>(labels.begin(), labels.end()).size(), labels.size());
        static const QRegularExpression endsWithId(QStringLiteral("acc_id [0-9]+\\]?$"));
        for (const QString &l : labels)
            QVERIFY2(endsWithId.match(l).hasMatch(), qPrintable(l));
        // Maxima are plain numbers ("max 0" here; elsewhere "max 2,409,790", never "2.40979e+06").
        m_view->verticalScrollBar()->setValue(0);
        static const QRegularExpression maximum(QStringLiteral(">\\s*max ([^<]*)</text>"));
        int maxima = 0;
        for (auto it = maximum.globalMatch(paintedSvg() + svg); it.hasNext(); ++maxima)
            QVERIFY2(!it.next().captured(1).contains(QLatin1Char('e')), "exponent in a counter maximum");
        QVERIFY(maxima > 0);
    }
};

QTEST_MAIN(TestTimelineCounters)
#include "tst_timeline_counters.moc"
