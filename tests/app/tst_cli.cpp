#include "TestPaths.h"
#include "TestSupport.h"

#include <QDirIterator>
#include <QImage>
#include <QImageReader>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

// The command line, run as a user would: the real binary in a child process.
class TestCli : public QObject
{
    Q_OBJECT

    struct Run
    {
        int exitCode = -1;
        QString out;
        QString err;
    };

    static Run run(const QStringList &args)
    {
        QProcess process;
        process.setProgram(at::test::appBinary());
        process.setArguments(args);
        process.start();
        process.waitForFinished(60000);
        return {process.exitCode(), QString::fromUtf8(process.readAllStandardOutput()),
                QString::fromUtf8(process.readAllStandardError())};
    }

private Q_SLOTS:
    void exportJsonRoundTrip()
    {
        // The loaded model written back as Chrome-trace JSON loads to the same slices, flows and step.
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("exported.json"));
        const QString folder = at::test::samplePath(
            QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt"));
        const Run exported = run({QStringLiteral("--export-json"), out, folder});
        QCOMPARE(exported.exitCode, 0);
        // (The trace alone: with the folder's kernel table the communication ops count as step tasks too.)
        const Run original = run({QStringLiteral("--summary"), at::test::level1Rank0Trace()});
        const Run reloaded = run({QStringLiteral("--summary"), out});
        QCOMPARE(reloaded.exitCode, 0);
        QVERIFY(reloaded.out.contains(QStringLiteral("Slices: 4384  Flows: 611")));
        const auto stepLine = [](const QString &text) {
            const qsizetype at = text.indexOf(QStringLiteral("ProfilerStep#50  ["));
            return text.mid(at, text.indexOf(QLatin1Char('\n'), at) - at);
        };
        QVERIFY(!stepLine(original.out).isEmpty());
        QCOMPARE(stepLine(reloaded.out), stepLine(original.out));
    }

    void versionAndHelp()
    {
        const Run version = run({QStringLiteral("--version")});
        QCOMPARE(version.exitCode, 0);
        QVERIFY(version.out.contains(QStringLiteral(AT_VERSION_STRING)));
        const Run help = run({QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains(QStringLiteral("--summary")));
    }

    void summaryOfTheLevel1Sample()
    {
        const Run r = run({QStringLiteral("--summary"), at::test::level1Rank0Trace()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral(
                     "Events: 10112 (X 4384, B 0, E 0, i/I 0, C 4431, s 606, t 0, f 611, M 80")),
                 qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("Processes: 12")));
        // Layer order: framework, CANN, device, communication, overlap, counters.
        const qsizetype python = r.out.indexOf(QStringLiteral("\n  Python  ["));
        const qsizetype cann = r.out.indexOf(QStringLiteral("\n  CANN  ["));
        const qsizetype hardware = r.out.indexOf(QStringLiteral("\n  Ascend Hardware  ["));
        const qsizetype hccl = r.out.indexOf(QStringLiteral("\n  HCCL  ["));
        QVERIFY(python >= 0 && python < cann && cann < hardware && hardware < hccl);
        QVERIFY(r.out.contains(QStringLiteral("155.986 ms  x1  ProfilerStep#50")));
        QVERIFY(r.out.contains(QStringLiteral("Top 10 slice names by total duration")));
    }

    void summaryJsonIsMachineReadable()
    {
        const Run r =
            run({QStringLiteral("--summary"), QStringLiteral("--json"), at::test::level1Rank0Trace()});
        QCOMPARE(r.exitCode, 0);
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8(), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        const QJsonObject events = doc.object().value(QStringLiteral("events")).toObject();
        QCOMPARE(events.value(QStringLiteral("total")).toInteger(), 10112);
        QCOMPARE(events.value(QStringLiteral("X")).toInteger(), 4384);
        QCOMPARE(doc.object().value(QStringLiteral("flows")).toInteger(), 611);
        QCOMPARE(doc.object().value(QStringLiteral("originUs")).toString(),
                 QStringLiteral("1736408883573887.920"));
    }

    void summaryOfAFolderNamesSourcesAndFiles()
    {
        const QString folder = at::test::samplePath(
            QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1"));
        const Run r = run({QStringLiteral("--summary"), folder});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("Source: Rank 0 / Device 0  [G4")), qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("Source: Rank 1 / Device 1  [G4")));
        QVERIFY(r.out.contains(QStringLiteral("rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json")));
        QVERIFY(r.out.contains(QStringLiteral(
            "kernels: 191 (191 joined to the timeline, 0 not joined)  metric group: PipeUtilization")));
        QVERIFY(r.out.contains(QStringLiteral("profiler level: Level1")));
        QVERIFY(r.out.contains(QStringLiteral("Processes: 28"))); // 24 + the memory lanes of both ranks
    }

    // The provenance rows (made from the typed SourceProvenance) in --summary, as the Collection panel has
    // them.
    void summarySaysWhichExportWasUsed()
    {
        const Run text = run({QStringLiteral("--summary"), at::test::level1Rank0Database()});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains(
                     QStringLiteral("  timeline source: SQLite database ascend_pytorch_profiler_0.db\n")),
                 qPrintable(text.out));
        const Run folder =
            run({QStringLiteral("--summary"),
                 at::test::samplePath(QStringLiteral(
                     "msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt"))});
        QCOMPARE(folder.exitCode, 0);
        QVERIFY2(folder.out.contains(QStringLiteral("  timeline source: text export\n")),
                 qPrintable(folder.out));
        QVERIFY(!run({QStringLiteral("--summary"), at::test::level1Rank0Trace()})
                     .out.contains(QStringLiteral("timeline source")));
    }

    // --no-cache reaches the loader as an option: with the cache allowed by the environment, nothing is
    // written.
    void noCacheNeedsNoEnvironment()
    {
        QTemporaryDir cache;
        QTemporaryDir data;
        const QString trace = data.filePath(QStringLiteral("trace.json"));
        QVERIFY(QFile::copy(at::test::level1Rank0Trace(), trace));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("AT_NO_SNAPSHOT"));
        env.insert(QStringLiteral("XDG_CACHE_HOME"), cache.path());
        auto summary = [&](const QStringList &extra) {
            QProcess process;
            process.setProcessEnvironment(env);
            process.start(at::test::appBinary(), extra + QStringList{QStringLiteral("--summary"), trace});
            return process.waitForFinished(60000) && process.exitCode() == 0;
        };
        auto snapshots = [&] {
            return QDirIterator(cache.path(), {QStringLiteral("*.atsnap")}, QDir::Files,
                                QDirIterator::Subdirectories)
                .hasNext();
        };
        QVERIFY(summary({QStringLiteral("--no-cache")}));
        QVERIFY(!snapshots());
        QVERIFY(summary({}));
        QVERIFY(snapshots()); // the same run without --no-cache writes one
    }

    void metricsWritesTheJoinedKernelTable()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("kernels.csv"));
        const QString folder = at::test::samplePath(
            QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt"));
        const Run r = run({QStringLiteral("--metrics"), folder, QStringLiteral("--csv"), out});
        QCOMPARE(r.exitCode, 0);
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        QCOMPARE(lines.size(), 193); // header + 191 kernels + final newline
        QVERIFY(lines[0].startsWith("Source,Name,Type,Accelerator Core,Stream ID,Task ID,Start(us)"));
        QVERIFY(lines[0].contains("aiv_vec_ratio"));
        QVERIFY(lines[1].startsWith(
            "Rank 0 / Device 0,trans_TransData_0,TransData,AI_VECTOR_CORE,2,11051,1736408883704643.212,"));
        // Without --csv the table goes to stdout.
        const Run stdoutRun = run({QStringLiteral("--metrics"), folder});
        QCOMPARE(stdoutRun.exitCode, 0);
        QCOMPARE(stdoutRun.out.count(QLatin1Char('\n')), 192);
        // A trace without a kernel table says so.
        const Run none = run({QStringLiteral("--metrics"), at::test::level1Rank0Trace()});
        QCOMPARE(none.exitCode, 1);
        QVERIFY(none.err.contains(QStringLiteral("no kernel table")));
    }

    void exportCsvWritesKernelDetails()
    {
        QTemporaryDir dir;
        const QString outDir = dir.filePath(QStringLiteral("csv/out")); // created
        const QString folder = at::test::samplePath(
            QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt"));
        const Run r = run({QStringLiteral("--export-csv"), outDir, folder});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains(QStringLiteral("wrote 191 kernels")), qPrintable(r.err));
        QFile f(outDir + QStringLiteral("/kernel_details.csv"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        const QList<QByteArray> lines = text.split('\n');
        QCOMPARE(lines.size(), 193); // header + 191 kernels + final line end
        for (int i = 0; i + 1 < lines.size(); ++i)
            QVERIFY2(lines[i].endsWith('\r'), "RFC 4180 line ends are CRLF");
        QVERIFY(lines[0].startsWith("Source,Step Id,Task ID,Stream ID,Context ID,Name,Type,Accelerator Core,"
                                    "Start Time(us),Duration(us),Wait Time(us),Block Dim,Input Shapes"));
        QVERIFY(lines[0].contains("aiv_vec_ratio"));
        QVERIFY2(lines[1].startsWith("Rank 0 / Device 0,"), lines[1].constData());
        QVERIFY(lines[1].contains(",11051,2,"));
        QVERIFY(lines[1].contains(",trans_TransData_0,TransData,AI_VECTOR_CORE,1736408883704643.212,"));
        // Input shapes hold commas and semicolons: quoted, never split.
        QVERIFY(text.contains(",\""));
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("csv/out/kernel_details.csv.tmp"))));
        // Never into the data folder (nor a new folder below it), and nothing is created there.
        const QString inside = folder + QStringLiteral("/csv_out");
        const Run refused = run({QStringLiteral("--export-csv"), inside, folder});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY(refused.err.contains(QStringLiteral("inside the data folder")));
        QVERIFY(!QFileInfo::exists(inside));
        // A trace without a kernel table says so.
        const Run none = run({QStringLiteral("--export-csv"), dir.filePath(QStringLiteral("none")),
                              at::test::level1Rank0Trace()});
        QCOMPARE(none.exitCode, 1);
        QVERIFY(none.err.contains(QStringLiteral("no kernel table")));
        // --source accepts raw; other values are refused.
        const Run bad =
            run({QStringLiteral("--summary"), QStringLiteral("--source"), QStringLiteral("binary"), folder});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains(QStringLiteral("'db', 'text' or 'raw'")));
    }

    void chartRendersAPngHeadlessly()
    {
        QTemporaryDir dir;
        const QString folder = at::test::samplePath(
            QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt"));
        for (const QString &chart : {QStringLiteral("top-kernels"), QStringLiteral("kernel-metrics"),
                                     QStringLiteral("time-by-type"), QStringLiteral("scatter")}) {
            const QString out = dir.filePath(chart + QStringLiteral(".png"));
            const Run r = run({QStringLiteral("--chart"), chart, QStringLiteral("--out"), out,
                               QStringLiteral("--size"), QStringLiteral("800x500"), folder});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            const QImage image(out);
            QCOMPARE(image.size(), QSize(800, 500));
            QSet<QRgb> colours;
            for (int y = 0; y < image.height(); y += 7)
                for (int x = 0; x < image.width(); x += 7)
                    colours.insert(image.pixel(x, y));
            QVERIFY2(colours.size() > 10, qPrintable(chart));
        }
        const Run bad = run({QStringLiteral("--chart"), QStringLiteral("nonsense"), QStringLiteral("--out"),
                             dir.filePath(QStringLiteral("x.png")), folder});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY(!bad.err.isEmpty());
    }

    // Two modes given together: exit 2 naming both, nothing run (it used to run one of them silently).
    void twoModesAreRefused()
    {
        QTemporaryDir dir;
        const Run both =
            run({QStringLiteral("--summary"), QStringLiteral("--metrics"), at::test::level1Rank0Trace()});
        QCOMPARE(both.exitCode, 2);
        QVERIFY2(both.err.contains(QStringLiteral("--summary and --metrics")), qPrintable(both.err));
        QVERIFY(both.out.isEmpty());
        const QString png = dir.filePath(QStringLiteral("shot.png"));
        const Run shot = run(
            {QStringLiteral("--screenshot"), png, QStringLiteral("--advise"), at::test::level1Rank0Trace()});
        QCOMPARE(shot.exitCode, 2);
        QVERIFY2(shot.err.contains(QStringLiteral("--advise")) &&
                     shot.err.contains(QStringLiteral("--screenshot")),
                 qPrintable(shot.err));
        QVERIFY(!QFileInfo::exists(png));
        const Run misplaced =
            run({QStringLiteral("--summary"), QStringLiteral("--perfetto"), at::test::level1Rank0Trace()});
        QCOMPARE(misplaced.exitCode, 2);
        QVERIFY2(misplaced.err.contains(QStringLiteral("--summary does not take --perfetto")),
                 qPrintable(misplaced.err));
    }

    // --screenshot writes the format of OUT's extension and refuses one Qt cannot write, naming OUT.
    void screenshotFormatFollowsTheExtension()
    {
        QTemporaryDir dir;
        const QString xyz = dir.filePath(QStringLiteral("shot.xyz"));
        const Run refused = run({QStringLiteral("--screenshot"), xyz, at::test::level1Rank0Trace()});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains(xyz) &&
                     refused.err.contains(QStringLiteral("cannot write .xyz images")),
                 qPrintable(refused.err));
        QVERIFY(!QFileInfo::exists(xyz));
        const QString bmp = dir.filePath(QStringLiteral("shot.bmp"));
        const Run written = run({QStringLiteral("--screenshot"), bmp, QStringLiteral("--size"),
                                 QStringLiteral("640x400"), at::test::level1Rank0Trace()});
        QVERIFY2(written.exitCode == 0, qPrintable(written.err));
        QImageReader reader(bmp);
        QCOMPARE(reader.format(), QByteArray("bmp"));
        QVERIFY(!reader.read().isNull());
    }

    void badInputFailsWithTheFileNamed()
    {
        QTemporaryDir dir;
        const QString garbage = dir.filePath(QStringLiteral("garbage.json"));
        QFile f(garbage);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is not json");
        f.close();
        const Run r = run({QStringLiteral("--summary"), garbage});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(garbage) && r.err.contains(QStringLiteral("not JSON")), qPrintable(r.err));
        const Run missing = run({QStringLiteral("--summary"), dir.filePath(QStringLiteral("nope.json"))});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY(missing.err.contains(QStringLiteral("no such file")));
    }

    // --lang zh_CN translates the headless modes' warnings and errors (issue 17); the report stays English.
    void langTranslatesTheMessages()
    {
        QTemporaryDir dir;
        const QString cut = dir.filePath(QStringLiteral("cut.json"));
        QFile f(cut);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"([{"name":"a","ph":"X","ts":1,"dur":2,"pid":1,"tid":1})");
        f.close();
        const Run chinese = run({QStringLiteral("--summary"), QStringLiteral("--no-cache"),
                                 QStringLiteral("--lang"), QStringLiteral("zh_CN"), cut});
        QCOMPARE(chinese.exitCode, 0);
        QVERIFY2(chinese.out.contains(QStringLiteral("事件数组没有以 ']' 结束")), qPrintable(chinese.out));
        QVERIFY(chinese.out.contains(QStringLiteral("Slices: 1"))); // the report itself stays English
        const Run english = run({QStringLiteral("--summary"), QStringLiteral("--no-cache"), cut});
        QVERIFY2(english.out.contains(QStringLiteral("the event array is not closed with ']'")),
                 qPrintable(english.out));
        const Run missing = run({QStringLiteral("--summary"), QStringLiteral("--lang"),
                                 QStringLiteral("zh_CN"), dir.filePath(QStringLiteral("nope.json"))});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains(QStringLiteral("文件或文件夹不存在")), qPrintable(missing.err));
        const Run bad =
            run({QStringLiteral("--summary"), QStringLiteral("--lang"), QStringLiteral("xx"), cut});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains(QStringLiteral("--lang must be one of")));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
