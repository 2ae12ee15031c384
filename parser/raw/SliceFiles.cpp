#include "SliceFiles.h"

#include <QDir>
#include <QMap>
#include <QRegularExpression>

#include <QFileInfo>

#include <algorithm>

#include <sys/mman.h>
#include <unistd.h>

namespace at::raw {

namespace {

const QRegularExpression &slicePattern()
{
    static const QRegularExpression re(QStringLiteral("^(.+)\\.slice_(\\d+)$"));
    return re;
}

bool isCompanion(const QString &name)
{
    return name.endsWith(QLatin1String(".done")) || name.endsWith(QLatin1String(".complete")) ||
           name.endsWith(QLatin1String(".zip"));
}

int agingRank(const QString &stream)
{
    if (stream.startsWith(QLatin1String("unaging.")))
        return 0;
    if (stream.startsWith(QLatin1String("aging.")))
        return 1;
    return 0;
}

} // namespace

std::uint64_t filesBytes(const QStringList &files)
{
    std::uint64_t bytes = 0;
    for (const QString &f : files)
        bytes += static_cast<std::uint64_t>(std::max<qint64>(0, QFileInfo(f).size()));
    return bytes;
}

void releaseMappedPages(const char *mapping, std::size_t begin, std::size_t end)
{
    static const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    // Whole pages (the mapping starts on a page); the page holding `end` may still be read.
    begin = begin / page * page;
    end = end / page * page;
    if (mapping && end > begin)
        ::madvise(const_cast<char *>(mapping) + begin, end - begin, MADV_DONTNEED);
}

std::optional<std::int64_t> sliceNumber(const QString &fileName)
{
    if (isCompanion(fileName))
        return std::nullopt;
    const auto m = slicePattern().match(fileName);
    if (!m.hasMatch())
        return std::nullopt;
    bool ok = false;
    const qint64 k = m.captured(2).toLongLong(&ok);
    return ok ? std::optional<std::int64_t>(k) : std::nullopt;
}

QString sliceStreamName(const QString &fileName)
{
    const auto m = slicePattern().match(fileName);
    return m.hasMatch() ? m.captured(1) : QString();
}

std::vector<SliceStreamFiles> listSliceStreams(const QString &dir)
{
    // Unreadable slices, dangling links and special files named like slices are listed too: reading them
    // fails with a message naming the file and why (a readable-only listing dropped them without a word,
    // and a folder of such slices ended in "no raw record could be decoded" with no reason).
    const QStringList names = QDir(dir).entryList(QDir::Files | QDir::System, QDir::Name);
    QMap<QString, QList<QPair<std::int64_t, QString>>> byStream;
    for (const QString &name : names) {
        const auto k = sliceNumber(name);
        if (!k)
            continue;
        byStream[sliceStreamName(name)].append({*k, QDir(dir).filePath(name)});
    }
    std::vector<SliceStreamFiles> streams;
    for (auto it = byStream.begin(); it != byStream.end(); ++it) {
        auto slices = it.value();
        std::sort(slices.begin(), slices.end(),
                  [](const auto &a, const auto &b) { return a.first < b.first; });
        SliceStreamFiles s;
        s.stream = it.key();
        for (const auto &slice : slices)
            s.files << slice.second;
        streams.push_back(std::move(s));
    }
    std::stable_sort(streams.begin(), streams.end(),
                     [](const SliceStreamFiles &a, const SliceStreamFiles &b) {
                         return agingRank(a.stream) < agingRank(b.stream);
                     });
    return streams;
}

} // namespace at::raw
