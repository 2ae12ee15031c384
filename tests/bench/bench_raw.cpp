// Raw HWTS decode throughput (issue 4 target: >= 500 MB/s of records on one core). Generates N MB of
// 64-byte hwts.data records (start/end pairs over 64 streams, task ids wrapping) into slice files, then
// times (a) a baseline pass summing the same mapped bytes as u64 words and (b) forEachRecord + HwtsPairer
// (decode, cnt check, pairing) + sort by end time, best of 3 each. Prints MB/s and the ratio to the baseline.
// Then the host association (api_event ranges, node_basic_info, task_track) of MB × 4,096 ops, the same way.
// Last, the same hwts.data slices as a PROF device folder through readRawProfile (pairing, clock, one
// "Stream N" slice with its args per task, into a TraceBuilder), best of 3, against the same baseline.
//
//   bench_raw [MB]        (default 256)

#include "folder/ProfileLayout.h"
#include "raw/CannAssociation.h"
#include "raw/HostRecords.h"
#include "raw/HwtsLog.h"
#include "raw/RawProfileReader.h"
#include "raw/SliceFiles.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <cstring>

using namespace at::raw;

namespace {

void put(unsigned char *b, int offset, std::uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; ++i)
        b[offset + i] = static_cast<unsigned char>(v >> (8 * i));
}

// Host association (FORMATS.md §5.3) at scale: `ops` ops on 8 host threads, each a Node range holding a
// Runtime range, a node_basic_info and a task_track record (208 bytes of records per op), decoded from memory
// and associated; against a baseline pass summing the same bytes. Best of 3; prints MB/s and ops/s.
void benchAssociation(std::size_t ops)
{
    std::vector<unsigned char> apis(ops * 2 * kApiEventRecordSize), compact(ops * 2 * kCompactRecordSize);
    for (std::size_t i = 0; i < ops; ++i) {
        const std::uint32_t thread = static_cast<std::uint32_t>(i % 8);
        const std::uint64_t t0 = 1000000 + (i / 8) * 1000;
        unsigned char *node = &apis[i * 2 * kApiEventRecordSize], *rt = node + kApiEventRecordSize;
        for (unsigned char *a : {node, rt}) {
            put(a, 0, 0x5A5A, 2);
            put(a, 8, thread, 4);
        }
        put(node, 2, kNodeLevel, 2);
        put(node, 16, t0, 8);
        put(node, 24, t0 + 900, 8);
        put(node, 32, 1000 + i % 977, 8);
        put(rt, 2, kRuntimeLevel, 2);
        put(rt, 16, t0 + 400, 8);
        put(rt, 24, t0 + 600, 8);
        unsigned char *basic = &compact[i * 2 * kCompactRecordSize], *track = basic + kCompactRecordSize;
        for (unsigned char *c : {basic, track}) {
            put(c, 0, 0x5A5A, 2);
            put(c, 8, thread, 4);
        }
        put(basic, 16, t0 + 100, 8);
        put(basic, 24, 1000 + i % 977, 8);
        put(track, 16, t0 + 500, 8);
        put(track, 26, thread, 2);
        put(track, 28, i & 0xFFFF, 4);
    }
    const double mb = static_cast<double>(apis.size() + compact.size()) / 1e6;
    double baseline = 1e9, associate = 1e9;
    std::uint64_t sink = 0;
    std::size_t resolved = 0;
    for (int round = 0; round < 3; ++round) {
        QElapsedTimer t;
        t.start();
        for (const auto *bytes : {&apis, &compact})
            for (std::size_t i = 0; i + 8 <= bytes->size(); i += 8) {
                std::uint64_t w;
                std::memcpy(&w, bytes->data() + i, 8);
                sink += w;
            }
        baseline = std::min(baseline, t.nsecsElapsed() / 1e9);
        t.restart();
        CannAssociation a;
        for (std::size_t i = 0; i < ops * 2; ++i) {
            ApiEventRecord rec;
            if (decodeApiEvent(&apis[i * kApiEventRecordSize], rec))
                a.addApi({rec.level, rec.threadId, rec.begin, rec.end, rec.itemId, 0, 0});
        }
        for (std::size_t i = 0; i < ops; ++i) {
            HostRecordHeader h;
            NodeBasicInfo info;
            if (decodeNodeBasicInfo(&compact[i * 2 * kCompactRecordSize], h, info))
                a.addNodeBasicInfo(h, info);
            TaskTrackRecord track;
            if (decodeTaskTrack(&compact[(i * 2 + 1) * kCompactRecordSize], track))
                a.addTask(track);
        }
        a.finish();
        associate = std::min(associate, t.nsecsElapsed() / 1e9);
        resolved = 0;
        for (const HostTask &task : a.tasks())
            resolved += task.op >= 0 ? 1 : 0;
    }
    std::printf("host association: %zu ops (%.1f MB of api_event, node_basic_info, task_track; sink %llu)\n",
                ops, mb, static_cast<unsigned long long>(sink & 1));
    std::printf("baseline (sum of the same bytes): %.0f MB/s\n", mb / baseline);
    std::printf(
        "decode + nest + attach + resolve: %.0f MB/s, %.2f M ops/s (%.2f x baseline time), %zu of %zu "
        "tasks resolved to their op\n",
        mb / associate, static_cast<double>(ops) / associate / 1e6, associate / baseline, resolved, ops);
}

// The slice files moved into PROF_bench/device_0/data (with the info.json, dev_start.log and start_info
// that put them on the clock) and decoded whole by readRawProfile, best of 3.
void benchWholeFolder(const QTemporaryDir &dir, const QStringList &files, double totalMb, double baseline)
{
    const QString prof = dir.filePath(QStringLiteral("PROF_bench")),
                  dev = prof + QStringLiteral("/device_0/data");
    QDir().mkpath(dev);
    auto write = [&](const QString &name, const QByteArray &text) {
        QFile f(dev + QLatin1Char('/') + name);
        f.open(QIODevice::WriteOnly);
        f.write(text);
    };
    write(QStringLiteral("info.json.0"),
          R"({"platform_version":"1","DeviceInfo":[{"id":0,"ai_core_num":8,"hwts_frequency":"50"}]})");
    write(QStringLiteral("dev_start.log.0"), "[Device]\nclock_monotonic_raw: 5000000000\ncntvct: 1000000\n");
    write(QStringLiteral("host_start.log.0"), "[Host]\nclock_monotonic_raw: 5000000000\ncntvct: 0\n");
    write(QStringLiteral("start_info.0"),
          R"({"collectionTimeBegin":"1700000000000000","clockMonotonicRaw":"4000000000"})");
    for (const QString &f : files)
        QFile::rename(f, dev + QLatin1Char('/') + QFileInfo(f).fileName());
    at::DataSource source;
    source.format = QStringLiteral("raw"); // RawDataReader's id; readRawProfile itself does not read it
    source.rootPath = source.profPath = prof;
    source.rawDataDirs = {dev};
    double best = 1e30;
    std::size_t slices = 0;
    for (int round = 0; round < 3; ++round) {
        QElapsedTimer t;
        t.start();
        at::TraceBuilder builder;
        builder.addGroup(at::SourceGroup{});
        at::RawReadInfo info;
        slices = at::readRawProfile(source, builder, &info);
        best = std::min(best, t.nsecsElapsed() / 1e9);
    }
    std::printf(
        "whole device folder through readRawProfile: %.0f MB/s, %.2f M tasks/s (%.2f x baseline time), "
        "%zu slices\n",
        totalMb / best, static_cast<double>(slices) / best / 1e6, best / baseline, slices);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const std::uint64_t mb = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 256;
    const std::uint64_t records = mb * 1024 * 1024 / kHwtsRecordSize / 2 * 2;
    QTemporaryDir dir;
    const std::uint64_t perSlice = 4 * 1024 * 1024 / 64 * 4 + 7; // ~16 MB slices, records straddle them
    QStringList files;
    std::vector<unsigned char> buf(64 * 4096);
    std::uint64_t written = 0;
    int cnt = 0;
    QFile *out = nullptr;
    std::uint64_t inSlice = 0;
    while (written < records) {
        const std::uint64_t n = std::min<std::uint64_t>(4096, records - written);
        std::memset(buf.data(), 0, buf.size());
        for (std::uint64_t i = 0; i < n; ++i) {
            const std::uint64_t r = written + i;
            const std::uint64_t pair = r / 2;
            unsigned char *p = buf.data() + 64 * i;
            put(p, 0, (r & 1) | ((cnt++ & 15) << 4), 1);
            put(p, 2, 0x6BD3, 2);
            put(p, 6, (pair / 64) & 0xFFFF, 2);
            put(p, 8, 1000000 + r * 10, 8);
            put(p, 16, pair % 64, 4);
        }
        std::uint64_t bytes = n * 64, off = 0;
        while (bytes) {
            if (!out || inSlice == perSlice) {
                if (out)
                    out->close();
                delete out;
                files << dir.filePath(QStringLiteral("hwts.data.0.slice_%1").arg(files.size()));
                out = new QFile(files.back());
                out->open(QIODevice::WriteOnly);
                inSlice = 0;
            }
            const std::uint64_t take = std::min(bytes, perSlice - inSlice);
            out->write(reinterpret_cast<const char *>(buf.data() + off), static_cast<qint64>(take));
            inSlice += take;
            off += take;
            bytes -= take;
        }
        written += n;
    }
    out->close();
    delete out;
    const double totalMb = static_cast<double>(records * 64) / 1e6;

    double baseline = 1e30, decode = 1e30, readOnly = 1e30;
    std::uint64_t sink = 0;
    std::size_t tasks = 0;
    double sortShare = 0;
    for (int round = 0; round < 3; ++round) {
        QElapsedTimer t;
        t.start();
        for (const QString &f : files) {
            auto m = at::MappedFile::open(f, nullptr);
            const char *d = m->data();
            std::uint64_t s = 0;
            for (std::size_t i = 0; i + 8 <= m->size(); i += 8) {
                std::uint64_t w;
                std::memcpy(&w, d + i, 8);
                s += w;
            }
            sink += s;
        }
        baseline = std::min(baseline, t.nsecsElapsed() / 1e9);
        t.restart();
        // Streaming and field reads only: the cost of forEachRecord and the explicit-offset decode.
        std::uint64_t fields = 0;
        forEachRecord(files, kHwtsRecordSize, [&](const unsigned char *r) {
            HwtsRecord rec;
            fields += decodeHwts(r, rec) ? rec.sysCnt + rec.taskId + rec.streamId : 1;
        });
        sink += fields;
        readOnly = std::min(readOnly, t.nsecsElapsed() / 1e9);
        t.restart();
        HwtsPairer pairer;
        qint64 bytes = 0; // as RawProfileReader does: reserve the task table from the slice sizes
        for (const QString &f : files)
            bytes += QFileInfo(f).size();
        pairer.reserve(static_cast<std::size_t>(bytes) / kHwtsRecordSize);
        forEachRecord(files, kHwtsRecordSize, [&](const unsigned char *r) { pairer.add(r); });
        const double paired = t.nsecsElapsed() / 1e9;
        tasks = pairer.finish().size();
        decode = std::min(decode, t.nsecsElapsed() / 1e9);
        sortShare = t.nsecsElapsed() / 1e9 - paired;
    }
    std::printf("bench_raw: %.1f MB of hwts.data (%llu records, %lld slices), %zu tasks paired (sink %llu)\n",
                totalMb, static_cast<unsigned long long>(records), static_cast<long long>(files.size()),
                tasks, static_cast<unsigned long long>(sink & 1));
    std::printf("baseline (sum of mapped u64 words): %.0f MB/s\n", totalMb / baseline);
    std::printf("forEachRecord + decodeHwts only: %.0f MB/s\n", totalMb / readOnly);
    std::printf("decode + cnt check + pairing + sort: %.0f MB/s (%.2f x baseline time)\n", totalMb / decode,
                decode / baseline);
    std::printf("  of which the final sort by end time: %.3f s\n", sortShare);
    benchAssociation(static_cast<std::size_t>(mb) * 4096); // 1 M ops for the default 256 MB
    benchWholeFolder(dir, files, totalMb, baseline);
    return tasks == records / 2 ? 0 : 1;
}
