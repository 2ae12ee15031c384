// The cluster page ready at scale (issue #32 SCALE): a job of RANKS ranks generated from the real Qwen3
// sample (ClusterJobGenerator.h), read with readCluster(), then ClusterView::setModel + the first paint of
// the page at 1600 × 1000 (offscreen; widgets only, no MainWindow), the first paint of each tab (the step
// heat map, the matrix, the communication ops), and a matrix group change. Baseline in the same run: reading
// the same files' bytes. Prints wall seconds and the peak RSS.
//
// usage: QT_QPA_PLATFORM=offscreen bench_cluster_page [RANKS] [DIR]   (DIR: an existing generated job is
// reused when it has RANKS rank folders; else generated there, default a temporary folder)
//        QT_QPA_PLATFORM=offscreen bench_cluster_page --input PATH   (any existing cluster input as is: a
//        folder
// of rank folders, msprof-analyze's cluster_analysis_output/ or cluster_analysis.db; nothing is generated or
// removed)

#include "BenchClock.h"
#include "ClusterJobGenerator.h"
#include "cluster/ClusterHeatMap.h"
#include "cluster/ClusterReader.h"
#include "cluster/ClusterView.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPixmap>
#include <QTabWidget>
#include <QTemporaryDir>

#include <cstdio>
#include <memory>

using namespace at;
using namespace at::bench;
using namespace at::cluster;

namespace {

// The widget painted as the screen would paint it: events delivered, then rendered into a pixmap.
void paint(QWidget &w)
{
    QApplication::processEvents();
    const QPixmap shot = w.grab();
    Q_UNUSED(shot);
}

// The baseline: every byte of the input read (a database file, or every file under a folder).
qint64 readInputBytes(const QString &path)
{
    if (!QFileInfo(path).isFile())
        return readEveryFile(path);
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll().size() : 0;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QStringList args = app.arguments().mid(1);
    QString input;
    if (const qsizetype at = args.indexOf(QStringLiteral("--input")); at >= 0 && at + 1 < args.size()) {
        input = args[at + 1];
        args.remove(at, 2);
    }
    const int ranks = !args.isEmpty() ? args[0].toInt() : 128;
    QTemporaryDir temp;
    const QString root = !input.isEmpty() ? input : args.size() > 1 ? args[1] : temp.path();
    if (input.isEmpty() && findRankFolders(root).size() != ranks) {
        QDir(root).removeRecursively();
        QString error;
        if (!bench::generateClusterJob(root, ranks, bench::qwen3SampleLevel2(QStringLiteral(AT_SAMPLES_DIR)),
                                       &error)) {
            std::fprintf(stderr, "cannot generate the cluster in %s: %s\n", qPrintable(root),
                         qPrintable(error));
            return 1;
        }
    }

    Stopwatch w;
    w.start();
    const qint64 bytes = readInputBytes(root);
    const QString baseline = w.text();

    w.start();
    auto model = std::make_shared<const ClusterModel>(readCluster(root));
    const QString read = w.text();

    ClusterView view;
    view.resize(1600, 1000);
    view.show();
    QApplication::processEvents();
    const long rssBefore = peakRssKb();

    w.start();
    view.setModel(model);
    const QString set = w.text();
    Stopwatch painting;
    painting.start();
    paint(view);
    const QString firstPaint = painting.text();
    const QString ready = w.text();

    auto *tabs = view.findChild<QTabWidget *>();
    std::printf("cluster page, %zu ranks, %.1f MB of summary files\n", model->ranks.size(),
                static_cast<double>(bytes) / 1e6);
    std::printf("read the files' bytes (baseline) %s; readCluster %s\n", qPrintable(baseline),
                qPrintable(read));
    std::printf("setModel %s + first paint %s = page ready %s\n", qPrintable(set), qPrintable(firstPaint),
                qPrintable(ready));
    for (int i = 0; tabs && i < tabs->count(); ++i) {
        w.start();
        tabs->setCurrentIndex(i);
        paint(view);
        std::printf("  tab \"%s\": first paint %s\n", qPrintable(tabs->tabText(i)), qPrintable(w.text()));
    }
    if (view.matrixGroupChooser()->count() > 1) {
        for (int i = 0; i < tabs->count(); ++i)
            if (tabs->widget(i)->isAncestorOf(view.matrixHeatMap()))
                tabs->setCurrentIndex(i);
        w.start();
        view.matrixGroupChooser()->setCurrentIndex(1);
        paint(view);
        std::printf("matrix: group changed to \"%s\" and painted %s (%d x %d cells)\n",
                    qPrintable(view.matrixGroupChooser()->currentText()), qPrintable(w.text()),
                    view.matrixHeatMap()->rowCount(), view.matrixHeatMap()->columnCount());
        w.start();
        view.matrixGroupChooser()->setCurrentIndex(0);
        paint(view);
        std::printf("matrix: all groups again %s (%d x %d cells)\n", qPrintable(w.text()),
                    view.matrixHeatMap()->rowCount(), view.matrixHeatMap()->columnCount());
    }
    std::printf("peak RSS %.1f MB (%.1f MB before setModel)\n", peakRssKb() / 1024.0, rssBefore / 1024.0);
    return 0;
}
