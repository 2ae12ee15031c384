// The bad-input rows of docs/ROBUSTNESS.md that no other suite covers, all through at::loadTrace (what the
// GUI and the command line call): deep nesting, a 100 MB string, NaN / negative / huge ts and dur, B/E and
// flow halves without partners, one pid with two names, unreadable files, 100 000 files, cancelling, and
// the data-safety rules (an opened folder is not changed, a read-only folder opens). Each input either
// loads, keeping every readable event, or fails with a message naming the file.

#include "ParserTestUtil.h"
#include "Sanitized.h"
#include "TraceQueries.h"
#include "Unprivileged.h"

#include <QCryptographicHash>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <chrono>
#include <map>
#include <thread>

#include <malloc.h>
#include <unistd.h>

namespace {

const QByteArray kGoodEvent =
    "{\"ph\":\"X\",\"name\":\"good\",\"pid\":1,\"tid\":1,\"ts\":\"1736408883000000.000\",\"dur\":5}";

// A trace with `middle` between two good events (the second 1 ms later).
QByteArray traceAround(const QByteArray &middle)
{
    return "[" + kGoodEvent + ",\n" + middle + ",\n" +
           "{\"ph\":\"X\",\"name\":\"good2\",\"pid\":1,\"tid\":1,\"ts\":\"1736408883001000.000\",\"dur\":5}" +
           "]\n";
}

bool hasSlice(const at::TraceModel &m, const QString &name)
{
    for (std::size_t t = 0; t < m.threads().size(); ++t)
        if (!pt::slicesNamed(m, static_cast<int>(t), name).empty())
            return true;
    return false;
}

// Path -> size, mtime, ctime, permissions and content hash of everything under `root`.
std::map<QString, QString> snapshot(const QString &root)
{
    std::map<QString, QString> out;
    QDirIterator it(root, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QFileInfo fi(path);
        QString state = QStringLiteral("%1 %2 %3 %4")
                            .arg(fi.size())
                            .arg(fi.lastModified().toMSecsSinceEpoch())
                            .arg(fi.metadataChangeTime().toMSecsSinceEpoch())
                            .arg(static_cast<int>(fi.permissions()));
        if (fi.isFile()) {
            QFile f(path);
            if (f.open(QIODevice::ReadOnly))
                state += QString::fromLatin1(
                    QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha1).toHex());
        }
        out[path] = state;
    }
    return out;
}

bool copyTree(const QString &from, const QString &to)
{
    QDirIterator it(from, QDir::AllEntries | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    if (!QDir().mkpath(to))
        return false;
    while (it.hasNext()) {
        const QString path = it.next();
        const QString target = to + path.mid(from.size());
        if (QFileInfo(path).isDir() ? !QDir().mkpath(target) : !QFile::copy(path, target))
            return false;
    }
    return true;
}

void setTreeWritable(const QString &root, bool writable)
{
    QDirIterator it(root, QDir::AllEntries | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    QStringList paths{root};
    while (it.hasNext())
        paths << it.next();
    for (const QString &p : paths) {
        QFileDevice::Permissions perms = QFile::permissions(p);
        const auto write = QFileDevice::WriteOwner | QFileDevice::WriteUser | QFileDevice::WriteGroup |
                           QFileDevice::WriteOther;
        QFile::setPermissions(p, writable ? (perms | QFileDevice::WriteOwner | QFileDevice::WriteUser)
                                          : (perms & ~write));
    }
}

} // namespace

class TestBadInput : public QObject
{
    Q_OBJECT

    QTemporaryDir tmp;

    // Loads `bytes` as <name>: either a model that kept both good events, or an error naming the file.
    void loadKeepsGoodEvents(const QString &name, const QByteArray &bytes, bool mustLoad)
    {
        const QString path = pt::writeFile(tmp, name, bytes);
        const at::LoadResult r = pt::load(path);
        QVERIFY(!r.cancelled());
        if (!r.model) {
            QVERIFY2(!mustLoad, qPrintable(r.error));
            QVERIFY2(r.error.contains(path), qPrintable(r.error));
            return;
        }
        QVERIFY2(hasSlice(*r.model, QStringLiteral("good")), qPrintable(pt::warningsText(*r.model)));
        QVERIFY2(hasSlice(*r.model, QStringLiteral("good2")), qPrintable(pt::warningsText(*r.model)));
        QVERIFY(r.model->dataEnd() >= r.model->dataBegin());
    }

private slots:
    void initTestCase() { QVERIFY(tmp.isValid()); }

    // Nesting 10 000 deep: inside one event's args (the event is dropped or kept, the others are kept)
    // and as the whole file (not a trace: an error naming the file).
    void deepNesting()
    {
        const QByteArray deep = QByteArray(10000, '[') + QByteArray(10000, ']');
        const QByteArray event = "{\"ph\":\"X\",\"name\":\"deep\",\"pid\":1,\"tid\":1,\"ts\":"
                                 "\"1736408883000100.000\",\"dur\":1,\"args\":{\"a\":" +
                                 deep + "}}";
        loadKeepsGoodEvents(QStringLiteral("deep_args.json"), traceAround(event), true);
        const QString path = pt::writeFile(tmp, QStringLiteral("deep_file.json"), deep);
        const at::LoadResult r = pt::load(path);
        QVERIFY(!r.model);
        QVERIFY2(r.error.contains(path), qPrintable(r.error));
        const QString objects = pt::writeFile(tmp, QStringLiteral("deep_objects.json"),
                                              "[" + QByteArray(10000, '{').replace("{", "{\"a\":") + "1" +
                                                  QByteArray(10000, '}') + "," + kGoodEvent + "]");
        const at::LoadResult o = pt::load(objects);
        QVERIFY(o.model || o.error.contains(objects));
        if (o.model)
            QVERIFY(hasSlice(*o.model, QStringLiteral("good")));
    }

    // A single 100 MB string: as an event's name (kept, with the events around it) and as an arg.
    void hugeString()
    {
        const QByteArray big(100 << 20, 'x');
        const QByteArray event = "{\"ph\":\"X\",\"name\":\"" + big +
                                 "\",\"pid\":1,\"tid\":1,\"ts\":\"1736408883000100.000\",\"dur\":1}";
        loadKeepsGoodEvents(QStringLiteral("huge_name.json"), traceAround(event), true);
        const QByteArray arg =
            "{\"ph\":\"X\",\"name\":\"big "
            "arg\",\"pid\":1,\"tid\":1,\"ts\":\"1736408883000100.000\",\"dur\":1,\"args\":{\"s\":\"" +
            big + "\"}}";
        loadKeepsGoodEvents(QStringLiteral("huge_arg.json"), traceAround(arg), true);
    }

    // NaN, negative and huge ts / dur: the event is skipped or clamped, never a negative duration, and the
    // good events keep their exact times.
    void badNumbers_data()
    {
        QTest::addColumn<QByteArray>("fields");
        QTest::newRow("ts NaN literal") << QByteArray("\"ts\":NaN,\"dur\":1");
        QTest::newRow("ts \"NaN\"") << QByteArray("\"ts\":\"NaN\",\"dur\":1");
        QTest::newRow("ts \"inf\"") << QByteArray("\"ts\":\"inf\",\"dur\":1");
        QTest::newRow("ts negative") << QByteArray("\"ts\":-1736408883000000,\"dur\":1");
        QTest::newRow("ts 1e300") << QByteArray("\"ts\":1e300,\"dur\":1");
        QTest::newRow("ts \"1e400\"") << QByteArray("\"ts\":\"1e400\",\"dur\":1");
        QTest::newRow("ts 30 digits") << QByteArray("\"ts\":999999999999999999999999999999,\"dur\":1");
        QTest::newRow("ts int64 min") << QByteArray("\"ts\":-9223372036854775808,\"dur\":1");
        // Regression (fuzz_json, fuzz_sqlite): -9e18 ns beside epoch times overflowed the origin arithmetic.
        QTest::newRow("ts -9e18 ns") << QByteArray("\"ts\":\"-9000000000000000\",\"dur\":1");
        QTest::newRow("ts +9e18 ns") << QByteArray("\"ts\":\"9000000000000000\",\"dur\":1");
        QTest::newRow("dur NaN") << QByteArray("\"ts\":\"1736408883000100.000\",\"dur\":\"NaN\"");
        QTest::newRow("dur negative") << QByteArray("\"ts\":\"1736408883000100.000\",\"dur\":-5");
        QTest::newRow("dur 1e300") << QByteArray("\"ts\":\"1736408883000100.000\",\"dur\":1e300");
        QTest::newRow("dur 30 digits")
            << QByteArray("\"ts\":\"1736408883000100.000\",\"dur\":999999999999999999999999999999");
        QTest::newRow("ts and dur max")
            << QByteArray("\"ts\":9223372036854775807,\"dur\":9223372036854775807");
    }
    void badNumbers()
    {
        QFETCH(QByteArray, fields);
        const QByteArray event = "{\"ph\":\"X\",\"name\":\"bad\",\"pid\":1,\"tid\":1," + fields + "}";
        const QString path = pt::writeFile(tmp, QStringLiteral("numbers.json"), traceAround(event));
        const auto m = pt::loadOk(path);
        QVERIFY(m);
        const int thread = pt::threadWithTid(*m, pt::processWithPid(*m, 1), 1);
        const at::SliceRef good =
            pt::sliceAtAbsolute(*m, thread, QStringLiteral("good"), 1736408883000000000);
        QVERIFY2(good.isValid(), qPrintable(pt::dumpModel(*m)));
        QCOMPARE(pt::table(*m, good).duration(good.index), at::TimeNs(5000));
        for (std::size_t t = 0; t < m->threads().size(); ++t) {
            const at::SliceTable &s = m->threads()[t].slices;
            for (std::uint32_t i = 0; i < s.size(); ++i)
                QVERIFY(s.duration(i) >= 0);
        }
    }

    // B without E runs to the end of the trace; E without B is dropped; the rest is kept.
    void unpairedBeginEnd()
    {
        const QByteArray middle =
            "{\"ph\":\"B\",\"name\":\"open\",\"pid\":1,\"tid\":2,\"ts\":\"1736408883000100.000\"},"
            "{\"ph\":\"E\",\"pid\":1,\"tid\":3,\"ts\":\"1736408883000200.000\"}";
        const QString path = pt::writeFile(tmp, QStringLiteral("unpaired.json"), traceAround(middle));
        const auto m = pt::loadOk(path);
        QVERIFY(m);
        QVERIFY(hasSlice(*m, QStringLiteral("good")));
        QVERIFY(hasSlice(*m, QStringLiteral("good2")));
        QVERIFY(hasSlice(*m, QStringLiteral("open")));
    }

    // Regression (fuzz_json): B without E at ts = 0 among epoch timestamps runs to the end of the trace,
    // ~1.7e18 ns; six of them overflowed the int64 total of the summary (signed overflow, UB).
    void unpairedBeginAtZeroInSummary()
    {
        QByteArray middle;
        for (int i = 0; i < 6; ++i)
            middle += QByteArray("{\"ph\":\"B\",\"name\":\"open\",\"pid\":1,\"tid\":") +
                      QByteArray::number(10 + i) + ",\"ts\":\"0.000\"},";
        middle.chop(1);
        const QString path = pt::writeFile(tmp, QStringLiteral("unpaired_zero.json"), traceAround(middle));
        const auto m = pt::loadOk(path);
        QVERIFY(m);
        QVERIFY(hasSlice(*m, QStringLiteral("open")));
        const at::TraceSummary summary = at::summarize(*m);
        QVERIFY(!summary.topNames.empty());
        for (const at::NameStatistics &s : summary.topNames)
            QVERIFY2(s.total >= 0 && s.self >= 0, qPrintable(m->strings().qstring(s.name)));
    }

    // Flow halves without partners (s without f, f without s, t alone) bind to nothing, load nonetheless.
    void unmatchedFlowHalves()
    {
        const QByteArray middle = "{\"ph\":\"s\",\"id\":\"1\",\"cat\":\"c\",\"name\":\"f\",\"pid\":1,\"tid\":"
                                  "1,\"ts\":\"1736408883000001.000\"},"
                                  "{\"ph\":\"f\",\"bp\":\"e\",\"id\":\"2\",\"cat\":\"c\",\"name\":\"f\","
                                  "\"pid\":1,\"tid\":1,\"ts\":\"1736408883001001.000\"},"
                                  "{\"ph\":\"t\",\"id\":\"3\",\"cat\":\"c\",\"name\":\"f\",\"pid\":1,\"tid\":"
                                  "1,\"ts\":\"1736408883001002.000\"}";
        const QString path = pt::writeFile(tmp, QStringLiteral("flows.json"), traceAround(middle));
        const auto m = pt::loadOk(path);
        QVERIFY(m);
        QVERIFY(hasSlice(*m, QStringLiteral("good")));
        for (const at::FlowInfo &f : m->flows())
            QVERIFY(!(f.from.isValid() && f.to.isValid()));
    }

    // One pid, two process_name records: one process, named by one of them.
    void conflictingProcessNames()
    {
        const QByteArray middle =
            "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"First\"}},"
            "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"Second\"}}";
        const QString path = pt::writeFile(tmp, QStringLiteral("names.json"), traceAround(middle));
        const auto m = pt::loadOk(path);
        QVERIFY(m);
        int withPid1 = 0;
        for (std::size_t p = 0; p < m->processes().size(); ++p)
            if (pt::processWithPid(*m, 1) == static_cast<int>(p))
                ++withPid1;
        QCOMPARE(withPid1, 1);
        const QString name = m->processDisplayName(pt::processWithPid(*m, 1));
        QVERIFY2(name.contains(QStringLiteral("First")) || name.contains(QStringLiteral("Second")),
                 qPrintable(name));
    }

    // A result folder whose timeline cannot be read (a dangling link; chmod 000) fails with
    // a message naming the folder or file instead of crashing or hanging.
    void unreadableTimeline()
    {
        const QString root = tmp.filePath(QStringLiteral("unreadable/r_ascend_pt/ASCEND_PROFILER_OUTPUT"));
        QVERIFY(QDir().mkpath(root));
        QVERIFY(QFile::link(tmp.filePath(QStringLiteral("nowhere.json")),
                            root + QStringLiteral("/trace_view.json")));
        const at::LoadResult r = pt::load(tmp.filePath(QStringLiteral("unreadable")));
        QVERIFY(!r.cancelled());
        if (r.model)
            QVERIFY2(!r.model->warnings().isEmpty(), "a dangling timeline link loaded without a warning");
        else
            QVERIFY2(r.error.contains(tmp.filePath(QStringLiteral("unreadable"))), qPrintable(r.error));

        const QString locked = tmp.filePath(QStringLiteral("locked.json"));
        pt::writeFile(tmp, QStringLiteral("locked.json"), traceAround(kGoodEvent));
        QVERIFY(QFile::setPermissions(locked, QFileDevice::Permissions()));
        at::LoadResult l;
        {
            const at::test::AsUnprivilegedUser unprivileged(tmp.path()); // root reads chmod 000 files
            QVERIFY(unprivileged.ok());
            l = pt::load(locked);
        }
        QFile::setPermissions(locked, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        QVERIFY(!l.model);
        QVERIFY2(l.error.contains(locked), qPrintable(l.error));
    }

    // 100 000 unrelated files beside a result: found, loaded, in reasonable time.
    void hundredThousandFiles()
    {
        const QString root = tmp.filePath(QStringLiteral("many"));
        const QString junk = root + QStringLiteral("/junk");
        QVERIFY(QDir().mkpath(junk));
        for (int i = 0; i < 100000; ++i) {
            QFile f(junk + QStringLiteral("/f%1.txt").arg(i));
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        QVERIFY(QDir().mkpath(root + QStringLiteral("/r_ascend_pt/ASCEND_PROFILER_OUTPUT")));
        pt::writeFile(tmp, QStringLiteral("many/r_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"),
                      traceAround(kGoodEvent));
        QElapsedTimer timer;
        timer.start();
        const auto m = pt::loadOk(root);
        QVERIFY(m);
        QVERIFY(hasSlice(*m, QStringLiteral("good2")));
        QVERIFY2(timer.elapsed() < 60000, qPrintable(QString::number(timer.elapsed())));
        QDir(junk).removeRecursively();
    }

    // Cancel stops a large load within 200 ms (LoadControl::cancel is checked per chunk).
    void cancelWithin200ms()
    {
        QByteArray trace = "[";
        const QByteArray event = "{\"ph\":\"X\",\"name\":\"kernel\",\"pid\":1,\"tid\":1,\"ts\":"
                                 "\"1736408883000000.000\",\"dur\":1,\"args\":{\"k\":\"v\"}},"
                                 "\n";
        trace.reserve(event.size() * 1200000 + 100);
        for (int i = 0; i < 1200000; ++i)
            trace += event;
        trace += kGoodEvent + "]";
        const QString path = pt::writeFile(tmp, QStringLiteral("large.json"), trace);
        trace.clear();
        at::LoadControl control;
        std::atomic<bool> done{false};
        std::thread worker([&] {
            (void)at::loadTrace(path, at::environmentLoadOptions(), control);
            done = true;
        });
        while (control.bytesDone.load() == 0 && !done)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        QElapsedTimer timer;
        timer.start();
        control.cancel = true;
        while (!done && timer.elapsed() < 5000)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        const qint64 elapsed = timer.elapsed();
        worker.join();
        QFile::remove(path);
        // The bound is the normal build's; AddressSanitizer makes every chunk 2-3× slower to reach.
        const qint64 bound = at::test::kSanitized ? 600 : 200;
        QVERIFY2(elapsed < bound, qPrintable(QStringLiteral("cancel took %1 ms").arg(elapsed)));
    }

    // Kernel table rows 146+ years from 1970 (beyond ±2^62 ns, where differences overflow int64) are kept,
    // clamped, and counted in a warning; the good row keeps its exact time.
    void extremeKernelRowTimes()
    {
        const QString out = QStringLiteral("extreme/r_ascend_pt/ASCEND_PROFILER_OUTPUT");
        QVERIFY(QDir().mkpath(tmp.filePath(out)));
        pt::writeFile(tmp, out + QStringLiteral("/trace_view.json"), traceAround(kGoodEvent));
        pt::writeFile(tmp, out + QStringLiteral("/kernel_details.csv"),
                      "Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us)\n"
                      "good,MatMul,AI_CORE,1736408883000000.000,5,0\n"
                      "late,MatMul,AI_CORE,5000000000000000.000,9000000000000000,0\n"
                      "early,MatMul,AI_CORE,-5000000000000000.000,5,-3\n");
        const auto m = pt::loadOk(tmp.filePath(QStringLiteral("extreme")));
        QVERIFY(m);
        QCOMPARE(m->kernels().size(), std::size_t(3));
        QVERIFY2(m->warnings().join('\n').contains(QStringLiteral("2 kernel table rows")),
                 qPrintable(m->warnings().join('\n')));
        for (const at::KernelRecord &k : m->kernels().rows()) {
            QVERIFY(k.duration >= 0 && k.wait >= 0);
            if (m->strings().view(k.name) == "good") {
                QCOMPARE(k.start + m->origin(), 1736408883000000000LL);
                QCOMPARE(k.duration, 5000);
            }
        }
    }

    // The memory limit: reading stops at its share of the limit instead of the process being killed; the
    // events read before are kept (the first ones of the file, in order) and a warning names the file
    // and where reading stopped. Without a limit the same file loads whole.
    void memoryLimitKeepsWhatWasRead()
    {
        constexpr int kEvents = 400000;
        QByteArray trace = "[";
        trace.reserve(qsizetype(kEvents) * 100);
        for (int i = 0; i < kEvents; ++i)
            trace += "{\"ph\":\"X\",\"name\":\"k" + QByteArray::number(i % 5000) +
                     "\",\"pid\":1,\"tid\":" + QByteArray::number(i % 8) + ",\"ts\":\"" +
                     QByteArray::number(1736408883000000LL + i) + ".000\",\"dur\":1}" +
                     (i + 1 < kEvents ? ",\n" : "]\n");
        const QString path = pt::writeFile(tmp, QStringLiteral("memory.json"), trace);
        trace = QByteArray();
        ::malloc_trim(0); // memory freed by earlier tests would otherwise be reused without growing

        at::LoadControl limited;
        const std::uint64_t room = 4u << 20; // a small part of what the whole file needs
        auto limitedOptions = at::environmentLoadOptions();
        limitedOptions.memoryLimitBytes = static_cast<std::uint64_t>(
            static_cast<double>(at::privateResidentBytes() + room) / at::kReadingShareOfLimit);
        at::LoadResult part = at::loadTrace(path, limitedOptions, limited);
        QVERIFY2(part.model, qPrintable(part.error));
        QVERIFY(!part.cancelled());
        QVERIFY(limited.memoryLimitReached);
        QVERIFY(!limited.cancel);
        const std::size_t kept = part.model->sliceCount();
        QVERIFY2(kept > 0 && kept < static_cast<std::size_t>(kEvents), qPrintable(QString::number(kept)));
        const QString warning = part.model->warnings().join(QLatin1Char('\n'));
        QVERIFY2(warning.contains(path) && warning.contains(QStringLiteral("memory use reached the limit")),
                 qPrintable(warning));
        // The kept events are the first ones: their timestamps run without a gap from the first.
        QCOMPARE(part.model->fullEnd() - part.model->fullBegin(), static_cast<at::TimeNs>(kept) * 1000);
        // The warning says where reading stopped: the end of the last kept event (a stop inside the first
        // chunk used to read "at byte 0").
        const QRegularExpressionMatch at =
            QRegularExpression(QStringLiteral("at byte (\\d+) of (\\d+)")).match(warning);
        QVERIFY2(at.hasMatch(), qPrintable(warning));
        QFile written(path);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QByteArray text = written.readAll();
        QCOMPARE(at.captured(2).toLongLong(), text.size());
        qsizetype lastKeptEnd = -1;
        for (std::size_t i = 0; i < kept; ++i)
            lastKeptEnd = text.indexOf('}', lastKeptEnd + 1);
        const qint64 stoppedAt = at.captured(1).toLongLong();
        QVERIFY2(
            stoppedAt >= lastKeptEnd + 1 && stoppedAt <= lastKeptEnd + 3,
            qPrintable(QStringLiteral("%1 vs the kept events' end %2").arg(stoppedAt).arg(lastKeptEnd + 1)));
        part.model.reset();

        at::LoadControl unlimited;
        auto unlimitedOptions = at::environmentLoadOptions();
        unlimitedOptions.memoryLimitBytes = 0;
        const at::LoadResult whole = at::loadTrace(path, unlimitedOptions, unlimited);
        QVERIFY2(whole.model, qPrintable(whole.error));
        QCOMPARE(whole.model->sliceCount(), static_cast<std::size_t>(kEvents));
        QVERIFY(!unlimited.memoryLimitReached);
        QFile::remove(path);
    }

    void byteSizes()
    {
        QCOMPARE(at::parseByteSize(QStringLiteral("8G")).value_or(0), std::uint64_t{8} << 30);
        QCOMPARE(at::parseByteSize(QStringLiteral("512MiB")).value_or(0), std::uint64_t{512} << 20);
        QCOMPARE(at::parseByteSize(QStringLiteral("1.5g")).value_or(0), std::uint64_t{3} << 29);
        QCOMPARE(at::parseByteSize(QStringLiteral("4096")).value_or(0), std::uint64_t{4096});
        QVERIFY(!at::parseByteSize(QStringLiteral("lots")));
        QVERIFY(!at::parseByteSize(QStringLiteral("0")));
        QVERIFY(!at::parseByteSize(QStringLiteral("-1G")));
        QVERIFY(at::defaultMemoryLimit() > 0);
    }

    // Opening a result changes nothing in it (sizes, contents, mtime, ctime, permissions, no new files),
    // and a read-only copy opens.
    void folderIsNotChangedAndReadOnlyOpens()
    {
        const QString sample =
            QFileInfo(pt::samplePath(pt::kLevel1Rank0)).dir().absolutePath() + QStringLiteral("/..");
        const QString copy = tmp.filePath(QStringLiteral("readonly/rank0_ascend_pt"));
        QVERIFY(copyTree(QDir(sample).absolutePath(), copy));
        setTreeWritable(tmp.filePath(QStringLiteral("readonly")), false);
        const auto before = snapshot(copy);
        QVERIFY(before.size() > 3);
        std::this_thread::sleep_for(std::chrono::milliseconds(20)); // a write would move the clocks
        at::LoadResult r = pt::load(tmp.filePath(QStringLiteral("readonly")));
        QVERIFY2(r.model, qPrintable(r.error));
        QVERIFY(r.model->sliceCount() > 0);
        r.model.reset();
        const auto after = snapshot(copy);
        setTreeWritable(tmp.filePath(QStringLiteral("readonly")), true);
        QCOMPARE(after.size(), before.size());
        for (const auto &[path, state] : before)
            QVERIFY2(after.count(path) && after.at(path) == state, qPrintable(path));
    }
};

QTEST_GUILESS_MAIN(TestBadInput)
#include "tst_bad_input.moc"
