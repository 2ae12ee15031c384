#include "KinetoFlows.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <map>
#include <unordered_map>

namespace at {

namespace {

// Counts by string id, turned into text once (a QString per flow would cost more than the binding).
std::map<QString, std::size_t> countsByText(const std::unordered_map<StringId, std::size_t> &counts,
                                            const StringPool &strings, const QString &unnamed)
{
    std::map<QString, std::size_t> byText;
    for (const auto &[id, count] : counts)
        byText[id ? strings.qstring(id) : unnamed] += count;
    return byText;
}

} // namespace

void KinetoFlows::reserveFor(std::size_t traceBytes)
{
    // A Kineto trace carries about one flow half per 700-850 bytes (df_index_resolver: 64,663 in 53.7 MB,
    // nccl_data: 13,600 in 9.8 MB); growing by doubling would copy them and fault in each new block. Pages
    // reserved but never written cost no memory.
    m_halves.reserve(traceBytes / 640);
}

QString KinetoFlows::bind(TraceBuilder &builder)
{
    const StringPool &strings = builder.strings();
    auto keyOf = [](const Half &f) { return (std::uint64_t(f.category) << 32) | f.id; };
    std::unordered_map<std::uint64_t, std::uint8_t> phases;
    phases.reserve(m_halves.size());
    for (const Half &f : m_halves)
        phases[keyOf(f)] |= f.phase() == FlowPhase::Start ? 1 : f.phase() == FlowPhase::End ? 2 : 0;
    std::unordered_map<StringId, std::size_t> boundByCategoryId, unfinishedByLauncherId;
    std::size_t orphanFinishes = 0, unfinishedStarts = 0;
    builder.reserveFlowHalves(m_halves.size()); // at most (room never written costs no memory)
    for (const Half &f : m_halves) {
        const std::uint8_t seen = phases[keyOf(f)];
        if (seen == 3) {
            builder.addFlowHalf(f.phase(), f.category, f.name, f.id, f.thread, f.ts, f.bindEnclosing);
            if (f.phase() == FlowPhase::Start)
                ++boundByCategoryId[f.category];
        } else if (f.phase() == FlowPhase::End) {
            ++orphanFinishes;
        } else if (f.phase() == FlowPhase::Start) {
            ++unfinishedStarts;
            ++unfinishedByLauncherId[f.launcher];
        }
    }
    const std::map<QString, std::size_t> boundByCategory =
        countsByText(boundByCategoryId, strings, QString());
    const std::map<QString, std::size_t> unfinishedByLauncher =
        countsByText(unfinishedByLauncherId, strings, QCoreApplication::translate("Parser", "unknown"));
    m_halves = {};
    QStringList bound;
    for (const auto &[category, count] : boundByCategory)
        bound << QStringLiteral("%1 %2").arg(count).arg(category);
    QString text =
        bound.isEmpty() ? QCoreApplication::translate("Parser", "none") : bound.join(QStringLiteral(", "));
    if (orphanFinishes)
        text +=
            QCoreApplication::translate(
                "Parser", "; %1 finishes without a start left out (runtime calls that launch no GPU work)")
                .arg(orphanFinishes);
    if (unfinishedStarts) {
        std::vector<std::pair<std::size_t, QString>> launchers;
        for (const auto &[launcher, count] : unfinishedByLauncher)
            launchers.emplace_back(count, launcher);
        std::ranges::stable_sort(launchers, [](const auto &a, const auto &b) { return a.first > b.first; });
        QStringList names;
        for (const auto &[count, launcher] : launchers)
            names << QStringLiteral("%1 %2").arg(count).arg(launcher);
        text += QCoreApplication::translate(
                    "Parser", "; %1 starts without a finish left out (GPU side not recorded: %2)")
                    .arg(unfinishedStarts)
                    .arg(names.join(QStringLiteral(", ")));
    }
    return text;
}

} // namespace at
