#include "RawFolderFiles.h"

#include "config/ConfigFiles.h"

#include <QDir>

namespace at::raw {

QString firstFileStartingWith(const QString &dir, const QString &prefix)
{
    const QStringList names = QDir(dir).entryList({prefix + QLatin1Char('*')}, QDir::Files, QDir::Name);
    for (const QString &n : names)
        if (!n.endsWith(QLatin1String(".done")) && !n.endsWith(QLatin1String(".complete")))
            return QDir(dir).filePath(n);
    return {};
}

std::optional<std::int64_t> startInfoOffset(const QString &path)
{
    if (path.isEmpty())
        return std::nullopt;
    const config::JsonFile f = config::loadJsonObject(path);
    if (!f.ok())
        return std::nullopt;
    const auto begin = config::jsonInteger(f.object.value(QStringLiteral("collectionTimeBegin")));
    const auto mono = config::jsonInteger(f.object.value(QStringLiteral("clockMonotonicRaw")));
    if (!begin || !mono)
        return std::nullopt;
    return monotonicToLocalOffset(*begin, *mono);
}

bool readHostStartLog(const QString &path, const std::optional<Frequency> &hostFreq, std::int64_t *monoNs,
                      std::uint64_t *cntvct)
{
    if (path.isEmpty())
        return false;
    const config::IniFile ini = config::loadIniFile(path);
    bool ok = false;
    const qint64 mono = ini.value(QStringLiteral("clock_monotonic_raw")).trimmed().toLongLong(&ok);
    if (!ok)
        return false;
    *monoNs = mono;
    *cntvct = ini.value(QStringLiteral("cntvct")).trimmed().toULongLong();
    const qint64 diff = ini.value(QStringLiteral("cntvct_diff")).trimmed().toLongLong();
    if (diff != 0 && hostFreq)
        *monoNs += ticksToNs(diff, *hostFreq);
    return true;
}

QHash<QString, QString> readDictionary(const QStringList &files, const StreamControl &control,
                                       std::size_t *stoppedAfter)
{
    QHash<QString, QString> dict;
    std::size_t lines = 0;
    for (const QString &file : files) {
        QByteArray bytes;
        QString problem;
        if (control.stopped() || !config::readSmallFile(file, &bytes, &problem)) {
            if (control.stopped() && stoppedAfter)
                *stoppedAfter = lines;
            if (control.stopped())
                return dict;
            continue;
        }
        // Line by line, without a list of every line (a dictionary may be tens of MB).
        for (qsizetype at = 0; at < bytes.size();) {
            if ((++lines & 0xFFFF) == 0 && control.stopped()) {
                if (stoppedAfter)
                    *stoppedAfter = lines - 1;
                return dict;
            }
            qsizetype end = bytes.indexOf('\n', at);
            if (end < 0)
                end = bytes.size();
            const QByteArrayView line(bytes.constData() + at, end - at);
            const qsizetype colon = line.indexOf(':');
            if (colon > 0)
                dict.insert(QString::fromUtf8(line.first(colon)).trimmed(),
                            QString::fromUtf8(line.sliced(colon + 1)).trimmed());
            at = end + 1;
        }
    }
    return dict;
}

QString plural(std::size_t n, const char *word)
{
    return QStringLiteral("%1 %2%3").arg(n).arg(QLatin1String(word)).arg(n == 1 ? "" : "s");
}

SliceListing::SliceListing(const QStringList &dirs)
{
    for (const QString &dir : dirs)
        m_streams.emplace(dir, listSliceStreams(dir));
}

const std::vector<SliceStreamFiles> &SliceListing::streamsIn(const QString &dir) const
{
    static const std::vector<SliceStreamFiles> none;
    const auto it = m_streams.find(dir);
    return it == m_streams.end() ? none : it->second;
}

} // namespace at::raw
