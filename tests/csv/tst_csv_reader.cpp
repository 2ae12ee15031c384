// Unit tests of the CSV reader: dialect details, diagnostics and edge cases (FORMATS.md §3.1).

#include "CsvTestUtil.h"
#include "common/MappedFile.h"
#include "csv/CsvColumns.h"
#include "csv/CsvReader.h"
#include "csv/CsvSlices.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <memory>

using at::CsvIssue;
using at::CsvOptions;
using at::CsvReader;
using at::CsvTable;
using csvtest::countIssues;
using csvtest::firstIssue;
using csvtest::qba;
using csvtest::rowsText;

namespace {

CsvTable parse(std::string_view text, CsvOptions opt = {})
{
    return CsvReader(opt).parse(text, QStringLiteral("mem.csv"));
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

} // namespace

class TestCsvReader : public QObject
{
    Q_OBJECT

private slots:
    void lfAndCrlfMixed()
    {
        const CsvTable t = parse("a,b\r\n1,2\n3,4\r\n5,6\r7,8");
        QCOMPARE(t.columnCount(), 2);
        QCOMPARE(t.rowCount(), std::size_t(4));
        QCOMPARE(qba(t.cell(0, 1)), QByteArray("2"));
        QCOMPARE(qba(t.cell(2, 0)), QByteArray("5")); // lone CR ends a record too
        QCOMPARE(qba(t.cell(3, 1)), QByteArray("8")); // no final newline
        QCOMPARE(t.rowLine(0), std::uint64_t(2));
        QCOMPARE(t.rowLine(3), std::uint64_t(5));
        QCOMPARE(t.rowByteOffset(1), std::uint64_t(std::string_view("a,b\r\n1,2\n").size()));
        QVERIFY(t.issues().empty());
    }

    void quotedFieldsWithNewlinesAndQuotes()
    {
        const CsvTable t = parse("name,stack,n\n"
                                 "\"x,y\",\"line1;\nline2;\r\nline3\",1\n"
                                 "\"he said \"\"hi\"\"\",\"\"\"32,3\"\"\",2\n"
                                 "last,,3\n");
        QCOMPARE(t.rowCount(), std::size_t(3));
        QCOMPARE(qba(t.cell(0, 0)), QByteArray("x,y"));
        QCOMPARE(qba(t.cell(0, 1)), QByteArray("line1;\nline2;\r\nline3"));
        QCOMPARE(qba(t.cell(1, 0)), QByteArray("he said \"hi\""));
        QCOMPARE(qba(t.cell(1, 1)), QByteArray("\"32,3\""));
        QCOMPARE(qba(t.cell(2, 1)), QByteArray(""));
        // Physical line numbers count the newlines inside quotes.
        QCOMPARE(t.rowLine(0), std::uint64_t(2));
        QCOMPARE(t.rowLine(1), std::uint64_t(5));
        QCOMPARE(t.rowLine(2), std::uint64_t(6));
    }

    void bomIsStripped()
    {
        const CsvTable t = parse("\xEF\xBB\xBFName,Type\nop,Conv\n");
        QCOMPARE(QByteArray::fromStdString(t.header()[0]), QByteArray("Name"));
        QCOMPARE(t.column("Name"), 0);
        QCOMPARE(t.rowByteOffset(0), std::uint64_t(13)); // raw offsets include the BOM
    }

    void trailingDelimiterAndEmptyCells()
    {
        const CsvTable t = parse("a,b,c\n1,,\n,,\n");
        QCOMPARE(t.rowCount(), std::size_t(2));
        QCOMPARE(t.cellCount(0), 3);
        QCOMPARE(t.cellCount(1), 3);
        QVERIFY(t.cell(1, 2).empty());
        QCOMPARE(t.raggedRowCount(), std::size_t(0));
    }

    void blankLinesAndQuotedEmptyCell()
    {
        // A blank line is no record; a single empty cell must be written as "".
        const CsvTable t = parse("only\n\n\"\"\r\n\r\nx\n\n");
        QCOMPARE(t.rowCount(), std::size_t(2));
        QCOMPARE(t.cellCount(0), 1);
        QVERIFY(t.cell(0, 0).empty());
        QCOMPARE(qba(t.cell(1, 0)), QByteArray("x"));
        QCOMPARE(t.rowLine(1), std::uint64_t(5));
    }

    void trimOnRequest()
    {
        const std::string_view text = "Start Time(us), Name \n1736408883704643.212\t,\" op \t\"\n";
        const CsvTable raw = parse(text);
        QCOMPARE(qba(raw.cell(0, 0)), QByteArray("1736408883704643.212\t"));
        QCOMPARE(QByteArray::fromStdString(raw.header()[1]),
                 QByteArray("Name")); // header names always trimmed
        CsvOptions opt;
        opt.trimCells = true;
        const CsvTable t = parse(text, opt);
        QCOMPARE(qba(t.cell(0, 0)), QByteArray("1736408883704643.212"));
        QCOMPARE(qba(t.cell(0, 1)), QByteArray("op"));
    }

    void raggedRowsAreKeptAndReported()
    {
        const CsvTable t = parse("a,b,c\n1,2,3\n4,5\n6,7,8,9\n");
        QCOMPARE(t.rowCount(), std::size_t(3));
        QCOMPARE(t.raggedRowCount(), std::size_t(2));
        QCOMPARE(t.cellCount(1), 2);
        QCOMPARE(t.cellCount(2), 4);
        QVERIFY(t.cell(1, 2).empty()); // missing cell reads as empty
        QCOMPARE(qba(t.cell(2, 3)), QByteArray("9"));
        QCOMPARE(countIssues(t, CsvIssue::Kind::RaggedRow), qsizetype(2));
        const CsvIssue *i = firstIssue(t, CsvIssue::Kind::RaggedRow);
        QCOMPARE(i->line, std::uint64_t(3));
        QCOMPARE(i->byteOffset, std::uint64_t(12));
        QCOMPARE(i->file, QStringLiteral("mem.csv"));
        QVERIFY(!i->isError());
        QVERIFY(i->toString().startsWith(QStringLiteral("mem.csv:3: warning:")));
    }

    void raggedReportsAreCapped()
    {
        std::string text = "a,b\n";
        for (int i = 0; i < 100; ++i)
            text += "1\n";
        CsvOptions opt;
        opt.maxIssuesPerKind = 5;
        const CsvTable t = parse(text, opt);
        QCOMPARE(t.rowCount(), std::size_t(100));
        QCOMPARE(t.raggedRowCount(), std::size_t(100));
        QCOMPARE(countIssues(t, CsvIssue::Kind::RaggedRow), qsizetype(6)); // 5 + one summary
        QVERIFY(t.issues().back().message.contains(QStringLiteral("95 more")));
    }

    void emptyInput()
    {
        for (std::string_view text :
             {std::string_view(""), std::string_view("\xEF\xBB\xBF"), std::string_view("\n\r\n")}) {
            const CsvTable t = parse(text);
            QCOMPARE(t.rowCount(), std::size_t(0));
            QCOMPARE(t.columnCount(), 0);
            QCOMPARE(countIssues(t, CsvIssue::Kind::EmptyFile), qsizetype(1));
            QVERIFY(!t.hasErrors());
        }
    }

    void emptyFileOnDisk()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("empty.csv"));
        QVERIFY(writeFile(path, QByteArray()));
        const CsvTable t = CsvReader().readFile(path);
        QCOMPARE(t.rowCount(), std::size_t(0));
        QCOMPARE(countIssues(t, CsvIssue::Kind::EmptyFile), qsizetype(1));
        QCOMPARE(t.issues().front().file, path);
    }

    void headerOnly()
    {
        for (std::string_view text : {std::string_view("Name,Type\r\n"), std::string_view("Name,Type")}) {
            const CsvTable t = parse(text);
            QCOMPARE(t.columnCount(), 2);
            QCOMPARE(t.rowCount(), std::size_t(0));
            QVERIFY(t.issues().empty());
        }
    }

    void truncatedInsideQuotedField()
    {
        const std::string_view text = "Name,Call Stack,Dur\n"
                                      "a,\"x;\ny\",1\n"
                                      "b,\"z\",2\n"
                                      "c,\"p;\nq;\nr";
        const CsvTable t = parse(text);
        QCOMPARE(t.rowCount(), std::size_t(2)); // complete rows survive
        QCOMPARE(qba(t.cell(1, 0)), QByteArray("b"));
        QVERIFY(t.hasErrors());
        const CsvIssue *i = firstIssue(t, CsvIssue::Kind::TruncatedQuote);
        QVERIFY(i);
        QVERIFY(i->isError());
        QCOMPARE(i->byteOffset, std::uint64_t(text.find("\"p;")));
        QCOMPARE(i->line, std::uint64_t(5));
        QVERIFY(i->message.contains(QStringLiteral("dropped")));
    }

    void truncatedFileOnDisk()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cut.csv"));
        QVERIFY(writeFile(path, QByteArray("h1,h2\n1,2\n3,\"open")));
        const CsvTable t = CsvReader().readFile(path);
        QCOMPARE(t.rowCount(), std::size_t(1));
        const CsvIssue *i = firstIssue(t, CsvIssue::Kind::TruncatedQuote);
        QVERIFY(i);
        QCOMPARE(i->file, path);
        QCOMPARE(i->byteOffset, std::uint64_t(12));
        QCOMPARE(i->line, std::uint64_t(3));
    }

    void wrongDelimiter()
    {
        const CsvTable t = parse("Name;Type;Start Time(us)\nop;Conv;1.0\nop2;Relu;2.0\n");
        QCOMPARE(t.columnCount(), 1);
        QCOMPARE(t.rowCount(), std::size_t(2));
        QCOMPARE(qba(t.cell(0, 0)), QByteArray("op;Conv;1.0"));
        const CsvIssue *i = firstIssue(t, CsvIssue::Kind::SuspiciousHeader);
        QVERIFY(i);
        QVERIFY(i->message.contains(QStringLiteral("delimiter")));
        QCOMPARE(i->line, std::uint64_t(1));
        // With the right delimiter the same text is a normal table.
        CsvOptions opt;
        opt.delimiter = ';';
        const CsvTable ok = parse("Name;Type;Start Time(us)\nop;Conv;1.0\n", opt);
        QCOMPARE(ok.columnCount(), 3);
        QVERIFY(ok.issues().empty());
    }

    void noHeaderRow()
    {
        const std::string_view text =
            "50,4294967295,11051,2,trans_TransData_0\n50,4294967295,11052,2,trans_TransData_1\n";
        const CsvTable t = parse(text);
        QCOMPARE(t.rowCount(), std::size_t(1));
        QVERIFY(firstIssue(t, CsvIssue::Kind::SuspiciousHeader));
        QVERIFY(
            firstIssue(t, CsvIssue::Kind::SuspiciousHeader)->message.contains(QStringLiteral("no header")));

        CsvOptions opt;
        opt.hasHeader = false;
        const CsvTable d = parse(text, opt);
        QCOMPARE(d.rowCount(), std::size_t(2));
        QCOMPARE(d.columnCount(), 5);
        QCOMPARE(qba(d.cell(0, 4)), QByteArray("trans_TransData_0"));
        QCOMPARE(d.column("Name"), -1);
        QVERIFY(d.issues().empty());
    }

    void textAfterClosingQuote()
    {
        const CsvTable t = parse("a,b\n\"x\"y,\"z\"\t\n");
        QCOMPARE(qba(t.cell(0, 0)), QByteArray("xy"));
        QCOMPARE(qba(t.cell(0, 1)), QByteArray("z\t")); // trailing blanks are not worth a warning
        QCOMPARE(countIssues(t, CsvIssue::Kind::TextAfterQuote), qsizetype(1));
    }

    void duplicateColumns()
    {
        const CsvTable t = parse("Name,Name,Type\n1,2,3\n");
        QCOMPARE(countIssues(t, CsvIssue::Kind::DuplicateColumn), qsizetype(1));
        QCOMPARE(t.column("Name"), 0);
    }

    void columnAliases()
    {
        const CsvTable k =
            parse("Step Id,Task Id,Stream Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),"
                  "Wait Time(us),Block Dim,Mix Block Dim\n");
        QCOMPARE(k.column(at::csvcol::TaskStartTime), 6);
        QCOMPARE(k.column("Start Time(us)"), 6);
        QCOMPARE(k.column("Task Start Time"), 6);
        QCOMPARE(k.column(at::csvcol::TaskDuration), 7);
        QCOMPARE(k.column(at::csvcol::TaskWaitTime), 8);
        QCOMPARE(k.column(at::csvcol::BlockNum), 9);
        QCOMPARE(k.column(at::csvcol::MixBlockNum), 10);
        QCOMPARE(k.column(at::csvcol::OpName), 3);
        QCOMPARE(k.column(at::csvcol::OpType), 4);
        QCOMPARE(k.column(at::csvcol::TaskType), 5);
        QCOMPARE(k.column(at::csvcol::TaskId), 1);
        QCOMPARE(k.column(at::csvcol::StreamId), 2);
        QCOMPARE(k.column("STEP ID"), 0); // case-insensitive fallback
        QCOMPARE(k.column("Context ID"), -1);
        QCOMPARE(k.columnExact("Task ID"), -1);

        const CsvTable g1 =
            parse("Model ID,Task ID,Stream ID,Op Name,OP Type,Task Type,Task Start Time,Block Num\n");
        QCOMPARE(g1.column("Start Time(us)"), 6);
        QCOMPARE(g1.column("Name"), 3);
        QCOMPARE(g1.column("Block Dim"), 7);
        QCOMPARE(g1.column("Physic Stream Id"), 2);
        // Exact names win over aliases.
        const CsvTable both = parse("Start Time(us),Task Start Time(us)\n");
        QCOMPARE(both.column("Start Time(us)"), 0);
        QCOMPARE(both.column("Task Start Time(us)"), 1);
    }

    void cellByColumnName()
    {
        const CsvTable t = parse("Name,Duration(us)\nop,1.5\n");
        QCOMPARE(qba(t.cell(0, "Task Duration(us)")), QByteArray("1.5"));
        QVERIFY(t.cell(0, "Missing Column").empty());
        QVERIFY(t.cell(0, -1).empty());
    }

    void missingFileIsReported()
    {
        const QString path = QStringLiteral("/nonexistent/dir/kernel_details.csv");
        const CsvTable t = CsvReader().readFile(path);
        QCOMPARE(t.rowCount(), std::size_t(0));
        QVERIFY(t.hasErrors());
        QCOMPARE(t.issues().front().kind, CsvIssue::Kind::FileError);
        QCOMPARE(t.issues().front().file, path);
    }

    void sliceIndexAndOrder()
    {
        QCOMPARE(at::csvSliceIndex(QStringLiteral("/x/op_summary_slice_0_20240101120000.csv")), 0);
        QCOMPARE(at::csvSliceIndex(QStringLiteral("op_summary_slice_12_20240101.csv")), 12);
        QCOMPARE(at::csvSliceIndex(QStringLiteral("op_summary_20240101.csv")), -1);
        const QStringList sorted =
            at::sortCsvSlices({QStringLiteral("t_slice_10_1.csv"), QStringLiteral("t_slice_2_1.csv"),
                               QStringLiteral("t_slice_0_1.csv")});
        QCOMPARE(sorted, QStringList({QStringLiteral("t_slice_0_1.csv"), QStringLiteral("t_slice_2_1.csv"),
                                      QStringLiteral("t_slice_10_1.csv")}));
    }

    void slicesAreConcatenatedInOrder()
    {
        QTemporaryDir dir;
        const QByteArray header = "Op Name,Task Start Time(us),Block Dim\r\n";
        QStringList paths;
        for (int k : {10, 0, 2, 1}) { // written out of order on purpose
            QByteArray body = header;
            for (int r = 0; r < 3; ++r)
                body += QByteArray("op") + QByteArray::number(k) + '_' + QByteArray::number(r) + ",1." +
                        QByteArray::number(r) + ",8\r\n";
            const QString path =
                dir.filePath(QStringLiteral("op_summary_slice_%1_20250101000000.csv").arg(k));
            QVERIFY(writeFile(path, body));
            paths << path;
        }
        const CsvTable t = at::readCsvSlices(paths);
        QCOMPARE(t.columnCount(), 3);
        QCOMPARE(t.rowCount(), std::size_t(12)); // repeated headers skipped
        QCOMPARE(qba(t.cell(0, 0)), QByteArray("op0_0"));
        QCOMPARE(qba(t.cell(3, 0)), QByteArray("op1_0"));
        QCOMPARE(qba(t.cell(6, 0)), QByteArray("op2_0"));
        QCOMPARE(qba(t.cell(11, 0)), QByteArray("op10_2"));
        QVERIFY(t.rowSource(11).endsWith(QStringLiteral("op_summary_slice_10_20250101000000.csv")));
        QCOMPARE(t.rowLine(11), std::uint64_t(4)); // line within its own slice
        QVERIFY(t.issues().empty());
    }

    void sliceWithRenamedHeaderIsRemapped()
    {
        QTemporaryDir dir;
        const QString p0 = dir.filePath(QStringLiteral("k_slice_0_1.csv"));
        const QString p1 = dir.filePath(QStringLiteral("k_slice_1_1.csv"));
        QVERIFY(writeFile(p0, "Op Name,Block Dim\na,1\n"));
        QVERIFY(writeFile(p1, "Block Num,Extra,Op Name\n2,x,b\n"));
        const CsvTable t = at::readCsvSlices({p1, p0});
        QCOMPARE(t.rowCount(), std::size_t(2));
        QCOMPARE(qba(t.cell(1, 0)), QByteArray("b"));
        QCOMPARE(qba(t.cell(1, 1)), QByteArray("2"));
        QCOMPARE(countIssues(t, CsvIssue::Kind::HeaderMismatch), qsizetype(1));
        QCOMPARE(firstIssue(t, CsvIssue::Kind::HeaderMismatch)->file, p1);
    }

    // Reading in blocks (the kernel table, issue 21) gives the rows, issues (same lines and byte offsets) and
    // ragged count of reading whole, whatever the block size: blocks of rows, each dropped after its call.
    void blocksMatchTheWholeParse_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("quirks") << QByteArray("\xEF\xBB\xBFName,Start Time(us),Note\r\n"
                                              "a,1.0\t,\"x\ny\"\r\n"
                                              "\r\n"
                                              "b,2.0,\"say \"\"hi\"\"\"\n"
                                              "c,3.0\n"
                                              "d,4.0,z,extra\r"
                                              "e,5.0,\"q\"tail\n"
                                              "f,6.0,last");
        QTest::newRow("cut inside quotes") << QByteArray("A,B\n1,2\n3,\"open\n4,5\n");
        QTest::newRow("header only") << QByteArray("A,B\n");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("blank lines") << QByteArray("\n\r\n\n");
        QTest::newRow("wide header") << QByteArray("A,B,C,D\n1,2,3,4\n");
        QByteArray ragged = "A,B\n";
        for (int i = 0; i < 30; ++i)
            ragged += QByteArray::number(i) + (i % 2 ? ",x,y\n" : "\n");
        QTest::newRow("ragged, capped") << ragged;
    }
    void blocksMatchTheWholeParse()
    {
        QFETCH(QByteArray, text);
        CsvOptions options;
        if (QByteArray(QTest::currentDataTag()) == "wide header")
            options.maxColumns = 3;
        const CsvReader reader(options);
        const std::string_view data(text.constData(), static_cast<std::size_t>(text.size()));
        const CsvTable whole = reader.parse(data, QStringLiteral("mem.csv"));
        for (const std::size_t blockRows :
             {std::size_t(1), std::size_t(2), std::size_t(3), std::size_t(1000)}) {
            QStringList rows;
            std::size_t blocks = 0;
            const CsvTable rest =
                reader.parseBlocks(data, QStringLiteral("mem.csv"), blockRows, [&](const CsvTable &block) {
                    QVERIFY(block.rowCount() >= 1 && block.rowCount() <= blockRows);
                    QCOMPARE(block.header(), whole.header());
                    rows << rowsText(block);
                    ++blocks;
                });
            QCOMPARE(rows, rowsText(whole));
            QCOMPARE(blocks, (whole.rowCount() + blockRows - 1) / blockRows);
            QCOMPARE(rest.rowCount(), std::size_t(0));
            QCOMPARE(rest.header(), whole.header());
            QCOMPARE(csvtest::issuesText(rest), csvtest::issuesText(whole));
            QCOMPARE(rest.raggedRowCount(), whole.raggedRowCount());
        }
    }

    // The stop is polled every 8,192 rows of the whole file, not of a block: the same rows are kept, with
    // the same warning.
    void blocksStopWhereTheWholeParseStops()
    {
        QByteArray text = "A,B\n";
        for (int i = 0; i < 20000; ++i)
            text += QByteArray::number(i) + ",x\n";
        const std::atomic<bool> stop{true};
        CsvOptions options;
        options.stop = &stop;
        const CsvReader reader(options);
        const std::string_view data(text.constData(), static_cast<std::size_t>(text.size()));
        const CsvTable whole = reader.parse(data, QStringLiteral("mem.csv"));
        QCOMPARE(whole.rowCount(), std::size_t(8192));
        std::size_t rows = 0;
        const CsvTable rest = reader.parseBlocks(data, QStringLiteral("mem.csv"), 1000,
                                                 [&](const CsvTable &block) { rows += block.rowCount(); });
        QCOMPARE(rows, std::size_t(8192));
        QCOMPARE(csvtest::issuesText(rest), csvtest::issuesText(whole));
        QVERIFY(csvtest::issuesText(rest).contains(QStringLiteral("reading stopped after 8192 rows")));
    }

    // Slices read in blocks and joined give readCsvSlices' rows and issues: a renamed header remapped by
    // name (one HeaderMismatch counting all the slice's rows), an unreadable and an empty slice reported.
    void sliceBlocksMatchReadCsvSlices()
    {
        QTemporaryDir dir;
        const QString p0 = dir.filePath(QStringLiteral("k_slice_0_1.csv"));
        const QString p1 = dir.filePath(QStringLiteral("k_slice_1_1.csv"));
        const QString p2 = dir.filePath(QStringLiteral("k_slice_2_1.csv"));
        const QString p3 = dir.filePath(QStringLiteral("k_slice_3_1.csv"));
        const QString missing = dir.filePath(QStringLiteral("k_slice_4_1.csv"));
        QVERIFY(writeFile(p0, "Op Name,Block Dim\na,1\nb,2,ragged\nc,3\n"));
        QVERIFY(writeFile(p1, "Block Num,Extra,Op Name\n2,x,d\n3,y,e\n4,z,f\n"));
        QVERIFY(writeFile(p2, ""));
        QVERIFY(writeFile(p3, "Op Name,Block Dim\ng,7\n"));
        const QStringList paths{p3, missing, p1, p2, p0};
        const CsvTable whole = at::readCsvSlices(paths);
        QCOMPARE(whole.rowCount(), std::size_t(7));
        for (const std::size_t blockRows : {std::size_t(1), std::size_t(2), std::size_t(100)}) {
            QStringList rows;
            // A block's rows name their own file, as the joined table's rows do.
            const CsvTable rest =
                at::readCsvSlicesInBlocks(paths, CsvReader(), blockRows, [&](const CsvTable &block) {
                    QCOMPARE(block.header(), whole.header());
                    rows << rowsText(block);
                });
            QCOMPARE(rest.rowCount(), std::size_t(0));
            QCOMPARE(rest.header(), whole.header());
            QCOMPARE(rest.sources(), whole.sources());
            QCOMPARE(csvtest::issuesText(rest), csvtest::issuesText(whole));
            QCOMPARE(rest.raggedRowCount(), whole.raggedRowCount());
            QCOMPARE(rows, rowsText(whole));
        }
        QVERIFY(csvtest::issuesText(whole).contains(QStringLiteral("3 rows remapped by column name")));
    }

    // A file read in blocks through its mapping: the same rows as readFile, and the file's pages read are
    // given back without changing what a later read of the mapping sees.
    void fileInBlocksMatchesReadFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("kernel_details.csv"));
        QByteArray text = "Name,Start Time(us),Shapes\n";
        for (int i = 0; i < 50000; ++i)
            text += "op" + QByteArray::number(i) + "," + QByteArray::number(i) + ".5,\"1,2;\n3\"\n";
        QVERIFY(writeFile(path, text));
        const CsvTable whole = CsvReader().readFile(path);
        QStringList rows;
        const CsvTable rest =
            CsvReader().readFileInBlocks(path, 8192, [&](const CsvTable &block) { rows << rowsText(block); });
        QCOMPARE(rows.size(), qsizetype(50000));
        QCOMPARE(rows, rowsText(whole));
        QVERIFY(rest.issues().empty());
        QCOMPARE(rest.sources(), std::vector<QString>{path});

        QString error;
        const std::unique_ptr<at::MappedFile> mapped = at::MappedFile::open(path, &error);
        QVERIFY2(mapped, qPrintable(error));
        rows.clear();
        CsvReader().readMappedInBlocks(*mapped, 1000,
                                       [&](const CsvTable &block) { rows << rowsText(block); });
        QCOMPARE(rows, rowsText(whole));
        // Every page was given back; reading the mapping again reads the file again.
        QCOMPARE(QByteArray(mapped->data(), qsizetype(mapped->size())), text);
    }
};

QTEST_GUILESS_MAIN(TestCsvReader)
#include "tst_csv_reader.moc"
