#pragma once
// A small JSON tree for the cluster summary files (a few MB at most). Numbers keep the text the file
// wrote, so times are converted from their decimals (ClusterNumbers.h), never through a double.

#include <QString>
#include <QStringList>

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace at::cluster {

struct JsonMember;

struct JsonNode
{
    enum class Type
    {
        Null,
        Bool,
        Number,
        String,
        Array,
        Object
    };
    Type type = Type::Null;
    std::string text; // number token / unescaped string / "true" "false"
    // A vector of an incomplete type is fine; a std::pair of one is not (clang 14 with libstdc++).
    std::vector<JsonMember> members;
    std::vector<JsonNode> items;

    bool isObject() const { return type == Type::Object; }
    // The member with this key, or a Null node.
    const JsonNode &operator[](std::string_view key) const;
    QString string() const { return QString::fromStdString(text); }
    double toDouble(double fallback = 0) const;
    long long toInt(long long fallback = -1) const;
};

// One member of an object: its key and value (first/second, as the std::pair it replaces).
struct JsonMember
{
    JsonMember(std::string key, JsonNode value) : first(std::move(key)), second(std::move(value)) {}
    std::string first;
    JsonNode second;
};

// Reads the doubles of one file (ratios, MB, GB/s), keeping the values that are not finite ("nan", "inf",
// "-inf", 1e400) out: they read as the fallback and warnings() names each field once with its first bad
// value, so every number the cluster code computes from them stays finite.
class FiniteNumbers
{
public:
    explicit FiniteNumbers(QString file) : m_file(std::move(file)) {}
    double read(const JsonNode &node, std::string_view field, double fallback = 0);
    QStringList warnings() const;

private:
    struct Bad
    {
        std::string field, text;
        int count = 0;
    };
    QString m_file;
    std::vector<Bad> m_bad;
};

// Parses a file; on failure returns false and sets *error (file name and what is wrong).
bool readJsonFile(const QString &path, JsonNode &root, QString *error);

// As readJsonFile, but each array first goes to filter with the keys down to it (array elements add no
// key) and its text as the file has it; when filter returns true the array is not converted (its node is
// an empty array). For arrays repeated verbatim across files: every rank's profiler_metadata.json lists the
// world group's ranks (a million numbers at 1,024 ranks, issue #32), converted once per distinct text.
// The text given to filter is well-formed JSON only as far as the structural scan checks it: a filter that
// takes an array must know the text (e.g. equal to one converted before).
using JsonArrayFilter = std::function<bool(const std::vector<std::string> &keys, std::string_view text)>;
bool readJsonFile(const QString &path, JsonNode &root, QString *error, const JsonArrayFilter &filter);

// Reads a file whose top `depth` levels are objects (communication.json: step → kind → op) one member of
// level `depth` at a time, without building the whole tree: visit(keys, value) gets the keys down to the
// member (keys.size() == depth) and the member's value as a small tree. A value above that depth that is
// not an object has no members, as in readJsonFile. The file is mapped and the pages already scanned are
// given back as it goes, so reading costs about the size of one member plus what visit keeps.
// visit returns false to stop reading (the members visited so far stand; the function returns true).
// Returns false with *error (the file and what is wrong, as readJsonFile) for a file that is not valid JSON
// or not an object, or changed while read; the caller then drops what visit kept.
using JsonMemberVisitor = std::function<bool(const std::vector<std::string> &keys, const JsonNode &value)>;
bool streamJsonMembers(const QString &path, int depth, const JsonMemberVisitor &visit, QString *error);

// Reads a file that is a JSON object, walking into the objects and arrays walk.walkInto chooses, so that a
// large array is read one element at a time (a prepared summary's ops) and nothing is held but what the
// callbacks keep. For each member whose value is an object or an array, walkInto(keys) (the keys down to
// the member) says whether to walk into it. Every other value is given whole as a small tree: a member to
// member(keys, value), with the keys down to it; an element of an array walked into to element(keys, value),
// with the keys down to the array. Either returns false to stop reading (*stopped is then set, and the
// function returns true). bytes(offset, text), when given, gets every byte of the file once and in order
// before its pages are given back (the file is mapped and its pages dropped every 8 MiB behind the scan, as
// streamJsonMembers does), so a checksum of the file is made in the same read. Errors as streamJsonMembers.
struct JsonWalk
{
    std::function<bool(const std::vector<std::string> &keys)> walkInto;
    std::function<bool(const std::vector<std::string> &keys, const JsonNode &value)> member;
    std::function<bool(const std::vector<std::string> &keys, const JsonNode &value)> element;
    std::function<void(std::size_t offset, std::string_view text)> bytes;
};
bool walkJsonFile(const QString &path, const JsonWalk &walk, QString *error, bool *stopped = nullptr);

} // namespace at::cluster
