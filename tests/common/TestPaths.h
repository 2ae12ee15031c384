#pragma once

// Where a suite finds the real samples (../shared/samples beside the checkout), its own data
// (tests/data), the checkout and the viewer's binary. They come from the environment ctest gives every
// suite (tests/CMakeLists.txt, AT_TEST_PATHS_ENV), not from compile definitions: a path compiled into a
// suite made its object depend on where the checkout lies, so a fresh clone (CI's) could reuse none of
// the compiler cache of another checkout for the ~140 suites. Run by hand, a suite finds them through
// the build directory's CMakeCache.txt above its executable.

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QString>

#include <cstdio>
#include <cstdlib>

namespace at::test {

// The value of `key` (a CMake cache entry "KEY:TYPE=value") in the CMakeCache.txt of the build the
// running executable belongs to, or an empty string.
inline QString cmakeCacheValue(const QString &key)
{
    QDir dir(QCoreApplication::applicationDirPath());
    do {
        QFile cache(dir.filePath(QStringLiteral("CMakeCache.txt")));
        if (cache.open(QIODevice::ReadOnly | QIODevice::Text)) {
            while (!cache.atEnd()) {
                const QString line = QString::fromUtf8(cache.readLine()).trimmed();
                if (line.startsWith(key + QLatin1Char(':')))
                    return line.mid(line.indexOf(QLatin1Char('=')) + 1);
            }
            return {};
        }
    } while (dir.cdUp());
    return {};
}

// $name, else what the build directory says (`fromCache`), else the suite cannot run: it says so.
inline QString testPath(const char *name, QString (*fromCache)())
{
    QString value = qEnvironmentVariable(name);
    if (value.isEmpty())
        value = fromCache();
    if (value.isEmpty()) {
        std::fprintf(stderr, "%s is not set: run the suite through ctest, or set it\n", name);
        std::abort();
    }
    return value;
}

inline QString sourceDir()
{
    return testPath("AT_SOURCE_DIR", [] { return cmakeCacheValue(QStringLiteral("CMAKE_HOME_DIRECTORY")); });
}

inline QString samplesDir()
{
    return testPath("AT_SAMPLES_DIR", [] {
        const QString source = cmakeCacheValue(QStringLiteral("CMAKE_HOME_DIRECTORY"));
        return source.isEmpty() ? QString() : QDir::cleanPath(source + QStringLiteral("/../shared/samples"));
    });
}

inline QString testDataDir()
{
    return testPath("AT_TEST_DATA_DIR", [] {
        const QString source = cmakeCacheValue(QStringLiteral("CMAKE_HOME_DIRECTORY"));
        return source.isEmpty() ? QString() : source + QStringLiteral("/tests/data");
    });
}

inline QString appBinary()
{
    return testPath("AT_APP_BINARY", [] {
        const QString build = cmakeCacheValue(QStringLiteral("CMAKE_CACHEFILE_DIR"));
        return build.isEmpty() ? QString() : build + QStringLiteral("/app/ascend-timeline");
    });
}

} // namespace at::test
