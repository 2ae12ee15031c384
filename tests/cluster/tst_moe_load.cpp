// MoE load (issue #32, docs/CLUSTER.md "MoE load"): the real Qwen3 4-rank job copied and given an
// expert-parallel group ("exp" over ranks 0-3) and GroupedMatmul rows in every rank's kernel_details.csv for
// steps 13 and 14, rank 2 getting 3 × the tokens of the others. The reader, the spread, the finding,
// `--cluster --json` and the cluster page's tab must all name exactly rank 2; the real sample has no EP group
// and must say so.
#include "AppProcess.h"
#include "AppTestSupport.h"
#include "ClusterTestSupport.h"
#include "InsightChecks.h"
#include "Theme.h"
#include "TimelineView.h"
#include "Translations.h"
#include "cluster/ClusterHeatMap.h"
#include "cluster/ClusterReader.h"
#include "cluster/ClusterView.h"
#include "cluster/MoeLoad.h"
#include "cluster/MoeLoadView.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace at;
using namespace at::cluster;
using namespace at::test;

namespace {

constexpr std::int64_t kTokens = 1024;    // per call on a balanced rank
constexpr int kHotRank = 2;               // gets 3 × kTokens per call
constexpr std::int64_t kDurationUs = 100; // per call on a balanced rank (300 on the hot one)
const std::int64_t kSteps[] = {13, 14};
constexpr int kCallsPerStep = 2;

QString rankFolder(const QString &root, int rank)
{
    return root + QStringLiteral("/rank_%1_ascend_pt").arg(rank);
}

// profiler_metadata.json with an "exp" group over all four ranks.
bool addExpertGroup(const QString &root, int rank)
{
    const QString path = rankFolder(root, rank) + QStringLiteral("/profiler_metadata.json");
    QJsonObject meta = QJsonDocument::fromJson(readAll(path)).object();
    QJsonObject groups = meta.value(QStringLiteral("parallel_group_info")).toObject();
    groups.insert(QStringLiteral("group_name_40"),
                  QJsonObject{{QStringLiteral("group_name"), QStringLiteral("exp")},
                              {QStringLiteral("group_rank"), rank},
                              {QStringLiteral("global_ranks"), QJsonArray{0, 1, 2, 3}}});
    meta.insert(QStringLiteral("parallel_group_info"), groups);
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           file.write(QJsonDocument(meta).toJson(QJsonDocument::Compact)) > 0;
}

// One kernel_details.csv row with the sample's header: a GroupedMatmulV4 call.
QByteArray groupedMatmulRow(const QStringList &header, std::int64_t step, std::int64_t tokens, double startUs,
                            std::int64_t durationUs, const QString &shapes = {})
{
    QStringList cells;
    for (const QString &column : header) {
        if (column == QLatin1String("Step Id"))
            cells << QString::number(step);
        else if (column == QLatin1String("Name"))
            cells << QStringLiteral("aclnnGroupedMatmulV4_GroupedMatmul_GroupedMatmul");
        else if (column == QLatin1String("Type"))
            cells << QStringLiteral("GroupedMatmul");
        else if (column == QLatin1String("Accelerator Core"))
            cells << QStringLiteral("AI_CORE");
        else if (column == QLatin1String("Start Time(us)"))
            cells << QString::number(startUs, 'f', 3) + QLatin1Char('\t');
        else if (column == QLatin1String("Duration(us)"))
            cells << QString::number(durationUs);
        else if (column == QLatin1String("Input Shapes"))
            cells << (shapes.isEmpty() ? QStringLiteral("\"\"\"%1,2048;16,2048,1408;16\"\"\"").arg(tokens)
                                       : shapes);
        else
            cells << QStringLiteral("0");
    }
    return cells.join(QLatin1Char(',')).toUtf8() + '\n';
}

// The synthetic EP cluster in dir; "" when the sample could not be copied.
QString makeMoeCluster(const QTemporaryDir &dir)
{
    const QString root = dir.path() + QStringLiteral("/job");
    if (!copyTree(qwen3Cluster(), root))
        return {};
    const QByteArray sampleTable =
        readAll(rankFolder(qwen3Cluster(), 0) + QStringLiteral("/ASCEND_PROFILER_OUTPUT/kernel_details.csv"));
    const QByteArray headerLine = sampleTable.left(sampleTable.indexOf('\n') + 1);
    const QStringList header = QString::fromUtf8(headerLine).trimmed().split(QLatin1Char(','));
    for (int rank = 0; rank < 4; ++rank) {
        if (!addExpertGroup(root, rank))
            return {};
        const QString table =
            rankFolder(root, rank) + QStringLiteral("/ASCEND_PROFILER_OUTPUT/kernel_details.csv");
        QByteArray text = QFileInfo::exists(table) ? readAll(table) : headerLine; // ranks 1, 3 have none
        if (!text.endsWith('\n'))
            text += '\n';
        const std::int64_t factor = rank == kHotRank ? 3 : 1;
        double start = 1764246878000000.0;
        for (std::int64_t step : kSteps)
            for (int call = 0; call < kCallsPerStep; ++call) {
                text += groupedMatmulRow(header, step, factor * kTokens, start, factor * kDurationUs);
                start += 1000;
            }
        if (rank == 3) // a row whose Input Shapes is no shape list: warned about, left out
            text += groupedMatmulRow(header, 14, 0, start, kDurationUs, QStringLiteral("N/A"));
        writeTextFile(table, text);
    }
    return root;
}

const Finding *findingOf(const std::vector<Finding> &findings, const QString &check)
{
    for (const Finding &f : findings)
        if (f.check == check)
            return &f;
    return nullptr;
}

} // namespace

class TstMoeLoad : public QObject
{
    Q_OBJECT
    QTemporaryDir m_settings;
    QTemporaryDir m_data;
    QString m_root;

private slots:
    void initTestCase()
    {
        useScratchSettings(m_settings.path());
        m_root = makeMoeCluster(m_data);
        QVERIFY(!m_root.isEmpty());
    }
    void cleanup()
    {
        setUiLanguage(QStringLiteral("en"));
        applyUiTheme(UiTheme::Light);
    }

    void shapesParse()
    {
        QCOMPARE(firstInputRows(QStringLiteral("8192,2048;16,2048,1408;16")),
                 std::optional<std::int64_t>(8192));
        QCOMPARE(firstInputRows(QStringLiteral("\"4096,7168;8,7168,4096\"")),
                 std::optional<std::int64_t>(4096));
        QCOMPARE(firstInputRows(QStringLiteral("77")), std::optional<std::int64_t>(77));
        QVERIFY(!firstInputRows(QStringLiteral("N/A")));
        QVERIFY(!firstInputRows(QString()));
        QVERIFY(!firstInputRows(QStringLiteral("-1,2048")));
        QVERIFY(isGroupedMatmul(QStringLiteral("GroupedMatmulSwigluQuant")));
        QVERIFY(isGroupedMatmul(QStringLiteral("GroupedMatmulV2")));
        QVERIFY(!isGroupedMatmul(QStringLiteral("MatMulV2")));
        QVERIFY(isExpertParallelGroupName(QStringLiteral("dp_modulo_exp_cp")));
        QVERIFY(!isExpertParallelGroupName(QStringLiteral("dp")));
    }

    // The reader's sums and the spread: rank 2 at 3 × the others in both steps, and only rank 2.
    void loadNamesTheHotRank()
    {
        const ClusterModel model = readCluster(m_root);
        QCOMPARE(model.ranks.size(), std::size_t(4));
        QVERIFY(hasExpertParallelGroup(model));
        const MoeLoad load = moeLoad(model);
        QVERIFY2(load.available(), qPrintable(load.reason));
        QCOMPARE(load.ranks, (std::vector<int>{0, 1, 2, 3}));
        QCOMPARE(load.steps, (std::vector<std::int64_t>{13, 14}));
        QCOMPARE(load.groups.size(), std::size_t(1));
        QCOMPARE(load.groups.front().ranks, (std::vector<int>{0, 1, 2, 3}));
        for (int rank = 0; rank < 4; ++rank) {
            const Rank *r = model.rank(rank);
            QCOMPARE(r->groupedMatmul.size(), std::size_t(2));
            for (const GroupedMatmulStep &s : r->groupedMatmul) {
                const std::int64_t factor = rank == kHotRank ? 3 : 1;
                QCOMPARE(s.tokens, factor * kTokens * kCallsPerStep);
                QCOMPARE(s.calls, kCallsPerStep);
                QCOMPARE(s.time, factor * kDurationUs * kCallsPerStep * 1000);
                QCOMPARE(s.largestName, QStringLiteral("aclnnGroupedMatmulV4_GroupedMatmul_GroupedMatmul"));
            }
        }
        // The malformed row of rank 3: a warning naming its file and line, the rank's values unchanged.
        const QString rank3Table =
            QStringLiteral("rank_3_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv");
        bool warned = false;
        for (const QString &w : model.warnings)
            warned |= w.contains(rank3Table) && w.contains(QStringLiteral("Input Shapes")) &&
                      w.contains(QStringLiteral("line 6"));
        QVERIFY2(warned, qPrintable(model.warnings.join(QLatin1Char('\n'))));

        QCOMPARE(load.groupSteps.size(), std::size_t(2));
        for (const MoeGroupStep &s : load.groupSteps) {
            QCOMPARE(s.ranks, 4);
            QCOMPARE(s.mostLoaded, kHotRank);
            QCOMPARE(s.leastLoaded, 0); // the first of the equal ranks
            QCOMPARE(s.maxTokens, 3 * kTokens * kCallsPerStep);
            QCOMPARE(s.minTokens, kTokens * kCallsPerStep);
            QCOMPARE(s.meanTokens, 1.5 * kTokens * kCallsPerStep);
            QCOMPARE(*s.maxOverMin, 3.0);
            QCOMPARE(s.maxOverMean, 2.0);
            QVERIFY(std::abs(s.coefficientOfVariation - std::sqrt(3.0) / 3.0) < 1e-9);
            // 600 µs against a mean of 300 µs.
            QCOMPARE(s.excessTime(), TimeNs(300000));
        }

        // The finding names rank 2 only, with the excess time of both steps.
        const TraceModel noTimeline;
        const InsightContext context(noTimeline, &model);
        const std::vector<Finding> findings = clusterFindings(context);
        const Finding *f = findingOf(findings, QStringLiteral("moe_load"));
        QVERIFY(f);
        QCOMPARE(f->rank, kHotRank);
        QCOMPARE(f->part, StepPart::Computing);
        QCOMPARE(f->severity, Severity::High);
        QCOMPARE(f->timeAtStake, TimeNs(600000));
        QVERIFY(f->title.contains(QStringLiteral("rank 2 ")));
        QCOMPARE(f->occurrences.size(), std::size_t(2));
        for (const FindingOccurrence &o : f->occurrences) {
            QCOMPARE(o.ranks, (std::vector<int>{kHotRank, 0}));
            QCOMPARE(o.op, QStringLiteral("aclnnGroupedMatmulV4_GroupedMatmul_GroupedMatmul"));
        }
        QCOMPARE(f->data.value(QStringLiteral("imbalanced")).toArray().size(), 2);
    }

    // A balanced job: no finding (the spread is 1).
    void balancedGivesNoFinding()
    {
        ClusterModel model = readCluster(m_root);
        for (Rank &r : model.ranks)
            for (GroupedMatmulStep &s : r.groupedMatmul)
                s.tokens = kTokens;
        const MoeLoad load = moeLoad(model);
        QCOMPARE(load.groupSteps.size(), std::size_t(2));
        QCOMPARE(load.groupSteps.front().maxOverMean, 1.0);
        const TraceModel noTimeline;
        const InsightContext context(noTimeline, &model);
        QVERIFY(!findingOf(clusterFindings(context), QStringLiteral("moe_load")));
    }

    // The real sample: no EP group, said as the reason; no finding, nothing read.
    void realQwen3HasNoExpertGroup()
    {
        const ClusterModel model = readCluster(qwen3Cluster());
        QVERIFY(!hasExpertParallelGroup(model));
        for (const Rank &r : model.ranks)
            QVERIFY(r.groupedMatmul.empty());
        const MoeLoad load = moeLoad(model);
        QVERIFY(!load.available());
        QVERIFY2(load.reason.startsWith(QStringLiteral("no expert-parallel group")), qPrintable(load.reason));
        const TraceModel noTimeline;
        const InsightContext context(noTimeline, &model);
        QVERIFY(!findingOf(clusterFindings(context), QStringLiteral("moe_load")));
    }

    void cliJson()
    {
        const at_test::AppRun run =
            at_test::runApp({QStringLiteral("--cluster"), m_root, QStringLiteral("--json")});
        QCOMPARE(run.exitCode, 0);
        QJsonParseError error;
        const QJsonObject doc = QJsonDocument::fromJson(run.out, &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        const QJsonObject moe = doc.value(QStringLiteral("moe_load")).toObject();
        QVERIFY(doc.value(QStringLiteral("moe_load_reason")).isNull());
        QCOMPARE(moe.value(QStringLiteral("unit")).toString(), QStringLiteral("tokens"));
        const QJsonArray ranks = moe.value(QStringLiteral("ranks")).toArray();
        QCOMPARE(ranks.size(), 4);
        for (const QJsonValue &r : ranks) {
            const int rank = r.toObject().value(QStringLiteral("rank")).toInt();
            const QJsonArray steps = r.toObject().value(QStringLiteral("steps")).toArray();
            QCOMPARE(steps.size(), 2);
            QCOMPARE(steps[0].toObject().value(QStringLiteral("step")).toInt(), 13);
            QCOMPARE(steps[0].toObject().value(QStringLiteral("tokens")).toInteger(),
                     (rank == kHotRank ? 3 : 1) * kTokens * kCallsPerStep);
            QCOMPARE(steps[0].toObject().value(QStringLiteral("calls")).toInt(), kCallsPerStep);
        }
        const QJsonArray spread = moe.value(QStringLiteral("spread")).toArray();
        QCOMPARE(spread.size(), 2);
        for (const QJsonValue &s : spread) {
            QCOMPARE(s.toObject().value(QStringLiteral("most_loaded_rank")).toInt(), kHotRank);
            QCOMPARE(s.toObject().value(QStringLiteral("max_over_mean")).toDouble(), 2.0);
            QCOMPARE(s.toObject().value(QStringLiteral("max_over_min")).toDouble(), 3.0);
            QCOMPARE(s.toObject().value(QStringLiteral("excess_time_us")).toDouble(), 300.0);
        }
        int moeFindings = 0;
        for (const QJsonValue &f : doc.value(QStringLiteral("findings")).toArray())
            moeFindings +=
                f.toObject().value(QStringLiteral("check")).toString() == QLatin1String("moe_load");
        QCOMPARE(moeFindings, 1);
        QVERIFY2(run.err.contains(QStringLiteral("Input Shapes")), qPrintable(run.err));

        // The real sample: null with the reason.
        const at_test::AppRun real =
            at_test::runApp({QStringLiteral("--cluster"), qwen3Cluster(), QStringLiteral("--json")});
        QCOMPARE(real.exitCode, 0);
        const QJsonObject realDoc = QJsonDocument::fromJson(real.out).object();
        QVERIFY(realDoc.contains(QStringLiteral("moe_load")));
        QVERIFY(realDoc.value(QStringLiteral("moe_load")).isNull());
        QVERIFY(realDoc.value(QStringLiteral("moe_load_reason"))
                    .toString()
                    .startsWith(QStringLiteral("no expert-parallel group")));
    }

    // The tab through the real window, at both sizes and themes: the heat map's values, the spread, the
    // finding's double-click opening ranks 2 and 0 at the op; the real sample's tab says why it is empty.
    // Each language, theme and size twice (the full 8-row matrix loads the 4 ranks 8 times: over the ~10 s a
    // suite may take).
    void tabInWindow_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<int>("theme");
        QTest::addColumn<QSize>("size");
        const auto light = static_cast<int>(UiTheme::Light);
        const auto dark = static_cast<int>(UiTheme::Dark);
        QTest::addRow("en-light-900x700") << QStringLiteral("en") << light << QSize(900, 700);
        QTest::addRow("en-dark-1600x1000") << QStringLiteral("en") << dark << QSize(1600, 1000);
        QTest::addRow("zh_CN-light-1600x1000") << QStringLiteral("zh_CN") << light << QSize(1600, 1000);
        QTest::addRow("zh_CN-dark-900x700") << QStringLiteral("zh_CN") << dark << QSize(900, 700);
    }
    void tabInWindow()
    {
        QFETCH(QString, language);
        QFETCH(int, theme);
        QFETCH(QSize, size);
        QVERIFY(setUiLanguage(language));
        applyUiTheme(static_cast<UiTheme>(theme));
        MainWindow window;
        window.resize(size);
        window.show();
        QVERIFY(
            openOnOverview(window, m_root)); // every rank has a kernel table: the ranks load as one timeline
        window.showClusterPage();
        QVERIFY2(window.showsCluster(), qPrintable(window.clusterRoot() + QStringLiteral(" model ") +
                                                   QString::number(window.model() != nullptr)));
        QCoreApplication::processEvents();
        ClusterView *page = window.clusterView();
        MoeLoadView *view = page->moeLoadView();
        auto *tabs = page->findChild<QTabWidget *>();
        const int tab = tabs->indexOf(view);
        QVERIFY(tab >= 0);
        if (language == QLatin1String("en"))
            QCOMPARE(tabs->tabText(tab), QStringLiteral("MoE Load"));
        tabs->setCurrentIndex(tab);
        QCoreApplication::processEvents();

        ClusterHeatMap *heat = view->heatMap();
        QCOMPARE(heat->rowCount(), 4);
        QCOMPARE(heat->columnCount(), 2);
        for (int row = 0; row < 4; ++row)
            for (int column = 0; column < 2; ++column)
                QCOMPARE(*heat->value(row, column),
                         static_cast<double>((row == kHotRank ? 3 : 1) * kTokens * kCallsPerStep));
        QVERIFY(heat->showsCellValues());
        QVERIFY(!heat->cellText(kHotRank, 0).isEmpty());
        QCOMPARE(heat->maximum(), 6144.0);
        QVERIFY(heat->isVisible());
        // The hot rank's cell is the brightest (the ramp's top).
        QCOMPARE(heat->cellColor(kHotRank, 1), ClusterHeatMap::rampColor(1.0));
        QCOMPARE(heat->rowLabelText(kHotRank), QStringLiteral("2"));

        QTableWidget *spread = view->spreadTable();
        QVERIFY(spread->isVisible());
        QCOMPARE(spread->rowCount(), 2);
        // "2 (6,144)", "2（6,144）" in Chinese: the most loaded rank first.
        const QString mostLoaded = spread->item(0, 2)->text();
        QVERIFY2(mostLoaded.startsWith(QString::number(kHotRank)) && !mostLoaded.at(1).isDigit(),
                 qPrintable(mostLoaded));
        QSignalSpy opened(page, &ClusterView::ranksOpenRequested);
        Q_EMIT spread->cellActivated(1, 0);
        QCOMPARE(opened.size(), 1);
        QCOMPARE(opened.front().at(0).value<QList<int>>(), (QList<int>{kHotRank, 0}));
        QCOMPARE(opened.front().at(1).toString(),
                 QStringLiteral("aclnnGroupedMatmulV4_GroupedMatmul_GroupedMatmul"));

        // Nothing cut: the tab shows the summary and the map's first cells at this size.
        QVERIFY(view->summaryLabel()->isVisible());
        QVERIFY(view->height() > 0 && view->width() > 0);
        const QRect cell = heat->cellRect(3, 1);
        QVERIFY(heat->rect().contains(cell));

        // The finding on the Findings tab: double-click opens the named ranks at the op.
        QListWidget *list = page->findings();
        QListWidgetItem *moeItem = nullptr;
        for (int i = 0; i < list->count() && !moeItem; ++i)
            if (list->item(i)->text().contains(QStringLiteral("rank 2: 6,144 tokens")) ||
                list->item(i)->text().contains(QStringLiteral("rank 2: 6144 tokens")))
                moeItem = list->item(i);
        if (language == QLatin1String("en")) {
            QVERIFY(moeItem);
            opened.clear();
            Q_EMIT list->itemActivated(moeItem);
            QCOMPARE(opened.size(), 1);
            QCOMPARE(opened.front().at(0).value<QList<int>>(), (QList<int>{kHotRank, 0}));
        }
    }

    // The finding's occurrence on the cluster page opens ranks 2 and 0 on one timeline with the grouped
    // matmul selected (a kernel on the device streams: no communication lane has it).
    void findingOpensRanksAtTheOp()
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QVERIFY(openOnOverview(window, m_root));
        window.showClusterPage();
        QVERIFY(window.showsCluster());
        QListWidget *list = window.clusterView()->findings();
        QListWidgetItem *moeItem = nullptr;
        for (int i = 0; i < list->count() && !moeItem; ++i)
            if (list->item(i)->text().contains(QStringLiteral("rank 2: 6144 tokens")))
                moeItem = list->item(i);
        QVERIFY(moeItem);
        QSignalSpy finished(&window, &MainWindow::loadFinished);
        Q_EMIT list->itemActivated(moeItem);
        QVERIFY(finished.wait(60000));
        QVERIFY(finished.first().first().toBool());
        QCOMPARE(window.model()->groups().size(), std::size_t(2));
        const SliceRef selected = window.timeline()->selectedSlice();
        QVERIFY(selected.isValid());
        QCOMPARE(window.model()->sliceName(selected),
                 QStringLiteral("aclnnGroupedMatmulV4_GroupedMatmul_GroupedMatmul"));
    }

    void emptyTabSaysWhy()
    {
        MainWindow window;
        window.resize(900, 700);
        window.show();
        window.openPath(qwen3Cluster());
        window.showClusterPage();
        QVERIFY(window.showsCluster());
        MoeLoadView *view = window.clusterView()->moeLoadView();
        QVERIFY(!view->load().available());
        QVERIFY2(view->summaryLabel()->text().contains(QStringLiteral("no expert-parallel group")),
                 qPrintable(view->summaryLabel()->text()));
        QVERIFY(!view->heatMap()->isVisibleTo(view));
        QVERIFY(!view->spreadTable()->isVisibleTo(view));
    }
};

QTEST_MAIN(TstMoeLoad)
#include "tst_moe_load.moc"
