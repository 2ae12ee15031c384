// Bad values in a cluster's summary files (issue #29 items 11 and 3; docs/ROBUSTNESS.md "Cluster values"),
// on copies of the real Qwen3 4-rank cluster with one value edited: a step time or an op time that is not
// finite, negative or beyond 2^62 ns rejects its row or op; sums that would leave the profile range reject
// the record that overflows them; an op that is not an object is skipped; a rank id beyond int skips its
// folder instead of taking rank 0's place; a symbolic link named like a rank folder is read. Every case
// is named in a warning with the file and the value.
#include "ClusterTestSupport.h"
#include "FuzzClusterEntryPoint.h"
#include "TestPaths.h"

#include "cluster/ClusterReader.h"

#include <QDirIterator>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace at;
using namespace at::cluster;
using namespace at::test;

namespace {

// The warnings that name `file` and contain every one of `parts`.
QStringList warningsAbout(const ClusterModel &model, const QString &file, const QStringList &parts)
{
    QStringList found;
    for (const QString &w : model.warnings) {
        if (!w.contains(file))
            continue;
        if (std::all_of(parts.begin(), parts.end(), [&](const QString &p) { return w.contains(p); }))
            found << w;
    }
    return found;
}

const Rank *rankOf(const ClusterModel &model, int id)
{
    return model.rank(id);
}

} // namespace

class TstClusterReaderValues : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_root;

    QString rankFile(int rank, const QString &name) const
    {
        return m_root + QStringLiteral("/rank_%1_ascend_pt/ASCEND_PROFILER_OUTPUT/%2").arg(rank).arg(name);
    }

    // Replaces the first `from` in a file by `to`.
    void edit(const QString &path, const QByteArray &from, const QByteArray &to, int times = 1)
    {
        QByteArray text = readAll(path);
        for (int i = 0; i < times; ++i) {
            const qsizetype at = text.indexOf(from);
            QVERIFY2(at >= 0, from.constData());
            text.replace(at, from.size(), to);
        }
        writeTextFile(path, text);
    }

    // rank 0's step_trace_time.csv with a second row, step 14, whose Computing is `computing`.
    QString addStepRow(const QByteArray &computing)
    {
        const QString csv = rankFile(0, QStringLiteral("step_trace_time.csv"));
        QByteArray text = readAll(csv);
        if (!text.endsWith('\n'))
            text += '\n';
        text += "0,14," + computing + ",420174.26,0.0,420174.26,158558.0,810022.25,0,420174.26,206.25\n";
        writeTextFile(csv, text);
        return csv;
    }

private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_root = m_dir.filePath(QStringLiteral("cluster%1").arg(QDateTime::currentMSecsSinceEpoch()));
        QVERIFY(copyTree(qwen3Cluster(), m_root));
        const ClusterModel clean = readCluster(m_root);
        QVERIFY2(clean.warnings.isEmpty(), qPrintable(clean.warnings.join(QLatin1Char('\n'))));
    }

    // "nan", "inf", "1e400", text, a negative time and 9e15 µs (9e18 ns, beyond 2^62): the row is
    // skipped, the good row of the same file kept.
    void badStepTimeSkipsTheRow_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("reason");
        QTest::newRow("nan") << QByteArray("nan") << QStringLiteral("not a finite number");
        QTest::newRow("inf") << QByteArray("inf") << QStringLiteral("not a finite number");
        QTest::newRow("1e400") << QByteArray("1e400") << QStringLiteral("not a finite number");
        QTest::newRow("text") << QByteArray("fast") << QStringLiteral("not a finite number");
        QTest::newRow("negative") << QByteArray("-5.5") << QStringLiteral("negative");
        QTest::newRow("beyond 2^62") << QByteArray("9e15")
                                     << QStringLiteral("beyond what a profile can hold");
    }
    void badStepTimeSkipsTheRow()
    {
        QFETCH(QByteArray, value);
        QFETCH(QString, reason);
        const QString csv = addStepRow(value);
        const ClusterModel model = readCluster(m_root);
        const Rank *rank0 = rankOf(model, 0);
        QVERIFY(rank0);
        QCOMPARE(rank0->steps.size(), std::size_t(1));
        QCOMPARE(rank0->steps.front().step, std::int64_t(13));
        QCOMPARE(rank0->steps.front().computing, TimeNs(231290100));
        const QStringList w = warningsAbout(
            model, csv,
            {QStringLiteral("line 3"), QStringLiteral("Computing is \"%1\"").arg(QString::fromLatin1(value)),
             reason, QStringLiteral("1 row(s) like this skipped")});
        QVERIFY2(w.size() == 1, qPrintable(model.warnings.join(QLatin1Char('\n'))));
        QCOMPARE(model.ranks.size(), std::size_t(4));
    }

    // Two steps of 4e15 µs each (each below 2^62 ns, their sum beyond it): the second is rejected.
    void stepSumsStayInRange()
    {
        const QString csv = rankFile(0, QStringLiteral("step_trace_time.csv"));
        edit(csv, "231290.09999999995", "4e15");
        addStepRow("4e15");
        const ClusterModel model = readCluster(m_root);
        const Rank *rank0 = rankOf(model, 0);
        QVERIFY(rank0);
        QCOMPARE(rank0->steps.size(), std::size_t(1));
        QCOMPARE(rank0->steps.front().computing, TimeNs(4'000'000'000'000'000'000));
        QCOMPARE(warningsAbout(model, csv,
                               {QStringLiteral("line 3"), QStringLiteral("Computing is \"4e15\""),
                                QStringLiteral("the rank's total beyond 2^62 ns")})
                     .size(),
                 1);
    }

    // Ops that are a number, a string or an array are skipped (they used to become 0-ms rows).
    void opThatIsNotAnObjectIsSkipped()
    {
        const QString json = rankFile(0, QStringLiteral("communication.json"));
        const std::size_t before = readCluster(m_root).rank(0)->ops.size();
        edit(json, "{\"p2p\": {", "{\"p2p\": {\"bogus@1\": 5, \"worded@1\": \"slow\", \"listed@1\": [1], ");
        const ClusterModel model = readCluster(m_root);
        QCOMPARE(model.rank(0)->ops.size(), before);
        QCOMPARE(warningsAbout(model, json,
                               {QStringLiteral("op bogus@1 is 5, not an object"),
                                QStringLiteral("3 op(s) like this skipped")})
                     .size(),
                 1);
    }

    void badOpTimeSkipsTheOp_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("reason");
        QTest::newRow("string nan") << QByteArray("\"nan\"") << QStringLiteral("not a finite number");
        QTest::newRow("1e400") << QByteArray("1e400") << QStringLiteral("not a finite number");
        QTest::newRow("negative") << QByteArray("-0.5") << QStringLiteral("negative");
        QTest::newRow("9e12 ms") << QByteArray("9e12") << QStringLiteral("beyond what a profile can hold");
    }
    void badOpTimeSkipsTheOp()
    {
        QFETCH(QByteArray, value);
        QFETCH(QString, reason);
        const QString json = rankFile(0, QStringLiteral("communication.json"));
        const ClusterModel clean = readCluster(m_root);
        edit(json, "\"Elapse Time(ms)\": 0.43614", "\"Elapse Time(ms)\": " + value);
        const ClusterModel model = readCluster(m_root);
        QCOMPARE(model.rank(0)->ops.size(), clean.rank(0)->ops.size() - 1);
        for (const CommOp &op : model.rank(0)->ops)
            QVERIFY(op.elapse >= 0 && op.elapse < (TimeNs(1) << 62));
        const QString shown = QString::fromLatin1(value).remove(QLatin1Char('"'));
        QCOMPARE(warningsAbout(model, json,
                               {QStringLiteral("op hcom_batchSendRecv__128_3_1@3985310405473756128"),
                                QStringLiteral("Elapse Time(ms) is \"%1\"").arg(shown), reason,
                                QStringLiteral("1 op(s) like this skipped")})
                     .size(),
                 1);
    }

    // Five ops of 4e12 ms (each in range): the rank's elapse total would overflow, so only the first is
    // kept and the others are named; every rank total of the model stays in range.
    void opSumsStayInRange()
    {
        const QString json = rankFile(0, QStringLiteral("communication.json"));
        QByteArray text = readAll(json);
        const ClusterModel clean = readCluster(m_root);
        int edited = 0;
        for (qsizetype at = 0; edited < 5 && (at = text.indexOf("\"Elapse Time(ms)\": ", at)) >= 0;
             ++edited) {
            at += qsizetype(sizeof("\"Elapse Time(ms)\": ") - 1);
            const qsizetype end = text.indexOf(',', at);
            text.replace(at, end - at, "4e12");
        }
        QCOMPARE(edited, 5);
        writeTextFile(json, text);
        const ClusterModel model = readCluster(m_root);
        QCOMPARE(model.rank(0)->ops.size(), clean.rank(0)->ops.size() - 4);
        TimeNs total = 0;
        for (const CommOp &op : model.rank(0)->ops) {
            QVERIFY(!__builtin_add_overflow(total, op.elapse, &total));
            QVERIFY(total < (TimeNs(1) << 62));
        }
        QCOMPARE(warningsAbout(model, json,
                               {QStringLiteral("Elapse Time(ms) is \"4000000000000\""),
                                QStringLiteral("the rank's total beyond 2^62 ns"),
                                QStringLiteral("4 op(s) like this skipped")})
                     .size(),
                 1);
    }

    // analysis.db's StepTraceTime read when step_trace_time.csv is absent: a REAL beyond 2^62 ns and the
    // text 'nan' reject their rows.
    void badDatabaseStepTime()
    {
        QVERIFY(QFile::remove(rankFile(0, QStringLiteral("step_trace_time.csv"))));
        const QString db = rankFile(0, QStringLiteral("analysis.db"));
        {
            QSqlDatabase connection =
                QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("edit"));
            connection.setDatabaseName(db);
            QVERIFY(connection.open());
            QSqlQuery q(connection);
            QVERIFY2(
                q.exec(QStringLiteral("INSERT INTO StepTraceTime SELECT deviceId, 14, 9e15, "
                                      "communication_not_overlapped, overlapped, communication, free, stage, "
                                      "bubble, communication_not_overlapped_and_exclude_receive, preparing "
                                      "FROM StepTraceTime")),
                qPrintable(q.lastError().text()));
            QVERIFY2(
                q.exec(QStringLiteral("INSERT INTO StepTraceTime SELECT deviceId, 15, 'nan', "
                                      "communication_not_overlapped, overlapped, communication, free, stage, "
                                      "bubble, communication_not_overlapped_and_exclude_receive, preparing "
                                      "FROM StepTraceTime WHERE step = 13")),
                qPrintable(q.lastError().text()));
            q.finish();
            connection.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("edit"));
        const ClusterModel model = readCluster(m_root);
        const Rank *rank0 = model.rank(0);
        QVERIFY(rank0);
        QCOMPARE(rank0->steps.size(), std::size_t(1));
        QCOMPARE(rank0->steps.front().step, std::int64_t(13));
        QCOMPARE(rank0->steps.front().source, BreakdownSource::Database);
        QCOMPARE(warningsAbout(model, db,
                               {QStringLiteral("StepTraceTime row 2"), QStringLiteral("Computing is \"9"),
                                QStringLiteral("beyond what a profile can hold")})
                     .size(),
                 1);
        QCOMPARE(warningsAbout(model, db,
                               {QStringLiteral("StepTraceTime row 3"), QStringLiteral("Computing is \"nan\""),
                                QStringLiteral("not a finite number")})
                     .size(),
                 1);
    }

    // profiler_info_99999999999.json used to wrap to rank 0 and, sorted first, push the real rank 0 out.
    void rankIdBeyondIntSkipsTheFolder()
    {
        const QString extra = m_root + QStringLiteral("/a_copy_ascend_pt");
        QVERIFY(copyTree(m_root + QStringLiteral("/rank_1_ascend_pt"), extra));
        QVERIFY(QFile::rename(extra + QStringLiteral("/profiler_info_1.json"),
                              extra + QStringLiteral("/profiler_info_99999999999.json")));
        const ClusterModel model = readCluster(m_root);
        QCOMPARE(model.ranks.size(), std::size_t(4));
        for (int r = 0; r < 4; ++r)
            QCOMPARE(model.ranks[std::size_t(r)].folder,
                     m_root + QStringLiteral("/rank_%1_ascend_pt").arg(r));
        const QStringList w =
            warningsAbout(model, extra + QStringLiteral("/profiler_info_99999999999.json"),
                          {QStringLiteral("rank id 99999999999"), QStringLiteral("folder skipped")});
        QVERIFY2(w.size() == 1, qPrintable(model.warnings.join(QLatin1Char('\n'))));
        QCOMPARE(model.warnings.size(), 1);
    }

    // Rank folders gathered by symbolic links are read (named in a warning with their target); a link
    // that leads nowhere is named and skipped.
    void symlinkedRankFoldersAreRead()
    {
        const QString gathered = m_dir.filePath(QStringLiteral("gathered"));
        QVERIFY(QDir().mkpath(gathered));
        for (int r = 0; r < 4; ++r)
            QVERIFY(QFile::link(m_root + QStringLiteral("/rank_%1_ascend_pt").arg(r),
                                gathered + QStringLiteral("/rank_%1_ascend_pt").arg(r)));
        QVERIFY(QFile::link(m_dir.filePath(QStringLiteral("nowhere")),
                            gathered + QStringLiteral("/rank_9_ascend_pt")));
        QVERIFY(isClusterFolder(gathered));
        const ClusterModel model = readCluster(gathered);
        const ClusterModel direct = readCluster(m_root);
        QCOMPARE(model.ranks.size(), std::size_t(4));
        for (std::size_t r = 0; r < 4; ++r) {
            QCOMPARE(model.ranks[r].steps.size(), direct.ranks[r].steps.size());
            QCOMPARE(model.ranks[r].steps.front().computing, direct.ranks[r].steps.front().computing);
            QCOMPARE(model.ranks[r].ops.size(), direct.ranks[r].ops.size());
            QCOMPARE(warningsAbout(
                         model, gathered + QStringLiteral("/rank_%1_ascend_pt").arg(r),
                         {QStringLiteral("is a symbolic link to %1/rank_%2_ascend_pt").arg(m_root).arg(r),
                          QStringLiteral("read as a rank folder")})
                         .size(),
                     1);
        }
        QCOMPARE(warningsAbout(model, gathered + QStringLiteral("/rank_9_ascend_pt"),
                               {QStringLiteral("which is not a folder; skipped")})
                     .size(),
                 1);
    }

    // The saved fuzz_cluster inputs (tests/data/fuzz/cluster: the bad values of this suite as single files):
    // fuzzCluster aborts when a rank is lost or a time or a rank's sum of times leaves the profile range.
    void fuzzSeedsReplay()
    {
        const QDir seeds((at::test::testDataDir() + QStringLiteral("/fuzz/cluster")));
        const QFileInfoList files = seeds.entryInfoList(QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 8);
        for (const QFileInfo &file : files) {
            const QByteArray bytes = readAll(file.absoluteFilePath());
            at::fuzz::fuzzCluster(reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                                  static_cast<std::size_t>(bytes.size()));
        }
    }
};

QTEST_GUILESS_MAIN(TstClusterReaderValues)
#include "tst_cluster_reader_values.moc"
