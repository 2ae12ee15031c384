#include "KinetoMetadata.h"

#include "json/JsonEventScanner.h"

#include <QCoreApplication>

#include <simdjson.h>

#include <array>
#include <limits>
#include <string>
#include <string_view>

namespace at {

namespace {

namespace dom = simdjson::dom;

constexpr std::size_t kHeadBytes = 1 << 20;

std::size_t firstContentByte(const char *data, std::size_t size)
{
    std::size_t i = size >= 3 && std::string_view(data, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
        ++i;
    return i;
}

QString qstr(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

// An integer written as a JSON integer or as a string of digits; never through a double.
std::optional<std::int64_t> integerOf(dom::element value)
{
    std::int64_t i = 0;
    if (value.get_int64().get(i) == simdjson::SUCCESS)
        return i;
    std::string_view text;
    if (value.get_string().get(text) != simdjson::SUCCESS || text.empty() || text.size() > 18)
        return std::nullopt;
    std::int64_t n = 0;
    for (const char c : text) {
        if (c < '0' || c > '9')
            return std::nullopt;
        n = n * 10 + (c - '0');
    }
    return n;
}

// A value as the Collection panel shows it: strings unquoted, numbers as written, the rest as compact JSON.
QString textOf(dom::element value)
{
    std::string_view text;
    if (value.get_string().get(text) == simdjson::SUCCESS)
        return qstr(text);
    if (const auto i = integerOf(value))
        return QString::number(*i);
    QString json = qstr(simdjson::minify(value));
    constexpr qsizetype kMaxChars = 300;
    if (json.size() > kMaxChars)
        json = json.left(kMaxChars) + QStringLiteral("…");
    return json;
}

// "default_pg (0): 2 ranks [0,1], cuda:nccl" for one pg_config entry.
QString processGroupText(dom::element group)
{
    dom::object object;
    if (group.get_object().get(object) != simdjson::SUCCESS)
        return textOf(group);
    QString name, description, backend, size, ranks;
    for (const auto field : object) {
        if (field.key == "pg_name")
            name = textOf(field.value);
        else if (field.key == "pg_desc")
            description = textOf(field.value);
        else if (field.key == "backend_config")
            backend = textOf(field.value);
        else if (field.key == "pg_size")
            size = textOf(field.value);
        else if (field.key == "ranks")
            ranks = textOf(field.value);
    }
    QString text = description.isEmpty() ? name : QStringLiteral("%1 (%2)").arg(description, name);
    if (!size.isEmpty())
        text += QCoreApplication::translate("Parser", ": %1 ranks").arg(size);
    if (!ranks.isEmpty())
        text += QStringLiteral(" ") + ranks;
    if (!backend.isEmpty())
        text += QStringLiteral(", ") + backend;
    return text;
}

void readDistributedInfo(dom::element value, KinetoMetadata &out)
{
    dom::object object;
    if (value.get_object().get(object) != simdjson::SUCCESS)
        return;
    for (const auto field : object) {
        const QString key = qstr(field.key);
        if (field.key == "rank")
            out.rank = integerOf(field.value);
        else if (field.key == "world_size")
            out.worldSize = integerOf(field.value);
        dom::array groups;
        if (field.key == "pg_config" && field.value.get_array().get(groups) == simdjson::SUCCESS) {
            QStringList texts;
            for (const dom::element group : groups)
                texts << processGroupText(group);
            out.distributed.append({key, texts.join(QStringLiteral("; "))});
            continue;
        }
        out.distributed.append({key, textOf(field.value)});
    }
}

void readDeviceProperties(dom::element value, KinetoMetadata &out)
{
    dom::array devices;
    if (value.get_array().get(devices) != simdjson::SUCCESS)
        return;
    for (const dom::element entry : devices) {
        dom::object object;
        if (entry.get_object().get(object) != simdjson::SUCCESS)
            continue;
        KinetoDevice device;
        for (const auto field : object) {
            const std::optional<std::int64_t> number = integerOf(field.value);
            if (field.key == "id" && number)
                device.id = *number;
            else if (field.key == "name")
                device.name = textOf(field.value);
            else if (field.key == "totalGlobalMem" && number)
                device.totalGlobalMemBytes = *number;
            else if (field.key == "computeMajor" && number)
                device.computeMajor = *number;
            else if (field.key == "computeMinor" && number)
                device.computeMinor = *number;
            else if (field.key == "numSms" && number)
                device.numSms = *number;
        }
        out.devices.append(device);
    }
}

} // namespace

bool looksLikeKinetoTrace(const char *data, std::size_t size)
{
    const std::size_t first = firstContentByte(data, size);
    if (first >= size || data[first] != '{')
        return false;
    const std::string_view head(data + first, std::min(size - first, kHeadBytes));
    if (head.find("\"traceEvents\"") == std::string_view::npos)
        return false;
    static constexpr std::array kMarkers{
        std::string_view("\"schemaVersion\""),
        std::string_view("\"deviceProperties\""),
        std::string_view("\"baseTimeNanoseconds\""),
        std::string_view("\"distributedInfo\""),
        std::string_view("\"cpu_op\""),
        std::string_view("\"cuda_runtime\""),
        std::string_view("\"kernel\""),
        std::string_view("\"ac2g\""),
    };
    for (const std::string_view marker : kMarkers)
        if (head.find(marker) != std::string_view::npos)
            return true;
    return false;
}

KinetoMetadata readKinetoMetadata(const char *data, std::size_t size, std::size_t eventArrayEnd)
{
    KinetoMetadata out;
    JsonEventScanner scanner(data, size);
    QString problem;
    if (!scanner.locateEvents(&problem) || scanner.position() == 0 || data[scanner.position() - 1] != '[') {
        out.problem = problem;
        return out;
    }
    // The object with its event array emptied: a few KB whatever the size of the trace.
    const std::size_t arrayBegin = scanner.position() - 1;
    std::string keys(data, arrayBegin);
    keys += "[]";
    if (eventArrayEnd > arrayBegin && eventArrayEnd <= size)
        keys.append(data + eventArrayEnd, size - eventArrayEnd);
    else
        keys += "}"; // not read yet, or cut off inside the events: only the keys before them
    dom::parser parser;
    dom::object object;
    if (const auto error = parser.parse(keys).get(object); error != simdjson::SUCCESS) {
        out.problem = QString::fromUtf8(simdjson::error_message(error));
        return out;
    }
    for (const auto field : object) {
        if (field.key == "baseTimeNanoseconds") {
            out.baseTimeNs = integerOf(field.value);
            if (!out.baseTimeNs) // a double would lose the ns (FORMATS.md §10.2): not guessed at
                out.problem =
                    QCoreApplication::translate("Parser", "baseTimeNanoseconds is not an integer: %1")
                        .arg(textOf(field.value));
        } else if (field.key == "schemaVersion")
            out.schemaVersion = integerOf(field.value);
        else if (field.key == "displayTimeUnit")
            out.displayTimeUnit = textOf(field.value);
        else if (field.key == "traceName")
            out.traceName = textOf(field.value);
        else if (field.key == "distributedInfo")
            readDistributedInfo(field.value, out);
        else if (field.key == "deviceProperties")
            readDeviceProperties(field.value, out);
    }
    return out;
}

} // namespace at
