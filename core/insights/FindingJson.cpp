#include "FindingJson.h"

#include "ExactText.h"
#include "JsonWriter.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace at {

namespace {

// One JSON string literal, escaped as every document of the tool escapes it.
QByteArray scalar(const QString &value)
{
    return JsonWriter::quoted(value).toUtf8();
}

// An exact decimal µs number from ns: "1736408883732241.500".
QByteArray micros(TimeNs ns)
{
    return microsText(ns, MicrosDecimals::Three).toLatin1();
}

// A nested object (a finding's data) indented to sit at `indent` spaces.
QByteArray nested(const QJsonObject &object, int indent)
{
    QByteArray text = QJsonDocument(object).toJson(QJsonDocument::Indented).trimmed();
    text.replace("\n", "\n" + QByteArray(indent, ' '));
    return text;
}

} // namespace

QByteArray findingsToJson(const InsightContext &context, const std::vector<Finding> &findings)
{
    const TimeNs origin = context.model.origin();
    QByteArray out = "{\n  \"findings\": [";
    for (std::size_t i = 0; i < findings.size(); ++i) {
        const Finding &f = findings[i];
        QJsonObject data = f.data;
        data.insert(QStringLiteral("percent_of_step_time"), f.stepPercent);
        out += i == 0 ? "\n" : ",\n";
        out += "    {\n";
        out += "      \"check\": " + scalar(f.check) + ",\n";
        out += "      \"title\": " + scalar(f.title) + ",\n";
        out += "      \"severity\": " + scalar(severityId(f.severity)) + ",\n";
        out += "      \"time_at_stake_us\": " + micros(f.timeAtStake) + ",\n";
        out += "      \"occurrences\": [";
        for (std::size_t k = 0; k < f.occurrences.size(); ++k) {
            const FindingOccurrence &o = f.occurrences[k];
            out += k == 0 ? "\n" : ",\n";
            out += "        {\"rank\": " + QByteArray::number(context.rankOf(o)) +
                   ", \"name\": " + scalar(o.name) + ", \"start_us\": " + micros(origin + o.start) +
                   ", \"duration_us\": " + micros(o.duration) + "}";
        }
        out += f.occurrences.empty() ? "],\n" : "\n      ],\n";
        out += "      \"advice\": " + scalar(f.explanation + QLatin1Char(' ') + f.fix) + ",\n";
        out += "      \"data\": " + nested(data, 6) + "\n";
        out += "    }";
    }
    out += findings.empty() ? "]\n}\n" : "\n  ]\n}\n";
    return out;
}

} // namespace at
