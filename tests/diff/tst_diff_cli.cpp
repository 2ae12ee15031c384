// `ascend-timeline --diff BASE NEW [--steps A,B] [--match-shapes] [--json|--csv OUT]` run as a user would, on
// the real GPU trace and the alexnet NPU ranks: text, JSON, CSV and the errors.

#include "AppProcess.h"
#include "TestPaths.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using at_test::runApp;

namespace {

QString samplePath(const QString &relative)
{
    return (at::test::samplesDir() + QStringLiteral("/")) + relative;
}

QString gpuTrace()
{
    return samplePath(QStringLiteral("hta_kineto_gpu_traces/nccl_data.json.gz"));
}

QString alexnetRank(int rank)
{
    return samplePath(
        QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank%1_ascend_pt")
            .arg(rank));
}

// Exact µs text → ns (the JSON writes µs as exact decimals of int64 ns).
qint64 usToNs(const QString &text)
{
    const bool negative = text.startsWith(QLatin1Char('-'));
    const QString body = negative ? text.mid(1) : text;
    const qsizetype dot = body.indexOf(QLatin1Char('.'));
    const qint64 whole = (dot < 0 ? body : body.left(dot)).toLongLong();
    const qint64 fraction = dot < 0 ? 0 : (body.mid(dot + 1) + QStringLiteral("000")).left(3).toLongLong();
    return (negative ? -1 : 1) * (whole * 1000 + fraction);
}

// The raw text of every "<key>": <number> in the document (QJsonDocument would turn them into doubles).
QStringList numbersOf(const QByteArray &json, const QString &key)
{
    QStringList out;
    const QRegularExpression re(QStringLiteral("\"%1\":(-?[0-9.eE+]+)").arg(key));
    for (auto it = re.globalMatch(QString::fromUtf8(json)); it.hasNext();)
        out << it.next().captured(1);
    return out;
}

} // namespace

class TestDiffCli : public QObject
{
    Q_OBJECT

private slots:
    void textOfTwoGpuSteps()
    {
        const auto run = runApp({QStringLiteral("--diff"), gpuTrace(), gpuTrace(), QStringLiteral("--steps"),
                                 QStringLiteral("4,5")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.isEmpty(), qPrintable(run.err));
        const QString text = QString::fromUtf8(run.out);
        QVERIFY(text.contains(QLatin1String("ProfilerStep#4")));
        QVERIFY(text.contains(QLatin1String("ProfilerStep#5")));
        QVERIFY(text.contains(QLatin1String("Headline")));
        // ProfilerStep#4 and #5 span 222442.191 and 219726.905 µs from their host start to their last kernel.
        QVERIFY(text.contains(QRegularExpression(QStringLiteral("step +[0-9.]+ us -> +[0-9.]+ us"))));
        QVERIFY(text.contains(QLatin1String("Ops explaining most of the difference")));
        QVERIFY(text.contains(QLatin1String("idle (no device work)")));
    }

    // JSON of NPU rank 0 against rank 1: the issue's keys, exact µs, rows summing to each step.
    void jsonOfTwoNpuRanks()
    {
        const auto run =
            runApp({QStringLiteral("--diff"), alexnetRank(0), alexnetRank(1), QStringLiteral("--steps"),
                    QStringLiteral("50,50"), QStringLiteral("--match-shapes"), QStringLiteral("--json")});
        QCOMPARE(run.exitCode, 0);
        QJsonParseError error;
        const QJsonObject doc = QJsonDocument::fromJson(run.out, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(doc.value(QLatin1String("base")).toObject().value(QLatin1String("label")).toString(),
                 QStringLiteral("ProfilerStep#50"));
        QVERIFY(doc.contains(QLatin1String("new")));
        const QJsonArray rows = doc.value(QLatin1String("rows")).toArray();
        QVERIFY(rows.size() > 800);
        const QJsonObject first = rows.first().toObject();
        for (const char *key : {"path", "op", "shapes", "base", "new", "delta_us", "ratio"})
            QVERIFY2(first.contains(QLatin1String(key)), key);
        for (const char *key : {"count", "host_us", "device_us", "kernels"})
            QVERIFY2(first.value(QLatin1String("base")).toObject().contains(QLatin1String(key)), key);
        QVERIFY(doc.value(QLatin1String("unmatched")).toObject().value(QLatin1String("base")).isArray());
        QVERIFY(doc.value(QLatin1String("unmatched")).toObject().value(QLatin1String("new")).isArray());
        // Exact decimals: at most 3 digits after the point, never an exponent.
        const QStringList device = numbersOf(run.out, QStringLiteral("device_us"));
        QCOMPARE(device.size(), 2 * rows.size() +
                                    doc.value(QLatin1String("unmatched"))
                                        .toObject()
                                        .value(QLatin1String("base"))
                                        .toArray()
                                        .size() +
                                    doc.value(QLatin1String("unmatched"))
                                        .toObject()
                                        .value(QLatin1String("new"))
                                        .toArray()
                                        .size());
        for (const QString &number : device)
            QVERIFY2(
                QRegularExpression(QStringLiteral("^-?[0-9]+(\\.[0-9]{1,3})?$")).match(number).hasMatch(),
                qPrintable(number));
        // Σ device_us of the rows = step_us on each side, to the ns (summed from the text).
        qint64 base = 0, comparison = 0;
        for (int i = 0; i < rows.size(); ++i) {
            base += usToNs(device[2 * i]);
            comparison += usToNs(device[2 * i + 1]);
        }
        const QStringList steps = numbersOf(run.out, QStringLiteral("step_us"));
        QCOMPARE(steps.size(), 2);
        QCOMPARE(base, usToNs(steps[0]));
        QCOMPARE(comparison, usToNs(steps[1]));
        // FORMATS.md §9.2's communication of rank 0's step: 105991.878 µs.
        QCOMPARE(numbersOf(run.out, QStringLiteral("communication_us")).first(),
                 QStringLiteral("105991.878"));
    }

    void csvHasAHeaderAndEveryRow()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("diff.csv"));
        const auto run = runApp({QStringLiteral("--diff"), gpuTrace(), gpuTrace(), QStringLiteral("--steps"),
                                 QStringLiteral("5,6"), QStringLiteral("--csv"), out});
        QCOMPARE(run.exitCode, 0);
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines =
            QString::fromUtf8(file.readAll()).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
        QVERIFY(lines.first().startsWith(QLatin1String("kind,path,op,shapes,module,phase,base_count")));
        const auto json = runApp({QStringLiteral("--diff"), gpuTrace(), gpuTrace(), QStringLiteral("--steps"),
                                  QStringLiteral("5,6"), QStringLiteral("--json")});
        const QJsonObject doc = QJsonDocument::fromJson(json.out).object();
        const qsizetype expected =
            1 + doc.value(QLatin1String("rows")).toArray().size() +
            doc.value(QLatin1String("unmatched")).toObject().value(QLatin1String("base")).toArray().size() +
            doc.value(QLatin1String("unmatched")).toObject().value(QLatin1String("new")).toArray().size();
        QCOMPARE(lines.size(), expected);
        QVERIFY(lines.last().startsWith(QLatin1String("unmatched_")) ||
                lines.last().startsWith(QLatin1String("concurrent")));
    }

    void badInputsSayWhatIsWrong()
    {
        const QString missing = QDir::temp().filePath(QStringLiteral("no_such_trace_for_diff.json"));
        auto run = runApp({QStringLiteral("--diff"), missing, gpuTrace()});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(missing), qPrintable(run.err));
        QVERIFY(run.out.isEmpty());

        run = runApp({QStringLiteral("--diff"), gpuTrace(), gpuTrace(), QStringLiteral("--steps"),
                      QStringLiteral("4,9")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QLatin1String("no step '9'")) && run.err.contains(QLatin1String("4, 5, 6")),
                 qPrintable(run.err));

        run = runApp({QStringLiteral("--diff"), gpuTrace()});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains(QLatin1String("BASE NEW")));

        run = runApp({QStringLiteral("--diff"), gpuTrace(), gpuTrace(), QStringLiteral("--steps"),
                      QStringLiteral("4")});
        QCOMPARE(run.exitCode, 2);

        // A profile without framework ops (a bare msprof-style timeline) is refused with its name.
        QTemporaryDir dir;
        const QString bare = dir.filePath(QStringLiteral("bare.json"));
        QFile file(bare);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"([{"ph":"X","name":"k","pid":1,"tid":1,"ts":"1.000","dur":2}])");
        file.close();
        run = runApp({QStringLiteral("--diff"), bare, gpuTrace()});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(bare) && run.err.contains(QLatin1String("no framework ops")),
                 qPrintable(run.err));
    }
};

QTEST_GUILESS_MAIN(TestDiffCli)
#include "tst_diff_cli.moc"
