// parser/raw decoders against the byte vectors of FORMATS.md §5.11, plus slice enumeration, record
// streaming across slices, the time converter and the PMU metric formulas.

#include "RawRecordWriter.h"
#include "raw/ByteReader.h"
#include "raw/HostRecords.h"
#include "raw/HwtsLog.h"
#include "raw/PmuMetrics.h"
#include "raw/PmuRecords.h"
#include "raw/SliceFiles.h"
#include "raw/StarsLog.h"
#include "raw/TimeConverter.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>

using namespace at;
using namespace at::raw;
using at::test::fromHex;

namespace {

const unsigned char *bytes(const QByteArray &b)
{
    return reinterpret_cast<const unsigned char *>(b.constData());
}

// §5.11: the 24 bytes shown, then 40 zero bytes.
QByteArray hwts24(const char *hex)
{
    QByteArray b = fromHex(hex);
    b.append(QByteArray(64 - b.size(), '\0'));
    return b;
}

} // namespace

class TestRawRecords : public QObject
{
    Q_OBJECT
private slots:
    void byteReaderIsLittleEndianAtExplicitOffsets()
    {
        const QByteArray b = fromHex("01 02 03 04 05 06 07 08 09");
        QCOMPARE(readU8(bytes(b), 1), std::uint8_t(0x02));
        QCOMPARE(readU16(bytes(b), 1), std::uint16_t(0x0302));
        QCOMPARE(readU32(bytes(b), 1), std::uint32_t(0x05040302));
        QCOMPARE(readU64(bytes(b), 1), std::uint64_t(0x0908070605040302ull));
        ByteReader r(bytes(b), 9);
        QCOMPARE(r.u64(1), std::uint64_t(0x0908070605040302ull));
        QVERIFY(!r.overrun());
        QCOMPARE(r.u16(8), std::uint16_t(0));
        QVERIFY(r.overrun());
    }

    void hwtsVectorsDecodeAndPair()
    {
        const QByteArray start32 =
            hwts24("00 00 d3 6b 00 00 02 00 c9 6f 91 06 0c 00 00 00 03 00 00 00 00 00 00 00");
        const QByteArray end32 =
            hwts24("11 00 d3 6b 00 00 02 00 c4 80 91 06 0c 00 00 00 03 00 00 00 00 00 00 00");
        const QByteArray end33 = hwts24("31 00 d3 6b 00 00 03 00 cf 9d 91 06 0c 00 00 00 03 00");
        const QByteArray start34 = hwts24("40 00 d3 6b 00 00 04 00 0e a4 91 06 0c 00 00 00 03 00");
        const QByteArray start35 = hwts24("60 00 d3 6b 00 00 05 00 e4 ab 91 06 0c 00 00 00 03 00");
        const QByteArray end35 = hwts24("71 00 d3 6b 00 00 05 00 eb ac 91 06 0c 00 00 00 03 00");
        HwtsRecord r;
        QVERIFY(decodeHwts(bytes(start32), r));
        QCOMPARE(int(r.logType), 0);
        QCOMPARE(int(r.cnt), 0);
        QCOMPARE(r.magic, std::uint16_t(0x6BD3));
        QCOMPARE(int(r.taskId), 2);
        QCOMPARE(r.sysCnt, std::uint64_t(51649802185ull));
        QCOMPARE(r.streamId, 3u);
        QVERIFY(decodeHwts(bytes(end32), r));
        QCOMPARE(int(r.logType), 1);
        QCOMPARE(int(r.cnt), 1);
        QCOMPARE(r.sysCnt, std::uint64_t(51649806532ull));
        QVERIFY(decodeHwts(bytes(end33), r));
        QCOMPARE(int(r.cnt), 3);
        QCOMPARE(int(r.taskId), 3);
        QVERIFY(decodeHwts(bytes(start35), r));
        QCOMPARE(int(r.cnt), 6);
        QCOMPARE(r.sysCnt, std::uint64_t(51649817572ull));
        QVERIFY(decodeHwts(bytes(end35), r));
        QCOMPARE(int(r.cnt), 7);
        QCOMPARE(r.sysCnt, std::uint64_t(51649817835ull));

        HwtsPairer pairer;
        for (const QByteArray *rec : {&start32, &end32, &end33, &start34, &start35, &start35, &end35})
            pairer.add(bytes(*rec));
        const std::vector<DeviceTask> tasks = pairer.finish();
        QCOMPARE(tasks.size(), std::size_t(2));
        QCOMPARE(tasks[0].stream, 3u);
        QCOMPARE(tasks[0].task, 2u);
        QCOMPARE(tasks[0].endTicks - tasks[0].startTicks, std::uint64_t(4347));
        QCOMPARE(tasks[1].task, 5u);
        QCOMPARE(tasks[1].startTicks, std::uint64_t(51649817572ull));
        QCOMPARE(tasks[1].endTicks - tasks[1].startTicks, std::uint64_t(263));
        // cnt 2 missing, cnt 5 missing, and the repeated cnt 6 warns again.
        QCOMPARE(pairer.counter().gaps, std::size_t(3));
        QCOMPARE(pairer.stats().endsWithoutStart, std::size_t(1)); // task 3
        QCOMPARE(pairer.stats().startsNeverEnded, std::size_t(1)); // task 4
        QCOMPARE(pairer.stats().startsReplaced, std::size_t(1));   // task 5 fed twice
        // 38.4 MHz: 4347 ticks = 113,203.125 ns, 263 ticks = 6,848.958 ns (rounded once).
        const Frequency f = *Frequency::parse(QStringLiteral("38.4"));
        QCOMPARE(unsignedTicksToNs(4347, f), std::int64_t(113203));
        QCOMPARE(unsignedTicksToNs(263, f), std::int64_t(6849));
    }

    // The pairer keeps open starts in a small table per stream and spills colliding task ids (equal low
    // 10 bits) aside: random logs full of collisions, repeats and unmatched records must pair exactly as
    // one entry per (stream, task) does (§5.7 HWTS rule).
    void hwtsPairingMatchesTheReferenceRule()
    {
        std::uint64_t seed = 12345;
        auto next = [&seed] {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            return static_cast<std::uint32_t>(seed >> 33);
        };
        for (int round = 0; round < 20; ++round) {
            HwtsPairer pairer;
            std::map<std::pair<std::uint32_t, std::uint32_t>, std::pair<std::uint64_t, int>> open;
            std::vector<DeviceTask> expected;
            std::size_t replaced = 0, orphanEnds = 0;
            const int taskRange = round % 2 ? 8 : 5000; // a few ids, or ids colliding modulo 1024
            for (int i = 0; i < 4000; ++i) {
                const std::uint32_t stream = next() % 3;
                const auto task = static_cast<std::uint16_t>((next() % 4) * 1024 + next() % taskRange);
                const int type = static_cast<int>(next() % 2);
                const std::uint64_t ts = 1000 + static_cast<std::uint64_t>(i);
                pairer.add(bytes(test::hwtsRecord(type, i & 15, i % 5, task, ts, stream)));
                const auto key = std::make_pair(stream, std::uint32_t(task));
                if (type == 0) {
                    replaced += open.count(key);
                    open[key] = {ts, i % 5};
                } else if (const auto it = open.find(key); it != open.end()) {
                    DeviceTask t;
                    t.stream = stream;
                    t.task = task;
                    t.startTicks = it->second.first;
                    t.endTicks = ts;
                    t.taskType = static_cast<std::uint16_t>(it->second.second);
                    expected.push_back(t);
                    open.erase(it);
                } else {
                    ++orphanEnds;
                }
            }
            const std::vector<DeviceTask> tasks = pairer.finish();
            QCOMPARE(tasks.size(), expected.size());
            for (std::size_t i = 0; i < tasks.size(); ++i) {
                QCOMPARE(tasks[i].stream, expected[i].stream);
                QCOMPARE(tasks[i].task, expected[i].task);
                QCOMPARE(tasks[i].startTicks, expected[i].startTicks);
                QCOMPARE(tasks[i].endTicks, expected[i].endTicks);
                QCOMPARE(tasks[i].taskType, expected[i].taskType);
            }
            QCOMPARE(pairer.stats().startsReplaced, replaced);
            QCOMPARE(pairer.stats().endsWithoutStart, orphanEnds);
            QCOMPARE(pairer.stats().startsNeverEnded, open.size());
        }
    }

    void badMagicIsSkippedAndCounted()
    {
        HwtsPairer pairer;
        QByteArray rec = hwts24("00 00 d3 6b 00 00 02 00 c9 6f 91 06 0c 00 00 00 03 00 00 00 00 00 00 00");
        rec[2] = 0;
        pairer.add(bytes(rec));
        QVERIFY(pairer.finish().empty());
        QCOMPARE(pairer.stats().badMagic, std::size_t(1));
    }

    void starsIdDecoding_data()
    {
        QTest::addColumn<int>("s");
        QTest::addColumn<int>("t");
        QTest::addColumn<bool>("expand");
        QTest::addColumn<int>("sqe");
        QTest::addColumn<int>("stream");
        QTest::addColumn<int>("task");
        QTest::newRow("normal") << 3 << 8 << false << 0 << 3 << 8;
        QTest::newRow("0x2003") << 8195 << 8 << false << 0 << 8 << 3;
        QTest::newRow("0x3003") << 12291 << 8 << false << 0 << 3 << 8200;
        QTest::newRow("0x5003") << 20483 << 8 << false << 0 << 3 << 16392;
        QTest::newRow("expand place holder")
            << 12345 << (90000 & 0xFFFF) << true << 3 << 12345 << (90000 & 0xFFFF);
        QTest::newRow("expand 0xB26E") << 45678 << 32769 << true << 0 << 1 << 45678;
        QTest::newRow("expand 0xD903") << 55555 << 20000 << true << 0 << 20000 << 22787;
    }
    void starsIdDecoding()
    {
        QFETCH(int, s);
        QFETCH(int, t);
        QFETCH(bool, expand);
        QFETCH(int, sqe);
        QFETCH(int, stream);
        QFETCH(int, task);
        StarsIdMode mode;
        mode.streamExpand = expand;
        const StreamTask ids = decodeStarsIds(static_cast<std::uint16_t>(s), static_cast<std::uint16_t>(t),
                                              static_cast<std::uint8_t>(sqe), mode);
        QCOMPARE(int(ids.stream), stream);
        QCOMPARE(int(ids.task), task);
    }

    void starsChipV6Ids()
    {
        StarsIdMode mode;
        mode.chipV6 = true;
        const StreamTask ids = decodeStarsIds(7, 2, 0, mode);
        QCOMPARE(ids.stream, 7u);
        QCOMPARE(ids.task, (2u << 16) | 7u);
    }

    void starsPairingFifo()
    {
        // One key: start 10, start 20, end 25, end 40, end 5 (an end before any start).
        StarsPairer pairer;
        const QByteArray recs[] = {
            test::acsqRecord(false, 0, 0, 3, 8, 10), test::acsqRecord(false, 1, 0, 3, 8, 20),
            test::acsqRecord(true, 2, 0, 3, 8, 25), test::acsqRecord(true, 3, 0, 3, 8, 40),
            test::acsqRecord(true, 5, 0, 3, 8, 5)};
        for (const QByteArray &r : recs)
            pairer.add(bytes(r));
        const auto tasks = pairer.finish();
        // end 5 dropped; start 10 is an orphan (end 25 comes after the next start 20); 20–25 pair; end 40
        // left.
        QCOMPARE(tasks.size(), std::size_t(1));
        QCOMPARE(tasks[0].startTicks, std::uint64_t(20));
        QCOMPARE(tasks[0].endTicks, std::uint64_t(25));
        QCOMPARE(pairer.stats().endsWithoutStart, std::size_t(2));
        QCOMPARE(pairer.stats().startsNeverEnded, std::size_t(1));
        QCOMPARE(pairer.counter().gaps, std::size_t(1)); // cnt 4 missing
        QCOMPARE(pairer.counter().missing, std::size_t(1));
    }

    void fftsContextPmuVector()
    {
        const QByteArray rec = fromHex(
            "e8 01 d3 6b 0b 00 02 00 00 00 00 00 00 00 00 00 01 00 00 00 00 80 00 00 00 00 00 00 00 00 00 00"
            "1e 6b 31 00 00 00 00 00 ff ff ff ff ff ff ff ff 97 2b 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
            "16 8a 00 00 00 00 00 00 00 00 00 00 00 00 00 00 60 00 00 00 00 00 00 00 95 5a 2e 00 00 00 00 00"
            "97 36 00 00 00 00 00 00 b4 0a 00 00 00 00 00 00 05 19 2b af 48 03 00 00 e9 22 2b af 48 03 00 "
            "00");
        QCOMPARE(rec.size(), 128);
        FftsPmuRecord r;
        QVERIFY(decodeFftsPmu(bytes(rec), r));
        QCOMPARE(int(r.funcType), 0b101000);
        QCOMPARE(int(r.cnt), 7);
        QCOMPARE(r.magic, std::uint16_t(0x6BD3));
        QCOMPARE(int(r.rawStream), 11);
        QCOMPARE(int(r.rawTask), 2);
        QCOMPARE(int(r.subTaskType), 1);
        QVERIFY(!r.overflow);
        QCOMPARE(int(r.subTaskId), 0);
        QCOMPARE(int(r.fftsType), 4);
        QVERIFY(r.core() == PmuCore::Aiv);
        QCOMPARE(r.totalCycle, std::uint64_t(3238686));
        const std::array<std::uint64_t, 8> pmu{11159, 0, 35350, 0, 96, 3037845, 13975, 2740};
        QCOMPARE(r.pmu, pmu);
        QCOMPARE(r.startTicks, std::uint64_t(3610711365893ull));
        QCOMPARE(r.endTicks, std::uint64_t(3610711368425ull));

        QByteArray over = fromHex("a8 03 d3 6b 03 00 20 04 00 00 00 00 00 00 00 00 00 04 00 00 00 00 00 00");
        over.append(QByteArray(128 - over.size(), '\0'));
        QVERIFY(decodeFftsPmu(bytes(over), r));
        QCOMPARE(int(r.funcType), 0b101000);
        QCOMPARE(int(r.cnt), 14);
        QCOMPARE(int(r.rawStream), 3);
        QCOMPARE(int(r.rawTask), 1056);
        QVERIFY(r.overflow);
    }

    void aclModuleVector()
    {
        QByteArray rec = test::aclModuleRecord(3, 46, 6, 8, 989, "test");
        // reserved 4 × u64: 8, 56, 2, 5
        test::putLe(rec, 96, 8, 8);
        test::putLe(rec, 104, 56, 8);
        test::putLe(rec, 112, 2, 8);
        test::putLe(rec, 120, 5, 8);
        QCOMPARE(rec.size(), 128);
        QCOMPARE(rec.left(10), fromHex("5a 5a 00 00 03 00 00 00 2e 00"));
        QCOMPARE(rec.mid(16, 2), fromHex("06 00"));
        QCOMPARE(rec.mid(24, 12), fromHex("08 00 00 00 dd 03 00 00 74 65 73 74"));
        AclModuleRecord r;
        QVERIFY(decodeAclModule(bytes(rec), r));
        QCOMPARE(r.name, QStringLiteral("test"));
        QCOMPARE(r.apiType, 3u);
        QCOMPARE(r.apiStart, std::uint64_t(46));
        QCOMPARE(r.apiEnd, std::uint64_t(6));
        QCOMPARE(r.processId, 8u);
        QCOMPARE(r.threadId, 989u);
    }

    void timeConversionVector()
    {
        ClockConverter c;
        c.frequency = *Frequency::parse(QStringLiteral("50"));
        c.syncTicks = 1000000;
        c.syncMonoNs = 5000000000;
        c.monoToLocalNs = monotonicToLocalOffset(1700000000000000, 4000000000);
        QCOMPARE(c.toMonotonic(1050000), TimeNs(5001000000));
        QCOMPARE(c.toLocal(1050000), TimeNs(1700000001001000000));
        QCOMPARE(formatAbsoluteMicros(c.toLocal(1050000)), QStringLiteral("1700000001001000.000"));
        QCOMPARE(c.toMonotonic(950000), TimeNs(4999000000)); // before the sync point
        QCOMPARE(monotonicToLocalOffset(1659098679447393, 876117208663770),
                 std::int64_t(1658222562238729230));
    }

    // Corrupt ticks or sync points saturate instead of overflowing (fuzz_raw found the host offset sum).
    void timeConversionSaturates()
    {
        const Frequency f = *Frequency::parse(QStringLiteral("0.001"));
        QCOMPARE(unsignedTicksToNs(~std::uint64_t(0), f), INT64_MAX);
        ClockConverter c{f, 0, INT64_MAX - 5, INT64_MAX};
        QCOMPARE(c.toMonotonic(~std::uint64_t(0)), INT64_MAX);
        QCOMPARE(c.toLocal(~std::uint64_t(0)), INT64_MAX);
        ClockConverter low{f, ~std::uint64_t(0), INT64_MIN + 5, INT64_MIN};
        QCOMPARE(low.toMonotonic(0), INT64_MIN);
        QCOMPARE(low.toLocal(0), INT64_MIN);
        QCOMPARE(monotonicToLocalOffset(INT64_MAX / 10, -5), INT64_MAX);
        QCOMPARE(monotonicToLocalOffset(INT64_MIN / 10, 5), INT64_MIN);
        QCOMPARE(saturatingAdd(INT64_MAX, 1), INT64_MAX);
        QCOMPARE(saturatingSub(INT64_MIN, 1), INT64_MIN);
        QCOMPARE(saturatingSub(5, 7), std::int64_t(-2));
    }

    void rationalFrequencies()
    {
        const auto f = Frequency::parse(QStringLiteral("49.999001"));
        QVERIFY(f);
        QCOMPARE(f->numerator, std::int64_t(49999001));
        QCOMPARE(f->denominator, std::int64_t(1000000));
        QCOMPARE(unsignedTicksToNs(49999001, *f), std::int64_t(1000000000));
        QCOMPARE(ticksToNs(-49999001, *f), std::int64_t(-1000000000));
        QVERIFY(!Frequency::parse(QString()));
        QVERIFY(!Frequency::parse(QStringLiteral("0")));
        QVERIFY(!Frequency::parse(QStringLiteral("abc")));
        QVERIFY(!Frequency::parse(QStringLiteral("-5")));
        // 2^63 ticks at 19.2 MHz stay exact in 128-bit arithmetic.
        const auto slow = Frequency::parse(QStringLiteral("19.2"));
        QCOMPARE(unsignedTicksToNs(192000000000ull, *slow), std::int64_t(10000000000000));
    }

    void sliceFilesInSliceOrderAcrossBoundaries()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // Three 64-byte records split over slices 0 (100 bytes), 2 (60 bytes) and 10 (32 + 10 trailing).
        QByteArray all;
        for (int i = 0; i < 3; ++i)
            all += test::hwtsRecord(0, i, 0, static_cast<std::uint16_t>(i + 1), 1000u + i, 1);
        all += QByteArray(10, '\x7f');
        QVERIFY(test::writeFile(dir.filePath("hwts.data.0.slice_10"), all.mid(160)));
        QVERIFY(test::writeFile(dir.filePath("hwts.data.0.slice_0"), all.left(100)));
        QVERIFY(test::writeFile(dir.filePath("hwts.data.0.slice_2"), all.mid(100, 60)));
        QVERIFY(test::writeFile(dir.filePath("hwts.data.0.slice_0.done"), "done"));
        QVERIFY(test::writeFile(dir.filePath("aging.api_event.data.slice_0"), QByteArray()));
        QVERIFY(test::writeFile(dir.filePath("unaging.api_event.data.slice_0"), QByteArray()));
        const auto streams = listSliceStreams(dir.path());
        QCOMPARE(streams.size(), std::size_t(3));
        QCOMPARE(streams[0].stream, QStringLiteral("hwts.data.0")); // "unaging" ranks with plain names
        QCOMPARE(streams[1].stream, QStringLiteral("unaging.api_event.data"));
        QCOMPARE(streams[2].stream, QStringLiteral("aging.api_event.data"));
        QCOMPARE(streams[0].files.size(), qsizetype(3));
        QVERIFY(streams[0].files[0].endsWith("slice_0"));
        QVERIFY(streams[0].files[1].endsWith("slice_2"));
        QVERIFY(streams[0].files[2].endsWith("slice_10"));
        std::vector<int> tasks;
        const StreamStats st = forEachRecord(streams[0].files, 64, [&](const unsigned char *r) {
            HwtsRecord h;
            QVERIFY(decodeHwts(r, h));
            tasks.push_back(h.taskId);
        });
        QCOMPARE(tasks, (std::vector<int>{1, 2, 3}));
        QCOMPARE(st.records, std::uint64_t(3));
        QCOMPARE(st.trailingBytes, std::uint64_t(10));
        QCOMPARE(st.bytes, std::uint64_t(202));
    }

    void pmuMetricsPipeUtilization()
    {
        const auto events = parsePmuEvents(QStringLiteral("0x8,0xa,0x9,0xb,0xc,0xd,0x54,0x55"));
        QVERIFY(events);
        QCOMPARE(*events, (std::vector<int>{8, 10, 9, 11, 12, 13, 0x54, 0x55}));
        const PmuMetricCalculator calc(*events);
        QCOMPARE(calc.names(), (QStringList{"total_cycles", "vec_ratio", "mac_ratio", "scalar_ratio",
                                            "mte1_ratio", "mte2_ratio", "mte3_ratio", "icache_miss_rate"}));
        const auto v = calc.compute(1000, {500, 250, 125, 100, 50, 10, 400, 100});
        QCOMPARE(v.size(), std::size_t(8));
        QCOMPARE(v[0], 1000.0);
        QCOMPARE(v[1], 0.5);
        QCOMPARE(v[2], 0.25);
        QCOMPARE(v[3], 0.125);
        QCOMPARE(v[4], 0.1);
        QCOMPARE(v[5], 0.05);
        QCOMPARE(v[6], 0.01);
        QCOMPARE(v[7], 0.25);
        QVERIFY(std::isnan(calc.compute(0, {1, 1, 1, 1, 1, 1, 0, 0})[1]));
        QVERIFY(!parsePmuEvents(QStringLiteral("0x8,zz")));
    }

    void pmuMetricsArithmetic()
    {
        const PmuMetricCalculator calc(
            *parsePmuEvents(QStringLiteral("0x49,0x4a,0x4b,0x4c,0x4d,0x4e,0x4f,0x50")));
        QVERIFY(calc.names().contains("cube_fops"));
        const auto v = calc.compute(100, {1, 2, 3, 4, 5, 6, 7, 0});
        const auto at = [&](const char *n) { return v[static_cast<std::size_t>(calc.names().indexOf(n))]; };
        QCOMPARE(at("vec_fp16_ratio"), 0.09);
        QCOMPARE(at("cube_fops"), 1.0 * 16 * 16 * 16 * 2 + 2.0 * 16 * 16 * 32 * 2);
        QCOMPARE(at("vector_fops"), 3.0 * 32 + 4 * 128 + 5 * 64 + 6 * 64 + 7 * 32);
    }

    // FORMATS.md §4.2 worked check (op_summary row 1 of the CANN 8 sample, MIX_AIC, Block Dim 256, Mix Block
    // Dim 512, 1800 MHz, 24 AIC / 48 AIV cores): aicore_time 12.778 µs, aiv_time 38,332.239 µs.
    void pipeTimesMatchTheWorkedCheck()
    {
        QCOMPARE(QString::number(at::raw::pipeTimeUs(535275, 1800, 256, 24), 'f', 3),
                 QStringLiteral("12.778"));
        QCOMPARE(QString::number(at::raw::pipeTimeUs(3211544685ull, 1800, 512, 48), 'f', 3),
                 QStringLiteral("38332.239"));
        QVERIFY(std::isnan(at::raw::pipeTimeUs(100, 1800, 0, 24)));
        QVERIFY(std::isnan(at::raw::pipeTimeUs(100, 0, 8, 24)));
        QVERIFY(std::isnan(at::raw::pipeTimeUs(100, 1800, 8, 0)));
    }
};

QTEST_GUILESS_MAIN(TestRawRecords)
#include "tst_raw_records.moc"
