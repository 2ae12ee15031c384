// A PyTorch (Kineto) GPU trace is read once (issue 30): the kernel rows and the `[memory]` profile come from
// the events as the JSON reader merges them (KinetoTrace → GpuEventCollector), not from a second pass over
// the file. The test reads df_index_resolver.json the way JsonTimelineReader does (ChromeTraceParser with the
// Kineto dialect), then blanks every byte of the event array before the rows are made: a reader that went
// back to the text would find no kernel and no [memory] event there. The rows and curves must still equal
// what this test computes from the JSON text itself (QJsonDocument): counts, sums of dur, one kernel's launch
// figures, the memory peaks.

#include "KernelTable.h"
#include "KinetoSampleJson.h"
#include "TraceBuilder.h"
#include "kineto/KinetoMemory.h"
#include "kineto/KinetoTrace.h"
#include "json/ChromeTraceParser.h"

#include <QTest>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <mutex>
#include <thread>

using namespace at;

namespace {

const QString kDf = QStringLiteral("df_index_resolver.json.gz");

QByteArray decompressedText(const QString &path)
{
    QString error;
    const auto file = decompressToTemporaryFile(path, detectCompression(path), {}, &error);
    if (!file || !(file->isOpen() || file->open()) || !file->seek(0)) {
        qWarning("cannot decompress %s: %s", qPrintable(path), qPrintable(error));
        return {};
    }
    return file->readAll();
}

qint64 product(const QJsonArray &dims)
{
    qint64 p = 1;
    for (const QJsonValue &v : dims)
        p *= v.toInteger();
    return p;
}

// What the JSON text says the kernel table and the memory profile must hold.
struct Expected
{
    std::size_t kernels = 0;
    qint64 kernelNs = 0;                  // sum of the kernels' dur
    std::map<qint64, std::size_t> stream; // kernels per stream
    QJsonObject widest;                   // the kernel with the largest grid (first one)
    std::size_t deviceMemoryEvents = 0;   // [memory] with Device Type 1 (CUDA)
    std::size_t deviceAllocations = 0;    // of which Bytes > 0
    qint64 allocatedBytes = 0;            // their sum
    qint64 peakAllocated = 0, peakReserved = 0;
};

Expected expectedOf(const QJsonObject &root)
{
    Expected x;
    qint64 widestGrid = -1;
    for (const QJsonValue &value : root.value(QStringLiteral("traceEvents")).toArray()) {
        const QJsonObject e = value.toObject();
        const QJsonObject args = e.value(QStringLiteral("args")).toObject();
        if (e.value(QStringLiteral("cat")).toString() == QLatin1String("kernel") &&
            e.value(QStringLiteral("ph")).toString() == QLatin1String("X") &&
            (args.contains(QStringLiteral("grid")) || args.contains(QStringLiteral("block")))) {
            ++x.kernels;
            x.kernelNs += test::microsToNs(e.value(QStringLiteral("dur")));
            ++x.stream[args.value(QStringLiteral("stream")).toInteger()];
            const qint64 grid = product(args.value(QStringLiteral("grid")).toArray());
            if (grid > widestGrid) {
                widestGrid = grid;
                x.widest = e;
            }
        } else if (e.value(QStringLiteral("name")).toString() == QLatin1String("[memory]") &&
                   args.value(QStringLiteral("Device Type")).toInteger() == kineto::kCudaDeviceType) {
            ++x.deviceMemoryEvents;
            const qint64 bytes = args.value(QStringLiteral("Bytes")).toInteger();
            if (bytes > 0) {
                ++x.deviceAllocations;
                x.allocatedBytes += bytes;
            }
            x.peakAllocated =
                std::max(x.peakAllocated, args.value(QStringLiteral("Total Allocated")).toInteger());
            x.peakReserved =
                std::max(x.peakReserved, args.value(QStringLiteral("Total Reserved")).toInteger());
        }
    }
    return x;
}

double metricOf(const TraceModel &model, std::size_t row, const char *header)
{
    const int c = model.kernels().columnIndex(QString::fromLatin1(header));
    return c < 0 ? std::nan("") : model.kernels().metric(row, static_cast<std::size_t>(c));
}

// The Kineto dialect as the parser sees it, noting on which thread each chunk was prepared and what the
// text reading there (kineto::prepareGpuEvents) left to the loading thread.
class RecordingDialect : public EventDialect
{
public:
    explicit RecordingDialect(KinetoTrace &inner) : m_inner(inner) {}

    std::unique_ptr<PreparedChunk> newPreparedChunk() const override { return m_inner.newPreparedChunk(); }
    void prepare(const jsonkernel::ChunkResult &chunk, const ChunkText &text,
                 PreparedChunk &out) const override
    {
        m_inner.prepare(chunk, text, out);
        const auto &prepared = dynamic_cast<const kineto::PreparedGpuEvents &>(out);
        std::lock_guard lock(m_mutex);
        ++chunks;
        if (std::this_thread::get_id() == m_loadingThread)
            ++onLoadingThread;
        for (const kineto::PreparedGpuEvents::Item &item : prepared.items)
            ++steps[static_cast<std::size_t>(item.step)];
    }
    void merge(const jsonkernel::ChunkResult &chunk, const std::vector<StringId> &globalIds,
               std::uint32_t sourceIndex, const ChunkText &text, const PreparedChunk *prepared) override
    {
        if (!prepared)
            ++mergedUnprepared;
        m_inner.merge(chunk, globalIds, sourceIndex, text, prepared);
    }

    std::size_t step(kineto::PreparedGpuEvents::Step s) const { return steps[static_cast<std::size_t>(s)]; }

    mutable std::size_t chunks = 0, onLoadingThread = 0;
    mutable std::array<std::size_t, 6> steps{};
    std::size_t mergedUnprepared = 0;

private:
    KinetoTrace &m_inner;
    const std::thread::id m_loadingThread = std::this_thread::get_id();
    mutable std::mutex m_mutex;
};

// `text` with every `every`-th occurrence of `needle` (the first included) edited: the text up to and with
// the needle is copied, then edit(out, after the needle, end of text) appends what it wants and returns
// how many bytes after the needle it stands for. One pass: editing in place would move the 54 MB at every
// edit.
template <class Edit>
QByteArray editEvery(const QByteArray &text, const QByteArray &needle, int every, std::size_t *edits,
                     Edit edit)
{
    QByteArray out;
    out.reserve(text.size() + text.size() / 50);
    qsizetype copied = 0; // the text before this is in `out`
    int n = 0;
    for (qsizetype at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.size())) {
        if (n++ % every != 0)
            continue;
        const qsizetype after = at + needle.size();
        out.append(text.constData() + copied, after - copied);
        const char *end = text.constData() + text.size();
        copied = after + static_cast<qsizetype>(edit(out, text.constData() + after, end));
        ++*edits;
    }
    out.append(text.constData() + copied, text.size() - copied);
    return out;
}

// Reads `text` as JsonTimelineReader reads a Kineto trace. scrub: every byte of the event array is blanked
// once the parse is over, before the kernel rows and memory curves are made. record: the dialect is
// wrapped in a RecordingDialect, which is left there.
std::unique_ptr<TraceModel> readKineto(QByteArray text, const ParseControl &control, bool scrub,
                                       std::unique_ptr<RecordingDialect> *record = nullptr)
{
    const QString path = QStringLiteral("df_index_resolver.json");
    char *data = text.data(); // detached: the buffer blanked below is the one parsed
    const auto size = static_cast<std::size_t>(text.size());
    TraceBuilder builder;
    const int group = builder.addGroup(SourceGroup{});
    ChromeTraceParser parser(builder, builder.addSource(path, nullptr), path);
    const std::unique_ptr<KinetoTrace> kineto = KinetoTrace::recognise(data, size, builder, group, path);
    if (!kineto) {
        qWarning("not recognised as a Kineto trace");
        return nullptr;
    }
    parser.setDialect(kineto.get());
    if (record) {
        *record = std::make_unique<RecordingDialect>(*kineto);
        parser.setDialect(record->get());
    }
    QString error;
    if (parser.parse(data, size, control, &error) != ChromeTraceParser::Result::Ok) {
        qWarning("%s", qPrintable(error));
        return nullptr;
    }
    const std::size_t arrayEnd = parser.eventArrayEnd();
    if (scrub) {
        const std::size_t arrayBegin = static_cast<std::size_t>(text.indexOf("\"traceEvents\"")) + 1;
        if (arrayEnd <= arrayBegin + 2 || arrayEnd > size) {
            qWarning("no event array end");
            return nullptr;
        }
        const std::size_t open =
            static_cast<std::size_t>(text.indexOf('[', static_cast<qsizetype>(arrayBegin)));
        std::fill(data + open + 1, data + arrayEnd - 1, ' ');
    }
    kineto->finish(data, size, arrayEnd);
    kineto->addGpuData();
    return builder.build();
}

} // namespace

class TestKinetoOnePass : public QObject
{
    Q_OBJECT

    QByteArray m_text;
    Expected m_expected;

    static void checkAgainstTheText(const TraceModel &m, const Expected &expected)
    {
        const KernelTable &table = m.kernels();
        QCOMPARE(table.size(), expected.kernels);
        QCOMPARE(table.unjoinedCount(), std::size_t(0));
        qint64 durations = 0;
        std::map<qint64, std::size_t> perStream;
        for (const KernelRecord &k : table.rows()) {
            durations += k.duration;
            ++perStream[k.streamId];
        }
        QCOMPARE(durations, expected.kernelNs);
        QVERIFY(perStream == expected.stream);

        // The kernel with the widest grid, found by its correlation id: its launch figures as written.
        const QJsonObject args = expected.widest.value(QStringLiteral("args")).toObject();
        const double correlation = static_cast<double>(args.value(QStringLiteral("correlation")).toInteger());
        std::size_t row = table.size();
        for (std::size_t r = 0; r < table.size(); ++r)
            if (metricOf(m, r, "correlation") == correlation)
                row = r;
        QVERIFY(row < table.size());
        QCOMPARE(metricOf(m, row, "grid size"),
                 static_cast<double>(product(args.value(QStringLiteral("grid")).toArray())));
        QCOMPARE(metricOf(m, row, "block size"),
                 static_cast<double>(product(args.value(QStringLiteral("block")).toArray())));
        QCOMPARE(metricOf(m, row, "registers per thread"),
                 args.value(QStringLiteral("registers per thread")).toDouble());
        QCOMPARE(metricOf(m, row, "shared memory(B)"),
                 args.value(QStringLiteral("shared memory")).toDouble());
        QCOMPARE(metricOf(m, row, "est. achieved occupancy(%)"),
                 args.value(QStringLiteral("est. achieved occupancy %")).toDouble());
        QCOMPARE(table.rows()[row].duration, test::microsToNs(expected.widest.value(QStringLiteral("dur"))));
        QCOMPARE(m.strings().qstring(table.rows()[row].name),
                 expected.widest.value(QStringLiteral("name")).toString());

        // One CUDA curve sample per device [memory] event; allocations with their bytes; the peaks.
        const MemoryProfile &memory = m.memory();
        std::size_t samples = 0;
        qint64 peakAllocated = 0, peakReserved = 0;
        for (const MemoryCurve &curve : memory.curves) {
            samples += curve.times.size();
            for (std::int64_t v : curve.allocated)
                peakAllocated = std::max<qint64>(peakAllocated, v);
            for (std::int64_t v : curve.reserved)
                peakReserved = std::max<qint64>(peakReserved, v);
        }
        QCOMPARE(samples, expected.deviceMemoryEvents);
        QCOMPARE(peakAllocated, expected.peakAllocated);
        QCOMPARE(peakReserved, expected.peakReserved);
        std::size_t allocations = 0;
        qint64 allocatedBytes = 0;
        for (const MemoryAllocation &a : memory.allocations) {
            if (a.allocation == kNoTime)
                continue;
            ++allocations;
            allocatedBytes += a.bytes;
        }
        QCOMPARE(allocations, expected.deviceAllocations);
        QCOMPARE(allocatedBytes, expected.allocatedBytes);
    }

private slots:
    void initTestCase()
    {
        m_text = decompressedText(test::kinetoSample(kDf));
        QVERIFY(!m_text.isEmpty());
        QJsonParseError error;
        const QJsonObject root = QJsonDocument::fromJson(m_text, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        m_expected = expectedOf(root);
        QVERIFY(m_expected.kernels > 1000);
        QVERIFY(m_expected.deviceMemoryEvents > 1000);
        QVERIFY(product(m_expected.widest.value(QStringLiteral("args"))
                            .toObject()
                            .value(QStringLiteral("grid"))
                            .toArray()) > 1);
    }

    // The event text is gone once the parse is over: the rows and curves are still all there, as the
    // text says. On one thread with the default chunks, and on two with small chunks (events looked up
    // in many chunks, merged while the other worker parses).
    void rowsComeFromTheParseAlone_data()
    {
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("chunkKb");
        QTest::newRow("1 thread") << 1 << 0;
        QTest::newRow("2 threads, 256 KB chunks") << 2 << 256;
    }
    void rowsComeFromTheParseAlone()
    {
        QFETCH(int, threads);
        QFETCH(int, chunkKb);
        ParseControl control;
        control.threads = threads;
        control.chunkBytes = static_cast<std::size_t>(chunkKb) << 10;
        const auto model = readKineto(m_text, control, true);
        QVERIFY(model);
        checkAgainstTheText(*model, m_expected);
    }

    // The kernel and [memory] args are read on the parse's worker threads (issue 30 item 4), before the
    // merge: with two threads no chunk is prepared on the loading thread, and every kernel launch and
    // [memory] event of the text was read there. Events the text reading does not take (a name with an
    // escape, a fractional "Bytes") are left to the loading thread, which parses them as before: the rows
    // and curves of the edited text are still what Qt's JSON reader says of it.
    void argsAreReadOnTheWorkers_data()
    {
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("chunkKb");
        QTest::newRow("1 thread") << 1 << 0;
        QTest::newRow("2 threads, 256 KB chunks") << 2 << 256;
        QTest::newRow("2 threads, default chunks") << 2 << 0;
    }
    void argsAreReadOnTheWorkers()
    {
        QFETCH(int, threads);
        QFETCH(int, chunkKb);
        // Every 7th kernel's name with an escaped first letter, every 5th "Bytes" written as a fraction.
        std::size_t escapedKernels = 0, fractionalBytes = 0;
        QByteArray text = editEvery(m_text, "\"cat\": \"kernel\", \"name\": \"v", 7, &escapedKernels,
                                    [](QByteArray &out, const char *, const char *) {
                                        out.chop(1);
                                        out += "\\u0076";
                                        return std::size_t(0);
                                    });
        text = editEvery(text, "\"Bytes\": ", 5, &fractionalBytes,
                         [](QByteArray &out, const char *at, const char *end) {
                             std::size_t digits = at < end && *at == '-' ? 1 : 0;
                             while (at + digits < end && at[digits] >= '0' && at[digits] <= '9')
                                 ++digits;
                             out.append(at, static_cast<qsizetype>(digits));
                             out += ".0";
                             return digits;
                         });
        QJsonParseError error;
        const QJsonObject root = QJsonDocument::fromJson(text, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        const Expected edited = expectedOf(root);
        QCOMPARE(edited.kernels, m_expected.kernels); // the edits change no value
        QCOMPARE(edited.peakAllocated, m_expected.peakAllocated);
        std::size_t memoryEvents = 0;
        for (const QJsonValue &value : root.value(QStringLiteral("traceEvents")).toArray())
            memoryEvents +=
                value.toObject().value(QStringLiteral("name")).toString() == QLatin1String("[memory]");
        QVERIFY(escapedKernels > 100 && fractionalBytes > 100);

        ParseControl control;
        control.threads = threads;
        control.chunkBytes = static_cast<std::size_t>(chunkKb) << 10;
        std::unique_ptr<RecordingDialect> record;
        const auto model = readKineto(text, control, true, &record);
        QVERIFY(model);
        QVERIFY(record->chunks > 0);
        QCOMPARE(record->mergedUnprepared, std::size_t(0));
        if (threads > 1)
            QCOMPARE(record->onLoadingThread, std::size_t(0));
        using Step = kineto::PreparedGpuEvents::Step;
        QCOMPARE(record->step(Step::KernelText), escapedKernels);
        QCOMPARE(record->step(Step::Kernel) + record->step(Step::KernelText), edited.kernels);
        QCOMPARE(record->step(Step::AllocatorText), fractionalBytes);
        QCOMPARE(record->step(Step::Allocator) + record->step(Step::AllocatorText), memoryEvents);
        QVERIFY(record->step(Step::CpuOp) > 1000);
        checkAgainstTheText(*model, edited);
        QCOMPARE(model->warnings().size(), readKineto(m_text, control, false)->warnings().size());
    }

    // The blanking is what the test above claims it is: blanked before the rows, the text has no kernel.
    void blankedTextHasNoKernels()
    {
        QByteArray text = m_text;
        const qsizetype open = text.indexOf('[', text.indexOf("\"traceEvents\""));
        const qsizetype close = text.lastIndexOf(']', text.indexOf("\"traceName\""));
        QVERIFY(open > 0 && close > open);
        std::fill(text.begin() + open + 1, text.begin() + close, ' ');
        StringPool strings;
        const kineto::GpuEvents events =
            kineto::scanGpuEvents(text.constData(), static_cast<std::size_t>(text.size()), strings);
        QCOMPARE(events.kernels.size(), std::size_t(0));
        QCOMPARE(events.allocatorEvents.size(), std::size_t(0));
    }
    // The key walk finds quotes sixteen bytes at a time: an escaped quote at every offset of a block must
    // not end its string (else every later string is read out of phase: keys as values, "grid" never
    // found), and a quote after an escaped backslash must. Expected values from Qt's JSON reader.
    void escapedQuotesAtEveryBlockOffset()
    {
        QByteArray text = "{\"traceEvents\": [\n";
        for (int k = 0; k < 40; ++k) {
            const QByteArray pad(k, 'x');
            text += (k ? ",\n" : "") +
                    QByteArray("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"kernel_") + pad +
                    "\", \"pid\": 1, \"tid\": 7, \"ts\": " + QByteArray::number(1000 + k) +
                    ", \"dur\": 2, \"args\": {\"note\": \"" + pad + "\\\"grid\", \"even\": \"" + pad +
                    "\\\\\", \"grid\": [" + QByteArray::number(k + 1) +
                    ", 2, 3], \"block\": [4, 5, 6], \"stream\": 7}}";
        }
        text += "\n]}";
        QJsonParseError error{};
        const QJsonArray events =
            QJsonDocument::fromJson(text, &error).object().value("traceEvents").toArray();
        QCOMPARE(error.error, QJsonParseError::NoError);
        StringPool strings;
        const kineto::GpuEvents found =
            kineto::scanGpuEvents(text.constData(), static_cast<std::size_t>(text.size()), strings);
        QCOMPARE(found.kernels.size(), std::size_t(events.size()));
        QCOMPARE(found.unreadable, std::size_t(0));
        for (qsizetype i = 0; i < events.size(); ++i) {
            const QJsonObject args = events[i].toObject().value("args").toObject();
            std::int64_t grid = 1, block = 1;
            for (const QJsonValue v : args.value("grid").toArray())
                grid *= v.toInteger();
            for (const QJsonValue v : args.value("block").toArray())
                block *= v.toInteger();
            const kineto::KernelEvent &k = found.kernels[static_cast<std::size_t>(i)];
            QCOMPARE(k.gridVolume, grid);
            QCOMPARE(k.blockVolume, block);
            QCOMPARE(strings.qstring(k.name), events[i].toObject().value("name").toString());
            QCOMPARE(k.stream, args.value("stream").toInteger());
        }
    }
};

QTEST_GUILESS_MAIN(TestKinetoOnePass)
#include "tst_kineto_one_pass.moc"
