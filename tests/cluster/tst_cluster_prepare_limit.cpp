// Prepared rank summaries under --memory-limit (issue #29 item 9; docs/ROBUSTNESS.md, docs/PERFORMANCE.md):
// on a copy of the real Qwen3 cluster whose rank 0 communication.json is grown to about 64 MB (its step
// repeated), each rank prepared by the real binary (`--prepare`). The summary is read streamed, once: within
// twice its size without a limit; a summary that does not fit under the limit is not used, with a warning
// naming it and the limit, and the rank is read from its files (cut short there too, and said so); --prepare
// cut short by the limit saves no summary; an untouched summary under a sufficient limit is still used, and
// its checksum, made in the same read, still finds an edited number far into the file; --advise reads a
// rank's communication files under the limit.
#include "../robustness/PeakRss.h"
#include "ClusterTestSupport.h"
#include "TestPaths.h"

#include "cluster/ClusterReader.h"
#include "cluster/JsonTree.h"
#include "cluster/PreparedSummary.h"
#include "common/MappedFile.h"

#include <QCryptographicHash>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace at;
using namespace at::cluster;
using namespace at::test;

class TstClusterPrepareLimit : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_root, m_cache;
    QStringList m_ranks;
    QString m_summary0; // rank 0's prepared summary (about 50 MB)

    struct Run
    {
        int exitCode = -1;
        QString out, err;
    };
    static Run runApp(const QStringList &args)
    {
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.remove(QStringLiteral("AT_MEMORY_LIMIT"));
        p.setProcessEnvironment(e);
        p.start(at::test::appBinary(), args);
        if (!p.waitForFinished(300000))
            p.kill();
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
    }

    static QJsonObject jsonOf(const QString &path) { return QJsonDocument::fromJson(readAll(path)).object(); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_root = m_dir.filePath(QStringLiteral("cluster"));
        m_cache = m_dir.filePath(QStringLiteral("cache"));
        QVERIFY(copyTree(qwen3Cluster(), m_root));
        // {"step13": {...}} → {"step1": {...}, "step2": {...}, ...}, about 64 MB.
        const QString json =
            m_root + QStringLiteral("/rank_0_ascend_pt/ASCEND_PROFILER_OUTPUT/communication.json");
        const QByteArray text = readAll(json).trimmed();
        const qsizetype colon = text.indexOf(':');
        QVERIFY(text.startsWith("{\"step13\"") && colon > 0 && text.endsWith('}'));
        const QByteArray step = text.mid(colon + 1, text.size() - colon - 2).trimmed();
        QFile out(json);
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write("{");
        qint64 written = 0;
        for (int steps = 1; written < 64 * 1024 * 1024; ++steps)
            written +=
                out.write((steps > 1 ? ", \"step" : "\"step") + QByteArray::number(steps) + "\": " + step);
        out.write("}");
        out.close();
        // Each rank prepared as a scheduler would: one process of the real binary, no limit.
        m_ranks = findRankFolders(m_root);
        QCOMPARE(m_ranks.size(), 4);
        for (const QString &rank : m_ranks) {
            const Run prepared =
                runApp({QStringLiteral("--prepare"), rank, QStringLiteral("--cache"), m_cache});
            QVERIFY2(prepared.exitCode == 0, qPrintable(prepared.err));
        }
        m_summary0 = preparedSummaryPath(m_ranks[0], m_cache);
        QVERIFY(QFileInfo(m_summary0).size() > 40 * 1024 * 1024);
    }

    // The walker under the streamed summary (JsonTree.h walkJsonFile): members and elements with their keys
    // (escaped keys unescaped), arrays and objects walked only where asked, every byte handed over once and
    // in order (across the pages given back every 8 MiB: the 51 MB summary's bytes hash as the file does),
    // a stop, and bad JSON named with the key it is near.
    void walkerVisitsWhatItIsAskedTo()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("walk.json"));
        const QByteArray text =
            "{\"a\": 1, \"b\\\"x\": {\"c\": [1, {\"d\": \"e\"}, [2,3], \"s\\\"]\"], \"f\": null}, "
            "\"g\": [ ], \"h\": {\"i\": true}}";
        writeTextFile(path, text);
        QStringList seen;
        QByteArray bytes;
        JsonWalk walk;
        walk.walkInto = [](const std::vector<std::string> &keys) {
            return keys == std::vector<std::string>{"b\"x"} ||
                   keys == std::vector<std::string>{"b\"x", "c"} || keys == std::vector<std::string>{"g"};
        };
        auto describe = [](const char *what, const std::vector<std::string> &keys, const JsonNode &value) {
            QStringList names;
            for (const std::string &k : keys)
                names << QString::fromStdString(k);
            return QStringLiteral("%1 %2 %3/%4/%5")
                .arg(QLatin1String(what), names.join(QLatin1Char('.')))
                .arg(int(value.type))
                .arg(value.string())
                .arg(value.members.size() + value.items.size());
        };
        walk.member = [&](const std::vector<std::string> &keys, const JsonNode &value) {
            seen << describe("member", keys, value);
            return true;
        };
        walk.element = [&](const std::vector<std::string> &keys, const JsonNode &value) {
            seen << describe("element", keys, value);
            return true;
        };
        walk.bytes = [&](std::size_t offset, std::string_view chunk) {
            QCOMPARE(offset, std::size_t(bytes.size()));
            bytes.append(chunk.data(), qsizetype(chunk.size()));
        };
        QString error;
        bool stopped = true;
        QVERIFY2(walkJsonFile(path, walk, &error, &stopped), qPrintable(error));
        QVERIFY(!stopped);
        const QStringList expected{QStringLiteral("member a 2/1/0"),
                                   QStringLiteral("element b\"x.c 2/1/0"),
                                   QStringLiteral("element b\"x.c 5//1"),
                                   QStringLiteral("element b\"x.c 4//2"),
                                   QStringLiteral("element b\"x.c 3/s\"]/0"),
                                   QStringLiteral("member b\"x.f 0//0"),
                                   QStringLiteral("member h 5//1")};
        QCOMPARE(seen, expected);
        QCOMPARE(bytes, text);

        // Stopped at the second element: nothing after it is visited.
        seen.clear();
        walk.bytes = nullptr;
        walk.element = [&](const std::vector<std::string> &keys, const JsonNode &value) {
            seen << describe("element", keys, value);
            return seen.size() < 3;
        };
        QVERIFY(walkJsonFile(path, walk, &error, &stopped));
        QVERIFY(stopped);
        QCOMPARE(seen, expected.mid(0, 3));

        walk.element = nullptr;
        writeTextFile(path, "{\"a\": 1, \"g\": [1, 2,]}");
        QVERIFY(!walkJsonFile(path, walk, &error));
        QCOMPARE(error, path + QStringLiteral(": not valid JSON near key \"g\""));
        writeTextFile(path, "[1]");
        QVERIFY(!walkJsonFile(path, walk, &error));
        QCOMPARE(error, path + QStringLiteral(": not a JSON object"));

        // Every byte of the large summary, once, in order.
        QCryptographicHash hash(QCryptographicHash::Sha256);
        std::size_t next = 0;
        JsonWalk summary;
        summary.walkInto = [](const std::vector<std::string> &) { return true; };
        summary.bytes = [&](std::size_t offset, std::string_view chunk) {
            QCOMPARE(offset, next);
            next += chunk.size();
            hash.addData(QByteArrayView(chunk.data(), qsizetype(chunk.size())));
        };
        QVERIFY2(walkJsonFile(m_summary0, summary, &error), qPrintable(error));
        QCOMPARE(next, std::size_t(QFileInfo(m_summary0).size()));
        QCOMPARE(hash.result(), QCryptographicHash::hash(readAll(m_summary0), QCryptographicHash::Sha256));
    }

    // An untouched summary under a sufficient limit is used, read once (the one file mapped is the summary)
    // and it gives what the rank's files give.
    void untouchedSummaryIsUsedUnderASufficientLimit()
    {
        const ClusterModel plain = readCluster(m_root);
        QStringList mapped;
        MappedFile::setMappedHookForTesting([&](const QString &path) { mapped << path; });
        const ClusterModel prepared = readCluster(m_root, {m_cache, std::uint64_t(4) << 30});
        MappedFile::setMappedHookForTesting({});
        QVERIFY2(prepared.warnings.isEmpty(), qPrintable(prepared.warnings.join(QLatin1Char('\n'))));
        QCOMPARE(mapped.size(), 4);
        QCOMPARE(mapped.count(m_summary0), 1);
        QCOMPARE(prepared.ranks.size(), std::size_t(4));
        for (const Rank &r : prepared.ranks)
            QCOMPARE(r.preparedSummary, preparedSummaryPath(r.folder, m_cache));
        const Rank &a = *plain.rank(0);
        const Rank &b = *prepared.rank(0);
        QVERIFY(a.ops.size() > 40000);
        QCOMPARE(b.ops.size(), a.ops.size());
        QCOMPARE(b.links.size(), a.links.size());
        for (const std::size_t i : {std::size_t(0), a.ops.size() / 2, a.ops.size() - 1}) {
            QCOMPARE(b.ops[i].step, a.ops[i].step);
            QCOMPARE(b.ops[i].name, a.ops[i].name);
            QCOMPARE(b.ops[i].elapse, a.ops[i].elapse);
            QCOMPARE(b.ops[i].bandwidth.size(), a.ops[i].bandwidth.size());
        }
        QCOMPARE(b.steps.front().computing, a.steps.front().computing);
        QCOMPARE(b.filesRead, a.filesRead);
        QCOMPARE(prepared.groups.size(), plain.groups.size());
    }

    // The checksum is made while the file is streamed: an op's number edited far into the file (past the
    // pages already given back) is found, and a summary cut short is still refused whole.
    void editedNumberFarIntoTheFileIsFound()
    {
        const QByteArray good = readAll(m_summary0);
        const qsizetype at = good.lastIndexOf("\"elapse\":\"");
        QVERIFY(at > 32 * 1024 * 1024);
        const qsizetype from = at + 10;
        const qsizetype to = good.indexOf('"', from);
        QByteArray edited = good;
        edited.replace(from, to - from, QByteArray::number(good.mid(from, to - from).toLongLong() + 1));
        QVERIFY(edited != good);
        auto readWith = [&](const QByteArray &bytes, std::uint64_t limit) {
            QFile::remove(m_summary0);
            writeTextFile(m_summary0, bytes);
            QString why;
            const bool used = readPreparedSummary(m_ranks[0], m_cache, &why, limit).has_value();
            return std::make_pair(used, why);
        };
        for (const std::uint64_t limit : {std::uint64_t(0), std::uint64_t(4) << 30}) {
            const auto [used, why] = readWith(edited, limit);
            QVERIFY(!used);
            QVERIFY2(why.contains(m_summary0) && why.contains(QStringLiteral("its checksum does not match")),
                     qPrintable(why));
        }
        const auto [cutUsed, cutWhy] = readWith(good.left(good.size() - 1000), 0);
        QVERIFY(!cutUsed);
        QVERIFY2(cutWhy.contains(QStringLiteral("not valid JSON")), qPrintable(cutWhy));
        const auto [used, why] = readWith(good, 0);
        QVERIFY2(used && why.isEmpty(), qPrintable(why));
    }

    // The real binary, no limit reached: the summary is used, and reading it costs less than twice its size
    // (a tree of it took 11×) over what the same command needs for the sample cluster it was grown from.
    void cliReadsTheSummaryAtLessThanTwiceItsSize()
    {
        if (kSanitized)
            QSKIP("the margin is a property of the normal build");
        const PeakRun base =
            runMeasured({QStringLiteral("--cluster"), QStringLiteral("--no-cache"),
                         QStringLiteral("--memory-limit"), QStringLiteral("8G"), qwen3Cluster()});
        QCOMPARE(base.exitCode, 0);
        const PeakRun run = runMeasured({QStringLiteral("--cluster"), QStringLiteral("--cache"), m_cache,
                                         QStringLiteral("--memory-limit"), QStringLiteral("8G"), m_root});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(!run.err.contains(QStringLiteral("not used")), qPrintable(run.err.left(2000)));
        const long fileKiB = static_cast<long>(QFileInfo(m_summary0).size() / 1024);
        QVERIFY2(base.peakKiB > 0 && run.peakKiB > 0 && run.peakKiB - base.peakKiB <= 2 * fileKiB,
                 qPrintable(QStringLiteral("peak %1 KiB (%2 KiB for the sample) for a %3 KiB summary")
                                .arg(run.peakKiB)
                                .arg(base.peakKiB)
                                .arg(fileKiB)));
    }

    // Over the limit: the summary is not read (a warning names it and the limit), rank 0 is read from its
    // files, cut short there too with the warning saying so; its steps are the folder's true numbers and its
    // ops the first ones of its communication.json. The peak stays within 1.25 × 64 MiB + 32 MiB.
    void summaryOverTheLimitReadsTheFolder()
    {
        if (kSanitized)
            QSKIP("the margin is a property of the normal build");
        const QString out = m_dir.filePath(QStringLiteral("over.json"));
        const PeakRun run =
            runMeasured({QStringLiteral("--cluster"), QStringLiteral("--json"), QStringLiteral("--cache"),
                         m_cache, QStringLiteral("--memory-limit"), QStringLiteral("64M"), m_root},
                        out);
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.peakKiB > 0 && run.peakKiB <= allowedPeakKiB(64),
                 qPrintable(QStringLiteral("peak %1 KiB").arg(run.peakKiB)));
        const QString notUsed =
            QStringLiteral("warning: prepared summary %1 of %2 not used (at ").arg(m_summary0, m_ranks[0]);
        QVERIFY2(run.err.contains(notUsed), qPrintable(run.err.left(3000)));
        QVERIFY2(
            run.err.contains(QStringLiteral("it does not fit under the memory limit: 16 MiB, 25 % of the "
                                            "64 MiB limit")),
            qPrintable(run.err.left(3000)));
        const QString json = m_ranks[0] + QStringLiteral("/ASCEND_PROFILER_OUTPUT/communication.json");
        static const QRegularExpression cut(
            QStringLiteral("%1: reading stopped at \\S+ of step\\d+ because memory "
                           "use reached the limit .*; the (\\d+) ops read "
                           "before were kept")
                .arg(QRegularExpression::escape(json)));
        const QRegularExpressionMatch m = cut.match(run.err);
        QVERIFY2(m.hasMatch(), qPrintable(run.err.left(3000)));

        const ClusterModel plain = readCluster(m_root);
        const QJsonObject rank0 = jsonOf(out)[QStringLiteral("ranks")].toArray()[0].toObject();
        QCOMPARE(rank0[QStringLiteral("rank")].toInt(), 0);
        QVERIFY(rank0[QStringLiteral("prepared_summary")].isNull());
        const QJsonArray steps = rank0[QStringLiteral("steps")].toArray();
        QCOMPARE(steps.size(), qsizetype(plain.rank(0)->steps.size()));
        QCOMPARE(qint64(std::llround(steps[0].toObject()[QStringLiteral("computing_us")].toDouble() * 1000)),
                 plain.rank(0)->steps.front().computing);
        const std::size_t kept = m.captured(1).toULongLong();
        QVERIFY(kept < plain.rank(0)->ops.size());
    }

    // --advise on a rank folder (its timeline loaded, its communication files read for the checks) reads
    // them under the limit too: the grown communication.json stops with the cluster reader's warning, and the
    // peak stays within the margin. Under a sufficient limit it is read whole.
    void adviseReadsCommunicationUnderTheLimit()
    {
        if (kSanitized)
            QSKIP("the margin is a property of the normal build");
        const QString json = m_ranks[0] + QStringLiteral("/ASCEND_PROFILER_OUTPUT/communication.json");
        const PeakRun limited = runMeasured({QStringLiteral("--advise"), QStringLiteral("--memory-limit"),
                                             QStringLiteral("64M"), m_ranks[0]});
        QCOMPARE(limited.exitCode, 0);
        QVERIFY2(limited.err.contains(QStringLiteral("warning: %1: reading stopped at ").arg(json)),
                 qPrintable(limited.err.left(2000)));
        QVERIFY2(limited.peakKiB > 0 && limited.peakKiB <= allowedPeakKiB(64),
                 qPrintable(QStringLiteral("peak %1 KiB").arg(limited.peakKiB)));
        const PeakRun whole = runMeasured(
            {QStringLiteral("--advise"), QStringLiteral("--memory-limit"), QStringLiteral("8G"), m_ranks[0]});
        QCOMPARE(whole.exitCode, 0);
        QVERIFY2(!whole.err.contains(QStringLiteral("reading stopped")), qPrintable(whole.err.left(2000)));
    }

    // --prepare cut short by the limit saves no summary (the rule of docs/ROBUSTNESS.md): it says so and
    // fails; a complete summary prepared before is left as it was and still used. Under a sufficient limit
    // the rank is prepared.
    void prepareCutShortSavesNoSummary()
    {
        QTemporaryDir fresh;
        const Run cut = runApp({QStringLiteral("--prepare"), m_ranks[0], QStringLiteral("--cache"),
                                fresh.path(), QStringLiteral("--memory-limit"), QStringLiteral("16M")});
        QCOMPARE(cut.exitCode, 1);
        QVERIFY2(cut.err.contains(m_ranks[0] + QStringLiteral(": the memory limit stopped reading its "
                                                              "communication files (--memory-limit 16 MiB); "
                                                              "its summary is not saved")),
                 qPrintable(cut.err));
        QVERIFY2(cut.out.contains(QStringLiteral("summary not saved (cut by the memory limit)")),
                 qPrintable(cut.out));
        QVERIFY(QDir(fresh.path()).entryList({QStringLiteral("*.atrank.json*")}, QDir::Files).isEmpty());

        const QByteArray before = readAll(m_summary0);
        const Run again = runApp({QStringLiteral("--prepare"), m_ranks[0], QStringLiteral("--cache"), m_cache,
                                  QStringLiteral("--memory-limit"), QStringLiteral("16M")});
        QCOMPARE(again.exitCode, 1);
        QVERIFY(readAll(m_summary0) == before);
        QString why;
        QVERIFY2(readPreparedSummary(m_ranks[0], m_cache, &why).has_value(), qPrintable(why));

        // A small rank under a limit it fits in: prepared.
        const Run small = runApp({QStringLiteral("--prepare"), m_ranks[1], QStringLiteral("--cache"),
                                  fresh.path(), QStringLiteral("--memory-limit"), QStringLiteral("1G")});
        QVERIFY2(small.exitCode == 0, qPrintable(small.err));
        QVERIFY(QFileInfo(preparedSummaryPath(m_ranks[1], fresh.path())).isFile());
    }
};

int main(int argc, char **argv)
{
    if (argc > 2 && qstrcmp(argv[1], "--peak-rss-of") == 0)
        return peakRssWrapper(argc, argv);
    QCoreApplication app(argc, argv);
    TstClusterPrepareLimit test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_cluster_prepare_limit.moc"
