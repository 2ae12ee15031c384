// The wording of a finding's numbers (issue #28): the time at stake and each occurrence's duration read in
// one unit scaled to their magnitude with thousands separators (core's durationText, the same text as the
// window's formatDurationNs), in English and in Chinese; exact absolute starts stay µs of the profiler.

#include "ExactText.h"
#include "FindingText.h"
#include "InsightChecks.h"
#include "NumberFormat.h"
#include "Translations.h"

#include <QRegularExpression>
#include <QtTest>

using namespace at;

class TestFindingText : public QObject
{
    Q_OBJECT

private:
    // A cluster finding's occurrence (a rank, no slice): Qwen3's stage imbalance, 169,693,070 ns.
    static FindingOccurrence stageOccurrence()
    {
        FindingOccurrence o;
        o.rank = 0;
        o.name = QStringLiteral("step 13: stage 1 computes 169.693 ms more than stage 0");
        o.duration = 169'693'070;
        return o;
    }

    static Finding stageFinding()
    {
        Finding f;
        f.check = QStringLiteral("stage_imbalance");
        f.title = QStringLiteral("Pipeline stages are unbalanced");
        f.timeAtStake = 169'693'070;
        f.part = StepPart::CommunicationNotOverlapped;
        f.rank = 0;
        f.partTime = 420'174'260;
        f.stepTime = 810'022'360;
        f.occurrences.push_back(stageOccurrence());
        return f;
    }

    // No number of more than three decimals and none in bare µs ("169693.070 us").
    static void checkOneWording(const QString &text)
    {
        static const QRegularExpression longDecimals(QStringLiteral("\\d+\\.\\d{4,}"));
        QVERIFY2(!longDecimals.match(text).hasMatch(), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("169693")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("e+")), qPrintable(text));
    }

private Q_SLOTS:
    // durationText is the window's formatter: the same text for every magnitude and at each unit's edge.
    void durationTextIsTheWindowsFormatter()
    {
        for (TimeNs ns : {TimeNs(0), TimeNs(1), TimeNs(999), TimeNs(1'000), TimeNs(999'999),
                          TimeNs(999'999'5), TimeNs(999'999'499), TimeNs(999'999'500), TimeNs(169'693'070),
                          TimeNs(823'000), TimeNs(1'234'567'890'123), TimeNs(-2'500), TimeNs(-169'693'070),
                          TimeNs(1'736'408'883'573'957'920)})
            QCOMPARE(durationText(ns), formatDurationNs(ns));
        QCOMPARE(durationText(169'693'070), QStringLiteral("169.693 ms"));
        QCOMPARE(durationText(999'999'999), QStringLiteral("1.000 s"));
        QCOMPARE(durationText(1'234'567'890'123), QStringLiteral("1,234.568 s"));
        QCOMPARE(durationText(999), QStringLiteral("999 ns"));
    }

    // "… for 169.693 ms" as the headline says it, not "for 169693.070 us".
    void occurrenceReadsAsTheHeadline()
    {
        const TraceModel empty;
        const InsightContext context(empty);
        const Finding f = stageFinding();
        const QString occurrence = occurrenceText(context, f.occurrences.front());
        QCOMPARE(
            occurrence,
            QStringLiteral("rank 0  step 13: stage 1 computes 169.693 ms more than stage 0 for 169.693 ms"));
        QCOMPARE(timeAtStakeText(f),
                 QStringLiteral(
                     "time at stake: 169.693 ms of rank 0's communication not overlapped (40.4 % of the "
                     "part, 20.9 % of its step)"));
        const QString block = findingText(context, f, 1, 5);
        checkOneWording(block);
        // A small time reads in its own unit.
        Finding small = f;
        small.timeAtStake = 822'980;
        QVERIFY(timeAtStakeText(small).startsWith(QStringLiteral("time at stake: 822.980 µs of rank 0's")));
    }

    // The same wording in Chinese: the translated texts keep the formatter's numbers and units.
    void occurrenceInChinese()
    {
        QVERIFY(setUiLanguage(QStringLiteral("zh_CN")));
        const TraceModel empty;
        const InsightContext context(empty);
        const Finding f = stageFinding();
        const QString occurrence = occurrenceText(context, f.occurrences.front());
        QVERIFY2(occurrence.contains(QStringLiteral("169.693 ms")), qPrintable(occurrence));
        QVERIFY2(!occurrence.contains(QStringLiteral(" us")), qPrintable(occurrence));
        const QString stake = timeAtStakeText(f);
        QVERIFY2(stake.contains(QStringLiteral("169.693 ms")), qPrintable(stake));
        QVERIFY2(stake.startsWith(QStringLiteral("涉及时间")), qPrintable(stake));
        checkOneWording(findingText(context, f, 1, 5));
        QVERIFY(setUiLanguage(QStringLiteral("en")));
    }
};

QTEST_MAIN(TestFindingText)
#include "tst_finding_text.moc"
