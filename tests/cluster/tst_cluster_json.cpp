// Strict JSON whatever was read (issue #29 item 2) and the one ns → µs text (core/ExactText.h): the writer
// (core/JsonWriter.h) on non-finite doubles, the slow-link median near DBL_MAX, and `--cluster --json` /
// `--advise --json` on copies of the real Qwen3 cluster whose communication files and prepared summary were
// edited to hold "nan", "inf" and 1e308 MB moved in a nanosecond.
#include "AppProcess.h"
#include "ClusterTestSupport.h"

#include "ExactText.h"
#include "JsonWriter.h"
#include "MemoryAnalysis.h"
#include "cluster/ClusterAnalysis.h"
#include "cluster/ClusterReader.h"
#include "cluster/JsonTree.h"
#include "cluster/PreparedSummary.h"

#include <QCryptographicHash>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>

using namespace at;
using namespace at::cluster;
using namespace at::test;

namespace {

QJsonObject readObject(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

bool writeObject(const QString &path, const QJsonObject &object)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           f.write(QJsonDocument(object).toJson(QJsonDocument::Compact)) > 0;
}

// RFC 8259: QJsonDocument rejects NaN/Infinity tokens; a bare nan/inf value would also fail the parse, but
// check the text too so a quoted-number trick cannot hide one.
void verifyStrictJson(const QByteArray &text)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    QVERIFY(doc.isObject());
    static const QRegularExpression nonFinite(
        QStringLiteral(R"([:\[,]\s*-?(nan|inf|NaN|Infinity|infinity)\b)"));
    const auto match = nonFinite.match(QString::fromUtf8(text));
    QVERIFY2(!match.hasMatch(), qPrintable(match.captured(0)));
}

MatrixLink totalLink(int src, int dst, double sizeMb, TimeNs time)
{
    MatrixLink l;
    l.step = 1;
    l.opKey = QStringLiteral("allreduce-total");
    l.group = QStringLiteral("g");
    l.src = l.srcLocal = src;
    l.dst = l.dstLocal = dst;
    l.transport = QStringLiteral("HCCS");
    l.sizeMb = sizeMb;
    l.time = time;
    return l;
}

} // namespace

class TstClusterJson : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_root; // the edited copy of the Qwen3 cluster

    static at_test::AppRun run(const QStringList &args) { return at_test::runApp(args, 60000); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_root = m_dir.filePath(QStringLiteral("cluster"));
        QVERIFY(copyTree(qwen3Cluster(), m_root));
        const QString output = m_root + QStringLiteral("/rank_0_ascend_pt/ASCEND_PROFILER_OUTPUT/");

        // communication.json: a ratio given as the string "nan"; 1e308 MB moved in 1e-06 ms (valid JSON
        // numbers whose bandwidth is infinite), the stated bandwidth left out so it is computed.
        QJsonObject comm = readObject(output + QStringLiteral("communication.json"));
        QJsonObject step = comm[QStringLiteral("step13")].toObject();
        QJsonObject collective = step[QStringLiteral("collective")].toObject();
        QVERIFY(collective.size() >= 2);
        auto opAt = [&](int k) { return collective.begin() + k; };
        {
            QJsonObject op = opAt(0)->toObject();
            QJsonObject time = op[QStringLiteral("Communication Time Info")].toObject();
            time[QStringLiteral("Wait Time Ratio")] = QStringLiteral("nan");
            op[QStringLiteral("Communication Time Info")] = time;
            *opAt(0) = op;
        }
        {
            QJsonObject op = opAt(1)->toObject();
            QJsonObject bandwidth = op[QStringLiteral("Communication Bandwidth Info")].toObject();
            QJsonObject hccs = bandwidth[QStringLiteral("HCCS")].toObject();
            hccs[QStringLiteral("Transit Size(MB)")] = 1e308;
            hccs[QStringLiteral("Transit Time(ms)")] = 1e-06;
            hccs.remove(QStringLiteral("Bandwidth(GB/s)"));
            hccs[QStringLiteral("Large Packet Ratio")] = QStringLiteral("-inf");
            bandwidth[QStringLiteral("HCCS")] = hccs;
            op[QStringLiteral("Communication Bandwidth Info")] = bandwidth;
            *opAt(1) = op;
        }
        step[QStringLiteral("collective")] = collective;
        comm[QStringLiteral("step13")] = step;
        QVERIFY(writeObject(output + QStringLiteral("communication.json"), comm));

        // communication_matrix.json: every link between two ranks moves 1.7e308 MB (their sums and median
        // overflow) and one states its bandwidth as "inf".
        QJsonObject matrix = readObject(output + QStringLiteral("communication_matrix.json"));
        QJsonObject mstep = matrix[QStringLiteral("step13")].toObject();
        bool stated = false;
        for (auto kind = mstep.begin(); kind != mstep.end(); ++kind) {
            QJsonObject ops = kind->toObject();
            for (auto op = ops.begin(); op != ops.end(); ++op) {
                QJsonObject links = op->toObject();
                for (auto link = links.begin(); link != links.end(); ++link) {
                    const QStringList ends = link.key().split(QLatin1Char('-'));
                    if (ends.size() != 2 || ends[0] == ends[1])
                        continue;
                    QJsonObject info = link->toObject();
                    info[QStringLiteral("Transit Size(MB)")] = 1.7e308;
                    info[QStringLiteral("Transit Time(ms)")] = 1.0;
                    if (!stated)
                        info[QStringLiteral("Bandwidth(GB/s)")] = QStringLiteral("inf");
                    stated = true;
                    *link = info;
                }
                *op = links;
            }
            *kind = ops;
        }
        QVERIFY(stated);
        matrix[QStringLiteral("step13")] = mstep;
        QVERIFY(writeObject(output + QStringLiteral("communication_matrix.json"), matrix));
    }

    // The one ns → µs text on edge values: 0, sub-µs, negative, the int64 extremes, an epoch time; both the
    // trimmed form (--cluster, --memory) and three decimals (--advise, the profiler's timestamps), and the
    // older names forward to it.
    void microsTextEdges()
    {
        constexpr TimeNs kMax = std::numeric_limits<TimeNs>::max();
        constexpr TimeNs kMin = std::numeric_limits<TimeNs>::min();
        const struct
        {
            TimeNs ns;
            const char *trimmed, *three;
        } cases[] = {{0, "0", "0.000"},
                     {1, "0.001", "0.001"},
                     {-1, "-0.001", "-0.001"},
                     {500, "0.5", "0.500"},
                     {-500, "-0.5", "-0.500"},
                     {999, "0.999", "0.999"},
                     {1000, "1", "1.000"},
                     {-1500, "-1.5", "-1.500"},
                     {231290100, "231290.1", "231290.100"},
                     {1736408883573957920, "1736408883573957.92", "1736408883573957.920"},
                     {kMax, "9223372036854775.807", "9223372036854775.807"},
                     {kMin, "-9223372036854775.808", "-9223372036854775.808"},
                     {kMin + 192, "-9223372036854775.616", "-9223372036854775.616"}};
        for (const auto &c : cases) {
            QCOMPARE(microsText(c.ns), QString::fromLatin1(c.trimmed));
            QCOMPARE(microsText(c.ns, MicrosDecimals::Three), QString::fromLatin1(c.three));
            QCOMPARE(nanosAsMicros(c.ns), QString::fromLatin1(c.trimmed));
            QCOMPARE(formatAbsoluteMicros(c.ns), QString::fromLatin1(c.three));
        }
    }

    // Non-finite doubles become null and are named; everything else is written as before.
    void writerNamesNonFiniteValues()
    {
        JsonWriter j;
        j.beginObject();
        j.numberField(QStringLiteral("wait_ratio"), std::nan(""));
        j.numberField(QStringLiteral("bandwidth_gbps"), std::numeric_limits<double>::infinity());
        j.numberField(QStringLiteral("low"), -std::numeric_limits<double>::infinity());
        j.numberField(QStringLiteral("size_mb"), 1e308);
        j.microsField(QStringLiteral("time_us"), std::numeric_limits<TimeNs>::min());
        j.integersField(QStringLiteral("ranks"), {0, 3});
        j.field(QStringLiteral("name"), QStringLiteral("a\"b\n"));
        j.endObject();
        QCOMPARE(j.text(), QStringLiteral("{\"wait_ratio\":null,\"bandwidth_gbps\":null,\"low\":null,"
                                          "\"size_mb\":1e+308,\"time_us\":-9223372036854775.808,"
                                          "\"ranks\":[0,3],\"name\":\"a\\\"b\\n\"}"));
        verifyStrictJson(j.text().toUtf8());
        QCOMPARE(j.problems().size(), 3);
        QVERIFY2(j.problems()[0].contains(QStringLiteral("wait_ratio is nan")), qPrintable(j.problems()[0]));
        QVERIFY(j.problems()[1].contains(QStringLiteral("bandwidth_gbps is inf")));
        QVERIFY(j.problems()[2].contains(QStringLiteral("low is -inf")));
    }

    // The member stream under the cluster readers (JsonTree.h streamJsonMembers) skips strings and values 16
    // bytes at a time: keys and values holding escaped quotes, backslashes and brackets, shifted through
    // every offset of two 16-byte blocks and written compact and indented, read as QJsonDocument reads them;
    // a text cut inside a string with an escaped quote is refused.
    void memberStreamAtEveryOffset()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("members.json"));
        const QString tricky = QStringLiteral("a\"}]\\\"[{,: \\");
        for (int shift = 0; shift < 34; ++shift) {
            for (const auto format : {QJsonDocument::Compact, QJsonDocument::Indented}) {
                const QString pad(shift, QLatin1Char('p'));
                QJsonObject inner;
                for (int m = 0; m < 3; ++m)
                    inner[pad + tricky + QString::number(m)] = QJsonObject{
                        {QStringLiteral("s"), tricky + pad},
                        {QStringLiteral("arr"), QJsonArray{QStringLiteral("]"), tricky,
                                                           QJsonObject{{QStringLiteral("k"), pad + tricky}},
                                                           QJsonArray{1.5, QStringLiteral("}")}}},
                        {QStringLiteral("n"), m}};
                const QJsonObject document{{tricky + pad, inner}, {QStringLiteral("x"), QJsonObject{}}};
                QFile f(path);
                QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
                f.write(QJsonDocument(document).toJson(format));
                f.close();
                int visited = 0;
                QString error;
                const bool ok = streamJsonMembers(
                    path, 2,
                    [&](const std::vector<std::string> &keys, const JsonNode &value) {
                        ++visited;
                        const QString outer = QString::fromStdString(keys[0]);
                        const QString key = QString::fromStdString(keys[1]);
                        const QJsonObject want = document[outer].toObject()[key].toObject();
                        if (want.isEmpty() || value["s"].string() != want[QStringLiteral("s")].toString() ||
                            value["arr"].items.size() != 4 ||
                            value["arr"].items[0].string() != QStringLiteral("]") ||
                            value["arr"].items[1].string() != tricky ||
                            value["arr"].items[2]["k"].string() != pad + tricky ||
                            value["arr"].items[3].items.size() != 2 ||
                            value["n"].toInt() != want[QStringLiteral("n")].toInt())
                            error = QStringLiteral("shift %1: member %2 of %3 read wrong")
                                        .arg(shift)
                                        .arg(key, outer);
                        return true;
                    },
                    &error);
                QVERIFY2(ok && error.isEmpty(), qPrintable(error));
                QCOMPARE(visited, 3);
            }
        }
        // Cut inside a string right after an escaped quote: not valid JSON, whatever the offset.
        for (int shift = 0; shift < 34; ++shift) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write("{\"" + QByteArray(shift, 'p') + "\": {\"k\": \"x\\\"" + QByteArray(40, 'y'));
            f.close();
            QString error;
            QVERIFY(!streamJsonMembers(
                path, 2, [](const std::vector<std::string> &, const JsonNode &) { return true; }, &error));
            QVERIFY2(error.contains(QStringLiteral("not valid JSON")), qPrintable(error));
        }
    }

    // Strings are quoted byte for byte as QJsonDocument writes them (the writer skips the document for the
    // strings that need no escape, issue 29 item 7): every UTF-16 code unit between two letters, surrogate
    // pairs, and lone surrogates at either end.
    void quotedAsQJsonDocumentWritesIt()
    {
        auto byQt = [](const QString &s) {
            const QByteArray doc = QJsonDocument(QJsonArray{s}).toJson(QJsonDocument::Compact);
            return QString::fromUtf8(doc.mid(1, doc.size() - 2));
        };
        QStringList samples{QString(),
                            QStringLiteral("rank_0_ascend_pt"),
                            QStringLiteral("\U0001F600 ok"),
                            QString(QChar(0xD83D)),
                            QString(QChar(0xDE00)) + QStringLiteral("x"),
                            QStringLiteral("a") + QChar(0xD83D),
                            QStringLiteral("\u4E2D\u6587/\"q\"\\")};
        for (char16_t u = 0;; ++u) {
            samples << QStringLiteral("a") + QChar(u) + QStringLiteral("b");
            if (u == 0xFFFF)
                break;
        }
        for (const QString &s : samples) {
            QCOMPARE(JsonWriter::quoted(s), byQt(s));
            JsonWriter j;
            j.string(s);
            QCOMPARE(j.text(), byQt(s));
        }
    }

    // Two links near DBL_MAX: their median is finite (halved before the sum) and is what the slow links are
    // judged against; a link whose bandwidth is infinite (1e308 MB in a nanosecond) is not judged.
    void slowLinkMedianDoesNotOverflow()
    {
        ClusterModel model;
        for (int id = 0; id < 8; ++id) {
            Rank r;
            r.rank = id;
            RankStep s;
            s.step = 1;
            s.computing = 1000;
            r.steps.push_back(s);
            model.ranks.push_back(r);
        }
        std::vector<MatrixLink> &links = model.ranks[0].links;
        // GB/s = MB / ms: one ms each, so the sizes are the bandwidths.
        for (const auto &[src, size] : std::vector<std::pair<int, double>>{
                 {0, 1.0}, {1, 2.0}, {2, 1.6e308}, {3, 1.65e308}, {4, 1.7e308}, {5, 1.75e308}})
            links.push_back(totalLink(src, src + 1, size, 1000000));
        links.push_back(totalLink(7, 0, 1e308, 1)); // 1e308 MB in a nanosecond: infinite
        const std::vector<SlowLink> slow = findSlowLinks(model);
        QCOMPARE(slow.size(), std::size_t(2));
        for (const SlowLink &l : slow) {
            QVERIFY(std::isfinite(l.medianGbps));
            QVERIFY(std::isfinite(l.bandwidthGbps));
            QVERIFY2(qFuzzyCompare(l.medianGbps, 1.625e308), qPrintable(QString::number(l.medianGbps)));
            QVERIFY(l.src == 0 || l.src == 1);
        }
    }

    // The edited files: the reader names each non-finite value it left out; --cluster --json is strict
    // JSON and names the bandwidths that overflowed; the text and --advise show no inf either.
    void editedQwen3IsStrictJson()
    {
        const ClusterModel model = readCluster(m_root);
        QCOMPARE(model.ranks.size(), std::size_t(4));
        const QString warnings = model.warnings.join(QLatin1Char('\n'));
        QVERIFY2(warnings.contains(QStringLiteral("communication.json: Wait Time Ratio is \"nan\"")),
                 qPrintable(warnings));
        QVERIFY2(warnings.contains(QStringLiteral("communication.json: Large Packet Ratio is \"-inf\"")),
                 qPrintable(warnings));
        QVERIFY2(warnings.contains(QStringLiteral("communication_matrix.json: Bandwidth(GB/s) is \"inf\"")),
                 qPrintable(warnings));
        for (const Rank &r : model.ranks)
            for (const CommOp &op : r.ops) {
                QVERIFY(std::isfinite(op.waitRatio));
                for (const TransportBandwidth &b : op.bandwidth)
                    QVERIFY(std::isfinite(b.largePacketRatio));
            }
        for (const SlowLink &l : findSlowLinks(model))
            QVERIFY(std::isfinite(l.medianGbps) && std::isfinite(l.bandwidthGbps));

        const at_test::AppRun json = run({QStringLiteral("--cluster"), m_root, QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 0);
        verifyStrictJson(json.out);
        QVERIFY2(
            json.err.contains(QStringLiteral("bandwidth_gbps is inf, not a finite number; written as null")),
            qPrintable(json.err));
        QVERIFY(json.err.contains(QStringLiteral("Wait Time Ratio is \"nan\"")));

        const at_test::AppRun text = run({QStringLiteral("--cluster"), m_root});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(!text.out.contains("inf GB/s"));
        QVERIFY(!text.out.contains("median inf"));
        QVERIFY(!text.out.contains("nan"));

        const at_test::AppRun advise = run({QStringLiteral("--advise"), m_root, QStringLiteral("--json")});
        QCOMPARE(advise.exitCode, 0);
        verifyStrictJson(advise.out);
    }

    // A prepared summary (`--prepare`) edited to hold "nan": the value is left out with a warning naming
    // the summary, and the output stays strict JSON.
    void preparedSummaryHoldingNan()
    {
        const QString cache = m_dir.filePath(QStringLiteral("prepared"));
        QVERIFY(QDir().mkpath(cache));
        const QString folder = m_root + QStringLiteral("/rank_1_ascend_pt");
        QString reason;
        QVERIFY2(writePreparedSummary(readRankSummary(folder), cache, {}, &reason), qPrintable(reason));
        const QString path = preparedSummaryPath(folder, cache);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(file.readAll());
        file.close();
        static const QRegularExpression ratio(QStringLiteral("\"wait_ratio\":[-0-9.eE+]+"));
        QVERIFY(text.contains(ratio));
        text.replace(ratio, QStringLiteral("\"wait_ratio\":\"nan\""));
        // Signed again (`{"format":N,"sha256":"<hex>","body":BODY}`): an unsigned edit is refused whole.
        const QByteArray edited = text.toUtf8();
        const qsizetype bodyAt = edited.indexOf(",\"body\":") + 8;
        const QByteArray body = edited.mid(bodyAt, edited.size() - bodyAt - 1);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write("{\"format\":" + QByteArray::number(kPreparedSummaryFormat) + ",\"sha256\":\"" +
                   QCryptographicHash::hash(body, QCryptographicHash::Sha256).toHex() +
                   "\",\"body\":" + body + "}");
        file.close();

        const ClusterModel model = readCluster(m_root, {cache});
        const Rank *rank = model.rank(1);
        QVERIFY(rank);
        QCOMPARE(rank->preparedSummary, path);
        for (const CommOp &op : rank->ops)
            QVERIFY(std::isfinite(op.waitRatio));
        const QString warnings = model.warnings.join(QLatin1Char('\n'));
        QVERIFY2(warnings.contains(path + QStringLiteral(": wait_ratio is \"nan\"")), qPrintable(warnings));

        const at_test::AppRun json = run({QStringLiteral("--cluster"), m_root, QStringLiteral("--json"),
                                          QStringLiteral("--cache"), cache});
        QCOMPARE(json.exitCode, 0);
        verifyStrictJson(json.out);
        QVERIFY(json.out.contains(
            QStringLiteral("\"prepared_summary\":%1").arg(JsonWriter::quoted(path)).toUtf8()));
    }
};

QTEST_GUILESS_MAIN(TstClusterJson)
#include "tst_cluster_json.moc"
