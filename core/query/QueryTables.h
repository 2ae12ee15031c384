#pragma once
// The tables of the query engine (internal to core/query; docs/QUERY.md lists every column).

#include "QueryVirtualTable.h"

#include <memory>
#include <vector>

namespace at::query {

class QueryData;

std::unique_ptr<QueryTable> makeSliceTable(QueryData &data); // SliceTables.cpp
std::unique_ptr<QueryTable> makeArgsTable(QueryData &data);
// thread, process, counter_track, counter, flow, kernel, memory, memory_curve (ModelTables.cpp)
std::vector<std::unique_ptr<QueryTable>> makeModelTables(QueryData &data);
// step, rank, comm_op, finding, finding_occurrence (SummaryTables.cpp)
std::vector<std::unique_ptr<QueryTable>> makeSummaryTables(QueryData &data);

// The SQL functions (QueryFunctions.cpp): percentile, p50/p90/p99, fmt_dur, step_of, ancestor.
int registerQueryFunctions(sqlite3 *db, QueryData &data);

} // namespace at::query
