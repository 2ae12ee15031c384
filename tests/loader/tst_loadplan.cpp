// The load plan (runs → sources → readers), the typed provenance the loader fills on the real samples,
// the reasons a load stops for, and the kernel join's typed task ids.
#include "KernelJoin.h"
#include "LoadPlan.h"
#include "TestSupport.h"
#include "summary/KernelRowTimelineReader.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace at;

namespace {

QString textRank0()
{
    return QFileInfo(QFileInfo(test::level1Rank0Trace()).absolutePath()).absolutePath();
}

QString torchDb()
{
    return test::level1Rank0Database();
}

LoadOptions preferring(PreferredSource source)
{
    LoadOptions options = environmentLoadOptions();
    options.preferredSource = source;
    return options;
}

// The id of a JSON-named arg ("Task Id", "Subtask Id") as the join read it before ids were typed.
std::int64_t argId(const std::vector<std::pair<QString, QString>> &args, const QString &key)
{
    for (const auto &[k, v] : args)
        if (k == key) {
            bool ok = false;
            const qlonglong value = v.toLongLong(&ok);
            return ok && value != 4294967295LL ? value : TaskIds::kNone;
        }
    return TaskIds::kNone;
}

} // namespace

class TestLoadPlan : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    // The text export of the level1 rank0 result with the database of the db/ sample beside it.
    QString bothExports()
    {
        const QString root = m_dir.filePath(QStringLiteral("both/rank0_ascend_pt"));
        const QString out = root + QStringLiteral("/ASCEND_PROFILER_OUTPUT");
        if (QFileInfo::exists(out))
            return root;
        QDir().mkpath(out);
        QFile::copy(textRank0() + QStringLiteral("/profiler_info_0.json"),
                    root + QStringLiteral("/profiler_info_0.json"));
        const QString textOut = textRank0() + QStringLiteral("/ASCEND_PROFILER_OUTPUT");
        for (const QString &name : QDir(textOut).entryList(QDir::Files))
            QFile::copy(textOut + QLatin1Char('/') + name, out + QLatin1Char('/') + name);
        QFile::copy(torchDb(), out + QStringLiteral("/ascend_pytorch_profiler_0.db"));
        return root;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // A folder of two ranks: one run, a source per rank, each read by the JSON and summary readers.
    void folderIsRunsOfSourcesOfReaders()
    {
        const LoadPlan plan = planLoad(QFileInfo(textRank0()).absolutePath(), LoadOptions{});
        QVERIFY(!plan.singleFile);
        QVERIFY2(plan.chosen(), qPrintable(plan.error));
        QCOMPARE(plan.runs.size(), std::size_t(1));
        QCOMPARE(plan.chosen()->sources.size(), std::size_t(2));
        for (const PlannedSource &source : plan.chosen()->sources) {
            QCOMPARE(source.readers.size(), std::size_t(2));
            QVERIFY(source.readers[0] == &jsonTimelineReader());
            QVERIFY(source.readers[1] == &summaryTablesReader());
        }
    }

    // A rank without trace_view.json or a database but with kernel_details.csv (the Qwen3 sample's rank 0):
    // its device tasks are drawn from the kernel rows before the summary tables are read.
    void kernelRowsAreTheTimelineOfARankWithoutOne()
    {
        const LoadPlan plan =
            planLoad(test::samplePath(QStringLiteral(
                         "msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2/rank_0_ascend_pt")),
                     LoadOptions{});
        QVERIFY2(plan.chosen(), qPrintable(plan.error));
        QCOMPARE(plan.chosen()->sources.size(), std::size_t(1));
        const PlannedSource &source = plan.chosen()->sources.front();
        QCOMPARE(source.source.format, QString());
        QCOMPARE(source.readers.size(), std::size_t(2));
        QVERIFY(source.readers[0] == &kernelRowTimelineReader());
        QVERIFY(source.readers[1] == &summaryTablesReader());
    }

    // Results of different runs stay apart: the plan names every run and loads one.
    void severalRunsArePlannedApart()
    {
        const LoadPlan plan =
            planLoad(test::samplePath(QStringLiteral("msinsight_alexnet_1step_levels")), LoadOptions{});
        QVERIFY2(plan.chosen(), qPrintable(plan.error));
        QVERIFY(plan.runs.size() > 1);
        QVERIFY(plan.notices.join(QLatin1Char('\n')).contains(QStringLiteral("Open the others separately")));
        const LoadPlan db = planLoad(test::samplePath(QStringLiteral("msinsight_alexnet_1step_levels")),
                                     preferring(PreferredSource::Database));
        QVERIFY(db.chosen());
        QVERIFY(db.chosen()->sources.front().readers.front() == &databaseReader());
    }

    // A database opened directly is a one-source plan read by the database reader alone; so is a trace file.
    void singleFilesAreOneSourcePlans()
    {
        const LoadPlan db = planLoad(torchDb(), LoadOptions{});
        QVERIFY(db.singleFile);
        QVERIFY2(db.chosen(), qPrintable(db.error));
        QCOMPARE(db.chosen()->sources.size(), std::size_t(1));
        const PlannedSource &source = db.chosen()->sources.front();
        QCOMPARE(source.source.timelineDatabase, torchDb());
        QCOMPARE(source.readers.size(), std::size_t(1));
        QVERIFY(source.readers.front() == &databaseReader());

        const LoadPlan json = planLoad(test::level1Rank0Trace(), LoadOptions{});
        QVERIFY(json.singleFile && json.chosen());
        QCOMPARE(json.chosen()->sources.front().readers.size(), std::size_t(1));
        QVERIFY(json.chosen()->sources.front().readers.front() == &jsonTimelineReader());

        const LoadPlan missing = planLoad(m_dir.filePath(QStringLiteral("nothing.json")), LoadOptions{});
        QVERIFY(!missing.chosen());
        QVERIFY(missing.error.contains(QStringLiteral("no such file or folder")));
    }

    // --source raw turns a source with raw data folders into a raw one and remembers the export it had.
    void rawPreferenceKeepsTheExportItReplaced()
    {
        const QString root =
            m_dir.filePath(QStringLiteral("raw/PROF_000001_20250101000000000_ABCDEFGHIJKLMNOP"));
        QVERIFY(QDir().mkpath(root + QStringLiteral("/device_0/data")));
        QVERIFY(QDir().mkpath(root + QStringLiteral("/mindstudio_profiler_output")));
        QVERIFY(QFile::copy(test::level1Rank0Trace(),
                            root + QStringLiteral("/mindstudio_profiler_output/msprof_20250101000000.json")));
        const LoadPlan text = planLoad(root, LoadOptions{});
        QVERIFY2(text.chosen(), qPrintable(text.error));
        QVERIFY(text.chosen()->sources.front().readers.front() == &jsonTimelineReader());
        const LoadPlan raw = planLoad(root, preferring(PreferredSource::Raw));
        QVERIFY2(raw.chosen(), qPrintable(raw.error));
        const PlannedSource &source = raw.chosen()->sources.front();
        QCOMPARE(source.source.format, rawDataReader().formatId());
        QCOMPARE(source.exportFormat, jsonTimelineReader().formatId());
        QVERIFY(source.source.timelineFiles.isEmpty());
        QVERIFY(source.readers.front() == &rawDataReader());
    }

    // What each group says about where it came from, as typed facts, and the rows shown from them.
    void provenanceOfTheSamples()
    {
        const auto text = test::loadOrFail(textRank0());
        QVERIFY(text);
        const SourceProvenance &t = text->groups().front().provenance;
        QCOMPARE(t.used, TimelineExport::TextExport);
        QVERIFY(t.hasTextExport && !t.hasDatabase() && !t.hasRawData() && !t.hasOtherExport());
        const QString trace = textRank0() + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json");
        const auto size = static_cast<std::uint64_t>(QFileInfo(trace).size());
        QVERIFY(!t.reads.empty());
        QCOMPARE(t.reads.front(), (FileRead{trace, size, 0, size}));
        bool kernelTableRead = false;
        for (const FileRead &read : t.reads)
            kernelTableRead = kernelTableRead || read.path.endsWith(QStringLiteral("kernel_details.csv"));
        QVERIFY(kernelTableRead);
        QCOMPARE(provenanceRow(t, QStringLiteral("timeline source")), QStringLiteral("text export"));

        const auto db = test::loadOrFail(torchDb());
        QVERIFY(db);
        const SourceProvenance &d = db->groups().front().provenance;
        QCOMPARE(d.used, TimelineExport::Database);
        QCOMPARE(d.databasePath, torchDb());
        QVERIFY(!d.hasTextExport && !d.hasOtherExport());
        QCOMPARE(d.reads.size(), std::size_t(1));
        QCOMPARE(d.reads.front().path, torchDb());

        const auto file = test::loadOrFail(test::level1Rank0Trace());
        QVERIFY(file);
        QCOMPARE(file->groups().front().provenance.used, TimelineExport::ChromeJson);
        QVERIFY(provenanceRows(file->groups().front().provenance).isEmpty());
    }

    void provenanceOfBothExports()
    {
        const QString root = bothExports();
        LoadControl control;
        const LoadResult asText = loadTrace(root, environmentLoadOptions(), control);
        QVERIFY2(asText.model, qPrintable(asText.error));
        const SourceProvenance &t = asText.model->groups().front().provenance;
        QCOMPARE(t.used, TimelineExport::TextExport);
        QVERIFY(t.hasDatabase() && t.hasOtherExport());
        QVERIFY(t.databasePath.endsWith(QStringLiteral("ascend_pytorch_profiler_0.db")));

        LoadControl dbControl;
        const LoadResult asDb = loadTrace(root, preferring(PreferredSource::Database), dbControl);
        QVERIFY2(asDb.model, qPrintable(asDb.error));
        const SourceProvenance &d = asDb.model->groups().front().provenance;
        QCOMPARE(d.used, TimelineExport::Database);
        QVERIFY(d.hasTextExport && d.hasOtherExport());
        QCOMPARE(provenanceRow(d, QStringLiteral("other source")), QStringLiteral("text export"));
        QCOMPARE(provenanceRow(d, QStringLiteral("timeline source")),
                 QStringLiteral("SQLite database ascend_pytorch_profiler_0.db"));
    }

    // Each way a load ends is reported as such.
    void stopReasons()
    {
        LoadControl done;
        const LoadResult whole = loadTrace(torchDb(), environmentLoadOptions(), done);
        QVERIFY(whole.model);
        QCOMPARE(whole.stop, LoadStop::None);

        LoadControl cancelled;
        cancelled.cancel = true;
        const LoadResult userCancel = loadTrace(torchDb(), environmentLoadOptions(), cancelled);
        QVERIFY(!userCancel.model && userCancel.cancelled());
        QCOMPARE(userCancel.stop, LoadStop::UserCancel);

        LoadOptions tiny = environmentLoadOptions();
        tiny.memoryLimitBytes = 1; // over the limit before the first row
        LoadControl limited;
        const LoadResult memory = loadTrace(torchDb(), tiny, limited);
        QVERIFY(memory.model && !memory.cancelled());
        QCOMPARE(memory.stop, LoadStop::MemoryLimit);
        QVERIFY(limited.memoryLimitReached && limited.stopReading && !limited.cancel);

        LoadControl missing;
        const LoadResult error =
            loadTrace(m_dir.filePath(QStringLiteral("missing.db")), environmentLoadOptions(), missing);
        QVERIFY(!error.model && !error.error.isEmpty());
        QCOMPARE(error.stop, LoadStop::Error);
    }

    // The guard's stop never hides the user's Cancel: cancelling while the memory limit stops reading is
    // a cancel, in every reader.
    void cancelDuringAMemoryStopIsACancel()
    {
        LoadOptions tiny = environmentLoadOptions();
        tiny.memoryLimitBytes = 1; // the guard stops reading at once
        for (const QString &path : {torchDb(), test::level1Rank0Trace(), textRank0()}) {
            LoadControl control;
            control.cancel = true;
            const LoadResult r = loadTrace(path, tiny, control);
            QVERIFY2(control.memoryLimitReached, qPrintable(path));
            QVERIFY2(r.cancelled() && !r.model, qPrintable(path));
        }
    }

    // The join's tie-break reads the typed ids; they are the ids the details panel shows, so every join
    // stays what it was with the arg names (database and JSON samples).
    void typedTaskIdsAreTheArgIds()
    {
        for (const QString &path : {torchDb(), textRank0()}) {
            const auto model = test::loadOrFail(path);
            QVERIFY(model);
            std::size_t checked = 0;
            for (std::size_t r = 0; r < model->kernels().size(); ++r) {
                const KernelRecord &row = model->kernels().rows()[r];
                if (row.thread < 0)
                    continue;
                const SliceRef ref{row.thread, row.slice};
                const std::optional<TaskIds> ids = model->sliceTaskIds(ref);
                QVERIFY2(ids, qPrintable(path));
                const auto args = model->sliceArgs(ref);
                QCOMPARE(ids->taskId, argId(args, QStringLiteral("Task Id")));
                QCOMPARE(ids->subtaskId, argId(args, QStringLiteral("Subtask Id")));
                checked += ids->taskId != TaskIds::kNone;
            }
            QVERIFY2(checked > 0, qPrintable(path));
            // Joining again on the built model gives the same slices.
            KernelTable again = model->kernels();
            const KernelJoinStats stats = joinKernels(*model, again);
            QCOMPARE(stats.byTaskKey + stats.byNameAndTime + stats.nearest + stats.unjoined, again.size());
            for (std::size_t r = 0; r < again.size(); ++r) {
                QCOMPARE(again.row(r).thread, model->kernels().rows()[r].thread);
                QCOMPARE(again.row(r).slice, model->kernels().rows()[r].slice);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestLoadPlan)
#include "tst_loadplan.moc"
