#pragma once
// Helpers shared by the parser test suites: sample paths, loading, and lookups in a TraceModel.

#include "TestPaths.h"
#include "TraceLoader.h"
#include "TraceModel.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <vector>

namespace pt {

inline QString samplePath(const char *relative)
{
    return QDir(at::test::samplesDir()).filePath(QString::fromUtf8(relative));
}

inline QString dataPath(const char *relative)
{
    return QDir(at::test::testDataDir()).filePath(QString::fromUtf8(relative));
}

constexpr const char *kLevel1Rank0 =
    "msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt/"
    "ASCEND_PROFILER_OUTPUT/trace_view.json";
constexpr const char *kLevel1Rank1 =
    "msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank1_ascend_pt/"
    "ASCEND_PROFILER_OUTPUT/trace_view.json";
constexpr const char *kLevel0Rank0 =
    "msinsight_alexnet_1step_levels/test/data/pytorch/text/level0/rank0_ascend_pt/"
    "ASCEND_PROFILER_OUTPUT/trace_view.json";
constexpr const char *kLevel2Rank0 =
    "msinsight_alexnet_1step_levels/test/data/pytorch/text/level2/rank0_ascend_pt/"
    "ASCEND_PROFILER_OUTPUT/trace_view.json";
constexpr const char *kHeatMap =
    "msinsight_msprof_db_and_misc/server/src/test/test_data/heatMap/trace_view.json";
constexpr const char *kMsprof001 =
    "ascend_msprof_skill_cann8_sanitized/tests/fixtures/real_cann_minimal/reports/"
    "PROF_001/mindstudio_profiler_output/msprof_001.json";

inline at::LoadResult load(const QString &path)
{
    at::LoadControl control;
    return at::loadTrace(path, at::environmentLoadOptions(), control);
}

// Loads a file that must load; fails the calling test (via the returned null) otherwise.
inline std::unique_ptr<at::TraceModel> loadOk(const QString &path)
{
    if (!QFileInfo::exists(path))
        qFatal("test input missing: %s", qPrintable(path));
    at::LoadResult r = load(path);
    if (!r.model)
        QTest::qFail(qPrintable(QStringLiteral("loading %1 failed: %2").arg(path, r.error)), __FILE__,
                     __LINE__);
    return std::move(r.model);
}

inline QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

inline QByteArray readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

inline QString warningsText(const at::TraceModel &m)
{
    return m.warnings().join(QLatin1Char('\n'));
}

// True when one warning contains every part.
inline bool hasWarning(const at::TraceModel &m, const QStringList &parts)
{
    return std::any_of(m.warnings().begin(), m.warnings().end(), [&](const QString &w) {
        return std::all_of(parts.begin(), parts.end(), [&](const QString &p) { return w.contains(p); });
    });
}

// Index of the one process with this display name, or -1.
inline int processNamed(const at::TraceModel &m, const QString &name)
{
    int found = -1;
    for (int p = 0; p < static_cast<int>(m.processes().size()); ++p)
        if (m.processDisplayName(p) == name) {
            if (found >= 0)
                return -2;
            found = p;
        }
    return found;
}

inline int processWithPid(const at::TraceModel &m, std::int64_t pid)
{
    for (int p = 0; p < static_cast<int>(m.processes().size()); ++p)
        if (m.processes()[static_cast<std::size_t>(p)].pid.text == 0 &&
            m.processes()[static_cast<std::size_t>(p)].pid.number == pid)
            return p;
    return -1;
}

inline int threadWithTid(const at::TraceModel &m, int process, std::int64_t tid)
{
    if (process < 0)
        return -1;
    for (int t : m.processes()[static_cast<std::size_t>(process)].threads)
        if (m.threads()[static_cast<std::size_t>(t)].tid.text == 0 &&
            m.threads()[static_cast<std::size_t>(t)].tid.number == tid)
            return t;
    return -1;
}

inline std::vector<at::SliceRef> slicesNamed(const at::TraceModel &m, int thread, const QString &name)
{
    std::vector<at::SliceRef> out;
    if (thread < 0)
        return out;
    const at::SliceTable &t = m.threads()[static_cast<std::size_t>(thread)].slices;
    for (std::uint32_t i = 0; i < t.size(); ++i)
        if (m.strings().qstring(t.name(i)) == name)
            out.push_back({thread, i});
    return out;
}

// The one slice with this name starting at this absolute epoch ns on the thread (invalid if none).
inline at::SliceRef sliceAtAbsolute(const at::TraceModel &m, int thread, const QString &name,
                                    at::TimeNs absolute)
{
    at::SliceRef found;
    for (const at::SliceRef &r : slicesNamed(m, thread, name))
        if (m.origin() + m.threads()[static_cast<std::size_t>(thread)].slices.start(r.index) == absolute) {
            if (found.isValid())
                return {};
            found = r;
        }
    return found;
}

inline const at::SliceTable &table(const at::TraceModel &m, at::SliceRef r)
{
    return m.threads()[static_cast<std::size_t>(r.thread)].slices;
}

inline QString argValue(const std::vector<std::pair<QString, QString>> &args, const QString &key)
{
    for (const auto &[k, v] : args)
        if (k == key)
            return v;
    return QStringLiteral("<missing>");
}

// A canonical text dump of everything a model holds, for comparing two loads of the same data.
inline QString dumpModel(const at::TraceModel &m)
{
    QString out;
    const auto &c = m.eventCounts();
    out += QStringLiteral("counts %1 %2 %3 %4 %5 %6 %7 %8 %9 %10\n")
               .arg(c.complete)
               .arg(c.begin)
               .arg(c.end)
               .arg(c.instant)
               .arg(c.counter)
               .arg(c.flowStart)
               .arg(c.flowStep)
               .arg(c.flowEnd)
               .arg(c.metadata)
               .arg(c.other);
    out += QStringLiteral("origin %1 data %2..%3 full %4..%5\n")
               .arg(m.origin())
               .arg(m.dataBegin())
               .arg(m.dataEnd())
               .arg(m.fullBegin())
               .arg(m.fullEnd());
    for (int p : m.processOrder()) {
        const auto &info = m.processes()[static_cast<std::size_t>(p)];
        out += QStringLiteral("P %1\n").arg(m.processDisplayName(p));
        for (int t : info.threads) {
            const at::SliceTable &s = m.threads()[static_cast<std::size_t>(t)].slices;
            out += QStringLiteral(" T %1 %2\n").arg(m.threadDisplayName(t)).arg(s.size());
            for (std::uint32_t i = 0; i < s.size(); ++i)
                out += QStringLiteral("  %1 %2 %3 %4 %5\n")
                           .arg(s.start(i))
                           .arg(s.duration(i))
                           .arg(s.depthOf(i))
                           .arg(s.parent(i))
                           .arg(m.strings().qstring(s.name(i)));
        }
        for (int ci : info.counters) {
            const auto &cs = m.counters()[static_cast<std::size_t>(ci)];
            out += QStringLiteral(" C %1 %2\n").arg(m.counterDisplayName(ci)).arg(cs.times.size());
            for (std::size_t i = 0; i < cs.times.size(); ++i)
                out += QStringLiteral("  %1 %2\n").arg(cs.times[i]).arg(cs.values[i], 0, 'g', 17);
        }
    }
    for (const auto &f : m.flows())
        out +=
            QStringLiteral("F %1 %2 %3 %4:%5 -> %6:%7 %8 %9\n")
                .arg(m.strings().qstring(f.category), m.strings().qstring(f.name), m.strings().qstring(f.id))
                .arg(f.from.thread)
                .arg(f.from.index)
                .arg(f.to.thread)
                .arg(f.to.index)
                .arg(f.fromTime)
                .arg(f.toTime);
    return out;
}

// First differing line of two dumps (empty when equal).
inline QString firstDifference(const QString &a, const QString &b)
{
    const QStringList la = a.split(QLatin1Char('\n'));
    const QStringList lb = b.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < std::max(la.size(), lb.size()); ++i) {
        const QString x = i < la.size() ? la[i] : QStringLiteral("<end>");
        const QString y = i < lb.size() ? lb[i] : QStringLiteral("<end>");
        if (x != y)
            return QStringLiteral("line %1: '%2' vs '%3'").arg(i + 1).arg(x, y);
    }
    return {};
}

} // namespace pt
