#pragma once

#include "Finding.h"

#include <QFutureWatcher>
#include <QWidget>

#include <atomic>
#include <memory>
#include <vector>

class QLabel;
class QPushButton;
class QTextBrowser;
class QTreeWidget;
class QTreeWidgetItem;

namespace at {

// The Insights dock: the performance findings of core/insights (docs/INSIGHTS.md), most costly first,
// computed on a worker thread once a model is shown (the timeline stays usable meanwhile). Each
// finding row holds its occurrences; selecting one selects its slice on the timeline, and "Show all"
// asks for every occurrence of the current finding at once.
class InsightsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit InsightsPanel(QWidget *parent = nullptr);
    ~InsightsPanel() override;

    // Starts the checks on the model in the background (null clears; a running computation on the
    // previous model is cancelled and waited for, so the model may go away after this returns).
    void setModel(const TraceModel *model);

    const std::vector<Finding> &findings() const { return m_findings; }
    bool isComputing() const { return m_watcher.isRunning(); }
    QTreeWidget *tree() const { return m_tree; }
    QPushButton *showAllButton() const { return m_showAll; }

Q_SIGNALS:
    void findingsReady();
    // One occurrence was chosen: the timeline selects it.
    void occurrenceActivated(SliceRef slice);
    // "Show all": every occurrence of the current finding that has a slice (the timeline highlights
    // them and selects the first).
    void occurrencesRequested(std::vector<SliceRef> slices);

private:
    void showFindings();
    void showCurrent();
    int currentFinding() const;

    const TraceModel *m_model = nullptr;
    std::shared_ptr<std::atomic_bool> m_cancel;
    QFutureWatcher<std::vector<Finding>> m_watcher;
    std::vector<Finding> m_findings;
    QLabel *m_status;
    QTreeWidget *m_tree;
    QTextBrowser *m_text;
    QPushButton *m_showAll;
};

} // namespace at
