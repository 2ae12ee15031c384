#pragma once
// The rules for the times the cluster reader takes from a rank's summary files (docs/ROBUSTNESS.md,
// "Cluster values"):
//  - a time that is not a finite number ("nan", "inf", "1e400", text), is negative (a duration), or lies
//    beyond what a profile can hold (|t| >= 2^62 ns, core/CheckedTime.h) rejects the record it is part
//    of: a step row (step_trace_time.csv, the databases), a communication op, a matrix link;
//  - an empty cell reads as 0 (a column the source left out, as before);
//  - a record whose times would push the rank's running total of a field past the profile range is
//    rejected too, so every sum later made of a rank's records stays in range.
// Each rejection is reported once per file and reason: the first record, field and value, and how many.

#include "Time.h"
#include "cluster/ClusterModel.h"
#include "cluster/ClusterNumbers.h"
#include "csv/CsvValues.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace at::cluster {

// What a rejected record is, for the warning's count ("3 row(s) like this skipped").
enum class RecordKind
{
    Row,
    Op,
    Link
};

enum class ValueProblem
{
    NotANumber,     // nan, inf, 1e400, text
    Negative,       // a negative duration
    OutOfRange,     // |t| >= 2^62 ns
    TotalOverflows, // the rank's running total of the field would leave the profile range
    NotAnObject     // an op that is a number or a string
};

// The rejected records of one file, as warnings.
class RejectedRecords
{
public:
    RejectedRecords(QString file, RecordKind kind) : m_file(std::move(file)), m_kind(kind) {}
    void reject(ValueProblem problem, const QString &where, const QString &field, const QString &value);
    int count() const { return m_count; }
    QStringList warnings() const;

private:
    struct First
    {
        ValueProblem problem;
        QString where, field, value;
        int count = 0;
    };
    QString m_file;
    RecordKind m_kind;
    std::vector<First> m_first; // one per problem, in the order first seen
    int m_count = 0;
};

// The time cells of one record: each read through time(); rejected() once any broke a rule (the first
// is reported, the record is then dropped by the caller). The record's place ("line 12", "op X of rank 3")
// may be given as a function, called only when the record is rejected: translating and formatting it for
// every record cost an allocation or more per op, link and row (issue #32).
class RecordTimes
{
public:
    RecordTimes(RejectedRecords &log, QString where) : m_log(log), m_where(std::move(where)) {}
    RecordTimes(RejectedRecords &log, std::function<QString()> where) : m_log(log), m_place(std::move(where))
    {}
    // The cell in ns; 0 for an empty cell or after a rejection. A start timestamp may be negative.
    TimeNs time(std::string_view text, TimeUnit unit, std::string_view field, bool mayBeNegative = false);
    void reject(ValueProblem problem, std::string_view field, const QString &value);
    bool rejected() const { return m_rejected; }
    QString where() const { return m_place ? m_place() : m_where; }

private:
    RejectedRecords &m_log;
    QString m_where;
    std::function<QString()> m_place; // when set, what where() returns
    bool m_rejected = false;
};

// A rank's running totals per field (checkedAdd): a record is added whole or not at all.
class RankTotals
{
public:
    // Adds every (field, value); on an overflow adds nothing and returns the field that overflowed.
    std::optional<std::string> add(const std::vector<std::pair<std::string_view, TimeNs>> &values);

private:
    std::map<std::string, TimeNs, std::less<>> m_totals;
};

// The breakdown fields of a step row by their step_trace_time.csv column (FORMATS.md §9.2), µs: the same
// columns in a rank's step_trace_time.csv and msprof-analyze's cluster_step_trace_time.csv.
struct StepField
{
    const char *column;
    TimeNs RankStep::*member;
};
inline constexpr StepField kStepFields[] = {
    {"Computing", &RankStep::computing},
    {"Communication(Not Overlapped)", &RankStep::communicationNotOverlapped},
    {"Overlapped", &RankStep::overlapped},
    {"Communication", &RankStep::communication},
    {"Free", &RankStep::free},
    {"Stage", &RankStep::stage},
    {"Bubble", &RankStep::bubble},
    {"Communication(Not Overlapped and Exclude Receive)",
     &RankStep::communicationNotOverlappedExcludeReceive},
    {"Preparing", &RankStep::preparing},
};

// A step row's times through cell(column) (µs text; empty when absent), by the rules of ClusterValues.h
// and added to the rank's totals. False when the row is rejected (the reason is logged in `times`).
template <typename Cell> bool readStepTimes(Cell &&cell, RankStep &s, RecordTimes &times, RankTotals &totals)
{
    std::vector<std::pair<std::string_view, TimeNs>> values;
    for (const StepField &f : kStepFields) {
        const std::string_view text = cell(std::string_view(f.column));
        s.*f.member = times.time(text, TimeUnit::Microseconds, f.column);
        values.emplace_back(f.column, s.*f.member);
    }
    if (times.rejected())
        return false;
    s.hasPreparing = !csv::trimCell(cell(std::string_view("Preparing"))).empty();
    if (const auto overflow = totals.add(values)) {
        const std::string_view text = cell(std::string_view(*overflow));
        times.reject(ValueProblem::TotalOverflows, *overflow,
                     QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())).trimmed());
        return false;
    }
    return true;
}

// The pipeline stages of the model's pp groups: stage s = the ranks at place s of the pp groups (their
// group_rank, as ClusterReader's resolveGroups gives each rank its stage), each sorted and without repeats;
// from the groups, so a stage is whole even when a rank's rows are missing. What msprof-analyze's stage rows
// are checked against (MsprofAnalyzeOutput, ClusterAnalysisDb).
std::map<int, std::vector<int>> pipelineStages(const ClusterModel &model);

// Appends the groups of `more` whose hash none of `groups` has: how a model read from msprof-analyze's
// output and the rank folders' model share their groups.
void addUnknownGroups(std::vector<ParallelGroup> &groups, std::vector<ParallelGroup> &&more);

// A rank id written in a file or folder name: 0..INT_MAX, else nullopt ("99999999999" does not wrap).
std::optional<int> rankIdFromText(const QString &digits);

} // namespace at::cluster
