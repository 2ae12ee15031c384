#pragma once
// Synthetic rank folders for the host- or device-bound analysis (core/cluster/CommBoundAnalysis.h): three
// ranks of one allreduce whose op ends at the same moment E on every rank, each rank on its own clock (rank
// r's clock runs r ms ahead). Ranks 0 and 1 arrive 2 ms before E (rank 0 first); rank 2 arrives 1 ms before E
// and why depends on the case:
// - HostLate: its host launches the op 1.01 ms before E, after its stream's last kernel ended (2.1 ms before
// E);
// - DeviceBusy: its host launched the op 2.5 ms before E, but a kernel runs on its stream until 1 ms before
// E;
// - NoHostData: like HostLate on the device, but its timeline has no framework or CANN data and no flow.
// A second allreduce with equal op times on every rank has no gap and is not examined.
// Each rank folder: profiler_info_<r>.json, trace_view.json (Python, CANN, HCCL, Ascend Hardware), and the
// summary files (communication.json, step_trace_time.csv) torch_npu writes beside it.

#include "ClusterTestSupport.h"

namespace at::test {

enum class CommBoundCase
{
    HostLate,
    DeviceBusy,
    NoHostData
};

constexpr int kCommBoundSlowRank = 2;
constexpr double kCommBoundEndUs = 1700000000010000.0; // E on rank 0's clock, µs

struct CommBoundRankTimes
{
    double opStart, launch, kernelStart, kernelEnd; // µs before E (negative)
};

inline CommBoundRankTimes commBoundTimes(int rank, CommBoundCase c)
{
    if (rank == 0)
        return {-2000, -2500, -3000, -2100};
    if (rank == 1 || rank == 3)
        return {-1990, -2490, -3000, -2100};
    switch (c) {
    case CommBoundCase::HostLate:
    case CommBoundCase::NoHostData:
        return {-1000, -1010, -3000, -2100};
    case CommBoundCase::DeviceBusy:
        break;
    }
    return {-1000, -2500, -2900, -1000};
}

inline QString usText(double us)
{
    return QString::number(us, 'f', 3);
}

inline QByteArray commBoundTrace(int rank, CommBoundCase c)
{
    const CommBoundRankTimes t = commBoundTimes(rank, c);
    const double e = kCommBoundEndUs + 1000.0 * rank; // E on this rank's clock
    const bool host = !(rank == kCommBoundSlowRank && c == CommBoundCase::NoHostData);
    QStringList events;
    const auto meta = [&events](int pid, int tid, const char *kind, const QString &name) {
        events << QStringLiteral(R"({"ph":"M","name":"%1","pid":%2,"tid":%3,"args":{"name":"%4"}})")
                      .arg(QLatin1String(kind))
                      .arg(pid)
                      .arg(tid)
                      .arg(name);
    };
    const auto slice = [&events](int pid, int tid, const QString &name, double ts, double dur) {
        events << QStringLiteral(R"({"ph":"X","name":"%1","pid":%2,"tid":%3,"ts":"%4","dur":%5,"args":{}})")
                      .arg(name)
                      .arg(pid)
                      .arg(tid)
                      .arg(usText(ts), usText(dur));
    };
    if (host) {
        meta(1, 10, "process_name", QStringLiteral("Python"));
        meta(1, 10, "thread_name", QStringLiteral("Thread 10"));
        meta(2, 10, "process_name", QStringLiteral("CANN"));
        meta(2, 10, "thread_name", QStringLiteral("Thread 10"));
        slice(1, 10, QStringLiteral("HcclAllreduce"), e + t.launch - 30, 40);
        slice(2, 10, QStringLiteral("AscendCL@hcom_allReduce_"), e + t.launch, 20);
        events
            << QStringLiteral(
                   R"({"ph":"s","cat":"HostToDevice","name":"HostToDevice100","id":"100","pid":2,"tid":10,"ts":"%1"})")
                   .arg(usText(e + t.launch));
        events
            << QStringLiteral(
                   R"({"ph":"f","cat":"HostToDevice","name":"HostToDevice100","id":"100","pid":3,"tid":1,"ts":"%1","bp":"e"})")
                   .arg(usText(e + t.opStart));
    }
    meta(3, 1, "process_name", QStringLiteral("HCCL"));
    meta(3, 1, "thread_name", QStringLiteral("Group 0 Communication"));
    meta(4, 2, "process_name", QStringLiteral("Ascend Hardware"));
    meta(4, 2, "thread_name", QStringLiteral("Stream 2"));
    slice(3, 1, QStringLiteral("hcom_allReduce__001_0_1"), e + t.opStart, -t.opStart);
    slice(3, 1, QStringLiteral("hcom_allReduce__001_1_1"), e + 1000, 500);
    slice(4, 2, QStringLiteral("MatMul"), e + t.kernelStart, t.kernelEnd - t.kernelStart);
    slice(4, 2, QStringLiteral("Notify Wait"), e + t.opStart, -t.opStart);
    slice(4, 2, QStringLiteral("Notify Wait"), e + 1000, 500);
    return "[" + events.join(QStringLiteral(",\n")).toUtf8() + "]";
}

inline QByteArray commBoundCommunication(int rank, CommBoundCase c)
{
    const CommBoundRankTimes t = commBoundTimes(rank, c);
    const double e = kCommBoundEndUs + 1000.0 * rank;
    const double elapseMs = -t.opStart / 1000.0;
    const double waitMs = elapseMs - 1.0; // the time spent waiting for rank 2 (which arrived 1 ms before E)
    const auto op = [](const QString &name, double start, double elapse, double wait) {
        return QStringLiteral(
                   R"x("%1@123": {"Communication Time Info": {"Start Timestamp(us)": %2, "Elapse Time(ms)": %3, )x"
                   R"x("Transit Time(ms)": %4, "Wait Time(ms)": %5, "Synchronization Time(ms)": 0, "Idle Time(ms)": 0, )x"
                   R"x("Wait Time Ratio": %6, "Synchronization Time Ratio": 0}, "Communication Bandwidth Info": {}})x")
            .arg(name, usText(start))
            .arg(elapse, 0, 'f', 6)
            .arg(elapse - wait, 0, 'f', 6)
            .arg(wait, 0, 'f', 6)
            .arg(wait / elapse, 0, 'f', 4);
    };
    return QStringLiteral(R"({"step1": {"collective": {%1, %2}}})")
        .arg(op(QStringLiteral("hcom_allReduce__001_0_1"), e + t.opStart, elapseMs, waitMs),
             op(QStringLiteral("hcom_allReduce__001_1_1"), e + 1000, 0.5, 0.0))
        .toUtf8();
}

// Writes the three rank folders under root/node0; summaryOnlyRank adds a rank 3 like rank 1 with its summary
// files only (a cluster the window opens on its cluster page).
inline void writeCommBoundCluster(const QString &root, CommBoundCase c, bool summaryOnlyRank = false)
{
    for (int r = 0; r < (summaryOnlyRank ? 4 : 3); ++r) {
        const QString dir = QStringLiteral("%1/node0/rank%2_ascend_pt").arg(root).arg(r);
        writeTextFile(dir + QStringLiteral("/profiler_info_%1.json").arg(r), "{\"rank_id\": 0}");
        if (r < 3)
            writeTextFile(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json"),
                          commBoundTrace(r, c));
        writeTextFile(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/communication.json"),
                      commBoundCommunication(r, c));
        writeTextFile(
            dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/step_trace_time.csv"),
            "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
            "Communication(Not Overlapped and Exclude Receive),Preparing\n"
            "1,5000,2000,0,2000,100,7100,0,2000,0\n");
    }
}

} // namespace at::test
