#pragma once

#include <QObject>

class QProgressBar;
class QPushButton;
class QStatusBar;

namespace at {

class StatusLabel;
class TraceLoadJob;

// The status bar's side of a running load: "n% read" and Cancel beside the status text, which says how
// many MB of how many are read. Shown from started() until stopped().
class LoadProgress : public QObject
{
    Q_OBJECT
public:
    LoadProgress(QStatusBar *bar, StatusLabel *status, TraceLoadJob *job);
    void started();
    void stopped();
    void retranslate();

private:
    QProgressBar *m_progress;
    QPushButton *m_cancel;
};

} // namespace at
