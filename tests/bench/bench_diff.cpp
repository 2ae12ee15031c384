// The diff by framework op (core/diff, issue 30 item 4) on synthetic Kineto-like models of 10,000 and
// 100,000 framework ops per side, each leaf op launching one GPU kernel through a runtime call and an ac2g
// flow. Two shapes: "flat" (every op a root of the step: one level of n ops) and "nested" (layers of 1
// annotation + 9 ops, the same few names over and over). The comparison side drops every 1,000th op,
// renames every 997th and slows every kernel by its index mod 7 ns. Every figure is printed with its ratio to
// a baseline measured in the same run on the same models: a plain name-count diff (per op name on each side
// the count and the summed device time of its kernels, as HTA's TraceDiff does, FORMATS.md §11.8).
// usage: bench_diff [REPEATS]

#include "TraceBuilder.h"
#include "diff/OpDiff.h"

#include <QCoreApplication>
#include <QHash>

#include <cmath>
#include <cstdio>
#include <ctime>

using namespace at;

namespace {

constexpr TimeNs kBase = 1'700'000'000'000'000'000;
const char *const kNames[] = {"aten::linear", "aten::addmm", "aten::relu",   "aten::conv2d", "aten::add",
                              "aten::mul",    "aten::view",  "aten::matmul", "aten::softmax"};

// A step of `ops` framework ops (flat: all roots; nested: layer annotations of 9 ops each).
std::unique_ptr<TraceModel> syntheticModel(std::size_t ops, bool nested, bool comparison)
{
    TraceBuilder b;
    auto id = [&b](const char *s) { return b.strings().intern(s); };
    SourceGroup group;
    group.label = QStringLiteral("synthetic");
    b.addGroup(group);
    const int cpu = b.thread(b.numberKey(100), b.numberKey(1));
    const int stream = b.thread(b.numberKey(0), b.numberKey(7));
    const StringId cpuOp = id("cpu_op"), annotation = id("user_annotation"), runtime = id("cuda_runtime"),
                   kernel = id("kernel"), ac2g = id("ac2g"), launch = id("cudaLaunchKernel");
    const TimeNs opLength = 10'000, kernelLength = 4'000;
    TimeNs t = kBase;
    const TimeNs stepLength = static_cast<TimeNs>(ops) * (opLength + 1'000) + 10'000'000;
    b.addSlice(cpu, kBase - 1'000, stepLength, id("ProfilerStep#1"), annotation, kNoSource);
    std::size_t flow = 0;
    TimeNs deviceAt = kBase;
    std::size_t made = 0;
    for (std::size_t i = 0; made < ops; ++i) {
        const bool layer = nested && i % 10 == 0;
        if (layer) {
            // A layer annotation around its 9 ops.
            b.addSlice(cpu, t, 9 * (opLength + 1'000) - 1'000, id("## layer ##"), annotation, kNoSource);
            ++made;
            continue;
        }
        ++made;
        if (comparison && i % 1000 == 999) {
            t += opLength + 1'000; // the op is missing on this side
            continue;
        }
        const char *name = kNames[i % 9];
        const std::string renamed = std::string(name) + "_fused";
        const StringId nameId =
            comparison && i % 997 == 0 ? b.strings().intern(renamed) : b.strings().intern(name);
        b.addSlice(cpu, t, opLength, nameId, cpuOp, kNoSource);
        b.addSlice(cpu, t + 1'000, 2'000, launch, runtime, kNoSource);
        const TimeNs kernelStart = std::max(deviceAt, t + 3'000);
        const TimeNs length = kernelLength + (comparison ? static_cast<TimeNs>(i % 7) : 0);
        b.addSlice(stream, kernelStart, length, id("void gemm_kernel<128>(float*)"), kernel, kNoSource);
        deviceAt = kernelStart + length;
        const StringId flowId = b.strings().intern(std::to_string(++flow));
        b.addFlowHalf(FlowPhase::Start, ac2g, ac2g, flowId, cpu, t + 1'000, false);
        b.addFlowHalf(FlowPhase::End, ac2g, ac2g, flowId, stream, kernelStart, true);
        t += opLength + 1'000;
    }
    return b.build();
}

// The baseline: per op name the count and Σ device time of the kernels each op launched, both sides joined by
// name (no structure, no alignment).
std::size_t nameCountDiff(const diff::OpTree &base, const diff::OpTree &comparison)
{
    struct Totals
    {
        int baseCount = 0, comparisonCount = 0;
        TimeNs baseDevice = 0, comparisonDevice = 0;
    };
    QHash<QString, Totals> byName;
    for (const diff::FrameworkOp &op : base.ops) {
        Totals &totals = byName[op.name];
        ++totals.baseCount;
        totals.baseDevice += op.deviceSelf;
    }
    for (const diff::FrameworkOp &op : comparison.ops) {
        Totals &totals = byName[op.name];
        ++totals.comparisonCount;
        totals.comparisonDevice += op.deviceSelf;
    }
    std::size_t changed = 0;
    for (const Totals &totals : byName)
        changed += totals.baseDevice != totals.comparisonDevice ? 1 : 0;
    return changed;
}

// CPU time of this thread: the machine is shared, so wall time measures the neighbours too.
double cpuSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

class Stopwatch
{
public:
    void start() { m_at = cpuSeconds(); }
    void restart() { start(); }
    double elapsed() const { return cpuSeconds() - m_at; }

private:
    double m_at = 0;
};

double seconds(const Stopwatch &timer)
{
    return timer.elapsed();
}

struct Run
{
    double diff = 0, trees = 0, baseline = 0;
    std::size_t matched = 0, unmatched = 0;
    QString method;
};

Run measure(std::size_t ops, bool nested, int repeats)
{
    const auto base = syntheticModel(ops, nested, false);
    const auto comparison = syntheticModel(ops, nested, true);
    const diff::DiffWindow baseWindow = *diff::profilerStepWindow(*base, 1);
    const diff::DiffWindow comparisonWindow = *diff::profilerStepWindow(*comparison, 1);
    diff::DiffOptions options;
    options.readShapes = false;
    Run best{1e9, 1e9, 1e9, 0, 0, {}};
    for (int r = 0; r < repeats; ++r) {
        Stopwatch timer;
        timer.start();
        const diff::DiffResult result =
            diff::diffProfiles({base.get(), baseWindow}, {comparison.get(), comparisonWindow}, options);
        best.diff = std::min(best.diff, seconds(timer));
        best.matched = static_cast<std::size_t>(
            std::count_if(result.rows.begin(), result.rows.end(),
                          [](const diff::DiffRow &row) { return row.kind == diff::RowKind::MatchedOp; }));
        best.unmatched = result.unmatchedBase.size() + result.unmatchedComparison.size();
        best.method = result.method;

        timer.restart();
        const diff::OpTree baseTree = diff::buildOpTree(*base, baseWindow, options);
        const diff::OpTree comparisonTree = diff::buildOpTree(*comparison, comparisonWindow, options);
        best.trees = std::min(best.trees, seconds(timer));
        timer.restart();
        const std::size_t changed = nameCountDiff(baseTree, comparisonTree);
        // The baseline's own cost, plus the two trees it needs (what any per-op diff must build first).
        best.baseline = std::min(best.baseline, seconds(timer) + best.trees);
        if (changed == 0)
            std::printf("  (baseline found no change)\n");
    }
    return best;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
    std::printf(
        "bench_diff: diffProfiles of two synthetic steps (thread CPU time, best of %d) against a name-count "
        "diff of the same op trees\n",
        repeats);
    for (const bool nested : {false, true}) {
        double previous = 0;
        for (const std::size_t ops : {std::size_t(10'000), std::size_t(100'000)}) {
            const Run run = measure(ops, nested, repeats);
            std::printf("%-6s %7zu ops/side: diff %.3f s (op trees %.3f s), name-count baseline %.3f s, "
                        "diff/baseline "
                        "%.2f; matched %zu, unmatched %zu\n",
                        nested ? "nested" : "flat", ops, run.diff, run.trees, run.baseline,
                        run.diff / run.baseline, run.matched, run.unmatched);
            std::printf("       method: %s\n", qPrintable(run.method));
            if (previous > 0)
                std::printf("       10x ops: diff time x%.1f (n log n would be x%.1f)\n", run.diff / previous,
                            10.0 * std::log(100'000.0) / std::log(10'000.0));
            previous = run.diff;
        }
    }
    return 0;
}
