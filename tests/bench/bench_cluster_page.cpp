// The cluster page ready at scale (issue #32 SCALE): a job of RANKS ranks generated from the real Qwen3
// sample (ClusterJobGenerator.h), read with readCluster(), then ClusterView::setModel + the first paint of
// the page at 1600 × 1000 (offscreen; widgets only, no MainWindow), the first paint of each tab (the step
// heat map, the matrix, the communication ops), and a matrix group change. Baseline in the same run: reading
// the same files' bytes. Prints wall seconds and the peak RSS.
//
// usage: QT_QPA_PLATFORM=offscreen bench_cluster_page [RANKS] [DIR]   (DIR: an existing generated job is
// reused when it has RANKS rank folders; else generated there, default a temporary folder)

#include "ClusterJobGenerator.h"
#include "cluster/ClusterHeatMap.h"
#include "cluster/ClusterReader.h"
#include "cluster/ClusterView.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QPixmap>
#include <QTabWidget>
#include <QTemporaryDir>

#include <cstdio>
#include <memory>

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

// The widget painted as the screen would paint it: events delivered, then rendered into a pixmap.
void paint(QWidget &w)
{
    QApplication::processEvents();
    const QPixmap shot = w.grab();
    Q_UNUSED(shot);
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    const int ranks = !args.isEmpty() ? args[0].toInt() : 128;
    QTemporaryDir temp;
    const QString root = args.size() > 1 ? args[1] : temp.path();
    if (findRankFolders(root).size() != ranks) {
        QDir(root).removeRecursively();
        QString error;
        if (!bench::generateClusterJob(root, ranks, bench::qwen3SampleLevel2(QStringLiteral(AT_SAMPLES_DIR)),
                                       &error)) {
            std::fprintf(stderr, "cannot generate the cluster in %s: %s\n", qPrintable(root),
                         qPrintable(error));
            return 1;
        }
    }

    QElapsedTimer t;
    t.start();
    qint64 bytes = 0;
    QDirIterator files(root, QDir::Files, QDirIterator::Subdirectories);
    while (files.hasNext()) {
        QFile f(files.next());
        if (f.open(QIODevice::ReadOnly))
            bytes += f.readAll().size();
    }
    const double baseline = seconds(t);

    t.restart();
    auto model = std::make_shared<const ClusterModel>(readCluster(root));
    const double read = seconds(t);

    ClusterView view;
    view.resize(1600, 1000);
    view.show();
    QApplication::processEvents();
    const long rssBefore = peakRssKb();

    t.restart();
    view.setModel(model);
    const double set = seconds(t);
    t.restart();
    paint(view);
    const double firstPaint = seconds(t);

    auto *tabs = view.findChild<QTabWidget *>();
    std::printf("cluster page, %zu ranks, %.1f MB of summary files\n", model->ranks.size(),
                static_cast<double>(bytes) / 1e6);
    std::printf("read the files' bytes (baseline) %.3f s; readCluster %.3f s\n", baseline, read);
    std::printf("setModel %.3f s + first paint %.3f s = page ready %.3f s (%.1fx the baseline read)\n", set,
                firstPaint, set + firstPaint, (set + firstPaint) / baseline);
    for (int i = 0; tabs && i < tabs->count(); ++i) {
        t.restart();
        tabs->setCurrentIndex(i);
        paint(view);
        std::printf("  tab \"%s\": first paint %.3f s\n", qPrintable(tabs->tabText(i)), seconds(t));
    }
    if (view.matrixGroupChooser()->count() > 1) {
        t.restart();
        view.matrixGroupChooser()->setCurrentIndex(1);
        paint(view);
        std::printf("matrix: group changed to \"%s\" and painted %.3f s (%d x %d cells)\n",
                    qPrintable(view.matrixGroupChooser()->currentText()), seconds(t),
                    view.matrixHeatMap()->rowCount(), view.matrixHeatMap()->columnCount());
        t.restart();
        view.matrixGroupChooser()->setCurrentIndex(0);
        paint(view);
        std::printf("matrix: all groups again %.3f s (%d x %d cells)\n", seconds(t),
                    view.matrixHeatMap()->rowCount(), view.matrixHeatMap()->columnCount());
    }
    std::printf("peak RSS %.1f MB (%.1f MB before setModel)\n", peakRssKb() / 1024.0, rssBefore / 1024.0);
    return 0;
}
