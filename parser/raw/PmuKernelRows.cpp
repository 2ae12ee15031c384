#include "PmuKernelRows.h"

#include "HwtsLog.h"
#include "PmuRecords.h"
#include "config/ConfigFiles.h"

#include <QCoreApplication>
#include <QDir>

#include <array>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace at::raw {

QString PmuKernelRows::eventsOf(const DeviceContext &d, bool aiv) const
{
    const QString key =
        aiv ? QStringLiteral("aiv_profiling_events") : QStringLiteral("ai_core_profiling_events");
    const QString list = config::jsonText(d.sample.value(key));
    return list.isEmpty() && aiv
               ? config::jsonText(d.sample.value(QStringLiteral("ai_core_profiling_events")))
               : list;
}

// Columns of one core prefix ("" on HWTS chips, "aic_"/"aiv_" on STARS) for a calculator.
std::vector<int> PmuKernelRows::columnsFor(const PmuMetricCalculator &calc, const QString &core)
{
    std::vector<int> columns;
    KernelTable &table = m_out.builder().kernels();
    for (const QString &n : calc.names()) {
        KernelMetricColumn c;
        c.header = core.isEmpty() ? n : core + QLatin1Char('_') + n;
        c.name = n;
        c.core = core;
        columns.push_back(table.addColumn(c));
    }
    return columns;
}

// The `*_time(us)` columns of one core, named as kernel_details / op_summary name them.
std::vector<int> PmuKernelRows::timeColumnsFor(const PmuMetricCalculator &calc, const QString &core)
{
    std::vector<int> columns;
    KernelTable &table = m_out.builder().kernels();
    auto add = [&](const QString &header, const QString &name) {
        KernelMetricColumn c;
        c.header = header;
        c.name = name;
        c.core = core;
        c.unit = QStringLiteral("us");
        columns.push_back(table.addColumn(c));
    };
    add(core == QLatin1String("aiv") ? QStringLiteral("aiv_time(us)") : QStringLiteral("aicore_time(us)"),
        QStringLiteral("time(us)"));
    for (const QString &pipe : calc.timePipes())
        add((core.isEmpty() ? QString() : core + QLatin1Char('_')) + pipe + QStringLiteral("_time(us)"),
            pipe + QStringLiteral("_time(us)"));
    return columns;
}

// A Kernels row for a device task: from a PMU record (`pmu`, with its metric values) or, for a task
// the host describes as an op but no PMU record reached, from the op info alone.
void PmuKernelRows::addKernelRow(DeviceContext &d, std::size_t taskIndex, const QString &core,
                                 const std::vector<int> &columns, const std::vector<double> &values,
                                 bool isStars, bool pmu, const std::vector<int> &timeColumns,
                                 const std::vector<std::uint64_t> &timeCounters)
{
    const DeviceTask &t = d.tasks[taskIndex];
    KernelRecord row;
    row.group = m_out.builder().currentGroup();
    row.start = d.clock.toLocal(t.startTicks);
    row.duration = d.clock.duration(t.startTicks, t.endTicks);
    // Rows are shifted by the model origin: beyond ±2^62 ns (corrupt ticks) they are left out, as the
    // builder leaves such task slices out.
    constexpr TimeNs kTimeLimit = TimeNs(1) << 62;
    if (row.start <= -kTimeLimit || row.start >= kTimeLimit || row.duration <= -kTimeLimit ||
        row.duration >= kTimeLimit) {
        ++m_pmuOutOfRange;
        return;
    }
    const QString type =
        QString::fromLatin1(isStars ? starsSqeTypeName(static_cast<std::uint8_t>(t.taskType))
                                    : hwtsTaskTypeName(static_cast<std::uint8_t>(t.taskType)));
    row.type = m_out.builder().strings().intern(type.toStdString());
    row.name = taskIndex < d.taskNames.size() && d.taskNames[taskIndex] ? d.taskNames[taskIndex] : row.type;
    row.acceleratorCore = m_out.builder().strings().intern(core == QLatin1String("aiv") ? "AI_VECTOR_CORE"
                                                           : core.isEmpty() && !pmu     ? ""
                                                                                        : "AI_CORE");
    // What the host says of the op (node_basic_info, tensor_info): type, core, shapes, block dim.
    const OpDescription *op = nullptr;
    if (taskIndex < d.taskHost.size() && d.taskHost[taskIndex] >= 0)
        if (const int o = m_host.cann().tasks()[std::size_t(d.taskHost[taskIndex])].op; o >= 0)
            op = &m_host.cann().ops()[std::size_t(o)];
    if (op && op->haveBasic) {
        if (const QString type = m_host.text().opType(*op); !type.isEmpty())
            row.type = m_out.builder().strings().intern(type.toStdString());
        if (core.isEmpty() && *geTaskTypeName(op->basic.taskType))
            row.acceleratorCore = m_out.builder().strings().intern(geTaskTypeName(op->basic.taskType));
        row.blockDim = op->basic.blockDim;
    }
    if (op) {
        row.inputShapes = m_out.builder().strings().intern(tensorShapes(op->tensors, false));
        row.inputTypes = m_out.builder().strings().intern(tensorDataTypes(op->tensors, false));
    }
    row.streamId = t.stream;
    row.taskId = t.task;
    // Block Dim: the ts_track block-num record of the task logged last at or before its start.
    if (!d.blockNums.empty())
        if (const std::uint64_t blocks = d.blockNums.lookup(0, t.stream, t.task, clampTicks(t.startTicks)))
            row.blockDim = static_cast<std::int64_t>(std::min<std::uint64_t>(blocks, INT64_MAX));
    if (t.subtask != kNoSubtask)
        row.contextId = t.subtask;
    KernelTable &table = m_out.builder().kernels();
    // One row per task, as op_summary has: the other core of a MIX op fills the same row's columns.
    std::size_t r = 0;
    if (taskIndex < d.taskRow.size() && d.taskRow[taskIndex] >= 0) {
        r = static_cast<std::size_t>(d.taskRow[taskIndex]);
        KernelRecord &existing = table.row(r);
        const QString had = m_out.builder().strings().qstring(existing.acceleratorCore);
        if (!(op && op->haveBasic && *geTaskTypeName(op->basic.taskType)) &&
            had != m_out.builder().strings().qstring(row.acceleratorCore))
            existing.acceleratorCore = m_out.builder().strings().intern(
                had == QLatin1String("AI_VECTOR_CORE") ? "MIX_AIV" : "MIX_AIC");
    } else {
        r = table.addRow(row);
        if (taskIndex < d.taskRow.size())
            d.taskRow[taskIndex] = static_cast<int>(r);
    }
    for (std::size_t i = 0; i < columns.size() && i < values.size(); ++i)
        table.setMetric(r, columns[i], values[i]);
    if (!timeColumns.empty()) {
        // FORMATS.md §4.2: b is the block dim, or the mix block dim on the secondary core of a MIX op.
        const bool aiv = core == QLatin1String("aiv");
        std::int64_t blocks = row.blockDim;
        if (op && op->haveBasic && op->basic.mixBlockDim &&
            ((aiv && op->basic.taskType == 4) || (!aiv && op->basic.taskType == 5)))
            blocks = op->basic.mixBlockDim;
        const std::int64_t cores =
            d.deviceInfo.value(aiv ? QStringLiteral("aiv_num") : QStringLiteral("ai_core_num"))
                .toVariant()
                .toLongLong();
        const double mhz = d.aicFrequency.at(
            t.endTicks, d.deviceInfo.value(QStringLiteral("aic_frequency")).toVariant().toDouble());
        for (std::size_t i = 0; i < timeColumns.size() && i < timeCounters.size(); ++i)
            if (const double us = pipeTimeUs(timeCounters[i], mhz, blocks, cores); !std::isnan(us))
                table.setMetric(r, timeColumns[i], us);
    }
    ++(pmu ? m_out.info().pmuRows : m_out.info().opRows);
}

void PmuKernelRows::addOpRows(DeviceContext &d)
{
    for (std::size_t i = 0; i < d.tasks.size(); ++i) {
        if (d.taskRow[i] >= 0 || d.taskHost[i] < 0)
            continue;
        const int op = m_host.cann().tasks()[std::size_t(d.taskHost[i])].op;
        if (op >= 0 && m_host.cann().ops()[std::size_t(op)].haveBasic)
            addKernelRow(d, i, QString(), {}, {}, d.isStars, false);
    }
}

void PmuKernelRows::addPmuRows(DeviceContext &d, const std::vector<const SliceStreamFiles *> &aicore,
                               const std::vector<const SliceStreamFiles *> &ffts)
{
    if (aicore.empty() && ffts.empty())
        return;
    if (m_stream.stopped()) { // the load was stopped: no index of the tasks for records never read
        for (const auto *family : {&aicore, &ffts})
            for (const auto *s : *family)
                m_out.reportNotRead(m_out.streamName(d.dir, s->stream));
        return;
    }
    const QString label = m_out.shortPath(d.dir);
    const auto aicEvents = parsePmuEvents(eventsOf(d, false));
    const auto aivEvents = parsePmuEvents(eventsOf(d, true));
    if (!aicEvents || aicEvents->empty()) {
        m_out.warn(
            QStringLiteral("%1: PMU records present but sample.json has no usable ai_core_profiling_events: "
                           "metrics not decoded")
                .arg(label));
        for (const auto *s : aicore)
            m_out.notDecoded(m_out.streamName(d.dir, s->stream), s->files);
        for (const auto *s : ffts)
            m_out.notDecoded(m_out.streamName(d.dir, s->stream), s->files);
        return;
    }
    m_out.info().metricGroup = config::jsonText(d.sample.value(QStringLiteral("ai_core_metrics")));
    m_out.builder().kernels().setMetricGroup(m_out.builder().currentGroup(), m_out.info().metricGroup);
    const PmuMetricCalculator aic(*aicEvents);
    const PmuMetricCalculator aiv(aivEvents && !aivEvents->empty() ? *aivEvents : *aicEvents);
    // Index tasks by (stream, task, subtask) in end order (tasks are in end order for HWTS).
    TaskIndex byKey;
    for (std::size_t i = 0; i < d.tasks.size(); ++i)
        byKey[{d.tasks[i].stream, d.tasks[i].task, d.tasks[i].subtask}].push_back(i);
    PmuDrops drops;
    if (!aicore.empty())
        addAicorePmuRows(d, aicore, aic, byKey, drops);
    if (!ffts.empty())
        addFftsPmuRows(d, ffts, {aic, aiv}, byKey, drops);
    warnPmuDrops(label, drops);
}

void PmuKernelRows::addAicorePmuRows(DeviceContext &d, const std::vector<const SliceStreamFiles *> &aicore,
                                     const PmuMetricCalculator &aic, const TaskIndex &byKey, PmuDrops &drops)
{
    const std::vector<int> columns = columnsFor(aic, QString());
    const std::vector<int> times = timeColumnsFor(aic, QString());
    std::map<TaskKey, std::size_t> next; // FIFO position
    for (const SliceStreamFiles *s : aicore) {
        const StreamStats st =
            forEachRecord(m_stream, s->files, kAicorePmuRecordSize, [&](const unsigned char *r) {
                AicorePmuRecord rec;
                decodeAicorePmu(r, rec);
                const TaskKey key{rec.streamId, rec.taskId, kNoSubtask};
                const auto it = byKey.find(key);
                std::size_t &pos = next[key];
                if (it == byKey.end() || pos >= it->second.size()) {
                    ++drops.unmatched;
                    return;
                }
                addKernelRow(d, it->second[pos++], QString(), columns, aic.compute(rec.totalCycle, rec.pmu),
                             false, true, times, aic.timeCounters(rec.totalCycle, rec.pmu));
            });
        m_out.reportStream(m_out.streamName(d.dir, s->stream), st, kAicorePmuRecordSize);
    }
}

// The task whose interval holds the PMU end tick, else the one whose end is nearest to it.
static std::size_t taskOfPmuEnd(const DeviceContext &d, const std::vector<std::size_t> &candidates,
                                std::uint64_t endTicks)
{
    std::size_t best = candidates.front();
    std::uint64_t bestDistance = ~std::uint64_t(0);
    for (const std::size_t i : candidates) {
        const DeviceTask &t = d.tasks[i];
        if (t.startTicks <= endTicks && endTicks <= t.endTicks)
            return i;
        const std::uint64_t dist = t.endTicks > endTicks ? t.endTicks - endTicks : endTicks - t.endTicks;
        if (dist < bestDistance) {
            bestDistance = dist;
            best = i;
        }
    }
    return best;
}

void PmuKernelRows::addFftsPmuRows(DeviceContext &d, const std::vector<const SliceStreamFiles *> &ffts,
                                   const CoreCalculators &calcs, const TaskIndex &byKey, PmuDrops &drops)
{
    const CoreColumns aicColumns{columnsFor(calcs.aic, QStringLiteral("aic")),
                                 timeColumnsFor(calcs.aic, QStringLiteral("aic"))};
    const CoreColumns aivColumns{columnsFor(calcs.aiv, QStringLiteral("aiv")),
                                 timeColumnsFor(calcs.aiv, QStringLiteral("aiv"))};
    std::map<std::pair<std::size_t, bool>, BlockSum> blockSums; // (task, on AIV)
    std::set<std::pair<std::size_t, bool>> contextRows;         // (task, on AIV) with a context row
    for (const SliceStreamFiles *s : ffts) {
        const StreamStats st =
            forEachRecord(m_stream, s->files, kFftsPmuRecordSize, [&](const unsigned char *r) {
                FftsPmuRecord rec;
                if (!decodeFftsPmu(r, rec)) {
                    ++drops.bad;
                    return;
                }
                if (rec.funcType != kContextPmu && rec.funcType != kBlockPmu)
                    return;
                if (rec.overflow) {
                    ++drops.overflow;
                    return;
                }
                const StreamTask ids = decodeStarsIds(rec.rawStream, rec.rawTask, 0, d.starsMode);
                const std::uint32_t subtask = rec.fftsType == 4 ? rec.subTaskId : kNoSubtask;
                auto it = byKey.find({ids.stream, ids.task, subtask});
                if (it == byKey.end())
                    it = byKey.find({ids.stream, ids.task, kNoSubtask});
                if (it == byKey.end()) {
                    ++drops.unmatched;
                    return;
                }
                const std::size_t best = taskOfPmuEnd(d, it->second, rec.endTicks);
                if (rec.funcType == kBlockPmu) { // one block of one core: summed per task and core
                    BlockSum &sum = blockSums[{best, rec.blockOnAiv}];
                    sum.cycles += rec.totalCycle;
                    for (std::size_t i = 0; i < 8; ++i)
                        sum.pmu[i] += rec.pmu[i];
                    ++sum.blocks;
                    return;
                }
                const bool isAic = rec.isAic();
                contextRows.insert({best, !isAic});
                const PmuMetricCalculator &calc = isAic ? calcs.aic : calcs.aiv;
                const CoreColumns &columns = isAic ? aicColumns : aivColumns;
                addKernelRow(d, best, isAic ? QStringLiteral("aic") : QStringLiteral("aiv"), columns.metrics,
                             calc.compute(rec.totalCycle, rec.pmu), true, true, columns.times,
                             calc.timeCounters(rec.totalCycle, rec.pmu));
            });
        m_out.reportStream(m_out.streamName(d.dir, s->stream), st, kFftsPmuRecordSize);
    }
    // §5.9: the blocks of a MIX op's other core summed into one row of that core, unless a context
    // PMU record already gave the task's totals for it.
    for (const auto &[key, sum] : blockSums) {
        const auto &[task, onAiv] = key;
        if (contextRows.count({task, onAiv}))
            continue;
        const PmuMetricCalculator &calc = onAiv ? calcs.aiv : calcs.aic;
        const CoreColumns &columns = onAiv ? aivColumns : aicColumns;
        addKernelRow(d, task, onAiv ? QStringLiteral("aiv") : QStringLiteral("aic"), columns.metrics,
                     calc.compute(sum.cycles, sum.pmu), true, true, columns.times,
                     calc.timeCounters(sum.cycles, sum.pmu));
        m_out.info().summedBlocks += sum.blocks;
    }
}

void PmuKernelRows::warnPmuDrops(const QString &label, const PmuDrops &drops)
{
    QStringList parts;
    if (drops.unmatched)
        parts << QCoreApplication::translate("Parser", "%1 without a matching task")
                     .arg(plural(drops.unmatched, "PMU record"));
    if (drops.overflow)
        parts << QCoreApplication::translate("Parser", "%1 with the overflow flag dropped")
                     .arg(plural(drops.overflow, "PMU record"));
    if (drops.bad)
        parts << QCoreApplication::translate("Parser", "%1 with a wrong magic skipped")
                     .arg(plural(drops.bad, "PMU record"));
    if (m_pmuOutOfRange)
        parts << QCoreApplication::translate("Parser", "%1 of tasks beyond ±2^62 ns (corrupt ticks) left out")
                     .arg(plural(m_pmuOutOfRange, "PMU record"));
    m_pmuOutOfRange = 0;
    if (!parts.isEmpty())
        m_out.warn(QStringLiteral("%1: %2").arg(label, parts.join(QStringLiteral("; "))));
}

} // namespace at::raw
