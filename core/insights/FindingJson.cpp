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

// A finding's data with the share of the step time added.
QJsonObject dataOf(const Finding &f)
{
    QJsonObject data = f.data;
    data.insert(QStringLiteral("percent_of_step_time"), f.stepPercent);
    return data;
}

// One occurrence as an inline object: {"rank": 0, "name": "…", "start_us": …, "duration_us": …}.
QByteArray occurrenceJson(const InsightContext &context, const FindingOccurrence &o)
{
    return "{\"rank\": " + QByteArray::number(context.rankOf(o)) + ", \"name\": " + scalar(o.name) +
           ", \"start_us\": " + micros(context.model.origin() + o.start) +
           ", \"duration_us\": " + micros(o.duration) + "}";
}

// A share (0..1) with six decimals, written the same way on every platform.
QByteArray share(double value)
{
    return QByteArray::number(value, 'f', 6);
}

// "part", "rank", "part_us", "step_us", "share_of_part", "share_of_step": what the finding explains.
std::vector<std::pair<QString, QByteArray>> partFields(const Finding &f)
{
    return {{QStringLiteral("part"), scalar(stepPartId(f.part))},
            {QStringLiteral("rank"), QByteArray::number(f.rank)},
            {QStringLiteral("part_us"), micros(f.partTime)},
            {QStringLiteral("step_us"), micros(f.stepTime)},
            {QStringLiteral("share_of_part"), share(f.shareOfPart())},
            {QStringLiteral("share_of_step"), share(f.shareOfStep())}};
}

// advice: the explanation and the fix.
QString adviceOf(const Finding &f)
{
    return f.explanation + QLatin1Char(' ') + f.fix;
}

} // namespace

QByteArray findingsToJson(const InsightContext &context, const std::vector<Finding> &findings)
{
    QByteArray out = "{\n  \"findings\": [";
    for (std::size_t i = 0; i < findings.size(); ++i) {
        const Finding &f = findings[i];
        out += i == 0 ? "\n" : ",\n";
        out += "    {\n";
        out += "      \"check\": " + scalar(f.check) + ",\n";
        out += "      \"title\": " + scalar(f.title) + ",\n";
        out += "      \"severity\": " + scalar(severityId(f.severity)) + ",\n";
        out += "      \"time_at_stake_us\": " + micros(f.timeAtStake) + ",\n";
        for (const auto &[key, value] : partFields(f))
            out += "      " + scalar(key) + ": " + value + ",\n";
        out += "      \"occurrences\": [";
        for (std::size_t k = 0; k < f.occurrences.size(); ++k) {
            out += k == 0 ? "\n" : ",\n";
            out += "        " + occurrenceJson(context, f.occurrences[k]);
        }
        out += f.occurrences.empty() ? "],\n" : "\n      ],\n";
        out += "      \"advice\": " + scalar(adviceOf(f)) + ",\n";
        out += "      \"data\": " + nested(dataOf(f), 6) + "\n";
        out += "    }";
    }
    out += findings.empty() ? "]\n}\n" : "\n  ]\n}\n";
    return out;
}

void writeFindings(JsonWriter &j, const InsightContext &context, const std::vector<Finding> &findings)
{
    j.key(QStringLiteral("findings"));
    j.beginArray();
    for (const Finding &f : findings) {
        j.beginObject();
        j.field(QStringLiteral("check"), f.check);
        j.field(QStringLiteral("title"), f.title);
        j.field(QStringLiteral("severity"), severityId(f.severity));
        j.key(QStringLiteral("time_at_stake_us"));
        j.raw(QString::fromLatin1(micros(f.timeAtStake)));
        for (const auto &[key, value] : partFields(f)) {
            j.key(key);
            j.raw(QString::fromUtf8(value));
        }
        j.key(QStringLiteral("occurrences"));
        j.beginArray();
        for (const FindingOccurrence &o : f.occurrences)
            j.raw(QString::fromUtf8(occurrenceJson(context, o)));
        j.endArray();
        j.field(QStringLiteral("advice"), adviceOf(f));
        j.key(QStringLiteral("data"));
        j.raw(QString::fromUtf8(QJsonDocument(dataOf(f)).toJson(QJsonDocument::Compact)));
        j.endObject();
    }
    j.endArray();
}

} // namespace at
