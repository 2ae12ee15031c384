#include "cluster/ClusterView.h"

#include "ChartScale.h"
#include "FindingText.h"
#include "MemoryAnalysis.h"
#include "NumberFormat.h"
#include "OverviewPage.h"
#include "Theme.h"
#include "cluster/ClusterAnalysis.h"
#include "cluster/ClusterHeatMap.h"
#include "cluster/CommBoundAnalysis.h"
#include "cluster/CommunicationTable.h"
#include "cluster/MoeLoadView.h"
#include "cluster/PipelineView.h"
#include "cluster/StrategyView.h"

#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStackedBarSeries>
#include <QStandardItemModel>
#include <QStyleOptionHeader>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace at {

using namespace at::cluster;

namespace {

double ms(TimeNs ns)
{
    return static_cast<double>(ns) / 1e6;
}

// The mean of each breakdown column over a rank's steps.
RankStep meanStep(const Rank &r)
{
    RankStep m;
    if (r.steps.empty())
        return m;
    const auto n = static_cast<TimeNs>(r.steps.size());
    for (const RankStep &s : r.steps) {
        m.computing += s.computing;
        m.communicationNotOverlapped += s.communicationNotOverlapped;
        m.overlapped += s.overlapped;
        m.free += s.free;
        m.bubble += s.bubble;
        m.preparing += s.preparing;
        m.stage += s.stage;
        m.hasPreparing = m.hasPreparing || s.hasPreparing;
    }
    m.computing /= n;
    m.communicationNotOverlapped /= n;
    m.overlapped /= n;
    m.free /= n;
    m.bubble /= n;
    m.preparing /= n;
    m.stage /= n;
    m.source = r.steps.front().source;
    return m;
}

// A cell of a column whose unit its header or the page's title names: the one formatter's digits (thousands
// separators, three decimals), no symbol.
QStandardItem *numberItem(const QString &text, double value, bool present)
{
    auto *item = new QStandardItem(present ? text : QStringLiteral("–"));
    item->setData(present ? value : -1.0, Qt::UserRole);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setEditable(false);
    return item;
}

// A mean time of the table, in ms.
QStandardItem *msItem(TimeNs ns, bool present = true)
{
    static const DisplayUnit kMs{Quantity::Duration, QString(), 1e6, 3};
    return numberItem(formatDurationNs(ns, kMs), ms(ns), present);
}

QStandardItem *textItem(const QString &text, const QVariant &sortKey)
{
    auto *item = new QStandardItem(text);
    item->setData(sortKey, Qt::UserRole);
    item->setEditable(false);
    return item;
}

QString stepText(std::int64_t step)
{
    return step == kNoStep ? ClusterView::tr("(no step)") : QString::number(step);
}

// A header's parenthesis on a second line ("Communication\n(not overlapped)", also the full-width "（"), so
// the column is as wide as its numbers and all 14 columns fit beside the chart in a 1600-pixel window.
QString breakBeforeParenthesis(const QString &text)
{
    qsizetype at = text.indexOf(QLatin1Char('('));
    if (at < 0)
        at = text.indexOf(QChar(0xFF08));
    if (at < 0)
        at = text.lastIndexOf(QLatin1Char(' ')); // "Stage Time"
    if (at <= 0)
        return text;
    return text.left(at).trimmed() + QLatin1Char('\n') + text.mid(at).trimmed();
}

// The chart's bars: every rank in rank order up to kChartEveryRank ranks; above, a bar of a pixel per rank
// could be neither read nor clicked (1,024 ranks, issue #32), and the chart answers "which ranks are slow
// and in which part": the kChartSlowest slowest ranks by mean step time (computing + communication not
// overlapped + free), slowest first, then the rank of the median step time and the fastest rank, to compare
// them with. The rank table (sortable) and the rank × step heat map still list every rank.
constexpr std::size_t kChartEveryRank = 32;
constexpr std::size_t kChartSlowest = 6;

struct ChartBar
{
    int rank = -1;
    RankStep mean;
};
struct ChartBars
{
    std::vector<ChartBar> bars;
    bool slowestOnly = false;
};

ChartBars chartBars(const ClusterModel &model)
{
    ChartBars out;
    for (const Rank &r : model.ranks)
        out.bars.push_back({r.rank, meanStep(r)});
    if (out.bars.size() <= kChartEveryRank)
        return out;
    out.slowestOnly = true;
    std::vector<ChartBar> all = std::move(out.bars);
    std::stable_sort(all.begin(), all.end(), [](const ChartBar &a, const ChartBar &b) {
        return rankTotal(a.mean) > rankTotal(b.mean);
    });
    out.bars.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(kChartSlowest));
    // The rank of the median step time (a real rank: medians taken part by part would stack into a step no
    // rank had, taller than every bar when the stages differ).
    out.bars.push_back(all[all.size() / 2]);
    out.bars.push_back(all.back());
    return out;
}

// From this page width on, the rank table has the whole width and the chart sits beside the tabs.
constexpr int kWidePage = 1200;

// The rank table's header draws its titles on two lines (breakBeforeParenthesis); the model keeps them
// whole (tests, copies and exports read the model).
class LineBreakingHeader : public QHeaderView
{
public:
    using QHeaderView::QHeaderView;

protected:
    void initStyleOptionForIndex(QStyleOptionHeader *option, int logicalIndex) const override
    {
        QHeaderView::initStyleOptionForIndex(option, logicalIndex);
        option->text = breakBeforeParenthesis(option->text);
    }
    QSize sectionSizeFromContents(int logicalIndex) const override
    {
        QSize size = QHeaderView::sectionSizeFromContents(logicalIndex);
        const QString text = model()->headerData(logicalIndex, orientation()).toString();
        const QStringList lines = breakBeforeParenthesis(text).split(QLatin1Char('\n'));
        if (lines.size() < 2)
            return size;
        const QFontMetrics metrics(font());
        int widest = 0;
        for (const QString &line : lines)
            widest = std::max(widest, metrics.horizontalAdvance(line));
        size.rwidth() += widest - metrics.horizontalAdvance(text);
        size.rheight() += static_cast<int>(lines.size() - 1) * metrics.lineSpacing();
        return size;
    }
};

// The width a legend at the chart's bottom needs to show every label in full (Qt Charts elides the longest
// label first when they do not fit): each marker's label, its colour box and spacing, and the margins.
int legendWidth(const QStringList &labels, const QFont &font)
{
    const QFontMetrics metrics(font);
    int width = 0;
    for (const QString &label : labels)
        width += metrics.horizontalAdvance(label) + 2 * metrics.height() + 12;
    return width + 60; // the chart's and legend's margins
}

// Roles of a findings item: the ranks involved (QList<int>) and the op it is about.
constexpr int kFindingRanksRole = Qt::UserRole + 1;
constexpr int kFindingOpRole = Qt::UserRole + 2;

QListWidgetItem *findingItem(const QString &text, const std::vector<int> &ranks, const QString &op = {})
{
    auto *item = new QListWidgetItem(text);
    QList<int> list(ranks.begin(), ranks.end());
    item->setData(kFindingRanksRole, QVariant::fromValue(list));
    item->setData(kFindingOpRole, op);
    return item;
}

// The matrix op choice: "" all ops' -total entries, "type:<t>" one op type's -total entries,
// "op:<name>" one op's own entries.
QString opTypeOf(const MatrixLink &l)
{
    return l.opKey.section(QLatin1Char('-'), 0, 0);
}

// One op's links (the -total choices are matrixLinks'): its entries repeat under several rankings (top1,
// bottom3, ...), so each link counts once.
std::vector<LinkTotal> opLinks(const ClusterModel &model, std::int64_t step, const QString &group,
                               const QString &choice)
{
    if (!choice.startsWith(QLatin1String("op:")))
        return matrixLinks(model, step, group, choice.mid(5));
    return opMatrixLinks(model, step, group, choice.mid(3));
}

} // namespace

ClusterView::ClusterView(QWidget *parent)
    : QWidget(parent), m_title(new QLabel), m_rows(new QStandardItemModel(this)), m_table(new QTableView),
      m_open(new QPushButton), m_openGroup(new QPushButton), m_openExtremes(new QPushButton),
      m_back(new QPushButton), m_loadedLabel(new QLabel), m_matrixGroupLabel(new QLabel),
      m_matrixOpLabel(new QLabel), m_matrixGroup(new QComboBox), m_matrixOp(new QComboBox),
      m_chart(new QChartView), m_tableBox(new QWidget), m_top(new QSplitter(Qt::Horizontal)),
      m_split(new QSplitter(Qt::Vertical)), m_bottom(new QSplitter(Qt::Horizontal)), m_tabs(new QTabWidget),
      m_stepHeat(new ClusterHeatMap), m_matrixHeat(new ClusterHeatMap), m_matrixTitle(new QLabel),
      m_findings(new QListWidget), m_communication(new CommunicationTable), m_strategy(new StrategyView),
      m_pipeline(new PipelineView), m_moeLoad(new MoeLoadView)
{
    auto *layout = new QVBoxLayout(this);
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_title);

    m_rows->setSortRole(Qt::UserRole);
    m_table->setHorizontalHeader(new LineBreakingHeader(Qt::Horizontal, m_table));
    m_table->horizontalHeader()->setSectionsClickable(true);
    m_table->horizontalHeader()->setHighlightSections(true);
    m_table->setModel(m_rows);
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8); // compact rows
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    connect(m_table, &QTableView::activated, this,
            [this](const QModelIndex &index) { openRank(rankAtRow(index.row())); });
    connect(m_open, &QPushButton::clicked, this, [this] {
        if (const QList<int> ranks = selectedRanks(); !ranks.isEmpty())
            Q_EMIT ranksOpenRequested(ranks, QString());
    });
    connect(m_openGroup, &QPushButton::clicked, this, [this] {
        if (const QList<int> ranks = selectedRanks(); !ranks.isEmpty())
            Q_EMIT ranksOpenRequested(groupOf(ranks.first()), QString());
    });
    connect(m_openExtremes, &QPushButton::clicked, this, [this] {
        if (const QList<int> ranks = selectedRanks(); !ranks.isEmpty())
            Q_EMIT ranksOpenRequested(slowestAndFastestOf(ranks.first()), QString());
    });
    connect(m_back, &QPushButton::clicked, this, &ClusterView::timelineRequested);
    m_commBoundButton = new QPushButton;
    connect(m_commBoundButton, &QPushButton::clicked, this, [this] {
        m_commBoundButton->setEnabled(false); // until the verdicts arrive
        Q_EMIT commBoundRequested();
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &ClusterView::updateButtons);

    auto *tableLayout = new QVBoxLayout(m_tableBox);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(m_table, 1);
    // The open buttons wrap onto a second row in a narrow window rather than being cut.
    auto *buttons = new QGridLayout;
    buttons->addWidget(m_open, 0, 0);
    buttons->addWidget(m_openGroup, 0, 1);
    buttons->addWidget(m_openExtremes, 1, 0);
    buttons->addWidget(m_back, 1, 1);
    buttons->addWidget(m_commBoundButton, 2, 0, 1, 2);
    buttons->setColumnStretch(2, 1);
    tableLayout->addLayout(buttons);
    m_loadedLabel->setWordWrap(true);
    tableLayout->addWidget(m_loadedLabel);

    m_chart->setRenderHint(QPainter::Antialiasing);
    m_chart->setMinimumSize(280, 240); // the width grows to the legend's in fillChart
    m_top->addWidget(m_tableBox);
    m_top->addWidget(m_chart);
    m_top->setCollapsible(0, false);
    m_top->setCollapsible(1, false);
    m_top->setStretchFactor(0, 3);
    m_top->setStretchFactor(1, 2);

    auto scrolled = [](QWidget *inner) {
        auto *area = new QScrollArea;
        area->setWidget(inner);
        area->setWidgetResizable(false);
        return area;
    };
    auto *matrixBox = new QWidget;
    auto *matrixLayout = new QVBoxLayout(matrixBox);
    m_matrixTitle->setWordWrap(true);
    m_matrixTitle->setObjectName(QStringLiteral("MatrixTitle"));
    auto *choosers = new QHBoxLayout;
    choosers->addWidget(m_matrixGroupLabel);
    choosers->addWidget(m_matrixGroup);
    choosers->addSpacing(12);
    choosers->addWidget(m_matrixOpLabel);
    choosers->addWidget(m_matrixOp);
    choosers->addStretch(1);
    m_matrixGroup->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_matrixOp->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_matrixGroupLabel->setBuddy(m_matrixGroup);
    m_matrixOpLabel->setBuddy(m_matrixOp);
    matrixLayout->addLayout(choosers);
    matrixLayout->addWidget(m_matrixTitle);
    matrixLayout->addWidget(scrolled(m_matrixHeat), 1);
    connect(m_matrixGroup, &QComboBox::currentIndexChanged, this, [this] {
        if (m_model)
            fillMatrix();
    });
    connect(m_matrixOp, &QComboBox::currentIndexChanged, this, [this] {
        if (m_model)
            fillMatrix();
    });
    connect(m_matrixHeat, &ClusterHeatMap::cellClicked, this, [this](int row, int column) {
        const auto size = static_cast<int>(m_matrixRanks.size());
        if (row < 0 || column < 0 || row >= size || column >= size)
            return;
        QList<int> ranks{m_matrixRanks[static_cast<std::size_t>(row)]};
        if (column != row)
            ranks << m_matrixRanks[static_cast<std::size_t>(column)];
        Q_EMIT ranksOpenRequested(ranks, matrixCellOp(row, column));
    });
    // Findings are paragraphs: wrapped to the tab's width (relaid out on resize), never cut.
    m_findings->setWordWrap(true);
    m_findings->setResizeMode(QListView::Adjust);
    m_findings->setTextElideMode(Qt::ElideNone);
    m_findings->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    connect(m_findings, &QListWidget::itemActivated, this, &ClusterView::openFinding);
    m_tabs->addTab(m_findings, QString());
    m_tabs->addTab(scrolled(m_stepHeat), QString());
    m_tabs->addTab(matrixBox, QString());
    m_tabs->addTab(m_communication, QString());
    m_tabs->addTab(m_strategy, QString());
    m_tabs->addTab(m_pipeline, QString());
    m_moeLoad->setObjectName(QStringLiteral("moe"));
    m_tabs->addTab(m_moeLoad, QString());
    connect(m_moeLoad, &MoeLoadView::ranksOpenRequested, this, &ClusterView::ranksOpenRequested);
    connect(m_strategy, &StrategyView::rankOpenRequested, this, &ClusterView::openRank);
    connect(m_communication, &CommunicationTable::opOpenRequested, this,
            [this](int rank, const QString &op) { Q_EMIT ranksOpenRequested({rank}, op); });
    connect(m_stepHeat, &ClusterHeatMap::cellClicked, this, [this](int row, int) {
        if (m_model && row >= 0 && row < static_cast<int>(m_model->ranks.size()))
            openRank(m_model->ranks[static_cast<std::size_t>(row)].rank);
    });

    m_bottom->addWidget(m_tabs);
    m_bottom->setChildrenCollapsible(false);
    m_split->addWidget(m_top);
    m_split->addWidget(m_bottom);
    m_split->setCollapsible(0, false);
    m_split->setCollapsible(1, false);
    // A window resize gives the extra height to the tabs (fitSplits sets the start).
    m_split->setStretchFactor(0, 0);
    m_split->setStretchFactor(1, 1);
    layout->addWidget(m_split, 1);
    retranslateUi();
    rebuild();
}

void ClusterView::retranslateUi()
{
    m_open->setText(tr("Open Selected Ranks"));
    m_open->setToolTip(tr("Load the selected ranks into one timeline (in the background, only those ranks)"));
    m_openGroup->setText(tr("Open This Group"));
    m_openExtremes->setText(tr("Open Slowest and Fastest"));
    m_back->setText(tr("Back to Timeline"));
    m_back->setToolTip(tr("Show the timeline that is loaded, without reloading it"));
    m_commBoundButton->setText(tr("Host or Device Bound?"));
    m_commBoundButton->setToolTip(
        tr("Load the timelines of the ranks of the longest communication ops whose fast and slow rank differ "
           "by more than 5 %, and say whether the slow rank's host launched the op late or its device was "
           "busy (shown in Findings)"));
    m_tabs->setTabText(0, tr("Findings"));
    m_tabs->setTabText(1, tr("Step Time per Rank and Step"));
    m_tabs->setTabText(2, tr("Communication Matrix"));
    m_tabs->setTabText(3, tr("Communication Ops"));
    m_tabs->setTabText(m_tabs->indexOf(m_strategy), tr("Strategy"));
    m_tabs->setTabText(m_tabs->indexOf(m_pipeline), tr("Pipeline"));
    m_tabs->setTabText(m_tabs->indexOf(m_moeLoad), tr("MoE Load"));
    m_matrixGroupLabel->setText(tr("&Group:"));
    m_matrixOpLabel->setText(tr("&Op:"));
    m_findings->setToolTip(tr("Double-click a finding to open the ranks it names on one timeline"));
    setLoadedTimeline(m_loadedTimeline);
    updateButtons();
}

void ClusterView::setLoadedTimeline(const QString &description)
{
    m_loadedTimeline = description;
    m_back->setVisible(!description.isEmpty());
    m_loadedLabel->setVisible(!description.isEmpty());
    m_loadedLabel->setText(tr("Loaded on the timeline: %1").arg(description));
}

void ClusterView::updateButtons()
{
    const QList<int> ranks = m_model ? selectedRanks() : QList<int>{};
    m_open->setEnabled(!ranks.isEmpty());
    m_openGroup->setEnabled(!ranks.isEmpty());
    m_openExtremes->setEnabled(!ranks.isEmpty());
    if (ranks.isEmpty()) {
        m_openGroup->setToolTip(
            tr("Select a rank: opens every rank of its pipeline stage or data-parallel group"));
        m_openExtremes->setToolTip(
            tr("Select a rank: opens the slowest and the fastest rank of its group (mean step time)"));
        return;
    }
    auto ranksText = [](const QList<int> &list) {
        QStringList parts;
        for (int r : list)
            parts << QString::number(r);
        return parts.join(QStringLiteral(", "));
    };
    m_openGroup->setToolTip(tr("Opens ranks %1 (the group of rank %2)")
                                .arg(ranksText(groupOf(ranks.first())))
                                .arg(ranks.first()));
    m_openExtremes->setToolTip(tr("Opens ranks %1 (slowest, fastest of the group of rank %2)")
                                   .arg(ranksText(slowestAndFastestOf(ranks.first())))
                                   .arg(ranks.first()));
}

QList<int> ClusterView::groupOf(int rank) const
{
    if (!m_model)
        return {};
    for (const ComparisonGroup &g : comparisonGroups(*m_model))
        if (std::find(g.ranks.begin(), g.ranks.end(), rank) != g.ranks.end())
            return QList<int>(g.ranks.begin(), g.ranks.end());
    return {rank};
}

QList<int> ClusterView::slowestAndFastestOf(int rank) const
{
    const QList<int> group = groupOf(rank);
    int slowest = -1, fastest = -1;
    TimeNs slowTime = 0, fastTime = 0;
    for (int r : group) {
        const Rank *info = m_model->rank(r);
        if (!info || info->steps.empty())
            continue;
        const TimeNs t = rankTotal(meanStep(*info));
        if (slowest < 0 || t > slowTime) {
            slowest = r;
            slowTime = t;
        }
        if (fastest < 0 || t < fastTime) {
            fastest = r;
            fastTime = t;
        }
    }
    if (slowest < 0)
        return {};
    return slowest == fastest ? QList<int>{slowest} : QList<int>{slowest, fastest};
}

void ClusterView::openFinding(QListWidgetItem *item)
{
    const QList<int> ranks = item->data(kFindingRanksRole).value<QList<int>>();
    if (!ranks.isEmpty())
        Q_EMIT ranksOpenRequested(ranks, item->data(kFindingOpRole).toString());
}

void ClusterView::setModel(std::shared_ptr<const ClusterModel> model)
{
    m_model = std::move(model);
    m_commBound.reset();
    m_commBoundButton->setEnabled(m_model != nullptr);
    rebuild();
    // A job with two parallel dimensions or more opens on its strategy grid (the tab stays last, so the
    // other tabs keep their places).
    if (m_strategy->strategy().dimensions.size() >= 2)
        m_tabs->setCurrentWidget(m_strategy);
}

QList<int> ClusterView::selectedRanks() const
{
    QList<int> rows;
    for (const QModelIndex &index : m_table->selectionModel()->selectedRows())
        rows << index.row();
    std::sort(rows.begin(), rows.end());
    QList<int> ranks;
    for (int row : rows)
        ranks << rankAtRow(row);
    return ranks;
}

int ClusterView::rankAtRow(int row) const
{
    const QStandardItem *item = m_rows->item(row, 0);
    return item ? item->data(Qt::UserRole).toInt() : -1;
}

void ClusterView::openRank(int rank)
{
    if (rank >= 0)
        Q_EMIT rankOpenRequested(rank);
}

int ClusterView::rankTableWidth() const
{
    const QHeaderView *header = m_table->horizontalHeader();
    return header->length() + 2 * m_table->frameWidth() + m_table->verticalScrollBar()->sizeHint().width();
}

int ClusterView::rankTableHeight() const
{
    int rows = 0;
    for (int r = 0; r < m_rows->rowCount(); ++r)
        rows += m_table->rowHeight(r);
    return m_table->horizontalHeader()->sizeHint().height() + rows + 2 * m_table->frameWidth() +
           m_table->horizontalScrollBar()->sizeHint().height();
}

void ClusterView::fitSplits()
{
    if (!isVisible())
        return;
    // Across: the chart keeps at least its legend's width; the table gets what its columns need, the chart
    // the rest.
    const int across = m_split->width() - m_top->handleWidth();
    const bool wide = across >= kWidePage;
    QSplitter *chartSplit = wide ? m_bottom : m_top;
    if (m_chart->parentWidget() != chartSplit) {
        chartSplit->addWidget(m_chart);
        chartSplit->setCollapsible(chartSplit->indexOf(m_chart), false);
    }
    const int chart = wide ? std::max(m_chart->minimumWidth(), across * 3 / 10)
                           : std::max(m_chart->minimumWidth(), across - rankTableWidth());
    (wide ? m_bottom : m_top)->setSizes({std::max(0, across - chart), chart});
    // Down: the top as high as the table's rows and buttons (narrow: at least the chart's minimum), at most
    // half the page; the tabs get the rest, so a low window still lists rows of the Communication Ops tab.
    const int down = m_split->height() - m_split->handleWidth();
    const int buttons = m_tableBox->sizeHint().height() - m_table->sizeHint().height();
    const int top =
        std::min(down / 2, std::max(wide ? 0 : m_chart->minimumHeight(), rankTableHeight() + buttons));
    m_split->setSizes({top, down - top});
}

void ClusterView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitSplits();
}

void ClusterView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    fitSplits();
}

void ClusterView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange)
        rebuild();
    QWidget::changeEvent(event);
}

void ClusterView::showPipelineTab()
{
    m_tabs->setCurrentWidget(m_pipeline);
}

QStringList ClusterView::tabKeys()
{
    return {QStringLiteral("findings"), QStringLiteral("steps"),
            QStringLiteral("matrix"),   QStringLiteral("communication"),
            QStringLiteral("strategy"), QStringLiteral("pipeline"),
            QStringLiteral("moe")};
}

bool ClusterView::showTab(const QString &key)
{
    const qsizetype index = tabKeys().indexOf(key);
    if (index < 0 || index >= m_tabs->count())
        return false;
    m_tabs->setCurrentIndex(static_cast<int>(index));
    return true;
}

void ClusterView::rebuild()
{
    if (!m_model) {
        m_title->setText(tr("No cluster open."));
        m_rows->clear();
        m_communication->setModel(nullptr);
        m_strategy->setModel(nullptr);
        m_pipeline->setCluster(nullptr);
        m_moeLoad->setModel(nullptr);
        return;
    }
    int summaryOnly = 0;
    for (const Rank &r : m_model->ranks)
        summaryOnly += r.hasTimeline ? 0 : 1;
    m_title->setText(
        tr("Cluster %1: %n rank(s), %2 with summary files only. Times are the mean per step in ms; "
           "double-click a rank to open its timeline, or select several and open them on one timeline.",
           nullptr, static_cast<int>(m_model->ranks.size()))
            .arg(m_model->root)
            .arg(summaryOnly));
    fillTable();
    fillChart();
    fillStepHeatMap();
    m_strategy->setModel(m_model);
    m_pipeline->setCluster(m_model.get());
    m_moeLoad->setModel(m_model);
    fillFindings();
    fillMatrixChoosers();
    fillMatrix();
    m_communication->setModel(m_model);
    updateButtons();
    fitSplits();
}

void ClusterView::fillTable()
{
    m_rows->clear();
    // Each time column names its unit ("Computing (ms)"): the cells are its numbers without a symbol.
    static const DisplayUnit kMsColumn{Quantity::Duration, QStringLiteral("ms"), 1e6, 3};
    const auto inMs = [](const QString &title) { return titleWithUnit(title, kMsColumn); };
    m_rows->setHorizontalHeaderLabels({tr("Rank"), tr("Device"), tr("Stage"), tr("Steps"),
                                       inMs(tr("Computing")), inMs(tr("Communication (not overlapped)")),
                                       inMs(tr("Overlapped")), inMs(tr("Free")), inMs(tr("Bubble")),
                                       inMs(tr("Preparing")), inMs(tr("Stage Time")), tr("Source"),
                                       tr("Timeline"), tr("Peak reserved, any component (MB)")});
    for (const Rank &r : m_model->ranks) {
        const RankStep m = meanStep(r);
        const bool has = !r.steps.empty();
        QList<QStandardItem *> row;
        row << textItem(QString::number(r.rank), r.rank)
            << textItem(r.device >= 0 ? QString::number(r.device) : tr("unknown"), r.device)
            << textItem(r.stage >= 0 ? QString::number(r.stage) : QStringLiteral("–"), r.stage)
            << textItem(QString::number(r.steps.size()), static_cast<int>(r.steps.size()))
            << msItem(m.computing, has) << msItem(m.communicationNotOverlapped, has)
            << msItem(m.overlapped, has) << msItem(m.free, has) << msItem(m.bubble, has)
            << msItem(m.preparing, has && m.hasPreparing) << msItem(m.stage, has)
            << textItem(has ? breakdownSourceName(m.source) : tr("none"),
                        has ? breakdownSourceName(m.source) : QString())
            << textItem(r.hasTimeline ? tr("yes") : tr("summary only"), r.hasTimeline);
        // The rank's peak device memory (ClusterModel.h RankMemoryPeak), MB = 2^20 bytes.
        static const DisplayUnit kMb{Quantity::Bytes, QString(), 1024.0 * 1024.0, 3};
        const double peakBytes = r.memoryPeak ? static_cast<double>(r.memoryPeak->bytes) : 0;
        QStandardItem *memory =
            numberItem(formatBytes(peakBytes, kMb), peakBytes / (1 << 20), r.memoryPeak.has_value());
        if (r.memoryPeak)
            memory->setToolTip(
                tr("%1, first reached at %2 µs (%3)")
                    .arg(r.memoryPeak->component, nanosAsMicros(r.memoryPeak->time), r.memoryPeak->file));
        row << memory;
        row.front()->setToolTip(r.folder);
        m_rows->appendRow(row);
    }
    m_table->sortByColumn(0, Qt::AscendingOrder);
}

void ClusterView::fillChart()
{
    auto *chart = new QChart;
    chart->setTheme(isDark(QApplication::palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setBackgroundBrush(QApplication::palette().color(QPalette::Base));
    // A short title (the unit is the value axis's title), so that it is not elided in a narrow chart.
    chart->setTitle(tr("Mean step breakdown per rank"));
    // Axis labels as every number of the window: the locale's thousands separators ("1,000").
    QLocale grouped;
    grouped.setNumberOptions(grouped.numberOptions() & ~QLocale::OmitGroupSeparator);
    chart->setLocale(grouped);
    chart->setLocalizeNumbers(true);
    auto *series = new QStackedBarSeries;
    auto *computing = new QBarSet(tr("Computing"));
    auto *communication = new QBarSet(tr("Communication (not overlapped)"));
    auto *free = new QBarSet(tr("Free"));
    // The parts' colours of the Overview page, the same in both themes (the chart theme would pick its own
    // per theme): a part reads in one colour on every page.
    computing->setColor(overviewPartColor(OverviewPart::Computing));
    communication->setColor(overviewPartColor(OverviewPart::CommunicationNotOverlapped));
    free->setColor(overviewPartColor(OverviewPart::Free));
    for (QBarSet *set : {computing, communication, free})
        set->setBorderColor(set->color());
    QStringList categories;
    double maximum = 0;
    const ChartBars bars = chartBars(*m_model);
    for (const ChartBar &bar : bars.bars) {
        *computing << ms(bar.mean.computing);
        *communication << ms(bar.mean.communicationNotOverlapped);
        *free << ms(bar.mean.free);
        maximum =
            std::max(maximum, ms(bar.mean.computing + bar.mean.communicationNotOverlapped + bar.mean.free));
        // The axis is titled "Rank": no "Ra…" in a narrow chart.
        categories << QString::number(bar.rank);
    }
    if (bars.slowestOnly)
        chart->setTitle(tr("Mean step: the %1 slowest of %2 ranks")
                            .arg(bars.bars.size() - 2)
                            .arg(formatNumber(static_cast<double>(m_model->ranks.size()))));
    series->append(computing);
    series->append(communication);
    series->append(free);
    chart->addSeries(series);
    auto *x = new QBarCategoryAxis;
    x->append(categories);
    // Eight bars leave a four-digit rank number its width in a 900 x 700 window (18 were elided to "…").
    x->setTitleText(bars.slowestOnly ? tr("Rank (slowest %1, median, fastest)").arg(kChartSlowest)
                                     : tr("Rank"));
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    auto *y = new QValueAxis;
    applyNiceScale(y, 0, maximum, 5); // round ticks: 0 / 200 / 400 / ...
    y->setTitleText(tr("Time (ms)"));
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    chart->legend()->setAlignment(Qt::AlignBottom);
    // The chart is never narrower than its legend (fitSplits takes the room from the table, which scrolls).
    m_chart->setMinimumWidth(
        std::max(280, legendWidth({computing->label(), communication->label(), free->label()},
                                  chart->legend()->font())));
    std::vector<int> barRanks;
    for (const ChartBar &bar : bars.bars)
        barRanks.push_back(bar.rank);
    connect(series, &QStackedBarSeries::clicked, this, [this, barRanks](int index, QBarSet *) {
        if (m_model && index >= 0 && index < static_cast<int>(barRanks.size()))
            openRank(barRanks[static_cast<std::size_t>(index)]);
    });
    QChart *old = m_chart->chart();
    m_chart->setChart(chart);
    delete old;
}

void ClusterView::fillStepHeatMap()
{
    const std::vector<std::int64_t> steps = m_model->stepNumbers();
    QStringList rows, columns;
    for (std::int64_t s : steps)
        columns << stepText(s);
    std::vector<std::vector<std::optional<double>>> values;
    for (const Rank &r : m_model->ranks) {
        rows << QString::number(r.rank); // the rows are titled "Rank"
        std::vector<std::optional<double>> row(steps.size());
        for (const RankStep &s : r.steps) {
            // stepNumbers() is sorted: a binary search (a scan per step was quadratic in the steps).
            const auto at = std::lower_bound(steps.begin(), steps.end(), s.step) - steps.begin();
            row[static_cast<std::size_t>(at)] = ms(rankTotal(s));
        }
        values.push_back(std::move(row));
    }
    m_stepHeat->setAxisTitles(tr("Rank"), tr("Step"));
    m_stepHeat->setData(rows, columns, std::move(values), tr("ms"));
    m_stepHeat->resize(m_stepHeat->sizeHint());
}

void ClusterView::fillFindings()
{
    m_findings->clear();
    // The judgement and its words are core's (clusterFindings, FindingText), the same as --cluster,
    // --advise and the Insights panel print; the page only lays them out: per finding its heading (bold),
    // one item with the time at stake, explanation and fix, and one per occurrence, each opening the ranks
    // it names.
    const TraceModel noTimeline;
    InsightContext context(noTimeline, m_model.get());
    context.commBound = m_commBound.get();
    std::vector<std::pair<int, QString>> marks; // the Strategy tab's markers: each rank a finding names
    for (const Finding &f : clusterFindings(context)) {
        for (const FindingOccurrence &o : f.occurrences)
            for (int rank : o.ranks)
                marks.emplace_back(rank, findingHeading(f));
        const FindingOccurrence *first = f.occurrences.empty() ? nullptr : &f.occurrences.front();
        const std::vector<int> ranks = first ? first->ranks : std::vector<int>{};
        const QString op = first ? first->op : QString();
        QListWidgetItem *heading = findingItem(findingHeading(f), ranks, op);
        QFont bold = heading->font();
        bold.setBold(true);
        heading->setFont(bold);
        m_findings->addItem(heading);
        m_findings->addItem(findingItem(
            QStringList{timeAtStakeText(f), f.explanation, fixText(f)}.join(QLatin1Char('\n')), ranks, op));
        for (const FindingOccurrence &o : f.occurrences)
            m_findings->addItem(
                findingItem(QStringLiteral("    ") + occurrenceText(context, o), o.ranks, o.op));
    }
    m_strategy->setFindings(std::move(marks));
    for (const QString &w : m_model->warnings)
        m_findings->addItem(tr("Warning: %1").arg(w));
    if (m_findings->count() == 0)
        m_findings->addItem(tr("No slow rank, load imbalance, slow link or long wait found."));
}

void ClusterView::setCommBound(std::shared_ptr<const cluster::CommBoundAnalysis> analysis)
{
    m_commBound = std::move(analysis);
    m_commBoundButton->setEnabled(m_model != nullptr);
    if (!m_model)
        return;
    fillFindings();
    m_tabs->setCurrentWidget(m_findings);
}

void ClusterView::fillMatrixChoosers()
{
    // The step shown: the first with links (as before the choosers existed).
    m_matrixStep = kNoStep;
    for (std::int64_t step : m_model->stepNumbers())
        if (!matrixLinks(*m_model, step).empty()) {
            m_matrixStep = step;
            break;
        }
    std::set<QString> groups, types, ops;
    for (const Rank &r : m_model->ranks)
        for (const MatrixLink &l : r.links) {
            if (l.step != m_matrixStep)
                continue;
            groups.insert(l.group);
            if (l.isTotal())
                types.insert(opTypeOf(l));
            else if (!l.opName.isEmpty())
                ops.insert(l.opName);
        }
    const QString group = m_matrixGroup->currentData().toString();
    const QString op = m_matrixOp->currentData().toString();
    const QSignalBlocker blockGroups(m_matrixGroup), blockOps(m_matrixOp);
    m_matrixGroup->clear();
    m_matrixGroup->addItem(tr("All groups"), QString());
    for (const QString &hash : groups) {
        const ParallelGroup *g = m_model->groupByHash(hash);
        m_matrixGroup->addItem(g && !g->name.isEmpty() ? tr("%1 (group %2)").arg(g->name, hash) : hash, hash);
    }
    m_matrixOp->clear();
    m_matrixOp->addItem(tr("All ops (-total)"), QString());
    for (const QString &type : types)
        m_matrixOp->addItem(tr("%1 (-total)").arg(type), QStringLiteral("type:") + type);
    for (const QString &name : ops)
        m_matrixOp->addItem(name, QStringLiteral("op:") + name);
    m_matrixGroup->setCurrentIndex(std::max(0, m_matrixGroup->findData(group)));
    m_matrixOp->setCurrentIndex(std::max(0, m_matrixOp->findData(op)));
}

QString ClusterView::matrixCellOp(int row, int column) const
{
    if (!m_model || row < 0 || column < 0 || row >= static_cast<int>(m_matrixRanks.size()) ||
        column >= static_cast<int>(m_matrixRanks.size()))
        return {};
    const QString choice = m_matrixOp->currentData().toString();
    if (choice.startsWith(QLatin1String("op:")))
        return choice.mid(3);
    // A -total cell: the op that moved most on this link (its "top1" entry) stands for it.
    const QString group = m_matrixGroup->currentData().toString();
    const int src = m_matrixRanks[static_cast<std::size_t>(row)];
    const int dst = m_matrixRanks[static_cast<std::size_t>(column)];
    QString best;
    double bestSize = -1;
    for (const Rank &r : m_model->ranks)
        for (const MatrixLink &l : r.links)
            if (l.step == m_matrixStep && !l.isTotal() && !l.opName.isEmpty() && l.src == src &&
                l.dst == dst && (group.isEmpty() || l.group == group) &&
                (choice.isEmpty() || opTypeOf(l) == choice.mid(5)) && l.sizeMb > bestSize) {
                best = l.opName;
                bestSize = l.sizeMb;
            }
    return best;
}

void ClusterView::fillMatrix()
{
    const QString group = m_matrixGroup->currentData().toString();
    const QString choice = m_matrixOp->currentData().toString();
    const std::vector<LinkTotal> links = opLinks(*m_model, m_matrixStep, group, choice);
    std::set<int> ranks;
    for (const LinkTotal &l : links) {
        ranks.insert(l.src);
        ranks.insert(l.dst);
    }
    m_matrixRanks.assign(ranks.begin(), ranks.end());
    QStringList labels;
    for (int r : m_matrixRanks)
        labels << QString::number(r);
    std::vector<std::vector<std::optional<double>>> values(
        m_matrixRanks.size(), std::vector<std::optional<double>>(m_matrixRanks.size()));
    auto indexOf = [&](int rank) { // m_matrixRanks is sorted: a scan per link was quadratic in the ranks
        return static_cast<std::size_t>(std::lower_bound(m_matrixRanks.begin(), m_matrixRanks.end(), rank) -
                                        m_matrixRanks.begin());
    };
    // Bandwidth of a link summed over its transports: Σ size / Σ time.
    std::map<std::pair<int, int>, std::pair<double, TimeNs>> sums;
    for (const LinkTotal &l : links)
        if (l.src != l.dst) { // the on-chip LOCAL copies would set the scale
            auto &[size, time] = sums[{l.src, l.dst}];
            size += l.sizeMb;
            time += l.time;
        }
    for (const auto &[link, sum] : sums)
        // A bandwidth that overflowed (1e308 MB in a nanosecond) stays an empty cell, never "inf".
        if (const double gbps = sum.first / (static_cast<double>(sum.second) / 1e6);
            sum.second > 0 && std::isfinite(gbps))
            values[indexOf(link.first)][indexOf(link.second)] = gbps;
    const bool anyMatrix = m_matrixGroup->count() > 1;
    m_matrixTitle->setText(
        !anyMatrix      ? tr("No communication matrix (communication_matrix.json or analysis.db).")
        : links.empty() ? tr("Step %1: no link of this group and op.").arg(stepText(m_matrixStep))
                        : tr("Step %1: each cell is the bandwidth in GB/s from the source rank (row) to the "
                             "destination rank (column); its colour runs from dark purple (the slowest link) "
                             "to yellow (the fastest), as the scale below shows. Click a cell to open both "
                             "ranks at the op.")
                              .arg(stepText(m_matrixStep)));
    m_matrixHeat->setAxisTitles(tr("Source rank"), tr("Destination rank"));
    m_matrixHeat->setData(labels, labels, std::move(values), tr("GB/s"));
    m_matrixHeat->resize(m_matrixHeat->sizeHint());
}

} // namespace at
