// The cluster page's input at scale: a generated cluster of RANKS rank folders (default 128), each with the
// Qwen3 sample's summary files of rank r % 4 (step_trace_time.csv perturbed per rank, one slowed rank,
// communication.json, communication_matrix.json, profiler_info). Prints readCluster() + the analyses against
// a baseline measured in the same run (reading the same files' bytes into memory) and the peak RSS. Trace
// files are not generated: the cluster page never opens them. usage: bench_cluster [RANKS] [DIR]   (DIR:
// where to generate; default a temporary folder)

#include "cluster/ClusterAnalysis.h"
#include "cluster/ClusterReader.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>

#include <cstdio>

using namespace at;
using namespace at::cluster;

namespace {

double seconds(const QElapsedTimer &t)
{
    return static_cast<double>(t.nsecsElapsed()) / 1e9;
}

long peakRssKb()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').first().toLong();
    return -1;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool generate(const QString &root, int ranks, int slowRank)
{
    const QString sample = QStringLiteral(
        AT_SAMPLES_DIR "/msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2/rank_%1_ascend_pt/");
    for (int r = 0; r < ranks; ++r) {
        const QString src = sample.arg(r % 4);
        const QString dir = QStringLiteral("%1/node%2/rank_%3_ascend_pt").arg(root).arg(r / 8).arg(r);
        if (!QDir().mkpath(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT")))
            return false;
        QFile info(dir + QStringLiteral("/profiler_info_%1.json").arg(r));
        if (!info.open(QIODevice::WriteOnly))
            return false;
        info.write(QByteArray("{\"rank_id\": ") + QByteArray::number(r) + "}");
        for (const char *name : {"communication.json", "communication_matrix.json"})
            if (!QFile::copy(src + QStringLiteral("ASCEND_PROFILER_OUTPUT/") + QLatin1String(name),
                             dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/") + QLatin1String(name)))
                return false;
        const double computing = 231290.1 + (r % 7) * 13.25 + (r == slowRank ? 60000.0 : 0.0);
        QFile csv(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/step_trace_time.csv"));
        if (!csv.open(QIODevice::WriteOnly))
            return false;
        csv.write("Device_id,Step,Computing,Communication(Not "
                  "Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
                  "Communication(Not Overlapped and Exclude Receive),Preparing\n");
        csv.write(QStringLiteral("%1,13,%2,420174.26,0.0,420174.26,158558.0,810022.25,0,420174.26,206.25\n")
                      .arg(r % 8)
                      .arg(computing, 0, 'f', 3)
                      .toUtf8());
    }
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int ranks = argc > 1 ? std::atoi(argv[1]) : 128;
    QTemporaryDir temp;
    const QString root = argc > 2 ? QString::fromLocal8Bit(argv[2]) : temp.path();
    const int slowRank = ranks / 2 + 1;
    if (!generate(root, ranks, slowRank)) {
        std::fprintf(stderr, "cannot generate the cluster in %s\n", qPrintable(root));
        return 1;
    }
    const long rssBefore = peakRssKb();

    QElapsedTimer t;
    t.start();
    qint64 bytes = 0;
    QDirIterator files(root, QDir::Files, QDirIterator::Subdirectories);
    while (files.hasNext())
        bytes += readAll(files.next()).size();
    const double baseline = seconds(t);

    t.restart();
    const ClusterModel model = readCluster(root);
    const double read = seconds(t);
    t.restart();
    const std::size_t findings = findSlowRanks(model).size() + plainRule(model).size() +
                                 findSlowLinks(model).size() + findWaits(model).size() +
                                 rankCommunication(model).size();
    const double analyse = seconds(t);
    const std::vector<SlowRank> slow = findSlowRanks(model);
    std::printf("cluster: %zu ranks, %.1f MB of summary files, %lld warnings\n", model.ranks.size(),
                static_cast<double>(bytes) / 1e6, static_cast<long long>(model.warnings.size()));
    std::printf(
        "read the files' bytes (baseline) %.3f s; readCluster %.3f s = %.1fx; analyses %.3f s (%zu rows)\n",
        baseline, read, read / baseline, analyse, findings);
    std::printf("slow ranks found: %zu (rank %d expected) first: rank %d\n", slow.size(), slowRank,
                slow.empty() ? -1 : slow.front().rank);
    std::printf("peak RSS: %.1f MB (before reading: %.1f MB)\n", peakRssKb() / 1024.0, rssBefore / 1024.0);
    return model.ranks.size() == static_cast<std::size_t>(ranks) ? 0 : 1;
}
