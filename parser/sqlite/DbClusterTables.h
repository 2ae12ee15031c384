#pragma once
// The cluster summary tables of a rank's databases (FORMATS.md §9.2, §9.4), row by row: analysis.db's
// StepTraceTime and CommAnalyzerTime / CommAnalyzerBandwidth / CommAnalyzerMatrix, and the profiler
// database's STEP_TIME + OVERLAP_ANALYSIS. Every SQL text for them lives here; the cluster reader
// (parser/cluster/ClusterReader.cpp) only asks for rows and applies its value rules (ClusterValues.h).
// Times stored as REAL are handed over as their text (CAST AS TEXT), so they are converted from the
// decimals, never through a double; a NULL is empty text.

#include "sqlite/SqliteConnection.h"

#include <QString>

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace at {

// analysis.db StepTraceTime (µs).
struct StepTraceTimeRow
{
    QString step;
    // computing, communication_not_overlapped, overlapped, communication, free, stage, bubble,
    // communication_not_overlapped_and_exclude_receive, preparing: step_trace_time.csv's column order.
    std::array<std::string, 9> times;
    std::optional<int> deviceId; // none without a deviceId column or for NULL
};

// The profiler database's STEP_TIME (a step's window) and OVERLAP_ANALYSIS (type 0 computing,
// 1 communication, 2 not overlapped, 3 free), ns as stored.
struct StepWindowRow
{
    std::int64_t id = 0, startNs = 0, endNs = 0;
};
struct OverlapRow
{
    int type = 0;
    std::int64_t startNs = 0, endNs = 0;
};

// analysis.db CommAnalyzerTime (start µs, times ms).
struct CommTimeRow
{
    QString opName, group;
    std::string start, elapse, transit, wait, synchronization, idle;
    QString step, type;
};

// analysis.db CommAnalyzerBandwidth: one row per (op, transport, packet-size bucket).
struct CommBandwidthRow
{
    QString opName, group, transport;
    double transitSize = 0;
    std::string transitTime; // ms
    double bandwidth = 0, largePacketRatio = 0, packageSize = 0;
    std::int64_t count = 0;
    std::string totalDuration; // ms
    QString step;
};

// analysis.db CommAnalyzerMatrix: one row per link.
struct CommMatrixRow
{
    QString opKey, group;
    double srcRank = 0, dstRank = 0;
    QString transport;
    double transitSize = 0;
    std::string transitTime; // ms
    double bandwidth = 0;
    QString step, opName;
};

// One database of a rank, opened once. A database that cannot be opened has none of the tables (the
// cluster reader has already decided to read it and says nothing more, as before). Each read*() gives
// every row to perRow and returns false when its query failed (error() then says "PATH: reason").
class DbClusterTables
{
public:
    explicit DbClusterTables(const QString &path);
    bool hasTable(const QString &table) const;
    const QString &error() const { return m_error; }

    bool readStepTraceTime(const std::function<void(const StepTraceTimeRow &)> &perRow);
    bool readStepWindows(const std::function<void(const StepWindowRow &)> &perRow);
    bool readOverlaps(const std::function<void(const OverlapRow &)> &perRow);
    bool readCommTimes(const std::function<void(const CommTimeRow &)> &perRow);
    bool readCommBandwidth(const std::function<void(const CommBandwidthRow &)> &perRow);
    bool readCommMatrix(const std::function<void(const CommMatrixRow &)> &perRow);

private:
    template <typename F> bool query(const QString &sql, F &&perRow);

    SqliteConnection m_db;
    QString m_error;
};

} // namespace at
