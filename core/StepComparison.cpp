#include "StepComparison.h"

#include "Lcs.h"
#include "TraceQueries.h"

#include <QHash>
#include <QRegularExpression>
#include <QTextStream>

#include <algorithm>
#include <map>

namespace at {

namespace {

// The device tasks of a step split by lane name, each in start order.
std::map<QString, std::vector<SliceRef>> tasksByStream(const TraceModel &model, const Step &step)
{
    std::map<QString, std::vector<SliceRef>> out;
    for (SliceRef r : step.deviceTasks)
        out[model.threadDisplayName(r.thread)].push_back(r);
    return out; // deviceTasks is ordered by thread then start already
}

class Comparer
{
public:
    Comparer(const TraceModel &bm, const Step &bs, const TraceModel &cm, const Step &cs,
             const CompareOptions &o)
        : m_base(bm), m_baseStep(bs), m_comparison(cm), m_comparisonStep(cs), m_options(o)
    {}

    StepComparison run()
    {
        StepComparison c;
        commonMetrics(c);
        const auto baseStreams = tasksByStream(m_base, m_baseStep);
        const auto comparisonStreams = tasksByStream(m_comparison, m_comparisonStep);
        for (const auto &[stream, tasks] : baseStreams) {
            const auto other = comparisonStreams.find(stream);
            matchStream(c, stream, tasks,
                        other == comparisonStreams.end() ? std::vector<SliceRef>{} : other->second);
        }
        for (const auto &[stream, tasks] : comparisonStreams)
            if (!baseStreams.count(stream))
                matchStream(c, stream, {}, tasks);
        aggregate(c);
        const StepBreakdown &b = m_baseStep.breakdown, &k = m_comparisonStep.breakdown;
        c.stepTime = {m_baseStep.duration(), m_comparisonStep.duration()};
        c.computing = {b.computing, k.computing};
        c.communication = {b.communication, k.communication};
        c.communicationNotOverlapped = {b.communicationNotOverlapped, k.communicationNotOverlapped};
        c.free = {b.free, k.free};
        return c;
    }

private:
    void commonMetrics(StepComparison &c)
    {
        const auto &baseColumns = m_base.kernels().columns();
        for (std::size_t i = 0; i < baseColumns.size(); ++i) {
            const int other = m_comparison.kernels().columnIndex(baseColumns[i].header);
            if (other < 0)
                continue;
            c.metrics << baseColumns[i].header;
            m_metricColumns.emplace_back(static_cast<int>(i), other);
        }
    }

    std::int32_t symbol(const TraceModel &model, SliceRef ref)
    {
        QString key = kernelMatchName(model.sliceName(ref));
        if (m_options.matchShapes) {
            const std::int64_t row = model.kernels().rowOfSlice(ref.thread, ref.index);
            if (row >= 0)
                key += QLatin1Char('\x1f') +
                       model.strings().qstring(
                           model.kernels().rows()[static_cast<std::size_t>(row)].inputShapes);
        }
        const auto it = m_symbols.constFind(key);
        if (it != m_symbols.constEnd())
            return *it;
        const auto id = static_cast<std::int32_t>(m_symbols.size());
        m_symbols.insert(key, id);
        return id;
    }

    static TimeNs duration(const TraceModel &m, SliceRef r)
    {
        return m.threads()[static_cast<std::size_t>(r.thread)].slices.duration(r.index);
    }
    static TimeNs start(const TraceModel &m, SliceRef r)
    {
        return m.threads()[static_cast<std::size_t>(r.thread)].slices.start(r.index);
    }

    KernelPair makePair(const QString &stream, SliceRef b, SliceRef k) const
    {
        KernelPair p;
        p.stream = stream;
        p.base = b;
        p.comparison = k;
        p.name = kernelMatchName(b.isValid() ? m_base.sliceName(b) : m_comparison.sliceName(k));
        if (b.isValid()) {
            p.baseDuration = duration(m_base, b);
            p.baseOffset = start(m_base, b) - m_baseStep.begin();
        }
        if (k.isValid()) {
            p.comparisonDuration = duration(m_comparison, k);
            p.comparisonOffset = start(m_comparison, k) - m_comparisonStep.begin();
        }
        p.metricDeltas.assign(m_metricColumns.size(), std::nan(""));
        if (p.matched()) {
            const std::int64_t rb = m_base.kernels().rowOfSlice(b.thread, b.index);
            const std::int64_t rk = m_comparison.kernels().rowOfSlice(k.thread, k.index);
            if (rb >= 0 && rk >= 0)
                for (std::size_t i = 0; i < m_metricColumns.size(); ++i)
                    p.metricDeltas[i] =
                        m_comparison.kernels().metric(static_cast<std::size_t>(rk),
                                                      static_cast<std::size_t>(m_metricColumns[i].second)) -
                        m_base.kernels().metric(static_cast<std::size_t>(rb),
                                                static_cast<std::size_t>(m_metricColumns[i].first));
        }
        return p;
    }

    void matchStream(StepComparison &c, const QString &stream, const std::vector<SliceRef> &base,
                     const std::vector<SliceRef> &comparison)
    {
        std::vector<std::int32_t> a, b;
        for (SliceRef r : base)
            a.push_back(symbol(m_base, r));
        for (SliceRef r : comparison)
            b.push_back(symbol(m_comparison, r));
        const auto pairs = longestCommonSubsequence(a, b);
        std::size_t i = 0, j = 0;
        auto flushUntil = [&](std::size_t iEnd, std::size_t jEnd) {
            for (; i < iEnd; ++i, ++c.onlyInBase)
                c.kernels.push_back(makePair(stream, base[i], {}));
            for (; j < jEnd; ++j, ++c.onlyInComparison)
                c.kernels.push_back(makePair(stream, {}, comparison[j]));
        };
        for (const auto &[pi, pj] : pairs) {
            flushUntil(pi, pj);
            c.kernels.push_back(makePair(stream, base[pi], comparison[pj]));
            ++c.matched;
            ++i;
            ++j;
        }
        flushUntil(base.size(), comparison.size());
    }

    void aggregate(StepComparison &c) const
    {
        QHash<QString, std::size_t> index;
        std::vector<std::vector<std::size_t>> deltaCounts;
        for (const KernelPair &p : c.kernels) {
            auto it = index.find(p.name);
            if (it == index.end()) {
                it = index.insert(p.name, c.byName.size());
                KernelNameDiff d;
                d.name = p.name;
                d.meanMetricDeltas.assign(static_cast<std::size_t>(c.metrics.size()), 0.0);
                c.byName.push_back(d);
                deltaCounts.emplace_back(static_cast<std::size_t>(c.metrics.size()), 0);
            }
            KernelNameDiff &d = c.byName[*it];
            if (p.base.isValid()) {
                ++d.baseCount;
                d.baseTotal += p.baseDuration;
                c.kernelTime.base += p.baseDuration;
            }
            if (p.comparison.isValid()) {
                ++d.comparisonCount;
                d.comparisonTotal += p.comparisonDuration;
                c.kernelTime.comparison += p.comparisonDuration;
            }
            d.matchedCount += p.matched() ? 1 : 0;
            for (std::size_t m = 0; m < p.metricDeltas.size(); ++m)
                if (!std::isnan(p.metricDeltas[m])) {
                    d.meanMetricDeltas[m] += p.metricDeltas[m];
                    ++deltaCounts[*it][m];
                }
        }
        for (std::size_t n = 0; n < c.byName.size(); ++n)
            for (std::size_t m = 0; m < static_cast<std::size_t>(c.metrics.size()); ++m)
                c.byName[n].meanMetricDeltas[m] =
                    deltaCounts[n][m] ? c.byName[n].meanMetricDeltas[m] / double(deltaCounts[n][m])
                                      : std::nan("");
        std::stable_sort(c.byName.begin(), c.byName.end(),
                         [](const KernelNameDiff &x, const KernelNameDiff &y) {
                             return std::abs(x.diff()) > std::abs(y.diff());
                         });
    }

    const TraceModel &m_base;
    const Step &m_baseStep;
    const TraceModel &m_comparison;
    const Step &m_comparisonStep;
    CompareOptions m_options;
    QHash<QString, std::int32_t> m_symbols;
    std::vector<std::pair<int, int>> m_metricColumns; // (base column, comparison column)
};

QString signedDuration(TimeNs ns)
{
    return (ns >= 0 ? QStringLiteral("+") : QStringLiteral("-")) + formatDuration(std::abs(ns));
}

QString percent(const TimePair &p)
{
    if (p.base <= 0)
        return QStringLiteral("n/a");
    const double v = 100.0 * static_cast<double>(p.diff()) / static_cast<double>(p.base);
    return QStringLiteral("%1%2 %").arg(v >= 0 ? QStringLiteral("+") : QString()).arg(v, 0, 'f', 1);
}

QString number(double v)
{
    return std::isnan(v) ? QString() : QString::number(v, 'g', 6);
}

// One CSV text: the header fields (quoted as needed) and the rows, which are already CSV fields.
QByteArray csvTable(QStringList header, const std::vector<QStringList> &rows)
{
    for (QString &h : header)
        h = csvField(h);
    QString out = header.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (const QStringList &row : rows)
        out += row.join(QLatin1Char(',')) + QLatin1Char('\n');
    return out.toUtf8();
}

QString microseconds(TimeNs ns)
{
    return QString::number(static_cast<double>(ns) / 1000.0, 'f', 3);
}

} // namespace

QString kernelMatchName(const QString &name)
{
    // hcom_allReduce__586_0_1: 586 counts the communication ops of the whole run, so the same op
    // has another number in every step.
    static const QRegularExpression hcclIndex(QStringLiteral("^(hcom_[A-Za-z0-9]+__)\\d+(_\\d+_\\d+)$"));
    if (!name.startsWith(QLatin1String("hcom_")))
        return name;
    QString out = name;
    out.replace(hcclIndex, QStringLiteral("\\1*\\2"));
    return out;
}

StepComparison compareSteps(const TraceModel &baseModel, const Step &base, const TraceModel &comparisonModel,
                            const Step &comparison, const CompareOptions &options)
{
    return Comparer(baseModel, base, comparisonModel, comparison, options).run();
}

QString formatComparisonText(const StepComparison &c, const QString &baseLabel,
                             const QString &comparisonLabel, int topNames)
{
    QString text;
    QTextStream out(&text);
    out << "Base:       " << baseLabel << "\n";
    out << "Comparison: " << comparisonLabel << "\n";
    const std::pair<const char *, const TimePair *> rows[] = {
        {"Step time", &c.stepTime},
        {"Computing", &c.computing},
        {"Communication", &c.communication},
        {"Comm. not overlapped", &c.communicationNotOverlapped},
        {"Free", &c.free},
        {"Kernel time (sum)", &c.kernelTime}};
    out << QStringLiteral("%1 %2 %3 %4 %5\n")
               .arg(QString(), -22)
               .arg(QStringLiteral("base"), 14)
               .arg(QStringLiteral("comparison"), 14)
               .arg(QStringLiteral("diff"), 14)
               .arg(QString(), 9);
    for (const auto &[label, pair] : rows)
        out << QStringLiteral("%1 %2 %3 %4 %5\n")
                   .arg(QString::fromLatin1(label), -22)
                   .arg(formatDuration(pair->base), 14)
                   .arg(formatDuration(pair->comparison), 14)
                   .arg(signedDuration(pair->diff()), 14)
                   .arg(percent(*pair), 9);
    out << "Kernels: " << c.matched << " matched, " << c.onlyInBase << " only in base, " << c.onlyInComparison
        << " only in comparison\n";
    const int n = std::min<int>(topNames, static_cast<int>(c.byName.size()));
    out << "Top " << n << " kernel names by |diff|:\n";
    for (int i = 0; i < n; ++i) {
        const KernelNameDiff &d = c.byName[static_cast<std::size_t>(i)];
        out << QStringLiteral("  %1  x%2/%3  %4 -> %5  (%6, ratio %7)  %8\n")
                   .arg(signedDuration(d.diff()), 12)
                   .arg(d.baseCount)
                   .arg(d.comparisonCount)
                   .arg(formatDuration(d.baseTotal))
                   .arg(formatDuration(d.comparisonTotal))
                   .arg(percent({d.baseTotal, d.comparisonTotal}))
                   .arg(std::isnan(d.ratio()) ? QStringLiteral("n/a") : QString::number(d.ratio(), 'f', 3))
                   .arg(d.name);
    }
    return text;
}

QByteArray formatComparisonByNameCsv(const StepComparison &c)
{
    QStringList header{
        QStringLiteral("Name"),     QStringLiteral("Base Count"),     QStringLiteral("Comparison Count"),
        QStringLiteral("Matched"),  QStringLiteral("Base Total(us)"), QStringLiteral("Comparison Total(us)"),
        QStringLiteral("Diff(us)"), QStringLiteral("Ratio")};
    for (const QString &m : c.metrics)
        header << QStringLiteral("Mean Delta %1").arg(m);
    std::vector<QStringList> rows;
    for (const KernelNameDiff &d : c.byName) {
        QStringList row{csvField(d.name),
                        QString::number(d.baseCount),
                        QString::number(d.comparisonCount),
                        QString::number(d.matchedCount),
                        microseconds(d.baseTotal),
                        microseconds(d.comparisonTotal),
                        microseconds(d.diff()),
                        number(d.ratio())};
        for (double v : d.meanMetricDeltas)
            row << number(v);
        rows.push_back(row);
    }
    return csvTable(header, rows);
}

QByteArray formatComparisonKernelsCsv(const StepComparison &c)
{
    QStringList header{QStringLiteral("Stream"),
                       QStringLiteral("Name"),
                       QStringLiteral("Matched"),
                       QStringLiteral("Base Offset(us)"),
                       QStringLiteral("Base Duration(us)"),
                       QStringLiteral("Comparison Offset(us)"),
                       QStringLiteral("Comparison Duration(us)"),
                       QStringLiteral("Diff(us)"),
                       QStringLiteral("Ratio")};
    for (const QString &m : c.metrics)
        header << QStringLiteral("Delta %1").arg(m);
    std::vector<QStringList> rows;
    for (const KernelPair &p : c.kernels) {
        const bool b = p.base.isValid(), k = p.comparison.isValid();
        QStringList row{csvField(p.stream),
                        csvField(p.name),
                        p.matched() ? QStringLiteral("yes")
                                    : (b ? QStringLiteral("base only") : QStringLiteral("comparison only")),
                        b ? microseconds(p.baseOffset) : QString(),
                        b ? microseconds(p.baseDuration) : QString(),
                        k ? microseconds(p.comparisonOffset) : QString(),
                        k ? microseconds(p.comparisonDuration) : QString(),
                        p.matched() ? microseconds(p.diff()) : QString(),
                        p.matched() && p.baseDuration > 0 ? number(static_cast<double>(p.comparisonDuration) /
                                                                   static_cast<double>(p.baseDuration))
                                                          : QString()};
        for (double v : p.metricDeltas)
            row << number(v);
        rows.push_back(row);
    }
    return csvTable(header, rows);
}

} // namespace at
