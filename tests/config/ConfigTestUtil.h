#pragma once

// Helpers for the at_config tests: sample paths and scratch files.

#include "CollectionInfo.h"
#include "TestPaths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

namespace at::test {

inline QString samplePath(const QString &relative)
{
    return (at::test::samplesDir() + QStringLiteral("/")) + relative;
}

inline QString msconfigFile(const QString &name)
{
    return samplePath(QStringLiteral("msprof_ut_raw_meta_files/test/msprof_python/ut/testcase/msconfig/") +
                      name);
}

inline QString alexnetRank0(const QString &level, const QString &name)
{
    return samplePath(
        QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/%1/rank0_ascend_pt/%2")
            .arg(level, name));
}

inline QString qwen3Rank0(const QString &name)
{
    return samplePath(
        QStringLiteral("msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2/rank_0_ascend_pt/") + name);
}

inline QString ftraceData(const QString &name)
{
    return samplePath(
        QStringLiteral("msinsight_msprof_db_and_misc/scripts/ftrace_tools/test/test-data/profiling_data/") +
        name);
}

// Scratch files inside a QTemporaryDir (removed when the object dies).
class Scratch
{
public:
    bool isValid() const { return m_dir.isValid(); }
    QString path(const QString &relative) const { return m_dir.filePath(relative); }
    QString file(const QString &relative, const QByteArray &content) const
    {
        const QString full = path(relative);
        QDir().mkpath(QFileInfo(full).absolutePath());
        QFile f(full);
        if (!f.open(QIODevice::WriteOnly) || f.write(content) != content.size())
            qWarning("cannot write %s", qPrintable(full));
        return full;
    }
    QStringList listing() const
    {
        QStringList out;
        QDir d(m_dir.path());
        for (const QFileInfo &fi :
             d.entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
            out.append(fi.fileName() + QLatin1Char(':') + QString::number(fi.size()));
        return out;
    }

private:
    QTemporaryDir m_dir;
};

// "key=value" lines, for readable failure messages.
inline QStringList propertyLines(const CollectionInfo &info)
{
    QStringList out;
    for (const auto &p : info.properties)
        out.append(p.first + QLatin1Char('=') + p.second);
    return out;
}

} // namespace at::test
