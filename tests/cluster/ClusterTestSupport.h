#pragma once

#include "TestSupport.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QStringList>

#include <cmath>
#include <map>

namespace at::test {

inline QString qwen3Cluster()
{
    return samplePath(QStringLiteral("msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2"));
}
inline QString alexnetTextCluster()
{
    return samplePath(QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1"));
}
inline QString alexnetDbCluster()
{
    return samplePath(QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/db/level1"));
}

// step_trace_time.csv read on its own (not through the reader): header → µs converted to whole ns.
inline std::vector<std::map<QString, std::int64_t>> readStepTraceCsvIndependently(const QString &path)
{
    std::vector<std::map<QString, std::int64_t>> rows;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return rows;
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (lines.isEmpty())
        return rows;
    const QStringList header = lines.front().trimmed().split(QLatin1Char(','));
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QStringList cells = lines[i].trimmed().split(QLatin1Char(','));
        std::map<QString, std::int64_t> row;
        for (qsizetype c = 0; c < header.size() && c < cells.size(); ++c)
            row[header[c]] = std::llround(cells[c].toDouble() * 1000.0);
        rows.push_back(row);
    }
    return rows;
}

inline void writeTextFile(const QString &path, const QByteArray &text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(text);
}

// A copy of a sample folder the test may edit: every file copied and made writable (the samples are
// read-only).
inline bool copyTree(const QString &from, const QString &to)
{
    QDirIterator it(from, QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString file = it.next();
        const QString target = to + file.mid(from.size());
        if (!QDir().mkpath(QFileInfo(target).path()) || !QFile::copy(file, target) ||
            !QFile::setPermissions(target, QFile::ReadOwner | QFile::WriteOwner))
            return false;
    }
    return true;
}

inline QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace at::test
