#pragma once

// The events of a Kineto sample as the JSON text says, read with QJsonDocument: the expectations of the
// kineto suites are computed from these, independently of the reader's own pass (simdjson).

#include "TestSupport.h"
#include "common/Decompress.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace at::test {

inline QString kinetoSample(const QString &name)
{
    return samplePath(QStringLiteral("hta_kineto_gpu_traces/") + name);
}

// The decompressed top-level object of a .json.gz sample (empty on failure, with a warning).
inline QJsonObject kinetoSampleJson(const QString &path)
{
    QString error;
    const auto temporary = decompressToTemporaryFile(path, detectCompression(path), {}, &error);
    if (!temporary) {
        qWarning("cannot decompress %s: %s", qPrintable(path), qPrintable(error));
        return {};
    }
    QFile file(temporary->fileName());
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        qWarning("%s: %s", qPrintable(path), qPrintable(parseError.errorString()));
    return document.object();
}

// The events of the trace with this category (and phase, when given).
inline std::vector<QJsonObject> kinetoEvents(const QJsonObject &root, const QString &category,
                                             const QString &phase = {})
{
    std::vector<QJsonObject> events;
    for (const QJsonValue &value : root.value(QStringLiteral("traceEvents")).toArray()) {
        const QJsonObject event = value.toObject();
        if (event.value(QStringLiteral("cat")).toString() == category &&
            (phase.isEmpty() || event.value(QStringLiteral("ph")).toString() == phase))
            events.push_back(event);
    }
    return events;
}

// µs as the JSON gives them (a double) to ns: exact for integer µs (any size) and for durations; a
// timestamp with a fraction (≈ 4.5e12 µs in nccl_data) is within a few ns of its text.
inline qint64 microsToNs(const QJsonValue &value)
{
    const double micros = value.toDouble();
    if (micros == std::floor(micros) && std::fabs(micros) < 9e15)
        return static_cast<qint64>(micros) * 1000;
    return qRound64(micros * 1000.0);
}

} // namespace at::test
