// Property test: random tables with every quirk of FORMATS.md §3.1 are serialised by an independent, naive
// writer, parsed back, and compared cell by cell. Seeds are fixed so failures reproduce.

#include "CsvTestUtil.h"
#include "csv/CsvReader.h"

#include <QTest>

#include <random>
#include <string>
#include <vector>

using at::CsvIssue;
using at::CsvOptions;
using at::CsvReader;
using at::CsvTable;

namespace {

using Row = std::vector<std::string>;

struct Model
{
    Row header;
    std::vector<Row> rows;
};

// What the writer produced, with the positions the parser must report.
struct Written
{
    std::string text;
    std::vector<std::uint64_t> recordOffset; // [0] = header
    std::vector<std::uint64_t> recordLine;
    struct Quoted
    {
        std::size_t record;
        std::size_t open;  // offset of the opening quote
        std::size_t close; // offset of the closing quote
    };
    std::vector<Quoted> quoted;
};

class Gen
{
public:
    explicit Gen(std::uint64_t seed) : rng_(seed) {}

    int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
    bool chance(int percent) { return uniform(0, 99) < percent; }

    std::string cell()
    {
        switch (uniform(0, 9)) {
        case 0:
            return "";
        case 1:
            return "N/A";
        case 2:
            return std::to_string(uniform(0, 1 << 30)) + "." + std::to_string(uniform(100, 999)) + "\t";
        case 3:
            return "\"" + std::to_string(uniform(1, 64)) + "," + std::to_string(uniform(1, 224)) + ";\"";
        case 4:
            return std::to_string(uniform(-100000, 100000));
        default:
            return text(uniform(0, 14), true);
        }
    }

    // Header names: printable at both ends (the reader trims header names), anything inside.
    std::string name()
    {
        std::string s(1, letter());
        s += text(uniform(0, 8), true);
        s += letter();
        return s;
    }

private:
    char letter() { return static_cast<char>('A' + uniform(0, 25)); }

    std::string text(int n, bool quirky)
    {
        static const std::vector<std::string> pieces = {
            "a",    "b",   "Z",     "0",           "7",  "_",    ".",  " ",        "\t",
            ",",    ";",   "\"",    "\"\"",        "\n", "\r\n", "\r", "\xC2\xB5", "\xE4\xB8\xAD",
            "(us)", "N/A", "aclnn", "\xEF\xBB\xBF"};
        std::string s;
        for (int i = 0; i < n; ++i)
            s += quirky ? pieces[static_cast<std::size_t>(uniform(0, int(pieces.size()) - 1))] : "x";
        return s;
    }

    std::mt19937_64 rng_;
};

// Independent, deliberately simple RFC 4180 writer.
Written write(const Model &m, char delim, Gen &g)
{
    Written w;
    if (g.chance(30))
        w.text += "\xEF\xBB\xBF";
    auto countLines = [&w] {
        return 1 + static_cast<std::uint64_t>(std::count(w.text.begin(), w.text.end(), '\n'));
    };
    auto record = [&](const Row &cells, std::size_t index, bool last) {
        if (index > 0 && g.chance(5)) // a blank line between records
            w.text += g.chance(50) ? "\n" : "\r\n";
        w.recordOffset.push_back(w.text.size());
        w.recordLine.push_back(countLines());
        for (std::size_t c = 0; c < cells.size(); ++c) {
            if (c)
                w.text += delim;
            const std::string &v = cells[c];
            const bool needs = v.find_first_of(std::string("\"\r\n") + delim) != std::string::npos ||
                               (cells.size() == 1 && v.empty());
            if (needs || g.chance(10)) {
                Written::Quoted q{index, w.text.size(), 0};
                w.text += '"';
                for (char ch : v) {
                    if (ch == '"')
                        w.text += '"';
                    w.text += ch;
                }
                q.close = w.text.size();
                w.text += '"';
                w.quoted.push_back(q);
            } else {
                w.text += v;
            }
        }
        if (!last || g.chance(70))
            w.text += g.chance(50) ? "\n" : "\r\n";
    };
    record(m.header, 0, m.rows.empty());
    for (std::size_t r = 0; r < m.rows.size(); ++r)
        record(m.rows[r], r + 1, r + 1 == m.rows.size());
    return w;
}

Model randomModel(Gen &g)
{
    Model m;
    const int cols = g.uniform(1, 8);
    for (int c = 0; c < cols; ++c)
        m.header.push_back(g.name());
    const int rows = g.uniform(0, 20);
    for (int r = 0; r < rows; ++r) {
        int n = cols;
        if (g.chance(10)) // ragged
            n = std::max(1, cols + g.uniform(-3, 3));
        Row row;
        for (int c = 0; c < n; ++c)
            row.push_back(g.cell());
        m.rows.push_back(std::move(row));
    }
    return m;
}

std::string trimBlanks(std::string s)
{
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos)
        return {};
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

QByteArray show(std::string_view s)
{
    return csvtest::qba(s).toPercentEncoding(" ,;.:_()/-+");
}

} // namespace

class TestCsvProperty : public QObject
{
    Q_OBJECT

private:
    // Compares parsed rows [0, rows) to the model; trim applies the trimCells expectation.
    static bool sameRows(const CsvTable &t, const Model &m, const Written &w, std::size_t rows, bool trim,
                         QString &why)
    {
        if (t.rowCount() != rows) {
            why = QStringLiteral("row count %1, expected %2").arg(t.rowCount()).arg(rows);
            return false;
        }
        for (std::size_t r = 0; r < rows; ++r) {
            const Row &expected = m.rows[r];
            if (t.cellCount(r) != int(expected.size())) {
                why = QStringLiteral("row %1: %2 cells, expected %3")
                          .arg(r)
                          .arg(t.cellCount(r))
                          .arg(expected.size());
                return false;
            }
            for (std::size_t c = 0; c < expected.size(); ++c) {
                const std::string want = trim ? trimBlanks(expected[c]) : expected[c];
                if (t.cell(r, int(c)) != want) {
                    why = QStringLiteral("row %1 col %2: got '%3' expected '%4'")
                              .arg(r)
                              .arg(c)
                              .arg(QString::fromLatin1(show(t.cell(r, int(c)))),
                                   QString::fromLatin1(show(want)));
                    return false;
                }
            }
            if (t.rowByteOffset(r) != w.recordOffset[r + 1] || t.rowLine(r) != w.recordLine[r + 1]) {
                why = QStringLiteral("row %1: at byte %2 line %3, expected byte %4 line %5")
                          .arg(r)
                          .arg(t.rowByteOffset(r))
                          .arg(t.rowLine(r))
                          .arg(w.recordOffset[r + 1])
                          .arg(w.recordLine[r + 1]);
                return false;
            }
        }
        return true;
    }

private slots:
    void roundTrip()
    {
        constexpr int kTables = 4000;
        std::size_t cells = 0, quotedFields = 0, ragged = 0;
        for (int seed = 1; seed <= kTables; ++seed) {
            Gen g(static_cast<std::uint64_t>(seed) * 0x9E3779B97F4A7C15ULL);
            const Model m = randomModel(g);
            const int d = g.uniform(0, 9);
            const char delim = d < 8 ? ',' : (d == 8 ? ';' : '\t');
            const Written w = write(m, delim, g);
            quotedFields += w.quoted.size();

            CsvOptions opt;
            opt.delimiter = delim;
            const CsvTable t = CsvReader(opt).parse(w.text, QStringLiteral("seed%1").arg(seed));
            const QByteArray ctx = "seed " + QByteArray::number(seed) + ": " + show(w.text);
            QVERIFY2(!t.hasErrors(), ctx.constData());
            QCOMPARE(t.header(), m.header);
            std::size_t expectRagged = 0;
            for (const Row &r : m.rows) {
                expectRagged += r.size() != m.header.size();
                cells += r.size();
            }
            ragged += expectRagged;
            QCOMPARE(t.raggedRowCount(), expectRagged);
            QString why;
            QVERIFY2(sameRows(t, m, w, m.rows.size(), false, why), qPrintable(why + QLatin1Char(' ') + ctx));
            // Read in blocks of a few rows (the kernel table's way): the same rows and issues.
            QStringList blockRows;
            const CsvTable rest = CsvReader(opt).parseBlocks(
                w.text, QStringLiteral("seed%1").arg(seed), static_cast<std::size_t>(g.uniform(1, 5)),
                [&](const CsvTable &block) { blockRows << csvtest::rowsText(block); });
            QVERIFY2(blockRows == csvtest::rowsText(t), ctx.constData());
            QCOMPARE(csvtest::issuesText(rest), csvtest::issuesText(t));
            QCOMPARE(rest.raggedRowCount(), expectRagged);

            if (delim == ',') { // TAB trimming only makes sense when TAB is not the delimiter
                opt.trimCells = true;
                const CsvTable tt = CsvReader(opt).parse(w.text);
                QVERIFY2(sameRows(tt, m, w, m.rows.size(), true, why), qPrintable(why + " (trim) " + ctx));
            }
        }
        qInfo("round-tripped %d tables, %zu cells, %zu quoted fields, %zu ragged rows", kTables, cells,
              quotedFields, ragged);
        QVERIFY(quotedFields > 10000);
        QVERIFY(ragged > 500);
    }

    void truncatedInsideQuotes()
    {
        int checked = 0;
        for (int seed = 1; seed <= 3000; ++seed) {
            Gen g(static_cast<std::uint64_t>(seed) * 0xD1B54A32D192ED03ULL);
            const Model m = randomModel(g);
            const Written w = write(m, ',', g);
            if (w.quoted.empty())
                continue;
            const Written::Quoted q =
                w.quoted[static_cast<std::size_t>(g.uniform(0, int(w.quoted.size()) - 1))];
            // Cut strictly inside the quotes, never between the two quotes of an escaped "" pair.
            std::vector<std::size_t> cuts;
            std::size_t quotes = 0;
            for (std::size_t c = q.open + 1; c <= q.close; ++c) {
                if (quotes % 2 == 0)
                    cuts.push_back(c);
                if (c < q.close && w.text[c] == '"')
                    ++quotes;
            }
            const std::size_t cut = cuts[static_cast<std::size_t>(g.uniform(0, int(cuts.size()) - 1))];
            const std::string text = w.text.substr(0, cut);

            const CsvTable t = CsvReader().parse(text);
            const QByteArray ctx = "seed " + QByteArray::number(seed) + ": " + show(text);
            const CsvIssue *issue = csvtest::firstIssue(t, CsvIssue::Kind::TruncatedQuote);
            QVERIFY2(issue, ctx.constData());
            QCOMPARE(issue->byteOffset, std::uint64_t(q.open));
            QCOMPARE(issue->line,
                     1 + std::uint64_t(std::count(text.begin(), text.begin() + qsizetype(q.open), '\n')));
            // Every record before the cut one survives intact; the header counts as record 0.
            const std::size_t keep = q.record == 0 ? 0 : q.record - 1;
            QString why;
            QVERIFY2(sameRows(t, m, w, keep, false, why), qPrintable(why + QLatin1Char(' ') + ctx));
            ++checked;
        }
        QVERIFY(checked > 2000);
    }
};

QTEST_GUILESS_MAIN(TestCsvProperty)
#include "tst_csv_property.moc"
