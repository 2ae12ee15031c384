// The summary tables: step and rank (from the Overview: per rank and step the parts of step_trace_time.csv,
// for the ranks of the model and those of the cluster data alone), finding and finding_occurrence (the
// Insights findings the Overview computed), comm_op (every rank's communication ops). All are built on the
// first scan of any of them, from data that is small beside the slices.
#include "QueryTables.h"

#include "QueryData.h"

namespace at::query {

namespace {

using Column = ArrayTable::Column;

// (rank index, item index) pairs flattening a vector of vectors, built on first use.
struct FlatIndex
{
    std::once_flag once;
    std::vector<std::pair<std::size_t, std::size_t>> rows;
};

void resultNullable(sqlite3_context *context, bool present, std::int64_t value)
{
    if (present)
        sqlite3_result_int64(context, value);
    else
        sqlite3_result_null(context);
}

QString severityText(Severity severity)
{
    return severityId(severity);
}

std::unique_ptr<QueryTable> stepTable(QueryData &data)
{
    auto index = std::make_shared<FlatIndex>();
    auto rows = [&data, index]() -> const std::vector<std::pair<std::size_t, std::size_t>> & {
        std::call_once(index->once, [&data, index] {
            const Overview &o = data.overview();
            for (std::size_t r = 0; r < o.ranks.size(); ++r)
                for (std::size_t s = 0; s < o.ranks[r].steps.size(); ++s)
                    index->rows.emplace_back(r, s);
        });
        return index->rows;
    };
    auto rank = [&data, rows](std::size_t row) -> const OverviewRank & {
        return data.overview().ranks[rows()[row].first];
    };
    auto step = [&data, rows](std::size_t row) -> const OverviewStep & {
        const auto &at = rows()[row];
        return data.overview().ranks[at.first].steps[at.second];
    };
    auto part = [step](OverviewPart p) {
        return [step, p](sqlite3_context *c, std::size_t r) {
            const OverviewPartValue &v = step(r).part(p);
            resultNullable(c, v.present, v.time);
        };
    };
    return std::make_unique<ArrayTable>(
        QStringLiteral("step"), [rows] { return rows().size(); },
        std::vector<Column>{
            {"rank", "INTEGER", [rank](sqlite3_context *c, std::size_t r) { resultInt(c, rank(r).rank); }},
            {"source_group", "INTEGER",
             [rank](sqlite3_context *c, std::size_t r) {
                 resultNullable(c, rank(r).group >= 0, rank(r).group);
             }},
            {"step", "INTEGER",
             [step](sqlite3_context *c, std::size_t r) {
                 resultNullable(c, step(r).number != OverviewStep::kNoStepNumber, step(r).number);
             }},
            {"label", "TEXT", [step](sqlite3_context *c, std::size_t r) { resultText(c, step(r).label); }},
            {"source", "TEXT",
             [step](sqlite3_context *c, std::size_t r) {
                 resultText(c, overviewPartsSourceId(step(r).source));
             }},
            {"ts", "INTEGER",
             [step](sqlite3_context *c, std::size_t r) {
                 resultNullable(c, step(r).end > step(r).begin, step(r).begin);
             }},
            {"dur", "INTEGER",
             [step](sqlite3_context *c, std::size_t r) {
                 resultNullable(c, step(r).end > step(r).begin, step(r).end - step(r).begin);
             }},
            {"computing", "INTEGER", part(OverviewPart::Computing)},
            {"communication_not_overlapped", "INTEGER", part(OverviewPart::CommunicationNotOverlapped)},
            {"free", "INTEGER", part(OverviewPart::Free)},
            {"preparing", "INTEGER", part(OverviewPart::Preparing)},
            {"bubble", "INTEGER", part(OverviewPart::Bubble)},
            {"total", "INTEGER",
             [step](sqlite3_context *c, std::size_t r) { resultInt(c, step(r).total()); }},
        });
}

std::unique_ptr<QueryTable> rankTable(QueryData &data)
{
    auto rank = [&data](std::size_t r) -> const OverviewRank & { return data.overview().ranks[r]; };
    auto peak = [rank](std::size_t r) { return rank(r).memoryPeak; };
    return std::make_unique<ArrayTable>(
        QStringLiteral("rank"), [&data] { return data.overview().ranks.size(); },
        std::vector<Column>{
            {"rank", "INTEGER", [rank](sqlite3_context *c, std::size_t r) { resultInt(c, rank(r).rank); }},
            {"source_group", "INTEGER",
             [rank](sqlite3_context *c, std::size_t r) {
                 resultNullable(c, rank(r).group >= 0, rank(r).group);
             }},
            {"label", "TEXT", [rank](sqlite3_context *c, std::size_t r) { resultText(c, rank(r).label); }},
            {"steps", "INTEGER",
             [rank](sqlite3_context *c, std::size_t r) {
                 resultInt(c, static_cast<std::int64_t>(rank(r).steps.size()));
             }},
            {"memory_peak_bytes", "INTEGER",
             [peak](sqlite3_context *c, std::size_t r) {
                 const auto p = peak(r);
                 resultNullable(c, p.has_value(), p ? p->bytes : 0);
             }},
            {"memory_peak_ts", "INTEGER",
             [peak](sqlite3_context *c, std::size_t r) {
                 const auto p = peak(r);
                 resultNullable(c, p.has_value(), p ? p->time : 0);
             }},
            {"memory_peak_component", "TEXT",
             [peak](sqlite3_context *c, std::size_t r) {
                 const auto p = peak(r);
                 if (p)
                     resultText(c, p->component);
                 else
                     sqlite3_result_null(c);
             }},
        });
}

// The findings the Overview was built from (none when it was built without them).
const std::vector<Finding> &overviewFindings(QueryData &data)
{
    static const std::vector<Finding> none;
    const auto &findings = data.overview().sourceFindings;
    return findings ? *findings : none;
}

std::unique_ptr<QueryTable> findingTable(QueryData &data)
{
    auto finding = [&data](std::size_t r) -> const Finding & { return overviewFindings(data)[r]; };
    return std::make_unique<ArrayTable>(
        QStringLiteral("finding"), [&data] { return overviewFindings(data).size(); },
        std::vector<Column>{
            {"id", "INTEGER",
             [](sqlite3_context *c, std::size_t r) { resultInt(c, static_cast<std::int64_t>(r)); }},
            {"check_id", "TEXT",
             [finding](sqlite3_context *c, std::size_t r) { resultText(c, finding(r).check); }},
            {"title", "TEXT",
             [finding](sqlite3_context *c, std::size_t r) { resultText(c, finding(r).title); }},
            {"severity", "TEXT",
             [finding](sqlite3_context *c, std::size_t r) {
                 resultText(c, severityText(finding(r).severity));
             }},
            {"part", "TEXT",
             [finding](sqlite3_context *c, std::size_t r) { resultText(c, stepPartId(finding(r).part)); }},
            {"rank", "INTEGER",
             [finding](sqlite3_context *c, std::size_t r) {
                 resultNullable(c, finding(r).rank >= 0, finding(r).rank);
             }},
            {"time_at_stake", "INTEGER",
             [finding](sqlite3_context *c, std::size_t r) { resultInt(c, finding(r).timeAtStake); }},
            {"step_percent", "REAL",
             [finding](sqlite3_context *c, std::size_t r) { resultReal(c, finding(r).stepPercent); }},
            {"share_of_part", "REAL",
             [finding](sqlite3_context *c, std::size_t r) { resultReal(c, finding(r).shareOfPart()); }},
            {"share_of_step", "REAL",
             [finding](sqlite3_context *c, std::size_t r) { resultReal(c, finding(r).shareOfStep()); }},
            {"occurrences", "INTEGER",
             [finding](sqlite3_context *c, std::size_t r) {
                 resultInt(c, static_cast<std::int64_t>(finding(r).occurrences.size()));
             }},
            {"explanation", "TEXT",
             [finding](sqlite3_context *c, std::size_t r) { resultText(c, finding(r).explanation); }},
            {"fix", "TEXT", [finding](sqlite3_context *c, std::size_t r) { resultText(c, finding(r).fix); }},
        },
        0);
}

std::unique_ptr<QueryTable> occurrenceTable(QueryData &data)
{
    auto index = std::make_shared<FlatIndex>();
    auto rows = [&data, index]() -> const std::vector<std::pair<std::size_t, std::size_t>> & {
        std::call_once(index->once, [&data, index] {
            const auto &findings = overviewFindings(data);
            for (std::size_t f = 0; f < findings.size(); ++f)
                for (std::size_t o = 0; o < findings[f].occurrences.size(); ++o)
                    index->rows.emplace_back(f, o);
        });
        return index->rows;
    };
    auto occurrence = [&data, rows](std::size_t r) -> const FindingOccurrence & {
        const auto &at = rows()[r];
        return overviewFindings(data)[at.first].occurrences[at.second];
    };
    return std::make_unique<ArrayTable>(
        QStringLiteral("finding_occurrence"), [rows] { return rows().size(); },
        std::vector<Column>{
            {"finding", "INTEGER",
             [rows](sqlite3_context *c, std::size_t r) {
                 resultInt(c, static_cast<std::int64_t>(rows()[r].first));
             }},
            {"slice_id", "INTEGER",
             [&data, occurrence](sqlite3_context *c, std::size_t r) {
                 const SliceRef ref = occurrence(r).slice;
                 resultNullable(c, ref.isValid(), ref.isValid() ? data.idOf(ref) : 0);
             }},
            {"rank", "INTEGER",
             [&data, occurrence](sqlite3_context *c, std::size_t r) {
                 const FindingOccurrence &o = occurrence(r);
                 resultInt(c, o.rank >= 0 ? o.rank : data.rankOfGroup(o.group));
             }},
            {"name", "TEXT",
             [occurrence](sqlite3_context *c, std::size_t r) { resultText(c, occurrence(r).name); }},
            {"ts", "INTEGER",
             [occurrence](sqlite3_context *c, std::size_t r) { resultInt(c, occurrence(r).start); }},
            {"dur", "INTEGER",
             [occurrence](sqlite3_context *c, std::size_t r) { resultInt(c, occurrence(r).duration); }},
        });
}

std::unique_ptr<QueryTable> commOpTable(QueryData &data)
{
    auto op = [&data](std::size_t r) -> const cluster::CommOpRow & { return data.commOps()[r]; };
    auto time = [op](TimeNs cluster::CommOpRow::*field) {
        return [op, field](sqlite3_context *c, std::size_t r) { resultInt(c, op(r).*field); };
    };
    return std::make_unique<ArrayTable>(
        QStringLiteral("comm_op"), [&data] { return data.commOps().size(); },
        std::vector<Column>{
            {"rank", "INTEGER", [op](sqlite3_context *c, std::size_t r) { resultInt(c, op(r).rank); }},
            {"step", "INTEGER",
             [op](sqlite3_context *c, std::size_t r) {
                 resultNullable(c, op(r).step != cluster::kNoStep, op(r).step);
             }},
            {"name", "TEXT", [op](sqlite3_context *c, std::size_t r) { resultText(c, op(r).op); }},
            {"group_hash", "TEXT",
             [op](sqlite3_context *c, std::size_t r) { resultText(c, op(r).groupHash); }},
            {"group_name", "TEXT",
             [op](sqlite3_context *c, std::size_t r) { resultText(c, op(r).groupName); }},
            {"p2p", "INTEGER", [op](sqlite3_context *c, std::size_t r) { resultInt(c, op(r).p2p ? 1 : 0); }},
            {"total", "INTEGER",
             [op](sqlite3_context *c, std::size_t r) { resultInt(c, op(r).total ? 1 : 0); }},
            {"ts", "INTEGER", time(&cluster::CommOpRow::start)},
            {"elapse", "INTEGER", time(&cluster::CommOpRow::elapse)},
            {"transit", "INTEGER", time(&cluster::CommOpRow::transit)},
            {"wait", "INTEGER", time(&cluster::CommOpRow::wait)},
            {"synchronization", "INTEGER", time(&cluster::CommOpRow::synchronization)},
            {"idle", "INTEGER", time(&cluster::CommOpRow::idle)},
            {"wait_ratio", "REAL",
             [op](sqlite3_context *c, std::size_t r) { resultReal(c, op(r).waitRatio); }},
            {"synchronization_ratio", "REAL",
             [op](sqlite3_context *c, std::size_t r) { resultReal(c, op(r).synchronizationRatio); }},
        });
}

} // namespace

std::vector<std::unique_ptr<QueryTable>> makeSummaryTables(QueryData &data)
{
    std::vector<std::unique_ptr<QueryTable>> tables;
    tables.push_back(stepTable(data));
    tables.push_back(rankTable(data));
    tables.push_back(commOpTable(data));
    tables.push_back(findingTable(data));
    tables.push_back(occurrenceTable(data));
    return tables;
}

} // namespace at::query
