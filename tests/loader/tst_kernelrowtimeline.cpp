// Device tasks drawn from kernel_details.csv rows for a rank without trace_view.json or a database
// (issue 18 item 5): the real Qwen3 ranks 0 and 2, and synthetic tables for the lanes without a Stream ID.
// The expected values are read from the CSV text with the small splitter below, not with the parser's
// CsvReader.
#include "KernelJoin.h"
#include "LoadPlan.h"
#include "TestSupport.h"
#include "common/MappedFile.h"
#include "snapshot/SnapshotCache.h"
#include "summary/KernelRowTimelineReader.h"

#include <QDir>
#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <map>

using namespace at;

namespace {

QString qwenRank(int rank)
{
    return test::samplePath(
        QStringLiteral("msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2/rank_%1_ascend_pt").arg(rank));
}

// RFC 4180 records of a file as cells (quotes removed, "" unescaped), header first.
QList<QStringList> csvRecords(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QString text = QString::fromUtf8(file.readAll());
    QList<QStringList> records;
    QStringList record;
    QString cell;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < text.size() && text[i + 1] == QLatin1Char('"'))
                cell += text[++i];
            else if (c == QLatin1Char('"'))
                quoted = false;
            else
                cell += c;
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            record << cell;
            cell.clear();
        } else if (c == QLatin1Char('\n')) {
            record << cell;
            records << record;
            record.clear();
            cell.clear();
        } else if (c != QLatin1Char('\r')) {
            cell += c;
        }
    }
    if (!cell.isEmpty() || !record.isEmpty())
        records << (record << cell);
    return records;
}

// "1764246877073569.640\t" -> 1764246877073569640 (three decimals: the µs text is exact ns).
std::int64_t usTextToNs(QString text)
{
    text = text.trimmed();
    const qsizetype dot = text.indexOf(QLatin1Char('.'));
    const QString whole = dot < 0 ? text : text.left(dot);
    const QString fraction = (dot < 0 ? QString() : text.mid(dot + 1)).leftJustified(3, QLatin1Char('0'));
    return whole.toLongLong() * 1000 + fraction.left(3).toLongLong();
}

// Slices of the process with this name, per thread display name.
std::map<QString, std::size_t> slicesPerThread(const TraceModel &model, const QString &process)
{
    std::map<QString, std::size_t> result;
    for (std::size_t p = 0; p < model.processes().size(); ++p)
        if (model.processDisplayName(static_cast<int>(p)).startsWith(process))
            for (int t : model.processes()[p].threads)
                result[model.threadDisplayName(t)] +=
                    model.threads()[static_cast<std::size_t>(t)].slices.size();
    return result;
}

QString argValue(const std::vector<std::pair<QString, QString>> &args, const QString &key)
{
    for (const auto &[k, v] : args)
        if (k == key)
            return v;
    return {};
}

} // namespace

class TestKernelRowTimeline : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    QString writeRank(const QString &name, const QByteArray &csv)
    {
        const QString root = m_dir.filePath(name + QStringLiteral("/rank_0_ascend_pt"));
        const QString out = root + QStringLiteral("/ASCEND_PROFILER_OUTPUT");
        QDir().mkpath(out);
        QFile info(root + QStringLiteral("/profiler_info_0.json"));
        if (info.open(QIODevice::WriteOnly))
            info.write("{\"rank_id\": 0}");
        QFile file(out + QStringLiteral("/kernel_details.csv"));
        if (file.open(QIODevice::WriteOnly))
            file.write(csv);
        return root;
    }

    // Every expectation of one real rank, from its kernel_details.csv text.
    void checkRank(int rank)
    {
        const QString root = qwenRank(rank);
        const QList<QStringList> records =
            csvRecords(root + QStringLiteral("/ASCEND_PROFILER_OUTPUT/kernel_details.csv"));
        QVERIFY(records.size() > 1);
        const QStringList header = records.front();
        const auto startCol = header.indexOf(QStringLiteral("Start Time(us)"));
        const auto streamCol = header.indexOf(QStringLiteral("Stream ID"));
        const auto nameCol = header.indexOf(QStringLiteral("Name"));
        QVERIFY(startCol >= 0 && streamCol >= 0 && nameCol >= 0);
        const std::size_t rows = static_cast<std::size_t>(records.size() - 1);
        std::map<QString, std::size_t> perStream; // "Stream N" -> rows
        std::size_t withoutStream = 0;
        for (qsizetype r = 1; r < records.size(); ++r) {
            bool numeric = false;
            const qlonglong stream = records[r][streamCol].trimmed().toLongLong(&numeric);
            if (numeric)
                ++perStream[QStringLiteral("Stream %1").arg(stream)];
            else
                ++withoutStream;
        }

        // One parse feeds both the lanes and the kernel table: the file is mapped once in the load (it used
        // to be parsed twice, by this reader and by the summary tables reader).
        QStringList mapped;
        MappedFile::setMappedHookForTesting([&](const QString &path) { mapped << path; });
        const auto model = test::loadOrFail(root);
        MappedFile::setMappedHookForTesting({});
        QVERIFY(model);
        QCOMPARE(mapped.count(root + QStringLiteral("/ASCEND_PROFILER_OUTPUT/kernel_details.csv")),
                 qsizetype(1));
        QVERIFY2(mapped.size() > 1, qPrintable(mapped.join(QLatin1Char(' ')))); // the other tables are read
        // One slice per row: the Stream ID set is the Ascend Hardware threads, the others are communication.
        QCOMPARE(model->sliceCount(), rows);
        QCOMPARE(slicesPerThread(*model, QStringLiteral("Ascend Hardware")), perStream);
        QCOMPARE((slicesPerThread(*model, QStringLiteral("Communication"))),
                 (std::map<QString, std::size_t>{{QStringLiteral("Communication Ops"), withoutStream}}));
        for (const ProcessInfo &p : model->processes()) // besides the memory counters (memory_record.csv)
            QVERIFY(p.threads.empty() || p.layer == Layer::DeviceStreams || p.layer == Layer::Communication);

        // The first and last rows' slices start at the CSV text's ns exactly, under the row's name.
        for (const qsizetype r : {qsizetype(1), records.size() - 1}) {
            const std::int64_t expected = usTextToNs(records[r][startCol]);
            bool found = false;
            for (std::size_t t = 0; t < model->threads().size() && !found; ++t) {
                const SliceTable &slices = model->threads()[t].slices;
                for (std::uint32_t i = 0; i < slices.size() && !found; ++i)
                    found = slices.start(i) + model->origin() == expected &&
                            model->sliceName({static_cast<int>(t), i}) == records[r][nameCol];
            }
            QVERIFY2(found, qPrintable(records[r][startCol]));
        }

        // The kernel join ties every row to its own slice: same name, same start.
        QCOMPARE(model->kernels().size(), rows);
        QCOMPARE(model->kernels().unjoinedCount(), std::size_t(0));
        for (std::size_t r = 0; r < model->kernels().size(); ++r) {
            const KernelRecord &k = model->kernels().rows()[r];
            QVERIFY(k.joined());
            const SliceRef ref{k.thread, k.slice};
            QCOMPARE(model->threads()[static_cast<std::size_t>(k.thread)].slices.start(k.slice), k.start);
            QCOMPARE(model->sliceName(ref), model->strings().qstring(k.name));
            QCOMPARE(model->kernels().rowOfSlice(k.thread, k.slice), static_cast<std::int64_t>(r));
        }
        QVERIFY(!model->kernels().columns().empty()); // the metrics a selected slice shows

        // A slice's args are its row's columns.
        const KernelRecord &first = model->kernels().rows().front();
        const auto args = model->sliceArgs({first.thread, first.slice});
        QCOMPARE(argValue(args, QStringLiteral("Name")), records[1][nameCol]);
        QCOMPARE(argValue(args, QStringLiteral("Start Time(us)")), records[1][startCol].trimmed());
        QCOMPARE(argValue(args, QStringLiteral("Stream ID")), records[1][streamCol].trimmed());
        QCOMPARE(args.size(), static_cast<std::size_t>(std::count_if(
                                  records[1].begin(), records[1].end(),
                                  [](const QString &cell) { return !cell.trimmed().isEmpty(); })));

        // --summary lists the lanes with their slice counts and names the file the tasks were drawn from.
        const QString summary = formatSummaryText(*model, summarize(*model));
        for (const auto &[lane, count] : perStream)
            QVERIFY2(summary.contains(QStringLiteral("%1: %2 slices").arg(lane).arg(count)),
                     qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("Communication Ops: %1 slices").arg(withoutStream)),
                 qPrintable(summary));
        QVERIFY(summary.contains(QStringLiteral("device tasks drawn from kernel_details.csv")));

        const SourceGroup &group = model->groups().front();
        QVERIFY2(group.layout.contains(QStringLiteral("drawn from kernel_details.csv")),
                 qPrintable(group.layout));
        QCOMPARE(group.timelineFiles.size(), qsizetype(1));
        QVERIFY(group.timelineFiles.front().endsWith(QStringLiteral("kernel_details.csv")));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qputenv("AT_NO_SNAPSHOT", "1"); // cold loads, except in snapshotKeepsTheRowArgs
    }

    // The snapshot of such a rank reopens with the same lanes, and its slices' args are still re-read from
    // the rows (CsvRowArgsReader is a kind of args source the snapshot records).
    void snapshotKeepsTheRowArgs()
    {
        QTemporaryDir cache;
        QVERIFY(cache.isValid());
        const QByteArray oldCache = qgetenv("XDG_CACHE_HOME");
        qputenv("XDG_CACHE_HOME", QFile::encodeName(cache.path()));
        qunsetenv("AT_NO_SNAPSHOT");
        LoadOptions options = environmentLoadOptions();
        options.useSnapshotCache = true;
        options.writeSnapshotInBackground = false;
        LoadControl first, second;
        const LoadResult cold = loadTrace(qwenRank(0), options, first);
        const LoadResult reopened = loadTrace(qwenRank(0), options, second);
        qputenv("AT_NO_SNAPSHOT", "1");
        qputenv("XDG_CACHE_HOME", oldCache);
        QVERIFY(cold.model && reopened.model);
        QVERIFY(!cold.fromSnapshot);
        QVERIFY(reopened.fromSnapshot);
        QCOMPARE(reopened.model->sliceCount(), cold.model->sliceCount());
        QCOMPARE(reopened.model->kernels().unjoinedCount(), std::size_t(0));
        const KernelRecord &last = reopened.model->kernels().rows().back();
        const auto args = reopened.model->sliceArgs({last.thread, last.slice});
        QVERIFY(!args.empty());
        QCOMPARE(args, cold.model->sliceArgs({last.thread, last.slice}));
        QCOMPARE(argValue(args, QStringLiteral("Name")), reopened.model->strings().qstring(last.name));
    }

    void qwenRank0() { checkRank(0); }
    void qwenRank2() { checkRank(2); }

    // Rows without a Stream ID: communication rows go to the Communication lane, other rows (Level0 tables
    // have no ids at all) to the Tasks lane; a quoted cell holding a newline does not break a row's args;
    // the Device_id column picks the process.
    void rowsWithoutStreamIds()
    {
        const QString root =
            writeRank(QStringLiteral("level0"),
                      "Step Id,Device_id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait "
                      "Time(us),Block Dim\r\n"
                      "1,3,MatMul_1,N/A,N/A,1000.001\t,2.5,0,8\r\n"
                      "1,3,\"Odd\nName\",N/A,N/A,1010.000\t,1.0004,0,8\r\n"
                      "1,3,hcom_allReduce__1,hcom_allReduce_,COMMUNICATION,1020.123\t,30.0,0,0\r\n"
                      "1,3,Str\"ay,\"N/\nA\",N/A,1030.000\t,1.0,0,8\r\n");
        const auto model = test::loadOrFail(root);
        QVERIFY(model);
        QCOMPARE(slicesPerThread(*model, QStringLiteral("Ascend Hardware")),
                 (std::map<QString, std::size_t>{{QStringLiteral("Tasks (no Stream ID)"), 3}}));
        QCOMPARE(slicesPerThread(*model, QStringLiteral("Communication")),
                 (std::map<QString, std::size_t>{{QStringLiteral("Communication Ops"), 1}}));
        for (const ProcessInfo &p : model->processes())
            QCOMPARE(p.pid.number, 3);
        QCOMPARE(model->kernels().unjoinedCount(), std::size_t(0));
        const KernelRecord &odd = model->kernels().rows()[1];
        const SliceRef ref{odd.thread, odd.slice};
        QCOMPARE(model->sliceName(ref), QStringLiteral("Odd\nName"));
        QCOMPARE(model->threads()[static_cast<std::size_t>(odd.thread)].slices.duration(odd.slice),
                 1000); // half up
        const auto args = model->sliceArgs(ref);
        QCOMPARE(argValue(args, QStringLiteral("Name")), QStringLiteral("Odd\nName"));
        QCOMPARE(argValue(args, QStringLiteral("Duration(us)")), QStringLiteral("1.0004"));
        QCOMPARE(argValue(args, QStringLiteral("Block Dim")), QStringLiteral("8"));
        // A stray quote inside an unquoted cell, then a quoted cell holding a newline: the row's own bytes
        // cannot be found by a quote scan, and its args are still the whole row.
        const KernelRecord &stray = model->kernels().rows()[3];
        const auto strayArgs = model->sliceArgs({stray.thread, stray.slice});
        QCOMPARE(argValue(strayArgs, QStringLiteral("Name")), QStringLiteral("Str\"ay"));
        QCOMPARE(argValue(strayArgs, QStringLiteral("Type")), QStringLiteral("N/\nA"));
        QCOMPARE(argValue(strayArgs, QStringLiteral("Block Dim")), QStringLiteral("8"));
        const KernelRecord &comm = model->kernels().rows()[2];
        QCOMPARE(model->threads()[static_cast<std::size_t>(comm.thread)].slices.start(comm.slice) +
                     model->origin(),
                 std::int64_t(1020123));
    }

    // Bad rows: an unreadable start is skipped, a start beyond 2^62 ns is dropped from the lanes by the
    // builder (and kept, clamped, in the kernel table), a short row has no start; a table without a Name
    // column draws nothing. The good row keeps its exact time; nothing fails the load.
    void badRowsAreSkipped()
    {
        const QString root = writeRank(QStringLiteral("bad"),
                                       "Name,Type,Accelerator Core,Stream ID,Start Time(us),Duration(us)\n"
                                       "good,MatMul,AI_CORE,7,1736408883000000.000,5\n"
                                       "late,MatMul,AI_CORE,7,5000000000000000.000,5\n"
                                       "unreadable,MatMul,AI_CORE,7,N/A,5\n"
                                       "short,MatMul\n");
        const auto model = test::loadOrFail(root);
        QVERIFY(model);
        QCOMPARE(model->sliceCount(), std::size_t(1));
        QCOMPARE(slicesPerThread(*model, QStringLiteral("Ascend Hardware")),
                 (std::map<QString, std::size_t>{{QStringLiteral("Stream 7"), 1}}));
        const SliceRef good = test::uniqueSlice(*model, QStringLiteral("good"));
        QCOMPARE(model->threads()[static_cast<std::size_t>(good.thread)].slices.start(good.index) +
                     model->origin(),
                 std::int64_t(1736408883000000000));
        const QString warnings = model->warnings().join(QLatin1Char('\n'));
        QVERIFY2(warnings.contains(QStringLiteral("146 years")), qPrintable(warnings));
        // The kernel table made in the same pass says what the summary tables reader said: the short row
        // at its line, the rows without a start (the unreadable and the short one).
        const QString table = root + QStringLiteral("/ASCEND_PROFILER_OUTPUT/kernel_details.csv");
        QVERIFY2(
            warnings.contains(
                QStringLiteral("%1:5: warning: row has 2 cells, the header has 6 (row kept)").arg(table)),
            qPrintable(warnings));
        QVERIFY2(warnings.contains(
                     QStringLiteral("%1: 2 rows without a readable start time were skipped").arg(table)),
                 qPrintable(warnings));
        QCOMPARE(model->kernels().size(), std::size_t(2)); // good and late

        const QString noName = writeRank(QStringLiteral("noname"), "Op,Start Time(us)\nx,1.000\n");
        const auto empty = test::loadOrFail(noName);
        QVERIFY(empty);
        QCOMPARE(empty->sliceCount(), std::size_t(0));
        QVERIFY(!empty->groups().front().layout.contains(QStringLiteral("drawn from")));
    }

    // The memory guard's stop keeps what was read and says so; a cancel during it is a cancel.
    void memoryStopAndCancel()
    {
        LoadOptions tiny = environmentLoadOptions();
        tiny.memoryLimitBytes = 1; // the guard stops reading at once
        LoadControl limited;
        const LoadResult stopped = loadTrace(qwenRank(0), tiny, limited);
        QVERIFY(stopped.model && !stopped.cancelled());
        QCOMPARE(stopped.stop, LoadStop::MemoryLimit);
        QVERIFY2(
            stopped.model->warnings().join(QLatin1Char('\n')).contains(QStringLiteral("memory use reached")),
            qPrintable(stopped.model->warnings().join(QLatin1Char('\n'))));
        LoadControl cancelled;
        cancelled.cancel = true;
        const LoadResult cancel = loadTrace(qwenRank(0), tiny, cancelled);
        QVERIFY(cancel.cancelled() && !cancel.model);
    }

    // A rank with trace_view.json keeps its own timeline: the kernel-row reader is not planned for it.
    void onlyForSourcesWithoutTimeline()
    {
        const QString text = QFileInfo(QFileInfo(test::level1Rank0Trace()).absolutePath()).absolutePath();
        const LoadPlan plan = planLoad(text, LoadOptions{});
        QVERIFY(plan.chosen());
        for (const InputReader *reader : plan.chosen()->sources.front().readers)
            QVERIFY(reader != &kernelRowTimelineReader());
    }
};

QTEST_GUILESS_MAIN(TestKernelRowTimeline)
#include "tst_kernelrowtimeline.moc"
