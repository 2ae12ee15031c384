// The Overview model (core/overview, docs/OVERVIEW.md) on the real samples: the parts of every step equal
// step_trace_time.csv (the expected values read from the CSV text here), the contents of every part sum
// exactly to it, the mean is the mean of the steps, the rules put the time where the data shows it, and bad
// input gives an overview that says what is missing.
#include "OverviewTestSupport.h"
#include "TestPaths.h"

#include "InsightChecks.h"
#include "TiledModel.h"
#include "cluster/ClusterReader.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace at;
using namespace at::test;

class TstOverview : public QObject
{
    Q_OBJECT

    static Overview overviewOf(const TraceModel &model, const cluster::ClusterModel *cluster = nullptr)
    {
        OverviewInputs inputs;
        inputs.model = &model;
        inputs.cluster = cluster;
        return buildOverview(inputs);
    }

    static void checkInvariants(const Overview &overview)
    {
        for (const OverviewRank &r : overview.ranks) {
            QString why;
            for (const OverviewStep &s : r.steps)
                QVERIFY2(contentsSumToParts(s, &why), qPrintable(r.label + QStringLiteral(": ") + why));
            QVERIFY2(meanIsMeanOfSteps(r, &why), qPrintable(r.label + QStringLiteral(": ") + why));
        }
    }

    // The parts of `step` against the CSV row's text.
    static void compareWithCsv(const OverviewStep &step, const CsvStepRow &row)
    {
        for (OverviewPart part : {OverviewPart::Computing, OverviewPart::CommunicationNotOverlapped,
                                  OverviewPart::Free, OverviewPart::Preparing, OverviewPart::Bubble}) {
            const auto cell = row.cells.find(QLatin1String(kCsvColumnOf(part)));
            QVERIFY(cell != row.cells.end());
            QVERIFY2(step.part(part).present, kCsvColumnOf(part));
            QCOMPARE(step.part(part).time, expectedNs(cell->second));
        }
    }

private slots:
    void rankFoldersEqualTheirStepTraceCsv_data()
    {
        QTest::addColumn<QString>("folder");
        for (const char *rank : {"level0/rank0_ascend_pt", "level1/rank0_ascend_pt", "level1/rank1_ascend_pt",
                                 "level2/rank0_ascend_pt"})
            QTest::newRow(rank) << alexnetLevel(QLatin1String(rank));
    }
    void rankFoldersEqualTheirStepTraceCsv()
    {
        QFETCH(QString, folder);
        const auto model = loadOrFail(folder);
        QVERIFY(model);
        QElapsedTimer timer;
        timer.start();
        const Overview overview = overviewOf(*model);
        // What building costs (docs/PERFORMANCE.md: no bench below ~100 ms on the largest sample).
        qInfo("buildOverview: %lld ms", static_cast<long long>(timer.elapsed()));
        QCOMPARE(overview.scope, Overview::Scope::SingleRank);
        QCOMPARE(overview.ranks.size(), std::size_t(1));
        const std::vector<CsvStepRow> rows =
            readStepTraceCsv(folder + QStringLiteral("/ASCEND_PROFILER_OUTPUT/step_trace_time.csv"));
        QCOMPARE(rows.size(), std::size_t(1));
        const OverviewRank &rank = overview.ranks.front();
        QCOMPARE(rank.steps.size(), std::size_t(1));
        const OverviewStep &step = rank.steps.front();
        QCOMPARE(step.source, OverviewPartsSource::StepTraceCsv);
        QCOMPARE(QString::number(step.number), rows.front().step);
        compareWithCsv(step, rows.front());
        // The step is the additive parts: Stage + Bubble + Preparing of the file.
        QCOMPARE(step.total(),
                 expectedNs(rows.front().cells.at(QStringLiteral("Computing"))) +
                     expectedNs(rows.front().cells.at(QStringLiteral("Communication(Not Overlapped)"))) +
                     expectedNs(rows.front().cells.at(QStringLiteral("Free"))) +
                     expectedNs(rows.front().cells.at(QStringLiteral("Preparing"))));
        checkInvariants(overview);
    }

    // Alexnet level1 rank 0 (FORMATS.md §9.2's worked check): 65 % of the step is exposed communication, all
    // of it hcom_allReduce; computing is AI_CORE, AI_VECTOR_CORE, MIX_AIV and DSA tasks recomputed to within
    // 1 µs of the file; every free gap lies under a host span or is named "nothing recorded".
    void level1Rank0PutsTheTimeWhereTheDataShowsIt()
    {
        const auto model = loadOrFail(alexnetLevel(QStringLiteral("level1/rank0_ascend_pt")));
        QVERIFY(model);
        const Overview overview = overviewOf(*model);
        const OverviewStep &step = overview.ranks.front().steps.front();
        QCOMPARE(step.largestPart(), OverviewPart::CommunicationNotOverlapped);
        const OverviewPartValue &comm = step.part(OverviewPart::CommunicationNotOverlapped);
        QCOMPARE(comm.items.front().kind, OverviewItemKind::CommunicationOp);
        QCOMPARE(comm.items.front().name, QStringLiteral("hcom_allReduce"));
        QVERIFY2(comm.items.back().time < 1000, qPrintable(QString::number(comm.items.back().time)));
        QCOMPARE(comm.items.front().count, 4);

        const OverviewPartValue &computing = step.part(OverviewPart::Computing);
        QVERIFY2(computing.items.back().time < 1000,
                 qPrintable(QString::number(computing.items.back().time)));
        QStringList types;
        for (const OverviewItem &i : computing.items)
            if (i.kind == OverviewItemKind::KernelType)
                types << i.name;
        QVERIFY2(types.contains(QStringLiteral("AI_CORE")), qPrintable(types.join(',')));
        QVERIFY2(types.contains(QStringLiteral("MIX_AIV")), qPrintable(types.join(',')));

        // Free: recomputed gaps equal the lanes' free time within 1 µs, all of it given a cause.
        const OverviewPartValue &free = step.part(OverviewPart::Free);
        QVERIFY2(free.items.back().time < 1000, qPrintable(QString::number(free.items.back().time)));
        TimeNs byCause = 0;
        for (const OverviewItem &i : free.items)
            if (i.kind != OverviewItemKind::NotAttributed)
                byCause += i.time;
        QVERIFY(byCause > free.time - 1000);
        // The device idles mostly while the host is inside CANN launches, and while it waits in the 8
        // aclrtSynchronize* calls of the step.
        auto cause = [&](OverviewItemKind kind) {
            return *std::find_if(free.items.begin(), free.items.end(),
                                 [&](const OverviewItem &i) { return i.kind == kind; });
        };
        QVERIFY(cause(OverviewItemKind::HostDispatch).time > free.time / 2);
        QVERIFY(cause(OverviewItemKind::Synchronisation).time > 0);
        QVERIFY(cause(OverviewItemKind::Synchronisation).count > 0);
        QCOMPARE(cause(OverviewItemKind::HostDispatch).target.kind, OverviewTarget::Kind::TimeRange);
        // Preparing: the step opens with enumerate(DataLoader)#…__next__ before any device work.
        const OverviewPartValue &preparing = step.part(OverviewPart::Preparing);
        const auto loading =
            std::find_if(preparing.items.begin(), preparing.items.end(),
                         [](const OverviewItem &i) { return i.kind == OverviewItemKind::DataLoading; });
        QVERIFY(loading != preparing.items.end());
        QVERIFY(loading->time > 0);
        QCOMPARE(preparing.items.back().time,
                 0); // every instant of Preparing has a cause or "nothing recorded"

        // Top kernels: sums of task durations, largest first, each a Kernels-panel target.
        QVERIFY(!step.topKernels.empty());
        for (std::size_t i = 1; i < step.topKernels.size(); ++i)
            QVERIFY(step.topKernels[i - 1].total >= step.topKernels[i].total);
        QCOMPARE(step.topKernels.front().target.kind, OverviewTarget::Kind::Kernel);
        QCOMPARE(step.target.kind, OverviewTarget::Kind::TimeRange);

        // The memory peak names its component.
        const OverviewRank &rank = overview.ranks.front();
        QVERIFY(rank.memoryPeak);
        QVERIFY(!rank.memoryPeak->component.isEmpty());
        QVERIFY(rank.memoryPeak->bytes > 0);
    }

    // The two alexnet level1 ranks loaded together: one Overview rank per group, each equal to its own file,
    // and with the cluster data of the folder the exposed communication also split by the rank waited for.
    void twoRanksLoadedTogether()
    {
        const QString folder = alexnetLevel(QStringLiteral("level1"));
        const auto model = loadOrFail(folder);
        QVERIFY(model);
        const cluster::ClusterModel data = cluster::readCluster(folder);
        const Overview overview = overviewOf(*model, &data);
        QCOMPARE(overview.scope, Overview::Scope::SeveralRanks);
        QCOMPARE(overview.ranks.size(), std::size_t(2));
        for (const OverviewRank &r : overview.ranks) {
            const std::vector<CsvStepRow> rows = readStepTraceCsv(
                folder +
                QStringLiteral("/rank%1_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv").arg(r.rank));
            QCOMPARE(rows.size(), std::size_t(1));
            QCOMPARE(r.steps.size(), std::size_t(1));
            compareWithCsv(r.steps.front(), rows.front());
        }
        checkInvariants(overview);
    }

    // The Qwen3 PP2 cluster from its summary files alone: every rank's step 13 equals its file, exposed
    // communication is split by op kind (Elapse Time of communication.json) and by the rank waited for.
    void qwen3ClusterFromSummaryFiles()
    {
        const cluster::ClusterModel data = cluster::readCluster(qwen3Cluster());
        QCOMPARE(data.ranks.size(), std::size_t(4));
        OverviewInputs inputs;
        inputs.cluster = &data;
        const Overview overview = buildOverview(inputs);
        QCOMPARE(overview.scope, Overview::Scope::Cluster);
        QCOMPARE(overview.ranks.size(), std::size_t(4));
        for (const OverviewRank &r : overview.ranks) {
            QCOMPARE(r.group, -1);
            const std::vector<CsvStepRow> rows = readStepTraceCsv(
                qwen3Cluster() +
                QStringLiteral("/rank_%1_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv").arg(r.rank));
            QCOMPARE(rows.size(), std::size_t(1));
            QCOMPARE(r.steps.size(), std::size_t(1));
            QCOMPARE(r.steps.front().number, 13);
            compareWithCsv(r.steps.front(), rows.front());
            const OverviewPartValue &comm = r.steps.front().part(OverviewPart::CommunicationNotOverlapped);
            // Overlapped is 0: the ops' elapse adds up to the part (313.878 + 106.296 ms on rank 0).
            QVERIFY2(comm.items.back().time < 1000, qPrintable(r.label));
            QVERIFY(comm.items.size() >= 2);
            QVERIFY(!r.missing.isEmpty()); // no timeline: computing and free are not split
            // Ranks 0 and 2 wrote memory_record.csv (APP: the whole application), 1 and 3 no memory file.
            const bool hasMemory = QFileInfo::exists(
                qwen3Cluster() +
                QStringLiteral("/rank_%1_ascend_pt/ASCEND_PROFILER_OUTPUT/memory_record.csv").arg(r.rank));
            QCOMPARE(r.memoryPeak.has_value(), hasMemory);
            if (hasMemory)
                QCOMPARE(r.memoryPeak->component, QStringLiteral("APP"));
        }
        // Someone waits for someone in the collectives.
        bool anyWait = false;
        for (const OverviewRank &r : overview.ranks)
            for (const OverviewItem &i :
                 r.steps.front().part(OverviewPart::CommunicationNotOverlapped).byRank)
                anyWait = anyWait || (i.kind == OverviewItemKind::WaitingForRank && i.time > 0);
        QVERIFY(anyWait);
        checkInvariants(overview);
    }

    // Twenty steps (the level1 rank 0 profile tiled, kernels of copy 7 twice as slow): the step the CSV has
    // (#50) from the file, the others recomputed from the timeline; the mean is the mean of the steps and its
    // contents sum to it; the slow copy shows as more computing, in the same kernel types.
    void manyStepsAndTheirMean()
    {
        const auto one = loadOrFail(alexnetLevel(QStringLiteral("level1/rank0_ascend_pt")));
        QVERIFY(one);
        TileOptions options;
        options.copies = 20;
        options.duration = [&](int copy, SliceRef ref, TimeNs duration) {
            return copy == 7 && one->kernels().rowOfSlice(ref.thread, ref.index) >= 0 ? 2 * duration
                                                                                      : duration;
        };
        const auto model = tileModel(*one, options);
        QVERIFY(model);
        QElapsedTimer timer;
        timer.start();
        const std::vector<Finding> findings = runInsightChecks(*model);
        const qint64 checks = timer.restart();
        OverviewInputs inputs;
        inputs.model = model.get();
        inputs.findings = &findings;
        const Overview overview = buildOverview(inputs);
        qInfo("20 steps: the checks %lld ms, the rest of the Overview %lld ms",
              static_cast<long long>(checks), static_cast<long long>(timer.elapsed()));
        const OverviewRank &rank = overview.ranks.front();
        QCOMPARE(rank.steps.size(), std::size_t(20));
        QCOMPARE(rank.steps.front().source, OverviewPartsSource::StepTraceCsv);
        for (std::size_t i = 1; i < rank.steps.size(); ++i) {
            QCOMPARE(rank.steps[i].source, OverviewPartsSource::Timeline);
            QCOMPARE(rank.steps[i].number, rank.steps.front().number + std::int64_t(i));
        }
        // The copies recompute what the file says: computing, exposed communication and free from the Overlap
        // Analysis lanes exactly, Preparing from the first computing task within a µs (FORMATS.md §9.2).
        const OverviewStep &file = rank.steps.front();
        for (std::size_t i = 1; i < rank.steps.size(); ++i) {
            const OverviewStep &copy = rank.steps[i];
            for (OverviewPart p :
                 {OverviewPart::Computing, OverviewPart::CommunicationNotOverlapped, OverviewPart::Free})
                QCOMPARE(copy.part(p).time, file.part(p).time);
            QVERIFY(std::abs(copy.part(OverviewPart::Preparing).time -
                             file.part(OverviewPart::Preparing).time) < 1000);
        }
        checkInvariants(overview);
        QVERIFY(rank.mean);
        QCOMPARE(rank.mean->topKernels.front().count, 20 * file.topKernels.front().count);
    }

    // Findings: the Overview lists every finding of runInsightChecks with its fields, and each rank the ones
    // naming it.
    void findingsAreTheChecksOwn()
    {
        const auto model = loadOrFail(alexnetLevel(QStringLiteral("level1/rank0_ascend_pt")));
        QVERIFY(model);
        const std::vector<Finding> findings = runInsightChecks(*model);
        OverviewInputs inputs;
        inputs.model = model.get();
        inputs.findings = &findings;
        const Overview overview = buildOverview(inputs);
        QCOMPARE(overview.findings.size(), findings.size());
        for (std::size_t i = 0; i < findings.size(); ++i) {
            const OverviewFinding &f = overview.findings[i];
            QCOMPARE(f.index, int(i));
            QCOMPARE(f.check, findings[i].check);
            QCOMPARE(f.part, findings[i].part);
            QCOMPARE(f.time, findings[i].timeAtStake);
            QCOMPARE(f.shareOfPart, findings[i].shareOfPart());
            QCOMPARE(f.shareOfStep, findings[i].shareOfStep());
            if (findings[i].rank >= 0) {
                const OverviewRank *r = overview.rank(f.rank);
                QVERIFY(r);
                QVERIFY(std::find(r->findings.begin(), r->findings.end(), int(i)) != r->findings.end());
            }
        }
    }

    // Every sample folder that loads: the contents sum to the parts and the mean is the steps' mean.
    void invariantsOnEverySample_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("alexnet db level1") << samplePath(
            QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/db/level1/rank0_ascend_pt"));
        QTest::newRow("msprof cann8") << samplePath(QStringLiteral("ascend_msprof_skill_cann8_sanitized"));
        QTest::newRow("msprof db") << samplePath(
            QStringLiteral("msinsight_msprof_db_and_misc/server/src/test/test_data/full_db/msprof_0.db"));
        QTest::newRow("qwen3 rank 0") << qwen3Cluster() + QStringLiteral("/rank_0_ascend_pt");
    }
    void invariantsOnEverySample()
    {
        QFETCH(QString, path);
        const auto model = loadOrFail(path);
        QVERIFY(model);
        const Overview overview = overviewOf(*model);
        QVERIFY(!overview.ranks.empty());
        checkInvariants(overview);
        for (const OverviewRank &r : overview.ranks)
            if (r.steps.empty())
                QVERIFY(!r.missing.isEmpty());
    }

    // A copy of level1 rank 0 whose step_trace_time.csv has "n/a" for Computing and that lost its kernel
    // table: the step is recomputed from the timeline, the rank says why, computing is all "not attributed"
    // and the sums still hold.
    void brokenStepTraceAndNoKernelTable()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString from = alexnetLevel(QStringLiteral("level1/rank0_ascend_pt"));
        const QString to = dir.filePath(QStringLiteral("rank0_ascend_pt"));
        QDirIterator it(from, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString file = it.next();
            if (file.endsWith(QLatin1String("kernel_details.csv")))
                continue;
            const QString target = to + file.mid(from.size());
            QVERIFY(QDir().mkpath(QFileInfo(target).path()));
            QVERIFY(QFile::copy(file, target));
            QVERIFY(QFile::setPermissions(target, QFile::ReadOwner | QFile::WriteOwner));
        }
        const QString csv = to + QStringLiteral("/ASCEND_PROFILER_OUTPUT/step_trace_time.csv");
        std::vector<CsvStepRow> rows = readStepTraceCsv(csv);
        QCOMPARE(rows.size(), std::size_t(1));
        {
            QFile f(csv);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QString text = QString::fromUtf8(f.readAll());
            f.close();
            text.replace(rows.front().cells.at(QStringLiteral("Computing")), QStringLiteral("n/a"));
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(text.toUtf8());
        }
        const auto model = loadOrFail(to);
        QVERIFY(model);
        const Overview overview = overviewOf(*model);
        QCOMPARE(overview.ranks.size(), std::size_t(1));
        const OverviewRank &r = overview.ranks.front();
        QCOMPARE(r.steps.size(), std::size_t(1));
        const OverviewStep &step = r.steps.front();
        QCOMPARE(step.source, OverviewPartsSource::Timeline);
        const QString missing = r.missing.join(QLatin1Char(' '));
        QVERIFY2(missing.contains(QStringLiteral("has no time in column Computing ('n/a')")),
                 qPrintable(missing));
        QVERIFY2(missing.contains(QStringLiteral("No kernel table")), qPrintable(missing));
        const OverviewPartValue &computing = step.part(OverviewPart::Computing);
        QVERIFY(computing.time > 0);
        QCOMPARE(computing.items.size(), std::size_t(1));
        QCOMPARE(computing.items.front().kind, OverviewItemKind::NotAttributed);
        QVERIFY(step.topKernels.empty());
        checkInvariants(overview);
    }

    // Bad input: no ranks at all, a trace without steps or kernels. Never a crash; the overview says what is
    // missing.
    void badInputSaysWhatIsMissing()
    {
        const TraceModel empty;
        const Overview none = buildOverview({&empty, nullptr, nullptr, nullptr, {}});
        QVERIFY(none.ranks.empty());
        QCOMPARE(none.missing.size(), 1);

        const auto model = loadOrFail((at::test::testDataDir() + QStringLiteral("/json/flows.json")));
        QVERIFY(model);
        const Overview noSteps = overviewOf(*model);
        QCOMPARE(noSteps.ranks.size(), std::size_t(1));
        const OverviewRank &r = noSteps.ranks.front();
        QVERIFY(r.steps.empty());
        QVERIFY(!r.mean);
        QVERIFY(r.missing.join(' ').contains(QStringLiteral("No steps")));
        QVERIFY(r.missing.join(' ').contains(QStringLiteral("No kernel table")));
        QVERIFY(noSteps.missing.join(' ').contains(QStringLiteral("No steps in any rank")));

        const cluster::ClusterModel emptyCluster;
        const Overview noRanks = buildOverview({nullptr, &emptyCluster, nullptr, nullptr, {}});
        QVERIFY(noRanks.ranks.empty());
        QVERIFY(!noRanks.missing.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TstOverview)
#include "tst_overview.moc"
