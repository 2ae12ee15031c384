// Issue 21, the last pieces (docs/ROBUSTNESS.md, "Round two: the rest"): a FIFO named like a table or a
// configuration file inside a result folder must not block the CSV, config, memory or cluster readers.
// Each case copies a real torch_npu rank folder (samples), plants one FIFO under a reader's file name and
// loads it on another thread with a deadline: the load finishes, names the FIFO and keeps the other files.

#include "ParserTestUtil.h"
#include "TestSupport.h"

#include "cluster/ClusterReader.h"
#include "config/ConfigFiles.h"
#include "csv/CsvReader.h"

#include <QDirIterator>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <chrono>
#include <cstring>
#include <future>
#include <optional>
#include <thread>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace {

const char *const kClusterFolder = "msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2";
const char *const kRankFolder = "msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2/rank_0_ascend_pt";
// A rank folder with trace_view.json and every summary table.
const char *const kTimelineRankFolder =
    "msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt";

// Runs loadTrace on another thread and gives up after a while, so that a blocking open fails the test
// instead of hanging it (the thread is then left behind, blocked).
std::optional<at::LoadResult> loadWithin(const QString &path, int seconds = 20)
{
    auto task = std::make_shared<std::packaged_task<at::LoadResult()>>([path] {
        at::LoadControl control;
        return at::loadTrace(path, at::LoadOptions{}, control);
    });
    std::future<at::LoadResult> done = task->get_future();
    std::thread([task] { (*task)(); }).detach();
    if (done.wait_for(std::chrono::seconds(seconds)) != std::future_status::ready)
        return std::nullopt;
    return done.get();
}

// Copies a sample folder's text files into DIR/NAME (not the .db files, so the text readers are used).
QString copyRankFolder(const QTemporaryDir &dir, const QString &sample, const QString &name)
{
    const QString source = at::test::samplePath(sample);
    const QString target = dir.filePath(name);
    QDirIterator it(source, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString file = it.next();
        if (file.endsWith(QStringLiteral(".db")))
            continue;
        const QString copy = target + file.mid(source.size());
        QDir().mkpath(QFileInfo(copy).path());
        QFile::copy(file, copy);
    }
    return target;
}

} // namespace

class TestRest : public QObject
{
    Q_OBJECT

private slots:
    // Loading a rank folder: the folder listing only lists regular files, so a FIFO under a table's name
    // is not loaded (the load finishes and keeps every other file); the reader itself names it.
    void fifoTableInARankFolderDoesNotBlock_data()
    {
        QTest::addColumn<QString>("relative");
        QTest::addColumn<bool>("kernelsKept");
        QTest::newRow("kernel_details.csv")
            << QStringLiteral("ASCEND_PROFILER_OUTPUT/kernel_details.csv") << false;
        QTest::newRow("memory_record.csv")
            << QStringLiteral("ASCEND_PROFILER_OUTPUT/memory_record.csv") << true;
        QTest::newRow("step_trace_time.csv")
            << QStringLiteral("ASCEND_PROFILER_OUTPUT/step_trace_time.csv") << true;
        QTest::newRow("info.json") << QStringLiteral("info.json") << true;
        QTest::newRow("profiler_info_0.json") << QStringLiteral("profiler_info_0.json") << true;
    }

    void fifoTableInARankFolderDoesNotBlock()
    {
        QFETCH(QString, relative);
        QFETCH(bool, kernelsKept);
        QTemporaryDir dir;
        const QString folder =
            copyRankFolder(dir, QString::fromLatin1(kRankFolder), QStringLiteral("rank_0_ascend_pt"));
        const std::optional<at::LoadResult> baseline = loadWithin(folder);
        QVERIFY(baseline && baseline->model);
        QVERIFY(!baseline->model->kernels().empty());
        QVERIFY(!baseline->model->memory().isEmpty());

        const QString fifo = folder + QLatin1Char('/') + relative;
        QFile::remove(fifo);
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const std::optional<at::LoadResult> r = loadWithin(folder);
        QVERIFY2(r, "loadTrace blocked on the FIFO");
        if (!kernelsKept) { // the kernel table was this folder's only timeline: a prompt, clear error
            QVERIFY(!r->model);
            QVERIFY2(r->error.contains(QStringLiteral("has no timeline")), qPrintable(r->error));
            return;
        }
        QVERIFY2(r->model, qPrintable(r->error));
        QCOMPARE(r->model->kernels().size(), baseline->model->kernels().size());
        if (!relative.endsWith(QStringLiteral("memory_record.csv")))
            QVERIFY(!r->model->memory().isEmpty());
    }

    // The readers given the FIFO's path directly (as the cluster reader and the raw decoder build paths):
    // never block, and the message names the file and says it is a FIFO.
    void readersNameAFifoWithoutBlocking()
    {
        QTemporaryDir dir;
        for (const QString &name : {QStringLiteral("kernel_details.csv"), QStringLiteral("memory_record.csv"),
                                    QStringLiteral("step_trace_time.csv"), QStringLiteral("info.json")}) {
            const QString fifo = dir.filePath(name);
            QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
            auto read = std::async(std::launch::async, [fifo, name] {
                if (name.endsWith(QStringLiteral(".json")))
                    return at::config::loadJsonObject(fifo).problem;
                const at::CsvTable table = at::CsvReader().readFile(fifo);
                return table.issues().empty() ? QString() : table.issues().front().toString();
            });
            QVERIFY2(read.wait_for(std::chrono::seconds(10)) == std::future_status::ready, qPrintable(name));
            const QString said = read.get();
            QVERIFY2(said.contains(QStringLiteral("FIFO (named pipe), not a regular file")),
                     qPrintable(said));
            if (!name.endsWith(QStringLiteral(".json")))
                QVERIFY2(said.contains(fifo), qPrintable(said));
        }
        // The header peek of the config reader (readCsvHeader) too.
        const QString header = dir.filePath(QStringLiteral("op_summary_0_1.csv"));
        QCOMPARE(::mkfifo(QFile::encodeName(header).constData(), 0600), 0);
        auto peek =
            std::async(std::launch::async, [header] { return at::config::readCsvHeader(header).problem; });
        QVERIFY(peek.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
        QCOMPARE(peek.get(), QStringLiteral("it is a FIFO (named pipe), not a regular file"));
    }

    // A cluster folder (4 ranks): the cluster reader builds each rank's file paths itself, so a FIFO there
    // used to block it. Now it warns naming the file, and reads every other file.
    void fifoInAClusterRankDoesNotBlock_data()
    {
        QTest::addColumn<QString>("relative");
        QTest::newRow("step_trace_time.csv") << QStringLiteral("ASCEND_PROFILER_OUTPUT/step_trace_time.csv");
        QTest::newRow("communication.json") << QStringLiteral("ASCEND_PROFILER_OUTPUT/communication.json");
        QTest::newRow("profiler_metadata.json") << QStringLiteral("profiler_metadata.json");
    }

    void fifoInAClusterRankDoesNotBlock()
    {
        QFETCH(QString, relative);
        QTemporaryDir dir;
        const QString root =
            copyRankFolder(dir, QString::fromLatin1(kClusterFolder), QStringLiteral("level2"));
        const at::cluster::ClusterModel baseline = at::cluster::readCluster(root);
        QCOMPARE(baseline.ranks.size(), std::size_t(4));
        const QString fifo = root + QStringLiteral("/rank_1_ascend_pt/") + relative;
        QFile::remove(fifo);
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        auto read = std::async(std::launch::async, [root] { return at::cluster::readCluster(root); });
        QVERIFY2(read.wait_for(std::chrono::seconds(20)) == std::future_status::ready, "readCluster blocked");
        const at::cluster::ClusterModel cluster = read.get();
        const QString said = cluster.warnings.join(QLatin1Char('\n'));
        QVERIFY2(said.contains(fifo + QStringLiteral(" is a FIFO (named pipe), not a regular file")),
                 qPrintable(said));
        QCOMPARE(cluster.ranks.size(), baseline.ranks.size());
        // The other ranks are read in full.
        for (std::size_t i = 0; i < cluster.ranks.size(); ++i) {
            if (cluster.ranks[i].folder.endsWith(QStringLiteral("rank_1_ascend_pt")))
                continue;
            QCOMPARE(cluster.ranks[i].steps.size(), baseline.ranks[i].steps.size());
            QCOMPARE(cluster.ranks[i].ops.size(), baseline.ranks[i].ops.size());
        }
    }

    // The stop a load's readers poll (LoadControl::stopReading: a cancel or the memory guard) also ends a
    // CSV table: checked every CsvOptions::kStopCheckRows rows, the rows before are kept, a warning says
    // where.
    void csvReadingStopsAtTheLoadsStop()
    {
        QByteArray text("Name,Start Time(us),Duration(us)\n");
        for (int i = 0; i < 20000; ++i)
            text += "k" + QByteArray::number(i) + "," + QByteArray::number(i * 10) + ",5\n";
        const std::string_view data(text.constData(), std::size_t(text.size()));
        std::atomic<bool> stop{false};
        at::CsvOptions options;
        options.stop = &stop;
        const at::CsvTable whole = at::CsvReader(options).parse(data, QStringLiteral("k.csv"));
        QCOMPARE(whole.rowCount(), std::size_t(20000));
        QVERIFY(whole.issues().empty());
        stop = true;
        const at::CsvTable part = at::CsvReader(options).parse(data, QStringLiteral("k.csv"));
        QCOMPARE(part.rowCount(), at::CsvOptions::kStopCheckRows);
        QCOMPARE(part.issues().size(), std::size_t(1));
        QCOMPARE(part.issues().front().kind, at::CsvIssue::Kind::Stopped);
        QVERIFY2(part.issues().front().message.startsWith(
                     QStringLiteral("reading stopped after 8192 rows (byte ")),
                 qPrintable(part.issues().front().message));
        QCOMPARE(part.cell(8191, 0), std::string_view("k8191"));
    }

    // A FIFO, socket or dangling link named like a file the profiler writes, in a real rank folder: the
    // listing never opens it; the load finishes, a warning names the path and what it is (it used to be
    // skipped silently), and every other file is read as before.
    void specialFileInARankFolderIsNamed_data()
    {
        QTest::addColumn<QString>("relative");
        QTest::addColumn<QString>("kind"); // fifo, socket, dangling
        QTest::addColumn<QString>("said");
        QTest::newRow("FIFO trace_view.json")
            << QStringLiteral("ASCEND_PROFILER_OUTPUT/trace_view.json") << QStringLiteral("fifo")
            << QStringLiteral("is not a regular file (a FIFO, socket or device)");
        QTest::newRow("FIFO kernel_details.csv")
            << QStringLiteral("ASCEND_PROFILER_OUTPUT/kernel_details.csv") << QStringLiteral("fifo")
            << QStringLiteral("is a FIFO (named pipe), not a regular file: it was not read");
        QTest::newRow("socket op_statistic.csv")
            << QStringLiteral("ASCEND_PROFILER_OUTPUT/op_statistic.csv") << QStringLiteral("socket")
            << QStringLiteral("is a socket, not a regular file: it was not read");
        QTest::newRow("dangling link step_trace_time.csv")
            << QStringLiteral("ASCEND_PROFILER_OUTPUT/step_trace_time.csv") << QStringLiteral("dangling")
            << QStringLiteral("is a symbolic link to %1, which does not exist: it was not read");
        QTest::newRow("FIFO profiler_info_0.json")
            << QStringLiteral("profiler_info_0.json") << QStringLiteral("fifo")
            << QStringLiteral("is a FIFO (named pipe), not a regular file");
    }

    void specialFileInARankFolderIsNamed()
    {
        QFETCH(QString, relative);
        QFETCH(QString, kind);
        QFETCH(QString, said);
        QTemporaryDir dir;
        const QString folder =
            copyRankFolder(dir, QString::fromLatin1(kTimelineRankFolder), QStringLiteral("rank0_ascend_pt"));
        const std::optional<at::LoadResult> baseline = loadWithin(folder);
        QVERIFY(baseline && baseline->model);
        QVERIFY(baseline->model->sliceCount() > 0 && !baseline->model->kernels().empty());

        const QString path = folder + QLatin1Char('/') + relative;
        QVERIFY(QFile::remove(path));
        const QString missing = dir.filePath(QStringLiteral("gone.csv"));
        int socketFd = -1;
        if (kind == QLatin1String("fifo")) {
            QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
        } else if (kind == QLatin1String("socket")) {
            socketFd = ::socket(AF_UNIX, SOCK_STREAM, 0);
            sockaddr_un address{};
            address.sun_family = AF_UNIX;
            const QByteArray name = QFile::encodeName(path);
            QVERIFY(std::size_t(name.size()) < sizeof address.sun_path);
            std::memcpy(address.sun_path, name.constData(), std::size_t(name.size()));
            QCOMPARE(::bind(socketFd, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
        } else {
            QVERIFY(QFile::link(missing, path));
            said = said.arg(missing);
        }
        const std::optional<at::LoadResult> r = loadWithin(folder);
        if (socketFd >= 0)
            ::close(socketFd);
        QVERIFY2(r, "loadTrace blocked");
        QVERIFY2(r->model, qPrintable(r->error));
        const QString warnings = r->model->warnings().join(QLatin1Char('\n'));
        QVERIFY2(warnings.contains(path + QLatin1Char(' ') + said), qPrintable(warnings));
        QCOMPARE(warnings.count(path), 1); // named once, not by the listing and the reader both
        // Everything else read as before.
        if (!relative.endsWith(QLatin1String("trace_view.json")))
            QCOMPARE(r->model->sliceCount(), baseline->model->sliceCount());
        if (!relative.endsWith(QLatin1String("kernel_details.csv")))
            QCOMPARE(r->model->kernels().size(), baseline->model->kernels().size());
        QCOMPARE(r->model->memory().isEmpty(), baseline->model->memory().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestRest)
#include "tst_rest.moc"
