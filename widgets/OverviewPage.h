#pragma once

#include "overview/Overview.h"

#include <QWidget>

#include <array>
#include <optional>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class QScrollArea;
class QTreeWidget;
class QTreeWidgetItem;

namespace at {

// The colour of each step part: the same in the light and the dark theme (mid-tone hues that read on both
// backgrounds), so a picture or a description of one theme holds for the other.
QColor overviewPartColor(OverviewPart part);

// One stacked bar per row: the additive parts of a step (computing, exposed communication, free,
// preparing) side by side, their sum written after the bar. A click on a bar reports its row and part.
class StepBarsChart : public QWidget
{
    Q_OBJECT
public:
    struct Row
    {
        QString label;
        std::array<TimeNs, kOverviewPartCount> parts{};
        bool emphasised = false; // the mean: drawn with a bold label
    };

    explicit StepBarsChart(QWidget *parent = nullptr);
    void setRows(std::vector<Row> rows);
    const std::vector<Row> &rows() const { return m_rows; }
    // The bar of a row (widget coordinates), for tests and tooltips.
    QRect barRect(int row) const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void rowActivated(int row, at::OverviewPart part);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    bool event(QEvent *event) override; // tooltips

private:
    int labelWidth() const;
    int totalWidth() const;
    TimeNs longestRow() const;
    // The part under x in the row's bar, or nullopt.
    std::optional<OverviewPart> partAt(int row, int x) const;
    int rowAt(int y) const;

    std::vector<Row> m_rows;
};

// The Overview page (issue #28 item 1): the first page after a load. Each step's time as its parts for
// every step and the mean, what fills each part, the top findings with the share of the step each explains,
// the memory peak with its component and the collection warnings. Every number clicks through: the page
// emits the number's target and the window goes to the timeline, the Kernels panel or the cluster page.
class OverviewPage : public QWidget
{
    Q_OBJECT
public:
    explicit OverviewPage(QWidget *parent = nullptr);

    // Shows the overview (null: nothing loaded). clusterPage: a "Cluster" button is offered.
    void setOverview(std::shared_ptr<const Overview> overview);
    // Nothing to show yet: the overview of the data just opened is being computed.
    void setComputing();
    const Overview *overview() const { return m_overview.get(); }
    void setPagesAvailable(bool timeline, bool cluster);
    // The rank whose steps and contents are shown (index into overview()->ranks).
    void showRank(int index);
    int shownRank() const { return m_rank; }

    // The parts of the page (tests drive them as a user would).
    StepBarsChart *stepChart() const { return m_steps; }
    StepBarsChart *rankChart() const { return m_ranks; }
    QTreeWidget *contents() const { return m_contents; }
    QTreeWidget *findings() const { return m_findings; }
    QPushButton *memoryPeak() const { return m_memory; }
    QPushButton *timelineButton() const { return m_timelineButton; }
    QPushButton *clusterButton() const { return m_clusterButton; }
    QComboBox *rankChooser() const { return m_rankChooser; }

Q_SIGNALS:
    void targetActivated(const at::OverviewTarget &target);
    void timelineRequested();
    void clusterRequested();

protected:
    void changeEvent(QEvent *event) override; // LanguageChange: texts again

private:
    void retranslateUi();
    void rebuild();
    void fillRankChart();
    void fillStepChart(const OverviewRank &rank);
    void fillContents(const OverviewRank &rank);
    void fillFindings(const OverviewRank &rank);
    void fillMemoryAndWarnings(const OverviewRank &rank);
    void activateItem(QTreeWidgetItem *item);
    QLabel *sectionTitle(QLabel *&label);

    std::shared_ptr<const Overview> m_overview;
    int m_rank = 0;
    bool m_computing = false;
    std::vector<OverviewTarget> m_itemTargets; // per clickable tree item (its Qt::UserRole index)
    QScrollArea *m_scroll;
    QLabel *m_title, *m_scope;
    QPushButton *m_timelineButton, *m_clusterButton;
    QLabel *m_rankLabel;
    QComboBox *m_rankChooser;
    QLabel *m_ranksTitle = nullptr, *m_stepsTitle = nullptr, *m_contentsTitle = nullptr,
           *m_findingsTitle = nullptr, *m_memoryTitle = nullptr, *m_warningsTitle = nullptr;
    QLabel *m_legend;
    StepBarsChart *m_ranks, *m_steps;
    QTreeWidget *m_contents, *m_findings;
    QPushButton *m_memory;
    QLabel *m_memoryNote;
    QLabel *m_warnings;
    QLabel *m_empty;
};

} // namespace at
