#include "cluster/JsonTree.h"

#include "common/MappedFile.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <memory>

#include <simdjson.h>

namespace od = simdjson::ondemand;

namespace at::cluster {

namespace {

constexpr int kMaxDepth = 64;

bool convert(od::value value, JsonNode &node, int depth)
{
    if (depth > kMaxDepth)
        return false;
    od::json_type type;
    if (value.type().get(type))
        return false;
    switch (type) {
    case od::json_type::object: {
        node.type = JsonNode::Type::Object;
        od::object object;
        if (value.get_object().get(object))
            return false;
        for (auto field : object) {
            std::string_view key;
            if (field.unescaped_key().get(key))
                return false;
            node.members.emplace_back(std::string(key), JsonNode{});
            od::value inner;
            if (field.value().get(inner) || !convert(inner, node.members.back().second, depth + 1))
                return false;
        }
        return true;
    }
    case od::json_type::array: {
        node.type = JsonNode::Type::Array;
        od::array array;
        if (value.get_array().get(array))
            return false;
        for (auto element : array) {
            od::value inner;
            node.items.emplace_back();
            if (element.get(inner) || !convert(inner, node.items.back(), depth + 1))
                return false;
        }
        return true;
    }
    case od::json_type::string: {
        node.type = JsonNode::Type::String;
        std::string_view text;
        if (value.get_string().get(text))
            return false;
        node.text = std::string(text);
        return true;
    }
    case od::json_type::number: {
        node.type = JsonNode::Type::Number;
        std::string_view token = value.raw_json_token();
        while (!token.empty() &&
               (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' || token.back() == '\t'))
            token.remove_suffix(1);
        node.text = std::string(token);
        return true;
    }
    case od::json_type::boolean: {
        node.type = JsonNode::Type::Bool;
        bool b = false;
        if (value.get_bool().get(b))
            return false;
        node.text = b ? "true" : "false";
        return true;
    }
    default:
        node.type = JsonNode::Type::Null;
        return !value.is_null().error();
    }
}

} // namespace

const JsonNode &JsonNode::operator[](std::string_view key) const
{
    static const JsonNode null;
    for (const auto &m : members)
        if (m.first == key)
            return m.second;
    return null;
}

double JsonNode::toDouble(double fallback) const
{
    if (type != Type::Number && type != Type::String)
        return fallback;
    bool ok = false;
    const double v = QString::fromStdString(text).trimmed().toDouble(&ok);
    return ok ? v : fallback;
}

double FiniteNumbers::read(const JsonNode &node, std::string_view field, double fallback)
{
    if (node.type != JsonNode::Type::Number && node.type != JsonNode::Type::String)
        return fallback;
    bool ok = false;
    const double v = QString::fromStdString(node.text).trimmed().toDouble(&ok);
    if (ok && std::isfinite(v))
        return v;
    if (!ok && !std::isinf(v))
        return fallback; // not a number at all: read as before
    auto it = std::find_if(m_bad.begin(), m_bad.end(), [&](const Bad &b) { return b.field == field; });
    if (it == m_bad.end())
        it = m_bad.insert(m_bad.end(), Bad{std::string(field), node.text, 0});
    ++it->count;
    return fallback;
}

QStringList FiniteNumbers::warnings() const
{
    QStringList out;
    for (const Bad &b : m_bad)
        out << QCoreApplication::translate("Parser",
                                           "%1: %2 is \"%3\", not a finite number (%n value(s)); read as 0",
                                           nullptr, b.count)
                   .arg(m_file, QString::fromStdString(b.field), QString::fromStdString(b.text));
    return out;
}

long long JsonNode::toInt(long long fallback) const
{
    if (type != Type::Number && type != Type::String)
        return fallback;
    bool ok = false;
    const long long v = QString::fromStdString(text).trimmed().toLongLong(&ok);
    return ok ? v : fallback;
}

bool readJsonFile(const QString &path, JsonNode &root, QString *error)
{
    // MappedFile opens with O_NONBLOCK and maps regular files only: a FIFO named like a cluster file never
    // blocks (its message names the path and what it is).
    QString problem;
    const std::unique_ptr<MappedFile> mapped = MappedFile::open(path, &problem);
    if (!mapped) {
        *error = problem;
        return false;
    }
    const simdjson::padded_string json(mapped->data(), mapped->size());
    if (mapped->truncated()) {
        *error = mapped->truncationMessage();
        return false;
    }
    od::parser parser;
    od::document doc;
    root = JsonNode{};
    if (parser.iterate(json).get(doc)) {
        *error = QCoreApplication::translate("Parser", "%1: not valid JSON").arg(path);
        return false;
    }
    // A document that is a bare scalar cannot be read as a value; every cluster file is an object.
    od::object object;
    if (doc.get_object().get(object)) {
        *error = QCoreApplication::translate("Parser", "%1: not a JSON object").arg(path);
        return false;
    }
    root.type = JsonNode::Type::Object;
    for (auto field : object) {
        std::string_view key;
        od::value inner;
        if (field.unescaped_key().get(key) || field.value().get(inner)) {
            *error = QCoreApplication::translate("Parser", "%1: not valid JSON").arg(path);
            return false;
        }
        root.members.emplace_back(std::string(key), JsonNode{});
        if (!convert(inner, root.members.back().second, 1)) {
            *error = QCoreApplication::translate("Parser", "%1: not valid JSON near key \"%2\"")
                         .arg(path, QString::fromUtf8(key.data(), static_cast<qsizetype>(key.size())));
            return false;
        }
    }
    return true;
}

} // namespace at::cluster
