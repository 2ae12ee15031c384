// Sessions with many markers (issue 29, item 8: 100,000 markers took 31 s to open, 1,000,000 never did).
// For a small baseline count and a large count in the same run (machines are noisy), each step of opening
// a session in the real window: reading the session text (sessionFromJson), the whole File ▸ Open Session
// (read, reload of the real level-1 rank-0 trace, markers into the list and the Markers dock) and the
// first frame of the window (timeline markers and the dock), plus the trace reload alone for reference.
// The session is also read by the QJsonDocument reader it replaced (sessionFromJsonWithQt), for a before.
// Run offscreen: QT_QPA_PLATFORM=offscreen bench_markers [SMALL] [LARGE]   (default 10000 1000000)
// bench_markers --write FILE N writes the session of N markers and exits: to time File ▸ Open Session in
// another build's binary (`ascend-timeline --screenshot OUT.png FILE`, before and after).

#include "MainWindow.h"
#include "MarkerList.h"
#include "Session.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <cstdio>
#include <cstdlib>
#include <ctime>

using namespace at;

namespace {

double seconds(const QElapsedTimer &t)
{
    return static_cast<double>(t.nsecsElapsed()) / 1e9;
}

// The process's CPU time (every thread): on a machine shared by several builds the wall time is mostly
// waiting for a core, so both are printed.
double cpuSeconds()
{
    return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

bool openAndWait(MainWindow &window, const QString &path)
{
    QSignalSpy spy(&window, &MainWindow::loadFinished);
    window.openPath(path);
    return (!spy.isEmpty() || spy.wait(600000)) && spy.first().first().toBool();
}

// Flags and ranges spread over the trace's first 100 ms, named as the m and k keys name them.
QByteArray sessionText(const QString &trace, int markers)
{
    Session s;
    s.paths = {trace};
    s.markers.reserve(static_cast<std::size_t>(markers));
    for (int i = 0; i < markers; ++i) {
        const TimeNs begin = TimeNs(i) * 100'000'000 / markers;
        s.markers.push_back(
            {i % 2 ? QStringLiteral("Range %1").arg(i / 2 + 1) : QStringLiteral("Flag %1").arg(i / 2 + 1),
             begin, begin + (i % 2) * 20'000, 0xE6550D});
    }
    return sessionToJson(s);
}

struct Times
{
    double parseWithQt = 0, parse = 0, open = 0, openCpu = 0, frame = 0;
};

Times measure(MainWindow &window, const QString &trace, const QString &file, int markers)
{
    const QByteArray text = sessionText(trace, markers);
    QFile f(file);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
        std::exit(1);
    f.close();
    Times t;
    QElapsedTimer timer;
    QString error;
    timer.start();
    const auto parsedWithQt = sessionFromJsonWithQt(text, &error);
    t.parseWithQt = seconds(timer);
    timer.restart();
    const auto parsed = sessionFromJson(text, &error);
    t.parse = seconds(timer);
    if (!parsed || !parsedWithQt || !(*parsed == *parsedWithQt) ||
        static_cast<int>(parsed->markers.size()) != markers)
        std::exit(1);
    timer.restart();
    const double cpu = cpuSeconds();
    if (!openAndWait(window, file) || window.markers()->size() != markers) {
        std::fprintf(stderr, "could not open %s: %s\n", qPrintable(file), qPrintable(window.lastError()));
        std::exit(1);
    }
    t.open = seconds(timer);
    t.openCpu = cpuSeconds() - cpu;
    timer.restart();
    if (window.grab().isNull())
        std::exit(1);
    t.frame = seconds(timer);
    return t;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const QString trace = QStringLiteral(
        AT_SAMPLES_DIR "/msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt");
    if (argc == 4 && QByteArray(argv[1]) == "--write") {
        QFile out(QString::fromLocal8Bit(argv[2]));
        const QByteArray text = sessionText(trace, std::atoi(argv[3]));
        return out.open(QIODevice::WriteOnly) && out.write(text) == text.size() ? 0 : 1;
    }
    const int small = argc > 1 ? std::atoi(argv[1]) : 10'000;
    const int large = argc > 2 ? std::atoi(argv[2]) : 1'000'000;
    QTemporaryDir dir;
    MainWindow window;
    window.resize(1600, 1000);
    window.show();
    if (!openAndWait(window, trace))
        return 1;
    QElapsedTimer reload;
    reload.start();
    if (!openAndWait(window, trace))
        return 1;
    const double traceOnly = seconds(reload);
    std::printf("trace reload alone: %.3f s\n", traceOnly);
    std::printf("%10s %14s %12s %12s %12s %12s %14s\n", "markers", "parse(Qt) s", "parse s", "open s",
                "open cpu s", "frame s", "open-reload us/marker");
    for (const int n : {small, large}) {
        const Times t = measure(window, trace, dir.filePath(QStringLiteral("m%1.atsession").arg(n)), n);
        std::printf("%10d %14.3f %12.3f %12.3f %12.3f %12.3f %14.3f\n", n, t.parseWithQt, t.parse, t.open,
                    t.openCpu, t.frame, (t.open - traceOnly) * 1e6 / n);
    }
    return 0;
}
