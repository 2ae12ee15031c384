// One side of the diff: the framework op tree of a window and the device work each op launched.

#include "DiffSupport.h"
#include "OpDiff.h"

#include <QCoreApplication>
#include <QHash>

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace at::diff {

namespace {

constexpr std::string_view kProfilerStep = "ProfilerStep#";
constexpr std::string_view kModulePrefix = "nn.Module: ";

// The category ids of the model's string pool (StringPool::kNotFound when the profile has none, which never
// equals a slice's category).
struct Categories
{
    explicit Categories(const StringPool &pool)
        : cpuOp(pool.find("cpu_op")), userAnnotation(pool.find("user_annotation")),
          kernel(pool.find("kernel")), memcpy(pool.find("gpu_memcpy")), memset(pool.find("gpu_memset")),
          pythonFunction(pool.find("python_function"))
    {}
    bool isOp(StringId c) const { return c == cpuOp || c == userAnnotation; }
    StringId cpuOp, userAnnotation, kernel, memcpy, memset, pythonFunction;
};

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

bool containsNoCase(std::string_view text, std::string_view needle)
{
    const auto it = std::search(text.begin(), text.end(), needle.begin(), needle.end(),
                                [](char a, char b) { return std::tolower(a) == std::tolower(b); });
    return it != text.end();
}

// Launch flows: Kineto's runtime call → GPU work in every era (FORMATS.md §10.6), torch_npu's op → task.
bool isLaunchFlow(std::string_view category)
{
    return category == "ac2g" || category == "async_gpu" || category == "async_cpu_to_gpu" ||
           category == "async" || category == "async_npu";
}

// Ascend device bookkeeping tasks that are no computing (FORMATS.md §9.2).
DeviceWorkKind ascendTaskKind(std::string_view name)
{
    if (name == "MEMCPY_ASYNC" || startsWith(name, "Memcpy") || name == "SDMA")
        return DeviceWorkKind::Memory;
    if (startsWith(name, "EVENT_") || name == "Notify Wait" || name == "Notify_Wait" ||
        name == "Write Value" || startsWith(name, "PROFILING_"))
        return DeviceWorkKind::Other;
    if (startsWith(name, "hcom_") || startsWith(name, "HCCL") || startsWith(name, "hccl"))
        return DeviceWorkKind::Communication;
    return DeviceWorkKind::Compute;
}

DeviceWorkKind gpuKernelKind(std::string_view name)
{
    if (containsNoCase(name.substr(0, 4), "nccl") || containsNoCase(name, "ncclKernel") ||
        containsNoCase(name, "ncclDevKernel"))
        return DeviceWorkKind::Communication;
    return DeviceWorkKind::Compute;
}

struct ThreadFacts
{
    int group = 0;
    Layer layer = Layer::Other;
    bool communicationOps = false; // an HCCL "Group … Communication" thread (op-level slices)
};

class TreeBuilder
{
public:
    TreeBuilder(const TraceModel &model, const DiffWindow &window, const DiffOptions &options)
        : m_model(model), m_window(window), m_options(options), m_cats(model.strings())
    {
        const auto &threads = model.threads();
        m_facts.resize(threads.size());
        m_opOfSlice.resize(threads.size());
        m_workOfSlice.resize(threads.size());
        for (std::size_t t = 0; t < threads.size(); ++t) {
            const ProcessInfo &process = model.processes()[static_cast<std::size_t>(threads[t].process)];
            m_facts[t].group = process.group;
            m_facts[t].layer = process.layer;
            const std::string_view name = model.strings().view(threads[t].name);
            m_facts[t].communicationOps = process.layer == Layer::Communication &&
                                          startsWith(name, "Group") &&
                                          name.find("Communication") != std::string_view::npos;
        }
        for (const KernelRecord &row : model.kernels().rows())
            if (row.joined())
                m_groupsWithKernels.insert(row.group);
        // A group with GPU work categories is a Kineto trace: there only those categories are device work,
        // whatever layer its GPU lanes map to (never its GPU annotation lanes).
        for (std::size_t t = 0; t < threads.size(); ++t) {
            const SliceTable &table = threads[t].slices;
            for (std::uint32_t i = 0; i < table.size(); ++i) {
                const StringId c = table.category(i);
                if (c == m_cats.kernel || c == m_cats.memcpy || c == m_cats.memset) {
                    m_gpuGroups.insert(m_facts[t].group);
                    break;
                }
            }
        }
    }

    OpTree build()
    {
        collectOps();
        markBackward();
        orderOps();
        collectWork();
        attributeByFlows();
        if (m_tree.flowLinked == 0)
            attributeByContainment();
        keepWorkOfSpan();
        markHcclOwnTasks();
        computeCosts();
        if (m_tree.ops.empty())
            m_tree.warnings << QCoreApplication::translate("Core", "%1: no framework ops (cpu_op) in %2")
                                   .arg(sourceName(), m_window.label);
        return std::move(m_tree);
    }

private:
    bool inGroup(int thread) const
    {
        return m_window.group < 0 || m_facts[static_cast<std::size_t>(thread)].group == m_window.group;
    }

    QString sourceName() const
    {
        return m_model.sources().empty() ? QString() : m_model.sources().front().path;
    }

    int opOf(int thread, std::int64_t slice) const
    {
        const auto &map = m_opOfSlice[static_cast<std::size_t>(thread)];
        return map.empty() || slice < 0 ? -1 : map[static_cast<std::size_t>(slice)];
    }

    // The innermost op of the tree enclosing t on a thread (the slice there or one of its ancestors).
    int opAt(int thread, TimeNs t) const
    {
        if (thread < 0 || m_opOfSlice[static_cast<std::size_t>(thread)].empty())
            return -1;
        const SliceTable &table = m_model.threads()[static_cast<std::size_t>(thread)].slices;
        const SliceRef ref = m_model.enclosingSlice(thread, t);
        for (std::int64_t s = ref.isValid() ? ref.index : -1; s >= 0;
             s = table.parent(static_cast<std::uint32_t>(s))) {
            const int op = opOf(thread, s);
            if (op >= 0 && table.end(static_cast<std::uint32_t>(s)) >= t)
                return op;
        }
        return -1;
    }

    void collectOps()
    {
        const auto &threads = m_model.threads();
        for (std::size_t t = 0; t < threads.size(); ++t) {
            if (!inGroup(static_cast<int>(t)))
                continue;
            const SliceTable &table = threads[t].slices;
            auto &map = m_opOfSlice[t];
            for (int d = 0; d < table.depthCount(); ++d) {
                const auto last = table.depthRange(d).second;
                for (auto i = table.firstStartingAtOrAfter(d, m_window.begin);
                     i < last && table.start(i) < m_window.end; ++i) {
                    if (!m_cats.isOp(table.category(i)))
                        continue;
                    const std::string_view name = m_model.strings().view(table.name(i));
                    if (startsWith(name, kProfilerStep))
                        continue;
                    if (map.empty())
                        map.assign(table.size(), -1);
                    FrameworkOp op;
                    op.slice = SliceRef{static_cast<std::int32_t>(t), i};
                    op.name = nameText(table.name(i));
                    op.start = table.start(i);
                    op.hostDuration = table.duration(i);
                    for (std::int32_t p = table.parent(i); p >= 0;
                         p = table.parent(static_cast<std::uint32_t>(p))) {
                        const int parentOp = map[static_cast<std::size_t>(p)];
                        if (parentOp >= 0) {
                            op.parent = parentOp;
                            break;
                        }
                    }
                    op.module = moduleOf(table, i);
                    map[i] = static_cast<int>(m_ops.size());
                    m_ops.push_back(std::move(op));
                }
            }
        }
    }

    // One shared QString per distinct name (100,000 ops have a few hundred names).
    QString nameText(StringId id)
    {
        auto it = m_names.constFind(id);
        if (it == m_names.constEnd())
            it = m_names.insert(id, m_model.strings().qstring(id));
        return it.value();
    }

    // The innermost "nn.Module: X" Python frame around a slice (FORMATS.md §10.4, §11.3 item 6).
    QString moduleOf(const SliceTable &table, std::uint32_t i) const
    {
        if (m_cats.pythonFunction == StringPool::kNotFound)
            return {};
        for (std::int32_t p = table.parent(i); p >= 0; p = table.parent(static_cast<std::uint32_t>(p))) {
            const auto up = static_cast<std::uint32_t>(p);
            if (table.category(up) != m_cats.pythonFunction)
                continue;
            const std::string_view name = m_model.strings().view(table.name(up));
            if (startsWith(name, kModulePrefix)) {
                const std::string_view module = name.substr(kModulePrefix.size());
                return QString::fromUtf8(module.data(), static_cast<qsizetype>(module.size()));
            }
        }
        return {};
    }

    // The backward thread: where fwdbwd flows end (FORMATS.md §11.3), else a thread named like autograd's.
    void markBackward()
    {
        std::unordered_set<int> backwardThreads;
        const StringId fwdbwd = m_model.strings().find("fwdbwd");
        for (const FlowInfo &flow : m_model.flows())
            if (flow.category == fwdbwd && flow.to.isValid() && flow.from.isValid() &&
                flow.to.thread != flow.from.thread && inGroup(flow.to.thread))
                backwardThreads.insert(flow.to.thread);
        if (backwardThreads.empty()) {
            for (std::size_t t = 0; t < m_model.threads().size(); ++t)
                if (!m_opOfSlice[t].empty() &&
                    containsNoCase(m_model.strings().view(m_model.threads()[t].name), "autograd"))
                    backwardThreads.insert(static_cast<int>(t));
        }
        for (FrameworkOp &op : m_ops)
            op.backward = backwardThreads.count(op.slice.thread) > 0;
    }

    // Pre-order: forward roots by start, then backward roots by start; children by start.
    void orderOps()
    {
        std::vector<std::vector<int>> children(m_ops.size());
        std::vector<int> roots;
        for (std::size_t i = 0; i < m_ops.size(); ++i) {
            if (m_ops[i].parent >= 0)
                children[static_cast<std::size_t>(m_ops[i].parent)].push_back(static_cast<int>(i));
            else
                roots.push_back(static_cast<int>(i));
        }
        const auto byStart = [this](int a, int b) {
            const FrameworkOp &x = m_ops[static_cast<std::size_t>(a)],
                              &y = m_ops[static_cast<std::size_t>(b)];
            if (x.backward != y.backward)
                return !x.backward;
            if (x.start != y.start)
                return x.start < y.start;
            if (x.slice.thread != y.slice.thread)
                return x.slice.thread < y.slice.thread;
            return x.slice.index < y.slice.index;
        };
        std::sort(roots.begin(), roots.end(), byStart);
        for (auto &list : children)
            std::sort(list.begin(), list.end(), byStart);

        std::vector<int> newIndex(m_ops.size(), -1);
        std::vector<int> order;
        order.reserve(m_ops.size());
        std::vector<std::pair<int, int>> stack; // (old index, depth)
        for (auto r = roots.rbegin(); r != roots.rend(); ++r)
            stack.emplace_back(*r, 0);
        while (!stack.empty()) {
            const auto [old, depth] = stack.back();
            stack.pop_back();
            newIndex[static_cast<std::size_t>(old)] = static_cast<int>(order.size());
            order.push_back(old);
            m_ops[static_cast<std::size_t>(old)].depth = depth;
            const auto &list = children[static_cast<std::size_t>(old)];
            for (auto c = list.rbegin(); c != list.rend(); ++c)
                stack.emplace_back(*c, depth + 1);
        }
        m_tree.ops.reserve(m_ops.size());
        for (const int old : order) {
            FrameworkOp op = std::move(m_ops[static_cast<std::size_t>(old)]);
            if (op.parent >= 0)
                op.parent = newIndex[static_cast<std::size_t>(op.parent)];
            for (const int c : children[static_cast<std::size_t>(old)])
                op.children.push_back(newIndex[static_cast<std::size_t>(c)]);
            m_tree.ops.push_back(std::move(op));
        }
        for (const int r : roots)
            m_tree.roots.push_back(newIndex[static_cast<std::size_t>(r)]);
        for (auto &map : m_opOfSlice)
            for (int &op : map)
                if (op >= 0)
                    op = newIndex[static_cast<std::size_t>(op)];
        m_ops.clear();
    }

    // What kind of device work a slice is, or nullopt when it is none (FORMATS.md §10.4, §2, §9.2).
    std::optional<DeviceWorkKind> workKind(std::size_t thread, std::uint32_t i) const
    {
        const SliceTable &table = m_model.threads()[thread].slices;
        const StringId category = table.category(i);
        const std::string_view name = m_model.strings().view(table.name(i));
        if (category == m_cats.kernel)
            return gpuKernelKind(name);
        if (category == m_cats.memcpy || category == m_cats.memset)
            return DeviceWorkKind::Memory;
        const ThreadFacts &facts = m_facts[thread];
        if (category != 0 || m_gpuGroups.count(facts.group) > 0)
            return std::nullopt; // gpu_user_annotation, runtime calls, ops, ...
        if (facts.layer == Layer::DeviceStreams || facts.layer == Layer::AiCpu) {
            if (startsWith(name, "PROFILING_"))
                return std::nullopt; // profiler on/off markers
            const DeviceWorkKind kind = ascendTaskKind(name);
            // With a kernel table, computing is what it lists (FORMATS.md §9.2: compute tasks are the
            // kernel_details / COMPUTE_TASK_INFO rows; HCCL's own tasks are not among them).
            if (kind == DeviceWorkKind::Compute && m_groupsWithKernels.count(facts.group) > 0 &&
                m_model.kernels().rowOfSlice(static_cast<std::int32_t>(thread), i) < 0)
                return DeviceWorkKind::Other;
            return kind;
        }
        if (facts.communicationOps)
            return DeviceWorkKind::Communication;
        return std::nullopt;
    }

    void collectWork()
    {
        const auto &threads = m_model.threads();
        std::vector<Interval> communicationOps;
        for (std::size_t t = 0; t < threads.size(); ++t) {
            if (!inGroup(static_cast<int>(t)))
                continue;
            const SliceTable &table = threads[t].slices;
            for (std::uint32_t i = 0; i < table.size(); ++i) {
                const auto kind = workKind(t, i);
                if (!kind)
                    continue;
                DeviceWork work;
                work.slice = SliceRef{static_cast<std::int32_t>(t), i};
                work.start = table.start(i);
                work.duration = table.duration(i);
                work.kind = *kind;
                if (m_facts[t].communicationOps)
                    communicationOps.emplace_back(work.start, work.start + work.duration);
                auto &index = m_workOfSlice[t];
                if (index.empty())
                    index.assign(table.size(), -1);
                index[i] = static_cast<int>(m_work.size());
                m_work.push_back(work);
            }
        }
        mergeIntervals(communicationOps);
        m_communicationOps = std::move(communicationOps);
    }

    // The device work starting exactly at t on a thread (what a flow's finish names), else the bound slice.
    int workAt(const FlowInfo &flow) const
    {
        if (!flow.to.isValid())
            return -1;
        const SliceTable &table = m_model.threads()[static_cast<std::size_t>(flow.to.thread)].slices;
        for (int d = 0; d < table.depthCount(); ++d) {
            const auto last = table.depthRange(d).second;
            for (auto i = table.firstStartingAtOrAfter(d, flow.toTime);
                 i < last && table.start(i) == flow.toTime; ++i) {
                if (const int work = workOf(SliceRef{flow.to.thread, i}); work >= 0)
                    return work;
            }
        }
        return workOf(flow.to);
    }

    int workOf(SliceRef ref) const
    {
        const auto &index = m_workOfSlice[static_cast<std::size_t>(ref.thread)];
        return index.empty() ? -1 : index[ref.index];
    }

    // The framework thread of the same group and tid as a CANN thread (torch_npu writes both per OS thread).
    int frameworkTwin(int thread) const
    {
        const ThreadInfo &info = m_model.threads()[static_cast<std::size_t>(thread)];
        const int group = m_facts[static_cast<std::size_t>(thread)].group;
        for (std::size_t t = 0; t < m_model.threads().size(); ++t)
            if (static_cast<int>(t) != thread && m_facts[t].group == group &&
                m_facts[t].layer == Layer::Framework && m_model.threads()[t].tid == info.tid)
                return static_cast<int>(t);
        return -1;
    }

    // HostToDevice fallback (FORMATS.md §11.5): CANN launch → the op around it on the framework twin thread,
    // or through the task queue (Dequeue ← async_task_queue ← Enqueue) the op around the Enqueue.
    int opOfCannLaunch(const FlowInfo &flow) const
    {
        const int twin = frameworkTwin(flow.from.thread);
        if (twin < 0)
            return -1;
        if (const int op = opAt(twin, flow.fromTime); op >= 0)
            return op;
        const SliceRef dequeue = m_model.enclosingSlice(twin, flow.fromTime);
        if (!dequeue.isValid())
            return -1;
        const StringId queue = m_model.strings().find("async_task_queue");
        const SliceTable &table = m_model.threads()[static_cast<std::size_t>(twin)].slices;
        for (std::int64_t s = dequeue.index; s >= 0; s = table.parent(static_cast<std::uint32_t>(s))) {
            for (const std::uint32_t f : m_model.flowsTo(SliceRef{twin, static_cast<std::uint32_t>(s)})) {
                const FlowInfo &link = m_model.flows()[f];
                if (link.category == queue && link.from.isValid())
                    if (const int op = opAt(link.from.thread, link.fromTime); op >= 0)
                        return op;
            }
        }
        return -1;
    }

    void attributeByFlows()
    {
        const StringPool &pool = m_model.strings();
        const StringId hostToDevice = pool.find("HostToDevice");
        std::vector<const FlowInfo *> fallback;
        for (const FlowInfo &flow : m_model.flows()) {
            if (!flow.from.isValid() || !flow.to.isValid() || !inGroup(flow.to.thread))
                continue;
            if (flow.category == hostToDevice) {
                fallback.push_back(&flow);
                continue;
            }
            if (!isLaunchFlow(pool.view(flow.category)))
                continue;
            const int work = workAt(flow);
            if (work < 0 || m_work[static_cast<std::size_t>(work)].owner >= 0)
                continue;
            const int op = opAt(flow.from.thread, flow.fromTime);
            link(work, op);
        }
        for (const FlowInfo *flow : fallback) {
            const int work = workAt(*flow);
            if (work < 0 || m_work[static_cast<std::size_t>(work)].owner >= 0)
                continue;
            link(work, opOfCannLaunch(*flow));
        }
    }

    void link(int work, int op)
    {
        if (op < 0)
            return;
        DeviceWork &w = m_work[static_cast<std::size_t>(work)];
        w.owner = op;
        w.viaFlow = true;
        ++m_tree.flowLinked;
    }

    // Without any launch flow: the innermost op whose host span contains the work's start (FORMATS.md §10.7's
    // last resort). Forward ops first, so a kernel is given to the op on the main thread.
    void attributeByContainment()
    {
        std::vector<int> opThreads;
        for (std::size_t t = 0; t < m_opOfSlice.size(); ++t)
            if (!m_opOfSlice[t].empty())
                opThreads.push_back(static_cast<int>(t));
        for (DeviceWork &work : m_work) {
            int best = -1;
            for (const int thread : opThreads) {
                const int op = opAt(thread, work.start);
                if (op >= 0 && (best < 0 || m_tree.ops[static_cast<std::size_t>(op)].depth >
                                                m_tree.ops[static_cast<std::size_t>(best)].depth))
                    best = op;
            }
            if (best >= 0) {
                work.owner = best;
                ++m_tree.containmentLinked;
            }
        }
    }

    // Keeps the work the window's ops launched and the work no op launched that starts in the span; drops
    // the plane tasks of HCCL ops (their op slice stands for them, FORMATS.md §9.2).
    void keepWorkOfSpan()
    {
        TimeNs spanEnd = m_window.end;
        TimeNs spanBegin = m_window.begin;
        for (const DeviceWork &work : m_work)
            if (work.owner >= 0) {
                spanEnd = std::max(spanEnd, work.start + work.duration);
                spanBegin = std::min(spanBegin, work.start);
            }
        std::vector<DeviceWork> kept;
        for (const DeviceWork &work : m_work) {
            if (work.owner < 0) {
                if (work.start < m_window.begin || work.start >= spanEnd)
                    continue;
                if (insideCommunicationOp(work))
                    continue;
            }
            kept.push_back(work);
        }
        std::sort(kept.begin(), kept.end(), [](const DeviceWork &a, const DeviceWork &b) {
            if (a.start != b.start)
                return a.start < b.start;
            if (a.slice.thread != b.slice.thread)
                return a.slice.thread < b.slice.thread;
            return a.slice.index < b.slice.index;
        });
        for (const DeviceWork &work : kept)
            spanEnd = std::max(spanEnd, work.start + work.duration);
        m_tree.work = std::move(kept);
        m_tree.spanBegin = spanBegin;
        m_tree.spanEnd = spanEnd;
        m_work.clear();
        m_workOfSlice.clear();
    }

    // An Ascend task no op launched that overlaps an HCCL op: one of the op's plane tasks (Notify Wait, SDMA,
    // Write Value, ...), which the op slice stands for (FORMATS.md §9.2 never counts plane tasks).
    bool insideCommunicationOp(const DeviceWork &work) const
    {
        const auto &facts = m_facts[static_cast<std::size_t>(work.slice.thread)];
        if (facts.communicationOps || (facts.layer != Layer::DeviceStreams && facts.layer != Layer::AiCpu))
            return false;
        const TimeNs end = work.start + work.duration;
        // The first op ending after the task starts; it overlaps when it also starts before the task ends.
        const auto it = std::upper_bound(m_communicationOps.begin(), m_communicationOps.end(), work.start,
                                         [](TimeNs t, const Interval &op) { return t < op.second; });
        return it != m_communicationOps.end() && it->first < std::max(end, work.start + 1);
    }

    // The device tasks an op launched together with an HCCL op, inside that op's span, are HCCL's own (plane
    // tasks, its AI Core/Vector reduce kernels: FORMATS.md §9.2 never counts them as computing). A profiler
    // database links them to the framework op like its compute tasks, so they are told apart here.
    void markHcclOwnTasks()
    {
        std::unordered_set<int> hcclOwners;
        for (const DeviceWork &work : m_tree.work)
            if (work.owner >= 0 && m_facts[static_cast<std::size_t>(work.slice.thread)].communicationOps)
                hcclOwners.insert(work.owner);
        if (hcclOwners.empty())
            return;
        for (DeviceWork &work : m_tree.work) {
            const ThreadFacts &facts = m_facts[static_cast<std::size_t>(work.slice.thread)];
            if (work.owner >= 0 && hcclOwners.count(work.owner) > 0 && !facts.communicationOps &&
                (facts.layer == Layer::DeviceStreams || facts.layer == Layer::AiCpu) &&
                insideCommunicationOp(work))
                work.kind = DeviceWorkKind::Other; // neither computing nor the op itself
        }
    }

    void computeCosts()
    {
        auto &ops = m_tree.ops;
        for (std::size_t w = 0; w < m_tree.work.size(); ++w) {
            const DeviceWork &work = m_tree.work[w];
            if (work.owner < 0)
                continue;
            FrameworkOp &op = ops[static_cast<std::size_t>(work.owner)];
            op.work.push_back(static_cast<int>(w));
            op.deviceSelf += work.duration;
        }
        // Pre-order: a subtree is the contiguous range [i, i + size); children come after their parent.
        std::vector<std::size_t> subtreeEnd(ops.size());
        for (std::size_t i = ops.size(); i-- > 0;) {
            FrameworkOp &op = ops[i];
            op.deviceTotal += op.deviceSelf;
            op.workCount += static_cast<int>(op.work.size());
            TimeNs childHost = 0;
            std::size_t end = i + 1;
            for (const int c : op.children) {
                childHost += ops[static_cast<std::size_t>(c)].hostDuration;
                end = std::max(end, subtreeEnd[static_cast<std::size_t>(c)]);
            }
            subtreeEnd[i] = end;
            op.hostSelf = std::max<TimeNs>(0, op.hostDuration - childHost);
            if (op.parent >= 0) {
                FrameworkOp &parent = ops[static_cast<std::size_t>(op.parent)];
                parent.deviceTotal += op.deviceTotal;
                parent.workCount += op.workCount;
            }
        }
        std::vector<Interval> intervals;
        for (std::size_t i = 0; i < ops.size(); ++i) {
            if (ops[i].workCount == 0)
                continue;
            intervals.clear();
            for (std::size_t k = i; k < subtreeEnd[i]; ++k)
                for (const int w : ops[k].work) {
                    const DeviceWork &work = m_tree.work[static_cast<std::size_t>(w)];
                    intervals.emplace_back(work.start, work.start + work.duration);
                }
            ops[i].deviceUnion = mergeIntervals(intervals);
        }
        if (m_options.matchShapes || m_options.readShapes) {
            const ShapeLookup &lookup = m_options.shapes;
            for (FrameworkOp &op : ops)
                op.shapes = lookup ? lookup(m_model, op.slice) : shapesFromArgs(m_model, op.slice);
        }
    }

    const TraceModel &m_model;
    const DiffWindow &m_window;
    const DiffOptions &m_options;
    const Categories m_cats;
    std::vector<ThreadFacts> m_facts;
    std::vector<std::vector<int>> m_opOfSlice; // per thread: op of each slice (-1), empty without ops
    std::vector<FrameworkOp> m_ops;            // before orderOps()
    std::vector<DeviceWork> m_work;            // every device work of the group, before keepWorkOfSpan()
    std::vector<std::vector<int>>
        m_workOfSlice; // per thread: work index of each slice (-1), empty without work
    std::vector<Interval> m_communicationOps;
    QHash<StringId, QString> m_names;
    std::unordered_set<int> m_groupsWithKernels; // groups whose kernel table is joined to the timeline
    std::unordered_set<int> m_gpuGroups;         // groups with Kineto GPU work (kernel/gpu_memcpy/gpu_memset)
    OpTree m_tree;
};

std::optional<std::int64_t> profilerStepNumber(std::string_view name)
{
    if (!startsWith(name, kProfilerStep))
        return std::nullopt;
    bool ok = false;
    const std::int64_t number = QByteArray(name.data() + kProfilerStep.size(),
                                           static_cast<qsizetype>(name.size() - kProfilerStep.size()))
                                    .toLongLong(&ok);
    return ok ? std::optional<std::int64_t>(number) : std::nullopt;
}

} // namespace

std::vector<DiffWindow> profilerStepWindows(const TraceModel &model)
{
    const Categories cats(model.strings());
    std::vector<DiffWindow> windows;
    const auto &threads = model.threads();
    for (std::size_t t = 0; t < threads.size(); ++t) {
        const SliceTable &table = threads[t].slices;
        for (std::uint32_t i = 0; i < table.size(); ++i) {
            if (!cats.isOp(table.category(i)))
                continue;
            const auto number = profilerStepNumber(model.strings().view(table.name(i)));
            if (!number)
                continue;
            DiffWindow window;
            window.begin = table.start(i);
            window.end = table.end(i);
            window.group = model.processes()[static_cast<std::size_t>(threads[t].process)].group;
            window.label = model.strings().qstring(table.name(i));
            window.step = SliceRef{static_cast<std::int32_t>(t), i};
            windows.push_back(window);
        }
    }
    std::sort(windows.begin(), windows.end(), [](const DiffWindow &a, const DiffWindow &b) {
        return a.group != b.group ? a.group < b.group : a.begin < b.begin;
    });
    return windows;
}

std::optional<DiffWindow> profilerStepWindow(const TraceModel &model, std::int64_t number)
{
    for (const DiffWindow &window : profilerStepWindows(model))
        if (window.label == QStringLiteral("ProfilerStep#%1").arg(number))
            return window;
    return std::nullopt;
}

DiffWindow wholeProfileWindow(const TraceModel &model)
{
    DiffWindow window;
    window.begin = model.dataBegin();
    window.end = model.dataEnd() + 1;
    window.label = QCoreApplication::translate("Core", "whole profile");
    return window;
}

QString normalizedShapes(const QString &inputDims)
{
    QString text = inputDims;
    text.remove(QLatin1Char('\r')).remove(QLatin1Char('\n')).remove(QLatin1Char(' '));
    QStringList entries;
    if (text.startsWith(QLatin1Char('['))) {
        // Kineto: a JSON array with one entry per input (a list of sizes, a list of lists, or []).
        int depth = 0;
        QString current;
        for (const QChar c : text) {
            if (c == QLatin1Char('[')) {
                if (++depth > 2)
                    current += c;
                continue;
            }
            if (c == QLatin1Char(']')) {
                if (depth-- > 2)
                    current += c;
                else if (depth == 1) {
                    entries << current;
                    current.clear();
                }
                continue;
            }
            if (c == QLatin1Char(',') && depth == 1)
                continue; // between entries
            if (depth >= 2)
                current += c;
        }
    } else {
        entries = text.split(QLatin1Char(';'));
    }
    while (!entries.isEmpty() && entries.last().isEmpty())
        entries.removeLast();
    return entries.join(QLatin1Char(';'));
}

QString shapesFromArgs(const TraceModel &model, SliceRef op)
{
    for (const auto &[key, value] : model.sliceArgs(op))
        if (key == QLatin1String("Input Dims"))
            return normalizedShapes(value);
    return {};
}

OpTree buildOpTree(const TraceModel &model, const DiffWindow &window, const DiffOptions &options)
{
    return TreeBuilder(model, window, options).build();
}

} // namespace at::diff
