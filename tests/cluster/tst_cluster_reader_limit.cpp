// The cluster reader's communication files read op by op under --memory-limit (issue #29 item 9;
// docs/PERFORMANCE.md, docs/ROBUSTNESS.md): on a copy of the real Qwen3 cluster whose rank 0
// communication.json is grown to about 48 MB by repeating its step, the real binary's peak RSS stays within
// 1.25 × limit + 32 MiB under a limit, and within 2× the file's size without one; the warning names the
// file, where reading stopped and how many ops were kept. A communication.json cut in half is still refused
// whole (the rank's ops then come from analysis.db, as before).
#include "../robustness/PeakRss.h"
#include "ClusterTestSupport.h"

#include "cluster/ClusterReader.h"

#include <QDirIterator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace at;
using namespace at::cluster;
using namespace at::test;

class TstClusterReaderLimit : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_root;
    QString m_json;            // rank 0's grown communication.json
    std::size_t m_stepOps = 0; // ops of the sample's one step
    int m_steps = 0;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_root = m_dir.filePath(QStringLiteral("cluster"));
        QVERIFY(copyTree(qwen3Cluster(), m_root));
        m_json = m_root + QStringLiteral("/rank_0_ascend_pt/ASCEND_PROFILER_OUTPUT/communication.json");
        m_stepOps = readCluster(m_root).rank(0)->ops.size();
        // {"step13": {...}} → {"step1": {...}, "step2": {...}, ...}, about 48 MB.
        const QByteArray text = readAll(m_json).trimmed();
        const qsizetype colon = text.indexOf(':');
        QVERIFY(text.startsWith("{\"step13\"") && colon > 0 && text.endsWith('}'));
        const QByteArray step = text.mid(colon + 1, text.size() - colon - 2).trimmed();
        QFile out(m_json);
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write("{");
        qint64 written = 0;
        while (written < 48 * 1024 * 1024) {
            const QByteArray separator = m_steps > 0 ? ", \"step" : "\"step";
            ++m_steps;
            const QByteArray member = separator + QByteArray::number(m_steps) + "\": " + step;
            written += out.write(member);
        }
        out.write("}");
    }

    // In process: every op of every step is read, in file order, with the step of its key.
    void grownFileReadWhole()
    {
        const ClusterModel model = readCluster(m_root);
        QVERIFY2(model.warnings.isEmpty(), qPrintable(model.warnings.join(QLatin1Char('\n'))));
        const Rank *rank0 = model.rank(0);
        QCOMPARE(rank0->ops.size(), m_stepOps * std::size_t(m_steps));
        QCOMPARE(rank0->ops.front().step, std::int64_t(1));
        QCOMPARE(rank0->ops.back().step, std::int64_t(m_steps));
        QCOMPARE(rank0->ops[m_stepOps].name, rank0->ops.front().name);
        QCOMPARE(rank0->ops[m_stepOps].elapse, rank0->ops.front().elapse);
    }

    // A limit the process is already over: nothing is read from the op files, each named with the limit.
    void limitAlreadyReached()
    {
        const ClusterModel model = readCluster(m_root, {{}, std::uint64_t(4) << 20});
        QCOMPARE(model.ranks.size(), std::size_t(4));
        for (const Rank &r : model.ranks) {
            QVERIFY(r.ops.empty());
            QCOMPARE(r.steps.size(), std::size_t(1)); // step_trace_time.csv is still read
        }
        const QStringList stopped = model.warnings.filter(QStringLiteral("reading stopped at"));
        QVERIFY2(stopped.size() == 8, qPrintable(model.warnings.join(QLatin1Char('\n'))));
        QVERIFY(stopped.first().startsWith(m_json + QStringLiteral(": reading stopped at ")));
        QVERIFY(stopped.first().contains(QStringLiteral("25 % of the")));
        QVERIFY(stopped.first().contains(QStringLiteral("the 0 ops read before were kept")));
    }

    // The real binary under --memory-limit 64M: within 1.25 × 64 MiB + 32 MiB, some ops kept and named.
    void cliHoldsTheLimit()
    {
        if (kSanitized)
            QSKIP("the margin is a property of the normal build");
        const PeakRun run =
            runMeasured({QStringLiteral("--cluster"), QStringLiteral("--json"), QStringLiteral("--no-cache"),
                         QStringLiteral("--memory-limit"), QStringLiteral("64M"), m_root});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.peakKiB > 0 && run.peakKiB <= allowedPeakKiB(64),
                 qPrintable(QStringLiteral("peak %1 KiB").arg(run.peakKiB)));
        static const QRegularExpression stopped(
            QStringLiteral("%1: reading stopped at \\S+ of step\\d+ because memory use reached the limit for "
                           "reading a cluster's operators .*; the (\\d+) ops read before were kept")
                .arg(QRegularExpression::escape(m_json)));
        const QRegularExpressionMatch m = stopped.match(run.err);
        QVERIFY2(m.hasMatch(), qPrintable(run.err.left(2000)));
        const std::size_t kept = m.captured(1).toULongLong();
        QVERIFY(kept > 0 && kept < m_stepOps * std::size_t(m_steps));
    }

    // Without a limit the whole file is read at less than twice its size (it took 11× as a whole tree).
    void cliReadsAtLessThanTwiceTheSize()
    {
        if (kSanitized)
            QSKIP("the margin is a property of the normal build");
        const PeakRun run = runMeasured({QStringLiteral("--cluster"), QStringLiteral("--no-cache"),
                                         QStringLiteral("--memory-limit"), QStringLiteral("8G"), m_root});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(!run.err.contains(QStringLiteral("reading stopped")), qPrintable(run.err.left(2000)));
        const long fileKiB = static_cast<long>(QFileInfo(m_json).size() / 1024);
        QVERIFY2(run.peakKiB > 0 && run.peakKiB <= 2 * fileKiB,
                 qPrintable(QStringLiteral("peak %1 KiB for a %2 KiB file").arg(run.peakKiB).arg(fileKiB)));
    }

    // Cut in half: not valid JSON, refused whole with the file named; analysis.db's ops are read instead.
    void truncatedFileIsRefusedWhole()
    {
        QTemporaryDir dir;
        const QString root = dir.filePath(QStringLiteral("cluster"));
        QVERIFY(copyTree(qwen3Cluster(), root));
        const QString json =
            root + QStringLiteral("/rank_0_ascend_pt/ASCEND_PROFILER_OUTPUT/communication.json");
        const QByteArray text = readAll(json);
        writeTextFile(json, text.left(text.size() / 2));
        const ClusterModel model = readCluster(root);
        QVERIFY2(model.warnings.filter(json + QStringLiteral(": not valid JSON")).size() == 1,
                 qPrintable(model.warnings.join(QLatin1Char('\n'))));
        QVERIFY(QFile::remove(json));
        const ClusterModel fromDatabase = readCluster(root);
        QCOMPARE(model.rank(0)->ops.size(), fromDatabase.rank(0)->ops.size());
        QVERIFY(!model.rank(0)->ops.empty());
        QCOMPARE(model.rank(0)->ops.front().elapse, fromDatabase.rank(0)->ops.front().elapse);
    }
};

int main(int argc, char **argv)
{
    if (argc > 2 && qstrcmp(argv[1], "--peak-rss-of") == 0)
        return peakRssWrapper(argc, argv);
    QCoreApplication app(argc, argv);
    TstClusterReaderLimit test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_cluster_reader_limit.moc"
