// PyTorch profiler (Kineto) GPU traces read with their own rules (parser/kineto, FORMATS.md §10): the
// two real samples, every expected value computed here from the decompressed JSON text (numbers kept as
// written, see KinetoJsonText.h), and small synthetic traces for the timestamp eras of §10.2.

#include "KinetoJsonText.h"
#include "Steps.h"
#include "TestSupport.h"
#include "common/Decompress.h"

#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <set>

using namespace at;
using test::microsTextToNs;
using test::RawEvent;
using test::RawTrace;

namespace {

QString sample(const char *name)
{
    return test::samplePath(QStringLiteral("hta_kineto_gpu_traces/") + QString::fromLatin1(name));
}

QByteArray decompressedText(const QString &path)
{
    QString error;
    const auto file = decompressToTemporaryFile(path, detectCompression(path), DecompressControl{}, &error);
    if (!file || !(file->isOpen() || file->open()) || !file->seek(0)) {
        qWarning("cannot decompress %s: %s", qPrintable(path), qPrintable(error));
        return {};
    }
    return file->readAll();
}

const QSet<QString> &deviceCategories()
{
    static const QSet<QString> categories{QStringLiteral("kernel"), QStringLiteral("gpu_memcpy"),
                                          QStringLiteral("gpu_memset"),
                                          QStringLiteral("gpu_user_annotation")};
    return categories;
}

bool isTimed(const RawEvent &e)
{
    const QString ph = e.field("ph");
    return ph == QLatin1String("X") || ph == QLatin1String("i") || ph == QLatin1String("I");
}

// Absolute ns of an event's ts as FORMATS.md §10.2 defines it.
std::int64_t absoluteNs(const RawTrace &trace, const QString &ts)
{
    const QString base = trace.topScalars.value(QStringLiteral("baseTimeNanoseconds"));
    return (base.isEmpty() ? 0 : base.toLongLong()) + microsTextToNs(ts);
}

int processNamed(const TraceModel &model, const QString &name)
{
    for (std::size_t p = 0; p < model.processes().size(); ++p)
        if (model.processDisplayName(static_cast<int>(p)) == name)
            return static_cast<int>(p);
    return -1;
}

int threadNamed(const TraceModel &model, int process, const QString &name)
{
    if (process < 0)
        return -1;
    for (int t : model.processes()[static_cast<std::size_t>(process)].threads)
        if (model.threadDisplayName(t) == name)
            return t;
    return -1;
}

QString sliceArg(const TraceModel &model, SliceRef ref, const QString &key)
{
    for (const auto &[k, v] : model.sliceArgs(ref))
        if (k == key)
            return v;
    return {};
}

QString categoryOf(const TraceModel &model, SliceRef ref)
{
    return model.strings().qstring(
        model.threads()[static_cast<std::size_t>(ref.thread)].slices.category(ref.index));
}

TimeNs absoluteStart(const TraceModel &model, SliceRef ref)
{
    return model.origin() + model.threads()[static_cast<std::size_t>(ref.thread)].slices.start(ref.index);
}

std::unique_ptr<TraceModel> loadText(const QString &path, const QByteArray &text)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
        return nullptr;
    file.close();
    return test::loadOrFail(path);
}

} // namespace

class TestKinetoReader : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    // Everything the reader promises on a real trace, checked against the JSON text.
    void checkRealTrace(const QString &path)
    {
        const QByteArray text = decompressedText(path);
        QVERIFY(!text.isEmpty());
        const std::optional<RawTrace> parsed = test::RawJsonReader(text).read();
        QVERIFY(parsed);
        const RawTrace &trace = *parsed;
        const std::unique_ptr<TraceModel> model = test::loadOrFail(path);
        QVERIFY(model);

        // Well-formed trace: no warning at all (no orphan flow halves, no relative-time notice).
        QVERIFY2(model->warnings().isEmpty(), qPrintable(model->warnings().join(QLatin1Char('\n'))));
        QCOMPARE(model->groups().size(), std::size_t(1));
        QCOMPARE(model->groups()[0].layout, QStringLiteral("PyTorch profiler GPU trace (Kineto)"));

        // Processes: the CPU process by its Python name and pid, one "GPU n" per device with events.
        QHash<QString, QString> processName, processLabels;
        std::set<QString> gpuPids;
        std::map<std::pair<QString, QString>, int> kernelsPerStream; // (device, stream) → kernels
        int annotations = 0;
        for (const RawEvent &e : trace.events) {
            const QString name = e.field("name");
            if (e.field("ph") == QLatin1String("M") && name == QLatin1String("process_name"))
                processName[e.field("pid")] = e.arg("name");
            else if (e.field("ph") == QLatin1String("M") && name == QLatin1String("process_labels"))
                processLabels[e.field("pid")] = e.arg("labels");
            if (e.field("ph") != QLatin1String("X") || !deviceCategories().contains(e.field("cat")))
                continue;
            gpuPids.insert(e.field("pid"));
            if (e.field("cat") == QLatin1String("kernel"))
                ++kernelsPerStream[{e.field("pid"), e.field("tid")}];
            if (e.field("cat") == QLatin1String("gpu_user_annotation"))
                ++annotations;
        }
        QStringList expectedProcesses;
        for (auto it = processLabels.cbegin(); it != processLabels.cend(); ++it)
            if (it.value() == QLatin1String("CPU"))
                expectedProcesses << QStringLiteral("CPU · %1 (pid %2)").arg(processName[it.key()], it.key());
        for (const QString &pid : gpuPids)
            expectedProcesses << processLabels[pid];
        QVERIFY(!gpuPids.empty());
        int gpuProcesses = 0;
        for (std::size_t p = 0; p < model->processes().size(); ++p)
            gpuProcesses +=
                model->processDisplayName(static_cast<int>(p)).startsWith(QLatin1String("GPU ")) ? 1 : 0;
        QCOMPARE(gpuProcesses, static_cast<int>(gpuPids.size())); // not the 8 GPUs the M events list
        for (const QString &name : expectedProcesses) {
            const int p = processNamed(*model, name);
            QVERIFY2(p >= 0, qPrintable(name));
            QCOMPARE(model->processes()[static_cast<std::size_t>(p)].layer,
                     name.startsWith(QLatin1String("GPU")) ? Layer::DeviceStreams : Layer::Framework);
        }
        for (const QString &marker : {QStringLiteral("Spans"), QStringLiteral("Traces")})
            QVERIFY2(processNamed(*model, marker) >= 0, qPrintable(marker));

        // Stream lanes "stream n" (NCCL streams marked), kernels counted per stream, annotations apart.
        const StringId kernelCategory = model->strings().find("kernel");
        for (const auto &[lane, expected] : kernelsPerStream) {
            const int process = processNamed(*model, processLabels[lane.first]);
            int thread = threadNamed(*model, process, QStringLiteral("stream %1").arg(lane.second));
            if (thread < 0)
                thread = threadNamed(*model, process, QStringLiteral("stream %1 (NCCL)").arg(lane.second));
            QVERIFY2(thread >= 0, qPrintable(lane.second));
            const SliceTable &slices = model->threads()[static_cast<std::size_t>(thread)].slices;
            int kernels = 0;
            for (std::uint32_t i = 0; i < slices.size(); ++i)
                kernels += slices.category(i) == kernelCategory ? 1 : 0;
            QCOMPARE(kernels, expected);
            const bool nccl = model->threadDisplayName(thread).endsWith(QLatin1String("(NCCL)"));
            bool ncclKernels = false;
            for (std::uint32_t i = 0; i < slices.size(); ++i)
                ncclKernels = ncclKernels || model->strings().view(slices.name(i)).starts_with("nccl");
            QCOMPARE(nccl, ncclKernels);
        }
        const StringId annotationCategory = model->strings().find("gpu_user_annotation");
        int annotationSlices = 0;
        for (const ThreadInfo &thread : model->threads()) {
            for (std::uint32_t i = 0; i < thread.slices.size(); ++i) {
                if (thread.slices.category(i) != annotationCategory)
                    continue;
                ++annotationSlices;
                QVERIFY(model->threadDisplayName(static_cast<int>(&thread - model->threads().data()))
                            .endsWith(QLatin1String("GPU annotations")));
            }
        }
        QCOMPARE(annotationSlices, annotations);

        // Flows: exactly the (cat, id) pairs with both halves; ac2g ends on the GPU activity of the same
        // correlation, starting at the flow's ts; fwdbwd on cpu_ops.
        std::map<std::pair<QString, QString>, int> halves; // (cat, id) → bit 1 start, bit 2 finish
        QHash<QString, std::int64_t> gpuStartByCorrelation;
        for (const RawEvent &e : trace.events) {
            const QString ph = e.field("ph");
            if (ph == QLatin1String("s") || ph == QLatin1String("f"))
                halves[{e.field("cat"), e.field("id")}] |= ph == QLatin1String("s") ? 1 : 2;
            if (ph == QLatin1String("X") && deviceCategories().contains(e.field("cat")) &&
                e.field("cat") != QLatin1String("gpu_user_annotation"))
                gpuStartByCorrelation.insert(e.arg("correlation"), absoluteNs(trace, e.field("ts")));
        }
        std::map<QString, int> pairsByCategory, flowsByCategory;
        for (const auto &[key, bits] : halves)
            pairsByCategory[key.first] += bits == 3 ? 1 : 0;
        for (const FlowInfo &flow : model->flows()) {
            const QString category = model->strings().qstring(flow.category);
            ++flowsByCategory[category];
            QVERIFY(flow.from.isValid() && flow.to.isValid());
            const QString id = model->strings().qstring(flow.id);
            if (category == QLatin1String("ac2g")) {
                QCOMPARE(categoryOf(*model, flow.from), QStringLiteral("cuda_runtime"));
                QVERIFY(deviceCategories().contains(categoryOf(*model, flow.to)));
                QCOMPARE(sliceArg(*model, flow.to, QStringLiteral("correlation")), id);
                QCOMPARE(absoluteStart(*model, flow.to), gpuStartByCorrelation.value(id));
            } else if (category == QLatin1String("fwdbwd")) {
                QCOMPARE(categoryOf(*model, flow.from), QStringLiteral("cpu_op"));
                QCOMPARE(categoryOf(*model, flow.to), QStringLiteral("cpu_op"));
                QCOMPARE(absoluteStart(*model, flow.to), model->origin() + flow.toTime);
            }
        }
        QCOMPARE(flowsByCategory, pairsByCategory);
        QVERIFY(pairsByCategory[QStringLiteral("ac2g")] > 0);

        // Steps: every ProfilerStep#N, its host window to the ns, absolute = base + relative.
        std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> expectedSteps; // N → (start, dur)
        static const QRegularExpression stepName(QStringLiteral("^ProfilerStep#(\\d+)$"));
        for (const RawEvent &e : trace.events) {
            const auto match = stepName.match(e.field("name"));
            if (e.field("ph") == QLatin1String("X") && match.hasMatch())
                expectedSteps[match.captured(1).toLongLong()] = {absoluteNs(trace, e.field("ts")),
                                                                 microsTextToNs(e.field("dur"))};
        }
        QVERIFY(!expectedSteps.empty());
        QCOMPARE(model->steps().size(), expectedSteps.size());
        for (const Step &step : model->steps()) {
            QVERIFY(expectedSteps.contains(step.number));
            QCOMPARE(step.source, StepSource::ProfilerStep);
            QCOMPARE(model->origin() + step.hostBegin, expectedSteps[step.number].first);
            QCOMPARE(step.hostEnd - step.hostBegin, expectedSteps[step.number].second);
            QVERIFY(step.flowAttributedTasks > 0);
        }

        // The earliest event: absolute ns = baseTimeNanoseconds + relative (or the absolute ts as written).
        std::int64_t first = std::numeric_limits<std::int64_t>::max();
        for (const RawEvent &e : trace.events)
            if (isTimed(e))
                first = std::min(first, absoluteNs(trace, e.field("ts")));
        QCOMPARE(model->origin() + model->fullBegin(), first);

        // Collection rows from distributedInfo and deviceProperties.
        const CollectionInfo &collection = model->groups()[0].collection;
        QCOMPARE(collection.property(QStringLiteral("rank")),
                 trace.distributed.value(QStringLiteral("rank")));
        QCOMPARE(collection.property(QStringLiteral("world size")),
                 trace.distributed.value(QStringLiteral("world_size")));
        QCOMPARE(collection.property(QStringLiteral("backend")),
                 trace.distributed.value(QStringLiteral("backend")));
        for (const QHash<QString, QString> &device : trace.devices) {
            const QString row =
                collection.property(QStringLiteral("GPU %1").arg(device.value(QStringLiteral("id"))));
            const bool used = gpuPids.contains(device.value(QStringLiteral("id")));
            QCOMPARE(row.startsWith(device.value(QStringLiteral("name"))) && !row.isEmpty(), used);
            if (used)
                QVERIFY(row.contains(QStringLiteral("%1 SMs").arg(device.value(QStringLiteral("numSms")))));
        }
        // The flows row says what was left out, with the counts of the text, and no warning does.
        int orphanFinishes = 0, unfinishedStarts = 0;
        for (const auto &[key, bits] : halves) {
            orphanFinishes += bits == 2 ? 1 : 0;
            unfinishedStarts += bits == 1 ? 1 : 0;
        }
        const QString flowsRow = collection.property(QStringLiteral("flows"));
        QVERIFY2(flowsRow.startsWith(QStringLiteral("%1 ac2g").arg(pairsByCategory[QStringLiteral("ac2g")])),
                 qPrintable(flowsRow));
        if (orphanFinishes)
            QVERIFY(flowsRow.contains(QStringLiteral("%1 finishes without a start").arg(orphanFinishes)));
        if (unfinishedStarts)
            QVERIFY(flowsRow.contains(QStringLiteral("%1 starts without a finish").arg(unfinishedStarts)));
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void ncclDataTrace() { checkRealTrace(sample("nccl_data.json.gz")); }

    void dfIndexResolverTrace() { checkRealTrace(sample("df_index_resolver.json.gz")); }

    // nccl_data.json.gz in the words FORMATS.md §10.6 uses: 3,774 + 543 flows, 88 launches named.
    void ncclDataLeftOutFlowsAreNamed()
    {
        const std::unique_ptr<TraceModel> model = test::loadOrFail(sample("nccl_data.json.gz"));
        QVERIFY(model);
        const QString flows = model->groups()[0].collection.property(QStringLiteral("flows"));
        QVERIFY2(flows.contains(QStringLiteral("cudaStreamWaitEvent")), qPrintable(flows));
        QVERIFY(flows.contains(QStringLiteral("cudaDeviceSynchronize")));
        QVERIFY(processNamed(*model, QStringLiteral("Markers")) >= 0); // Record Window End (pid "")
        QVERIFY(threadNamed(*model, processNamed(*model, QStringLiteral("GPU 0")),
                            QStringLiteral("stream 40 (NCCL)")) >= 0);
    }

    // The four timestamp encodings of FORMATS.md §10.2, each through the loader.
    void timestampEras_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<QByteArray>("tail");
        QTest::addColumn<QByteArray>("ts");
        QTest::addColumn<qint64>("expectedNs");
        QTest::addColumn<bool>("relativeWarning");
        QTest::newRow("integer µs, absolute")
            << QByteArray("\"schemaVersion\": 1,") << QByteArray() << QByteArray("1669783687464181")
            << qint64(1669783687464181000) << false;
        // A double holds no ns digits at this size (spacing 0.25 µs).
        QTest::newRow("ns fraction, absolute")
            << QByteArray("\"schemaVersion\": 1,") << QByteArray() << QByteArray("1711964646123456.789")
            << qint64(1711964646123456789) << false;
        QTest::newRow("relative, no base")
            << QByteArray("\"schemaVersion\": 1,") << QByteArray() << QByteArray("4458676522690.655")
            << qint64(4458676522690655) << true;
        QTest::newRow("base before traceEvents")
            << QByteArray("\"schemaVersion\": 1, \"baseTimeNanoseconds\": 1711964646000000000,")
            << QByteArray() << QByteArray("4458676522690.655")
            << qint64(1711964646000000000 + 4458676522690655) << false;
        QTest::newRow("base after traceEvents")
            << QByteArray("\"schemaVersion\": 1,")
            << QByteArray(", \"traceName\": \"x\", \"baseTimeNanoseconds\": 1711964646000000000")
            << QByteArray("4458676522690.655") << qint64(1711964646000000000 + 4458676522690655) << false;
    }

    void timestampEras()
    {
        QFETCH(QByteArray, head);
        QFETCH(QByteArray, tail);
        QFETCH(QByteArray, ts);
        QFETCH(qint64, expectedNs);
        QFETCH(bool, relativeWarning);
        const QByteArray text = "{" + head +
                                "\n\"traceEvents\": [\n"
                                "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 42, "
                                "\"tid\": 42, \"ts\": " +
                                ts + ", \"dur\": 10.5, \"args\": {\"External id\": 1}}\n]" + tail + "}\n";
        const QString path =
            m_dir.filePath(QString::fromLatin1(QTest::currentDataTag())
                               .replace(QRegularExpression(QStringLiteral("[^a-z]")), QStringLiteral("_")) +
                           QStringLiteral(".pt.trace.json"));
        const std::unique_ptr<TraceModel> model = loadText(path, text);
        QVERIFY(model);
        const SliceRef op = test::uniqueSlice(*model, QStringLiteral("aten::mm"));
        QVERIFY(op.isValid());
        QCOMPARE(absoluteStart(*model, op), expectedNs);
        QCOMPARE(model->threads()[static_cast<std::size_t>(op.thread)].slices.duration(op.index),
                 TimeNs(10'500));
        const bool warned = std::ranges::any_of(model->warnings(), [](const QString &w) {
            return w.contains(QLatin1String("relative")) && w.contains(QLatin1String("baseTimeNanoseconds"));
        });
        QCOMPARE(warned, relativeWarning);
        QCOMPARE(model->groups()[0]
                     .collection.property(QStringLiteral("time base"))
                     .startsWith(QLatin1String("none")),
                 relativeWarning);
    }

    // The lane rules on a hand-made trace: unused GPUs left out, the last thread_name kept, trailing space
    // trimmed, gpu_user_annotation on its own lane, orphan ac2g finishes dropped without a warning, the
    // ac2g finish bound to the kernel starting at its ts (not the earlier annotation).
    void laneAndFlowRules()
    {
        const QByteArray text = R"json({"schemaVersion": 1, "traceEvents": [
  {"name": "process_name", "ph": "M", "ts": 0, "pid": 7, "tid": 0, "args": {"name": "python3.12"}},
  {"name": "process_labels", "ph": "M", "ts": 0, "pid": 7, "tid": 0, "args": {"labels": "CPU"}},
  {"name": "process_name", "ph": "M", "ts": 0, "pid": 0, "tid": 0, "args": {"name": "python3.12"}},
  {"name": "process_labels", "ph": "M", "ts": 0, "pid": 0, "tid": 0, "args": {"labels": "GPU 0"}},
  {"name": "process_name", "ph": "M", "ts": 0, "pid": 1, "tid": 0, "args": {"name": "python3.12"}},
  {"name": "process_labels", "ph": "M", "ts": 0, "pid": 1, "tid": 0, "args": {"labels": "GPU 1"}},
  {"name": "thread_name", "ph": "M", "ts": 0, "pid": 0, "tid": 3, "args": {"name": "stream 3 "}},
  {"name": "thread_name", "ph": "M", "ts": 0, "pid": 7, "tid": 8, "args": {"name": "thread 8 (pt_main_thread)"
    }},
  {"name": "thread_name", "ph": "M", "ts": 0, "pid": 7, "tid": 8, "args": {"name": "thread 8 (pt_autograd_0)"}},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#7", "pid": 7, "tid": 8, "ts": 1000.000, "dur": 100.000},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 7, "tid": 8, "ts": 1010.000, "dur": 5.000, "args": {"correlation": 11}},
  {"ph": "s", "id": 11, "pid": 7, "tid": 8, "ts": 1010.000, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventRecord", "pid": 7, "tid": 8, "ts": 1020.000, "dur": 1.000, "args": {"correlation": 12}},
  {"ph": "f", "id": 12, "pid": 7, "tid": 8, "ts": 1020.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "gpu_user_annotation", "name": "block", "pid": 0, "tid": 3, "ts": 1029.999, "dur": 20.002},
  {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 3, "ts": 1030.000, "dur": 20.000, "args": {"correlation": 11, "stream": 3, "device": 0}},
  {"ph": "f", "id": 11, "pid": 0, "tid": 3, "ts": 1030.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"name": "Record Window End", "ph": "i", "s": "g", "pid": "", "tid": "", "ts": 1200.000}
], "baseTimeNanoseconds": 1711964646000000000})json";
        const std::unique_ptr<TraceModel> model =
            loadText(m_dir.filePath(QStringLiteral("lanes.json")), text);
        QVERIFY(model);
        QVERIFY2(model->warnings().isEmpty(), qPrintable(model->warnings().join(QLatin1Char('\n'))));
        QCOMPARE(processNamed(*model, QStringLiteral("GPU 1")), -1);
        const int gpu = processNamed(*model, QStringLiteral("GPU 0"));
        QVERIFY(gpu >= 0);
        const int cpu = processNamed(*model, QStringLiteral("CPU · python3.12 (pid 7)"));
        QVERIFY(cpu >= 0);
        QVERIFY(threadNamed(*model, cpu, QStringLiteral("thread 8 (pt_autograd_0)")) >= 0);
        const int stream = threadNamed(*model, gpu, QStringLiteral("stream 3"));
        QVERIFY(stream >= 0);
        const int annotationLane = threadNamed(*model, gpu, QStringLiteral("stream 3 · GPU annotations"));
        QVERIFY(annotationLane >= 0);
        QCOMPARE(model->threads()[static_cast<std::size_t>(stream)].slices.size(), std::size_t(1));
        QCOMPARE(model->flows().size(), std::size_t(1));
        const FlowInfo &flow = model->flows()[0];
        QCOMPARE(model->sliceName(flow.from), QStringLiteral("cudaLaunchKernel"));
        QCOMPARE(model->sliceName(flow.to), QStringLiteral("gemm"));
        QCOMPARE(model->steps().size(), std::size_t(1));
        QCOMPARE(model->steps()[0].number, std::int64_t(7));
        QCOMPARE(model->steps()[0].deviceTasks.size(), std::size_t(1));
        QVERIFY(model->groups()[0]
                    .collection.property(QStringLiteral("flows"))
                    .contains(QLatin1String("1 finishes without a start")));
    }

    // Bad input: a base that is no integer is named, never guessed; a trace cut inside its events keeps the
    // complete ones (the keys after the array are lost with it).
    void badBaseAndCutTrace()
    {
        const QByteArray event = "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 42, "
                                 "\"tid\": 42, \"ts\": 4458676522690.655, \"dur\": 1}";
        const std::unique_ptr<TraceModel> badBase =
            loadText(m_dir.filePath(QStringLiteral("bad_base.json")),
                     "{\"schemaVersion\": 1, \"traceEvents\": [" + event +
                         "], \"baseTimeNanoseconds\": 1.711964646e18}");
        QVERIFY(badBase);
        QVERIFY2(std::ranges::any_of(badBase->warnings(),
                                     [](const QString &w) {
                                         return w.contains(QLatin1String(
                                             "baseTimeNanoseconds is not an integer: 1.711964646e+18"));
                                     }),
                 qPrintable(badBase->warnings().join(QLatin1Char('\n'))));
        QCOMPARE(absoluteStart(*badBase, test::uniqueSlice(*badBase, QStringLiteral("aten::mm"))),
                 TimeNs(4458676522690655));

        const QByteArray whole = decompressedText(sample("nccl_data.json.gz"));
        const std::unique_ptr<TraceModel> cut =
            loadText(m_dir.filePath(QStringLiteral("cut.json")), whole.left(whole.size() / 2));
        QVERIFY(cut);
        QVERIFY(std::ranges::any_of(cut->warnings(),
                                    [](const QString &w) { return w.contains(QLatin1String("truncated")); }));
        QVERIFY(processNamed(*cut, QStringLiteral("GPU 0")) >= 0);
        QVERIFY(!cut->steps().empty());
    }

    // An Ascend trace (an array) is not a Kineto trace: its layout and lanes are unchanged.
    void ascendTraceIsNotKineto()
    {
        const std::unique_ptr<TraceModel> model = test::loadOrFail(test::level1Rank0Trace());
        QVERIFY(model);
        QVERIFY(model->groups()[0].layout != QLatin1String("PyTorch profiler GPU trace (Kineto)"));
        QVERIFY(processNamed(*model, QStringLiteral("Ascend Hardware")) >= 0);
    }
};

QTEST_GUILESS_MAIN(TestKinetoReader)
#include "tst_kineto_reader.moc"
