#pragma once

#include "TraceLoader.h"

#include <QFutureWatcher>
#include <QObject>
#include <QTimer>

#include <memory>

namespace at {

// The window's load lifecycle: loadTrace() on a Qt Concurrent worker with its LoadControl, progress
// every 50 ms, Cancel, and the result handed back on the GUI thread. One load at a time; starting
// another cancels the running one. This is the GUI's only call of loadTrace().
class TraceLoadJob : public QObject
{
    Q_OBJECT
public:
    explicit TraceLoadJob(QObject *parent = nullptr);
    ~TraceLoadJob() override; // stops and waits for a running load

    void start(const QString &path, const LoadOptions &options);
    // Stops the worker (it notices the flag within one chunk) and waits; emits cancelled().
    void cancel();
    bool isRunning() const { return m_running != nullptr; }

Q_SIGNALS:
    void progress(const QString &path, double doneMb, double totalMb, double fraction);
    void finished(const QString &path, std::shared_ptr<at::LoadResult> result);
    void cancelled(const QString &path);

private:
    struct Running
    {
        QString path;
        std::shared_ptr<LoadControl> control = std::make_shared<LoadControl>();
        QFutureWatcher<std::shared_ptr<LoadResult>> watcher;
    };
    void reportProgress();
    void onWorkerFinished();
    void stopWorker();

    std::unique_ptr<Running> m_running;
    QTimer m_progressTimer;
};

} // namespace at
