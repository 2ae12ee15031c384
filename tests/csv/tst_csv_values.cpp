// Value helpers (µs text -> ns, integers with sentinels, doubles, shapes) and PMU metric column parsing.

#include "CsvTestUtil.h"
#include "csv/CsvMetrics.h"
#include "csv/CsvReader.h"
#include "csv/CsvValues.h"

#include <QTest>

using namespace at::csv;
using at::CoreSide;
using at::MetricGroup;
using at::MetricUnit;

class TestCsvValues : public QObject
{
    Q_OBJECT

private slots:
    void trimAndMissing()
    {
        QCOMPARE(QByteArray::fromStdString(std::string(trimCell(" \t1.5\t\r\n"))), QByteArray("1.5"));
        QVERIFY(isMissingCell(""));
        QVERIFY(isMissingCell("  \t"));
        QVERIFY(isMissingCell("N/A"));
        QVERIFY(isMissingCell("n/a\t"));
        QVERIFY(!isMissingCell("NA/"));
        QVERIFY(!isMissingCell("0"));
    }

    void timestampsExact_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<qint64>("ns");
        QTest::newRow("tab suffix") << QByteArray("1736408883704643.212\t") << qint64(1736408883704643212);
        QTest::newRow("double would round")
            << QByteArray("1736408883704643.213") << qint64(1736408883704643213);
        QTest::newRow("6 digits") << QByteArray("833.420000") << qint64(833420);
        QTest::newRow("long float truncates") << QByteArray("8873.756000000001") << qint64(8873756);
        QTest::newRow("4th digit >=5 still truncates") << QByteArray("1.0009") << qint64(1000);
        QTest::newRow("integer") << QByteArray("1736408883973810") << qint64(1736408883973810000);
        QTest::newRow("one digit fraction") << QByteArray("12.5") << qint64(12500);
        QTest::newRow("leading dot") << QByteArray(".5") << qint64(500);
        QTest::newRow("trailing dot") << QByteArray("7.") << qint64(7000);
        QTest::newRow("negative") << QByteArray("-1.2349") << qint64(-1234);
        QTest::newRow("plus") << QByteArray("+3.001") << qint64(3001);
        QTest::newRow("spaces") << QByteArray("  42.000 ") << qint64(42000);
        QTest::newRow("exponent fallback") << QByteArray("1.5e3") << qint64(1500000);
        QTest::newRow("near int64 max")
            << QByteArray("9223372036854775.807") << qint64(9223372036854775807LL);
    }
    void timestampsExact()
    {
        QFETCH(QByteArray, text);
        QFETCH(qint64, ns);
        const auto v = parseTimestampUsToNs(text.toStdString());
        QVERIFY2(v.ok(), text.constData());
        QCOMPARE(qint64(v.value), ns);
    }

    void durationsRoundHalfUp_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<qint64>("ns");
        QTest::newRow("3 digits") << QByteArray("53.741") << qint64(53741);
        QTest::newRow("long float") << QByteArray("8873.756000000001") << qint64(8873756);
        QTest::newRow("half up") << QByteArray("0.0005") << qint64(1);
        QTest::newRow("below half") << QByteArray("0.00049999") << qint64(0);
        QTest::newRow("carry") << QByteArray("1.9995") << qint64(2000);
        QTest::newRow("negative magnitude") << QByteArray("-0.0015") << qint64(-2);
        QTest::newRow("json style float") << QByteArray("79089.52021875") << qint64(79089520);
        QTest::newRow("0.60003125") << QByteArray("0.60003125") << qint64(600);
        QTest::newRow("exponent rounds") << QByteArray("1.0005e0") << qint64(1001);
    }
    void durationsRoundHalfUp()
    {
        QFETCH(QByteArray, text);
        QFETCH(qint64, ns);
        const auto v = parseDurationUsToNs(text.toStdString());
        QVERIFY2(v.ok(), text.constData());
        QCOMPARE(qint64(v.value), ns);
    }

    void usToNsRejects()
    {
        QCOMPARE(parseTimestampUsToNs("").status, ValueStatus::Missing);
        QCOMPARE(parseTimestampUsToNs("N/A").status, ValueStatus::Missing);
        for (const char *bad : {"abc", "1.2.3", "12a", ".", "-", "inf", "nan", "9223372036854775.808",
                                "99999999999999999999", "1e30"}) {
            QVERIFY2(parseTimestampUsToNs(bad).status == ValueStatus::Invalid, bad);
        }
        QCOMPARE(parseTimestampUsToNs("-9223372036854775.808").value,
                 std::numeric_limits<std::int64_t>::min());
    }

    void integersAndSentinels()
    {
        QCOMPARE(parseUInt64("11051").value, std::uint64_t(11051));
        QCOMPARE(parseUInt64("4294967295").status, ValueStatus::None);
        QCOMPARE(parseUInt64("18446744073709551615").status, ValueStatus::None);
        QCOMPARE(parseUInt64("4294967295", Sentinels::Keep).value, std::uint64_t(4294967295ULL));
        QCOMPARE(parseUInt64("18446744073709551616").status, ValueStatus::Invalid);
        QCOMPARE(parseUInt64("-1").status, ValueStatus::Invalid);
        QCOMPARE(parseUInt64("N/A").status, ValueStatus::Missing);
        QCOMPARE(parseUInt64(" 7\t").value, std::uint64_t(7));
        QCOMPARE(parseInt64("-42").value, std::int64_t(-42));
        QCOMPARE(parseInt64("4294967295").status, ValueStatus::None);
        QCOMPARE(parseInt64("18446744073709551615").status, ValueStatus::None);
        QCOMPARE(parseInt64("9223372036854775808").status, ValueStatus::Invalid);
        QCOMPARE(parseInt64("-9223372036854775808").value, std::numeric_limits<std::int64_t>::min());
        QCOMPARE(parseInt64("1.5").status, ValueStatus::Invalid);
        QCOMPARE(parseInt64("").status, ValueStatus::Missing);
        QCOMPARE(parseInt64("12").valueOr(-1), std::int64_t(12));
        QCOMPARE(parseInt64("x").valueOr(-1), std::int64_t(-1));
    }

    void doubles()
    {
        QCOMPARE(parseDouble("0.186").value, 0.186);
        QCOMPARE(parseDouble("8873.756000000001").value, 8873.756000000001);
        QCOMPARE(parseDouble("+1e-3").value, 0.001);
        QCOMPARE(parseDouble("\"x\"").status, ValueStatus::Invalid);
        QCOMPARE(parseDouble("inf").status, ValueStatus::Invalid);
        QCOMPARE(parseDouble("N/A").status, ValueStatus::Missing);
    }

    void shapes()
    {
        const auto s = parseShapes("\"32,3,224,224;4096;\"");
        QVERIFY(s.ok());
        QCOMPARE(s.value.size(), std::size_t(3));
        QCOMPARE(s.value[0], (TensorShape{32, 3, 224, 224}));
        QCOMPARE(s.value[1], (TensorShape{4096}));
        QVERIFY(s.value[2].empty());

        const auto scalars = parseShapes("\";\"");
        QCOMPARE(scalars.value.size(), std::size_t(2));
        QCOMPARE(parseShapes("\";;\"").value.size(), std::size_t(3));
        QCOMPARE(parseShapes("\"\"").value.size(), std::size_t(1)); // one rank-0 tensor
        QCOMPARE(parseShapes("64").value, (std::vector<TensorShape>{{64}}));
        QCOMPARE(parseShapes("\"-1,128\"").value, (std::vector<TensorShape>{{-1, 128}}));
        QCOMPARE(parseShapes("N/A").status, ValueStatus::Missing);
        QCOMPARE(parseShapes("").status, ValueStatus::Missing);
        QCOMPARE(parseShapes("\"32,x\"").status, ValueStatus::Invalid);
        QCOMPARE(parseShapes("\"32,,3\"").status, ValueStatus::Invalid);
    }

    void metricHeaderSplit()
    {
        auto m = at::splitMetricHeader("aic_mte2_time(us)");
        QCOMPARE(m.side, CoreSide::Aic);
        QCOMPARE(QByteArray::fromStdString(m.name), QByteArray("mte2_time"));
        QCOMPARE(m.unit, MetricUnit::Microseconds);
        m = at::splitMetricHeader("aiv_l0c_read_bw(GB/s)");
        QCOMPARE(m.side, CoreSide::Aiv);
        QCOMPARE(QByteArray::fromStdString(m.name), QByteArray("l0c_read_bw"));
        QCOMPARE(m.unit, MetricUnit::GBps);
        m = at::splitMetricHeader("read_main_memory_datas(KB)");
        QCOMPARE(m.side, CoreSide::Any);
        QCOMPARE(m.unit, MetricUnit::KB);
        m = at::splitMetricHeader("cube_utilization(%)");
        QCOMPARE(m.unit, MetricUnit::Percent);
        QCOMPARE(QByteArray::fromStdString(m.name), QByteArray("cube_utilization"));
        m = at::splitMetricHeader("aiv_time(us)");
        QCOMPARE(QByteArray::fromStdString(m.name), QByteArray("total_time"));
        QCOMPARE(m.side, CoreSide::Aiv);
        m = at::splitMetricHeader("vec_ratio");
        QCOMPARE(m.unit, MetricUnit::None);
        QCOMPARE(QByteArray::fromStdString(m.header), QByteArray("vec_ratio"));
    }

    void metricGroups_data()
    {
        QTest::addColumn<QByteArray>("metrics");
        QTest::addColumn<int>("group");
        // Real A2 headers after Context ID (FORMATS.md §3.2) and the §4.1 lists.
        QTest::newRow("ArithmeticUtilization")
            << QByteArray(
                   "aicore_time(us),aic_total_cycles,aic_mac_fp16_ratio,aic_mac_int8_ratio,aic_cube_fops,"
                   "aic_vector_fops,aiv_time(us),aiv_total_cycles,aiv_vec_fp32_ratio,aiv_vec_fp16_ratio,"
                   "aiv_vec_int32_ratio,aiv_vec_misc_ratio,aiv_cube_fops,aiv_vector_fops")
            << int(MetricGroup::ArithmeticUtilization);
        QTest::newRow("PipeUtilization 910A")
            << QByteArray(
                   "aicore_time(us),total_cycles,vec_time(us),vec_ratio,mac_time(us),mac_ratio,scalar_time("
                   "us),"
                   "scalar_ratio,mte1_time(us),mte1_ratio,mte2_time(us),mte2_ratio,mte3_time(us),mte3_ratio,"
                   "icache_miss_rate,memory_bound")
            << int(MetricGroup::PipeUtilization);
        QTest::newRow("Memory")
            << QByteArray("aicore_time(us),total_cycles,ub_read_bw(GB/s),ub_write_bw(GB/s),"
                          "l1_read_bw(GB/s),l1_write_bw(GB/s),l2_read_bw(GB/s),l2_write_bw(GB/s),"
                          "main_mem_read_bw(GB/s),main_mem_write_bw(GB/s)")
            << int(MetricGroup::Memory);
        QTest::newRow("MemoryL0")
            << QByteArray("aicore_time(us),aic_total_cycles,aic_l0a_read_bw(GB/s),"
                          "aic_l0a_write_bw(GB/s),aic_l0b_read_bw(GB/s),aic_l0b_write_bw(GB/s),"
                          "aic_l0c_read_bw_cube(GB/s),aic_l0c_write_bw_cube(GB/s),aiv_time(us),"
                          "aiv_total_cycles,aiv_l0c_read_bw(GB/s),aiv_l0c_write_bw(GB/s)")
            << int(MetricGroup::MemoryL0);
        QTest::newRow("ResourceConflictRatio")
            << QByteArray("aicore_time(us),aiv_vec_bankgroup_cflt_ratio,aiv_vec_bank_cflt_ratio,aiv_vec_resc_"
                          "cflt_ratio")
            << int(MetricGroup::ResourceConflictRatio);
        QTest::newRow("MemoryUB") << QByteArray("aicore_time(us),ub_read_bw_mte(GB/s),ub_write_bw_mte(GB/s),"
                                                "ub_read_bw_vector(GB/s),ub_write_bw_vector(GB/s),"
                                                "ub_read_bw_scalar(GB/s),ub_write_bw_scalar(GB/s)")
                                  << int(MetricGroup::MemoryUB);
        QTest::newRow("L2Cache") << QByteArray(
                                        "aicore_time(us),write_cache_hit,write_cache_miss_allocate,"
                                        "r0_read_cache_hit,r0_read_cache_miss_allocate,r1_read_cache_hit,"
                                        "r1_read_cache_miss_allocate")
                                 << int(MetricGroup::L2Cache);
        QTest::newRow("MemoryAccess") << QByteArray("aicore_time(us),aic_read_main_memory_datas(KB),"
                                                    "aic_write_main_memory_datas(KB),aic_gm_to_l1_datas(KB),"
                                                    "aiv_gm_to_ub_datas(KB),aiv_ub_to_gm_datas(KB)")
                                      << int(MetricGroup::MemoryAccess);
        QTest::newRow("PipelineExecuteUtilization")
            << QByteArray("aicore_time(us),vec_exe_ratio,mac_exe_ratio,scalar_exe_ratio,mte1_exe_ratio,"
                          "mte2_exe_ratio,mte3_exe_ratio,fixpipe_exe_ratio")
            << int(MetricGroup::PipelineExecuteUtilization);
        QTest::newRow("Unknown") << QByteArray("aicore_time(us),some_new_metric")
                                 << int(MetricGroup::Unknown);
    }
    void metricGroups()
    {
        QFETCH(QByteArray, metrics);
        QFETCH(int, group);
        const std::string text = "Op Name,Output Formats," + metrics.toStdString() + "\n";
        const at::CsvTable t = at::CsvReader().parse(text);
        const at::MetricLayout layout = at::detectMetricColumns(t);
        QCOMPARE(layout.firstColumn, 2); // no Context ID: metrics start after Output Formats
        QCOMPARE(layout.metrics.size(), std::size_t(t.columnCount() - 2));
        QCOMPARE(int(layout.group), group);
    }

    void noMetricColumns()
    {
        const at::CsvTable t = at::CsvReader().parse("Step Id,Name,Type,Accelerator Core,Start Time(us)\n");
        const at::MetricLayout layout = at::detectMetricColumns(t);
        QCOMPARE(layout.firstColumn, -1);
        QVERIFY(layout.metrics.empty());
        QCOMPARE(layout.group, MetricGroup::None);
        const at::CsvTable ctxLast = at::CsvReader().parse("Name,Output Formats,Context ID\n");
        QCOMPARE(at::detectMetricColumns(ctxLast).group, MetricGroup::None);
    }

    void groupNames()
    {
        QCOMPARE(QByteArray(at::metricGroupName(MetricGroup::PipeUtilization).data()),
                 QByteArray("PipeUtilization"));
        QCOMPARE(at::metricGroupFromName("ACL_AICORE_L0B_AND_WIDTH"), MetricGroup::MemoryL0);
        QCOMPARE(at::metricGroupFromName("MemoryAccess"), MetricGroup::MemoryAccess);
        QCOMPARE(at::metricGroupFromName("ACL_AICORE_NONE"), MetricGroup::None);
        QCOMPARE(at::metricGroupFromName("bogus"), MetricGroup::Unknown);
        QCOMPARE(QByteArray(at::metricUnitText(MetricUnit::GBps).data()), QByteArray("GB/s"));
    }
};

QTEST_GUILESS_MAIN(TestCsvValues)
#include "tst_csv_values.moc"
