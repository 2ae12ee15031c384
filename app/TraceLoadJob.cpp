#include "TraceLoadJob.h"

#include "PreparedCacheSetting.h"

#include <QtConcurrent>

namespace at {

TraceLoadJob::TraceLoadJob(QObject *parent) : QObject(parent)
{
    m_progressTimer.setInterval(50);
    connect(&m_progressTimer, &QTimer::timeout, this, &TraceLoadJob::reportProgress);
}

TraceLoadJob::~TraceLoadJob()
{
    stopWorker();
}

void TraceLoadJob::start(const QString &path, const LoadOptions &options)
{
    if (m_running)
        cancel();
    m_running = std::make_unique<Running>();
    m_running->path = path;
    std::shared_ptr<LoadControl> control = m_running->control;
    connect(&m_running->watcher, &QFutureWatcher<std::shared_ptr<LoadResult>>::finished, this,
            &TraceLoadJob::onWorkerFinished);
    m_running->watcher.setFuture(QtConcurrent::run([path, options, control] {
        auto result = std::make_shared<LoadResult>(loadTrace(path, options, *control));
        if (result->model)
            result->model->buildSliceLods(); // here, not in the first paint on the GUI thread
        return result;
    }));
    m_progressTimer.start();
}

void TraceLoadJob::stopWorker()
{
    if (!m_running)
        return;
    m_running->control->cancel = true;
    // The worker notices the flag within one chunk; waiting keeps ownership simple.
    m_running->watcher.disconnect(this);
    m_running->watcher.waitForFinished();
    m_progressTimer.stop();
}

void TraceLoadJob::cancel()
{
    if (!m_running)
        return;
    stopWorker();
    const QString path = m_running->path;
    m_running.reset();
    Q_EMIT cancelled(path);
}

void TraceLoadJob::reportProgress()
{
    if (!m_running)
        return;
    const auto total = m_running->control->bytesTotal.load();
    const auto done = m_running->control->bytesDone.load();
    Q_EMIT progress(m_running->path, static_cast<double>(done) / 1e6, static_cast<double>(total) / 1e6,
                    total ? static_cast<double>(done) / static_cast<double>(total) : 0.0);
}

void TraceLoadJob::onWorkerFinished()
{
    std::unique_ptr<Running> running = std::move(m_running);
    m_progressTimer.stop();
    Q_EMIT finished(running->path, running->watcher.result());
}

LoadOptions WindowLoadOptions::forLoad(bool preparedCache) const
{
    LoadOptions options = m_options;
    if (const QString folder = savedPreparedCacheFolder();
        preparedCache && followsSavedFolder() && !folder.isEmpty()) {
        options.snapshotDirectory = folder;
        options.useSnapshotCache = true;
    }
    return options;
}

} // namespace at
