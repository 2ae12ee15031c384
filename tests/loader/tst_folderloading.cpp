#include "Steps.h"
#include "TestSupport.h"
#include "json/JsonEventScanner.h"

#include <QDir>
#include <QFile>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace at;

// Opening whole result folders: every layout of FORMATS.md §1 on the real samples, and synthetic
// G1/G2/G3 trees built from the real level1 trace.
class TestFolderLoading : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QByteArray m_trace; // level1 rank0 trace_view.json
    std::vector<QByteArray> m_events;

    static QString alexnet(const QString &rest)
    {
        return test::samplePath(QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/") +
                                rest);
    }

    QString write(const QString &relative, const QByteArray &content)
    {
        const QString path = m_dir.filePath(relative);
        QDir().mkpath(QFileInfo(path).path());
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            qFatal("cannot write %s", qPrintable(path));
        f.write(content);
        return path;
    }

    static QByteArray joinEvents(const std::vector<QByteArray> &events, std::size_t from, std::size_t to)
    {
        QByteArray out = "[";
        for (std::size_t i = from; i < to; ++i) {
            if (i > from)
                out += ",\n";
            out += events[i];
        }
        return out + "]";
    }

    // The level1 trace as a G1-era file: legacy layer names and numeric ts.
    static QByteArray legacy(QByteArray event)
    {
        static const std::pair<const char *, const char *> renames[] = {
            {"{\"name\": \"Python\"}", "{\"name\": \"MsprofTx\"}"},
            {"{\"name\": \"CANN\"}", "{\"name\": \"AscendCL\"}"},
            {"{\"name\": \"Ascend Hardware\"}", "{\"name\": \"Task Scheduler\"}"},
            {"{\"name\": \"HCCL\"}", "{\"name\": \"All Reduce\"}"}};
        for (const auto &[from, to] : renames)
            event.replace(from, to);
        static const QRegularExpression stringTs(QStringLiteral("\"ts\": \"(\\d+(\\.\\d+)?)\""));
        return QString::fromUtf8(event).replace(stringTs, QStringLiteral("\"ts\": \\1")).toUtf8();
    }

    static QByteArray kernelDetailsAsOpSummary()
    {
        QFile f(alexnet(QStringLiteral("level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv")));
        if (!f.open(QIODevice::ReadOnly))
            return {};
        QByteArray all = f.readAll();
        const qsizetype eol = all.indexOf('\n');
        QByteArray header = all.left(eol);
        static const std::pair<const char *, const char *> renames[] = {
            {",Name,", ",Op Name,"},
            {",Type,", ",OP Type,"},
            {",Accelerator Core,", ",Task Type,"},
            {",Start Time(us),", ",Task Start Time(us),"},
            {",Duration(us),", ",Task Duration(us),"},
            {",Wait Time(us),", ",Task Wait Time(us),"}};
        for (const auto &[from, to] : renames)
            header.replace(from, to);
        return header + all.mid(eol);
    }

    static std::size_t joined(const TraceModel &model)
    {
        std::size_t n = 0;
        for (const KernelRecord &k : model.kernels().rows())
            n += k.joined() ? 1 : 0;
        return n;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QFile f(test::level1Rank0Trace());
        QVERIFY(f.open(QIODevice::ReadOnly));
        m_trace = f.readAll();
        JsonEventScanner scanner(m_trace.constData(), static_cast<std::size_t>(m_trace.size()));
        QString problem;
        QVERIFY(scanner.locateEvents(&problem));
        JsonEventScanner::Span span;
        while (scanner.next(span))
            m_events.push_back(m_trace.mid(static_cast<qsizetype>(span.begin),
                                           static_cast<qsizetype>(span.end - span.begin)));
        QCOMPARE(m_events.size(), std::size_t(10112));
    }

    void twoRanksOfG4AreGroupsOnOneClock()
    {
        auto model = test::loadOrFail(alexnet(QStringLiteral("level1")));
        QVERIFY(model);
        QCOMPARE(model->groups().size(), std::size_t(2));
        QCOMPARE(model->groups()[0].label, QStringLiteral("Rank 0 / Device 0"));
        QCOMPARE(model->groups()[1].label, QStringLiteral("Rank 1 / Device 1"));
        QVERIFY(model->groups()[0].layout.startsWith(QStringLiteral("G4")));
        // 12 per rank from the timelines + "Memory" and "Memory modules" per rank (memory CSVs, issue 19).
        QCOMPARE(model->processes().size(), std::size_t(28));
        // 10,112 + 9,969 events (python count of rank1's trace_view.json).
        QCOMPARE(model->eventCounts().total(), std::size_t(20081));
        // Groups stay apart in the lane order: all of rank 0 first.
        int lastGroup = 0;
        for (int p : model->processOrder()) {
            QVERIFY(model->processes()[static_cast<std::size_t>(p)].group >= lastGroup);
            lastGroup = model->processes()[static_cast<std::size_t>(p)].group;
        }
        // One clock: rank 1 starts within the same second as rank 0.
        QVERIFY(model->dataEnd() - model->dataBegin() < 1000000000);
        // 191 kernels per rank, all joined (FORMATS.md §3.11: 187 compute rows exact + 4 communication).
        QCOMPARE(model->kernels().size(), std::size_t(382));
        QCOMPARE(joined(*model), std::size_t(382));
        QCOMPARE(model->kernels().metricGroup(), QStringLiteral("PipeUtilization"));
        // Flow ids repeat across ranks; they must pair within a rank only: every f has its s.
        QCOMPARE(model->flows().size(), std::size_t(1222));
        for (const QString &w : model->warnings())
            QVERIFY2(!w.contains(QStringLiteral("flow")), qPrintable(w));
    }

    void knownKernelIsJoinedWithItsMetrics()
    {
        auto model = test::loadOrFail(alexnet(QStringLiteral("level1/rank0_ascend_pt")));
        QVERIFY(model);
        const KernelTable &kernels = model->kernels();
        // First row of kernel_details.csv: trans_TransData_0, stream 2, task 11051,
        // start 1736408883704643.212 us, aiv_vec_ratio 0.186 (read with python's csv module).
        const KernelRecord &k = kernels.rows().front();
        QCOMPARE(model->strings().qstring(k.name), QStringLiteral("trans_TransData_0"));
        QCOMPARE(k.streamId, 2);
        QCOMPARE(k.taskId, 11051);
        QCOMPARE(k.start + model->origin(), 1736408883704643212LL);
        QVERIFY(k.joined());
        const SliceRef slice{k.thread, k.slice};
        QCOMPARE(model->sliceName(slice), QStringLiteral("trans_TransData_0"));
        QCOMPARE(model->threadDisplayName(slice.thread), QStringLiteral("Stream 2"));
        const auto args = model->sliceArgs(slice);
        QVERIFY(std::find(args.begin(), args.end(),
                          std::make_pair(QStringLiteral("Task Id"), QStringLiteral("11051"))) != args.end());
        const int vec = kernels.columnIndex(QStringLiteral("aiv_vec_ratio"));
        QVERIFY(vec >= 0);
        QCOMPARE(kernels.metric(0, static_cast<std::size_t>(vec)), 0.186);
        QCOMPARE(kernels.columns()[static_cast<std::size_t>(vec)].core, QStringLiteral("aiv"));
        QCOMPARE(kernels.rowOfSlice(slice.thread, slice.index), 0);
        const int mteTime = kernels.columnIndex(QStringLiteral("aiv_mte2_time(us)"));
        QVERIFY(mteTime >= 0);
        QCOMPARE(kernels.columns()[static_cast<std::size_t>(mteTime)].unit, QStringLiteral("us"));
    }

    void summaryTablesAndCollectionAreRead()
    {
        auto model = test::loadOrFail(alexnet(QStringLiteral("level1/rank0_ascend_pt")));
        QVERIFY(model);
        // Counts from python's csv module on the sample files.
        QMap<QString, std::size_t> rows;
        for (const SummaryTable &t : model->summaryTables())
            rows[t.type] = t.rowCount();
        QCOMPARE(rows.value(QStringLiteral("op_statistic")), std::size_t(33));
        QCOMPARE(rows.value(QStringLiteral("api_statistic")), std::size_t(57));
        QCOMPARE(rows.value(QStringLiteral("l2_cache")), std::size_t(179));
        QCOMPARE(rows.value(QStringLiteral("step_trace_time")), std::size_t(1));
        const auto step =
            std::find_if(model->summaryTables().begin(), model->summaryTables().end(),
                         [](const SummaryTable &t) { return t.type == QStringLiteral("step_trace_time"); });
        QCOMPARE(step->cell(0, step->column(QStringLiteral("Step"))), QStringLiteral("50"));
        QCOMPARE(step->cell(0, step->column(QStringLiteral("Computing"))),
                 QStringLiteral("8873.756000000001"));
        // How the run was collected (profiler_info_0.json): Level1, PipeUtilization, L2 cache on.
        const CollectionInfo &c = model->groups().front().collection;
        QCOMPARE(c.profilerLevel, QStringLiteral("Level1"));
        QCOMPARE(c.metricGroup, QStringLiteral("PipeUtilization"));
        QVERIFY(c.switchesOn.contains(QStringLiteral("ACL_PROF_L2CACHE")));
        QVERIFY(std::any_of(c.warnings.begin(), c.warnings.end(), [](const QString &w) {
            return w.startsWith(QStringLiteral("L2 cache collection was on"));
        }));
        // ProfilerStep#50 is after step 10: no early-step warning.
        QVERIFY(std::none_of(c.warnings.begin(), c.warnings.end(),
                             [](const QString &w) { return w.contains(QStringLiteral("first ten")); }));
    }

    void level0JoinsByNameAndTime()
    {
        auto model = test::loadOrFail(alexnet(QStringLiteral("level0/rank0_ascend_pt")));
        QVERIFY(model);
        QCOMPARE(model->kernels().size(), std::size_t(191));
        QCOMPARE(joined(*model), std::size_t(191));
        QVERIFY(model->kernels().metricGroup().isEmpty());
        QVERIFY(model->kernels().columns().empty());
    }

    void g3ProfFolderWithSanitisedTimes()
    {
        auto model = test::loadOrFail(test::samplePath(QStringLiteral(
            "ascend_msprof_skill_cann8_sanitized/tests/fixtures/real_cann_minimal/reports/PROF_001")));
        QVERIFY(model);
        QVERIFY(model->groups().front().layout.startsWith(QStringLiteral("G3")));
        QCOMPARE(model->eventCounts().complete, std::size_t(3));
        QCOMPARE(model->kernels().metricGroup(), QStringLiteral("PipeUtilization"));
        // The sanitised JSON has no M events (so no layer names) and fake times: its first
        // op_summary row (stream 1716, task 0, start 1000000.000 us) still matches the X event on
        // tid 1716 exactly; the second has no counterpart. The UI reports the unjoined count.
        QCOMPARE(model->kernels().size(), std::size_t(2));
        QCOMPARE(model->kernels().unjoinedCount(), std::size_t(1));
        const KernelRecord &first = model->kernels().rows().front();
        QVERIFY(first.joined());
        QCOMPARE(first.streamId, 1716);
        QCOMPARE(model->sliceName({first.thread, first.slice}), model->strings().qstring(first.name));
        QVERIFY(std::any_of(model->warnings().begin(), model->warnings().end(), [](const QString &w) {
            return w.contains(QStringLiteral("could not be joined"));
        }));
    }

    void ranksWithoutTimelineStillGiveKernelTables()
    {
        auto model =
            test::loadOrFail(test::samplePath(QStringLiteral("msinsight_qwen3_0.6b_4rank_pp2_level2")));
        QVERIFY(model);
        // Their device tasks are drawn from the kernel rows (tst_kernelrowtimeline checks the lanes).
        QCOMPARE(model->sliceCount(), model->kernels().size());
        // rank 0: 2,463 rows (FORMATS.md §8.1); ranks 1 and 3 keep no kernel_details.csv.
        std::size_t rank0 = 0;
        for (const KernelRecord &k : model->kernels().rows())
            rank0 +=
                model->groups()[static_cast<std::size_t>(k.group)].label.startsWith(QStringLiteral("Rank 0"))
                    ? 1
                    : 0;
        QCOMPARE(rank0, std::size_t(2463));
        QVERIFY(std::any_of(model->warnings().begin(), model->warnings().end(),
                            [](const QString &w) { return w.contains(QStringLiteral("no timeline")); }));
    }

    void g1IterationFilesAreSteps()
    {
        // Without ProfilerStep slices, each G1 per-iteration file is a step spanning its events.
        std::vector<QByteArray> events;
        for (const QByteArray &e : m_events)
            if (!e.contains("ProfilerStep#"))
                events.push_back(legacy(e));
        const std::size_t half = events.size() / 2;
        const QString prof = QStringLiteral("g1steps/PROF_000001_20220729204439087_FMDBBBNDOAKFEOIA");
        const QString first =
            write(prof + QStringLiteral("/device_0/timeline/msprof_0_1_3.json"), joinEvents(events, 0, half));
        const QString second = write(prof + QStringLiteral("/device_0/timeline/msprof_0_1_4.json"),
                                     joinEvents(events, half, events.size()));
        auto model = test::loadOrFail(m_dir.filePath(QStringLiteral("g1steps")));
        QVERIFY(model);
        QCOMPARE(model->steps().size(), std::size_t(2));
        int index = 0;
        for (const QString &file : {first, second}) {
            // Expected window: first slice start to last slice end of that file alone (absolute).
            auto alone = test::loadOrFail(file);
            QVERIFY(alone);
            TimeNs begin = std::numeric_limits<TimeNs>::max(), end = std::numeric_limits<TimeNs>::min();
            for (const ThreadInfo &t : alone->threads())
                for (std::uint32_t i = 0; i < t.slices.size(); ++i) {
                    begin = std::min(begin, t.slices.start(i));
                    end = std::max(end, t.slices.end(i));
                }
            const Step &s = model->steps()[static_cast<std::size_t>(index)];
            QCOMPARE(s.number, 3 + index);
            QCOMPARE(s.source, StepSource::Declared);
            QCOMPARE(s.hostBegin + model->origin(), begin + alone->origin());
            QCOMPARE(s.hostEnd + model->origin(), end + alone->origin());
            ++index;
        }
    }

    void syntheticG1PerIterationFiles()
    {
        // Two iterations (first and second half of the events) plus 100 events present in both,
        // legacy names, numeric ts; task_time_* must not be loaded (it would duplicate events).
        std::vector<QByteArray> events;
        for (const QByteArray &e : m_events)
            events.push_back(legacy(e));
        const std::size_t half = events.size() / 2;
        const QString prof = QStringLiteral("g1/PROF_000001_20220729204439087_FMDBBBNDOAKFEOIA");
        write(prof + QStringLiteral("/device_0/timeline/msprof_0_1_1.json"),
              joinEvents(events, 0, half + 100));
        write(prof + QStringLiteral("/device_0/timeline/msprof_0_1_2.json"),
              joinEvents(events, half, events.size()));
        write(prof + QStringLiteral("/device_0/timeline/task_time_0_1_1.json"),
              "[{\"ph\":\"X\",\"name\":\"MUST_NOT_LOAD\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}]");
        write(prof + QStringLiteral("/device_0/summary/op_summary_0_1_1.csv"), kernelDetailsAsOpSummary());
        auto model = test::loadOrFail(m_dir.filePath(QStringLiteral("g1")));
        QVERIFY(model);
        QVERIFY(model->groups().front().layout.startsWith(QStringLiteral("G1")));
        QCOMPARE(model->groups().front().timelineFiles.size(), qsizetype(2));
        QCOMPARE(model->sliceCount(), std::size_t(4384)); // duplicates merged
        // Every counter sample once, although the 100 shared events were read twice.
        auto samples = [](const TraceModel &m) {
            std::size_t n = 0;
            for (const CounterSeries &c : m.counters())
                n += c.times.size();
            return n;
        };
        auto single = test::loadOrFail(test::level1Rank0Trace());
        QCOMPARE(samples(*model), samples(*single));
        QVERIFY(searchSlices(*model, QStringLiteral("MUST_NOT_LOAD")).empty());
        // Legacy layer names map onto the canonical groups, in the seed order.
        QStringList order;
        for (int p : model->processOrder())
            order << model->processDisplayName(p);
        QVERIFY(order.indexOf(QStringLiteral("MsprofTx")) < order.indexOf(QStringLiteral("AscendCL")));
        QVERIFY(order.indexOf(QStringLiteral("AscendCL")) < order.indexOf(QStringLiteral("Task Scheduler")));
        QVERIFY(order.indexOf(QStringLiteral("Task Scheduler")) <
                order.indexOf(QStringLiteral("All Reduce")));
        const auto &processes = model->processes();
        const auto taskScheduler =
            std::find_if(processes.begin(), processes.end(), [&](const ProcessInfo &p) {
                return model->strings().qstring(p.name) == QStringLiteral("Task Scheduler");
            });
        QVERIFY(taskScheduler != processes.end());
        QCOMPARE(taskScheduler->layer, Layer::DeviceStreams);
        // op_summary headers (Op Name, Task Start Time(us), ...) join like kernel_details.
        QCOMPARE(model->kernels().size(), std::size_t(191));
        QCOMPARE(joined(*model), std::size_t(191));
        // Numeric ts keeps ns precision: the first kernel starts at ...704643.212 us exactly.
        QCOMPARE(model->kernels().rows().front().start + model->origin(), 1736408883704643212LL);
    }

    void syntheticG2PrefersTheMergedTimeline()
    {
        const QString prof = QStringLiteral("g2/PROF_000002_20230101000000000_ABCDEFGHIJKLMNOP");
        write(prof + QStringLiteral("/timeline/msprof_20230101000000.json"), m_trace);
        write(prof + QStringLiteral("/host/timeline/msprof_20230101000000.json"),
              joinEvents(m_events, 0, 10));
        write(prof + QStringLiteral("/device_0/timeline/msprof_20230101000000.json"),
              joinEvents(m_events, 10, 20));
        auto model = test::loadOrFail(m_dir.filePath(prof));
        QVERIFY(model);
        QVERIFY(model->groups().front().layout.startsWith(QStringLiteral("G2")));
        QCOMPARE(model->eventCounts().total(), std::size_t(10112));
    }

    void syntheticG3SlicesAreMerged()
    {
        const QString out =
            QStringLiteral("g3/PROF_000003_20240101000000000_ABCDEFGHIJKLMNOP/mindstudio_profiler_output/");
        const std::size_t third = m_events.size() / 3;
        write(out + QStringLiteral("msprof_slice_0_20240101000000.json"), joinEvents(m_events, 0, third));
        write(out + QStringLiteral("msprof_slice_1_20240101000000.json"),
              joinEvents(m_events, third, 2 * third));
        write(out + QStringLiteral("msprof_slice_2_20240101000000.json"),
              joinEvents(m_events, 2 * third, m_events.size()));
        // An older export in the same folder is ignored.
        write(out + QStringLiteral("msprof_20230101000000.json"), joinEvents(m_events, 0, 5));
        auto model = test::loadOrFail(m_dir.filePath(QStringLiteral("g3")));
        QVERIFY(model);
        QCOMPARE(model->groups().front().timelineFiles.size(), qsizetype(3));
        QCOMPARE(model->eventCounts().total(), std::size_t(10112));
        QCOMPARE(model->sliceCount(), std::size_t(4384));
        QCOMPARE(model->flows().size(), std::size_t(611));
    }

    void rawOnlyFolderSaysWhatToRun()
    {
        write(QStringLiteral("raw/PROF_000004_20240101000000000_ABCDEFGHIJKLMNOP/device_0/data/"
                             "hwts.log.data.45.dev.profiler_default_tag.0.slice_0"),
              QByteArray(64, '\0'));
        LoadControl control;
        const LoadResult result =
            loadTrace(m_dir.filePath(QStringLiteral("raw")), at::environmentLoadOptions(), control);
        QVERIFY(!result.model);
        QVERIFY2(result.error.contains(QStringLiteral("msprof --export=on")), qPrintable(result.error));
        QVERIFY(result.error.contains(m_dir.filePath(QStringLiteral("raw"))));
    }

    void severalRunsAreNotMergedOntoOneClock()
    {
        // level0, level1 and level2 (and a db run) are separate runs about an hour apart.
        auto model = test::loadOrFail(test::samplePath(QStringLiteral("msinsight_alexnet_1step_levels")));
        QVERIFY(model);
        QCOMPARE(model->groups().size(), std::size_t(1));
        QVERIFY(model->groups().front().path.endsWith(QStringLiteral("text/level0/rank0_ascend_pt")));
        QVERIFY(model->dataEnd() - model->dataBegin() < 1000000000);
        QVERIFY(std::any_of(model->warnings().begin(), model->warnings().end(), [](const QString &w) {
            return w.contains(QStringLiteral("holds results of 4 runs")) &&
                   w.contains(QStringLiteral("text/level1"));
        }));
        // Asking for databases picks the run that has one.
        LoadControl control;
        auto controlOptions = at::environmentLoadOptions();
        controlOptions.preferredSource = PreferredSource::Database;
        const LoadResult db = loadTrace(test::samplePath(QStringLiteral("msinsight_alexnet_1step_levels")),
                                        controlOptions, control);
        QVERIFY2(db.model, qPrintable(db.error));
        QVERIFY(db.model->groups().front().path.endsWith(QStringLiteral("db/level1/rank0_ascend_pt")));
        QVERIFY(db.model->groups().front().layout.contains(QStringLiteral("SQLite database")));
    }

    void compressedProgressCountsDecompressedBytes()
    {
        const QString plain = write(QStringLiteral("z/trace.json"), m_trace);
        QVERIFY(QProcess::execute(QStringLiteral("zstd"),
                                  {QStringLiteral("-q"), QStringLiteral("-f"), plain}) == 0);
        LoadControl control;
        const LoadResult result =
            loadTrace(plain + QStringLiteral(".zst"), at::environmentLoadOptions(), control);
        QVERIFY(result.model);
        QCOMPARE(control.bytesTotal.load(), static_cast<std::uint64_t>(m_trace.size()));
        QCOMPARE(control.bytesDone.load(), control.bytesTotal.load());
    }

    void traceEventsThatIsNotAnArray()
    {
        const QString path = write(QStringLiteral("bad/te.json"), "{\"traceEvents\": 5}");
        LoadControl control;
        const LoadResult result = loadTrace(path, at::environmentLoadOptions(), control);
        QVERIFY(!result.model);
        QVERIFY2(result.error.contains(QStringLiteral("\"traceEvents\" at byte 16 is not an array")),
                 qPrintable(result.error));
    }

    void emptyFolderIsAClearError()
    {
        QDir().mkpath(m_dir.filePath(QStringLiteral("nothing/here")));
        LoadControl control;
        const LoadResult result =
            loadTrace(m_dir.filePath(QStringLiteral("nothing")), at::environmentLoadOptions(), control);
        QVERIFY(!result.model);
        QVERIFY(result.error.startsWith(m_dir.filePath(QStringLiteral("nothing"))));
    }
};

QTEST_GUILESS_MAIN(TestFolderLoading)
#include "tst_folderloading.moc"
