// Compressed traces (.json.zst, .json.gz) detected by magic bytes, not by the file name, must give
// exactly the model of the plain file; corrupt or truncated compressed files are reported with the
// file name. The compressed copies are made here with the zstd and gzip command line tools.

#include "ParserTestUtil.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTest>

class TestParserCompressed : public QObject
{
    Q_OBJECT

    QTemporaryDir tmp;
    QString plain;
    QString plainDump;
    QString zst;
    QString gz;

    // Runs `tool args...` with stdout written to `output`.
    static bool run(const QString &tool, const QStringList &args, const QString &output)
    {
        const QString exe = QStandardPaths::findExecutable(tool);
        if (exe.isEmpty())
            return false;
        QProcess p;
        p.setStandardOutputFile(output);
        p.start(exe, args);
        return p.waitForFinished(60000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    }

    static QString dumpWithArgs(const at::TraceModel &m)
    {
        QString out = pt::dumpModel(m);
        // Args are re-read from the (decompressed) file: sample a slice of every thread.
        for (std::size_t t = 0; t < m.threads().size(); ++t) {
            const auto &s = m.threads()[t].slices;
            for (std::uint32_t i = 0; i < s.size(); i += 97)
                for (const auto &[k, v] : m.sliceArgs({static_cast<std::int32_t>(t), i}))
                    out += QStringLiteral("A %1 %2 %3=%4\n").arg(t).arg(i).arg(k, v);
        }
        return out;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(tmp.isValid());
        plain = pt::samplePath(pt::kLevel1Rank0);
        const auto m = pt::loadOk(plain);
        QVERIFY(m);
        plainDump = dumpWithArgs(*m);
        zst = tmp.filePath(QStringLiteral("trace_view.json.zst"));
        gz = tmp.filePath(QStringLiteral("trace_view.json.gz"));
        if (!run(QStringLiteral("zstd"), {QStringLiteral("-q"), QStringLiteral("-c"), plain}, zst) ||
            !run(QStringLiteral("gzip"), {QStringLiteral("-c"), plain}, gz))
            QSKIP("zstd/gzip command line tools not available");
        // Magic bytes really are what we think they are.
        QCOMPARE(pt::readFile(zst).left(4), QByteArray("\x28\xB5\x2F\xFD"));
        QCOMPARE(pt::readFile(gz).left(2), QByteArray("\x1F\x8B"));
    }

    void identicalModels_data()
    {
        QTest::addColumn<QString>("source"); // "zst" / "gz" / "plain"
        QTest::addColumn<QString>("name");   // file name of the copy
        QTest::newRow("zst") << QStringLiteral("zst") << QStringLiteral("copy.json.zst");
        QTest::newRow("gz") << QStringLiteral("gz") << QStringLiteral("copy.json.gz");
        // Detection is by magic bytes: misleading or missing extensions still work.
        QTest::newRow("gz named .json") << QStringLiteral("gz") << QStringLiteral("gz_inside.json");
        QTest::newRow("zst named .gz") << QStringLiteral("zst") << QStringLiteral("zst_inside.json.gz");
        QTest::newRow("plain named .zst")
            << QStringLiteral("plain") << QStringLiteral("plain_inside.json.zst");
        QTest::newRow("zst without extension") << QStringLiteral("zst") << QStringLiteral("trace");
    }

    void identicalModels()
    {
        QFETCH(QString, source);
        QFETCH(QString, name);
        const QString from = source == QLatin1String("zst")  ? zst
                             : source == QLatin1String("gz") ? gz
                                                             : plain;
        const QString path = pt::writeFile(tmp, name, pt::readFile(from));
        const at::LoadResult r = pt::load(path);
        QVERIFY2(r.model, qPrintable(r.error));
        QVERIFY2(r.model->warnings().isEmpty(), qPrintable(pt::warningsText(*r.model)));
        QCOMPARE(r.model->sources().at(0).path, path); // the name the user opened, not the temporary
        const QString diff = pt::firstDifference(plainDump, dumpWithArgs(*r.model));
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }

    void corruptZstd_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("magic then garbage") << QByteArray("\x28\xB5\x2F\xFD garbage garbage garbage garbage");
        QTest::newRow("magic only") << QByteArray("\x28\xB5\x2F\xFD");
        QTest::newRow("gzip magic then garbage")
            << QByteArray("\x1F\x8B\x08\x00 this is not deflate data at all");
    }

    // Nothing can be decompressed: no model, an error naming the file.
    void corruptZstd()
    {
        QFETCH(QByteArray, bytes);
        const QString path = pt::writeFile(
            tmp, QStringLiteral("corrupt_%1.json.zst").arg(QTest::currentDataTag()).replace(' ', '_'), bytes);
        const at::LoadResult r = pt::load(path);
        QVERIFY(!r.model);
        QVERIFY2(r.error.contains(path), qPrintable(r.error));
    }

    // A compressed file cut in half: the decompressed part is used (a prefix of the events) and
    // the problem is reported with the file name.
    void truncatedCompressed_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("tool");
        QTest::newRow("zst") << QStringLiteral("zst") << QStringLiteral("zstd");
        QTest::newRow("gz") << QStringLiteral("gz") << QStringLiteral("gzip");
    }

    void truncatedCompressed()
    {
        QFETCH(QString, source);
        QFETCH(QString, tool);
        const QByteArray bytes = pt::readFile(source == QLatin1String("zst") ? zst : gz);
        const QString path =
            pt::writeFile(tmp, QStringLiteral("half.json.") + source, bytes.left(bytes.size() / 2));
        const at::LoadResult r = pt::load(path);
        QVERIFY2(r.model, qPrintable(r.error));
        const std::size_t n = r.model->eventCounts().total();
        QVERIFY2(n > 1000 && n < 10112, qPrintable(QString::number(n)));
        QVERIFY2(pt::hasWarning(*r.model, {path, tool == QLatin1String("zstd") ? QStringLiteral("zstd")
                                                                               : QStringLiteral("gzip")}),
                 qPrintable(pt::warningsText(*r.model)));
        // And the JSON itself ends inside an event: that is reported too.
        QVERIFY2(pt::hasWarning(*r.model, {path, QStringLiteral("byte")}),
                 qPrintable(pt::warningsText(*r.model)));
    }

    // Bytes flipped in the middle of the zstd stream: either no model and an error, or a model with
    // a warning; both name the file. Never a silent success.
    void corruptedMiddle()
    {
        QByteArray bytes = pt::readFile(zst);
        for (qsizetype i = bytes.size() / 2; i < bytes.size() / 2 + 64; ++i)
            bytes[i] = static_cast<char>(~bytes[i]);
        const QString path = pt::writeFile(tmp, QStringLiteral("flipped.json.zst"), bytes);
        const at::LoadResult r = pt::load(path);
        if (r.model)
            QVERIFY2(pt::hasWarning(*r.model, {path, QStringLiteral("zstd")}),
                     qPrintable(pt::warningsText(*r.model)));
        else
            QVERIFY2(r.error.contains(path), qPrintable(r.error));
    }
};

QTEST_GUILESS_MAIN(TestParserCompressed)
#include "tst_parser_compressed.moc"
