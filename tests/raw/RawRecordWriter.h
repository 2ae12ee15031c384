#pragma once

// Test helpers: writes raw profiler records byte by byte from the documented layouts (FORMATS.md §5), little
// endian at explicit offsets, and lays out a synthetic PROF_* folder with config files.

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace at::test {

inline void putLe(QByteArray &b, int offset, std::uint64_t value, int bytes)
{
    for (int i = 0; i < bytes; ++i)
        b[offset + i] = static_cast<char>((value >> (8 * i)) & 0xFF);
}

// hwts.data, 64 bytes: type (0 start / 1 end), cnt, task_type, task, sys_cnt, stream.
inline QByteArray hwtsRecord(int type, int cnt, int taskType, std::uint16_t task, std::uint64_t sysCnt,
                             std::uint32_t stream)
{
    QByteArray b(64, '\0');
    putLe(b, 0, static_cast<std::uint64_t>((type & 7) | ((cnt & 15) << 4)), 1);
    putLe(b, 1, static_cast<std::uint64_t>(taskType), 1);
    putLe(b, 2, 0x6BD3, 2);
    putLe(b, 6, task, 2);
    putLe(b, 8, sysCnt, 8);
    putLe(b, 16, stream, 4);
    return b;
}

// aicore.data, 128 bytes: task, total cycles, 8 counters, stream.
inline QByteArray aicoreRecord(std::uint16_t task, std::uint32_t stream, std::uint64_t cycles,
                               const std::uint64_t (&pmu)[8])
{
    QByteArray b(128, '\0');
    putLe(b, 6, task, 2);
    putLe(b, 16, cycles, 8);
    for (int i = 0; i < 8; ++i)
        putLe(b, 32 + 8 * i, pmu[i], 8);
    putLe(b, 96, stream, 4);
    return b;
}

// stars_soc.data ACSQ start/end, 64 bytes.
inline QByteArray acsqRecord(bool end, int cnt, int sqeType, std::uint16_t stream, std::uint16_t task,
                             std::uint64_t ts)
{
    QByteArray b(64, '\0');
    putLe(b, 0, static_cast<std::uint64_t>((end ? 1 : 0) | ((cnt & 15) << 6) | ((sqeType & 63) << 10)), 2);
    putLe(b, 2, 0x6BD3, 2);
    putLe(b, 4, stream, 2);
    putLe(b, 6, task, 2);
    putLe(b, 8, ts, 8);
    return b;
}

// ffts_profile.data context PMU, 128 bytes.
inline QByteArray contextPmuRecord(int cnt, std::uint16_t stream, std::uint16_t task, int subTaskType,
                                   int fftsType, std::uint16_t subTaskId, std::uint64_t cycles,
                                   const std::uint64_t (&pmu)[8], std::uint64_t start, std::uint64_t end,
                                   bool overflow = false)
{
    QByteArray b(128, '\0');
    putLe(b, 0, static_cast<std::uint64_t>(0b101000 | ((cnt & 15) << 6)), 2);
    putLe(b, 2, 0x6BD3, 2);
    putLe(b, 4, stream, 2);
    putLe(b, 6, task, 2);
    putLe(b, 16, static_cast<std::uint64_t>((subTaskType & 0xFF) | (overflow ? 0x400 : 0)), 2);
    putLe(b, 18, subTaskId, 2);
    putLe(b, 20, static_cast<std::uint64_t>(fftsType) << 13, 2);
    putLe(b, 32, cycles, 8);
    for (int i = 0; i < 8; ++i)
        putLe(b, 48 + 8 * i, pmu[i], 8);
    putLe(b, 112, start, 8);
    putLe(b, 120, end, 8);
    return b;
}

// ffts_profile.data block PMU (funcType 101001), 128 bytes: one block of one core (coreType 1 = AIV).
inline QByteArray blockPmuRecord(int cnt, std::uint16_t stream, std::uint16_t task, int fftsType, bool onAiv,
                                 int coreId, std::uint16_t blockId, std::uint64_t cycles,
                                 const std::uint64_t (&pmu)[8], std::uint64_t start, std::uint64_t end)
{
    QByteArray b(128, '\0');
    putLe(b, 0, static_cast<std::uint64_t>(0b101001 | ((cnt & 15) << 6)), 2);
    putLe(b, 2, 0x6BD3, 2);
    putLe(b, 4, stream, 2);
    putLe(b, 6, task, 2);
    putLe(b, 20, static_cast<std::uint64_t>((onAiv ? 1 : 0) | (coreId << 1)), 1);
    putLe(b, 21, static_cast<std::uint64_t>(fftsType) << 5, 1);
    putLe(b, 30, blockId, 2);
    putLe(b, 32, cycles, 8);
    for (int i = 0; i < 8; ++i)
        putLe(b, 48 + 8 * i, pmu[i], 8);
    putLe(b, 112, start, 8);
    putLe(b, 120, end, 8);
    return b;
}

// AclModule legacy record, 128 bytes.
inline QByteArray aclModuleRecord(std::uint32_t apiType, std::uint64_t start, std::uint64_t end,
                                  std::uint32_t pid, std::uint32_t tid, const QByteArray &name)
{
    QByteArray b(128, '\0');
    putLe(b, 0, 0x5A5A, 2);
    putLe(b, 4, apiType, 4);
    putLe(b, 8, start, 8);
    putLe(b, 16, end, 8);
    putLe(b, 24, pid, 4);
    putLe(b, 28, tid, 4);
    for (int i = 0; i < name.size() && i < 64; ++i)
        b[32 + i] = name[i];
    return b;
}

// ts_track.data step trace record (tag 10), 40 bytes.
inline QByteArray tsTrackStepRecord(std::uint64_t ts, std::uint64_t indexId, std::uint64_t modelId,
                                    std::uint16_t tagId, std::uint16_t stream = 1, std::uint16_t task = 1)
{
    QByteArray b(40, '\0');
    putLe(b, 1, 10, 1);
    putLe(b, 8, ts, 8);
    putLe(b, 16, indexId, 8);
    putLe(b, 24, modelId, 8);
    putLe(b, 32, stream, 2);
    putLe(b, 34, task, 2);
    putLe(b, 36, tagId, 2);
    return b;
}

// ts_track.data task flip record (tag 14), 40 bytes.
inline QByteArray tsTrackFlipRecord(std::uint64_t ts, std::uint16_t stream, std::uint16_t flipNum,
                                    std::uint16_t task)
{
    QByteArray b(40, '\0');
    putLe(b, 1, 14, 1);
    putLe(b, 8, ts, 8);
    putLe(b, 16, stream, 2);
    putLe(b, 18, flipNum, 2);
    putLe(b, 22, task, 2);
    return b;
}

// aicpu.data, 128 bytes: magic, tag 60, stream, task, the run ticks and the compute/memcpy times.
inline QByteArray aiCpuRecord(std::uint16_t stream, std::uint16_t task, std::uint64_t startTick,
                              std::uint64_t endTick, std::uint64_t computeStart = 0,
                              std::uint64_t memcpyStart = 0, std::uint64_t memcpyEnd = 0,
                              std::uint16_t magic = 0x5A5A, std::uint16_t tag = 60)
{
    QByteArray b(128, '\0');
    putLe(b, 0, magic, 2);
    putLe(b, 2, tag, 2);
    putLe(b, 4, stream, 2);
    putLe(b, 6, task, 2);
    putLe(b, 16, startTick, 8);
    putLe(b, 24, computeStart, 8);
    putLe(b, 32, memcpyStart, 8);
    putLe(b, 40, memcpyEnd, 8);
    putLe(b, 56, endTick, 8);
    putLe(b, 64, 7, 4);  // threadId
    putLe(b, 104, 1, 4); // kernelType
    putLe(b, 118, 1, 1); // version
    return b;
}

// additional.msproftx, 256 bytes: one segment of a mark or range message.
inline QByteArray msprofTxRecord(std::uint32_t tid, std::uint32_t eventType, std::uint64_t start,
                                 std::uint64_t end, std::uint64_t markId, const QByteArray &message,
                                 std::uint16_t segment = 0)
{
    QByteArray b(256, '\0');
    putLe(b, 0, 0x5A5A, 2);
    putLe(b, 2, 20500, 2);
    putLe(b, 8, tid, 4);
    putLe(b, 12, 232, 4);
    putLe(b, 16, start, 8);
    putLe(b, 26, segment, 2);
    putLe(b, 32, 0x5A5A, 2);
    putLe(b, 36, 1234, 4);
    putLe(b, 40, tid, 4);
    putLe(b, 48, eventType, 4);
    putLe(b, 64, start, 8);
    putLe(b, 72, end, 8);
    putLe(b, 80, markId, 8);
    for (int i = 0; i < message.size() && i < 156; ++i)
        b[100 + i] = message[i];
    return b;
}

// api_event.data, 40 bytes: an API range (or an event when end is all ones).
inline QByteArray apiEventRecord(std::uint16_t level, std::uint32_t type, std::uint32_t tid,
                                 std::uint64_t begin, std::uint64_t end, std::uint64_t itemId)
{
    QByteArray b(40, '\0');
    putLe(b, 0, 0x5A5A, 2);
    putLe(b, 2, level, 2);
    putLe(b, 4, type, 4);
    putLe(b, 8, tid, 4);
    putLe(b, 16, begin, 8);
    putLe(b, 24, end, 8);
    putLe(b, 32, itemId, 8);
    return b;
}

// compact.task_track (MsprofCompactInfo + MsprofRuntimeTrack), 64 bytes.
inline QByteArray taskTrackRecord(std::uint32_t tid, std::uint64_t ts, std::uint16_t device,
                                  std::uint16_t stream, std::uint16_t task, std::uint16_t batch,
                                  std::uint64_t taskType, std::uint64_t kernelHash)
{
    QByteArray b(64, '\0');
    putLe(b, 0, 0x5A5A, 2);
    putLe(b, 2, 5000, 2);
    putLe(b, 8, tid, 4);
    putLe(b, 12, 40, 4);
    putLe(b, 16, ts, 8);
    putLe(b, 24, device, 2);
    putLe(b, 26, stream, 2);
    putLe(b, 28, task | (std::uint64_t(batch) << 16), 4);
    putLe(b, 32, taskType, 8);
    putLe(b, 40, kernelHash, 8);
    return b;
}

// The 24-byte header of compact (64 B) and additional (256 B) host records.
inline QByteArray hostRecord(int size, std::uint16_t level, std::uint32_t tid, std::uint64_t ts)
{
    QByteArray b(size, '\0');
    putLe(b, 0, 0x5A5A, 2);
    putLe(b, 2, level, 2);
    putLe(b, 8, tid, 4);
    putLe(b, 12, size - 24, 4);
    putLe(b, 16, ts, 8);
    return b;
}

// compact.node_basic_info (MsprofNodeBasicInfo), 64 bytes; blockNum packs mix (high 16) and block (low 16).
inline QByteArray nodeBasicInfoRecord(std::uint32_t tid, std::uint64_t ts, std::uint64_t opName,
                                      std::uint32_t geTaskType, std::uint64_t opType, std::uint32_t blockNum,
                                      bool hf32)
{
    QByteArray b = hostRecord(64, 10000, tid, ts);
    putLe(b, 24, opName, 8);
    putLe(b, 32, geTaskType, 4);
    putLe(b, 36, opType, 8);
    putLe(b, 44, blockNum, 4);
    putLe(b, 48, hf32 ? 1 : 0, 4);
    return b;
}

struct TensorSpec
{
    bool output;
    std::uint32_t format, dataType;
    std::vector<std::uint32_t> shape;
};

// additional.tensor_info, 256 bytes: up to 5 tensors of 11 u32 (type, format, data type, shape[8]).
inline QByteArray tensorInfoRecord(std::uint32_t tid, std::uint64_t ts, std::uint64_t opName,
                                   const std::vector<TensorSpec> &tensors)
{
    QByteArray b = hostRecord(256, 10000, tid, ts);
    putLe(b, 24, opName, 8);
    putLe(b, 32, tensors.size(), 4);
    for (std::size_t i = 0; i < tensors.size() && i < 5; ++i) {
        const int at = 36 + int(i) * 44;
        putLe(b, at, tensors[i].output ? 1 : 0, 4);
        putLe(b, at + 4, tensors[i].format, 4);
        putLe(b, at + 8, tensors[i].dataType, 4);
        for (std::size_t d = 0; d < tensors[i].shape.size() && d < 8; ++d)
            putLe(b, at + 12 + int(d) * 4, tensors[i].shape[d], 4);
    }
    return b;
}

// additional.hccl_info, 256 bytes ("HHIII4Q6IQ2Id3Q6I112B").
inline QByteArray hcclInfoRecord(std::uint32_t tid, std::uint64_t ts, std::uint64_t itemId,
                                 std::uint64_t group, std::uint32_t localRank, std::uint32_t remoteRank,
                                 std::uint32_t plane, std::uint64_t dataSize)
{
    QByteArray b = hostRecord(256, 5500, tid, ts);
    putLe(b, 24, itemId, 8);
    putLe(b, 40, group, 8);
    putLe(b, 48, localRank, 4);
    putLe(b, 52, remoteRank, 4);
    putLe(b, 56, 8, 4); // rank size
    putLe(b, 64, plane, 4);
    putLe(b, 112, dataSize, 8);
    return b;
}

// compact.hccl_op_info, 64 bytes ("HHIIIQBBQQQ" + 14 bytes).
inline QByteArray hcclOpInfoRecord(std::uint32_t tid, std::uint64_t ts, std::uint64_t algType,
                                   std::uint64_t count, std::uint64_t group)
{
    QByteArray b = hostRecord(64, 10000, tid, ts);
    putLe(b, 26, algType, 8);
    putLe(b, 34, count, 8);
    putLe(b, 42, group, 8);
    return b;
}

// Framework.task_desc_info (legacy GE, FORMATS.md §5.4), 256 bytes. A name given as text is stored as a
// string (mix type 1); otherwise the hash is stored (mix type 0).
inline QByteArray geTaskDescRecord(std::uint32_t geTaskType, const QByteArray &opName,
                                   std::uint64_t opNameHash, const QByteArray &opType,
                                   std::uint64_t opTypeHash, std::uint64_t ts, std::uint32_t blockDims,
                                   std::uint32_t stream, std::uint16_t task, std::uint16_t batch,
                                   std::uint32_t tid)
{
    QByteArray b(256, '\0');
    putLe(b, 0, 0x5A5A, 2);
    putLe(b, 2, 23, 2);
    putLe(b, 4, geTaskType, 4);
    if (opName.isEmpty()) {
        putLe(b, 16, opNameHash, 8);
    } else {
        b[8] = 1;
        b.replace(16, int(std::min<qsizetype>(opName.size(), 120)), opName.left(120));
    }
    if (opType.isEmpty()) {
        putLe(b, 144, opTypeHash, 8);
    } else {
        b[136] = 1;
        b.replace(144, int(std::min<qsizetype>(opType.size(), 56)), opType.left(56));
    }
    putLe(b, 208, ts, 8);
    putLe(b, 220, blockDims, 4);
    putLe(b, 228, stream, 4);
    putLe(b, 232, task, 2);
    putLe(b, 234, batch, 2);
    putLe(b, 236, tid, 4);
    return b;
}

inline QByteArray fromHex(const char *hex)
{
    return QByteArray::fromHex(QByteArray(hex).replace(' ', "").replace('\n', ""));
}

inline bool writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

} // namespace at::test
