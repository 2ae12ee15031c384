#pragma once

// Lenient, read-only loaders for the small configuration files a profile records next to its data
// (FORMATS.md §4.4): JSON objects (one line or pretty-printed), INI-like *.log text, and the header row of a
// summary CSV. Every loader reports a problem as a short English phrase ("the file is empty", "not valid
// JSON: ...") instead of failing, so the caller can name the file and keep reading the others.
// Nothing here writes anything.

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <optional>

namespace at::config {

enum class ConfigFileKind
{
    Unknown,
    SampleJson,       // sample.json
    InfoJson,         // info.json, info.json.<device>
    StartInfo,        // start_info, start_info.<device>
    EndInfo,          // end_info, end_info.<device>
    HostStartLog,     // host_start.log
    DevStartLog,      // dev_start.log.<device>
    ProfilerInfo,     // profiler_info.json, profiler_info_<rank>.json
    ProfilerMetadata, // profiler_metadata.json
};

struct ConfigFileName
{
    ConfigFileKind kind = ConfigFileKind::Unknown;
    std::optional<int> device; // ".<N>" suffix of info.json / start_info / end_info / dev_start.log
    std::optional<int> rank;   // "_<N>" of profiler_info_<N>.json
};

// Classifies by the file name only (the folder part of `path` is ignored).
ConfigFileName classifyConfigFile(const QString &path);

// Files above this size are refused: configuration files are a few KiB.
constexpr qint64 kMaxConfigFileBytes = 64LL * 1024 * 1024;

struct JsonFile
{
    QJsonObject object;
    QString problem; // empty when `object` was read
    bool ok() const { return problem.isEmpty(); }
};

// Reads a JSON object. Accepts a UTF-8 BOM, one-line or pretty-printed text, trailing commas, and text after
// the first line when the first line alone is a complete object (msprof reads only the first line of
// info.json).
JsonFile loadJsonObject(const QString &path);
JsonFile parseJsonObject(const QByteArray &bytes);

struct IniFile
{
    // "key: value" or "key=value" lines in file order; `section` is the last "[Section]" seen ("" before
    // one).
    struct Entry
    {
        QString section;
        QString key;
        QString value;
    };
    QList<Entry> entries;
    QString problem; // empty when at least one entry was read
    bool ok() const { return problem.isEmpty(); }
    QString value(const QString &key) const; // first entry with this key, any section
};

IniFile loadIniFile(const QString &path);
IniFile parseIniText(const QByteArray &bytes);

struct CsvHeader
{
    QStringList cells; // trimmed header names
    QString problem;   // empty when the header was read
    bool ok() const { return problem.isEmpty(); }
};

// Reads only the first record of a CSV file (at most the first MiB), through the project's CSV reader.
CsvHeader readCsvHeader(const QString &path);

// Reads a whole (small) file. Returns false with `problem` set when it is missing, a folder, unreadable,
// empty or too large.
bool readSmallFile(const QString &path, QByteArray *bytes, QString *problem);

// Display text of a scalar: strings trimmed, integers without exponent or fraction, other numbers in
// shortest form, booleans "true"/"false", arrays as their element texts joined by ", ". Null, undefined and
// objects give an empty string.
QString jsonText(const QJsonValue &value);
// Integer from a number or a numeric string ("12", " 12 ", 12, 12.0). nullopt otherwise.
std::optional<qint64> jsonInteger(const QJsonValue &value);
// true/false from a boolean, a number (non-zero) or a string ("true", "on", "1", "yes" / "false", "off", "0",
// "no", ""). nullopt for anything else (missing, null, other strings).
std::optional<bool> jsonBool(const QJsonValue &value);
// Value at a "/"-separated path of object keys ("config/experimental_config/_l2_cache"); undefined when a
// step is missing or not an object.
QJsonValue jsonAt(const QJsonObject &root, const QString &path);

// "yyyy-MM-dd HH:mm:ss.uuuuuu UTC" from microseconds since the Unix epoch.
QString utcDateFromMicroseconds(qint64 us);

} // namespace at::config
