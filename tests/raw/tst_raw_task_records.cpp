// parser/raw decoders of ts_track step trace (TsTrack), AI CPU task records (AiCpu) and msproftx records
// (MsprofTx). FORMATS.md publishes no byte vectors for these families: the hex strings below are Python
// `struct.pack` of the documented format strings ("=BBHLQQQHHHH", "HHHHQQQQQQQIIQQQQIIIHBBQ",
// "HH3IQ2HI2H4Ii5Qi156s"), so the explicit offsets are checked against an independent packer.

#include "RawRecordWriter.h"
#include "raw/AiCpu.h"
#include "raw/CannAssociation.h"
#include "raw/FlipBatches.h"
#include "raw/MsprofTx.h"
#include "raw/TaskTrack.h"
#include "raw/TsTrack.h"

#include <QTest>

using namespace at;
using namespace at::raw;
using at::test::fromHex;

namespace {

const unsigned char *bytes(const QByteArray &b)
{
    return reinterpret_cast<const unsigned char *>(b.constData());
}

// struct.pack("=BBHLQQQHHHH", 0x20, 10, 0, 0, 0x0102030405060708, 7, 3, 0x0805, 9, 4, 0)
const char *kStepTraceHex =
    "20 0a 00 00 00 00 00 00 08 07 06 05 04 03 02 01 07 00 00 00 00 00 00 00 03 00 00 00 00 "
    "00 00 00 05 08 09 00 04 00 00 00";

// struct.pack("HHHHQQQQQQQIIQQQQIIIHBBQ", 0x5A5A, 60, 12, 34, 1000, 2000000, 1100, 1300, 1350, 1900,
//             2000500, 77, 1, 11, 12, 13, 14, 2, 3, 600, 5, 1, 0, 0)
const char *kAiCpuHex = "5a 5a 3c 00 0c 00 22 00 e8 03 00 00 00 00 00 00 80 84 1e 00 00 00 00 00 4c 04 00 00 "
                        "00 00 00 00 14 05 00 00 "
                        "00 00 00 00 46 05 00 00 00 00 00 00 6c 07 00 00 00 00 00 00 74 86 1e 00 00 00 00 00 "
                        "4d 00 00 00 01 00 00 00 "
                        "0b 00 00 00 00 00 00 00 0c 00 00 00 00 00 00 00 0d 00 00 00 00 00 00 00 0e 00 00 00 "
                        "00 00 00 00 02 00 00 00 "
                        "03 00 00 00 58 02 00 00 05 00 01 00 00 00 00 00 00 00 00 00";

// struct.pack("HH3IQ2HI2H4Ii5Qi156s", 0x5A5A, 20500, 0, 9, 232, 5000100000, 1, 0, 0, 0x5A5A, 0, 1234, 9, 0,
//             2, 0, 0, 5000100000, 5000300000, 42, 0, 0, b"step 1"), first 106 bytes (the rest is zero)
const char *kTxHex =
    "5a 5a 14 50 00 00 00 00 09 00 00 00 e8 00 00 00 a0 78 07 2a 01 00 00 00 01 00 00 00 00 00 "
    "00 00 5a 5a 00 00 d2 04 00 00 09 00 00 00 00 00 00 00 02 00 00 00 00 00 00 00 00 00 00 00 "
    "00 00 00 00 a0 78 07 2a 01 00 00 00 e0 85 0a 2a 01 00 00 00 2a 00 00 00 00 00 00 00 00 00 "
    "00 00 00 00 00 00 00 00 00 00 73 74 65 70 20 31";

// struct.pack("=HHIIIQHHHHQQ", 0x5A5A, 5000, 1, 77, 40, 5000990000, 0x1002, 3, 10, 2, 0,
//             0x1122334455667788) + 16 zero bytes: device type 1 (DPU) / id 2, stream 3, task 10, batch 2
const char *kTaskTrackHex =
    "5a 5a 88 13 01 00 00 00 4d 00 00 00 28 00 00 00 30 0d 15 2a 01 00 00 00 02 10 03 00 "
    "0a 00 02 00 00 00 00 00 00 00 00 00 88 77 66 55 44 33 22 11";

QByteArray padded(const char *hex, int size)
{
    QByteArray b = fromHex(hex);
    b.append(QByteArray(size - b.size(), '\0'));
    return b;
}

} // namespace

class TestRawTaskRecords : public QObject
{
    Q_OBJECT
private slots:
    void stepTraceRecordDecodes()
    {
        const QByteArray rec = fromHex(kStepTraceHex);
        QCOMPARE(rec.size(), int(kTsTrackRecordSize));
        QCOMPARE(rec, test::tsTrackStepRecord(0x0102030405060708, 7, 3, 4, 0x0805, 9).replace(0, 1, "\x20"));
        TsTrackRecord r;
        QVERIFY(decodeTsTrack(bytes(rec), r));
        QCOMPARE(r.tag, std::uint8_t(10));
        QCOMPARE(r.timestamp, std::uint64_t(0x0102030405060708));
        QCOMPARE(r.indexId, std::uint64_t(7));
        QCOMPARE(r.modelId, std::uint64_t(3));
        QCOMPARE(r.streamId, 5u); // 11 bits of 0x0805
        QCOMPARE(r.taskId, std::uint16_t(9));
        QCOMPARE(r.tagId, kStepIterationEnd);
    }

    void flipAndBlockNumRecordsDecode()
    {
        TsTrackRecord r;
        QVERIFY(decodeTsTrack(bytes(test::tsTrackFlipRecord(500, 6, 3, 17)), r));
        QCOMPARE(r.tag, std::uint8_t(14));
        QCOMPARE(r.timestamp, std::uint64_t(500));
        QCOMPARE(r.streamId, 6u);
        QCOMPARE(r.flipNum, std::uint16_t(3));
        QCOMPARE(r.taskId, std::uint16_t(17));
        QByteArray block(40, '\0');
        test::putLe(block, 1, 15, 1);
        test::putLe(block, 16, 4, 2);
        test::putLe(block, 18, 8, 2);
        test::putLe(block, 20, 40, 4);
        QVERIFY(decodeTsTrack(bytes(block), r));
        QCOMPARE(r.blockNum, 40u);
        QCOMPARE(r.taskId, std::uint16_t(8));
        QByteArray unknown(40, '\0');
        unknown[1] = char(99);
        QVERIFY(!decodeTsTrack(bytes(unknown), r));
    }

    void iterationWindowsFromStepMarks()
    {
        TsTrackCollector c;
        // Model 1: iteration 1 has a step start; iteration 2 begins at iteration 1's end; iteration 3 never
        // ends. Model 2: one iteration without a start mark begins at its first record (FP).
        c.add(bytes(test::tsTrackStepRecord(100, 1, 1, kStepStart)));
        c.add(bytes(test::tsTrackStepRecord(120, 1, 1, kStepFp)));
        c.add(bytes(test::tsTrackStepRecord(180, 1, 1, kStepBp)));
        c.add(bytes(test::tsTrackStepRecord(200, 1, 1, kStepIterationEnd)));
        c.add(bytes(test::tsTrackStepRecord(250, 1, 1, 10000))); // all-reduce: inside, not a bound
        c.add(bytes(test::tsTrackStepRecord(300, 2, 1, kStepIterationEnd)));
        c.add(bytes(test::tsTrackStepRecord(310, 3, 1, kStepStart)));
        c.add(bytes(test::tsTrackStepRecord(50, 1, 2, kStepFp)));
        c.add(bytes(test::tsTrackStepRecord(90, 1, 2, kStepModelEnd)));
        c.add(bytes(test::tsTrackFlipRecord(95, 1, 1, 0)));
        QByteArray junk(40, '\0');
        junk[1] = char(77);
        c.add(bytes(junk));
        const auto w = c.finish();
        QCOMPARE(w.size(), std::size_t(3));
        QCOMPARE(w[0].modelId, std::uint64_t(1));
        QCOMPARE(w[0].indexId, std::uint64_t(1));
        QCOMPARE(w[0].beginTicks, std::uint64_t(100));
        QCOMPARE(w[0].endTicks, std::uint64_t(200));
        QCOMPARE(w[0].fpTicks, std::uint64_t(120));
        QCOMPARE(w[0].bpTicks, std::uint64_t(180));
        QCOMPARE(w[1].beginTicks, std::uint64_t(200));
        QCOMPARE(w[1].endTicks, std::uint64_t(300));
        QCOMPARE(w[2].modelId, std::uint64_t(2));
        QCOMPARE(w[2].beginTicks, std::uint64_t(50));
        QCOMPARE(w[2].endTicks, std::uint64_t(90));
        QCOMPARE(c.stats().records, std::size_t(11));
        QCOMPARE(c.stats().stepRecords, std::size_t(9));
        QCOMPARE(c.stats().flipRecords, std::size_t(1));
        QCOMPARE(c.stats().unknownTag, std::size_t(1));
        QCOMPARE(c.stats().iterationsWithoutEnd, std::size_t(1));
        QCOMPARE(c.stats().iterationsWithoutBegin, std::size_t(1));
    }

    void aiCpuRecordDecodes()
    {
        const QByteArray rec = fromHex(kAiCpuHex);
        QCOMPARE(rec.size(), int(kAiCpuRecordSize));
        AiCpuRecord r;
        QVERIFY(decodeAiCpu(bytes(rec), r));
        QCOMPARE(r.dataTag, kAiCpuDataTag);
        QCOMPARE(r.streamId, std::uint16_t(12));
        QCOMPARE(r.taskId, std::uint16_t(34));
        QCOMPARE(r.runStartTime, std::uint64_t(1000));
        QCOMPARE(r.runStartTick, std::uint64_t(2000000));
        QCOMPARE(r.runEndTime, std::uint64_t(1900));
        QCOMPARE(r.runEndTick, std::uint64_t(2000500));
        QCOMPARE(r.threadId, 77u);
        QCOMPARE(r.deviceId, 1u);
        QCOMPARE(r.submitTick, std::uint64_t(11));
        QCOMPARE(r.tickAfterRun, std::uint64_t(14));
        QCOMPARE(r.kernelType, 2u);
        QCOMPARE(r.dispatchTime, 3u);
        QCOMPARE(r.totalTime, 600u);
        QCOMPARE(r.fftsThreadId, std::uint16_t(5));
        QCOMPARE(r.version, std::uint8_t(1));
        QCOMPARE(r.computeTime(), std::uint64_t(200));
        QCOMPARE(r.memcpyTime(), std::uint64_t(50));
        // The test writer puts the same fields at the same offsets.
        const QByteArray w = test::aiCpuRecord(12, 34, 2000000, 2000500, 1100, 1300, 1350);
        QCOMPARE(w.mid(0, 8), rec.mid(0, 8));
        QCOMPARE(w.mid(16, 8), rec.mid(16, 8));
        QCOMPARE(w.mid(24, 24), rec.mid(24, 24));
        QCOMPARE(w.mid(56, 8), rec.mid(56, 8));
    }

    void aiCpuBadRecordsAreCounted()
    {
        AiCpuStats stats;
        AiCpuRecord r;
        QVERIFY(acceptAiCpu(bytes(test::aiCpuRecord(1, 1, 100, 200)), r, stats));
        QVERIFY(!acceptAiCpu(bytes(test::aiCpuRecord(1, 2, 100, 200, 0, 0, 0, 0x1234)), r, stats));
        QVERIFY(!acceptAiCpu(bytes(test::aiCpuRecord(1, 3, 100, 200, 0, 0, 0, 0x5A5A, 61)), r, stats));
        QVERIFY(!acceptAiCpu(bytes(test::aiCpuRecord(1, 4, 300, 200)), r, stats));
        QVERIFY(!acceptAiCpu(bytes(test::aiCpuRecord(1, 5, 0, 200)), r, stats));
        QCOMPARE(stats.records, std::size_t(5));
        QCOMPARE(stats.badMagic, std::size_t(1));
        QCOMPARE(stats.otherTag, std::size_t(1));
        QCOMPARE(stats.reversed, std::size_t(1));
        QCOMPARE(stats.noTick, std::size_t(1));
    }

    void msprofTxRecordDecodes()
    {
        const QByteArray rec = padded(kTxHex, int(kMsprofTxRecordSize));
        MsprofTxRecord r;
        QVERIFY(decodeMsprofTx(bytes(rec), r));
        QCOMPARE(r.level, std::uint16_t(20500));
        QCOMPARE(r.headerThreadId, 9u);
        QCOMPARE(r.dataLen, 232u);
        QCOMPARE(r.timeStamp, std::uint64_t(5000100000));
        QCOMPARE(r.infoType, std::uint16_t(1));
        QCOMPARE(r.segment, std::uint16_t(0));
        QCOMPARE(r.stampMagic, std::uint16_t(0x5A5A));
        QCOMPARE(r.processId, 1234u);
        QCOMPARE(r.threadId, 9u);
        QCOMPARE(r.eventType, 2u);
        QCOMPARE(r.startTime, std::uint64_t(5000100000));
        QCOMPARE(r.endTime, std::uint64_t(5000300000));
        QCOMPARE(r.markId, std::uint64_t(42));
        QCOMPARE(r.message, QByteArray("step 1"));
        const QByteArray w = test::msprofTxRecord(9, 2, 5000100000, 5000300000, 42, "step 1");
        QCOMPARE(w.mid(32, 224), rec.mid(32, 224));
        // A message filling all 156 bytes has no NUL: read up to the record end, never beyond.
        QByteArray full = rec;
        full.replace(100, 156, QByteArray(156, 'x'));
        QVERIFY(decodeMsprofTx(bytes(full), r));
        QCOMPARE(r.message.size(), 156);
    }

    void taskTrackRecordDecodes()
    {
        const QByteArray rec = padded(kTaskTrackHex, int(kTaskTrackRecordSize));
        TaskTrackRecord r;
        QVERIFY(decodeTaskTrack(bytes(rec), r));
        QCOMPARE(r.level, std::uint16_t(5000));
        QCOMPARE(r.threadId, 77u);
        QCOMPARE(r.timeStamp, std::uint64_t(5000990000));
        QCOMPARE(r.deviceId, std::uint16_t(2));
        QCOMPARE(r.deviceType, std::uint8_t(1));
        QCOMPARE(r.streamId, std::uint16_t(3));
        QCOMPARE(r.taskId, std::uint16_t(10));
        QCOMPARE(r.batchId, std::uint16_t(2));
        QCOMPARE(r.taskType, std::uint64_t(0));
        QCOMPARE(r.kernelName, std::uint64_t(0x1122334455667788));
        QCOMPARE(test::taskTrackRecord(77, 5000990000, 0x1002, 3, 10, 2, 0, 0x1122334455667788).mid(16),
                 rec.mid(16));
        // The submission at or before a start names it; before every submission, the first one does.
        HostTaskIndex index;
        index.add(0, 3, 10, 500, 2);
        index.add(0, 3, 10, 100, 1);
        index.add(0, 3, 11, 100, 3);
        index.finish();
        QCOMPARE(index.lookup(0, 3, 10, 50), std::uint64_t(1));
        QCOMPARE(index.lookup(0, 3, 10, 499), std::uint64_t(1));
        QCOMPARE(index.lookup(0, 3, 10, 500), std::uint64_t(2));
        QCOMPARE(index.lookup(0, 3, 11, 1000), std::uint64_t(3));
        QCOMPARE(index.lookup(1, 3, 10, 1000), std::uint64_t(0));
    }

    void msprofTxSegmentsJoin()
    {
        MsprofTxCollector c;
        const QByteArray first(156, 'a');
        c.add(bytes(test::msprofTxRecord(9, 2, 100, 400, 7, first, 0)));
        c.add(bytes(test::msprofTxRecord(9, 0, 150, 150, 8, "mark", 0)));
        c.add(bytes(test::msprofTxRecord(9, 2, 100, 400, 7, "tail", 1)));
        c.add(bytes(test::msprofTxRecord(9, 2, 500, 450, 9, "reversed", 0)));
        c.add(bytes(test::msprofTxRecord(9, 2, 600, 700, 10, "b", 0)));
        c.add(bytes(test::msprofTxRecord(9, 2, 600, 700, 10, "d", 2))); // segment 1 lost
        QByteArray bad = test::msprofTxRecord(9, 2, 1, 2, 11, "bad", 0);
        bad[0] = 0;
        c.add(bytes(bad));
        const auto e = c.finish();
        QCOMPARE(e.size(), std::size_t(4));
        QCOMPARE(e[0].message, QString::fromLatin1(first) + QStringLiteral("tail"));
        QCOMPARE(e[0].startTime, std::uint64_t(100));
        QCOMPARE(e[0].endTime, std::uint64_t(400));
        QCOMPARE(e[1].message, QStringLiteral("mark"));
        QCOMPARE(e[1].endTime, e[1].startTime);
        QCOMPARE(e[2].endTime, std::uint64_t(500));
        QCOMPARE(e[3].message, QStringLiteral("bd"));
        QCOMPARE(c.stats().badMagic, std::size_t(1));
        QCOMPARE(c.stats().reversed, std::size_t(1));
        QCOMPARE(c.stats().missingSegments, std::size_t(1));
    }

    // FORMATS.md §5.8: the batch is the number of flips at or before the task; a flip naming task id k > 0
    // was logged late, so earlier tasks with ids below k already belong to the next batch.
    void flipsGiveBatchIds()
    {
        at::raw::FlipBatches flips;
        flips.addFlip(3, 300, 0);
        flips.addFlip(3, 100, 0); // out of order: sorted by finish()
        flips.addFlip(3, 500, 4); // late: tasks 0..3 just before it are batch 3 already
        flips.addFlip(9, 50, 0);
        flips.finish();
        QCOMPARE(flips.batchOf(3, 65535, 50), std::uint16_t(0));
        QCOMPARE(flips.batchOf(3, 0, 100), std::uint16_t(1)); // at the flip's time: after it
        QCOMPARE(flips.batchOf(3, 7, 250), std::uint16_t(1));
        QCOMPARE(flips.batchOf(3, 65000, 400), std::uint16_t(2));
        QCOMPARE(flips.batchOf(3, 2, 450), std::uint16_t(3)); // id below the late flip's 4
        QCOMPARE(flips.batchOf(3, 4, 450), std::uint16_t(2));
        QCOMPARE(flips.batchOf(3, 5, 600), std::uint16_t(3));
        QCOMPARE(flips.batchOf(9, 1, 40), std::uint16_t(0));
        QCOMPARE(flips.batchOf(9, 1, 60), std::uint16_t(1));
        QCOMPARE(flips.batchOf(4, 1, 1000), std::uint16_t(0)); // no flips on the stream
    }

    // node_basic_info / tensor_info / hccl_info decode at the documented offsets (FORMATS.md §5.3), and
    // the tensor lists print in op_summary's notation.
    void opInfoRecordsDecode()
    {
        using namespace at::raw;
        HostRecordHeader h;
        NodeBasicInfo basic;
        QVERIFY(decodeNodeBasicInfo(
            reinterpret_cast<const unsigned char *>(
                at::test::nodeBasicInfoRecord(7, 123456, 0x1122334455667788ull, 4, 99, (3u << 16) | 20, false)
                    .constData()),
            h, basic));
        QCOMPARE(h.threadId, 7u);
        QCOMPARE(h.level, std::uint16_t(10000));
        QCOMPARE(h.timeStamp, std::uint64_t(123456));
        QCOMPARE(basic.opName, 0x1122334455667788ull);
        QCOMPARE(basic.opType, std::uint64_t(99));
        QCOMPARE(QString::fromLatin1(geTaskTypeName(basic.taskType)), QStringLiteral("MIX_AIC"));
        QCOMPARE(basic.blockDim, 20u);
        QCOMPARE(basic.mixBlockDim, 60u);
        QVERIFY(!basic.hf32);

        TensorInfo tensors;
        const QByteArray t = at::test::tensorInfoRecord(
            7, 1, 5, {{false, 2, 9, {8, 0, 16}}, {true, 29 | (16 << 8), 27, {2, 3}}, {false, 77, 200, {}}});
        QVERIFY(decodeTensorInfo(reinterpret_cast<const unsigned char *>(t.constData()), h, tensors));
        QCOMPARE(tensors.tensors.size(), std::size_t(3));
        QCOMPARE(QString::fromStdString(tensorShapes(tensors.tensors, false)), QStringLiteral("8,0,16;"));
        QCOMPARE(QString::fromStdString(tensorDataTypes(tensors.tensors, false)),
                 QStringLiteral("INT64;200"));
        QCOMPARE(QString::fromStdString(tensorFormats(tensors.tensors, false)), QStringLiteral("ND;77"));
        QCOMPARE(QString::fromStdString(tensorShapes(tensors.tensors, true)), QStringLiteral("2,3"));
        QCOMPARE(QString::fromStdString(tensorFormats(tensors.tensors, true)), QStringLiteral("FRACTAL_NZ"));
        QCOMPARE(QString::fromStdString(tensorDataTypes(tensors.tensors, true)), QStringLiteral("BF16"));

        HcclInfo hccl;
        const QByteArray c = at::test::hcclInfoRecord(8, 2, 41, 42, 3, 5, 6, 1ull << 33);
        QVERIFY(decodeHcclInfo(reinterpret_cast<const unsigned char *>(c.constData()), h, hccl));
        QCOMPARE(hccl.itemId, std::uint64_t(41));
        QCOMPARE(hccl.groupName, std::uint64_t(42));
        QCOMPARE(hccl.localRank, 3u);
        QCOMPARE(hccl.remoteRank, 5u);
        QCOMPARE(hccl.rankSize, 8u);
        QCOMPARE(hccl.planeId, 6u);
        QCOMPARE(hccl.dataSize, 1ull << 33);

        QByteArray bad = c;
        bad[0] = 0;
        QVERIFY(!decodeHcclInfo(reinterpret_cast<const unsigned char *>(bad.constData()), h, hccl));
    }
};

QTEST_GUILESS_MAIN(TestRawTaskRecords)
#include "tst_raw_task_records.moc"
