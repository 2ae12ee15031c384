// The SQL helper functions where SQL alone is clumsy (docs/QUERY.md "Functions"):
//   percentile(x, p)   aggregate: the p-th percentile (0..100) of the non-NULL x, linearly interpolated
//                      between the two nearest ranks (numpy's default); p50(x), p90(x), p99(x) likewise
//   fmt_dur(ns)        "1.234 ms" (core/Time's formatDuration)
//   step_of(ts[, rank]) the number of the timeline step whose window holds ts (of that rank), else NULL
//   ancestor(slice_id, name) the nearest enclosing slice with that name, else NULL
#include "QueryTables.h"

#include "QueryData.h"
#include "Steps.h"

#include <algorithm>
#include <cmath>
#include <new>

namespace at::query {

namespace {

struct PercentileState
{
    std::vector<double> *values = nullptr;
    double p = 0;
    bool started = false; // (SQLite zeroes a new aggregate context)
    bool badP = false;
};

PercentileState *percentileState(sqlite3_context *context, bool create)
{
    return static_cast<PercentileState *>(
        sqlite3_aggregate_context(context, create ? static_cast<int>(sizeof(PercentileState)) : 0));
}

void collect(sqlite3_context *context, sqlite3_value *x, double p)
{
    PercentileState *state = percentileState(context, true);
    if (!state) {
        sqlite3_result_error_nomem(context);
        return;
    }
    if (!state->started) { // p is taken from the first row
        state->started = true;
        if (!(p >= 0 && p <= 100))
            state->badP = true;
        state->p = p;
    }
    if (sqlite3_value_type(x) == SQLITE_NULL)
        return;
    if (!state->values)
        state->values = new (std::nothrow) std::vector<double>;
    if (!state->values) {
        sqlite3_result_error_nomem(context);
        return;
    }
    state->values->push_back(sqlite3_value_double(x));
}

void finish(sqlite3_context *context)
{
    PercentileState *state = percentileState(context, false);
    if (!state || !state->values || state->values->empty()) {
        if (state && state->badP)
            sqlite3_result_error(context, "percentile: p must be a number from 0 to 100", -1);
        else
            sqlite3_result_null(context);
        if (state)
            delete state->values;
        return;
    }
    std::vector<double> &v = *state->values;
    if (state->badP) {
        sqlite3_result_error(context, "percentile: p must be a number from 0 to 100", -1);
    } else {
        const double rank = state->p / 100.0 * static_cast<double>(v.size() - 1);
        const auto lo = static_cast<std::size_t>(std::floor(rank));
        std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(lo), v.end());
        const double low = v[lo];
        double result = low;
        if (lo + 1 < v.size() && rank > static_cast<double>(lo)) {
            const double high = *std::min_element(v.begin() + static_cast<std::ptrdiff_t>(lo) + 1, v.end());
            result = low + (high - low) * (rank - static_cast<double>(lo));
        }
        sqlite3_result_double(context, result);
    }
    delete state->values;
    state->values = nullptr;
}

void percentileStep(sqlite3_context *context, int, sqlite3_value **argv)
{
    const int type = sqlite3_value_numeric_type(argv[1]);
    collect(context, argv[0],
            type == SQLITE_INTEGER || type == SQLITE_FLOAT ? sqlite3_value_double(argv[1]) : -2);
}

template <int P> void fixedPercentileStep(sqlite3_context *context, int, sqlite3_value **argv)
{
    collect(context, argv[0], P);
}

void fmtDur(sqlite3_context *context, int, sqlite3_value **argv)
{
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        sqlite3_result_null(context);
        return;
    }
    resultText(context, formatDuration(sqlite3_value_int64(argv[0])));
}

void stepOf(sqlite3_context *context, int argc, sqlite3_value **argv)
{
    auto *data = static_cast<QueryData *>(sqlite3_user_data(context));
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL ||
        (argc > 1 && sqlite3_value_type(argv[1]) == SQLITE_NULL)) {
        sqlite3_result_null(context);
        return;
    }
    const TimeNs ts = sqlite3_value_int64(argv[0]);
    const bool anyRank = argc < 2;
    const int rank = anyRank ? 0 : sqlite3_value_int(argv[1]);
    for (const Step &step : data->model().steps()) {
        if (!anyRank && data->rankOfGroup(step.group) != rank)
            continue;
        if (ts >= step.begin() && ts < step.end()) {
            sqlite3_result_int64(context, step.number);
            return;
        }
    }
    sqlite3_result_null(context);
}

void ancestor(sqlite3_context *context, int, sqlite3_value **argv)
{
    auto *data = static_cast<QueryData *>(sqlite3_user_data(context));
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) {
        sqlite3_result_null(context);
        return;
    }
    const SliceRef ref = data->refOf(sqlite3_value_int64(argv[0]));
    const auto *text = reinterpret_cast<const char *>(sqlite3_value_text(argv[1]));
    const StringId name = data->model().strings().find(
        std::string_view(text, static_cast<std::size_t>(sqlite3_value_bytes(argv[1]))));
    if (!ref.isValid() || name == StringPool::kNotFound) {
        sqlite3_result_null(context);
        return;
    }
    const SliceTable &table = data->model().threads()[static_cast<std::size_t>(ref.thread)].slices;
    for (std::int32_t at = table.parent(ref.index); at >= 0;
         at = table.parent(static_cast<std::uint32_t>(at))) {
        if (table.name(static_cast<std::uint32_t>(at)) == name) {
            sqlite3_result_int64(context, data->firstId(ref.thread) + at);
            return;
        }
    }
    sqlite3_result_null(context);
}

} // namespace

int registerQueryFunctions(sqlite3 *db, QueryData &data)
{
    constexpr int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
    int rc = sqlite3_create_function_v2(db, "percentile", 2, flags, nullptr, nullptr, &percentileStep,
                                        &finish, nullptr);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "p50", 1, flags, nullptr, nullptr, &fixedPercentileStep<50>,
                                        &finish, nullptr);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "p90", 1, flags, nullptr, nullptr, &fixedPercentileStep<90>,
                                        &finish, nullptr);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "p99", 1, flags, nullptr, nullptr, &fixedPercentileStep<99>,
                                        &finish, nullptr);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "fmt_dur", 1, flags, nullptr, &fmtDur, nullptr, nullptr, nullptr);
    for (int argc : {1, 2})
        if (rc == SQLITE_OK)
            rc = sqlite3_create_function_v2(db, "step_of", argc, flags, &data, &stepOf, nullptr, nullptr,
                                            nullptr);
    if (rc == SQLITE_OK)
        rc =
            sqlite3_create_function_v2(db, "ancestor", 2, flags, &data, &ancestor, nullptr, nullptr, nullptr);
    return rc;
}

} // namespace at::query
