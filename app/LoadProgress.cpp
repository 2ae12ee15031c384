#include "LoadProgress.h"

#include "StatusLabel.h"
#include "TraceLoadJob.h"

#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>

namespace at {

LoadProgress::LoadProgress(QStatusBar *bar, StatusLabel *status, TraceLoadJob *job)
    : QObject(job), m_progress(new QProgressBar), m_cancel(new QPushButton)
{
    bar->addPermanentWidget(m_progress);
    bar->addPermanentWidget(m_cancel);
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(260);
    retranslate();
    stopped();
    connect(m_cancel, &QPushButton::clicked, job, &TraceLoadJob::cancel);
    connect(job, &TraceLoadJob::progress, this,
            [this, status](const QString &path, double doneMb, double totalMb, double fraction) {
                m_progress->setValue(static_cast<int>(1000.0 * fraction));
                status->setText(
                    tr("Loading %1… %2 of %3 MB").arg(path).arg(doneMb, 0, 'f', 1).arg(totalMb, 0, 'f', 1));
            });
}

void LoadProgress::started()
{
    m_progress->setValue(0);
    m_progress->show();
    m_cancel->show();
}

void LoadProgress::stopped()
{
    m_progress->hide();
    m_cancel->hide();
}

void LoadProgress::retranslate()
{
    m_cancel->setText(tr("Cancel"));
    m_progress->setFormat(tr("%p% read"));
}

} // namespace at
