// The per-op communication table (core/cluster/CommunicationOps.h, docs/CLUSTER.md): the rows and op
// summaries against the Qwen3 sample's communication.json files read here on their own and against a
// synthetic cluster with exact values; the `--cluster --json` "communication_ops" array; the cluster page's
// Communication Ops tab through the real MainWindow (rows, numeric sort, filters, the size detail, a row
// opening its rank).
#include "AppProcess.h"
#include "AppTestSupport.h"
#include "ClusterTestSupport.h"
#include "CommandLine.h"
#include "FindingJson.h"
#include "InsightsPanel.h"
#include "MessageBar.h"
#include "NumberFormat.h"
#include "TableExport.h"
#include "Theme.h"
#include "TimelineView.h"
#include "Translations.h"
#include "cluster/ClusterReader.h"
#include "cluster/ClusterView.h"
#include "cluster/CommunicationOps.h"
#include "cluster/CommunicationTable.h"
#include "common/MappedFile.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDirIterator>
#include <QDockWidget>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLocale>
#include <QMutex>
#include <QScrollBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace at;
using namespace at::cluster;
using namespace at::test;

namespace {

TimeNs msNs(const QJsonValue &v)
{
    return std::llround(v.toDouble() * 1e6);
}

// One op of a rank's communication.json, read here without the reader.
struct ExpectedOp
{
    int rank = -1;
    std::int64_t step = kNoStep;
    QString name, group;
    bool p2p = false, total = false;
    TimeNs elapse = 0, transit = 0, wait = 0, synchronization = 0, idle = 0;
    double waitRatio = 0, synchronizationRatio = 0;
    std::map<QString, std::pair<double, double>> transports; // moved something: size MB, GB/s
    std::map<QString, TimeNs> transportTimes;
    std::map<double, std::pair<std::int64_t, TimeNs>> sizes; // merged over HCCS, PCIE, SIO, RDMA
};

int rankOfFolder(const QString &folder)
{
    const QStringList infos =
        QDir(folder).entryList({QStringLiteral("profiler_info_*.json")}, QDir::Files, QDir::Name);
    if (infos.isEmpty())
        return -1;
    return infos.first().mid(14).chopped(5).toInt();
}

std::vector<ExpectedOp> expectedOps(const QString &root)
{
    std::vector<ExpectedOp> ops;
    QDirIterator files(root, {QStringLiteral("communication.json")}, QDir::Files,
                       QDirIterator::Subdirectories);
    while (files.hasNext()) {
        const QString path = files.next();
        const int rank = rankOfFolder(QFileInfo(path).absolutePath() + QStringLiteral("/.."));
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QJsonObject doc = QJsonDocument::fromJson(file.readAll()).object();
        for (auto step = doc.begin(); step != doc.end(); ++step) {
            const QString stepKey = step.key();
            const std::int64_t stepNumber =
                stepKey == QLatin1String("step") ? kNoStep : stepKey.mid(4).toLongLong();
            const QJsonObject kinds = step.value().toObject();
            for (auto kind = kinds.begin(); kind != kinds.end(); ++kind) {
                const QJsonObject entries = kind.value().toObject();
                for (auto entry = entries.begin(); entry != entries.end(); ++entry) {
                    ExpectedOp op;
                    op.rank = rank;
                    op.step = stepNumber;
                    op.p2p = kind.key() == QLatin1String("p2p");
                    const qsizetype at = entry.key().lastIndexOf(QLatin1Char('@'));
                    op.name = at < 0 ? entry.key() : entry.key().left(at);
                    op.group = at < 0 ? QString() : entry.key().mid(at + 1);
                    op.total = op.name == QLatin1String("Total Op Info");
                    const QJsonObject time =
                        entry.value()[QStringLiteral("Communication Time Info")].toObject();
                    op.elapse = msNs(time[QStringLiteral("Elapse Time(ms)")]);
                    op.transit = msNs(time[QStringLiteral("Transit Time(ms)")]);
                    op.wait = msNs(time[QStringLiteral("Wait Time(ms)")]);
                    op.synchronization = msNs(time[QStringLiteral("Synchronization Time(ms)")]);
                    op.idle = msNs(time[QStringLiteral("Idle Time(ms)")]);
                    op.waitRatio = time[QStringLiteral("Wait Time Ratio")].toDouble();
                    op.synchronizationRatio = time[QStringLiteral("Synchronization Time Ratio")].toDouble();
                    const QJsonObject bandwidth =
                        entry.value()[QStringLiteral("Communication Bandwidth Info")].toObject();
                    for (auto b = bandwidth.begin(); b != bandwidth.end(); ++b) {
                        const QJsonObject t = b.value().toObject();
                        const double size = t[QStringLiteral("Transit Size(MB)")].toDouble();
                        const TimeNs ns = msNs(t[QStringLiteral("Transit Time(ms)")]);
                        if (size > 0 || ns > 0) {
                            const QJsonValue stated = t[QStringLiteral("Bandwidth(GB/s)")];
                            op.transports[b.key()] = {size, stated.isDouble()
                                                                ? stated.toDouble()
                                                                : size / (static_cast<double>(ns) / 1e6)};
                            op.transportTimes[b.key()] = ns;
                        }
                        if (b.key() == QLatin1String("SDMA"))
                            continue;
                        const QJsonObject dist = t[QStringLiteral("Size Distribution")].toObject();
                        for (auto d = dist.begin(); d != dist.end(); ++d) {
                            auto &[count, bucketTime] = op.sizes[d.key().toDouble()];
                            count += d.value().toArray()[0].toInteger();
                            bucketTime += msNs(d.value().toArray()[1]);
                        }
                    }
                    ops.push_back(op);
                }
            }
        }
    }
    return ops;
}

// Group hash → pg name from every rank's profiler_metadata.json.
std::map<QString, QString> expectedGroupNames(const QString &root)
{
    std::map<QString, QString> names;
    QDirIterator files(root, {QStringLiteral("profiler_metadata.json")}, QDir::Files,
                       QDirIterator::Subdirectories);
    while (files.hasNext()) {
        QFile file(files.next());
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QJsonObject info = QJsonDocument::fromJson(file.readAll())
                                     .object()[QStringLiteral("parallel_group_info")]
                                     .toObject();
        for (auto g = info.begin(); g != info.end(); ++g)
            names[doubleHash(g.key())] = g.value()[QStringLiteral("group_name")].toString();
    }
    return names;
}

const CommOpRow *findRow(const std::vector<CommOpRow> &rows, const ExpectedOp &op)
{
    for (const CommOpRow &r : rows)
        if (r.rank == op.rank && r.step == op.step && r.op == op.name && r.groupHash == op.group &&
            r.p2p == op.p2p)
            return &r;
    return nullptr;
}

std::size_t transportIndex(const QString &name)
{
    for (std::size_t t = 0; t < kCommTransportCount; ++t)
        if (name == QLatin1String(kCommTransports[t]))
            return t;
    return kCommTransportCount;
}

// A 2-rank cluster with exact values: step 1 an allreduce on both ranks (HCCS and PCIE packets of equal
// sizes merge; SDMA's distribution is left out), a send on rank 0 and each rank's Total Op Info (torch_npu's,
// without Bandwidth(GB/s)); step 2 the next allreduce. The allreduce's group is group_name_7, a "dp" group.
QString groupHashOfSmallCluster()
{
    return doubleHash(QStringLiteral("group_name_7"));
}

void writeSmallCluster(const QString &root)
{
    const QString dp = groupHashOfSmallCluster();
    for (int r = 0; r < 2; ++r) {
        const QString dir = QStringLiteral("%1/rank%2_ascend_pt").arg(root).arg(r);
        writeTextFile(dir + QStringLiteral("/profiler_info_%1.json").arg(r), "{}");
        writeTextFile(dir + QStringLiteral("/profiler_metadata.json"),
                      QStringLiteral("{\"parallel_group_info\": {\"group_name_7\": {\"group_name\": \"dp\", "
                                     "\"group_rank\": %1, \"global_ranks\": [0, 1]}}}")
                          .arg(r)
                          .toUtf8());
        auto op = [](const QString &start, const QString &elapse, const QString &wait,
                     const char *bandwidth) {
            return QStringLiteral(
                       "{\"Communication Time Info\": {\"Start Timestamp(us)\": %1, \"Elapse Time(ms)\": %2, "
                       "\"Transit Time(ms)\": 1, \"Wait Time(ms)\": %3, \"Synchronization Time(ms)\": 0.25, "
                       "\"Idle Time(ms)\": 0.5, \"Wait Time Ratio\": 0.4286, \"Synchronization Time Ratio\": "
                       "0.2}, \"Communication Bandwidth Info\": %4}")
                .arg(start, elapse, wait, QString::fromLatin1(bandwidth));
        };
        const char *allreduceBandwidth =
            "{\"RDMA\": {\"Transit Size(MB)\": 0, \"Transit Time(ms)\": 0, \"Bandwidth(GB/s)\": 0, \"Large "
            "Packet "
            "Ratio\": 0, \"Size Distribution\": {}}, \"HCCS\": {\"Transit Size(MB)\": 10, \"Transit "
            "Time(ms)\": 1, "
            "\"Bandwidth(GB/s)\": 10, \"Large Packet Ratio\": 0, \"Size Distribution\": {\"1\": [5, 0.5], "
            "\"2.5\": "
            "[2, 0.25]}}, \"PCIE\": {\"Transit Size(MB)\": 2, \"Transit Time(ms)\": 0.5, "
            "\"Bandwidth(GB/s)\": 4, "
            "\"Large Packet Ratio\": 0, \"Size Distribution\": {\"1\": [1, 0.125]}}, \"SDMA\": {\"Transit "
            "Size(MB)\": 12, \"Transit Time(ms)\": 1.5, \"Bandwidth(GB/s)\": 8, \"Large Packet Ratio\": 0, "
            "\"Size "
            "Distribution\": {\"1\": [100, 9]}}}";
        const char *totalBandwidth =
            "{\"HCCS\": {\"Transit Size(MB)\": 10, \"Transit Time(ms)\": 2, \"Size Distribution\": {}}}";
        QString step1 =
            QStringLiteral("\"collective\": {\"hcom_allReduce__1_0_1@%1\": %2, \"Total Op Info\": %3}")
                .arg(dp,
                     op(r == 0 ? QStringLiteral("1000.5") : QStringLiteral("1000.25"),
                        r == 0 ? QStringLiteral("2.5") : QStringLiteral("3.000001"),
                        r == 0 ? QStringLiteral("0.75") : QStringLiteral("1.5"), allreduceBandwidth),
                     op(QStringLiteral("0"), QStringLiteral("9"), QStringLiteral("2"), totalBandwidth));
        if (r == 0)
            step1 += QStringLiteral(", \"p2p\": {\"hcom_send__2_0_1@999\": %1}")
                         .arg(op(QStringLiteral("1001"), QStringLiteral("0.125"), QStringLiteral("0"), "{}"));
        const QString step2 = QStringLiteral("\"collective\": {\"hcom_allReduce__1_1_1@%1\": %2}")
                                  .arg(dp, op(QStringLiteral("5000"), QStringLiteral("4"),
                                              QStringLiteral("1"), allreduceBandwidth));
        writeTextFile(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/communication.json"),
                      QStringLiteral("{\"step1\": {%1}, \"step2\": {%2}}").arg(step1, step2).toUtf8());
        writeTextFile(
            dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/step_trace_time.csv"),
            "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
            "Communication(Not Overlapped and Exclude "
            "Receive),Preparing\n1,100,10,0,10,5,115,0,10,1\n2,100,10,0,10,5,"
            "115,0,10,1\n");
    }
}

QStringList columnTexts(const QTableView *table, int column)
{
    QStringList texts;
    for (int row = 0; row < table->model()->rowCount(); ++row)
        texts << table->model()->index(row, column).data().toString();
    return texts;
}

int headerColumn(const QAbstractItemModel *model, const QString &title)
{
    for (int c = 0; c < model->columnCount(); ++c)
        if (model->headerData(c, Qt::Horizontal).toString() == title)
            return c;
    return -1;
}

// With AT_TEST_SCREENSHOTS=DIR the tests save what they show, to look at (not compared).
void saveGrab(QWidget *widget, const QString &name)
{
    const QString dir = qEnvironmentVariable("AT_TEST_SCREENSHOTS");
    if (dir.isEmpty())
        return;
    QCoreApplication::processEvents();
    widget->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

// Prefixes the Communication Ops tab's texts: shows which texts a live language switch reached.
class MarkingTranslator : public QTranslator
{
public:
    QString translate(const char *context, const char *source, const char *, int) const override
    {
        if (!QLatin1String(context).startsWith(QLatin1String("at::CommunicationTable")))
            return {};
        return QStringLiteral("«") + QString::fromUtf8(source);
    }
    bool isEmpty() const override { return false; }
};

} // namespace

class TstClusterComm : public QObject
{
    Q_OBJECT
    QTemporaryDir m_settings;

private Q_SLOTS:
    void initTestCase() { useScratchSettings(m_settings.path()); }

    // Every op of every Qwen3 rank, one row each, with the values communication.json states.
    void qwen3RowsMatchTheFiles()
    {
        const ClusterModel model = readCluster(qwen3Cluster());
        const std::vector<ExpectedOp> expected = expectedOps(qwen3Cluster());
        const std::map<QString, QString> groupNames = expectedGroupNames(qwen3Cluster());
        const std::vector<CommOpRow> rows = communicationOps(model);
        std::size_t ops = 0, totals = 0;
        std::set<int> ranks;
        for (const ExpectedOp &op : expected) {
            (op.total ? totals : ops) += 1;
            ranks.insert(op.rank);
        }
        QCOMPARE(ranks, (std::set<int>{0, 1, 2, 3}));
        QVERIFY(ops > 50);
        QCOMPARE(rows.size(), ops);
        for (const ExpectedOp &op : expected) {
            if (op.total)
                continue;
            const CommOpRow *row = findRow(rows, op);
            QVERIFY2(row, qPrintable(op.name));
            QCOMPARE(row->elapse, op.elapse);
            QCOMPARE(row->transit, op.transit);
            QCOMPARE(row->wait, op.wait);
            QCOMPARE(row->synchronization, op.synchronization);
            QCOMPARE(row->idle, op.idle);
            QCOMPARE(row->waitRatio, op.waitRatio);
            QCOMPARE(row->synchronizationRatio, op.synchronizationRatio);
            const auto name = groupNames.find(op.group);
            QCOMPARE(row->groupName, name != groupNames.end() ? name->second : op.group);
            for (std::size_t t = 0; t < kCommTransportCount; ++t) {
                const auto it = op.transports.find(QLatin1String(kCommTransports[t]));
                QCOMPARE(row->transports[t].has_value(), it != op.transports.end());
                if (!row->transports[t])
                    continue;
                QCOMPARE(row->transports[t]->sizeMb, it->second.first);
                QCOMPARE(row->transports[t]->bandwidthGbps, it->second.second);
                QCOMPARE(row->transports[t]->time, op.transportTimes.at(it->first));
            }
            QCOMPARE(row->sizes.size(), op.sizes.size());
            std::size_t i = 0;
            for (const auto &[size, bucket] : op.sizes) {
                QCOMPARE(row->sizes[i].sizeMb, size);
                QCOMPARE(row->sizes[i].count, bucket.first);
                QCOMPARE(row->sizes[i].time, bucket.second);
                ++i;
            }
        }
        // The sample's HCCS reduceScatter on rank 0 moves 440 MB in 4 packets of two sizes.
        const auto hccs = transportIndex(QStringLiteral("HCCS"));
        QVERIFY(std::any_of(rows.begin(), rows.end(), [&](const CommOpRow &r) {
            return r.rank == 0 && r.transports[hccs] && r.sizes.size() == 2;
        }));
        // Ordered by step, then op instance (its rows together, by their earliest start), then rank.
        std::set<std::tuple<QString, QString, bool>> seen;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const auto key = std::make_tuple(rows[i].op, rows[i].groupHash, rows[i].p2p);
            const bool continues =
                i > 0 && std::make_tuple(rows[i - 1].op, rows[i - 1].groupHash, rows[i - 1].p2p) == key;
            if (continues)
                QVERIFY(rows[i - 1].rank < rows[i].rank);
            else
                QVERIFY2(seen.insert(key).second, qPrintable(rows[i].op)); // an instance's rows are together
        }
        // With the totals: one per rank, step and kind more, listed last.
        CommOpFilter withTotals;
        withTotals.includeTotals = true;
        const std::vector<CommOpRow> all = communicationOps(model, withTotals);
        QCOMPARE(all.size(), ops + totals);
        QVERIFY(all.back().total);
        for (std::size_t i = 0; i < ops; ++i)
            QVERIFY(!all[i].total);
    }

    void qwen3Filters()
    {
        const ClusterModel model = readCluster(qwen3Cluster());
        const std::vector<ExpectedOp> expected = expectedOps(qwen3Cluster());
        const std::map<QString, QString> groupNames = expectedGroupNames(qwen3Cluster());
        QString ppHash;
        for (const auto &[hash, name] : groupNames)
            if (name == QLatin1String("pp"))
                ppHash = hash;
        QVERIFY(!ppHash.isEmpty());
        CommOpFilter pp;
        pp.group = ppHash;
        const std::size_t ppOps = std::count_if(expected.begin(), expected.end(),
                                                [&](const ExpectedOp &op) { return op.group == ppHash; });
        QVERIFY(ppOps > 0);
        const std::vector<CommOpRow> ppRows = communicationOps(model, pp);
        QCOMPARE(ppRows.size(), ppOps);
        for (const CommOpRow &r : ppRows)
            QCOMPARE(r.groupName, QStringLiteral("pp"));
        CommOpFilter step13;
        step13.step = 13;
        QCOMPARE(communicationOps(model, step13).size(), communicationOps(model).size());
        step13.step = 14;
        QVERIFY(communicationOps(model, step13).empty());
        CommOpFilter one;
        one.op = ppRows.front().op;
        const std::vector<CommOpRow> oneRows = communicationOps(model, one);
        QCOMPARE(oneRows.size(),
                 std::size_t(std::count_if(expected.begin(), expected.end(),
                                           [&](const ExpectedOp &op) { return op.name == one.op; })));

        // Summary of one op instance across its ranks, from the files.
        const CommOpSummary s = summarizeOp(communicationOps(model), oneRows.front());
        int slowest = -1, fastest = -1, waits = -1;
        TimeNs slow = 0, fast = 0, wait = 0;
        int n = 0;
        for (const ExpectedOp &op : expected) {
            if (op.name != oneRows.front().op || op.group != oneRows.front().groupHash)
                continue;
            ++n;
            if (slowest < 0 || op.elapse > slow || (op.elapse == slow && op.rank < slowest))
                slowest = op.rank, slow = op.elapse;
            if (fastest < 0 || op.elapse < fast || (op.elapse == fast && op.rank < fastest))
                fastest = op.rank, fast = op.elapse;
            if (waits < 0 || op.wait > wait || (op.wait == wait && op.rank < waits))
                waits = op.rank, wait = op.wait;
        }
        QVERIFY(n >= 2);
        QCOMPARE(s.ranks, n);
        QCOMPARE(s.slowestRank, slowest);
        QCOMPARE(s.slowestElapse, slow);
        QCOMPARE(s.fastestRank, fastest);
        QCOMPARE(s.spread(), slow - fast);
        QCOMPARE(s.maxWaitRank, waits);
        QCOMPARE(s.maxWait, wait);
    }

    // Exact values written by the test: ns, merged packet buckets, group names, the totals' bandwidth
    // computed from size / time, the order and the filters.
    void smallClusterExactValues()
    {
        QTemporaryDir dir;
        writeSmallCluster(dir.path());
        const ClusterModel model = readCluster(dir.path());
        QCOMPARE(model.ranks.size(), std::size_t(2));
        const std::vector<CommOpRow> rows = communicationOps(model);
        QCOMPARE(rows.size(), std::size_t(5));
        QCOMPARE(rows[0].op, QStringLiteral("hcom_allReduce__1_0_1"));
        QCOMPARE(rows[0].rank, 0);
        QCOMPARE(rows[1].op, QStringLiteral("hcom_allReduce__1_0_1"));
        QCOMPARE(rows[1].rank, 1);
        QCOMPARE(rows[2].op, QStringLiteral("hcom_send__2_0_1"));
        QVERIFY(rows[2].p2p);
        QCOMPARE(rows[2].groupName, QStringLiteral("999")); // no parallel_group_info entry: the hash
        QCOMPARE(rows[3].step, std::int64_t(2));
        QCOMPARE(rows[4].step, std::int64_t(2));
        QCOMPARE(rows[0].groupName, QStringLiteral("dp"));
        QCOMPARE(rows[0].groupHash, groupHashOfSmallCluster());
        QCOMPARE(rows[0].elapse, TimeNs(2'500'000));
        QCOMPARE(rows[1].elapse, TimeNs(3'000'001));
        QCOMPARE(rows[1].wait, TimeNs(1'500'000));
        QCOMPARE(rows[1].synchronization, TimeNs(250'000));
        QCOMPARE(rows[1].idle, TimeNs(500'000));
        QCOMPARE(rows[1].waitRatio, 0.4286);
        QCOMPARE(rows[1].synchronizationRatio, 0.2);
        const std::size_t hccs = transportIndex(QStringLiteral("HCCS")),
                          pcie = transportIndex(QStringLiteral("PCIE")),
                          sdma = transportIndex(QStringLiteral("SDMA")),
                          rdma = transportIndex(QStringLiteral("RDMA"));
        QVERIFY(rows[0].transports[hccs] && rows[0].transports[pcie] && rows[0].transports[sdma]);
        QVERIFY(!rows[0].transports[rdma]); // all zero: absent
        QCOMPARE(rows[0].transports[hccs]->bandwidthGbps, 10.0);
        QCOMPARE(rows[0].transports[pcie]->sizeMb, 2.0);
        QCOMPARE(rows[0].transports[pcie]->time, TimeNs(500'000));
        QCOMPARE(rows[0].sizes.size(), std::size_t(2));
        QCOMPARE(rows[0].sizes[0].sizeMb, 1.0);
        QCOMPARE(rows[0].sizes[0].count, std::int64_t(6)); // 5 HCCS + 1 PCIE, not SDMA's 100
        QCOMPARE(rows[0].sizes[0].time, TimeNs(625'000));  // 0.5 + 0.125 ms
        QCOMPARE(rows[0].sizes[1].sizeMb, 2.5);
        QCOMPARE(rows[0].sizes[1].count, std::int64_t(2));
        QVERIFY(rows[2].sizes.empty());

        CommOpFilter step2;
        step2.step = 2;
        QCOMPARE(communicationOps(model, step2).size(), std::size_t(2));
        CommOpFilter group;
        group.group = groupHashOfSmallCluster();
        group.includeTotals = true; // a group filter leaves the totals (of every group) out
        QCOMPARE(communicationOps(model, group).size(), std::size_t(4));
        CommOpFilter totals;
        totals.includeTotals = true;
        const std::vector<CommOpRow> all = communicationOps(model, totals);
        QCOMPARE(all.size(), std::size_t(7));
        // Step 1's totals follow its ops, before step 2; torch_npu's totals have no GB/s: 10 MB / 2 ms.
        QVERIFY(all[3].total && all[4].total && all[3].step == 1);
        QCOMPARE(all[3].rank, 0);
        QCOMPARE(all[3].transports[hccs]->bandwidthGbps, 5.0);
        QCOMPARE(all[5].step, std::int64_t(2));

        const CommOpSummary s = summarizeOp(rows, rows[0]);
        QCOMPARE(s.ranks, 2);
        QCOMPARE(s.slowestRank, 1);
        QCOMPARE(s.fastestRank, 0);
        QCOMPARE(s.spread(), TimeNs(500'001));
        QCOMPARE(s.maxWaitRank, 1);
        QCOMPARE(s.maxWait, TimeNs(1'500'000));
    }

    // `--cluster --json`: "communication_ops" holds the same rows, µs as exact decimals.
    void cliJson()
    {
        QTemporaryDir dir;
        writeSmallCluster(dir.path());
        const at_test::AppRun r =
            at_test::runApp({QStringLiteral("--cluster"), dir.path(), QStringLiteral("--json")}, 60000);
        QCOMPARE(r.exitCode, 0);
        QJsonParseError error;
        const QJsonObject root = QJsonDocument::fromJson(r.out, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QVERIFY(root.contains(QStringLiteral("ranks")) && root.contains(QStringLiteral("waits")));
        const QJsonArray ops = root[QStringLiteral("communication_ops")].toArray();
        QCOMPARE(ops.size(), 5);
        const QJsonObject first = ops[1].toObject(); // rank 1's allreduce
        QCOMPARE(first[QStringLiteral("op")].toString(), QStringLiteral("hcom_allReduce__1_0_1"));
        QCOMPARE(first[QStringLiteral("step")].toInt(), 1);
        QCOMPARE(first[QStringLiteral("rank")].toInt(), 1);
        QCOMPARE(first[QStringLiteral("group")].toString(), groupHashOfSmallCluster());
        QCOMPARE(first[QStringLiteral("group_name")].toString(), QStringLiteral("dp"));
        QCOMPARE(first[QStringLiteral("p2p")].toBool(), false);
        QVERIFY(r.out.contains("\"elapse_us\":3000.001,"));
        QCOMPARE(first[QStringLiteral("wait_ratio")].toDouble(), 0.4286);
        const QJsonArray transports = first[QStringLiteral("transports")].toArray();
        QCOMPARE(transports.size(), 3); // HCCS, PCIE, SDMA; not the empty RDMA
        QCOMPARE(transports[0].toObject()[QStringLiteral("transport")].toString(), QStringLiteral("HCCS"));
        QCOMPARE(transports[1].toObject()[QStringLiteral("time_us")].toDouble(), 500.0);
        const QJsonArray sizes = first[QStringLiteral("sizes")].toArray();
        QCOMPARE(sizes.size(), 2);
        QCOMPARE(sizes[0].toObject()[QStringLiteral("count")].toInt(), 6);
        QVERIFY(r.out.contains("{\"size_mb\":1,\"count\":6,\"time_us\":625}"));
        QVERIFY(ops[2].toObject()[QStringLiteral("group_name")].isNull());
        QCOMPARE(ops[2].toObject()[QStringLiteral("p2p")].toBool(), true);

        // Qwen3: as many entries as the files' ops, each equal to the core row.
        const at_test::AppRun q =
            at_test::runApp({QStringLiteral("--cluster"), qwen3Cluster(), QStringLiteral("--json")}, 60000);
        QCOMPARE(q.exitCode, 0);
        const QJsonArray qops =
            QJsonDocument::fromJson(q.out).object()[QStringLiteral("communication_ops")].toArray();
        const std::vector<CommOpRow> rows = communicationOps(readCluster(qwen3Cluster()));
        QCOMPARE(qops.size(), static_cast<qsizetype>(rows.size()));
        for (qsizetype i = 0; i < qops.size(); ++i) {
            const QJsonObject o = qops[i].toObject();
            const CommOpRow &row = rows[static_cast<std::size_t>(i)];
            QCOMPARE(o[QStringLiteral("op")].toString(), row.op);
            QCOMPARE(o[QStringLiteral("rank")].toInt(), row.rank);
            QCOMPARE(std::llround(o[QStringLiteral("elapse_us")].toDouble() * 1000), row.elapse);
            QCOMPARE(std::llround(o[QStringLiteral("wait_us")].toDouble() * 1000), row.wait);
        }
        QVERIFY(q.out.contains("\"elapse_us\":26309.14,")); // rank 0's reduceScatter, 26.30914 ms
    }

    // `--cluster PATH` text: one line per op instance (slowest, fastest, spread, longest wait), and with
    // `--ops` every rank's row, each line built here from the Qwen3 communication.json files.
    void cliText()
    {
        const std::vector<ExpectedOp> expected = expectedOps(qwen3Cluster());
        const std::map<QString, QString> groupNames = expectedGroupNames(qwen3Cluster());
        const auto ms = [](TimeNs ns) { return QString::number(static_cast<double>(ns) / 1e6, 'f', 3); };
        const auto groupText = [&](const ExpectedOp &op) {
            const auto name = groupNames.find(op.group);
            return name != groupNames.end() ? name->second : op.group;
        };
        const auto stepText = [](std::int64_t step) {
            return step == kNoStep ? QStringLiteral("-") : QString::number(step);
        };
        const QString sep = QStringLiteral("  ");

        // The instances: same step, kind, name and group; ties go to the lower rank.
        struct Instance
        {
            const ExpectedOp *slowest = nullptr, *fastest = nullptr, *maxWait = nullptr;
            int ranks = 0;
        };
        std::map<std::tuple<std::int64_t, bool, QString, QString>, Instance> instances;
        QStringList rankLines;
        for (const ExpectedOp &op : expected) {
            if (op.total)
                continue;
            Instance &i = instances[{op.step, op.p2p, op.name, op.group}];
            const auto better = [&](const ExpectedOp *current, TimeNs mine, TimeNs theirs, bool larger) {
                return !current || (larger ? mine > theirs : mine < theirs) ||
                       (mine == theirs && op.rank < current->rank);
            };
            if (better(i.slowest, op.elapse, i.slowest ? i.slowest->elapse : 0, true))
                i.slowest = &op;
            if (better(i.fastest, op.elapse, i.fastest ? i.fastest->elapse : 0, false))
                i.fastest = &op;
            if (better(i.maxWait, op.wait, i.maxWait ? i.maxWait->wait : 0, true))
                i.maxWait = &op;
            ++i.ranks;
            rankLines << stepText(op.step) + sep + op.name + sep + groupText(op) + sep +
                             QString::number(op.rank) + sep + ms(op.elapse) + sep + ms(op.transit) + sep +
                             ms(op.wait) + sep + ms(op.synchronization) + sep + ms(op.idle) + sep +
                             QString::number(op.waitRatio, 'f', 4);
        }
        QStringList instanceLines;
        for (const auto &[key, i] : instances)
            instanceLines << stepText(i.slowest->step) + sep + i.slowest->name + sep + groupText(*i.slowest) +
                                 sep + QString::number(i.ranks) + sep + QString::number(i.slowest->rank) +
                                 sep + ms(i.slowest->elapse) + sep + QString::number(i.fastest->rank) + sep +
                                 ms(i.fastest->elapse) + sep + ms(i.slowest->elapse - i.fastest->elapse) +
                                 sep + QString::number(i.maxWait->rank) + sep + ms(i.maxWait->wait);
        QVERIFY(instanceLines.size() > 10);
        QVERIFY(instanceLines.size() < rankLines.size()); // ops on several ranks make one instance

        const QString instanceHeader = QStringLiteral("step  op  group  ranks  slowest rank  elapse  fastest "
                                                      "rank  elapse  spread  max wait rank  wait");
        const QString rankHeader =
            QStringLiteral("step  op  group  rank  elapse  transit  wait  synchronization  idle  wait ratio");
        // The lines after `header` up to the next line ending in ':' (the next section) or the end.
        const auto section = [](const QStringList &lines, const QString &header) {
            QStringList rows;
            const qsizetype at = lines.indexOf(header);
            for (qsizetype i = at < 0 ? lines.size() : at + 1; i < lines.size() && !lines[i].endsWith(u':');
                 ++i)
                rows << lines[i];
            return rows;
        };

        const at_test::AppRun plain = at_test::runApp({QStringLiteral("--cluster"), qwen3Cluster()}, 60000);
        QCOMPARE(plain.exitCode, 0);
        const QStringList plainLines = QString::fromUtf8(plain.out).split(u'\n', Qt::SkipEmptyParts);
        QStringList shown = section(plainLines, instanceHeader);
        QCOMPARE(shown.size(), instanceLines.size());
        for (const QString &line : instanceLines)
            QVERIFY2(shown.contains(line), qPrintable(line));
        QVERIFY(!plainLines.contains(rankHeader));

        const at_test::AppRun withOps =
            at_test::runApp({QStringLiteral("--cluster"), qwen3Cluster(), QStringLiteral("--ops")}, 60000);
        QCOMPARE(withOps.exitCode, 0);
        const QStringList opsLines = QString::fromUtf8(withOps.out).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(section(opsLines, instanceHeader), shown);
        shown = section(opsLines, rankHeader);
        QCOMPARE(shown.size(), rankLines.size());
        for (const QString &line : rankLines)
            QVERIFY2(shown.contains(line), qPrintable(line));
        // The per-rank rows keep the table's order: an instance's ranks together, by rank.
        const std::vector<CommOpRow> rows = communicationOps(readCluster(qwen3Cluster()));
        for (std::size_t i = 0; i < rows.size(); ++i)
            QVERIFY(shown[static_cast<qsizetype>(i)].startsWith(stepText(rows[i].step) + sep + rows[i].op +
                                                                sep + rows[i].groupName + sep +
                                                                QString::number(rows[i].rank) + sep));

        const at_test::AppRun misuse = at_test::runApp({QStringLiteral("--ops"), qwen3Cluster()}, 60000);
        QCOMPARE(misuse.exitCode, 2);
        QVERIFY(misuse.err.contains(QStringLiteral("--ops needs --cluster")));
    }

    // The cluster page's Communication Ops tab on the real sample: every op of every rank, sorted by value,
    // filtered, with the selected row's packet sizes.
    void qwen3Tab()
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        window.openPath(qwen3Cluster());
        QVERIFY(window.showsOverview()); // a cluster opens on its Overview
        window.showClusterPage();
        QVERIFY(window.showsCluster());
        ClusterView *view = window.clusterView();
        auto *tabs = view->findChild<QTabWidget *>();
        QVERIFY(tabs);
        const int tab = tabs->indexOf(view->communicationTable());
        QVERIFY(tab >= 0);
        QCOMPARE(tabs->tabText(tab), QStringLiteral("Communication Ops"));
        tabs->setCurrentIndex(tab);
        CommunicationTable *comm = view->communicationTable();
        QTableView *table = comm->table();
        std::size_t ops = 0;
        TimeNs longest = 0;
        for (const ExpectedOp &op : expectedOps(qwen3Cluster()))
            if (!op.total) {
                ++ops;
                longest = std::max(longest, op.elapse);
            }
        QCOMPARE(static_cast<std::size_t>(table->model()->rowCount()), ops);

        // Numeric sort: "9.5" must not come after "26.3" in descending order. The cells carry their unit
        // (one per column, issue 28); the header names the quantity.
        const int elapse = headerColumn(table->model(), QStringLiteral("Elapse"));
        QCOMPARE(elapse, int(CommunicationTableModel::Elapse));
        QVERIFY(headerColumn(table->model(), QStringLiteral("HCCS Bandwidth")) > elapse);
        QVERIFY(headerColumn(table->model(), QStringLiteral("HCCS Size")) > elapse);
        QCOMPARE(headerColumn(table->model(), QStringLiteral("RDMA Bandwidth")), -1); // nothing over RDMA
        table->horizontalHeader()->setSortIndicator(elapse, Qt::DescendingOrder);
        const QStringList sorted = columnTexts(table, elapse);
        QCOMPARE(sorted.first(), formatDurationNs(longest));
        const QString unit = sorted.first().section(QLatin1Char(' '), -1);
        bool wholeDigitsDiffer = false;
        for (qsizetype i = 1; i < sorted.size(); ++i) {
            QCOMPARE(sorted[i].section(QLatin1Char(' '), -1), unit); // one unit for the column
            const double before = QLocale().toDouble(sorted[i - 1].section(QLatin1Char(' '), 0, 0));
            const double after = QLocale().toDouble(sorted[i].section(QLatin1Char(' '), 0, 0));
            QVERIFY2(before >= after, qPrintable(sorted[i - 1] + QStringLiteral(" < ") + sorted[i]));
            wholeDigitsDiffer |=
                sorted[i - 1].indexOf(QLatin1Char('.')) != sorted[i].indexOf(QLatin1Char('.'));
        }
        QVERIFY(wholeDigitsDiffer); // text order would differ from the numeric one
        QCOMPARE(comm->rowAt(0)->elapse, longest);

        // Filters: the pp group, one op, the totals.
        const int pp = comm->groupChooser()->findText(QStringLiteral("pp"), Qt::MatchStartsWith);
        QVERIFY(pp > 0);
        comm->groupChooser()->setCurrentIndex(pp);
        const QString ppHash = comm->groupChooser()->currentData().toString();
        QVERIFY(table->model()->rowCount() > 0);
        for (int row = 0; row < table->model()->rowCount(); ++row) {
            QCOMPARE(comm->rowAt(row)->groupHash, ppHash);
            QCOMPARE(table->model()->index(row, CommunicationTableModel::Group).data().toString(),
                     QStringLiteral("pp"));
        }
        comm->groupChooser()->setCurrentIndex(0);
        QCOMPARE(comm->opChooser()->itemText(0), QStringLiteral("All ops"));
        comm->opChooser()->setCurrentIndex(1);
        const QString op = comm->opChooser()->currentText();
        QVERIFY(table->model()->rowCount() >= 1);
        for (int row = 0; row < table->model()->rowCount(); ++row)
            QCOMPARE(table->model()->index(row, CommunicationTableModel::Op).data().toString(), op);
        comm->opChooser()->setCurrentIndex(0);
        comm->totalsCheck()->setChecked(true);
        QCOMPARE(table->model()->rowCount(), static_cast<int>(expectedOps(qwen3Cluster()).size()));
        comm->totalsCheck()->setChecked(false);
        QCOMPARE(static_cast<std::size_t>(table->model()->rowCount()), ops);

        // The CSV export (the table's context menu) writes the rows as shown, in the sorted order.
        const QList<QByteArray> csv = modelToCsv(*table->model()).trimmed().split('\n');
        QCOMPARE(csv.size(), table->model()->rowCount() + 1);
        QVERIFY(csv.front().contains("Elapse (ms)"));
        // The CSV keeps the exact ms text; the table shows the same value in its column's unit.
        QVERIFY(csv[1].contains(table->model()->index(0, elapse).data(kExportTextRole).toString().toUtf8()));
        QVERIFY(table->model()->index(0, elapse).data().toString().endsWith(QLatin1String("s")));

        // The selected row's size distribution and its op across the ranks.
        table->setCurrentIndex(table->model()->index(0, 0));
        const CommOpRow *row = comm->rowAt(0);
        QCOMPARE(comm->sizesTable()->rowCount(), static_cast<int>(row->sizes.size()));
        QVERIFY(comm->sizesTable()->rowCount() > 0);
        QCOMPARE(comm->sizesTable()->item(0, 1)->text(),
                 formatCount(static_cast<qint64>(row->sizes.front().count)));
        QVERIFY2(comm->summaryLabel()->text().contains(QStringLiteral("slowest rank")),
                 qPrintable(comm->summaryLabel()->text()));
        saveGrab(&window, QStringLiteral("comm-qwen3-1600"));
    }

    // Filtering by step on the two-step cluster.
    void stepFilter()
    {
        QTemporaryDir dir;
        writeSmallCluster(dir.path());
        ClusterView view;
        view.setModel(std::make_shared<ClusterModel>(readCluster(dir.path())));
        CommunicationTable *comm = view.communicationTable();
        QCOMPARE(comm->table()->model()->rowCount(), 5);
        QCOMPARE(comm->stepChooser()->count(), 3); // all, 1, 2
        comm->stepChooser()->setCurrentIndex(comm->stepChooser()->findText(QStringLiteral("2")));
        QCOMPARE(comm->table()->model()->rowCount(), 2);
        for (int row = 0; row < 2; ++row)
            QCOMPARE(comm->table()->model()->index(row, CommunicationTableModel::Step).data().toString(),
                     QStringLiteral("2"));
        // The op list follows the step.
        QCOMPARE(comm->opChooser()->count(), 2);
        QCOMPARE(comm->opChooser()->itemText(1), QStringLiteral("hcom_allReduce__1_1_1"));
        comm->stepChooser()->setCurrentIndex(0);
        QCOMPARE(comm->table()->model()->rowCount(), 5);
        // Rebuilding the page (a theme or language change) keeps the filter.
        comm->stepChooser()->setCurrentIndex(comm->stepChooser()->findText(QStringLiteral("1")));
        QCOMPARE(comm->table()->model()->rowCount(), 3);
        view.setModel(std::make_shared<ClusterModel>(readCluster(dir.path())));
        QCOMPARE(comm->table()->model()->rowCount(), 3);
    }

    // The tab's texts follow a language switch at once (QEvent::LanguageChange), filters kept.
    void retranslatesLive()
    {
        QTemporaryDir dir;
        writeSmallCluster(dir.path());
        ClusterView view;
        view.setModel(std::make_shared<ClusterModel>(readCluster(dir.path())));
        CommunicationTable *comm = view.communicationTable();
        comm->stepChooser()->setCurrentIndex(2);
        QCOMPARE(comm->table()->model()->rowCount(), 2);
        MarkingTranslator marking;
        QVERIFY(QCoreApplication::installTranslator(&marking));
        QCoreApplication::processEvents();
        QCOMPARE(
            comm->table()->model()->headerData(CommunicationTableModel::Elapse, Qt::Horizontal).toString(),
            QStringLiteral("«Elapse"));
        QCOMPARE(comm->stepChooser()->itemText(0), QStringLiteral("«All steps"));
        QCOMPARE(comm->totalsCheck()->text(), QStringLiteral("«Include &Total Op Info"));
        QCOMPARE(comm->sizesTable()->horizontalHeaderItem(0)->text(), QStringLiteral("«Packet size"));
        QCOMPARE(comm->stepChooser()->currentIndex(), 2);
        QCOMPARE(comm->table()->model()->rowCount(), 2);
        QVERIFY(QCoreApplication::removeTranslator(&marking));
        QCoreApplication::processEvents();
        QCOMPARE(
            comm->table()->model()->headerData(CommunicationTableModel::Elapse, Qt::Horizontal).toString(),
            QStringLiteral("Elapse"));
    }

    // Enter (or a double-click) on a row opens its rank's timeline at the op, in this window.
    void activatingARowOpensTheRank()
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        window.openPath(qwen3Cluster());
        ClusterView *view = window.clusterView();
        view->findChild<QTabWidget *>()->setCurrentWidget(view->communicationTable());
        CommunicationTable *comm = view->communicationTable();
        QTableView *table = comm->table();
        QSignalSpy requested(view, &ClusterView::ranksOpenRequested);
        // A summary-only rank (1): asked for, but the window has no timeline to load and says so.
        int summaryOnly = -1, withTimeline = -1;
        for (int row = 0; row < table->model()->rowCount(); ++row) {
            if (comm->rowAt(row)->rank == 1 && summaryOnly < 0)
                summaryOnly = row;
            if (comm->rowAt(row)->rank == 0 && withTimeline < 0)
                withTimeline = row;
        }
        QVERIFY(summaryOnly >= 0 && withTimeline >= 0);
        const QRect cell = table->visualRect(table->model()->index(summaryOnly, CommunicationTableModel::Op));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(requested.size(), 1);
        QCOMPARE(requested.last().first().value<QList<int>>(), QList<int>{1});
        QVERIFY(!window.isLoading());
        QVERIFY(window.messageBar()->isVisible());

        const QString op = comm->rowAt(withTimeline)->op;
        table->setCurrentIndex(table->model()->index(withTimeline, CommunicationTableModel::Op));
        table->setFocus();
        QSignalSpy finished(&window, &MainWindow::loadFinished);
        QTest::keyClick(table, Qt::Key_Return);
        QCOMPARE(requested.size(), 2);
        QCOMPARE(requested.last().first().value<QList<int>>(), QList<int>{0});
        QCOMPARE(requested.last().at(1).toString(), op);
        QVERIFY(finished.wait(60000));
        QVERIFY(finished.first().first().toBool());
        QVERIFY(!window.showsCluster());
        QCOMPARE(window.model()->groups().size(), std::size_t(1));
        QVERIFY(window.model()->groups()[0].path.endsWith(QStringLiteral("rank_0_ascend_pt")));
        // The op is selected on the rank's communication lane.
        const SliceRef selected = window.timeline()->selectedSlice();
        QVERIFY(selected.isValid());
        QCOMPARE(window.model()->sliceName(selected), op);
    }

    // communicationDataFrom(): the cluster itself for its folder (canonical paths), one rank for a rank
    // folder with the findings readCluster(rank folder) gives, null for any other folder.
    void communicationDataFromTheClusterModel()
    {
        const auto cluster = std::make_shared<const ClusterModel>(readCluster(qwen3Cluster()));
        QCOMPARE(communicationDataFrom(cluster, qwen3Cluster() + QStringLiteral("/rank_0_ascend_pt/..")),
                 cluster);
        const TraceModel empty;
        for (const Rank &r : cluster->ranks) {
            const std::shared_ptr<const ClusterModel> one = communicationDataFrom(cluster, r.folder);
            QVERIFY(one);
            const ClusterModel direct = readCluster(r.folder);
            QCOMPARE(one->ranks.size(), std::size_t(1));
            QCOMPARE(direct.ranks.size(), std::size_t(1));
            QCOMPARE(one->ranks[0].rank, direct.ranks[0].rank);
            QCOMPARE(communicationOps(*one).size(), communicationOps(direct).size());
            QStringList oneGroups, directGroups;
            for (const ParallelGroup &g : one->groups)
                oneGroups << g.hash;
            for (const ParallelGroup &g : direct.groups)
                directGroups << g.hash;
            oneGroups.sort();
            directGroups.sort();
            QCOMPARE(oneGroups, directGroups);
            const InsightContext context(empty, &direct);
            QCOMPARE(findingsToJson(context, runInsightChecks(empty, nullptr, one.get())),
                     findingsToJson(context, runInsightChecks(empty, nullptr, &direct)));
        }
        QTemporaryDir other;
        QVERIFY(!communicationDataFrom(cluster, other.path()));
        QVERIFY(!communicationDataFrom(nullptr, qwen3Cluster()));
    }

    // A rank opened from the cluster page: the Insights panel takes the communication data from the page's
    // cluster model instead of reading the rank's communication.json again, with the same findings.
    void insightsReuseTheClusterPage()
    {
        QMutex lock;
        QStringList mapped; // the hook runs on the Insights worker too
        const auto record = [&](const QString &path) {
            const QMutexLocker locker(&lock);
            mapped << path;
        };
        const auto communicationFiles = [&] {
            const QMutexLocker locker(&lock);
            return mapped.filter(QStringLiteral("communication.json"));
        };
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        MappedFile::setMappedHookForTesting(record);
        window.openPath(qwen3Cluster());
        QVERIFY(window.showsOverview()); // a cluster opens on its Overview
        window.showClusterPage();
        QVERIFY(window.showsCluster());
        QCOMPARE(communicationFiles().size(), 4); // the page reads every rank once
        mapped.clear();

        ClusterView *view = window.clusterView();
        QSignalSpy finished(&window, &MainWindow::loadFinished);
        emit view->ranksOpenRequested(QList<int>{0}, QString());
        QVERIFY(finished.wait(60000));
        QVERIFY(finished.first().first().toBool());
        QVERIFY(!window.showsCluster());
        QDockWidget *dock = nullptr;
        for (QDockWidget *d : window.findChildren<QDockWidget *>())
            if (d->objectName() == QLatin1String("InsightsDock"))
                dock = d;
        QVERIFY(dock);
        if (!dock->isVisible())
            dock->toggleViewAction()->trigger();
        auto *panel = qobject_cast<InsightsPanel *>(dock->widget());
        QVERIFY(panel);
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isComputing(), 30000);
        QTRY_VERIFY(!panel->findings().empty());
        QVERIFY2(communicationFiles().isEmpty(), qPrintable(communicationFiles().join(u' ')));

        // The same checks over the data read from the rank folder as before (the hook sees that read).
        const TraceModel &model = *window.model();
        const std::shared_ptr<const ClusterModel> read = readCommunicationData(model);
        MappedFile::setMappedHookForTesting({});
        QVERIFY(read);
        QCOMPARE(communicationFiles().size(), 1);
        QVERIFY(communicationFiles().first().contains(QStringLiteral("rank_0_ascend_pt")));
        const InsightContext context(model, read.get());
        const std::vector<Finding> expected = runInsightChecks(model, nullptr, read.get());
        QCOMPARE(findingsToJson(context, panel->findings()), findingsToJson(context, expected));
        // The communication data matters to these findings: without it they differ.
        QVERIFY(findingsToJson(context, runInsightChecks(model, nullptr, nullptr)) !=
                findingsToJson(context, expected));
    }

    // Screenshots to look at (AT_TEST_SCREENSHOTS=DIR): both sizes, light and dark, English and Chinese.
    void screenshots()
    {
        if (qEnvironmentVariableIsEmpty("AT_TEST_SCREENSHOTS"))
            QSKIP("AT_TEST_SCREENSHOTS not set");
        for (const QString &language : {QStringLiteral("en"), QStringLiteral("zh_CN")})
            for (const UiTheme theme : {UiTheme::Light, UiTheme::Dark})
                for (const QSize size : {QSize(1600, 1000), QSize(900, 700)}) {
                    setUiLanguage(language);
                    applyUiTheme(theme);
                    MainWindow window;
                    window.resize(size);
                    window.show();
                    window.openPath(qwen3Cluster());
                    ClusterView *view = window.clusterView();
                    view->findChild<QTabWidget *>()->setCurrentWidget(view->communicationTable());
                    CommunicationTable *comm = view->communicationTable();
                    int row = 0; // the first row with packet sizes to show
                    while (row + 1 < comm->table()->model()->rowCount() && comm->rowAt(row)->sizes.empty())
                        ++row;
                    comm->table()->setCurrentIndex(comm->table()->model()->index(row, 0));
                    QTest::qWait(50);
                    saveGrab(&window, QStringLiteral("comm-%1-%2-%3x%4")
                                          .arg(language, uiThemeName(theme))
                                          .arg(size.width())
                                          .arg(size.height()));
                    // The transport columns, scrolled into view.
                    comm->table()->horizontalScrollBar()->setValue(
                        comm->table()->horizontalScrollBar()->maximum());
                    saveGrab(comm, QStringLiteral("comm-%1-%2-%3x%4-right")
                                       .arg(language, uiThemeName(theme))
                                       .arg(size.width())
                                       .arg(size.height()));
                }
        setUiLanguage(QStringLiteral("en"));
        applyUiTheme(UiTheme::Light);
    }
};

QTEST_MAIN(TstClusterComm)
#include "tst_cluster_comm.moc"
