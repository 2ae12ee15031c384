#include "NumberFormat.h"

#include <QLocale>
#include <QTest>

#include <cstdint>

using namespace at;

// Issue 28 item 3: the one number formatter of the window. Units, one scaled unit per column, thousands
// separators in English and Chinese, no exponent, no float artefact, exact int64 ns.
class TestNumberFormat : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }
    void cleanupTestCase() { QLocale::setDefault(QLocale::c()); }

    void durationUnitIsPickedFromTheLargestValue()
    {
        QCOMPARE(durationUnitFor(0).symbol, QStringLiteral("ns"));
        QCOMPARE(durationUnitFor(999).symbol, QStringLiteral("ns"));
        QCOMPARE(durationUnitFor(1000).symbol, QStringLiteral("µs"));
        QCOMPARE(durationUnitFor(999'999).symbol, QStringLiteral("µs"));
        QCOMPARE(durationUnitFor(12'221'997).symbol, QStringLiteral("ms"));
        // Picked after rounding: 999,999,999 ns would read "1,000.000 ms", so it reads in s.
        QCOMPARE(durationUnitFor(999'999'999).symbol, QStringLiteral("s"));
        QCOMPARE(durationUnitFor(999'999'499).symbol, QStringLiteral("ms"));
        QCOMPARE(durationUnitFor(3'600'000'000'000).symbol, QStringLiteral("s"));
    }

    void aColumnReadsInOneUnit()
    {
        // The kernel of 12,221,997 ns sets the column's unit; a 5 µs kernel reads in it too.
        const DisplayUnit unit = durationUnitFor(12'221'997);
        QCOMPARE(formatDurationNs(12'221'997, unit), QStringLiteral("12.222 ms"));
        QCOMPARE(formatDurationNs(5'000, unit), QStringLiteral("0.005 ms"));
        QCOMPARE(formatDurationNs(0, unit), QStringLiteral("0.000 ms"));
        // The same value alone (Details, a tooltip) reads exactly as in the column it is the largest of.
        QCOMPARE(formatDurationNs(12'221'997), formatDurationNs(12'221'997, unit));
        QCOMPARE(formatDurationNs(5'000), QStringLiteral("5.000 µs"));
        QCOMPARE(formatDurationNs(15), QStringLiteral("15 ns"));
    }

    void durationsRoundHalfAwayFromZero()
    {
        const DisplayUnit ms = durationUnitFor(1'000'000);
        QCOMPARE(formatDurationNs(1'234'500, ms), QStringLiteral("1.235 ms"));
        QCOMPARE(formatDurationNs(1'234'499, ms), QStringLiteral("1.234 ms"));
        QCOMPARE(formatDurationNs(-1'234'500, ms), QStringLiteral("-1.235 ms"));
        // A negative value that rounds to zero has no sign.
        QCOMPARE(formatDurationNs(-400, ms), QStringLiteral("0.000 ms"));
        QCOMPARE(formatDurationNs(-2'500), QStringLiteral("-2.500 µs"));
        QCOMPARE(formatDurationNs(-15), QStringLiteral("-15 ns"));
    }

    void hugeNanosecondsAreExact()
    {
        // An epoch timestamp: a double has 15-16 significant digits, these are 19.
        const TimeNs epoch = 1'736'408'883'694'795'841;
        const DisplayUnit s = timePointUnitFor(epoch);
        QCOMPARE(s.symbol, QStringLiteral("s"));
        QCOMPARE(formatTimePointNs(epoch, s), QStringLiteral("1,736,408,883.694796 s"));
        DisplayUnit nsDigits = s;
        nsDigits.decimals = 9;
        QCOMPARE(formatDurationNs(epoch, nsDigits), QStringLiteral("1,736,408,883.694795841 s"));
        const DisplayUnit ns{Quantity::Duration, QStringLiteral("ns"), 1, 0};
        QCOMPARE(formatDurationNs(INT64_MAX, ns), QStringLiteral("9,223,372,036,854,775,807 ns"));
        QCOMPARE(formatDurationNs(INT64_MIN, ns), QStringLiteral("-9,223,372,036,854,775,808 ns"));
        QCOMPARE(formatDurationNs(INT64_MAX), QStringLiteral("9,223,372,036.855 s"));
    }

    void timePointsKeepMicroseconds()
    {
        QCOMPARE(timePointUnitFor(5'123'456'789).symbol, QStringLiteral("s"));
        QCOMPARE(formatTimePointNs(5'123'456'789), QStringLiteral("5.123457 s"));
        QCOMPARE(formatTimePointNs(123'456'789), QStringLiteral("123.457 ms"));
        const DisplayUnit column = timePointUnitFor(5'123'456'789);
        QCOMPARE(formatTimePointNs(2'000, column), QStringLiteral("0.000002 s"));
    }

    void bytesScaleByPowersOf1024()
    {
        QCOMPARE(bytesUnitFor(0).symbol, QStringLiteral("B"));
        QCOMPARE(bytesUnitFor(1023).symbol, QStringLiteral("B"));
        QCOMPARE(bytesUnitFor(1024).symbol, QStringLiteral("KB"));
        QCOMPARE(formatBytes(512), QStringLiteral("512 B"));
        QCOMPARE(formatBytes(1536), QStringLiteral("1.50 KB"));
        // Issue 28: the Steps panel showed "10282.7490234375 MB".
        const double peak = 10282.7490234375 * 1024 * 1024;
        QCOMPARE(formatBytes(peak), QStringLiteral("10.04 GB"));
        QCOMPARE(
            formatInUnit(10282.7490234375, QStringLiteral("MB"), columnUnitFor(QStringLiteral("MB"), 900)),
            QStringLiteral("10,282.75 MB"));
        QCOMPARE(formatNumber(10282.7490234375, QStringLiteral("MB")), QStringLiteral("10.04 GB"));
        QCOMPARE(formatBytes(-1536), QStringLiteral("-1.50 KB"));
        QCOMPARE(formatBytes(-0.001), QStringLiteral("0 B"));
    }

    void metricColumnsScaleTimesAndSizesAndKeepOtherUnits()
    {
        QCOMPARE(rawUnitOf(QStringLiteral("us")).quantity, Quantity::Duration);
        QCOMPARE(rawUnitOf(QStringLiteral("us")).toBase, 1e3);
        QCOMPARE(rawUnitOf(QStringLiteral("KB")).toBase, 1024.0);
        QCOMPARE(rawUnitOf(QStringLiteral("GB/s")).quantity, Quantity::Plain);
        // A metric column in µs whose largest value is 12,221.997 µs reads in ms.
        const DisplayUnit column = columnUnitFor(QStringLiteral("us"), 12221.997);
        QCOMPARE(column.symbol, QStringLiteral("ms"));
        QCOMPARE(formatInUnit(12221.997, QStringLiteral("us"), column), QStringLiteral("12.222 ms"));
        QCOMPARE(formatInUnit(1.5, QStringLiteral("us"), column), QStringLiteral("0.002 ms"));
        QCOMPARE(formatNumber(12.5, QStringLiteral("us")), QStringLiteral("12.500 µs"));
        const DisplayUnit rate = columnUnitFor(QStringLiteral("GB/s"), 9000);
        QCOMPARE(formatInUnit(8873.756000000001, QStringLiteral("GB/s"), rate),
                 QStringLiteral("8,873.756 GB/s"));
        QCOMPARE(formatInUnit(32, QStringLiteral("GB/s"), rate), QStringLiteral("32 GB/s"));
        QVERIFY(formatInUnit(std::nan(""), QStringLiteral("us"), column).isEmpty());
    }

    void plainNumbersHaveNoExponentAndNoArtefact()
    {
        QCOMPARE(formatNumber(3238200.0), QStringLiteral("3,238,200"));
        QCOMPARE(formatNumber(12356000.0), QStringLiteral("12,356,000"));
        QCOMPARE(formatNumber(1e20), QStringLiteral("100,000,000,000,000,000,000"));
        QCOMPARE(formatNumber(0.12345, QStringLiteral("%")), QStringLiteral("0.123%"));
        QCOMPARE(formatNumber(0.1 + 0.2), QStringLiteral("0.3"));
        QCOMPARE(formatNumber(8873.756000000001, QStringLiteral("GB/s")), QStringLiteral("8,873.756 GB/s"));
        QCOMPARE(formatNumber(0.0), QStringLiteral("0"));
        QCOMPARE(formatNumber(-0.0001), QStringLiteral("0"));
        QCOMPARE(formatNumber(-42.5), QStringLiteral("-42.5"));
        QVERIFY(formatNumber(std::nan("")).isEmpty());
        QCOMPARE(formatCount(12'221'997), QStringLiteral("12,221,997"));
        QCOMPARE(formatCount(-5), QStringLiteral("-5"));
        QCOMPARE(formatPercent(35.63), QStringLiteral("35.6%"));
        QCOMPARE(formatPercent(5.5, 2), QStringLiteral("5.50%"));
        for (double v : {1e-9, 1.2356e+07, 9.99e15, 123456789012.345})
            QVERIFY2(!formatNumber(v).contains(QLatin1Char('e')), qPrintable(formatNumber(v)));
    }

    void chineseLocaleUsesItsSeparators()
    {
        const QLocale zh(QLocale::Chinese, QLocale::China);
        QLocale::setDefault(zh);
        // zh_CN groups by three with "," and uses "." as decimal point, like English: the units stay.
        QCOMPARE(formatDurationNs(12'221'997),
                 QStringLiteral("12") + zh.decimalPoint() + QStringLiteral("222 ms"));
        QCOMPARE(formatCount(12'221'997), QStringLiteral("12") + zh.groupSeparator() + QStringLiteral("221") +
                                              zh.groupSeparator() + QStringLiteral("997"));
        QCOMPARE(formatCount(12'221'997), QStringLiteral("12,221,997"));
        QCOMPARE(formatBytes(10282.7490234375 * 1024 * 1024), QStringLiteral("10.04 GB"));
        QCOMPARE(formatNumber(3238200.5), QStringLiteral("3,238,200.5"));
        // A locale with other separators shows them (German: "." groups, "," is the decimal point).
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        QCOMPARE(formatDurationNs(1'234'567'891'234), QStringLiteral("1.234,568 s"));
        QCOMPARE(formatNumber(3238200.5), QStringLiteral("3.238.200,5"));
    }

    void titlesCarryTheUnit()
    {
        QCOMPARE(titleWithUnit(QStringLiteral("Duration"), durationUnitFor(2'000'000)),
                 QStringLiteral("Duration (ms)"));
        QCOMPARE(titleWithUnit(QStringLiteral("Calls"), DisplayUnit{}), QStringLiteral("Calls"));
    }
};

QTEST_GUILESS_MAIN(TestNumberFormat)
#include "tst_number_format.moc"
