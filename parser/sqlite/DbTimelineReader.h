#pragma once

#include "sqlite/DbContext.h"

namespace at {

// Turns the event tables of a profiler database into the same processes, threads, slices and flows
// that the Chrome-trace JSON of the same data gives (FORMATS.md §2.6, §2.9, §6.2–6.3):
// TASK → "Ascend Hardware" / "Stream N", CANN_API → "CANN" / "Thread <tid>" (AscendCL@, Node@, ...),
// PYTORCH_API → "Python" (cpu_op, enqueue/dequeue, python_function), COMMUNICATION_OP / _TASK_INFO →
// "Communication" (group and plane threads), MSTX_EVENTS → "MsprofTx", OVERLAP_ANALYSIS →
// "Overlap Analysis". Flows come from connection ids: HostToDevice (CANN API → task / comm op),
// async_npu (torch op → task via CONNECTION_IDS), async_task_queue (enqueue → dequeue), fwdbwd.
class DbTimelineReader
{
public:
    explicit DbTimelineReader(DbContext &context);
    // Reads TASK first (kernels and flows need it), then the host and summary tables and the flows.
    void read();
    std::size_t slicesRead() const { return m_slices; }

private:
    struct Endpoint
    {
        qint64 connectionId;
        int thread;
        TimeNs ts;
        int kind; // PYTORCH_API type for torch rows
    };

    void readTasks();
    void readCannApi();
    void readPytorchApi();
    void readCommunication();
    void readMstx();
    void readOverlap();
    void linkFlows();
    void addSlice(int thread, TimeNs start, TimeNs end, StringId name, StringId category, DbTable table,
                  qint64 rowid);
    void addFlow(const char *category, StringId name, qint64 id, const Endpoint &from,
                 const std::vector<Endpoint> &to);

    DbContext &m_c;
    std::size_t m_slices = 0;
    std::vector<Endpoint> m_cannEndpoints;
    std::vector<Endpoint> m_torchEndpoints;  // PYTORCH_API.connectionId (= CONNECTION_IDS.id)
    std::vector<Endpoint> m_deviceEndpoints; // tasks and communication ops by TASK.connectionId
};

} // namespace at
