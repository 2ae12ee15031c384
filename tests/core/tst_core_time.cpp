// core/Time: the text-based µs → ns rule of FORMATS.md §2.3, integer parsing and formatting.
// Expected values are worked out by hand from the rule "ns = integer part × 1000 + first three
// fractional digits (right-padded with 0); HalfUp adds 1 when the 4th fractional digit is >= 5".

#include "Time.h"

#include <QTest>

#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>

using at::FractionRounding;
using at::TimeNs;

Q_DECLARE_METATYPE(std::optional<qint64>)

namespace {

constexpr qint64 kMax = std::numeric_limits<qint64>::max();
constexpr qint64 kMin = std::numeric_limits<qint64>::min();

std::optional<qint64> none()
{
    return std::nullopt;
}

std::optional<qint64> some(qint64 v)
{
    return v;
}

QString show(std::optional<qint64> v)
{
    return v ? QString::number(*v) : QStringLiteral("nullopt");
}

// "<whole>.<3 digits>" for any int64 ns value, built with integer arithmetic only.
std::string microsText(qint64 ns)
{
    const bool negative = ns < 0;
    const std::uint64_t magnitude =
        negative ? 0 - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
    std::string frac = std::to_string(magnitude % 1000);
    frac.insert(0, 3 - frac.size(), '0');
    return (negative ? "-" : "") + std::to_string(magnitude / 1000) + "." + frac;
}

} // namespace

class TestCoreTime : public QObject
{
    Q_OBJECT

private slots:
    void parseMicros_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<std::optional<qint64>>("truncate");
        QTest::addColumn<std::optional<qint64>>("halfUp");

        // Three fractional digits (G3/G4 string ts): exact ns, both modes agree.
        QTest::newRow("epoch 3 digits")
            << QByteArray("1736408883694795.840") << some(1736408883694795840) << some(1736408883694795840);
        // FORMATS.md §2.3: a double turns this into ...643.25; the text rule must not.
        QTest::newRow("double-killer")
            << QByteArray("1736408883704643.212") << some(1736408883704643212) << some(1736408883704643212);
        QTest::newRow("3 digits 001") << QByteArray("0.001") << some(1) << some(1);
        QTest::newRow("3 digits 999") << QByteArray("12.999") << some(12999) << some(12999);
        QTest::newRow("zero") << QByteArray("0") << some(0) << some(0);
        QTest::newRow("zero fraction") << QByteArray("0.000") << some(0) << some(0);
        // No fraction (counter ts in the level1 sample).
        QTest::newRow("no fraction") << QByteArray("1736408883973810") << some(1736408883973810000)
                                     << some(1736408883973810000);
        QTest::newRow("integer 1") << QByteArray("1") << some(1000) << some(1000);
        // Fewer than three digits are right-padded.
        QTest::newRow("1 digit") << QByteArray("145.5") << some(145500) << some(145500);
        QTest::newRow("2 digits") << QByteArray("145.57") << some(145570) << some(145570);
        QTest::newRow("dur 155985.8") << QByteArray("155985.8") << some(155985800) << some(155985800);
        // More than three digits: Truncate drops, HalfUp rounds on the 4th digit only.
        QTest::newRow("4th digit 0") << QByteArray("0.60003125") << some(600) << some(600);
        QTest::newRow("4th digit 2") << QByteArray("79089.52021875") << some(79089520) << some(79089520);
        QTest::newRow("4th digit 4, rest 9s") << QByteArray("1.0004999") << some(1000) << some(1000);
        QTest::newRow("4th digit 5") << QByteArray("1.0005") << some(1000) << some(1001);
        QTest::newRow("4th digit 9") << QByteArray("53.7419") << some(53741) << some(53742);
        QTest::newRow("4th digit 6 level1 dur") << QByteArray("840.07675") << some(840076) << some(840077);
        QTest::newRow("carry into whole") << QByteArray("0.9995") << some(999) << some(1000);
        QTest::newRow("carry 1.9999") << QByteArray("1.9999") << some(1999) << some(2000);
        QTest::newRow("many digits") << QByteArray("2.12345678901234567890") << some(2123) << some(2123);
        QTest::newRow("epoch 6 digits")
            << QByteArray("1736408883704643.2125") << some(1736408883704643212) << some(1736408883704643213);
        // Signs.
        QTest::newRow("negative integer") << QByteArray("-3") << some(-3000) << some(-3000);
        QTest::newRow("negative fraction") << QByteArray("-1.5") << some(-1500) << some(-1500);
        QTest::newRow("negative 3 digits") << QByteArray("-1736408883694795.840")
                                           << some(-1736408883694795840) << some(-1736408883694795840);
        QTest::newRow("plus sign") << QByteArray("+5") << some(5000) << some(5000);
        // Whitespace, TAB suffix (CSV cells), quotes around the token.
        QTest::newRow("spaces and tab") << QByteArray(" 12.0\t") << some(12000) << some(12000);
        QTest::newRow("trailing tab")
            << QByteArray("1736408883694795.840\t") << some(1736408883694795840) << some(1736408883694795840);
        QTest::newRow("crlf") << QByteArray("\r\n7\r\n") << some(7000) << some(7000);
        QTest::newRow("quoted") << QByteArray("\"1736408883694795.840\"") << some(1736408883694795840)
                                << some(1736408883694795840);
        QTest::newRow("quoted with tab") << QByteArray("\"145.57\t\"") << some(145570) << some(145570);
        QTest::newRow("tab quoted spaces") << QByteArray("\t\" 0.5 \"\t") << some(500) << some(500);
        // Exponent fallback (long double, then rounded to the nearest ns).
        QTest::newRow("exp 1.5e3") << QByteArray("1.5e3") << some(1500000) << some(1500000);
        QTest::newRow("exp E upper") << QByteArray("2E2") << some(200000) << some(200000);
        QTest::newRow("exp negative exponent") << QByteArray("1e-3") << some(1) << some(1);
        QTest::newRow("exp negative value") << QByteArray("-2.5e1") << some(-25000) << some(-25000);
        QTest::newRow("exp plus exponent") << QByteArray("1.2345e+3") << some(1234500) << some(1234500);
        QTest::newRow("exp below 1 ns") << QByteArray("1e-4") << some(0) << some(0);
        QTest::newRow("exp 1e15") << QByteArray("1e15") << some(1000000000000000000)
                                  << some(1000000000000000000);
        QTest::newRow("exp quoted") << QByteArray(" \"3e0\"\t") << some(3000) << some(3000);
        // Garbage.
        QTest::newRow("empty") << QByteArray("") << none() << none();
        QTest::newRow("spaces only") << QByteArray("  \t ") << none() << none();
        QTest::newRow("empty quotes") << QByteArray("\"\"") << none() << none();
        QTest::newRow("letters") << QByteArray("abc") << none() << none();
        QTest::newRow("two dots") << QByteArray("1.2.3") << none() << none();
        QTest::newRow("digits then letters") << QByteArray("12abc") << none() << none();
        QTest::newRow("comma decimal") << QByteArray("1,5") << none() << none();
        QTest::newRow("double sign") << QByteArray("--1") << none() << none();
        QTest::newRow("sign only") << QByteArray("-") << none() << none();
        QTest::newRow("dot only") << QByteArray(".") << none() << none();
        QTest::newRow("inner space") << QByteArray("1 2") << none() << none();
        QTest::newRow("nan") << QByteArray("nan") << none() << none();
        QTest::newRow("inf") << QByteArray("inf") << none() << none();
        QTest::newRow("null") << QByteArray("null") << none() << none();
        QTest::newRow("true") << QByteArray("true") << none() << none();
        QTest::newRow("exp without digits") << QByteArray("1e") << none() << none();
        QTest::newRow("exp alone") << QByteArray("e5") << none() << none();
        QTest::newRow("exp then junk") << QByteArray("1e3abc") << none() << none();
        QTest::newRow("exp with inner space") << QByteArray("1 e3") << none() << none();
        QTest::newRow("exp infinite") << QByteArray("1e400") << none() << none();
        QTest::newRow("exp nan") << QByteArray("nan(e)") << none() << none();
        QTest::newRow("hex") << QByteArray("0x10") << none() << none();
        // Overflow of int64 ns (INT64_MAX ns = 9223372036854775.807 µs).
        QTest::newRow("overflow just above max") << QByteArray("9223372036854775.808") << none() << none();
        QTest::newRow("overflow integer") << QByteArray("9223372036854776") << none() << none();
        QTest::newRow("overflow 20 digits") << QByteArray("99999999999999999999") << none() << none();
        QTest::newRow("overflow 40 digits")
            << QByteArray("1234567890123456789012345678901234567890.5") << none() << none();
        QTest::newRow("overflow negative") << QByteArray("-9223372036854775.809") << none() << none();
        QTest::newRow("overflow exp") << QByteArray("1e16") << none() << none();
        QTest::newRow("overflow negative exp") << QByteArray("-1e16") << none() << none();
        QTest::newRow("near max") << QByteArray("9223372036854774.999") << some(9223372036854774999)
                                  << some(9223372036854774999);
    }

    void parseMicros()
    {
        QFETCH(QByteArray, text);
        QFETCH(std::optional<qint64>, truncate);
        QFETCH(std::optional<qint64>, halfUp);
        const std::string_view view(text.constData(), static_cast<std::size_t>(text.size()));
        const auto t = at::parseMicrosToNs(view, FractionRounding::Truncate);
        const auto h = at::parseMicrosToNs(view, FractionRounding::HalfUp);
        QCOMPARE(show(t), show(truncate));
        QCOMPARE(show(h), show(halfUp));
        // Truncate is the default rounding.
        QCOMPARE(show(at::parseMicrosToNs(view)), show(truncate));
    }

    // The exact int64 limits fit in int64 ns and must parse (the header promises nullopt only for
    // overflow), and non-decimal text must not.
    void parseMicrosInt64Limits()
    {
        // Regression test for a bug found in review (core/Time.cpp parseMicrosToNs): the overflow guard is
        // kMaxUs = INT64_MAX / 1000 - 1 = 9223372036854774, so any integer part of 9223372036854775
        // is rejected although ...775.807 µs is exactly INT64_MAX ns and ...775.000 is below it.
        QCOMPARE(show(at::parseMicrosToNs("9223372036854775.807")), show(some(kMax)));
        QCOMPARE(show(at::parseMicrosToNs("9223372036854775")), show(some(9223372036854775000)));
        QCOMPARE(show(at::parseMicrosToNs("-9223372036854775.808")), show(some(kMin)));
        // Regression test for a bug found in review (core/Time.cpp parseMicrosToNs): the header promises a
        // *decimal* text, but any text containing 'e'/'E' goes to strtold, which also accepts hexadecimal:
        // "0x1e" is read as 30 µs instead of being rejected like "0x10".
        QCOMPARE(show(at::parseMicrosToNs("0x1e")), show(none()));
        // Rounding up past INT64_MAX must not wrap.
        QCOMPARE(show(at::parseMicrosToNs("9223372036854775.8075", FractionRounding::HalfUp)), show(none()));
    }

    // Property: any int64 ns written as "<µs>.<3 digits>" parses back exactly, in both modes. This
    // is the precision a double loses for epoch µs (§2.3).
    void roundTripProperty()
    {
        std::mt19937_64 rng(20250109);
        std::uniform_int_distribution<qint64> epoch(1'600'000'000'000'000'000, 1'900'000'000'000'000'000);
        std::uniform_int_distribution<qint64> any(kMin / 2, kMax / 2);
        std::uniform_int_distribution<qint64> small(-5'000'000, 5'000'000);
        std::uniform_int_distribution<int> digit(0, 9);
        int doubleWouldFail = 0;
        for (int i = 0; i < 200000; ++i) {
            const qint64 ns = i % 3 == 0 ? epoch(rng) : i % 3 == 1 ? any(rng) : small(rng);
            const std::string text = microsText(ns);
            const auto t = at::parseMicrosToNs(text, FractionRounding::Truncate);
            const auto h = at::parseMicrosToNs(text, FractionRounding::HalfUp);
            if (!t || *t != ns || !h || *h != ns)
                QFAIL(qPrintable(QStringLiteral("%1 -> %2 / %3, expected %4")
                                     .arg(QString::fromStdString(text), show(t), show(h))
                                     .arg(ns)));
            // formatAbsoluteMicros writes the same text.
            const QString formatted = at::formatAbsoluteMicros(ns);
            if (formatted != QString::fromStdString(text))
                QFAIL(qPrintable(QStringLiteral("formatAbsoluteMicros(%1) = %2, expected %3")
                                     .arg(ns)
                                     .arg(formatted, QString::fromStdString(text))));
            // Extra digits: Truncate keeps ns, HalfUp adds one (away from zero) when the 4th is >= 5.
            const int d4 = digit(rng);
            const std::string longer =
                text + char('0' + d4) + char('0' + digit(rng)) + char('0' + digit(rng));
            const auto lt = at::parseMicrosToNs(longer, FractionRounding::Truncate);
            const auto lh = at::parseMicrosToNs(longer, FractionRounding::HalfUp);
            const qint64 up = ns >= 0 ? ns + (d4 >= 5 ? 1 : 0) : ns - (d4 >= 5 ? 1 : 0);
            if (!lt || *lt != ns || !lh || (ns >= 0 && *lh != up))
                QFAIL(qPrintable(QStringLiteral("%1 -> %2 / %3, expected %4 / %5")
                                     .arg(QString::fromStdString(longer), show(lt), show(lh))
                                     .arg(ns)
                                     .arg(up)));
            // Trailing zeros dropped ("...643.2" means 643.200).
            std::string stripped = text;
            while (stripped.back() == '0')
                stripped.pop_back();
            if (stripped.back() == '.')
                stripped.pop_back();
            const auto st = at::parseMicrosToNs(stripped);
            if (!st || *st != ns)
                QFAIL(qPrintable(QStringLiteral("%1 -> %2, expected %3")
                                     .arg(QString::fromStdString(stripped), show(st))
                                     .arg(ns)));
            if (i % 3 == 0 && static_cast<qint64>(std::stod(text) * 1000.0) != ns)
                ++doubleWouldFail;
        }
        // Sanity check of the premise: the double route loses ns for most epoch values.
        QVERIFY(doubleWouldFail > 60000);
    }

    void parseInt64_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<std::optional<qint64>>("expected");
        QTest::newRow("small") << QByteArray("123") << some(123);
        QTest::newRow("zero") << QByteArray("0") << some(0);
        QTest::newRow("negative") << QByteArray("-5") << some(-5);
        QTest::newRow("plus") << QByteArray("+7") << some(7);
        QTest::newRow("quoted") << QByteArray("\"42\"") << some(42);
        QTest::newRow("whitespace") << QByteArray(" \t42\t ") << some(42);
        QTest::newRow("pid > 2^31") << QByteArray("3170820512") << some(3170820512);
        QTest::newRow("pid > 2^32") << QByteArray("4400000000123") << some(4400000000123);
        QTest::newRow("flow id > 2^53") << QByteArray("1736408883839797773") << some(1736408883839797773);
        QTest::newRow("int64 max") << QByteArray("9223372036854775807") << some(kMax);
        QTest::newRow("fraction truncated") << QByteArray("12.7") << some(12);
        QTest::newRow("negative fraction truncated") << QByteArray("-12.7") << some(-12);
        QTest::newRow("empty") << QByteArray("") << none();
        QTest::newRow("sign only") << QByteArray("-") << none();
        QTest::newRow("letters") << QByteArray("abc") << none();
        QTest::newRow("trailing letters") << QByteArray("12a") << none();
        QTest::newRow("text key") << QByteArray("123 aclGraph") << none();
        QTest::newRow("stream text") << QByteArray("stream5") << none();
        QTest::newRow("fraction junk") << QByteArray("1.2.3") << none();
        QTest::newRow("overflow uint64") << QByteArray("99999999999999999999") << none();
    }

    void parseInt64()
    {
        QFETCH(QByteArray, text);
        QFETCH(std::optional<qint64>, expected);
        const auto v =
            at::parseInt64(std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
        QCOMPARE(show(v), show(expected));
    }

    void formatDuration_data()
    {
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<int>("precision");
        QTest::addColumn<QString>("expected");
        QTest::newRow("0 ns") << qint64(0) << 3 << QStringLiteral("0 ns");
        QTest::newRow("15 ns") << qint64(15) << 3 << QStringLiteral("15 ns");
        QTest::newRow("999 ns") << qint64(999) << 3 << QStringLiteral("999 ns");
        QTest::newRow("1 us") << qint64(1000) << 3 << QStringLiteral("1.000 µs");
        QTest::newRow("145.57 us") << qint64(145570) << 3 << QStringLiteral("145.570 µs");
        QTest::newRow("1.234 ms") << qint64(1234000) << 3 << QStringLiteral("1.234 ms");
        QTest::newRow("2.5 s") << qint64(2500000000) << 3 << QStringLiteral("2.500 s");
        QTest::newRow("precision 1") << qint64(1500) << 1 << QStringLiteral("1.5 µs");
        QTest::newRow("precision 0") << qint64(2600000000) << 0 << QStringLiteral("3 s");
        QTest::newRow("negative ns") << qint64(-15) << 3 << QStringLiteral("-15 ns");
        QTest::newRow("negative us") << qint64(-1500) << 3 << QStringLiteral("-1.500 µs");
        QTest::newRow("large s") << qint64(3600) * 1000000000 << 3 << QStringLiteral("3600.000 s");
    }

    void formatDuration()
    {
        QFETCH(qint64, ns);
        QFETCH(int, precision);
        QFETCH(QString, expected);
        QCOMPARE(at::formatDuration(ns, precision), expected);
    }

    void formatAbsoluteMicros_data()
    {
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<QString>("expected");
        QTest::newRow("epoch") << qint64(1736408883694795840) << QStringLiteral("1736408883694795.840");
        QTest::newRow("double-killer")
            << qint64(1736408883704643212) << QStringLiteral("1736408883704643.212");
        QTest::newRow("zero") << qint64(0) << QStringLiteral("0.000");
        QTest::newRow("5 ns") << qint64(5) << QStringLiteral("0.005");
        QTest::newRow("1 us") << qint64(1000) << QStringLiteral("1.000");
        QTest::newRow("-1500") << qint64(-1500) << QStringLiteral("-1.500");
        QTest::newRow("-5") << qint64(-5) << QStringLiteral("-0.005");
        QTest::newRow("max") << kMax << QStringLiteral("9223372036854775.807");
        QTest::newRow("min") << kMin << QStringLiteral("-9223372036854775.808");
    }

    void formatAbsoluteMicros()
    {
        QFETCH(qint64, ns);
        QFETCH(QString, expected);
        QCOMPARE(at::formatAbsoluteMicros(ns), expected);
    }
};

QTEST_GUILESS_MAIN(TestCoreTime)
#include "tst_core_time.moc"
