#pragma once

#include "CompareWindow.h"
#include "diff/OpDiff.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QMainWindow>
#include <QPointer>

#include <memory>

class QLabel;
class QMenu;
class QProgressBar;

namespace at {

class OpDiffView;

// The diff by framework op of two steps (issue #30) in its own window: the headline, the diff table, the
// ops of one side only and the accumulated-delta curve (OpDiffView), computed on a Qt Concurrent worker.
// Both steps' timelines are shown side by side in the compare window (CompareWindow), which this window
// opens and drives: a row selects the op and highlights its kernels in both panes, and the comparison
// pane is aligned on the base pane at that op (matched ops, not time); op slices are coloured by their
// device-time change. Keeps both models alive while open.
class OpDiffWindow : public QMainWindow
{
    Q_OBJECT
public:
    OpDiffWindow(const StepChoice &base, const StepChoice &comparison, bool matchShapes,
                 QWidget *parent = nullptr);
    ~OpDiffWindow() override;

    OpDiffView *view() const { return m_view; }
    // The result once computed (null before).
    std::shared_ptr<const diff::DiffResult> result() const { return m_result; }
    bool isComputing() const { return m_watcher.isRunning(); }
    bool matchShapes() const { return m_matchShapes; }
    // From the window's start to the result (what the user waited for), 0 before.
    TimeNs computeTime() const { return m_computeNs; }
    // The side-by-side compare window (opened on demand; null when closed).
    CompareWindow *sideBySide() const { return m_sideBySide; }
    CompareWindow *showSideBySide();
    // Selects the row's op and its kernels on both panes and aligns the panes on it.
    void showRow(int diffRow);
    // The step's window of the diff for a step choice (its ProfilerStep when the diff finds it).
    static diff::DiffWindow windowOf(const StepChoice &choice);

Q_SIGNALS:
    void resultReady();

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void onFinished();
    void colourPanes();
    void showUnmatchedOp(bool comparison, int op);
    void exportCsv();

    StepChoice m_sides[2];
    bool m_matchShapes;
    std::shared_ptr<const diff::DiffResult> m_result;
    QFutureWatcher<std::shared_ptr<const diff::DiffResult>> m_watcher;
    QElapsedTimer m_clock;
    TimeNs m_computeNs = 0;
    OpDiffView *m_view;
    QProgressBar *m_progress;
    QLabel *m_status;
    QMenu *m_fileMenu;
    QPointer<CompareWindow> m_sideBySide;
};

} // namespace at
