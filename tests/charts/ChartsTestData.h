#pragma once

#include "TestSupport.h"
#include "TraceBuilder.h"

#include <QString>

#include <memory>

namespace at::test {

// The level1 rank0 alexnet folder: 191 kernels with PipeUtilization metrics.
inline std::unique_ptr<TraceModel> loadLevel1Rank0()
{
    return loadOrFail(samplePath(
        QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt")));
}

// The first kernel row with this exact name, or -1.
inline std::ptrdiff_t kernelRow(const TraceModel &model, const QString &name)
{
    const auto &rows = model.kernels().rows();
    for (std::size_t r = 0; r < rows.size(); ++r)
        if (model.strings().qstring(rows[r].name) == name)
            return static_cast<std::ptrdiff_t>(r);
    return -1;
}

// Every kernel row whose Accelerator Core is one of these.
inline std::vector<std::size_t> rowsWithCore(const TraceModel &model, const QStringList &cores)
{
    std::vector<std::size_t> result;
    const auto &rows = model.kernels().rows();
    for (std::size_t r = 0; r < rows.size(); ++r)
        if (cores.contains(model.strings().qstring(rows[r].acceleratorCore)))
            result.push_back(r);
    return result;
}

// A hand-built model with one metric group. Kernel rows (absolute starts, not joined unless a slice
// of the same name starts at the same time on a device or communication thread):
//   "bw_a" AI_CORE 10 us, "bw_b" AI_VECTOR_CORE 30 us, "comm" N/A 50 us joined to a slice on the
//   "Communication" process, "cpu" AI_CPU 7 us.
// group "Memory": columns aic_ub_read_bw(GB/s), aiv_ub_write_bw(GB/s), aiv_main_mem_read_bw(GB/s)
//   bw_a = 12.5, NaN, 3; bw_b = NaN, 40, 0.5; comm and cpu none.
// group "ResourceConflictRatio": aiv_vec_bank_cflt_ratio, aiv_vec_resc_cflt_ratio
//   bw_a = 0.25, 0.5; bw_b = 0.125, NaN.
inline std::unique_ptr<TraceModel> syntheticModel(const QString &group)
{
    constexpr TimeNs base = 1'736'408'883'000'000'000;
    TraceBuilder b;
    SourceGroup source;
    source.label = QStringLiteral("Rank 0 / Device 0");
    source.layout = QStringLiteral("test");
    source.timelineFiles = {QStringLiteral("trace_view.json")};
    b.addGroup(source);
    auto s = [&b](const char *text) { return b.strings().intern(text); };
    const int hw = b.process(b.numberKey(1));
    b.setProcessName(hw, s("Ascend Hardware"));
    const int stream = b.thread(b.numberKey(1), b.numberKey(2));
    b.setThreadName(stream, s("Stream 2"));
    b.addSlice(stream, base, 10'000, s("bw_a"), 0, kNoSource);
    b.addSlice(stream, base + 20'000, 30'000, s("bw_b"), 0, kNoSource);
    const int comm = b.process(b.numberKey(3));
    b.setProcessName(comm, s("Communication"));
    const int plane = b.thread(b.numberKey(3), b.numberKey(4));
    b.setThreadName(plane, s("Plane 0"));
    b.addSlice(plane, base + 60'000, 50'000, s("comm"), 0, kNoSource);

    KernelTable &k = b.kernels();
    k.setMetricGroup(0, group);
    std::vector<int> columns;
    if (group == QLatin1String("Memory")) {
        columns.push_back(k.addColumn({QStringLiteral("aic_ub_read_bw(GB/s)"), QStringLiteral("ub_read_bw"),
                                       QStringLiteral("aic"), QStringLiteral("GB/s")}));
        columns.push_back(k.addColumn({QStringLiteral("aiv_ub_write_bw(GB/s)"), QStringLiteral("ub_write_bw"),
                                       QStringLiteral("aiv"), QStringLiteral("GB/s")}));
        columns.push_back(
            k.addColumn({QStringLiteral("aiv_main_mem_read_bw(GB/s)"), QStringLiteral("main_mem_read_bw"),
                         QStringLiteral("aiv"), QStringLiteral("GB/s")}));
    } else {
        columns.push_back(
            k.addColumn({QStringLiteral("aiv_vec_bank_cflt_ratio"), QStringLiteral("vec_bank_cflt_ratio"),
                         QStringLiteral("aiv"), QString()}));
        columns.push_back(
            k.addColumn({QStringLiteral("aiv_vec_resc_cflt_ratio"), QStringLiteral("vec_resc_cflt_ratio"),
                         QStringLiteral("aiv"), QString()}));
    }
    auto row = [&](const char *name, const char *core, TimeNs start, TimeNs dur) {
        KernelRecord r;
        r.group = 0;
        r.start = base + start;
        r.duration = dur;
        r.name = s(name);
        r.type = s(name);
        r.acceleratorCore = s(core);
        r.streamId =
            std::string_view(name) == "comm" || std::string_view(name) == "cpu" ? KernelRecord::kNone : 2;
        return k.addRow(r);
    };
    const std::size_t a = row("bw_a", "AI_CORE", 0, 10'000);
    const std::size_t v = row("bw_b", "AI_VECTOR_CORE", 20'000, 30'000);
    row("comm", "N/A", 60'000, 50'000);
    row("cpu", "AI_CPU", 200'000, 7'000);
    if (group == QLatin1String("Memory")) {
        k.setMetric(a, columns[0], 12.5);
        k.setMetric(a, columns[2], 3);
        k.setMetric(v, columns[1], 40);
        k.setMetric(v, columns[2], 0.5);
    } else {
        k.setMetric(a, columns[0], 0.25);
        k.setMetric(a, columns[1], 0.5);
        k.setMetric(v, columns[0], 0.125);
    }
    return b.build();
}

} // namespace at::test
