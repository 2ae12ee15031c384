// Memory (issue 19) on the real samples: every curve's peak equals the maximum of its CSV column and the
// live allocations at the overall peak equal what this test computes itself from the CSV text; a warm
// reopen from the snapshot cache gives the same profile; `--memory --json` prints the same numbers.

#include "MemoryAnalysis.h"
#include "TestPaths.h"
#include "TestSupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <QRegularExpression>
#include <algorithm>
#include <map>
#include <optional>
#include <set>

using namespace at;

namespace {

// The CSV read independently of the parser: plain split (the memory files have no quoted commas).
struct Csv
{
    QStringList header;
    std::vector<QStringList> rows;
    int column(const char *name) const { return static_cast<int>(header.indexOf(QLatin1String(name))); }
};

Csv readCsv(const QString &path)
{
    Csv csv;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return csv;
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (int i = 0; i < lines.size(); ++i) {
        QStringList cells = lines[i].split(QLatin1Char(','));
        for (QString &c : cells)
            c = c.trimmed(); // the TAB after times, the CR
        if (i == 0)
            csv.header = cells;
        else
            csv.rows.push_back(cells);
    }
    return csv;
}

// "1736408883694624.810\t" -> ns, by text.
qint64 microsText(const QString &text)
{
    const QStringList parts = text.split(QLatin1Char('.'));
    const QString fraction = (parts.value(1) + QStringLiteral("000")).left(3);
    return parts[0].toLongLong() * 1000 + fraction.toLongLong();
}

QString outputFolder(const QString &rank)
{
    return test::samplePath(rank) + QStringLiteral("/ASCEND_PROFILER_OUTPUT");
}

// (component, device text) -> column maximum and the first time (ns) it is reached.
struct ColumnPeak
{
    double max = -1;
    qint64 time = 0;
};
std::map<std::pair<QString, QString>, ColumnPeak> columnPeaks(const Csv &csv, const char *column)
{
    std::map<std::pair<QString, QString>, ColumnPeak> peaks;
    const int value = csv.column(column), component = csv.column("Component"),
              time = csv.column("Timestamp(us)");
    int device = csv.column("Device Type");
    if (device < 0)
        device = csv.column("Device");
    for (const QStringList &row : csv.rows) {
        if (row.value(value).isEmpty())
            continue;
        const double v = row[value].toDouble();
        const qint64 t = microsText(row[time]);
        ColumnPeak &p = peaks[{row[component], row[device]}];
        if (v > p.max || (v == p.max && t < p.time))
            p = ColumnPeak{v, t};
    }
    return peaks;
}

struct Live
{
    QString name;
    QString sizeKb;
    qint64 allocation;
    auto key() const { return std::make_tuple(-sizeKb.toDouble(), allocation, name); }
    bool operator<(const Live &o) const { return key() < o.key(); }
};

std::vector<Live> liveAt(const Csv &ops, const QString &device, qint64 t)
{
    std::vector<Live> live;
    const int name = ops.column("Name"), size = ops.column("Size(KB)"),
              alloc = ops.column("Allocation Time(us)"), release = ops.column("Release Time(us)"),
              dev = ops.column("Device Type");
    for (const QStringList &row : ops.rows) {
        if (row[size].toDouble() <= 0 || row[alloc].isEmpty() || row[dev] != device)
            continue;
        const qint64 a = microsText(row[alloc]);
        if (a <= t && (row[release].isEmpty() || microsText(row[release]) > t))
            live.push_back({row[name], row[size], a});
    }
    std::sort(live.begin(), live.end());
    return live;
}

QString deviceText(std::int64_t device)
{
    return QStringLiteral("NPU:%1").arg(device);
}

// A step window of the PTA+GE Allocated column, from the CSV text: the value holding at begin (the last
// row at or before it), then every row in (begin, end]; the peak is the first maximum of those.
struct CsvStepCurve
{
    std::size_t points = 0;
    double peakMb = -1;
    qint64 peakTime = 0; // absolute ns
    qint64 first = -1;   // the first point, ns from begin
};
CsvStepCurve csvStepCurve(const Csv &csv, const QString &device, qint64 begin, qint64 end)
{
    const int value = csv.column("Total Allocated(MB)"), component = csv.column("Component"),
              time = csv.column("Timestamp(us)"), dev = csv.column("Device Type");
    std::vector<std::pair<qint64, double>> rows;
    for (const QStringList &row : csv.rows)
        if (row[component] == QLatin1String("PTA+GE") && row[dev] == device && !row[value].isEmpty())
            rows.emplace_back(microsText(row[time]), row[value].toDouble());
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto &x, const auto &y) { return x.first < y.first; });
    CsvStepCurve out;
    const auto add = [&](qint64 t, double mb) {
        if (out.points == 0)
            out.first = t - begin;
        ++out.points;
        if (mb > out.peakMb) {
            out.peakMb = mb;
            out.peakTime = t;
        }
    };
    std::optional<double> holding;
    for (const auto &[t, mb] : rows)
        if (t <= begin)
            holding = mb;
    if (holding)
        add(begin, *holding);
    for (const auto &[t, mb] : rows)
        if (t > begin && t <= end)
            add(t, mb);
    return out;
}

} // namespace

class TestMemorySamples : public QObject
{
    Q_OBJECT

private slots:
    void peaksAndLiveAtPeak_data()
    {
        QTest::addColumn<QString>("rank");
        const char *ranks[] = {"msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt",
                               "msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank1_ascend_pt",
                               "msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2/rank_0_ascend_pt",
                               "msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2/rank_2_ascend_pt"};
        for (const char *rank : ranks)
            QTest::newRow(rank) << QString::fromLatin1(rank);
    }
    void peaksAndLiveAtPeak()
    {
        QFETCH(QString, rank);
        const auto model = test::loadOrFail(test::samplePath(rank));
        QVERIFY(model);
        const MemoryProfile &profile = model->memory();
        QVERIFY(!profile.curves.empty());
        QVERIFY(!profile.allocations.empty());
        const Csv records = readCsv(outputFolder(rank) + QStringLiteral("/memory_record.csv"));
        const Csv modules = readCsv(outputFolder(rank) + QStringLiteral("/npu_module_mem.csv"));
        const Csv ops = readCsv(outputFolder(rank) + QStringLiteral("/operator_memory.csv"));
        QCOMPARE(profile.allocations.size(), ops.rows.size());

        // Every curve's peaks are the maxima of its columns, first reached at the same time.
        std::size_t checked = 0;
        for (const auto &[csv, kind] : {std::pair{&records, MemoryCurveKind::Component},
                                        std::pair{&modules, MemoryCurveKind::Module}}) {
            for (const auto &[column, metric] : {std::pair{"Total Allocated(MB)", MemoryMetric::Allocated},
                                                 std::pair{"Total Reserved(MB)", MemoryMetric::Reserved},
                                                 std::pair{"Total Active(MB)", MemoryMetric::Active}}) {
                if (csv->column(column) < 0)
                    continue;
                const auto peaks = columnPeaks(*csv, column);
                for (const MemoryCurve &c : profile.curves) {
                    if (c.kind != kind)
                        continue;
                    const auto it = peaks.find({c.component, deviceText(c.device)});
                    const auto peak = peakOf(c, metric);
                    // Module files write -1 for "only releases seen": not a value.
                    const bool expected = it != peaks.end() && it->second.max >= 0;
                    QCOMPARE(bool(peak), expected);
                    if (!peak)
                        continue;
                    QCOMPARE(bytesAsMegabytes(peak->bytes).toDouble(), it->second.max);
                    QCOMPARE(model->origin() + peak->time, it->second.time);
                    ++checked;
                }
                QVERIFY(checked > 0);
            }
        }

        // What is live at the overall (PTA+GE allocated) peak, computed here from the CSV text.
        const std::vector<DeviceMemory> devices = deviceMemory(profile);
        QCOMPARE(devices.size(), std::size_t(1));
        const DeviceMemory &d = devices.front();
        QCOMPARE(profile.curves[static_cast<std::size_t>(d.overall)].component, QStringLiteral("PTA+GE"));
        const ColumnPeak overall =
            columnPeaks(records, "Total Allocated(MB)")[{QStringLiteral("PTA+GE"), deviceText(d.device)}];
        QCOMPARE(model->origin() + d.overallPeak->time, overall.time);
        const std::vector<Live> expected = liveAt(ops, deviceText(d.device), overall.time);
        QVERIFY(!expected.empty());
        std::vector<Live> actual;
        for (std::size_t i : d.liveAtPeak) {
            const MemoryAllocation &a = profile.allocations[i];
            actual.push_back({model->strings().qstring(a.name), bytesAsKilobytes(a.bytes),
                              model->origin() + a.allocation});
        }
        QVERIFY(std::is_sorted(actual.begin(), actual.end(), [](const Live &x, const Live &y) {
            return x.sizeKb.toDouble() > y.sizeKb.toDouble();
        }));
        std::sort(actual.begin(), actual.end());
        QCOMPARE(actual.size(), expected.size());
        for (std::size_t i = 0; i < actual.size(); ++i) {
            QCOMPARE(actual[i].name, expected[i].name);
            QCOMPARE(actual[i].sizeKb.toDouble(), expected[i].sizeKb.toDouble());
            QCOMPARE(actual[i].allocation, expected[i].allocation);
        }
    }

    void databasePeaksAndLiveAtPeak()
    {
        // The torch_npu database of the alexnet run: bytes and ns as stored, checked with SQL here.
        const QString path = test::level1Rank0Database();
        const auto model = test::loadOrFail(path);
        QVERIFY(model);
        const MemoryProfile &profile = model->memory();
        {
            QSqlDatabase db =
                QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("memory-check"));
            // immutable: a read-only open of a WAL database still creates -wal/-shm beside it (in the
            // sample folder); the test must not write there either.
            db.setDatabaseName(QStringLiteral("file:%1?immutable=1").arg(path));
            db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_OPEN_URI"));
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(
                QStringLiteral("SELECT s.value, MAX(totalAllocated), MAX(totalReserved) FROM MEMORY_RECORD m "
                               "JOIN STRING_IDS s ON s.id = m.component GROUP BY s.value")));
            int components = 0;
            while (q.next()) {
                const QString name = q.value(0).toString();
                const auto it =
                    std::find_if(profile.curves.begin(), profile.curves.end(), [&](const MemoryCurve &c) {
                        return c.kind == MemoryCurveKind::Component && c.component == name;
                    });
                QVERIFY2(it != profile.curves.end(), qPrintable(name));
                QCOMPARE(peakOf(*it, MemoryMetric::Allocated)->bytes, q.value(1).toLongLong());
                QCOMPARE(peakOf(*it, MemoryMetric::Reserved)->bytes, q.value(2).toLongLong());
                ++components;
            }
            QCOMPARE(components, 3); // PTA, GE, PTA+GE
            QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*), SUM(releaseTime IS NULL) FROM OP_MEMORY")) &&
                    q.next());
            QCOMPARE(profile.allocations.size(),
                     std::size_t(q.value(0).toLongLong())); // 184 (FORMATS.md §9.5)
            const auto unreleased = std::count_if(profile.allocations.begin(), profile.allocations.end(),
                                                  [](const MemoryAllocation &a) { return !a.released(); });
            QCOMPARE(qint64(unreleased), q.value(1).toLongLong()); // 24

            const std::vector<DeviceMemory> devices = deviceMemory(profile);
            QCOMPARE(devices.size(), std::size_t(1));
            const DeviceMemory &d = devices.front();
            QVERIFY(d.overallPeak);
            const qint64 t = model->origin() + d.overallPeak->time;
            QVERIFY(q.exec(QStringLiteral(
                        "SELECT MIN(m.timestamp) FROM MEMORY_RECORD m JOIN STRING_IDS s ON s.id = "
                        "m.component WHERE s.value = 'PTA+GE' AND m.totalAllocated = (SELECT "
                        "MAX(totalAllocated) FROM MEMORY_RECORD WHERE component = m.component)")) &&
                    q.next());
            QCOMPARE(t, q.value(0).toLongLong());
            QVERIFY(
                q.exec(QStringLiteral("SELECT COUNT(*), MAX(size) FROM OP_MEMORY WHERE size > 0 AND "
                                      "allocationTime <= %1 AND (releaseTime IS NULL OR releaseTime = 0 OR "
                                      "releaseTime > %1)")
                           .arg(t)) &&
                q.next());
            QCOMPARE(qint64(d.liveAtPeak.size()), q.value(0).toLongLong());
            QCOMPARE(profile.allocations[d.liveAtPeak.front()].bytes, q.value(1).toLongLong());
        }
        QSqlDatabase::removeDatabase(QStringLiteral("memory-check"));
    }

    void warmReopenGivesTheSameProfile()
    {
        QTemporaryDir cache;
        qputenv("XDG_CACHE_HOME", QFile::encodeName(cache.path()));
        const QString folder = test::samplePath(
            QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt"));
        LoadOptions options;
        options.useSnapshotCache = true;
        LoadControl c1, c2;
        const LoadResult cold = loadTrace(folder, options, c1);
        const LoadResult warm = loadTrace(folder, options, c2);
        qunsetenv("XDG_CACHE_HOME");
        QVERIFY(cold.model && warm.model);
        QVERIFY(!cold.fromSnapshot);
        QVERIFY(warm.fromSnapshot);
        const MemoryProfile &a = cold.model->memory(), &b = warm.model->memory();
        QCOMPARE(b.curves.size(), a.curves.size());
        for (std::size_t i = 0; i < a.curves.size(); ++i) {
            const MemoryCurve &x = a.curves[i], &y = b.curves[i];
            QVERIFY(x.group == y.group && x.device == y.device && x.component == y.component &&
                    x.kind == y.kind);
            QVERIFY(x.times == y.times && x.allocated == y.allocated && x.reserved == y.reserved &&
                    x.active == y.active);
        }
        QCOMPARE(b.allocations.size(), a.allocations.size());
        for (std::size_t i = 0; i < a.allocations.size(); ++i) {
            const MemoryAllocation &x = a.allocations[i], &y = b.allocations[i];
            QCOMPARE(warm.model->strings().qstring(y.name), cold.model->strings().qstring(x.name));
            QVERIFY(x.bytes == y.bytes && x.allocation == y.allocation && x.release == y.release &&
                    x.activeRelease == y.activeRelease && x.releaseAllocated == y.releaseAllocated &&
                    x.allocationReserved == y.allocationReserved && x.device == y.device);
        }
        QCOMPARE(warm.model->counters().size(), cold.model->counters().size());
    }

    // Issue 19: two steps compared (two ranks loaded as two runs): the points overlaid and the peak
    // difference equal what this test computes from the two memory_record.csv; --compare-steps prints it.
    void stepMemoryComparison_data()
    {
        QTest::addColumn<QString>("base");
        QTest::addColumn<QString>("comparison");
        QTest::newRow("alexnet level1 rank0 vs rank1")
            << QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt")
            << QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank1_ascend_pt");
        QTest::newRow("qwen3 rank 0 vs rank 2")
            << QStringLiteral("msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2/rank_0_ascend_pt")
            << QStringLiteral("msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2/rank_2_ascend_pt");
    }
    void stepMemoryComparison()
    {
        QFETCH(QString, base);
        QFETCH(QString, comparison);
        const auto baseModel = test::loadOrFail(test::samplePath(base));
        const auto otherModel = test::loadOrFail(test::samplePath(comparison));
        QVERIFY(baseModel && otherModel);
        // The Qwen3 ranks have no step markers: their middle thirds stand in for two steps (and the
        // command line, which needs steps, is not run on them).
        const auto middleThird = [](const TraceModel &model) {
            Step s;
            const TimeNs third = (model.dataEnd() - model.dataBegin()) / 3;
            s.hostBegin = s.deviceBegin = model.dataBegin() + third;
            s.hostEnd = s.deviceEnd = model.dataBegin() + 2 * third;
            return s;
        };
        const bool realSteps = !baseModel->steps().empty() && !otherModel->steps().empty();
        const Step a = realSteps ? baseModel->steps().front() : middleThird(*baseModel);
        const Step b = realSteps ? otherModel->steps().back() : middleThird(*otherModel);
        const StepMemoryComparison m = compareStepMemory(baseModel->memory(), a, otherModel->memory(), b);
        const CsvStepCurve expected[2] = {
            csvStepCurve(
                readCsv(outputFolder(base) + QStringLiteral("/memory_record.csv")),
                deviceText(baseModel->memory().curves[std::size_t(std::max(0, m.base.curve))].device),
                baseModel->origin() + a.begin(), baseModel->origin() + a.end()),
            csvStepCurve(
                readCsv(outputFolder(comparison) + QStringLiteral("/memory_record.csv")),
                deviceText(otherModel->memory().curves[std::size_t(std::max(0, m.comparison.curve))].device),
                otherModel->origin() + b.begin(), otherModel->origin() + b.end())};
        const StepMemorySide *sides[2] = {&m.base, &m.comparison};
        const TraceModel *models[2] = {baseModel.get(), otherModel.get()};
        const Step *steps[2] = {&a, &b};
        for (int i = 0; i < 2; ++i) {
            const StepMemorySide &side = *sides[i];
            QVERIFY(side.curve >= 0);
            QCOMPARE(models[i]->memory().curves[std::size_t(side.curve)].component, QStringLiteral("PTA+GE"));
            QVERIFY(expected[i].points > 1);
            QCOMPARE(side.points.size(), expected[i].points);
            QVERIFY(side.step);
            QCOMPARE(bytesAsMegabytes(side.step->peakBytes).toDouble(), expected[i].peakMb);
            QCOMPARE(models[i]->origin() + steps[i]->begin() + side.step->peakTime, expected[i].peakTime);
            QCOMPARE(side.points.front().time, expected[i].first);
        }
        QVERIFY(m.peakDiffBytes());
        QCOMPARE(bytesAsMegabytes(*m.peakDiffBytes()).toDouble(), expected[1].peakMb - expected[0].peakMb);

        if (!realSteps)
            return;
        QProcess process;
        process.start(at::test::appBinary(),
                      {QStringLiteral("--compare-steps"),
                       QStringLiteral("%1:%2,%3:%4").arg(a.group).arg(a.number).arg(b.group).arg(b.number),
                       test::samplePath(base), QStringLiteral("--against"), test::samplePath(comparison)});
        QVERIFY(process.waitForFinished(120000));
        const QString out = QString::fromUtf8(process.readAllStandardOutput());
        QCOMPARE(process.exitCode(), 0);
        const QRegularExpression line(QStringLiteral(
            R"(Memory peak \(PTA\+GE allocated\): ([0-9.]+) MB at \+[0-9.]+ us -> ([0-9.]+) MB at \+[0-9.]+ us \(diff ([-+][0-9.]+) MB\))"));
        const QRegularExpressionMatch match = line.match(out);
        QVERIFY2(match.hasMatch(), qPrintable(out));
        QCOMPARE(match.captured(1).toDouble(), expected[0].peakMb);
        QCOMPARE(match.captured(2).toDouble(), expected[1].peakMb);
        QCOMPARE(match.captured(3).toDouble(), expected[1].peakMb - expected[0].peakMb);
    }

    void memoryCommandJson()
    {
        const QString rank =
            QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt");
        QProcess process;
        process.start(at::test::appBinary(),
                      {QStringLiteral("--memory"), QStringLiteral("--json"), test::samplePath(rank)});
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitCode(), 0);
        const QByteArray text = process.readAllStandardOutput();
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        const QJsonArray devices = doc.object().value(QStringLiteral("devices")).toArray();
        QCOMPARE(devices.size(), 1);
        const QJsonObject device = devices[0].toObject();
        QCOMPARE(device.value(QStringLiteral("device")).toInt(), 0);

        const Csv records = readCsv(outputFolder(rank) + QStringLiteral("/memory_record.csv"));
        const auto allocated = columnPeaks(records, "Total Allocated(MB)");
        const auto reserved = columnPeaks(records, "Total Reserved(MB)");
        QSet<QString> names;
        for (const QJsonValue &v : device.value(QStringLiteral("components")).toArray()) {
            const QJsonObject c = v.toObject();
            const QString name = c.value(QStringLiteral("name")).toString();
            names.insert(name);
            const auto key = std::make_pair(name, QStringLiteral("NPU:0"));
            if (!reserved.count(key))
                continue; // a module of npu_module_mem.csv
            QCOMPARE(c.value(QStringLiteral("peak_reserved_mb")).toDouble(), reserved.at(key).max);
            if (allocated.count(key)) {
                QCOMPARE(c.value(QStringLiteral("peak_allocated_mb")).toDouble(), allocated.at(key).max);
                // Exact µs: the text of the time, not a double rounded to 16 digits.
                QString micros = QStringLiteral("%1.%2")
                                     .arg(allocated.at(key).time / 1000)
                                     .arg(allocated.at(key).time % 1000, 3, 10, QLatin1Char('0'));
                while (micros.endsWith(QLatin1Char('0')))
                    micros.chop(1);
                if (micros.endsWith(QLatin1Char('.')))
                    micros.chop(1);
                QVERIFY2(text.contains((QStringLiteral("\"peak_time_us\": ") + micros).toUtf8()),
                         text.constData());
            } else {
                QVERIFY(c.value(QStringLiteral("peak_allocated_mb")).isNull()); // APP: Reserved only
            }
        }
        for (const char *expected : {"PTA", "GE", "PTA+GE", "APP"})
            QVERIFY2(names.contains(QLatin1String(expected)), expected);

        const ColumnPeak overall = allocated.at({QStringLiteral("PTA+GE"), QStringLiteral("NPU:0")});
        const Csv ops = readCsv(outputFolder(rank) + QStringLiteral("/operator_memory.csv"));
        const std::vector<Live> expected = liveAt(ops, QStringLiteral("NPU:0"), overall.time);
        const QJsonArray live = device.value(QStringLiteral("live_at_peak")).toArray();
        QCOMPARE(std::size_t(live.size()), expected.size());
        double previous = 1e300;
        for (const QJsonValue &v : live) {
            const double size = v.toObject().value(QStringLiteral("size_kb")).toDouble();
            QVERIFY(size <= previous); // largest first
            previous = size;
        }
        QCOMPARE(live[0].toObject().value(QStringLiteral("size_kb")).toDouble(),
                 expected.front().sizeKb.toDouble());
    }
};

QTEST_GUILESS_MAIN(TestMemorySamples)
#include "tst_memory_samples.moc"
