#pragma once

// Helpers for the folder layout tests: building synthetic result trees and comparing detector output.

#include "InputReader.h"
#include "folder/ProfileLayout.h"
#include "folder/ProfileLayoutDetector.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

namespace at::test {

// A scratch tree inside a QTemporaryDir (removed when the object dies).
class Tree
{
public:
    bool isValid() const { return m_dir.isValid(); }
    QString root() const { return m_dir.path(); }
    QString path(const QString &relative) const { return m_dir.filePath(relative); }

    // Creates the file and its parent folders. Default content is an empty Chrome trace.
    bool file(const QString &relative, const QByteArray &content = "[]\n") const
    {
        const QString full = path(relative);
        if (!QDir().mkpath(QFileInfo(full).absolutePath()))
            return false;
        QFile f(full);
        return f.open(QIODevice::WriteOnly) && f.write(content) == content.size();
    }
    bool files(const QString &folder, const QStringList &names) const
    {
        for (const QString &n : names) {
            if (!file(folder + QLatin1Char('/') + n))
                return false;
        }
        return true;
    }
    bool dir(const QString &relative) const { return QDir().mkpath(path(relative)); }
    bool link(const QString &relative, const QString &target) const
    {
        return QFile::link(target, path(relative));
    }

private:
    QTemporaryDir m_dir;
};

inline QStringList fileNames(const QStringList &paths)
{
    QStringList out;
    for (const QString &p : paths)
        out.append(QFileInfo(p).fileName());
    return out;
}

inline QStringList labels(const DetectedProfile &r)
{
    QStringList out;
    for (const DataSource &s : r.sources)
        out.append(s.label);
    return out;
}

// The detector asking the registered readers, as the loader's plan does.
inline DetectedProfile detectWithReaders(const QString &path, const DetectOptions &options = {})
{
    return ProfileLayoutDetector::detect(path, inputFormats(), options);
}

// One line per source and diagnostic, for failure messages.
inline QByteArray describe(const DetectedProfile &r)
{
    QString out = QStringLiteral("input %1\n").arg(r.inputPath);
    for (const DataSource &s : r.sources) {
        out += QStringLiteral("  source '%1' %2 %3 root=%4 timeline=[%5] csv=[%6]\n")
                   .arg(s.label, generationName(s.generation),
                        s.format.isEmpty() ? QStringLiteral("none") : s.format, s.rootPath,
                        fileNames(s.timelineFiles).join(QLatin1Char(',')),
                        QStringList(s.summaryFiles.keys()).join(QLatin1Char(',')));
    }
    for (const Diagnostic &d : r.diagnostics)
        out += QStringLiteral("  diag %1: %2\n").arg(static_cast<int>(d.code)).arg(d.message);
    return out.toUtf8();
}

} // namespace at::test

// Readable QCOMPARE failures for the detector's enums.
namespace QTest {
template <> inline char *toString(const at::ProfileGeneration &g)
{
    return qstrdup(qPrintable(at::generationName(g)));
}
template <> inline char *toString(const at::DiagnosticSeverity &s)
{
    return qstrdup(QByteArray::number(static_cast<int>(s)).constData());
}
template <> inline char *toString(const at::DiagnosticCode &c)
{
    return qstrdup(QByteArray::number(static_cast<int>(c)).constData());
}
} // namespace QTest
