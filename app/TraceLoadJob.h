#pragma once

#include "TraceLoader.h"

#include <QFutureWatcher>
#include <QObject>
#include <QTimer>

#include <memory>

namespace at {

// The window's one LoadOptions: what the command line gave (--source, --cache, --no-cache, --memory-limit,
// AT_NO_SNAPSHOT), the user's later source choice (File ▸ Reload from Other Source / Raw Data), and whether
// File ▸ Prepared Cache's folder may serve loads (off for a window started with --no-cache).
class WindowLoadOptions
{
public:
    const LoadOptions &options() const { return m_options; }
    void set(const LoadOptions &options) { m_options = options; }
    void setPreferredSource(PreferredSource source) { m_options.preferredSource = source; }
    void setSavedCacheFolderUsed(bool used) { m_savedCacheUsed = used; }
    // A kept prepared cache folder is what the following loads of a cluster's ranks use (the command line
    // chose no --cache and no --no-cache).
    bool followsSavedFolder() const { return m_savedCacheUsed && m_options.snapshotDirectory.isEmpty(); }
    // The options of one load. With preparedCache, like `--cache DIR` with the saved folder: its snapshots
    // and prepared summaries, the cache on even under AT_NO_SNAPSHOT (the command line's --cache wins).
    LoadOptions forLoad(bool preparedCache) const;

private:
    LoadOptions m_options = environmentLoadOptions();
    bool m_savedCacheUsed = true;
};

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
