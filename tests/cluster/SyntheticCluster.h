#pragma once
// A synthetic 4-rank cluster written into a temp dir: two steps, rank 2 computes 30 ms longer in step 1
// (the others wait for it in the allreduce), and the HCCS link 1 → 2 runs at 8 GB/s against 20 GB/s.

#include "ClusterTestSupport.h"

namespace at::test {

inline void writeSyntheticCluster(const QString &root, int ranks = 4, int slowRank = 2, int slowLinkSrc = 1)
{
    const QByteArray header =
        "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,"
        "Bubble,Communication(Not Overlapped and Exclude Receive),Preparing\n";
    for (int r = 0; r < ranks; ++r) {
        const QString dir = QStringLiteral("%1/node0/rank%2_ascend_pt").arg(root).arg(r);
        writeTextFile(dir + QStringLiteral("/profiler_info_%1.json").arg(r), "{\"rank_id\": 0}");
        QByteArray csv = header;
        for (int step = 1; step <= 2; ++step) {
            const bool slow = step == 1 && r == slowRank;
            const double computing = slow ? 130000.5 : 100000.25;
            const double comm = step == 1 && !slow ? 50000.0 : 20000.0;
            const double free = 5000.125;
            csv += QStringLiteral("%1,%2,%3,0,%3,%4,%5,0,%3,12.5\n")
                       .arg(step)
                       .arg(computing, 0, 'f', 3)
                       .arg(comm, 0, 'f', 3)
                       .arg(free, 0, 'f', 3)
                       .arg(computing + comm + free, 0, 'f', 3)
                       .toUtf8();
        }
        writeTextFile(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/step_trace_time.csv"), csv);
        const bool slow = r == slowRank;
        const QByteArray op =
            QStringLiteral(
                "{\"step1\": {\"collective\": {\"hcom_allReduce__001_0_1@123\": {\"Communication Time "
                "Info\": "
                "{\"Start Timestamp(us)\": 1700000000000000.5, \"Elapse Time(ms)\": %1, \"Transit "
                "Time(ms)\": "
                "5, \"Wait Time(ms)\": %2, \"Synchronization Time(ms)\": %2, \"Idle Time(ms)\": 0, \"Wait "
                "Time Ratio\": %3, \"Synchronization Time Ratio\": %3}, \"Communication Bandwidth Info\": "
                "{\"HCCS\": {\"Transit Size(MB)\": 100, \"Transit Time(ms)\": 5, \"Bandwidth(GB/s)\": 20, "
                "\"Large Packet Ratio\": 1.0, \"Size Distribution\": {\"50\": [2, 5]}}}}}}}")
                .arg(slow ? 6 : 35)
                .arg(slow ? 1 : 30)
                .arg(slow ? 0.1667 : 0.8571)
                .toUtf8();
        writeTextFile(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/communication.json"), op);
        const int dst = (r + 1) % ranks;
        const double time = r == slowLinkSrc ? 12.5 : 5.0;
        const QByteArray matrix =
            QStringLiteral(
                "{\"step1\": {\"collective\": {\"allreduce-total@123\": {\"%1-%1\": {\"Transport Type\": "
                "\"LOCAL\", \"Transit Size(MB)\": 100, \"Transit Time(ms)\": 0.3, \"Bandwidth(GB/s)\": "
                "333.3333}, \"%1-%2\": {\"Transport Type\": \"HCCS\", \"Transit Size(MB)\": 100, \"Transit "
                "Time(ms)\": %3, \"Bandwidth(GB/s)\": %4}}}}}")
                .arg(r)
                .arg(dst)
                .arg(time)
                .arg(100 / time)
                .toUtf8();
        writeTextFile(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/communication_matrix.json"), matrix);
    }
}

} // namespace at::test
