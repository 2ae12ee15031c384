#include "sqlite/DbTimelineReader.h"

#include <QHash>

#include <algorithm>
#include <map>

namespace at {

namespace {

const QString kTask = QStringLiteral("TASK");
constexpr qint64 kNoId = 4294967295LL; // "none" in contextId / modelId columns

// The JSON export prefixes CANN API names by their level (FORMATS.md §2.7, CANN X).
QString cannPrefix(qint64 type)
{
    switch (type) {
    case 20000:
        return QStringLiteral("AscendCL@");
    case 15000:
        return QStringLiteral("Model@");
    case 10000:
        return QStringLiteral("Node@");
    case 5500:
        return QStringLiteral("Hccl@");
    case 5000:
        return QStringLiteral("Runtime@");
    default:
        return QStringLiteral("Api@");
    }
}

// OVERLAP_ANALYSIS.type → thread names of the JSON "Overlap Analysis" process.
QString overlapThreadName(qint64 type)
{
    switch (type) {
    case 0:
        return QStringLiteral("Computing");
    case 1:
        return QStringLiteral("Communication");
    case 2:
        return QStringLiteral("Communication(Not Overlapped)");
    case 3:
        return QStringLiteral("Free");
    default:
        return QStringLiteral("Type %1").arg(type);
    }
}

qint64 intOr(const QVariant &v, qint64 fallback)
{
    return v.isNull() ? fallback : v.toLongLong();
}

} // namespace

QString dbTableName(DbTable table)
{
    switch (table) {
    case DbTable::Task:
        return QStringLiteral("TASK");
    case DbTable::CannApi:
        return QStringLiteral("CANN_API");
    case DbTable::PytorchApi:
        return QStringLiteral("PYTORCH_API");
    case DbTable::CommunicationOp:
        return QStringLiteral("COMMUNICATION_OP");
    case DbTable::CommunicationTask:
        return QStringLiteral("COMMUNICATION_TASK_INFO");
    case DbTable::MstxEvents:
        return QStringLiteral("MSTX_EVENTS");
    case DbTable::OverlapAnalysis:
        return QStringLiteral("OVERLAP_ANALYSIS");
    }
    return {};
}

DbTimelineReader::DbTimelineReader(DbContext &context) : m_c(context) {}

void DbTimelineReader::read()
{
    readTasks();
    readCannApi();
    readPytorchApi();
    readCommunication();
    readMstx();
    readOverlap();
    linkFlows();
}

void DbTimelineReader::addSlice(int thread, TimeNs start, TimeNs end, StringId name, StringId category,
                                DbTable table, qint64 rowid)
{
    m_c.builder.addSlice(thread, start, dbDuration(start, end), name, category, m_c.location(table, rowid));
    ++m_c.builder.counts().complete;
    ++m_slices;
}

void DbTimelineReader::readTasks()
{
    DbSchema &schema = m_c.schema;
    if (!schema.hasTable(kTask)) {
        schema.noteMissingTable(kTask);
        return;
    }
    // Device tasks are named after their operator (COMPUTE_TASK_INFO.name), else their task type.
    std::unordered_map<qint64, StringId> opNames;
    const QString compute = QStringLiteral("COMPUTE_TASK_INFO");
    if (schema.hasTable(compute))
        schema.forEachRow(
            compute, schema.select(compute, {QStringLiteral("globalTaskId"), QStringLiteral("name")}),
            [&](QSqlQuery &q) { opNames.emplace(q.value(0).toLongLong(), m_c.strings.id(q.value(1))); });

    std::map<std::pair<qint64, qint64>, int> threads; // (device, stream) -> thread
    const QString sql = schema.select(kTask, {QStringLiteral("rowid"), QStringLiteral("startNs:int"),
                                              QStringLiteral("endNs:int"), QStringLiteral("deviceId?"),
                                              QStringLiteral("connectionId"), QStringLiteral("globalTaskId"),
                                              QStringLiteral("taskType"), QStringLiteral("contextId"),
                                              QStringLiteral("streamId"), QStringLiteral("taskId")});
    const StringId hardwareName = m_c.intern(QStringLiteral("Ascend Hardware"));
    const LaneKey hardwareKey = m_c.builder.textKey("Ascend Hardware");
    m_c.schema.forEachRow(kTask, sql, [&](QSqlQuery &q) {
        DbTask t;
        t.rowid = q.value(0).toLongLong();
        t.start = q.value(1).toLongLong();
        t.end = q.value(2).toLongLong();
        t.deviceId = intOr(q.value(3), 0);
        t.connectionId = intOr(q.value(4), -1);
        t.globalTaskId = intOr(q.value(5), -1);
        t.type = m_c.strings.id(q.value(6));
        t.contextId = intOr(q.value(7), -1);
        t.streamId = intOr(q.value(8), -1);
        t.taskId = intOr(q.value(9), -1);
        if (t.contextId == kNoId)
            t.contextId = -1;
        auto it = threads.find({t.deviceId, t.streamId});
        if (it == threads.end()) {
            const LaneKey pid{t.deviceId, hardwareKey.text};
            const int process = m_c.builder.process(pid);
            m_c.builder.setProcessName(process, hardwareName);
            const int thread = m_c.builder.thread(pid, m_c.builder.numberKey(t.streamId));
            m_c.builder.setThreadName(thread, m_c.intern(QStringLiteral("Stream %1").arg(t.streamId)));
            m_c.builder.setThreadSortIndex(thread, t.streamId);
            it = threads.emplace(std::make_pair(t.deviceId, t.streamId), thread).first;
        }
        t.thread = it->second;
        const auto op = opNames.find(t.globalTaskId);
        addSlice(t.thread, t.start, t.end, op != opNames.end() ? op->second : t.type, 0, DbTable::Task,
                 t.rowid);
        if (t.globalTaskId >= 0)
            m_c.taskByGlobalId.emplace(t.globalTaskId, m_c.tasks.size());
        if (t.connectionId >= 0)
            m_deviceEndpoints.push_back({t.connectionId, t.thread, t.start, 0});
        m_c.tasks.push_back(t);
    });
}

void DbTimelineReader::readCannApi()
{
    const QString table = QStringLiteral("CANN_API");
    DbSchema &schema = m_c.schema;
    if (!schema.hasTable(table)) {
        schema.noteMissingTable(table);
        return;
    }
    const LaneKey pid = m_c.builder.textKey("CANN");
    const int process = m_c.builder.process(pid);
    m_c.builder.setProcessName(process, m_c.intern(QStringLiteral("CANN")));
    QHash<qint64, int> threads;
    std::map<std::pair<qint64, StringId>, StringId> names; // (type, name) -> "AscendCL@name"
    const QString sql = schema.select(table, {QStringLiteral("rowid"), QStringLiteral("startNs:int"),
                                              QStringLiteral("endNs:int"), QStringLiteral("type"),
                                              QStringLiteral("globalTid"), QStringLiteral("connectionId"),
                                              QStringLiteral("name")});
    schema.forEachRow(table, sql, [&](QSqlQuery &q) {
        const qint64 globalTid = q.value(4).toLongLong();
        auto thread = threads.find(globalTid);
        if (thread == threads.end()) {
            const qint64 tid = globalTid & 0xFFFFFFFFLL;
            const int t = m_c.builder.thread(pid, m_c.builder.numberKey(tid));
            m_c.builder.setThreadName(t, m_c.intern(QStringLiteral("Thread %1").arg(tid)));
            m_c.builder.setThreadSortIndex(t, tid);
            thread = threads.insert(globalTid, t);
        }
        const qint64 type = q.value(3).toLongLong();
        const StringId raw = m_c.strings.id(q.value(6));
        auto name = names.find({type, raw});
        if (name == names.end())
            name = names
                       .emplace(std::make_pair(type, raw),
                                m_c.intern(cannPrefix(type) + m_c.builder.strings().qstring(raw)))
                       .first;
        const TimeNs start = q.value(1).toLongLong();
        addSlice(*thread, start, q.value(2).toLongLong(), name->second, 0, DbTable::CannApi,
                 q.value(0).toLongLong());
        const qint64 connection = intOr(q.value(5), -1);
        if (connection >= 0)
            m_cannEndpoints.push_back({connection, *thread, start, 0});
    });
}

void DbTimelineReader::readPytorchApi()
{
    const QString table = QStringLiteral("PYTORCH_API");
    DbSchema &schema = m_c.schema;
    if (!schema.hasTable(table))
        return; // msprof databases have no framework layer
    const LaneKey pid = m_c.builder.textKey("Python");
    const int process = m_c.builder.process(pid);
    m_c.builder.setProcessName(process, m_c.intern(QStringLiteral("Python")));
    QHash<qint64, int> threads;
    const StringId cpuOp = m_c.intern(QStringLiteral("cpu_op"));
    const StringId enqueue = m_c.intern(QStringLiteral("enqueue"));
    const StringId dequeue = m_c.intern(QStringLiteral("dequeue"));
    const StringId pythonFunction = m_c.intern(QStringLiteral("python_function"));
    const StringId mstx = m_c.intern(QStringLiteral("mstx"));
    // startNs/endNs are TEXT in torch_npu databases (FORMATS.md §6.2): cast in SQL, never via double.
    const QString sql = schema.select(table, {QStringLiteral("rowid"), QStringLiteral("startNs:int"),
                                              QStringLiteral("endNs:int"), QStringLiteral("globalTid"),
                                              QStringLiteral("connectionId"), QStringLiteral("name"),
                                              QStringLiteral("type")});
    schema.forEachRow(table, sql, [&](QSqlQuery &q) {
        const qint64 globalTid = q.value(3).toLongLong();
        auto thread = threads.find(globalTid);
        if (thread == threads.end()) {
            const qint64 tid = globalTid & 0xFFFFFFFFLL;
            const int t = m_c.builder.thread(pid, m_c.builder.numberKey(tid));
            m_c.builder.setThreadName(t, m_c.intern(QStringLiteral("Thread %1").arg(tid)));
            m_c.builder.setThreadSortIndex(t, tid);
            thread = threads.insert(globalTid, t);
        }
        const StringId name = m_c.strings.id(q.value(5));
        const int type = q.value(6).toInt();
        StringId category = cpuOp;
        if (type == 50002)
            category = m_c.builder.strings().view(name).starts_with("Dequeue") ? dequeue : enqueue;
        else if (type == 50003)
            category = pythonFunction;
        else if (type == 50004)
            category = mstx;
        const TimeNs start = q.value(1).toLongLong();
        addSlice(*thread, start, q.value(2).toLongLong(), name, category, DbTable::PytorchApi,
                 q.value(0).toLongLong());
        const qint64 connection = intOr(q.value(4), -1);
        if (connection >= 0)
            m_torchEndpoints.push_back({connection, *thread, start, type});
    });
}

void DbTimelineReader::readCommunication()
{
    DbSchema &schema = m_c.schema;
    const QString opTable = QStringLiteral("COMMUNICATION_OP");
    const QString taskTable = QStringLiteral("COMMUNICATION_TASK_INFO");
    if (!schema.hasTable(opTable) && !schema.hasTable(taskTable))
        return; // single-card runs have no communication
    const LaneKey pid = m_c.builder.textKey("Communication");
    int process = -1;
    auto ensureProcess = [&] {
        if (process < 0) {
            process = m_c.builder.process(pid);
            m_c.builder.setProcessName(process, m_c.intern(QStringLiteral("Communication")));
        }
    };
    // One "Group k Communication" thread per communication group, above the plane threads.
    QHash<StringId, int> groupThreads;
    auto groupThread = [&](StringId group) {
        auto it = groupThreads.find(group);
        if (it != groupThreads.end())
            return *it;
        ensureProcess();
        const int index = static_cast<int>(groupThreads.size());
        const int t = m_c.builder.thread(pid, LaneKey{-1 - index, group});
        m_c.builder.setThreadName(t, m_c.intern(QStringLiteral("Group %1 Communication").arg(index)));
        m_c.builder.setThreadSortIndex(t, -1000 + index);
        return *groupThreads.insert(group, t);
    };
    if (schema.hasTable(opTable)) {
        const QString sql = schema.select(
            opTable, {QStringLiteral("rowid"), QStringLiteral("startNs:int"), QStringLiteral("endNs:int"),
                      QStringLiteral("opName"), QStringLiteral("groupName"), QStringLiteral("connectionId")});
        schema.forEachRow(opTable, sql, [&](QSqlQuery &q) {
            const int thread = groupThread(m_c.strings.id(q.value(4)));
            const TimeNs start = q.value(1).toLongLong();
            addSlice(thread, start, q.value(2).toLongLong(), m_c.strings.id(q.value(3)), 0,
                     DbTable::CommunicationOp, q.value(0).toLongLong());
            const qint64 connection = intOr(q.value(5), -1);
            if (connection >= 0)
                m_deviceEndpoints.push_back({connection, thread, start, 0});
        });
    }
    if (schema.hasTable(taskTable)) {
        QHash<qint64, int> planes;
        const QString sql = schema.select(taskTable, {QStringLiteral("rowid"), QStringLiteral("globalTaskId"),
                                                      QStringLiteral("taskType"), QStringLiteral("planeId")});
        schema.forEachRow(taskTable, sql, [&](QSqlQuery &q) {
            const auto task = m_c.taskByGlobalId.find(q.value(1).toLongLong());
            if (task == m_c.taskByGlobalId.end())
                return; // times live in TASK only
            const DbTask &t = m_c.tasks[task->second];
            const qint64 plane = intOr(q.value(3), 0);
            auto thread = planes.find(plane);
            if (thread == planes.end()) {
                ensureProcess();
                const int th = m_c.builder.thread(pid, m_c.builder.numberKey(plane + 1));
                m_c.builder.setThreadName(th, m_c.intern(QStringLiteral("Plane %1").arg(plane)));
                m_c.builder.setThreadSortIndex(th, plane + 1);
                thread = planes.insert(plane, th);
            }
            addSlice(*thread, t.start, t.end, m_c.strings.id(q.value(2)), 0, DbTable::CommunicationTask,
                     q.value(0).toLongLong());
        });
    }
}

void DbTimelineReader::readMstx()
{
    const QString table = QStringLiteral("MSTX_EVENTS");
    DbSchema &schema = m_c.schema;
    if (!schema.hasTable(table))
        return;
    const LaneKey pid = m_c.builder.textKey("MsprofTx");
    const int process = m_c.builder.process(pid);
    m_c.builder.setProcessName(process, m_c.intern(QStringLiteral("MsprofTx")));
    QHash<qint64, int> threads;
    const StringId category = m_c.intern(QStringLiteral("MsTx"));
    const QString sql = schema.select(table, {QStringLiteral("rowid"), QStringLiteral("startNs:int"),
                                              QStringLiteral("endNs:int"), QStringLiteral("message"),
                                              QStringLiteral("globalTid"), QStringLiteral("connectionId")});
    schema.forEachRow(table, sql, [&](QSqlQuery &q) {
        const qint64 globalTid = q.value(4).toLongLong();
        auto thread = threads.find(globalTid);
        if (thread == threads.end()) {
            const qint64 tid = globalTid & 0xFFFFFFFFLL;
            const int t = m_c.builder.thread(pid, m_c.builder.numberKey(tid));
            m_c.builder.setThreadName(t, m_c.intern(QStringLiteral("Thread %1").arg(tid)));
            thread = threads.insert(globalTid, t);
        }
        const TimeNs start = q.value(1).toLongLong();
        // Markers have no end (or end == start): they become zero-length slices like JSON instants.
        const TimeNs end = q.value(2).isNull() ? start : q.value(2).toLongLong();
        addSlice(*thread, start, std::max(start, end), m_c.strings.id(q.value(3)), category,
                 DbTable::MstxEvents, q.value(0).toLongLong());
        const qint64 connection = intOr(q.value(5), -1);
        if (connection >= 0)
            m_cannEndpoints.push_back({connection, *thread, start, 0});
    });
}

void DbTimelineReader::readOverlap()
{
    const QString table = QStringLiteral("OVERLAP_ANALYSIS");
    DbSchema &schema = m_c.schema;
    if (!schema.hasTable(table))
        return;
    const LaneKey pid = m_c.builder.textKey("Overlap Analysis");
    const int process = m_c.builder.process(pid);
    m_c.builder.setProcessName(process, m_c.intern(QStringLiteral("Overlap Analysis")));
    QHash<qint64, int> threads;
    QHash<qint64, StringId> names;
    const QString sql = schema.select(table, {QStringLiteral("rowid"), QStringLiteral("startNs:int"),
                                              QStringLiteral("endNs:int"), QStringLiteral("type")});
    schema.forEachRow(table, sql, [&](QSqlQuery &q) {
        const qint64 type = q.value(3).toLongLong();
        auto thread = threads.find(type);
        if (thread == threads.end()) {
            const int t = m_c.builder.thread(pid, m_c.builder.numberKey(type));
            names.insert(type, m_c.intern(overlapThreadName(type)));
            m_c.builder.setThreadName(t, names.value(type));
            m_c.builder.setThreadSortIndex(t, type);
            thread = threads.insert(type, t);
        }
        addSlice(*thread, q.value(1).toLongLong(), q.value(2).toLongLong(), names.value(type), 0,
                 DbTable::OverlapAnalysis, q.value(0).toLongLong());
    });
}

void DbTimelineReader::addFlow(const char *category, StringId name, qint64 id, const Endpoint &from,
                               const std::vector<Endpoint> &to)
{
    TraceBuilder &b = m_c.builder;
    const StringId cat = b.strings().intern(category);
    const StringId idText = b.strings().intern(std::to_string(id));
    b.addFlowHalf(FlowPhase::Start, cat, name, idText, from.thread, from.ts, true);
    ++b.counts().flowStart;
    for (const Endpoint &e : to) {
        // The device end lies exactly at the task start: bind to the slice there (bp "e").
        b.addFlowHalf(FlowPhase::End, cat, name, idText, e.thread, e.ts, true);
        ++b.counts().flowEnd;
    }
}

void DbTimelineReader::linkFlows()
{
    auto byConnection = [](const Endpoint &a, const Endpoint &b) {
        return a.connectionId != b.connectionId ? a.connectionId < b.connectionId : a.ts < b.ts;
    };
    std::sort(m_deviceEndpoints.begin(), m_deviceEndpoints.end(), byConnection);
    auto devicesOf = [&](qint64 connection) {
        const auto range = std::equal_range(
            m_deviceEndpoints.begin(), m_deviceEndpoints.end(), Endpoint{connection, 0, 0, 0},
            [](const Endpoint &a, const Endpoint &b) { return a.connectionId < b.connectionId; });
        return std::vector<Endpoint>(range.first, range.second);
    };

    // HostToDevice: CANN API (or mstx mark) → the device tasks / communication op with its connection id.
    for (const Endpoint &api : m_cannEndpoints) {
        const std::vector<Endpoint> targets = devicesOf(api.connectionId);
        if (!targets.empty())
            addFlow("HostToDevice",
                    m_c.builder.strings().intern("HostToDevice" + std::to_string(api.connectionId)),
                    api.connectionId, api, targets);
    }

    // torch ops: PYTORCH_API.connectionId = CONNECTION_IDS.id → CONNECTION_IDS.connectionId (§6.3).
    const QString table = QStringLiteral("CONNECTION_IDS");
    DbSchema &schema = m_c.schema;
    if (m_torchEndpoints.empty())
        return;
    if (!schema.hasTable(table)) {
        schema.noteMissingTable(table);
        return;
    }
    std::unordered_map<qint64, std::vector<qint64>> connections;
    schema.forEachRow(
        table, schema.select(table, {QStringLiteral("id"), QStringLiteral("connectionId")}),
        [&](QSqlQuery &q) { connections[q.value(0).toLongLong()].push_back(q.value(1).toLongLong()); });
    const StringId torchToNpu = m_c.builder.strings().intern("torch_to_npu");
    std::map<qint64, std::vector<Endpoint>> shared; // connection id → torch rows using it
    for (const Endpoint &op : m_torchEndpoints) {
        const auto it = connections.find(op.connectionId);
        if (it == connections.end())
            continue;
        for (const qint64 connection : it->second) {
            const std::vector<Endpoint> targets = devicesOf(connection);
            if (!targets.empty() && op.kind == 50001)
                addFlow("async_npu", torchToNpu, connection, op, targets);
            else if (targets.empty())
                shared[connection].push_back({connection, op.thread, op.ts, op.kind});
        }
    }
    // Two torch rows sharing a connection id: enqueue → dequeue, or forward → backward op.
    const StringId queueName = m_c.builder.strings().intern("enqueue_to_dequeue");
    const StringId fwdbwd = m_c.builder.strings().intern("fwdbwd");
    for (auto &[connection, rows] : shared) {
        if (rows.size() < 2)
            continue;
        std::sort(rows.begin(), rows.end(), [](const Endpoint &a, const Endpoint &b) { return a.ts < b.ts; });
        const bool queue =
            std::all_of(rows.begin(), rows.end(), [](const Endpoint &e) { return e.kind == 50002; });
        addFlow(queue ? "async_task_queue" : "fwdbwd", queue ? queueName : fwdbwd, connection, rows.front(),
                std::vector<Endpoint>(rows.begin() + 1, rows.end()));
    }
}

} // namespace at
