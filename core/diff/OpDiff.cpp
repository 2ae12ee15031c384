// The diff of two op trees: structural matching, rows, headline, accumulated delta, groups.

#include "OpDiff.h"

#include "DiffSupport.h"
#include "OpAlign.h"

#include <QCoreApplication>
#include <QHash>

#include <algorithm>
#include <cmath>
#include <map>

namespace at::diff {

namespace {

double deviceRatio(TimeNs base, TimeNs comparison)
{
    if (base == 0)
        return comparison == 0 ? 1.0 : std::numeric_limits<double>::infinity();
    return static_cast<double>(comparison) / static_cast<double>(base);
}

QString workKindName(DeviceWorkKind kind)
{
    switch (kind) {
    case DeviceWorkKind::Compute:
        return QCoreApplication::translate("Core", "device work no op launched: computing");
    case DeviceWorkKind::Communication:
        return QCoreApplication::translate("Core", "device work no op launched: communication");
    case DeviceWorkKind::Memory:
        return QCoreApplication::translate("Core", "device work no op launched: memcpy/memset");
    case DeviceWorkKind::Other:
        break;
    }
    return QCoreApplication::translate("Core", "device work no op launched: other");
}

SideHeadline headlineOf(const OpTree &tree, const QString &label)
{
    SideHeadline headline;
    headline.label = label;
    headline.stepTime = tree.spanEnd - tree.spanBegin;
    headline.opCount = tree.ops.size();
    headline.workCount = tree.work.size();
    std::vector<Interval> compute, communication, memory, all;
    for (const DeviceWork &work : tree.work) {
        const Interval interval{work.start, work.start + work.duration};
        all.push_back(interval);
        if (work.kind == DeviceWorkKind::Compute)
            compute.push_back(interval);
        else if (work.kind == DeviceWorkKind::Communication)
            communication.push_back(interval);
        else if (work.kind == DeviceWorkKind::Memory)
            memory.push_back(interval);
    }
    headline.computing = mergeIntervals(compute);
    headline.communication = mergeIntervals(communication);
    headline.communicationNotOverlapped = uncoveredLength(communication, compute);
    headline.memory = mergeIntervals(memory);
    headline.free = headline.stepTime - mergeIntervals(all);
    return headline;
}

// One side's bookkeeping while the rows are made.
struct SideState
{
    const OpTree &tree;
    const std::vector<int> &partner;
    std::vector<int> nearestMatched; // the op itself when matched, else its nearest matched ancestor, or -1
    std::vector<int> topUnmatched;   // for an unmatched op: the top of its unmatched subtree
    std::vector<int> rowOfOp;        // row of a matched op

    SideState(const OpTree &t, const std::vector<int> &p)
        : tree(t), partner(p), nearestMatched(t.ops.size(), -1), topUnmatched(t.ops.size(), -1),
          rowOfOp(t.ops.size(), -1)
    {
        for (std::size_t i = 0; i < t.ops.size(); ++i) { // pre-order: parents first
            const int parent = t.ops[i].parent;
            if (p[i] >= 0)
                nearestMatched[i] = static_cast<int>(i);
            else {
                nearestMatched[i] = parent >= 0 ? nearestMatched[static_cast<std::size_t>(parent)] : -1;
                topUnmatched[i] = parent >= 0 && p[static_cast<std::size_t>(parent)] < 0
                                      ? topUnmatched[static_cast<std::size_t>(parent)]
                                      : static_cast<int>(i);
            }
        }
    }
};

QString callPath(const OpTree &tree, int op)
{
    QStringList names;
    for (int o = op; o >= 0; o = tree.ops[static_cast<std::size_t>(o)].parent)
        names.prepend(tree.ops[static_cast<std::size_t>(o)].name);
    return names.join(QLatin1Char('/'));
}

void fillOpSide(RowSide &side, const FrameworkOp &op, int index)
{
    side.op = index;
    side.count = 1;
    side.hostNs = op.hostDuration;
    side.hostSelfNs = op.hostSelf;
    side.deviceTotalNs = op.deviceTotal;
    side.deviceUnionNs = op.deviceUnion;
}

class Differ
{
public:
    Differ(DiffResult &result, const DiffOptions &options) : m_result(result), m_options(options) {}

    void match()
    {
        const OpTree &base = m_result.baseTree, &comparison = m_result.comparisonTree;
        m_result.basePartner.assign(base.ops.size(), -1);
        m_result.comparisonPartner.assign(comparison.ops.size(), -1);
        for (const bool backward : {false, true}) {
            std::vector<int> a, b;
            for (const int r : base.roots)
                if (base.ops[static_cast<std::size_t>(r)].backward == backward)
                    a.push_back(r);
            for (const int r : comparison.roots)
                if (comparison.ops[static_cast<std::size_t>(r)].backward == backward)
                    b.push_back(r);
            m_pending.emplace_back(std::move(a), std::move(b));
        }
        while (!m_pending.empty()) {
            auto [a, b] = std::move(m_pending.back());
            m_pending.pop_back();
            matchLevel(a, b);
        }
    }

    QString method() const
    {
        QString text =
            QCoreApplication::translate(
                "Core", "ops matched by %1 inside matched parents, level by level (%2 levels)")
                .arg(m_options.matchShapes ? QCoreApplication::translate("Core", "name and input shapes")
                                           : QCoreApplication::translate("Core", "name"))
                .arg(m_levels);
        text += QCoreApplication::translate("Core", "; exact LCS on %1 differing stretch(es)")
                    .arg(m_stats.exactGaps);
        if (m_stats.anchoredGaps + m_stats.bandedGaps + m_stats.occurrenceGaps > 0)
            text +=
                QCoreApplication::translate("Core", "; long stretches: %1 cut at unique names (patience), %2 "
                                                    "aligned by a banded LCS, %3 matched by occurrence")
                    .arg(m_stats.anchoredGaps)
                    .arg(m_stats.bandedGaps)
                    .arg(m_stats.occurrenceGaps);
        return text;
    }

private:
    std::int32_t keyOf(const OpTree &tree, int op)
    {
        const FrameworkOp &o = tree.ops[static_cast<std::size_t>(op)];
        const QString key = m_options.matchShapes ? o.name + QChar(0x1f) + o.shapes : o.name;
        const auto it = m_keys.constFind(key);
        if (it != m_keys.constEnd())
            return it.value();
        const auto id = static_cast<std::int32_t>(m_keys.size());
        m_keys.insert(key, id);
        return id;
    }

    void matchLevel(const std::vector<int> &a, const std::vector<int> &b)
    {
        if (a.empty() || b.empty())
            return;
        ++m_levels;
        std::vector<std::int32_t> ka, kb;
        ka.reserve(a.size());
        kb.reserve(b.size());
        for (const int op : a)
            ka.push_back(keyOf(m_result.baseTree, op));
        for (const int op : b)
            kb.push_back(keyOf(m_result.comparisonTree, op));
        for (const auto &[i, j] : alignLevelCounted(ka, kb, m_options.exactAlignCells, m_stats)) {
            const int x = a[i], y = b[j];
            m_result.basePartner[static_cast<std::size_t>(x)] = y;
            m_result.comparisonPartner[static_cast<std::size_t>(y)] = x;
            const auto &cx = m_result.baseTree.ops[static_cast<std::size_t>(x)].children;
            const auto &cy = m_result.comparisonTree.ops[static_cast<std::size_t>(y)].children;
            if (!cx.empty() && !cy.empty())
                m_pending.emplace_back(cx, cy);
        }
    }

    DiffResult &m_result;
    const DiffOptions &m_options;
    QHash<QString, std::int32_t> m_keys;
    std::vector<std::pair<std::vector<int>, std::vector<int>>> m_pending;
    AlignStats m_stats;
    std::size_t m_levels = 0;
};

// Adds the side's special rows' values (UnmatchedOps, NotLaunched per kind, Idle, Concurrent).
struct SpecialTotals
{
    RowSide unmatched;
    std::map<DeviceWorkKind, RowSide> notLaunched;
    TimeNs idle = 0;
    TimeNs concurrent = 0;
};

// Gives every work item of a side to its row (or to the side's special totals) and lists the unmatched ops.
void distributeWork(DiffResult &result, SideState &state, bool comparisonSide, SpecialTotals &totals,
                    std::vector<UnmatchedOp> &unmatched)
{
    const OpTree &tree = state.tree;
    for (std::size_t w = 0; w < tree.work.size(); ++w) {
        const DeviceWork &work = tree.work[w];
        RowSide *side = nullptr;
        if (work.owner < 0) {
            side = &totals.notLaunched[work.kind];
            ++side->count;
        } else if (const int matched = state.nearestMatched[static_cast<std::size_t>(work.owner)];
                   matched >= 0) {
            DiffRow &row =
                result.rows[static_cast<std::size_t>(state.rowOfOp[static_cast<std::size_t>(matched)])];
            side = comparisonSide ? &row.comparison : &row.base;
        } else {
            side = &totals.unmatched;
        }
        side->deviceNs += work.duration;
        side->work.push_back(static_cast<int>(w));
    }
    for (std::size_t i = 0; i < tree.ops.size(); ++i) {
        if (state.topUnmatched[i] != static_cast<int>(i))
            continue;
        const FrameworkOp &op = tree.ops[i];
        UnmatchedOp entry;
        entry.op = static_cast<int>(i);
        entry.path = callPath(tree, static_cast<int>(i));
        entry.name = op.name;
        entry.shapes = op.shapes;
        entry.hostNs = op.hostDuration;
        entry.deviceNs = op.deviceTotal;
        const int matched = state.nearestMatched[i];
        entry.underRow = matched >= 0 ? state.rowOfOp[static_cast<std::size_t>(matched)] : -1;
        if (entry.underRow < 0) {
            ++totals.unmatched.count;
            totals.unmatched.hostNs += op.hostDuration;
            totals.unmatched.hostSelfNs += op.hostSelf;
        }
        unmatched.push_back(std::move(entry));
    }
    std::vector<Interval> all;
    TimeNs sum = 0;
    for (const DeviceWork &work : tree.work) {
        all.emplace_back(work.start, work.start + work.duration);
        sum += work.duration;
    }
    const TimeNs busy = mergeIntervals(all);
    totals.idle = (tree.spanEnd - tree.spanBegin) - busy;
    totals.concurrent = busy - sum;
}

void setSpecialSide(RowSide &side, const RowSide &value)
{
    side = value;
    side.deviceTotalNs = side.deviceNs;
}

void addSpecialRows(DiffResult &result, SpecialTotals &base, SpecialTotals &comparison)
{
    const auto finish = [&result](DiffRow row) {
        row.deltaNs = row.comparison.deviceNs - row.base.deviceNs;
        row.ratio = deviceRatio(row.base.deviceNs, row.comparison.deviceNs);
        result.rows.push_back(std::move(row));
    };
    DiffRow unmatched;
    unmatched.kind = RowKind::UnmatchedOps;
    unmatched.name = QCoreApplication::translate("Core", "ops of one side only (not under a matched op)");
    setSpecialSide(unmatched.base, base.unmatched);
    setSpecialSide(unmatched.comparison, comparison.unmatched);
    finish(std::move(unmatched));
    for (const DeviceWorkKind kind : {DeviceWorkKind::Compute, DeviceWorkKind::Communication,
                                      DeviceWorkKind::Memory, DeviceWorkKind::Other}) {
        const RowSide &b = base.notLaunched[kind];
        const RowSide &c = comparison.notLaunched[kind];
        if (b.count == 0 && c.count == 0)
            continue;
        DiffRow row;
        row.kind = RowKind::NotLaunched;
        row.workKind = kind;
        row.name = workKindName(kind);
        setSpecialSide(row.base, b);
        setSpecialSide(row.comparison, c);
        finish(std::move(row));
    }
    DiffRow idle;
    idle.kind = RowKind::Idle;
    idle.name = QCoreApplication::translate("Core", "idle (no device work)");
    idle.base.deviceNs = idle.base.deviceTotalNs = base.idle;
    idle.comparison.deviceNs = idle.comparison.deviceTotalNs = comparison.idle;
    finish(std::move(idle));
    DiffRow concurrent;
    concurrent.kind = RowKind::Concurrent;
    concurrent.name = QCoreApplication::translate("Core", "concurrent device work (counted twice above)");
    concurrent.base.deviceNs = concurrent.base.deviceTotalNs = base.concurrent;
    concurrent.comparison.deviceNs = concurrent.comparison.deviceTotalNs = comparison.concurrent;
    finish(std::move(concurrent));
}

std::vector<RowGroup> groupRows(const DiffResult &result, bool byModule)
{
    std::vector<RowGroup> groups;
    QHash<QString, std::size_t> index;
    for (const DiffRow &row : result.rows) {
        if (row.kind != RowKind::MatchedOp)
            continue;
        const QString &key = byModule ? row.module : row.name;
        auto it = index.constFind(key);
        if (it == index.constEnd()) {
            it = index.insert(key, groups.size());
            groups.push_back(RowGroup{key});
        }
        RowGroup &group = groups[it.value()];
        ++group.rows;
        group.baseCount += row.base.count;
        group.comparisonCount += row.comparison.count;
        group.baseDeviceNs += row.base.deviceNs;
        group.comparisonDeviceNs += row.comparison.deviceNs;
        group.deltaNs += row.deltaNs;
    }
    std::stable_sort(groups.begin(), groups.end(), [](const RowGroup &a, const RowGroup &b) {
        return std::llabs(a.deltaNs) > std::llabs(b.deltaNs);
    });
    return groups;
}

} // namespace

DiffResult diffProfiles(const DiffInput &base, const DiffInput &comparison, const DiffOptions &options)
{
    DiffResult result;
    if (!base.model || !comparison.model)
        return result;
    result.baseTree = buildOpTree(*base.model, base.window, options);
    result.comparisonTree = buildOpTree(*comparison.model, comparison.window, options);
    result.warnings << result.baseTree.warnings << result.comparisonTree.warnings;

    Differ differ(result, options);
    differ.match();
    result.method = differ.method();

    SideState baseState(result.baseTree, result.basePartner);
    SideState comparisonState(result.comparisonTree, result.comparisonPartner);
    for (std::size_t i = 0; i < result.baseTree.ops.size(); ++i) {
        const int partner = result.basePartner[i];
        if (partner < 0)
            continue;
        const FrameworkOp &b = result.baseTree.ops[i];
        const FrameworkOp &c = result.comparisonTree.ops[static_cast<std::size_t>(partner)];
        DiffRow row;
        row.path = callPath(result.baseTree, static_cast<int>(i));
        row.name = b.name;
        row.shapes = b.shapes.isEmpty() ? c.shapes : b.shapes;
        row.comparisonShapes = c.shapes;
        row.module = b.module.isEmpty() ? c.module : b.module;
        row.backward = b.backward;
        row.baseOffset = b.start - result.baseTree.spanBegin;
        fillOpSide(row.base, b, static_cast<int>(i));
        fillOpSide(row.comparison, c, partner);
        baseState.rowOfOp[i] = static_cast<int>(result.rows.size());
        comparisonState.rowOfOp[static_cast<std::size_t>(partner)] = static_cast<int>(result.rows.size());
        result.rows.push_back(std::move(row));
    }
    SpecialTotals baseTotals, comparisonTotals;
    distributeWork(result, baseState, false, baseTotals, result.unmatchedBase);
    distributeWork(result, comparisonState, true, comparisonTotals, result.unmatchedComparison);
    const std::size_t matchedRows = result.rows.size();
    for (DiffRow &row : result.rows) {
        row.deltaNs = row.comparison.deviceNs - row.base.deviceNs;
        row.ratio = deviceRatio(row.base.deviceNs, row.comparison.deviceNs);
    }
    addSpecialRows(result, baseTotals, comparisonTotals);

    result.base = headlineOf(result.baseTree, base.window.label);
    result.comparison = headlineOf(result.comparisonTree, comparison.window.label);

    std::vector<int> order(matchedRows);
    for (std::size_t r = 0; r < matchedRows; ++r)
        order[r] = static_cast<int>(r);
    std::stable_sort(order.begin(), order.end(), [&result](int a, int b) {
        return std::llabs(result.rows[static_cast<std::size_t>(a)].deltaNs) >
               std::llabs(result.rows[static_cast<std::size_t>(b)].deltaNs);
    });
    for (const int r : order) {
        if (static_cast<int>(result.topRows.size()) >= options.headlineOpCount)
            break;
        if (result.rows[static_cast<std::size_t>(r)].deltaNs != 0)
            result.topRows.push_back(r);
    }

    std::vector<int> byStart(matchedRows);
    for (std::size_t r = 0; r < matchedRows; ++r)
        byStart[r] = static_cast<int>(r);
    std::stable_sort(byStart.begin(), byStart.end(), [&result](int a, int b) {
        return result.rows[static_cast<std::size_t>(a)].baseOffset <
               result.rows[static_cast<std::size_t>(b)].baseOffset;
    });
    TimeNs running = 0;
    result.accumulated.reserve(matchedRows);
    for (const int r : byStart) {
        const DiffRow &row = result.rows[static_cast<std::size_t>(r)];
        running += row.deltaNs;
        result.accumulated.push_back(AccumulatedPoint{row.baseOffset, running, r});
    }
    return result;
}

std::vector<RowGroup> groupRowsByName(const DiffResult &result)
{
    return groupRows(result, false);
}

std::vector<RowGroup> groupRowsByModule(const DiffResult &result)
{
    return groupRows(result, true);
}

std::vector<SliceRef> rowSlices(const DiffResult &result, int row, bool comparisonSide)
{
    std::vector<SliceRef> slices;
    if (row < 0 || static_cast<std::size_t>(row) >= result.rows.size())
        return slices;
    const DiffRow &r = result.rows[static_cast<std::size_t>(row)];
    const RowSide &side = comparisonSide ? r.comparison : r.base;
    const OpTree &tree = comparisonSide ? result.comparisonTree : result.baseTree;
    for (const int w : side.work)
        slices.push_back(tree.work[static_cast<std::size_t>(w)].slice);
    return slices;
}

} // namespace at::diff
