#pragma once
// Shared by the Overview suites: the samples with a step_trace_time.csv, the expected values read from the
// CSV text by the test itself, and the invariants every Overview must keep.

#include "TestSupport.h"
#include "cluster/ClusterReader.h"
#include "overview/Overview.h"

#include <QFile>
#include <QTest>

#include <map>

namespace at::test {

inline QString alexnetLevel(const QString &level)
{
    return samplePath(QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/") + level);
}
inline QString qwen3Cluster()
{
    return samplePath(QStringLiteral("msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2"));
}

// Decimal µs text → ns, rounded half up at the ns, written here on its own (not the viewer's parser):
// "231290.09999999995" → 231290100.
inline qint64 expectedNs(const QString &micros)
{
    const QString text = micros.trimmed();
    const qsizetype dot = text.indexOf(QLatin1Char('.'));
    const QString whole = dot < 0 ? text : text.left(dot);
    QString fraction = dot < 0 ? QString() : text.mid(dot + 1);
    const bool roundUp = fraction.size() > 3 && fraction[3] >= QLatin1Char('5');
    fraction = fraction.left(3).leftJustified(3, QLatin1Char('0'));
    return whole.toLongLong() * 1000 + fraction.toLongLong() + (roundUp ? 1 : 0);
}

// One row of a step_trace_time.csv: column → text.
struct CsvStepRow
{
    QString step;
    std::map<QString, QString> cells;
};
inline std::vector<CsvStepRow> readStepTraceCsv(const QString &path)
{
    std::vector<CsvStepRow> rows;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return rows;
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (lines.isEmpty())
        return rows;
    const QStringList header = lines.front().trimmed().split(QLatin1Char(','));
    for (qsizetype l = 1; l < lines.size(); ++l) {
        const QStringList cells = lines[l].trimmed().split(QLatin1Char(','));
        CsvStepRow row;
        for (qsizetype c = 0; c < header.size() && c < cells.size(); ++c)
            row.cells[header[c]] = cells[c];
        row.step = row.cells[QStringLiteral("Step")];
        rows.push_back(row);
    }
    return rows;
}

inline const char *kCsvColumnOf(OverviewPart part)
{
    switch (part) {
    case OverviewPart::Computing:
        return "Computing";
    case OverviewPart::CommunicationNotOverlapped:
        return "Communication(Not Overlapped)";
    case OverviewPart::Free:
        return "Free";
    case OverviewPart::Preparing:
        return "Preparing";
    case OverviewPart::Bubble:
        return "Bubble";
    }
    return "";
}

inline TimeNs sumOf(const std::vector<OverviewItem> &items)
{
    TimeNs sum = 0;
    for (const OverviewItem &i : items)
        sum += i.time;
    return sum;
}

// Every present part's items (and byRank) sum exactly to it, none is negative, the last is not_attributed.
inline bool contentsSumToParts(const OverviewStep &step, QString *why)
{
    for (const OverviewPartValue &p : step.parts) {
        if (!p.present)
            continue;
        const QString where = step.label + QLatin1Char(' ') + overviewPartId(p.part);
        if (p.items.empty() || p.items.back().kind != OverviewItemKind::NotAttributed) {
            *why = where + QStringLiteral(": no not_attributed item last");
            return false;
        }
        if (sumOf(p.items) != p.time) {
            *why = where + QStringLiteral(": items sum to %1, part is %2").arg(sumOf(p.items)).arg(p.time);
            return false;
        }
        if (!p.byRank.empty() && sumOf(p.byRank) != p.time) {
            *why = where +
                   QStringLiteral(": by-rank items sum to %1, part is %2").arg(sumOf(p.byRank)).arg(p.time);
            return false;
        }
        for (const auto *list : {&p.items, &p.byRank})
            for (const OverviewItem &i : *list)
                if (i.time < 0) {
                    *why = where + QStringLiteral(": negative item ") + i.name;
                    return false;
                }
    }
    return true;
}

// The mean: each part the steps' sum divided by their count (rounded down), and its contents sum to it.
inline bool meanIsMeanOfSteps(const OverviewRank &rank, QString *why)
{
    if (rank.steps.empty())
        return !rank.mean.has_value();
    if (!rank.mean) {
        *why = QStringLiteral("no mean");
        return false;
    }
    const auto n = static_cast<TimeNs>(rank.steps.size());
    for (std::size_t p = 0; p < rank.mean->parts.size(); ++p) {
        TimeNs sum = 0;
        for (const OverviewStep &s : rank.steps)
            sum += s.parts[p].time;
        if (rank.mean->parts[p].time != sum / n) {
            *why = QStringLiteral("mean %1 is %2, not %3 / %4")
                       .arg(overviewPartId(rank.mean->parts[p].part))
                       .arg(rank.mean->parts[p].time)
                       .arg(sum)
                       .arg(n);
            return false;
        }
    }
    return contentsSumToParts(*rank.mean, why);
}

} // namespace at::test
