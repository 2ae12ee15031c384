#include "folder/NamePatterns.h"

#include <QMap>
#include <QRegularExpression>

#include <algorithm>
#include <map>
#include <tuple>

namespace at::profile_names {

namespace {

std::optional<int> toInt(const QString &digits)
{
    bool ok = false;
    const int value = digits.toInt(&ok);
    return ok ? std::optional<int>(value) : std::nullopt;
}

std::optional<int> optionalInt(const QRegularExpressionMatch &m, int group)
{
    return m.hasCaptured(group) && !m.captured(group).isEmpty() ? toInt(m.captured(group)) : std::nullopt;
}

bool isAsciiDigit(QChar c)
{
    return c.unicode() >= u'0' && c.unicode() <= u'9';
}

// Compares two runs of ASCII digits by value.
int compareDigitRuns(QStringView a, QStringView b)
{
    while (a.size() > 1 && a.front() == u'0')
        a = a.mid(1);
    while (b.size() > 1 && b.front() == u'0')
        b = b.mid(1);
    if (a.size() != b.size())
        return a.size() < b.size() ? -1 : 1;
    return a.compare(b);
}

} // namespace

std::optional<ExportFileName> parseExportFileName(const QString &fileName)
{
    static const QRegularExpression g1(
        QStringLiteral(R"(^([a-z][a-z_]*?)_(\d+)_(\d+)_(\d+)(?:_slice_(\d+))?(?:_(\d{14}))?\.(json|csv)$)"));
    static const QRegularExpression g3(
        QStringLiteral(R"(^([a-z][a-z0-9_]*?)(?:_slice_(\d+))?_(\d+)\.(json|csv)$)"));
    static const QRegularExpression plain(QStringLiteral(R"(^([A-Za-z][A-Za-z0-9_]*)\.(json|csv)$)"));

    ExportFileName out;
    if (const auto m = g1.match(fileName); m.hasMatch()) {
        out.type = m.captured(1);
        out.device = optionalInt(m, 2);
        out.model = optionalInt(m, 3);
        out.iteration = optionalInt(m, 4);
        out.slice = optionalInt(m, 5);
        out.timestamp = m.captured(6);
        out.extension = m.captured(7);
        if (!out.device || !out.model || !out.iteration)
            return std::nullopt; // ids too large for int: not an msprof name
        return out;
    }
    if (const auto m = g3.match(fileName); m.hasMatch()) {
        out.type = m.captured(1);
        out.slice = optionalInt(m, 2);
        out.timestamp = m.captured(3);
        out.extension = m.captured(4);
        return out;
    }
    if (const auto m = plain.match(fileName); m.hasMatch()) {
        out.type = m.captured(1);
        out.extension = m.captured(2);
        return out;
    }
    return std::nullopt;
}

bool isProfDirName(const QString &name)
{
    return name.startsWith(QStringLiteral("PROF_"));
}

bool isStrictProfDirName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral(R"(^PROF_\d{6}_\d{17}_[A-Z]{16}$)"));
    return re.match(name).hasMatch();
}

std::optional<int> deviceIdFromDirName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral(R"(^device_(\d+)$)"));
    const auto m = re.match(name);
    return m.hasMatch() ? toInt(m.captured(1)) : std::nullopt;
}

bool isTorchRootName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral(R"(_ascend_(pt|ms)$)"));
    return re.match(name).hasMatch();
}

bool isProfilerInfoName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral(R"(^profiler_info(_\d{1,5})?\.json$)"));
    return re.match(name).hasMatch();
}

std::optional<int> rankFromProfilerInfoName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral(R"(^profiler_info_(\d{1,5})\.json$)"));
    const auto m = re.match(name);
    return m.hasMatch() ? toInt(m.captured(1)) : std::nullopt;
}

bool isMasterTimelineName(const QString &name)
{
    static const QRegularExpression re(
        QStringLiteral(R"(^msprof((?:_\d+)*)(?:_slice_(\d+))?((?:_\d+)*)\.json$)"));
    return re.match(name).hasMatch(); // msprof_tx_* cannot match: only digit tokens may follow "msprof"
}

bool isTraceViewName(const QString &name)
{
    return name == QStringLiteral("trace_view.json");
}

bool isMsprofDbName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral(R"(^msprof_\d{1,16}\.db$)"));
    return re.match(name).hasMatch();
}

bool isTorchDbName(const QString &name)
{
    static const QRegularExpression re(
        QStringLiteral(R"(^(?:ascend_pytorch_profiler(_\d{1,16})?|ascend_mindspore_profiler(_\d+)?)\.db$)"));
    return re.match(name).hasMatch();
}

std::optional<int> rankFromTorchDbName(const QString &name)
{
    static const QRegularExpression re(
        QStringLiteral(R"(^ascend_(?:pytorch|mindspore)_profiler_(\d{1,9})\.db$)"));
    const auto m = re.match(name);
    return m.hasMatch() ? toInt(m.captured(1)) : std::nullopt;
}

bool isConfigFileName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral(
        R"(^(?:sample\.json|info\.json(?:\.\d+)?|start_info(?:\.\d+)?|end_info(?:\.\d+)?|host_start\.log)"
        R"(|dev_start\.log(?:\.\d+)?|profiler_info(?:_\d{1,5})?\.json|profiler_metadata\.json)$)"));
    return re.match(name).hasMatch();
}

std::optional<int> rankFromFolderName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral(R"((?:^|[^A-Za-z0-9])rank[_-]?(\d{1,6})(?![0-9]))"),
                                       QRegularExpression::CaseInsensitiveOption);
    const auto m = re.match(name);
    return m.hasMatch() ? toInt(m.captured(1)) : std::nullopt;
}

int naturalCompare(const QString &a, const QString &b)
{
    qsizetype i = 0;
    qsizetype j = 0;
    while (i < a.size() && j < b.size()) {
        if (isAsciiDigit(a[i]) && isAsciiDigit(b[j])) {
            const qsizetype si = i;
            const qsizetype sj = j;
            while (i < a.size() && isAsciiDigit(a[i]))
                ++i;
            while (j < b.size() && isAsciiDigit(b[j]))
                ++j;
            if (const int c =
                    compareDigitRuns(QStringView(a).mid(si, i - si), QStringView(b).mid(sj, j - sj)))
                return c;
            continue;
        }
        if (a[i] != b[j])
            return a[i] < b[j] ? -1 : 1;
        ++i;
        ++j;
    }
    if (i < a.size())
        return 1;
    if (j < b.size())
        return -1;
    return a.compare(b); // "01" vs "1": equal by value, keep a total order
}

bool naturalLess(const QString &a, const QString &b)
{
    return naturalCompare(a, b) < 0;
}

int compareTimestamps(const QString &a, const QString &b)
{
    if (a.isEmpty() || b.isEmpty())
        return a.isEmpty() == b.isEmpty() ? 0 : (a.isEmpty() ? -1 : 1);
    return compareDigitRuns(a, b);
}

namespace {

using GroupKey = std::tuple<int, int, int, QString, QString>; // device, model, iteration, type, extension

GroupKey groupKeyOf(const ExportFileName &n)
{
    return {n.device.value_or(-1), n.model.value_or(-1), n.iteration.value_or(-1), n.type, n.extension};
}

QList<ExportFile> newestOfGroup(const QList<ExportFile> &group)
{
    const ExportFile *unsliced = nullptr;
    QList<ExportFile> sliced;
    for (const ExportFile &f : group) {
        if (!f.name.slice) {
            if (!unsliced || compareTimestamps(f.name.timestamp, unsliced->name.timestamp) > 0)
                unsliced = &f;
        } else {
            sliced.append(f);
        }
    }
    if (sliced.isEmpty())
        return {*unsliced};

    // The newest export's first slice (normally slice_0) anchors the sliced group.
    const int firstSlice = std::min_element(sliced.cbegin(), sliced.cend(), [](const auto &x, const auto &y) {
                               return *x.name.slice < *y.name.slice;
                           })->name.slice.value();
    QString anchor;
    for (const ExportFile &f : sliced) {
        if (*f.name.slice == firstSlice && compareTimestamps(f.name.timestamp, anchor) > 0)
            anchor = f.name.timestamp;
    }
    if (unsliced && compareTimestamps(unsliced->name.timestamp, anchor) > 0)
        return {*unsliced}; // a later unsliced re-export replaces the sliced one

    QMap<int, ExportFile> bySlice; // newest file per slice index, ordered by index
    for (const ExportFile &f : sliced) {
        if (compareTimestamps(f.name.timestamp, anchor) < 0)
            continue;
        const auto it = bySlice.constFind(*f.name.slice);
        if (it == bySlice.cend() || compareTimestamps(f.name.timestamp, it->name.timestamp) > 0)
            bySlice.insert(*f.name.slice, f);
    }
    return bySlice.values();
}

} // namespace

QList<ExportFile> selectNewestExports(const QList<ExportFile> &files)
{
    std::map<GroupKey, QList<ExportFile>> groups; // std::map: ordered by device, model, iteration, type
    for (const ExportFile &f : files)
        groups[groupKeyOf(f.name)].append(f);

    QList<ExportFile> out;
    for (const auto &[key, group] : groups)
        out.append(newestOfGroup(group));
    return out;
}

} // namespace at::profile_names
