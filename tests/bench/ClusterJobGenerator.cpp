#include "ClusterJobGenerator.h"

#include "cluster/ClusterModel.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <array>

namespace at::bench {

namespace {

constexpr double kSlowRankMs = 60.0;    // the slow rank's extra computing, and the others' wait on it
constexpr double kSlowLinkFactor = 3.0; // the slow link's transit time × this

enum class Kind
{
    World,
    Tp,
    Dp,
    Pp
};

// The generated layout: rank = tp index + tp · (dp index + dp · pp index).
struct Layout
{
    int ranks, tp, pp, dp;
    int tpIndex(int r) const { return r % tp; }
    int dpIndex(int r) const { return (r / tp) % dp; }
    int ppIndex(int r) const { return r / (tp * dp); }
    // Group numbers: 0 the world, then the tp groups, the dp groups, the pp groups.
    int groupNumber(Kind k, int r) const
    {
        switch (k) {
        case Kind::World:
            return 0;
        case Kind::Tp:
            return 1 + r / tp;
        case Kind::Dp:
            return 1 + ranks / tp + ppIndex(r) * tp + tpIndex(r);
        case Kind::Pp:
            return 1 + ranks / tp + tp * pp + dpIndex(r) * tp + tpIndex(r);
        }
        return 0;
    }
    std::vector<int> members(Kind k, int r) const
    {
        std::vector<int> out;
        for (int m = 0; m < ranks; ++m)
            if (groupNumber(k, m) == groupNumber(k, r))
                out.push_back(m);
        return out;
    }
    int localIndex(Kind k, int r) const
    {
        switch (k) {
        case Kind::World:
            return r;
        case Kind::Tp:
            return tpIndex(r);
        case Kind::Dp:
            return dpIndex(r);
        case Kind::Pp:
            return ppIndex(r);
        }
        return 0;
    }
    int size(Kind k) const
    {
        switch (k) {
        case Kind::World:
            return ranks;
        case Kind::Tp:
            return tp;
        case Kind::Dp:
            return dp;
        case Kind::Pp:
            return pp;
        }
        return 1;
    }
    // The sample rank (of 4: pp 2 × dp 2) whose files this rank's are made from.
    int sampleRank(int r) const { return (ppIndex(r) % 2) * 2 + dpIndex(r) % 2; }
};

QString groupKey(int number)
{
    return QStringLiteral("group_name_%1").arg(number);
}

// A sample group as its rank's profiler_metadata.json lists it.
struct SampleGroup
{
    Kind kind = Kind::World;
    int ownLocal = 0; // the sample rank's index in the group
};

struct SampleRank
{
    QHash<QString, SampleGroup> groups; // by hash
    QJsonObject communication, matrix;
    QList<QByteArray> stepCsv; // header, row
};

std::optional<Kind> kindOf(const QString &pgName)
{
    if (pgName == QLatin1String("default_group"))
        return Kind::World;
    if (pgName == QLatin1String("tp") || pgName == QLatin1String("mp"))
        return Kind::Tp;
    if (pgName == QLatin1String("dp") || pgName == QLatin1String("dp_cp"))
        return Kind::Dp;
    if (pgName == QLatin1String("pp") || pgName == QLatin1String("embd"))
        return Kind::Pp;
    return std::nullopt;
}

bool readJson(const QString &path, QJsonObject &out, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: %2").arg(path, f.errorString());
        return false;
    }
    QJsonParseError e;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &e);
    if (!doc.isObject()) {
        *error = QStringLiteral("%1: %2").arg(path, e.errorString());
        return false;
    }
    out = doc.object();
    return true;
}

bool readSample(const QString &level2, int s, SampleRank &out, QString *error)
{
    const QString folder = QStringLiteral("%1/rank_%2_ascend_pt/").arg(level2).arg(s);
    QJsonObject metadata;
    if (!readJson(folder + QStringLiteral("profiler_metadata.json"), metadata, error) ||
        !readJson(folder + QStringLiteral("ASCEND_PROFILER_OUTPUT/communication.json"), out.communication,
                  error) ||
        !readJson(folder + QStringLiteral("ASCEND_PROFILER_OUTPUT/communication_matrix.json"), out.matrix,
                  error))
        return false;
    const QJsonObject info = metadata.value(QStringLiteral("parallel_group_info")).toObject();
    for (auto it = info.begin(); it != info.end(); ++it) {
        const QJsonObject g = it.value().toObject();
        const std::optional<Kind> kind = kindOf(g.value(QStringLiteral("group_name")).toString());
        if (!kind)
            continue;
        const QJsonArray members = g.value(QStringLiteral("global_ranks")).toArray();
        SampleGroup group{*kind, 0};
        for (qsizetype i = 0; i < members.size(); ++i)
            if (members[i].toInt() == s)
                group.ownLocal = static_cast<int>(i);
        out.groups.insert(cluster::doubleHash(it.key()), group);
    }
    QFile csv(folder + QStringLiteral("ASCEND_PROFILER_OUTPUT/step_trace_time.csv"));
    if (!csv.open(QIODevice::ReadOnly)) {
        *error = csv.fileName() + QStringLiteral(": ") + csv.errorString();
        return false;
    }
    out.stepCsv = csv.readAll().trimmed().split('\n');
    if (out.stepCsv.size() < 2) {
        *error = csv.fileName() + QStringLiteral(": no step row");
        return false;
    }
    return true;
}

bool writeFile(const QString &path, const QByteArray &bytes, std::int64_t &total, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size()) {
        *error = QStringLiteral("%1: %2").arg(path, f.errorString());
        return false;
    }
    total += bytes.size();
    return true;
}

// A per-rank factor within ±0.5 %: ranks of a real job never agree to the nanosecond.
double perturbation(int r)
{
    return 1.0 + ((r * 37) % 21 - 10) * 0.0005;
}

class JobWriter
{
public:
    JobWriter(const Layout &layout, const std::array<SampleRank, 4> &samples)
        : m_layout(layout), m_samples(samples)
    {}

    GeneratedClusterJob job;

    // The slow rank's tp and dp groups wait for it in their first collective.
    void chooseFaults()
    {
        job.slowRank = m_layout.ranks / 2 + 5; // pp stage 2
        m_slowLinkRank = m_layout.tp * 1 + 3;  // stage 0, dp index 1
        const SampleRank &sample = m_samples[static_cast<std::size_t>(m_layout.sampleRank(job.slowRank))];
        const QJsonObject steps = sample.communication;
        for (Kind kind : {Kind::Tp, Kind::Dp}) {
            for (auto step = steps.begin();
                 step != steps.end() && !m_waitOps.contains(groupHash(kind, job.slowRank)); ++step) {
                const QJsonObject collective =
                    step.value().toObject().value(QStringLiteral("collective")).toObject();
                for (auto op = collective.begin(); op != collective.end(); ++op) {
                    const qsizetype at = op.key().lastIndexOf(QLatin1Char('@'));
                    const auto group = sample.groups.constFind(op.key().mid(at + 1));
                    if (at < 0 || group == sample.groups.constEnd() || group->kind != kind)
                        continue;
                    m_waitOps.insert(groupHash(kind, job.slowRank), op.key().left(at));
                    break;
                }
            }
        }
    }

    QString groupHash(Kind kind, int r) const
    {
        return cluster::doubleHash(groupKey(m_layout.groupNumber(kind, r)));
    }

    QByteArray metadata(int r) const
    {
        QJsonObject args{{QStringLiteral("tensor_model_parallel_size"), m_layout.tp},
                         {QStringLiteral("pipeline_model_parallel_size"), m_layout.pp},
                         {QStringLiteral("data_parallel_size"), m_layout.dp},
                         {QStringLiteral("context_parallel_size"), 1},
                         {QStringLiteral("expert_model_parallel_size"), 1},
                         {QStringLiteral("sequence_parallel"), false},
                         {QStringLiteral("rank"), r},
                         {QStringLiteral("world_size"), m_layout.ranks}};
        QJsonObject groups;
        const std::pair<Kind, const char *> named[] = {
            {Kind::World, "default_group"}, {Kind::Tp, "tp"}, {Kind::Dp, "dp"}, {Kind::Pp, "pp"}};
        for (const auto &[kind, name] : named) {
            QJsonArray members;
            for (int m : m_layout.members(kind, r))
                members.append(m);
            groups.insert(groupKey(m_layout.groupNumber(kind, r)),
                          QJsonObject{{QStringLiteral("group_name"), QLatin1String(name)},
                                      {QStringLiteral("group_rank"), m_layout.localIndex(kind, r)},
                                      {QStringLiteral("global_ranks"), members}});
        }
        return QJsonDocument(QJsonObject{{QStringLiteral("distributed_args"), args},
                                         {QStringLiteral("parallel_group_info"), groups}})
            .toJson(QJsonDocument::Compact);
    }

    QByteArray stepTrace(int r) const
    {
        const SampleRank &sample = m_samples[static_cast<std::size_t>(m_layout.sampleRank(r))];
        QList<QByteArray> cells = sample.stepCsv[1].trimmed().split(',');
        // Device_id,Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,
        // Communication(Not Overlapped and Exclude Receive),Preparing (the sample's layout)
        const double f = perturbation(r);
        const double computing =
            cells[2].toDouble() + (r % 7) * 13.25 + (r == job.slowRank ? kSlowRankMs * 1e3 : 0);
        const double notOverlapped = cells[3].toDouble() * f;
        const double free = cells[6].toDouble() * f;
        cells[0] = QByteArray::number(r % 8);
        cells[2] = QByteArray::number(computing, 'f', 3);
        cells[3] = cells[5] = cells[9] = QByteArray::number(notOverlapped, 'f', 3);
        cells[4] = "0.0";
        cells[6] = QByteArray::number(free, 'f', 3);
        cells[7] = QByteArray::number(computing + notOverlapped + free, 'f', 3);
        return sample.stepCsv[0].trimmed() + '\n' + cells.join(',') + '\n';
    }

    QByteArray communication(int r) const
    {
        const SampleRank &sample = m_samples[static_cast<std::size_t>(m_layout.sampleRank(r))];
        const double f = perturbation(r);
        QJsonObject out;
        for (auto step = sample.communication.begin(); step != sample.communication.end(); ++step) {
            QJsonObject kinds;
            const QJsonObject in = step.value().toObject();
            for (auto kind = in.begin(); kind != in.end(); ++kind) {
                QJsonObject ops;
                const QJsonObject inOps = kind.value().toObject();
                for (auto op = inOps.begin(); op != inOps.end(); ++op) {
                    QString key = op.key();
                    const qsizetype at = key.lastIndexOf(QLatin1Char('@'));
                    QString hash;
                    if (at >= 0) {
                        const auto group = sample.groups.constFind(key.mid(at + 1));
                        if (group != sample.groups.constEnd()) {
                            hash = groupHash(group->kind, r);
                            key = key.left(at) + QLatin1Char('@') + hash;
                        }
                    }
                    const bool waits = !hash.isEmpty() && m_waitOps.value(hash) == key.left(at);
                    ops.insert(
                        key, perturbedOp(op.value().toObject(), f, waits ? (r == job.slowRank ? -1 : 1) : 0));
                }
                kinds.insert(kind.key(), ops);
            }
            out.insert(step.key(), kinds);
        }
        return QJsonDocument(out).toJson(QJsonDocument::Compact);
    }

    QByteArray matrix(int r)
    {
        const SampleRank &sample = m_samples[static_cast<std::size_t>(m_layout.sampleRank(r))];
        const double f = perturbation(r);
        QJsonObject out;
        for (auto step = sample.matrix.begin(); step != sample.matrix.end(); ++step) {
            QJsonObject kinds;
            const QJsonObject in = step.value().toObject();
            for (auto kind = in.begin(); kind != in.end(); ++kind) {
                QJsonObject ops;
                const QJsonObject inOps = kind.value().toObject();
                for (auto op = inOps.begin(); op != inOps.end(); ++op) {
                    const qsizetype at = op.key().lastIndexOf(QLatin1Char('@'));
                    const auto group = sample.groups.constFind(op.key().mid(at + 1));
                    if (at < 0 || group == sample.groups.constEnd()) {
                        ops.insert(op.key(), op.value());
                        continue;
                    }
                    const Kind k = group->kind;
                    const int own = m_layout.localIndex(k, r), n = m_layout.size(k);
                    // Local rank x of the sample's group → the same offset from this rank in its group.
                    const auto local = [&](int x) { return ((own + x - group->ownLocal) % n + n) % n; };
                    const bool slow = r == m_slowLinkRank && k == Kind::Dp;
                    QJsonObject links;
                    const QJsonObject inLinks = op.value().toObject();
                    for (auto link = inLinks.begin(); link != inLinks.end(); ++link) {
                        const QStringList ends = link.key().split(QLatin1Char('-'));
                        if (ends.size() != 2)
                            continue;
                        const int src = local(ends[0].toInt()), dst = local(ends[1].toInt());
                        double factor = f;
                        if (slow && src != dst) {
                            factor *= kSlowLinkFactor;
                            job.slowLinkSrc = r;
                            job.slowLinkDst = m_layout.members(k, r)[static_cast<std::size_t>(dst)];
                        }
                        QJsonObject l = link.value().toObject();
                        scale(l, "Transit Time(ms)", factor);
                        scale(l, "Bandwidth(GB/s)", 1.0 / factor);
                        links.insert(QStringLiteral("%1-%2").arg(src).arg(dst), l);
                    }
                    ops.insert(op.key().left(at) + QLatin1Char('@') + groupHash(k, r), links);
                }
                kinds.insert(kind.key(), ops);
            }
            out.insert(step.key(), kinds);
        }
        return QJsonDocument(out).toJson(QJsonDocument::Compact);
    }

private:
    static void scale(QJsonObject &o, const char *field, double factor)
    {
        const QString key = QLatin1String(field);
        if (o.value(key).isDouble())
            o.insert(key, o.value(key).toDouble() * factor);
    }

    // The op's times × f; wait: +1 waits kSlowRankMs longer for the slow rank, −1 is the slow rank (no wait).
    static QJsonObject perturbedOp(QJsonObject op, double f, int wait)
    {
        QJsonObject time = op.value(QStringLiteral("Communication Time Info")).toObject();
        for (const char *field : {"Elapse Time(ms)", "Transit Time(ms)", "Wait Time(ms)",
                                  "Synchronization Time(ms)", "Idle Time(ms)"})
            scale(time, field, f);
        if (wait != 0) {
            const QString waitKey = QStringLiteral("Wait Time(ms)"),
                          elapseKey = QStringLiteral("Elapse Time(ms)");
            const double extra = wait > 0 ? kSlowRankMs : -time.value(waitKey).toDouble();
            time.insert(waitKey, time.value(waitKey).toDouble() + extra);
            time.insert(elapseKey, time.value(elapseKey).toDouble() + extra);
            const double transit = time.value(QStringLiteral("Transit Time(ms)")).toDouble();
            const double w = time.value(waitKey).toDouble();
            time.insert(QStringLiteral("Wait Time Ratio"), w + transit > 0 ? w / (w + transit) : 0.0);
        }
        op.insert(QStringLiteral("Communication Time Info"), time);
        QJsonObject bandwidth = op.value(QStringLiteral("Communication Bandwidth Info")).toObject();
        for (auto t = bandwidth.begin(); t != bandwidth.end(); ++t) {
            QJsonObject b = t.value().toObject();
            scale(b, "Transit Time(ms)", f);
            scale(b, "Bandwidth(GB/s)", 1.0 / f);
            *t = b;
        }
        op.insert(QStringLiteral("Communication Bandwidth Info"), bandwidth);
        return op;
    }

    const Layout &m_layout;
    const std::array<SampleRank, 4> &m_samples;
    QHash<QString, QString> m_waitOps; // generated group hash → the op name its members wait in
    int m_slowLinkRank = -1;
};

} // namespace

QString qwen3SampleLevel2(const QString &samplesDir)
{
    return samplesDir + QStringLiteral("/msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2");
}

std::optional<GeneratedClusterJob> generateClusterJob(const QString &root, int ranks,
                                                      const QString &sampleLevel2, QString *error)
{
    QString ignored;
    if (!error)
        error = &ignored;
    if (ranks < 64 || ranks % 32 != 0) {
        *error = QStringLiteral("ranks must be a multiple of 32 and at least 64 (tp 8 × pp 4 × dp ≥ 2)");
        return std::nullopt;
    }
    std::array<SampleRank, 4> samples;
    for (int s = 0; s < 4; ++s)
        if (!readSample(sampleLevel2, s, samples[static_cast<std::size_t>(s)], error))
            return std::nullopt;
    const Layout layout{ranks, 8, 4, ranks / 32};
    JobWriter writer(layout, samples);
    writer.job.ranks = ranks;
    writer.job.tp = layout.tp;
    writer.job.pp = layout.pp;
    writer.job.dp = layout.dp;
    writer.chooseFaults();
    std::int64_t &bytes = writer.job.bytes;
    for (int r = 0; r < ranks; ++r) {
        const QString dir = QStringLiteral("%1/node%2/rank_%3_ascend_pt").arg(root).arg(r / 8).arg(r);
        const QString output = dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/");
        if (!QDir().mkpath(output)) {
            *error = QStringLiteral("cannot create %1").arg(output);
            return std::nullopt;
        }
        if (!writeFile(dir + QStringLiteral("/profiler_info_%1.json").arg(r),
                       QByteArray("{\"rank_id\": ") + QByteArray::number(r) + "}", bytes, error) ||
            !writeFile(dir + QStringLiteral("/profiler_metadata.json"), writer.metadata(r), bytes, error) ||
            !writeFile(output + QStringLiteral("step_trace_time.csv"), writer.stepTrace(r), bytes, error) ||
            !writeFile(output + QStringLiteral("communication.json"), writer.communication(r), bytes,
                       error) ||
            !writeFile(output + QStringLiteral("communication_matrix.json"), writer.matrix(r), bytes, error))
            return std::nullopt;
    }
    return writer.job;
}

} // namespace at::bench
