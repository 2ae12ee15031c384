#include "JsonArgsReader.h"

#include "JsonEventScanner.h"

#include <simdjson.h>

namespace at {

namespace od = simdjson::ondemand;

JsonArgsReader::JsonArgsReader(std::unique_ptr<MappedFile> file, std::unique_ptr<QTemporaryFile> temporary)
    : m_temporary(std::move(temporary)), m_file(std::move(file))
{}

JsonArgsReader::~JsonArgsReader() = default;

namespace {

// Calls f(key, text) for each arg of the event at offset: strings unescaped, objects and arrays as raw
// JSON, other scalars as written. Stops at the first malformed field.
template <typename F> void forEachArg(const MappedFile &file, std::uint64_t offset, F &&f)
{
    const char *data = file.data();
    const std::size_t size = file.size();
    if (offset >= size)
        return;
    const std::size_t end = JsonEventScanner::valueEnd(data, size, offset);
    if (end == JsonEventScanner::npos)
        return;
    const simdjson::padded_string event(data + offset, end - offset);
    od::parser parser;
    od::document doc;
    od::object object;
    od::object args;
    if (parser.iterate(event).get(doc) || doc.get_object().get(object) ||
        object["args"].get_object().get(args))
        return;
    for (auto field : args) {
        std::string_view key;
        if (field.unescaped_key().get(key))
            break;
        od::value value = field.value();
        std::string_view text;
        od::json_type type;
        if (value.type().get(type))
            break;
        if (type == od::json_type::string) {
            if (value.get_string().get(text))
                break;
        } else if (type == od::json_type::object) {
            od::object inner;
            if (value.get_object().get(inner) || inner.raw_json().get(text))
                break;
        } else if (type == od::json_type::array) {
            od::array inner;
            if (value.get_array().get(inner) || inner.raw_json().get(text))
                break;
        } else {
            // Raw scalar tokens carry the whitespace that follows them in the file.
            text = value.raw_json_token();
            while (!text.empty() &&
                   (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' || text.back() == '\t'))
                text.remove_suffix(1);
        }
        f(key, text);
    }
}

QString toQString(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

} // namespace

std::vector<std::pair<QString, QString>> JsonArgsReader::readArgs(std::uint64_t offset) const
{
    std::vector<std::pair<QString, QString>> result;
    forEachArg(*m_file, offset, [&](std::string_view key, std::string_view text) {
        result.emplace_back(toQString(key), toQString(text));
    });
    return result;
}

std::optional<TaskIds> JsonArgsReader::taskIds(std::uint64_t offset) const
{
    // The Ascend Hardware args of FORMATS.md §3 ("Task Id", "Subtask Id"; 4294967295 = no subtask).
    std::optional<std::int64_t> task, subtask; // the first of each key counts
    auto number = [](std::string_view text) {
        bool ok = false;
        const qlonglong value = toQString(text).toLongLong(&ok);
        return ok ? value : TaskIds::kNone;
    };
    forEachArg(*m_file, offset, [&](std::string_view key, std::string_view text) {
        if (key == "Task Id" && !task)
            task = number(text);
        else if (key == "Subtask Id" && !subtask)
            subtask = number(text);
    });
    TaskIds ids;
    ids.taskId = task.value_or(TaskIds::kNone);
    ids.subtaskId = subtask.value_or(TaskIds::kNone);
    if (ids.subtaskId == 4294967295LL)
        ids.subtaskId = TaskIds::kNone;
    return ids;
}

} // namespace at
