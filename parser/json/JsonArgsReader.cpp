#include "JsonArgsReader.h"

#include "JsonEventScanner.h"

#include <simdjson.h>

namespace at {

namespace od = simdjson::ondemand;

JsonArgsReader::JsonArgsReader(std::unique_ptr<MappedFile> file, std::unique_ptr<QTemporaryFile> temporary)
    : m_temporary(std::move(temporary)), m_file(std::move(file))
{}

JsonArgsReader::~JsonArgsReader() = default;

std::vector<std::pair<QString, QString>> JsonArgsReader::readArgs(std::uint64_t offset) const
{
    std::vector<std::pair<QString, QString>> result;
    const char *data = m_file->data();
    const std::size_t size = m_file->size();
    if (offset >= size)
        return result;
    const std::size_t end = JsonEventScanner::valueEnd(data, size, offset);
    if (end == JsonEventScanner::npos)
        return result;
    const simdjson::padded_string event(data + offset, end - offset);
    od::parser parser;
    od::document doc;
    od::object object;
    od::object args;
    if (parser.iterate(event).get(doc) || doc.get_object().get(object) ||
        object["args"].get_object().get(args))
        return result;
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
        result.emplace_back(QString::fromUtf8(key.data(), static_cast<qsizetype>(key.size())),
                            QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())));
    }
    return result;
}

} // namespace at
