#include "FindingJson.h"

#include <QJsonArray>

namespace at {

QJsonObject findingsToJson(const InsightContext &context, const std::vector<Finding> &findings)
{
    QJsonArray list;
    for (const Finding &f : findings) {
        QJsonArray occurrences;
        for (const FindingOccurrence &o : f.occurrences) {
            occurrences.append(
                QJsonObject{{QStringLiteral("rank"), context.rankOfGroup(o.group)},
                            {QStringLiteral("name"), o.name},
                            {QStringLiteral("start_us"), static_cast<double>(o.start) / 1000.0},
                            {QStringLiteral("duration_us"), static_cast<double>(o.duration) / 1000.0}});
        }
        QJsonObject data = f.data;
        data.insert(QStringLiteral("percent_of_step_time"), f.stepPercent);
        list.append(
            QJsonObject{{QStringLiteral("check"), f.check},
                        {QStringLiteral("title"), f.title},
                        {QStringLiteral("severity"), severityId(f.severity)},
                        {QStringLiteral("time_at_stake_us"), static_cast<double>(f.timeAtStake) / 1000.0},
                        {QStringLiteral("occurrences"), occurrences},
                        {QStringLiteral("advice"), f.explanation + QLatin1Char(' ') + f.fix},
                        {QStringLiteral("data"), data}});
    }
    return QJsonObject{{QStringLiteral("findings"), list}};
}

} // namespace at
