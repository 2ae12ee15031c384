#pragma once
// The diff of two profiles by framework op (issue #30, docs/DIFF.md, FORMATS.md §11).
//
// Each side is one TraceModel and a host window of it (a ProfilerStep, or any [begin, end)). The framework
// ops of the window (cpu_op, and user_annotation on Kineto, nested per thread as the model nests them) form
// an op tree; every device kernel/task is owned by the innermost op that launched it (flows first, launch-
// time containment else). The two trees are aligned level by level (forward with forward, backward with
// backward; by name, optionally name + input shapes), recursing into matched pairs, so a repeated layer
// matches layer by layer. The result has one row per matched op, the ops of one side only, rows for the
// device time no op launched, the idle time and the time counted twice by concurrent kernels (so that every
// side's rows sum to its step time exactly), a headline and the accumulated delta over the step.
//
// Units: every time is int64 ns. Times called "start"/"begin"/"end" are relative to the side's model origin
// (TraceModel::origin()), like every other time in the model; "offset" times are relative to the side's
// window begin. "base" is the reference side, "comparison" the one compared with it (the JSON calls it
// "new"); a delta is comparison − base.

#include "TraceModel.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <vector>

namespace at::diff {

// ---- Input ----

// The part of one profile a side covers: framework ops that *start* in [begin, end) on the group's threads.
struct DiffWindow
{
    TimeNs begin = 0;
    TimeNs end = 0;
    int group = -1; // source group (TraceModel::groups()) whose threads are read; -1: every group
    QString label;  // "ProfilerStep#5", "whole profile", "[1.2 ms, 3.4 ms)"
    SliceRef step;  // the ProfilerStep#N slice of the window, when it is one (not itself an op of the tree)
};

// The ProfilerStep#N slices of a model (cpu_op or user_annotation, FORMATS.md §10.8), as windows ordered by
// group then start; empty when the profile has none.
std::vector<DiffWindow> profilerStepWindows(const TraceModel &model);
// The window of ProfilerStep#number (first group having it), or nullopt.
std::optional<DiffWindow> profilerStepWindow(const TraceModel &model, std::int64_t number);
// Everything the model has: [dataBegin, dataEnd + 1) of every group.
DiffWindow wholeProfileWindow(const TraceModel &model);

// An op's input shapes as comparable text ("32,3,224,224;64,3,11,11;64;;" : dims joined by ',', inputs
// by ';', Kineto's JSON arrays and torch_npu's ";\r\n" text written the same way), or empty when unknown.
// Core reads no files: the default lookup reads the op's args through the model's EventArgsReader
// (TraceModel::sliceArgs) and normalises "Input Dims"; a caller may pass its own.
using ShapeLookup = std::function<QString(const TraceModel &model, SliceRef op)>;
QString shapesFromArgs(const TraceModel &model, SliceRef op);
// "[[32, 3, 224, 224], [], [64]]" or "32,3,224,224;\r\n;\r\n64" → "32,3,224,224;;64" (trailing empty inputs
// dropped, so the two producers' entry counts agree).
QString normalizedShapes(const QString &inputDims);

struct DiffInput
{
    const TraceModel *model = nullptr;
    DiffWindow window;
};

struct DiffOptions
{
    bool matchShapes = false; // key = name + input shapes (else the name alone)
    ShapeLookup shapes;       // null: shapesFromArgs (only called when matchShapes, or for the rows' text)
    bool readShapes = true;   // false: never read args (rows then show no shapes unless matchShapes)
    int headlineOpCount = 10; // how many ops the headline names
    // Alignment of one level: exact LCS (Hirschberg) while the unmatched middle has at most this many
    // cells (n·m), else unique-name anchors (patience) and an n log n occurrence match (docs/DIFF.md).
    std::uint64_t exactAlignCells = 1u << 22;
};

// ---- One side's op tree ----

enum class DeviceWorkKind
{
    Compute,       // kernels and AI Core/Vector/CPU tasks
    Communication, // NCCL/HCCL kernels and communication ops
    Memory,        // memcpy / memset (gpu_memcpy, gpu_memset, MEMCPY_ASYNC, ...)
    Other          // waits, event records and other device bookkeeping tasks
};

// One piece of device work (a GPU kernel/memcpy/memset, an Ascend Hardware task, an HCCL op) in the window.
struct DeviceWork
{
    SliceRef slice;
    TimeNs start = 0;
    TimeNs duration = 0;
    DeviceWorkKind kind = DeviceWorkKind::Compute;
    int owner = -1;       // the op that launched it (index into OpTree::ops), -1: no op did
    bool viaFlow = false; // owner found through a flow (else by launch-time containment, or none)
};

struct FrameworkOp
{
    SliceRef slice;
    QString name;
    QString shapes;            // normalizedShapes text, empty when unknown / not read
    QString module;            // innermost nn.Module ("Linear_0" of "nn.Module: Linear_0"), empty when none
    int parent = -1;           // index into OpTree::ops, -1 for a root
    std::vector<int> children; // in call order (start time)
    int depth = 0;             // 0 for a root
    bool backward = false;     // on the backward (autograd) thread (FORMATS.md §11.3)
    TimeNs start = 0;
    TimeNs hostDuration = 0; // the op slice's dur
    TimeNs hostSelf = 0;     // dur minus its child ops' durations
    std::vector<int> work;   // device work it launched itself (indices into OpTree::work)
    TimeNs deviceSelf = 0;   // Σ duration of `work`
    TimeNs deviceTotal = 0;  // Σ duration of the work of its subtree (parents sum their subtree)
    TimeNs deviceUnion = 0;  // length of the union of its subtree's work intervals (≤ deviceTotal)
    int workCount = 0;       // device work items in its subtree
};

struct OpTree
{
    std::vector<FrameworkOp> ops; // pre-order: call-tree order, each thread's roots by start
    std::vector<int> roots;       // forward roots by start, then backward roots by start
    std::vector<DeviceWork> work; // every device work item of the side, by start
    // The side's span: from the window begin to the later of the window end and the last end of the work
    // its ops launched; device work no op launched counts when it starts inside the span.
    TimeNs spanBegin = 0;
    TimeNs spanEnd = 0;
    std::size_t flowLinked = 0;        // work items whose owner came from a flow
    std::size_t containmentLinked = 0; // ... from launch-time containment
    QStringList warnings;              // e.g. "no framework ops (cpu_op) in ProfilerStep#5 of FILE"
};

OpTree buildOpTree(const TraceModel &model, const DiffWindow &window, const DiffOptions &options = {});

// ---- The result ----

// The breakdown of a side's span (FORMATS.md §9.2 definitions, computed from the device work of the span):
// computing = |∪ compute work|, communication = |∪ communication work|, free = span − |∪ all work|.
struct SideHeadline
{
    QString label;       // the window's label
    TimeNs stepTime = 0; // spanEnd − spanBegin
    TimeNs computing = 0;
    TimeNs communication = 0;
    TimeNs communicationNotOverlapped = 0; // |∪ communication \ ∪ compute|
    TimeNs memory = 0;                     // |∪ memcpy/memset work|
    TimeNs free = 0;
    std::size_t opCount = 0;
    std::size_t workCount = 0;
};

// One side of a row.
struct RowSide
{
    int op = -1;       // index into that side's OpTree::ops (-1: a special row, or no op on this side)
    int count = 0;     // ops the row stands for on this side (1 for a matched op)
    TimeNs hostNs = 0; // host dur of the op(s)
    TimeNs hostSelfNs = 0;
    // The device time the row owns: Σ duration of the work launched by the op itself and by its unmatched
    // descendants that are not below another matched op (the partition every side's rows sum over).
    TimeNs deviceNs = 0;
    TimeNs deviceTotalNs = 0; // Σ duration over the op's whole subtree (what a call-tree view shows)
    TimeNs deviceUnionNs = 0; // |∪| over the whole subtree
    std::vector<int> work;    // the work behind deviceNs (indices into that side's OpTree::work)
};

enum class RowKind
{
    MatchedOp,    // an op of both sides
    UnmatchedOps, // total of the ops of one side only that lie under no matched op (listed in `unmatched`)
    NotLaunched,  // device work no op launched (communication, memcpy, ...), per DeviceWorkKind
    Idle,         // span time with no device work
    Concurrent    // minus the time counted twice by overlapping work: Σ durations − |∪|
};

struct DiffRow
{
    RowKind kind = RowKind::MatchedOp;
    DeviceWorkKind workKind = DeviceWorkKind::Compute; // for NotLaunched
    QString path;   // call path of the base op: "DistributedDataParallel.forward/aten::conv2d" (names by '/')
    QString name;   // op name (a special row: its description)
    QString shapes; // base op's shapes (the comparison's when they differ: see comparisonShapes)
    QString comparisonShapes;
    QString module; // innermost nn.Module of the base op (else the comparison's)
    bool backward = false;
    RowSide base;
    RowSide comparison;
    TimeNs deltaNs = 0; // comparison.deviceNs − base.deviceNs
    // comparison / base device time: 1 when both are 0, +infinity when only the base is 0.
    double ratio = 1.0;
    TimeNs baseOffset = 0; // base op start − base span begin (x of the accumulated delta)
};

// An op of one side only (the top of an unmatched subtree; its descendants are not listed again).
struct UnmatchedOp
{
    int op = -1; // index into that side's OpTree::ops
    QString path;
    QString name;
    QString shapes;
    TimeNs hostNs = 0;
    TimeNs deviceNs = 0; // Σ duration of its subtree's work
    int underRow = -1;   // the matched row whose deviceNs includes it, or -1 (then in the UnmatchedOps row)
};

struct AccumulatedPoint
{
    TimeNs offset = 0; // base op start − base span begin
    TimeNs delta = 0;  // running Σ of deltaNs of the matched rows up to this op (base start order)
    int row = -1;      // index into DiffResult::rows
};

// Rows of one group (an op name, or an nn.Module) with their totals.
struct RowGroup
{
    QString key;
    int rows = 0;
    int baseCount = 0;
    int comparisonCount = 0;
    TimeNs baseDeviceNs = 0;
    TimeNs comparisonDeviceNs = 0;
    TimeNs deltaNs = 0;
};

struct DiffResult
{
    OpTree baseTree;
    OpTree comparisonTree;
    // partner[i] = the op of the other side op i is matched with, or -1.
    std::vector<int> basePartner;
    std::vector<int> comparisonPartner;
    SideHeadline base;
    SideHeadline comparison;
    // Matched ops in base call-tree order, then the special rows (UnmatchedOps, NotLaunched per kind,
    // Idle, Concurrent). On each side Σ deviceNs over all rows = that side's stepTime.
    std::vector<DiffRow> rows;
    std::vector<UnmatchedOp> unmatchedBase;
    std::vector<UnmatchedOp> unmatchedComparison;
    // The matched rows that explain most of the difference: largest |deltaNs| first (ties: call order).
    std::vector<int> topRows;
    std::vector<AccumulatedPoint> accumulated;
    QString method; // how the levels were aligned, e.g. "exact LCS on every level"
    QStringList warnings;
};

DiffResult diffProfiles(const DiffInput &base, const DiffInput &comparison, const DiffOptions &options = {});

// Groups of the matched rows by op name / by module (rows without a module under ""), largest |delta| first.
std::vector<RowGroup> groupRowsByName(const DiffResult &result);
std::vector<RowGroup> groupRowsByModule(const DiffResult &result);

// The device work of a row on one side as slices (what the view selects).
std::vector<SliceRef> rowSlices(const DiffResult &result, int row, bool comparisonSide);

// ---- Alignment of one level (exposed for the tests and the benchmark) ----

// Index pairs (i into a, j into b), strictly increasing in both: a common subsequence of the key sequences.
// Exact LCS while the unmatched middle is at most exactCells; beyond, unique anchors + occurrence match.
std::vector<std::pair<std::size_t, std::size_t>> alignLevel(const std::vector<std::int32_t> &a,
                                                            const std::vector<std::int32_t> &b,
                                                            std::uint64_t exactCells = 1u << 22);

// ---- Output ----

// The --diff JSON document (docs/DIFF.md): base/new headlines, rows, unmatched, groups, top, accumulated.
// With the models, every row lists the names of its device work on each side.
QString diffJson(const DiffResult &result, const TraceModel *baseModel = nullptr,
                 const TraceModel *comparisonModel = nullptr);
// The rows, then the unmatched ops, as RFC 4180 CSV with a header (times in µs, exact decimals).
QString diffCsv(const DiffResult &result, const TraceModel *baseModel = nullptr,
                const TraceModel *comparisonModel = nullptr);

} // namespace at::diff
