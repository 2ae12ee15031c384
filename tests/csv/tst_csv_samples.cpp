// Real sample files from ../shared/samples (FORMATS.md §8.2). Expected numbers were computed independently
// with python3's csv module (csv.reader over the file opened with newline=''), e.g.
//   rows = list(csv.reader(open(path, newline='', encoding='utf-8')))
// and are hard-coded here; see the comment at each check.

#include "CsvTestUtil.h"
#include "csv/CsvColumns.h"
#include "csv/CsvMetrics.h"
#include "csv/CsvReader.h"
#include "csv/CsvValues.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QTest>

using at::CsvReader;
using at::CsvTable;
using csvtest::qba;
using csvtest::samplePath;
namespace col = at::csvcol;
namespace csv = at::csv;

namespace {

const char *kLevel1 = "msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt/"
                      "ASCEND_PROFILER_OUTPUT/";
const char *kLevel0 = "msinsight_alexnet_1step_levels/test/data/pytorch/text/level0/rank0_ascend_pt/"
                      "ASCEND_PROFILER_OUTPUT/";
const char *kOpSummary =
    "ascend_msprof_skill_cann8_sanitized/tests/fixtures/real_cann_minimal/reports/PROF_001/"
    "mindstudio_profiler_output/op_summary_001.csv";
const char *kQwenKernels = "msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2/rank_0_ascend_pt/"
                           "ASCEND_PROFILER_OUTPUT/kernel_details.csv";

CsvTable readSample(const QString &path)
{
    if (!QFileInfo::exists(path))
        qFatal("sample missing: %s", qPrintable(path));
    return CsvReader().readFile(path);
}

std::int64_t ns(std::string_view cell, bool duration = false)
{
    const auto v = duration ? csv::parseDurationUsToNs(cell) : csv::parseTimestampUsToNs(cell);
    return v.ok() ? v.value : INT64_MIN;
}

} // namespace

class TestCsvSamples : public QObject
{
    Q_OBJECT

private slots:
    void kernelDetailsLevel1()
    {
        const CsvTable t = readSample(samplePath(kLevel1) + QStringLiteral("kernel_details.csv"));
        QVERIFY2(t.issues().empty(), qPrintable(csvtest::issuesText(t)));
        // python: len(rows) - 1 == 191, len(rows[0]) == 46; the file is CRLF, 192 physical lines.
        QCOMPARE(t.rowCount(), std::size_t(191));
        QCOMPARE(t.columnCount(), 46);
        QCOMPARE(t.raggedRowCount(), std::size_t(0));
        QCOMPARE(t.rowLine(190), std::uint64_t(192));

        const int name = t.column(col::OpName);
        const int start = t.column(col::TaskStartTime);
        const int dur = t.column(col::TaskDuration);
        const int wait = t.column(col::TaskWaitTime);
        const int core = t.column(col::TaskType);
        QCOMPARE(name, t.columnExact("Name"));
        QCOMPARE(start, t.columnExact("Start Time(us)"));
        QVERIFY(dur >= 0 && wait >= 0 && core >= 0);
        QCOMPARE(t.column(col::BlockNum), t.columnExact("Block Dim"));

        // python: rows[1][Name] == 'trans_TransData_0', Start Time(us) == '1736408883704643.212\t',
        // Duration(us) == '53.741', aiv_vec_ratio == '0.186', aiv_total_cycles == '2910056',
        // Model ID == '4294967295', Context ID == 'N/A', Input Shapes == '"32,3,224,224"'.
        QCOMPARE(qba(t.cell(0, name)), QByteArray("trans_TransData_0"));
        QCOMPARE(qba(t.cell(0, start)), QByteArray("1736408883704643.212\t"));
        QCOMPARE(ns(t.cell(0, start)), std::int64_t(1736408883704643212));
        QCOMPARE(ns(t.cell(0, dur), true), std::int64_t(53741));
        QCOMPARE(csv::parseDouble(t.cell(0, "aiv_vec_ratio")).value, 0.186);
        QCOMPARE(csv::parseUInt64(t.cell(0, "aiv_total_cycles")).value, std::uint64_t(2910056));
        QCOMPARE(csv::parseUInt64(t.cell(0, col::ModelId)).status, csv::ValueStatus::None);
        QCOMPARE(csv::parseUInt64(t.cell(0, col::ContextId)).status, csv::ValueStatus::Missing);
        const auto shapes = csv::parseShapes(t.cell(0, col::InputShapes));
        QVERIFY(shapes.ok());
        QCOMPARE(shapes.value, (std::vector<csv::TensorShape>{{32, 3, 224, 224}}));

        // python: rows[3] (3rd data row) is Conv2D1 with aic_mac_ratio '0.519', aic_mac_time(us) '162.056'.
        QCOMPARE(qba(t.cell(2, name)), QByteArray("Conv2D1"));
        QCOMPARE(csv::parseDouble(t.cell(2, "aic_mac_ratio")).value, 0.519);
        QCOMPARE(ns(t.cell(2, "aic_mac_time(us)"), true), std::int64_t(162056));

        // python: last row Name 'aclnnForeachAddListV2_ForeachAddListV2_ForeachAddList', start
        // '...840600.069\t'.
        QCOMPARE(qba(t.cell(190, name)), QByteArray("aclnnForeachAddListV2_ForeachAddListV2_ForeachAddList"));
        QCOMPARE(ns(t.cell(190, start)), std::int64_t(1736408883840600069));

        // python: sum(round(float(Duration(us)) * 1000)) == 114865613 (all durations have <= 3 decimals);
        // Accelerator Core counts AI_VECTOR_CORE 149, AI_CORE 23, MIX_AIV 13, HCCL 4, DSA_SQE 2.
        std::int64_t durSum = 0;
        int hccl = 0, vector = 0, noStream = 0;
        for (std::size_t r = 0; r < t.rowCount(); ++r) {
            durSum += ns(t.cell(r, dur), true);
            hccl += t.cell(r, core) == "HCCL";
            vector += t.cell(r, core) == "AI_VECTOR_CORE";
            noStream += csv::parseUInt64(t.cell(r, col::StreamId)).status == csv::ValueStatus::Missing;
        }
        QCOMPARE(durSum, std::int64_t(114865613));
        QCOMPARE(hccl, 4);
        QCOMPARE(vector, 149);
        QCOMPARE(noStream, 4); // communication rows have Stream ID N/A (FORMATS.md §3.11)

        const at::MetricLayout m = at::detectMetricColumns(t);
        QCOMPARE(m.group, at::MetricGroup::PipeUtilization);
        QCOMPARE(m.firstColumn, t.columnExact("Context ID") + 1);
        QCOMPARE(m.metrics.size(), std::size_t(25));
    }

    void operatorDetailsMultiLine()
    {
        const CsvTable t = readSample(samplePath(kLevel1) + QStringLiteral("operator_details.csv"));
        QVERIFY2(t.issues().empty(), qPrintable(csvtest::issuesText(t)));
        // python: 859 records, 9 columns, 6224 '\n' in the file (LF endings); csv.reader line_num gives
        // record start lines 2, 13, 33 for the first three records and 6213 for the last one.
        QCOMPARE(t.rowCount(), std::size_t(859));
        QCOMPARE(t.columnCount(), 9);
        QCOMPARE(t.rowLine(0), std::uint64_t(2));
        QCOMPARE(t.rowLine(1), std::uint64_t(13));
        QCOMPARE(t.rowLine(2), std::uint64_t(33));
        QCOMPARE(t.rowLine(858), std::uint64_t(6213));

        const int name = t.column("Name");
        const int stack = t.column("Call Stack");
        // python: rows[1][0] is 'enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__', its Call
        // Stack has 11 lines ending in '<string>(1): <module>', Host Self Duration(us) '1960.1'.
        QCOMPARE(qba(t.cell(0, name)),
                 QByteArray("enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"));
        const QByteArray callStack = qba(t.cell(0, stack));
        QCOMPARE(callStack.count('\n'), qsizetype(10));
        QVERIFY(callStack.endsWith("<string>(1): <module>"));
        QCOMPARE(ns(t.cell(0, "Host Self Duration(us)"), true), std::int64_t(1960100));
        // python: rows[2][:2] == ['aten::empty', ';\n;\n;\n;\n;\n'], Host Self Duration(us) '145.57'.
        QCOMPARE(qba(t.cell(1, name)), QByteArray("aten::empty"));
        QCOMPARE(qba(t.cell(1, "Input Shapes")), QByteArray(";\n;\n;\n;\n;\n"));
        QCOMPARE(ns(t.cell(1, "Host Self Duration(us)"), true), std::int64_t(145570));
        // python: last record 'aten::_local_scalar_dense', Host Total Duration(us) '130.3'.
        QCOMPARE(qba(t.cell(858, name)), QByteArray("aten::_local_scalar_dense"));
        QCOMPARE(ns(t.cell(858, "Host Total Duration(us)"), true), std::int64_t(130300));
    }

    void opSummaryPipeUtilization()
    {
        const CsvTable t = readSample(samplePath(kOpSummary));
        QVERIFY2(t.issues().empty(), qPrintable(csvtest::issuesText(t)));
        // python: 2 rows, 46 columns, 'Context ID' at index 20, 25 metric columns after it.
        QCOMPARE(t.rowCount(), std::size_t(2));
        QCOMPARE(t.columnCount(), 46);
        QCOMPARE(t.column(col::ContextId), 20);
        QCOMPARE(t.column(col::BlockNum), t.columnExact("Block Dim"));
        QCOMPARE(t.column(col::MixBlockNum), t.columnExact("Mix Block Dim"));
        // python: row 1 Task Start Time(us) '1000000.000', Task Duration(us) '42399.120', Block Dim '256';
        // row 2 Task Wait Time(us) '2.880000'.
        QCOMPARE(ns(t.cell(0, col::TaskStartTime)), std::int64_t(1000000000));
        QCOMPARE(ns(t.cell(0, col::TaskDuration), true), std::int64_t(42399120));
        QCOMPARE(ns(t.cell(1, col::TaskWaitTime), true), std::int64_t(2880));
        QCOMPARE(csv::parseUInt64(t.cell(0, col::BlockNum)).value, std::uint64_t(256));
        QCOMPARE(csv::parseUInt64(t.cell(0, col::MixBlockNum)).value, std::uint64_t(512));
        QCOMPARE(qba(t.cell(0, col::TaskType)), QByteArray("MIX_AIC"));

        const at::MetricLayout m = at::detectMetricColumns(t);
        QCOMPARE(m.group, at::MetricGroup::PipeUtilization);
        QCOMPARE(m.firstColumn, 21);
        QCOMPARE(m.metrics.size(), std::size_t(25));
        int aic = 0, aiv = 0, any = 0;
        for (const auto &metric : m.metrics) {
            aic += metric.side == at::CoreSide::Aic;
            aiv += metric.side == at::CoreSide::Aiv;
            any += metric.side == at::CoreSide::Any;
        }
        QCOMPARE(aic, 13); // aicore_time(us) + 12 aic_* columns
        QCOMPARE(aiv, 11);
        QCOMPARE(any, 1); // cube_utilization(%)
        const auto &first = m.metrics.front();
        QCOMPARE(QByteArray::fromStdString(first.header), QByteArray("aicore_time(us)"));
        QCOMPARE(QByteArray::fromStdString(first.name), QByteArray("total_time"));
        const auto &aivTime = m.metrics[13];
        QCOMPARE(QByteArray::fromStdString(aivTime.header), QByteArray("aiv_time(us)"));
        QCOMPARE(aivTime.side, at::CoreSide::Aiv);
        // python: aiv_time(us) '38332.239', aiv_total_cycles '3211544685' (> UINT32_MAX, not a sentinel).
        QCOMPARE(ns(t.cell(0, aivTime.column), true), std::int64_t(38332239));
        QCOMPARE(csv::parseUInt64(t.cell(0, "aiv_total_cycles")).value, std::uint64_t(3211544685ULL));
        QCOMPARE(m.metrics.back().unit, at::MetricUnit::Percent);
        QCOMPARE(csv::parseDouble(t.cell(0, m.metrics.back().column)).value, 0.029);
    }

    void kernelDetailsLevel0()
    {
        const CsvTable t = readSample(samplePath(kLevel0) + QStringLiteral("kernel_details.csv"));
        QVERIFY2(t.issues().empty(), qPrintable(csvtest::issuesText(t)));
        // python: 191 rows; header Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait
        // Time(us), Block Dim; first row trans_TransData_0, '1736405443881410.320\t', '50.621'; Type is N/A
        // on all 191 rows, Accelerator Core is N/A on 187 rows and HCCL on 4.
        QCOMPARE(t.rowCount(), std::size_t(191));
        QCOMPARE(t.columnCount(), 8);
        QCOMPARE(t.column(col::TaskId), -1);
        QCOMPARE(t.column(col::StreamId), -1);
        QCOMPARE(t.column(col::ContextId), -1);
        const at::MetricLayout m = at::detectMetricColumns(t);
        QCOMPARE(m.group, at::MetricGroup::None);
        QVERIFY(m.metrics.empty());
        QCOMPARE(qba(t.cell(0, col::OpName)), QByteArray("trans_TransData_0"));
        QCOMPARE(ns(t.cell(0, col::TaskStartTime)), std::int64_t(1736405443881410320));
        QCOMPARE(ns(t.cell(0, col::TaskDuration), true), std::int64_t(50621));
        int missingType = 0, missingCore = 0;
        for (std::size_t r = 0; r < t.rowCount(); ++r) {
            missingType += csv::isMissingCell(t.cell(r, col::OpType));
            missingCore += csv::isMissingCell(t.cell(r, col::TaskType));
        }
        QCOMPARE(missingType, 191);
        QCOMPARE(missingCore, 187);
    }

    void kernelDetailsQwen3()
    {
        const CsvTable t = readSample(samplePath(kQwenKernels));
        QVERIFY2(t.issues().empty(), qPrintable(csvtest::issuesText(t)));
        // python: 2463 rows, 47 columns (Device_id added), LF endings; Accelerator Core COMMUNICATION on 15
        // rows; last row Task ID '37060', start '1764246877883589.080\t', Wait Time(us) '20.310000'.
        QCOMPARE(t.rowCount(), std::size_t(2463));
        QCOMPARE(t.columnCount(), 47);
        QCOMPARE(t.column(col::DeviceId), 1);
        int comm = 0;
        for (std::size_t r = 0; r < t.rowCount(); ++r)
            comm += t.cell(r, col::TaskType) == "COMMUNICATION";
        QCOMPARE(comm, 15);
        QCOMPARE(csv::parseUInt64(t.cell(2462, col::TaskId)).value, std::uint64_t(37060));
        QCOMPARE(ns(t.cell(2462, col::TaskStartTime)), std::int64_t(1764246877883589080));
        QCOMPARE(ns(t.cell(2462, col::TaskWaitTime), true), std::int64_t(20310));
        QCOMPARE(at::detectMetricColumns(t).group, at::MetricGroup::PipeUtilization);
    }

    void everySampleCsvParsesCleanly()
    {
        // Sanity over all 54 sample CSVs: no errors, no ragged rows (python found none either).
        const QStringList roots = {samplePath("msinsight_alexnet_1step_levels"),
                                   samplePath("msinsight_qwen3_0.6b_4rank_pp2_level2"),
                                   samplePath("ascend_msprof_skill_cann8_sanitized")};
        int files = 0;
        for (const QString &root : roots) {
            QDirIterator it(root, {QStringLiteral("*.csv")}, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString path = it.next();
                const CsvTable t = CsvReader().readFile(path);
                QVERIFY2(!t.hasErrors(), qPrintable(csvtest::issuesText(t)));
                QVERIFY2(t.raggedRowCount() == 0, qPrintable(path));
                QVERIFY2(t.columnCount() > 1, qPrintable(path));
                ++files;
            }
        }
        QCOMPARE(files, 54);
    }
};

QTEST_GUILESS_MAIN(TestCsvSamples)
#include "tst_csv_samples.moc"
