#include "cluster/ClusterValues.h"

#include "CheckedTime.h"

#include <QCoreApplication>
#include <QSet>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>

namespace at::cluster {

namespace {

QString problemText(ValueProblem problem)
{
    switch (problem) {
    case ValueProblem::NotANumber:
        return QCoreApplication::translate("Parser", "not a finite number");
    case ValueProblem::Negative:
        return QCoreApplication::translate("Parser", "negative");
    case ValueProblem::OutOfRange:
        return QCoreApplication::translate("Parser", "beyond what a profile can hold (2^62 ns)");
    case ValueProblem::TotalOverflows:
        return QCoreApplication::translate("Parser", "which takes the rank's total beyond 2^62 ns");
    case ValueProblem::NotAnObject:
        break;
    }
    return {};
}

QString skippedText(RecordKind kind, int count)
{
    switch (kind) {
    case RecordKind::Row:
        return QCoreApplication::translate("Parser", "%n row(s) like this skipped", nullptr, count);
    case RecordKind::Op:
        return QCoreApplication::translate("Parser", "%n op(s) like this skipped", nullptr, count);
    case RecordKind::Link:
        return QCoreApplication::translate("Parser", "%n link(s) like this skipped", nullptr, count);
    }
    return {};
}

// True when text is a decimal number strtod reads whole and finite (so parseDecimalToNs refused it for
// its size, not its form).
bool isFiniteDecimal(std::string_view text)
{
    std::string s(text);
    while (!s.empty() && (s.back() == ' ' || s.back() == '"' || s.back() == '\t' || s.back() == '\r'))
        s.pop_back();
    const auto start = s.find_first_not_of(" \"\t");
    if (start == std::string::npos)
        return false;
    const char *begin = s.c_str() + start;
    char *end = nullptr;
    errno = 0;
    const double v = std::strtod(begin, &end);
    const bool hexOrWord = std::any_of(begin, static_cast<const char *>(end), [](char c) {
        return c == 'x' || c == 'X' || c == 'n' || c == 'N' || c == 'i' || c == 'I';
    });
    return end != begin && *end == '\0' && errno != ERANGE && std::isfinite(v) && !hexOrWord;
}

} // namespace

void RejectedRecords::reject(ValueProblem problem, const QString &where, const QString &field,
                             const QString &value)
{
    ++m_count;
    auto it =
        std::find_if(m_first.begin(), m_first.end(), [&](const First &f) { return f.problem == problem; });
    if (it == m_first.end())
        it = m_first.insert(m_first.end(), First{problem, where, field, value, 0});
    ++it->count;
}

QStringList RejectedRecords::warnings() const
{
    QStringList out;
    for (const First &f : m_first) {
        if (f.problem == ValueProblem::NotAnObject)
            out << QCoreApplication::translate("Parser", "%1: %2 is %3, not an object; %4")
                       .arg(m_file, f.where, f.value, skippedText(m_kind, f.count));
        else
            out << QCoreApplication::translate("Parser", "%1: %2: %3 is \"%4\", %5; %6")
                       .arg(m_file, f.where, f.field, f.value, problemText(f.problem),
                            skippedText(m_kind, f.count));
    }
    return out;
}

TimeNs RecordTimes::time(std::string_view text, TimeUnit unit, std::string_view field, bool mayBeNegative)
{
    if (m_rejected)
        return 0;
    const auto blank = text.find_first_not_of(" \t\r\n\"");
    if (blank == std::string_view::npos)
        return 0; // empty: a column the source left out
    const std::optional<TimeNs> ns = parseDecimalToNs(text, unit);
    // The cell's text only for a rejection's warning (made for every cell, it was an allocation per cell).
    const auto value = [text] {
        return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())).trimmed();
    };
    if (!ns) {
        reject(isFiniteDecimal(text) ? ValueProblem::OutOfRange : ValueProblem::NotANumber, field, value());
        return 0;
    }
    if (!withinProfileRange(*ns)) {
        reject(ValueProblem::OutOfRange, field, value());
        return 0;
    }
    if (*ns < 0 && !mayBeNegative) {
        reject(ValueProblem::Negative, field, value());
        return 0;
    }
    return *ns;
}

void RecordTimes::reject(ValueProblem problem, std::string_view field, const QString &value)
{
    if (m_rejected)
        return;
    m_rejected = true;
    m_log.reject(problem, where(), QString::fromUtf8(field.data(), static_cast<qsizetype>(field.size())),
                 value);
}

std::optional<std::string> RankTotals::add(const std::vector<std::pair<std::string_view, TimeNs>> &values)
{
    std::vector<TimeNs> sums;
    sums.reserve(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        const auto &[field, value] = values[i];
        // A field may come more than once in one record (an op's transports, its size buckets): it adds to
        // the sum so far in this record, not to the total before it.
        std::optional<TimeNs> before;
        for (std::size_t j = i; j-- > 0 && !before;)
            if (values[j].first == field)
                before = sums[j];
        if (!before) {
            const auto it = m_totals.find(field);
            before = it == m_totals.end() ? 0 : it->second;
        }
        const std::optional<TimeNs> sum = checkedAdd(*before, value);
        if (!sum)
            return std::string(field);
        sums.push_back(*sum);
    }
    // A field's key is made once, at its first record (a std::string per field and record was an
    // allocation each for the longer names).
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (const auto it = m_totals.find(values[i].first); it != m_totals.end())
            it->second = sums[i];
        else
            m_totals.emplace(std::string(values[i].first), sums[i]);
    }
    return std::nullopt;
}

std::map<int, std::vector<int>> pipelineStages(const ClusterModel &model)
{
    std::map<int, std::vector<int>> stages;
    for (const ParallelGroup *pp : model.groupsNamed(QStringLiteral("pp")))
        for (std::size_t i = 0; i < pp->globalRanks.size(); ++i)
            stages[static_cast<int>(i)].push_back(pp->globalRanks[i]);
    for (auto &entry : stages) {
        std::sort(entry.second.begin(), entry.second.end());
        entry.second.erase(std::unique(entry.second.begin(), entry.second.end()), entry.second.end());
    }
    return stages;
}

void addUnknownGroups(std::vector<ParallelGroup> &groups, std::vector<ParallelGroup> &&more)
{
    QSet<QString> hashes;
    for (const ParallelGroup &g : groups)
        hashes.insert(g.hash);
    for (ParallelGroup &g : more)
        if (!hashes.contains(g.hash))
            groups.push_back(std::move(g));
}

std::optional<int> rankIdFromText(const QString &digits)
{
    bool ok = false;
    const qulonglong id = digits.trimmed().toULongLong(&ok);
    if (!ok || id > static_cast<qulonglong>(INT_MAX))
        return std::nullopt;
    return static_cast<int>(id);
}

} // namespace at::cluster
