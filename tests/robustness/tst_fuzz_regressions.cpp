// Replays every input saved under tests/data/fuzz/<target>/ (crashes and sanitizer reports the
// fuzzers found, see docs/ROBUSTNESS.md) through the same entry point the fuzz target drives
// (tests/fuzz/FuzzEntryPoints.h). A regression crashes or aborts this test; under -DAT_SANITIZE=ON
// memory errors and undefined behaviour abort it too.

#include "FuzzEntryPoints.h"
#include "FuzzRawEntryPoint.h"
#include "FuzzTruncateEntryPoint.h"
#include "TestPaths.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <functional>

class TestFuzzRegressions : public QObject
{
    Q_OBJECT

    using EntryPoint = std::function<void(const std::uint8_t *, std::size_t)>;

    // Runs every file of tests/data/fuzz/<target>/; returns how many there were.
    static int replay(const char *target, const EntryPoint &entry)
    {
        const QDir dir((at::test::testDataDir() + QStringLiteral("/fuzz/")) + QLatin1String(target));
        int count = 0;
        for (const QFileInfo &fi : dir.entryInfoList(QDir::Files, QDir::Name)) {
            QFile f(fi.filePath());
            if (!f.open(QIODevice::ReadOnly))
                qFatal("cannot read %s", qPrintable(fi.filePath()));
            const QByteArray bytes = f.readAll();
            qInfo("%s: %s (%lld bytes)", target, qPrintable(fi.fileName()),
                  static_cast<long long>(bytes.size()));
            entry(reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                  static_cast<std::size_t>(bytes.size()));
            ++count;
        }
        return count;
    }

private slots:
    void json() { replay("json", at::fuzz::fuzzJson); }
    void csv() { replay("csv", at::fuzz::fuzzCsv); }
    void sqlite() { replay("sqlite", at::fuzz::fuzzSqlite); }
    void folder() { replay("folder", at::fuzz::fuzzFolder); }
    void snapshot() { replay("snapshot", at::fuzz::fuzzSnapshot); }
    // Session files (issue 29): naming themselves or each other, an empty path, damaged entries, and
    // (item 8) texts the simdjson reader must refuse or read as the QJsonDocument reader did.
    void session() { QCOMPARE(replay("session", at::fuzz::fuzzSession), 6); }
    // Seeds of fuzz_truncate: a CSV, an info.json and a trace cut while mapped, and FIFOs named like them.
    void truncate() { QCOMPARE(replay("truncate", at::fuzz::fuzzTruncate), 5); }
    // The raw decoders: the saved inputs, and the synthetic seeds of every record family.
    void raw()
    {
        replay("raw", at::fuzz::fuzzRaw);
        for (const QByteArray &seed : at::fuzz::raw_records::rawSeeds())
            at::fuzz::fuzzRaw(reinterpret_cast<const std::uint8_t *>(seed.constData()),
                              static_cast<std::size_t>(seed.size()));
    }
};

QTEST_GUILESS_MAIN(TestFuzzRegressions)
#include "tst_fuzz_regressions.moc"
