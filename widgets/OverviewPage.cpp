#include "OverviewPage.h"

#include "InsightsPanel.h"
#include "NumberFormat.h"

#include <QAbstractItemDelegate>
#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QStyleOptionViewItem>
#include <QTimer>
#include <QToolTip>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace at {

namespace {

constexpr int kRowHeight = 24;
constexpr int kBarHeight = 16;
constexpr int kChartMargin = 6;
constexpr int kGap = 8;
constexpr std::size_t kFindingsShown = 8;
constexpr std::size_t kStepRowsShown = 40; // more steps: the first ones and the mean (the note says so)

constexpr std::array kAdditiveParts{OverviewPart::Computing, OverviewPart::CommunicationNotOverlapped,
                                    OverviewPart::Free, OverviewPart::Preparing};

std::size_t indexOf(OverviewPart part)
{
    return static_cast<std::size_t>(part);
}

QString partName(OverviewPart part)
{
    switch (part) {
    case OverviewPart::Computing:
        return OverviewPage::tr("Computing");
    case OverviewPart::CommunicationNotOverlapped:
        return OverviewPage::tr("Communication (not overlapped)");
    case OverviewPart::Free:
        return OverviewPage::tr("Free");
    case OverviewPart::Preparing:
        return OverviewPage::tr("Preparing");
    case OverviewPart::Bubble:
        return OverviewPage::tr("Bubble (receive)");
    }
    return {};
}

QString stepPartName(StepPart part)
{
    switch (part) {
    case StepPart::Computing:
        return partName(OverviewPart::Computing);
    case StepPart::CommunicationNotOverlapped:
        return partName(OverviewPart::CommunicationNotOverlapped);
    case StepPart::Free:
        return partName(OverviewPart::Free);
    case StepPart::Memory:
        return OverviewPage::tr("Memory");
    case StepPart::Unknown:
        break;
    }
    return OverviewPage::tr("Not attributed");
}

QString percentText(double share)
{
    // One decimal always ("66.0%", "5.7%"): the shares of one bar read alike.
    return QLocale().toString(share * 100.0, 'f', 1) + QLatin1Char('%');
}

QString bytesText(std::int64_t bytes)
{
    constexpr double kMiB = 1024.0 * 1024.0, kGiB = kMiB * 1024.0;
    const double b = static_cast<double>(bytes);
    if (b >= kGiB)
        return formatNumber(std::round(b / kGiB * 100.0) / 100.0, QStringLiteral("GB"));
    if (b >= kMiB)
        return formatNumber(std::round(b / kMiB * 10.0) / 10.0, QStringLiteral("MB"));
    return formatNumber(b, QStringLiteral("B"));
}

QString durationText(TimeNs ns)
{
    return formatDuration(ns);
}

// A tree that shows all its rows: the page scrolls, the tree does not. Before the rows are laid out the
// delegate's row height is the estimate; once they are (the next turn of the event loop) the last row's
// rectangle gives the exact height.
int treeContentHeight(QTreeWidget *tree)
{
    QTreeWidgetItem *last = nullptr;
    int rows = 0;
    for (QTreeWidgetItemIterator it(tree); *it; ++it) {
        last = *it;
        ++rows;
    }
    const int header = tree->header()->isHidden() ? 0 : tree->header()->sizeHint().height();
    const int frame = 2 * tree->frameWidth() + 2;
    if (!last)
        return header + frame;
    if (const QRect r = tree->visualItemRect(last);
        r.isValid() && tree->visualItemRect(tree->topLevelItem(0)).top() >= 0)
        return header + r.bottom() + 1 - tree->visualItemRect(tree->topLevelItem(0)).top() + frame;
    QStyleOptionViewItem option;
    option.initFrom(tree);
    option.font = tree->font();
    const int rowHeight =
        std::max(tree->itemDelegate()->sizeHint(option, tree->model()->index(0, 0)).height(),
                 tree->fontMetrics().height() + 2);
    return header + rows * rowHeight + frame;
}

void fitTreeHeight(QTreeWidget *tree)
{
    tree->setFixedHeight(treeContentHeight(tree));
    QTimer::singleShot(0, tree, [tree] { tree->setFixedHeight(treeContentHeight(tree)); });
}

QTreeWidget *makeTree(int columns)
{
    auto *tree = new QTreeWidget;
    tree->setColumnCount(columns);
    tree->setRootIsDecorated(false);
    tree->setItemsExpandable(false);
    tree->setUniformRowHeights(true);
    tree->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    tree->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    tree->setTextElideMode(Qt::ElideMiddle);
    tree->setSelectionMode(QAbstractItemView::SingleSelection);
    tree->setMouseTracking(true);
    tree->header()->setStretchLastSection(false);
    tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int c = 1; c < columns; ++c)
        tree->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    return tree;
}

} // namespace

QColor overviewPartColor(OverviewPart part)
{
    switch (part) {
    case OverviewPart::Computing:
        return QColor(0x3b, 0x78, 0xc4); // blue
    case OverviewPart::CommunicationNotOverlapped:
        return QColor(0xd9, 0x57, 0x2b); // orange-red
    case OverviewPart::Free:
        return QColor(0x8c, 0x8c, 0x8c); // grey
    case OverviewPart::Preparing:
        return QColor(0x2a, 0x9d, 0x8f); // teal
    case OverviewPart::Bubble:
        return QColor(0x8e, 0x63, 0xc7); // purple
    }
    return Qt::gray;
}

// ---- StepBarsChart ----

StepBarsChart::StepBarsChart(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void StepBarsChart::setRows(std::vector<Row> rows)
{
    m_rows = std::move(rows);
    updateGeometry();
    update();
}

QSize StepBarsChart::sizeHint() const
{
    return {480, static_cast<int>(m_rows.size()) * kRowHeight + 2 * kChartMargin};
}

QSize StepBarsChart::minimumSizeHint() const
{
    return {320, sizeHint().height()};
}

int StepBarsChart::labelWidth() const
{
    int widest = 0;
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics boldMetrics(bold);
    for (const Row &r : m_rows)
        widest = std::max(widest, (r.emphasised ? boldMetrics : fontMetrics()).horizontalAdvance(r.label));
    // A tenth more than measured: a picture rendered off screen (grab, --screenshot) may draw the text a
    // little wider than the widget measures it.
    return std::min(widest + widest / 10 + kGap, width() * 2 / 5);
}

int StepBarsChart::totalWidth() const
{
    int widest = 0;
    for (const Row &r : m_rows) {
        TimeNs total = 0;
        for (const OverviewPart p : kAdditiveParts)
            total += r.parts[indexOf(p)];
        widest = std::max(widest, fontMetrics().horizontalAdvance(durationText(total)));
    }
    return widest + kGap;
}

TimeNs StepBarsChart::longestRow() const
{
    TimeNs longest = 1;
    for (const Row &r : m_rows) {
        TimeNs total = 0;
        for (const OverviewPart p : kAdditiveParts)
            total += r.parts[indexOf(p)];
        longest = std::max(longest, total);
    }
    return longest;
}

QRect StepBarsChart::barRect(int row) const
{
    if (row < 0 || row >= static_cast<int>(m_rows.size()))
        return {};
    const int left = kChartMargin + labelWidth();
    const int available = std::max(1, width() - left - totalWidth() - kChartMargin);
    TimeNs total = 0;
    for (const OverviewPart p : kAdditiveParts)
        total += m_rows[static_cast<std::size_t>(row)].parts[indexOf(p)];
    const int w = static_cast<int>(std::lround(double(available) * double(total) / double(longestRow())));
    const int top = kChartMargin + row * kRowHeight + (kRowHeight - kBarHeight) / 2;
    return {left, top, std::max(1, w), kBarHeight};
}

int StepBarsChart::rowAt(int y) const
{
    const int row = (y - kChartMargin) / kRowHeight;
    return y >= kChartMargin && row < static_cast<int>(m_rows.size()) ? row : -1;
}

std::optional<OverviewPart> StepBarsChart::partAt(int row, int x) const
{
    const QRect bar = barRect(row);
    if (bar.isEmpty() || x < bar.left() || x > bar.right())
        return std::nullopt;
    const Row &r = m_rows[static_cast<std::size_t>(row)];
    TimeNs total = 0;
    for (const OverviewPart p : kAdditiveParts)
        total += r.parts[indexOf(p)];
    double left = bar.left();
    for (const OverviewPart p : kAdditiveParts) {
        const double w = total > 0 ? double(bar.width()) * double(r.parts[indexOf(p)]) / double(total) : 0;
        if (w > 0 && x >= left && x < left + w + 1)
            return p;
        left += w;
    }
    return std::nullopt;
}

void StepBarsChart::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing, false);
    const int labelsRight = kChartMargin + labelWidth() - kGap;
    QFont bold = font();
    bold.setBold(true);
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const Row &r = m_rows[i];
        const QRect bar = barRect(static_cast<int>(i));
        const QRect rowRect(0, kChartMargin + static_cast<int>(i) * kRowHeight, width(), kRowHeight);
        painter.setFont(r.emphasised ? bold : font());
        painter.setPen(palette().color(QPalette::WindowText));
        const QRect labelRect(kChartMargin, rowRect.top(), labelsRight - kChartMargin, kRowHeight);
        // Elided (the tooltip has it whole) only when the label column is at its cap.
        const bool fits = painter.fontMetrics().horizontalAdvance(r.label) <= labelRect.width() + kGap;
        painter.drawText(
            labelRect, Qt::AlignRight | Qt::AlignVCenter | Qt::TextDontClip,
            fits ? r.label : painter.fontMetrics().elidedText(r.label, Qt::ElideMiddle, labelRect.width()));
        TimeNs total = 0;
        for (const OverviewPart p : kAdditiveParts)
            total += r.parts[indexOf(p)];
        double left = bar.left();
        for (const OverviewPart p : kAdditiveParts) {
            const double w =
                total > 0 ? double(bar.width()) * double(r.parts[indexOf(p)]) / double(total) : 0.0;
            if (w <= 0)
                continue;
            const QRectF segment(left, bar.top(), w, bar.height());
            painter.fillRect(segment, overviewPartColor(p));
            // The share inside the segment when it fits (white reads on every part colour).
            const QString share = percentText(double(r.parts[indexOf(p)]) / double(total));
            if (painter.fontMetrics().horizontalAdvance(share) + 6 < w) {
                painter.setPen(Qt::white);
                painter.drawText(segment, Qt::AlignCenter, share);
            }
            if (p == OverviewPart::CommunicationNotOverlapped && r.parts[indexOf(OverviewPart::Bubble)] > 0) {
                // The bubble is the receive part of the exposed communication: a band under its segment.
                const double b = std::min(
                    w, double(bar.width()) * double(r.parts[indexOf(OverviewPart::Bubble)]) / double(total));
                painter.fillRect(QRectF(left, bar.bottom() - 2, b, 3),
                                 overviewPartColor(OverviewPart::Bubble));
            }
            left += w;
        }
        painter.setPen(palette().color(QPalette::WindowText));
        painter.setFont(font());
        painter.drawText(QRect(bar.right() + kGap, rowRect.top(), width() - bar.right() - kGap, kRowHeight),
                         Qt::AlignLeft | Qt::AlignVCenter, durationText(total));
    }
}

void StepBarsChart::mousePressEvent(QMouseEvent *event)
{
    const int row = rowAt(static_cast<int>(event->position().y()));
    if (event->button() != Qt::LeftButton || row < 0)
        return QWidget::mousePressEvent(event);
    // A click beside the bar (on the label or the total) means the whole step: its largest part.
    const std::optional<OverviewPart> part = partAt(row, static_cast<int>(event->position().x()));
    Q_EMIT rowActivated(row, part.value_or(OverviewPart::Computing));
}

bool StepBarsChart::event(QEvent *event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    const auto *help = static_cast<QHelpEvent *>(event);
    const int row = rowAt(help->pos().y());
    if (row < 0) {
        QToolTip::hideText();
        return true;
    }
    const Row &r = m_rows[static_cast<std::size_t>(row)];
    TimeNs total = 0;
    for (const OverviewPart p : kAdditiveParts)
        total += r.parts[indexOf(p)];
    QStringList lines{QStringLiteral("<b>%1</b>: %2").arg(r.label.toHtmlEscaped(), durationText(total))};
    for (int p = 0; p < kOverviewPartCount; ++p) {
        const TimeNs t = r.parts[static_cast<std::size_t>(p)];
        if (t > 0)
            lines << QStringLiteral("%1: %2 (%3)")
                         .arg(partName(static_cast<OverviewPart>(p)), durationText(t),
                              percentText(total > 0 ? double(t) / double(total) : 0.0));
    }
    lines << tr("Click: the step on the timeline");
    QToolTip::showText(help->globalPos(), lines.join(QStringLiteral("<br>")), this);
    return true;
}

// ---- OverviewPage ----

OverviewPage::OverviewPage(QWidget *parent)
    : QWidget(parent), m_scroll(new QScrollArea), m_title(new QLabel), m_scope(new QLabel),
      m_timelineButton(new QPushButton), m_clusterButton(new QPushButton), m_rankLabel(new QLabel),
      m_rankChooser(new QComboBox), m_legend(new QLabel), m_ranks(new StepBarsChart),
      m_steps(new StepBarsChart), m_contents(makeTree(4)), m_findings(makeTree(4)), m_memory(new QPushButton),
      m_memoryNote(new QLabel), m_warnings(new QLabel), m_empty(new QLabel)
{
    setObjectName(QStringLiteral("OverviewPage"));
    // The page scrolls: its content never sets the window's (the page stack's) minimum size, so the docks
    // keep their room when the window returns to the timeline.
    setMinimumSize(200, 120);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(m_scroll);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    auto *body = new QWidget;
    auto *layout = new QVBoxLayout(body);
    layout->setContentsMargins(16, 12, 16, 16);
    layout->setSpacing(6);

    auto *header = new QHBoxLayout;
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.4);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_scope->setWordWrap(true);
    header->addWidget(m_title);
    header->addWidget(m_scope, 1);
    header->addWidget(m_rankLabel);
    header->addWidget(m_rankChooser);
    header->addWidget(m_clusterButton);
    header->addWidget(m_timelineButton);
    layout->addLayout(header);
    m_timelineButton->setObjectName(QStringLiteral("OverviewTimelineButton"));
    m_clusterButton->setObjectName(QStringLiteral("OverviewClusterButton"));
    m_rankChooser->setObjectName(QStringLiteral("OverviewRankChooser"));
    m_rankChooser->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(m_timelineButton, &QPushButton::clicked, this, &OverviewPage::timelineRequested);
    connect(m_clusterButton, &QPushButton::clicked, this, &OverviewPage::clusterRequested);
    connect(m_rankChooser, &QComboBox::activated, this, &OverviewPage::showRank);

    m_empty->setWordWrap(true);
    layout->addWidget(m_empty);

    layout->addWidget(sectionTitle(m_ranksTitle));
    m_ranks->setObjectName(QStringLiteral("OverviewRankChart"));
    layout->addWidget(m_ranks);
    layout->addWidget(sectionTitle(m_stepsTitle));
    m_legend->setWordWrap(true);
    m_legend->setTextFormat(Qt::RichText);
    layout->addWidget(m_legend);
    m_steps->setObjectName(QStringLiteral("OverviewStepChart"));
    layout->addWidget(m_steps);
    layout->addWidget(sectionTitle(m_findingsTitle));
    m_findings->setObjectName(QStringLiteral("OverviewFindings"));
    layout->addWidget(m_findings);
    layout->addWidget(sectionTitle(m_memoryTitle));
    auto *memoryRow = new QHBoxLayout;
    m_memory->setObjectName(QStringLiteral("OverviewMemoryPeak"));
    m_memory->setFlat(true);
    m_memory->setCursor(Qt::PointingHandCursor);
    m_memoryNote->setWordWrap(true);
    memoryRow->addWidget(m_memory);
    memoryRow->addWidget(m_memoryNote, 1);
    layout->addLayout(memoryRow);
    layout->addWidget(sectionTitle(m_contentsTitle));
    m_contents->setObjectName(QStringLiteral("OverviewContents"));
    layout->addWidget(m_contents);
    layout->addWidget(sectionTitle(m_warningsTitle));
    m_warnings->setObjectName(QStringLiteral("OverviewWarnings"));
    m_warnings->setWordWrap(true);
    m_warnings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_warnings);
    layout->addStretch(1);
    m_scroll->setWidget(body);

    connect(m_ranks, &StepBarsChart::rowActivated, this, [this](int row, OverviewPart) {
        if (m_overview && row >= 0 && static_cast<std::size_t>(row) < m_overview->ranks.size()) {
            showRank(row); // its steps, contents and findings below
        }
    });
    connect(m_steps, &StepBarsChart::rowActivated, this, [this](int row, OverviewPart) {
        if (!m_overview || m_rank >= static_cast<int>(m_overview->ranks.size()))
            return;
        const OverviewRank &rank = m_overview->ranks[static_cast<std::size_t>(m_rank)];
        if (row >= 0 && static_cast<std::size_t>(row) < std::min(rank.steps.size(), kStepRowsShown))
            Q_EMIT targetActivated(rank.steps[static_cast<std::size_t>(row)].target);
        else if (rank.mean) // the mean: every step of the rank
            Q_EMIT targetActivated(rank.mean->target);
    });
    for (QTreeWidget *tree : {m_contents, m_findings}) {
        connect(tree, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem *item) { activateItem(item); });
        connect(tree, &QTreeWidget::itemActivated, this,
                [this](QTreeWidgetItem *item) { activateItem(item); });
    }
    connect(m_memory, &QPushButton::clicked, this, [this] {
        if (!m_overview || m_rank >= static_cast<int>(m_overview->ranks.size()))
            return;
        const OverviewRank &rank = m_overview->ranks[static_cast<std::size_t>(m_rank)];
        if (rank.memoryPeak)
            Q_EMIT targetActivated(rank.memoryPeak->target);
    });
    retranslateUi();
    rebuild();
}

QLabel *OverviewPage::sectionTitle(QLabel *&label)
{
    label = new QLabel;
    QFont f = label->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.1);
    label->setFont(f);
    label->setWordWrap(true);
    label->setContentsMargins(0, 8, 0, 0);
    return label;
}

void OverviewPage::setOverview(std::shared_ptr<const Overview> overview)
{
    m_overview = std::move(overview);
    m_rank = 0;
    m_computing = false;
    rebuild();
}

void OverviewPage::setComputing()
{
    m_overview.reset();
    m_computing = true;
    rebuild();
}

void OverviewPage::setPagesAvailable(bool timeline, bool cluster)
{
    m_timelineButton->setVisible(timeline);
    m_clusterButton->setVisible(cluster);
}

void OverviewPage::showRank(int index)
{
    if (!m_overview || index < 0 || index >= static_cast<int>(m_overview->ranks.size()))
        return;
    m_rank = index;
    rebuild();
}

void OverviewPage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
        rebuild();
    }
    QWidget::changeEvent(event);
}

void OverviewPage::retranslateUi()
{
    m_title->setText(tr("Overview"));
    m_timelineButton->setText(tr("Timeline ▸"));
    m_timelineButton->setToolTip(tr("The timeline of this data (View ▸ Overview comes back here)"));
    m_clusterButton->setText(tr("Cluster ▸"));
    m_clusterButton->setToolTip(tr("The cluster page: every rank's steps, the matrix and the slow ranks"));
    m_rankLabel->setText(tr("Rank:"));
    m_ranksTitle->setText(tr("Mean step per rank (click a rank: its steps below)"));
    m_contentsTitle->setText(tr("What fills each part (mean step; click a row)"));
    m_findingsTitle->setText(tr("Top findings (click: where it shows)"));
    m_memoryTitle->setText(tr("Memory peak"));
    m_warningsTitle->setText(tr("Collection warnings"));
    m_contents->setHeaderLabels({tr("Part and what fills it"), tr("Time"), tr("Share"), tr("Count")});
    m_findings->setHeaderLabels({tr("Finding"), tr("Part"), tr("Share of step"), tr("Time")});
    QStringList legend;
    for (const OverviewPart p : {OverviewPart::Computing, OverviewPart::CommunicationNotOverlapped,
                                 OverviewPart::Free, OverviewPart::Preparing, OverviewPart::Bubble})
        legend << QStringLiteral("<span style=\"color:%1\">■</span>&nbsp;%2")
                      .arg(overviewPartColor(p).name(), partName(p).toHtmlEscaped());
    m_legend->setText(legend.join(QStringLiteral(" &nbsp; ")));
}

void OverviewPage::rebuild()
{
    m_itemTargets.clear();
    const bool has = m_overview && !m_overview->ranks.empty();
    for (QWidget *w : std::initializer_list<QWidget *>{m_stepsTitle, m_legend, m_steps, m_contentsTitle,
                                                       m_contents, m_findingsTitle, m_findings, m_memoryTitle,
                                                       m_memory, m_memoryNote, m_warningsTitle, m_warnings})
        w->setVisible(has);
    const bool severalRanks = has && m_overview->ranks.size() > 1;
    m_ranksTitle->setVisible(severalRanks);
    m_ranks->setVisible(severalRanks);
    m_rankLabel->setVisible(severalRanks);
    m_rankChooser->setVisible(severalRanks);
    m_empty->setVisible(!has);
    if (!has) {
        m_scope->clear();
        m_empty->setText(m_overview    ? tr("No rank of this data has steps or device time to break down.")
                         : m_computing ? tr("Computing the overview…")
                                       : tr("Open a trace, a profiling result or a cluster folder."));
        if (m_overview && !m_overview->missing.isEmpty())
            m_empty->setText(m_empty->text() + QLatin1Char(' ') + m_overview->missing.join(QLatin1Char(' ')));
        return;
    }
    m_rank = std::clamp(m_rank, 0, static_cast<int>(m_overview->ranks.size()) - 1);
    const OverviewRank &rank = m_overview->ranks[static_cast<std::size_t>(m_rank)];
    const int ranks = static_cast<int>(m_overview->ranks.size());
    switch (m_overview->scope) {
    case Overview::Scope::SingleRank:
        m_scope->setText(tr("%1 · %n step(s)", nullptr, static_cast<int>(rank.steps.size())).arg(rank.label));
        break;
    case Overview::Scope::SeveralRanks:
        m_scope->setText(tr("%n rank(s) on one timeline", nullptr, ranks));
        break;
    case Overview::Scope::Cluster:
        m_scope->setText(tr("Cluster of %n rank(s), from their summary files", nullptr, ranks));
        break;
    }
    {
        const QSignalBlocker blocker(m_rankChooser);
        m_rankChooser->clear();
        for (const OverviewRank &r : m_overview->ranks)
            m_rankChooser->addItem(r.label);
        m_rankChooser->setCurrentIndex(m_rank);
    }
    if (severalRanks)
        fillRankChart();
    fillStepChart(rank);
    fillContents(rank);
    fillFindings(rank);
    fillMemoryAndWarnings(rank);
}

void OverviewPage::fillRankChart()
{
    std::vector<StepBarsChart::Row> rows;
    for (const OverviewRank &r : m_overview->ranks) {
        StepBarsChart::Row row{r.label, {}, false};
        if (r.mean)
            for (int p = 0; p < kOverviewPartCount; ++p)
                row.parts[static_cast<std::size_t>(p)] = r.mean->parts[static_cast<std::size_t>(p)].time;
        rows.push_back(std::move(row));
    }
    m_ranks->setRows(std::move(rows));
}

void OverviewPage::fillStepChart(const OverviewRank &rank)
{
    std::vector<StepBarsChart::Row> rows;
    const auto rowOf = [](const OverviewStep &s, bool mean) {
        StepBarsChart::Row row{s.label, {}, mean};
        for (int p = 0; p < kOverviewPartCount; ++p)
            row.parts[static_cast<std::size_t>(p)] = s.parts[static_cast<std::size_t>(p)].time;
        return row;
    };
    for (std::size_t i = 0; i < rank.steps.size() && i < kStepRowsShown; ++i)
        rows.push_back(rowOf(rank.steps[i], false));
    if (rank.mean && rank.steps.size() != 1)
        rows.push_back(rowOf(*rank.mean, true));
    const int steps = static_cast<int>(rank.steps.size());
    m_stepsTitle->setText(
        steps > static_cast<int>(kStepRowsShown)
            ? tr("Step time of %1: the first %2 of %n step(s) and the mean (click a bar: the step on the "
                 "timeline)",
                 nullptr, steps)
                  .arg(rank.label)
                  .arg(kStepRowsShown)
            : tr("Step time of %1 (click a bar: the step on the timeline)").arg(rank.label));
    m_steps->setRows(std::move(rows));
    m_steps->setVisible(!m_steps->rows().empty());
    if (m_steps->rows().empty()) {
        m_stepsTitle->setText(tr("Step time of %1: no steps (%2)")
                                  .arg(rank.label, rank.missing.isEmpty()
                                                       ? tr("nothing to break down")
                                                       : rank.missing.join(QStringLiteral("; "))));
    }
}

void OverviewPage::fillContents(const OverviewRank &rank)
{
    m_contents->clear();
    const OverviewStep *step = rank.mean ? &*rank.mean : (rank.steps.empty() ? nullptr : &rank.steps.front());
    if (!step) {
        fitTreeHeight(m_contents);
        return;
    }
    TimeNs total = 0; // the additive parts (OverviewStep::total, computed here too)
    for (const OverviewPart p : kAdditiveParts)
        total += step->part(p).present ? step->part(p).time : 0;
    const auto clickable = [this](QTreeWidgetItem *item, const OverviewTarget &target) {
        if (target.kind == OverviewTarget::Kind::None)
            return;
        item->setData(0, Qt::UserRole, static_cast<int>(m_itemTargets.size()));
        m_itemTargets.push_back(target);
        item->setToolTip(0, item->text(0));
    };
    const auto addItem = [&](QTreeWidgetItem *parent, const OverviewItem &item, TimeNs partTime) {
        auto *row = new QTreeWidgetItem(
            parent, {QStringLiteral("    ") + item.name, durationText(item.time),
                     percentText(partTime > 0 ? double(item.time) / double(partTime) : 0.0),
                     item.count > 0 ? formatNumber(double(item.count)) : QString()});
        clickable(row, item.target);
        row->setToolTip(0, item.name);
    };
    QFont bold = m_contents->font();
    bold.setBold(true);
    for (const OverviewPart p : kAdditiveParts) {
        const OverviewPartValue &value = step->part(p);
        if (!value.present)
            continue;
        auto *top = new QTreeWidgetItem(
            m_contents, {partName(p), durationText(value.time),
                         percentText(total > 0 ? double(value.time) / double(total) : 0.0), QString()});
        for (int c = 0; c < 4; ++c)
            top->setFont(c, bold);
        top->setForeground(0, overviewPartColor(p));
        top->setToolTip(0, tr("%1: share of the step").arg(partName(p)));
        clickable(top, step->target);
        for (const OverviewItem &item : value.items)
            if (item.time > 0)
                addItem(top, item, value.time);
        if (!value.byRank.empty()) {
            auto *byRank = new QTreeWidgetItem(top, {QStringLiteral("  ") + tr("By the rank waited for")});
            byRank->setFont(0, bold);
            for (const OverviewItem &item : value.byRank)
                if (item.time > 0)
                    addItem(byRank, item, value.time);
        }
        if (p == OverviewPart::Computing && !step->topKernels.empty()) {
            auto *kernels =
                new QTreeWidgetItem(top, {QStringLiteral("  ") + tr("Top kernels (click: Kernels panel)")});
            kernels->setFont(0, bold);
            for (const OverviewKernel &k : step->topKernels) {
                auto *row = new QTreeWidgetItem(
                    kernels, {QStringLiteral("    ") + k.name, durationText(k.total),
                              percentText(value.time > 0 ? double(k.total) / double(value.time) : 0.0),
                              formatNumber(double(k.count))});
                clickable(row, k.target);
                row->setToolTip(0, QStringLiteral("%1 (%2)").arg(k.name, k.type));
            }
        }
    }
    m_contents->expandAll();
    fitTreeHeight(m_contents);
}

void OverviewPage::fillFindings(const OverviewRank &rank)
{
    m_findings->clear();
    std::size_t shown = 0;
    for (const OverviewFinding &f : m_overview->findings) {
        if (shown == kFindingsShown)
            break;
        // One rank: all; several: those of the shown rank and those about no single rank.
        if (m_overview->ranks.size() > 1 && f.rank >= 0 && f.rank != rank.rank)
            continue;
        // The share of the step the finding explains; before the checks attribute it (Finding::stepTime),
        // the share of the profiled step time they state.
        double share = f.shareOfStep;
        if (share <= 0 && f.index >= 0 && m_overview->sourceFindings &&
            static_cast<std::size_t>(f.index) < m_overview->sourceFindings->size())
            share = (*m_overview->sourceFindings)[static_cast<std::size_t>(f.index)].stepPercent / 100.0;
        // A finding that measures no time (it counts occurrences) shows no time: "—", never "0 ns".
        auto *item =
            new QTreeWidgetItem(m_findings, {f.title, stepPartName(f.part),
                                             share > 0 ? percentText(share) : InsightsPanel::noTime(),
                                             f.time > 0 ? durationText(f.time) : InsightsPanel::noTime()});
        item->setToolTip(0, f.title);
        if (share <= 0)
            item->setToolTip(2, InsightsPanel::noTimeToolTip());
        if (f.time <= 0)
            item->setToolTip(3, InsightsPanel::noTimeToolTip());
        if (f.target.kind != OverviewTarget::Kind::None) {
            item->setData(0, Qt::UserRole, static_cast<int>(m_itemTargets.size()));
            m_itemTargets.push_back(f.target);
        }
        ++shown;
    }
    if (shown == 0)
        new QTreeWidgetItem(m_findings, {tr("No finding for this rank"), QString(), QString(), QString()});
    fitTreeHeight(m_findings);
}

void OverviewPage::fillMemoryAndWarnings(const OverviewRank &rank)
{
    if (rank.memoryPeak) {
        const OverviewMemoryPeak &peak = *rank.memoryPeak;
        const QString metric = peak.metric == QLatin1String("allocated")  ? tr("allocated")
                               : peak.metric == QLatin1String("reserved") ? tr("reserved")
                                                                          : peak.metric;
        m_memory->setText(QStringLiteral("%1 %2").arg(bytesText(peak.bytes), metric));
        m_memory->setEnabled(peak.target.kind != OverviewTarget::Kind::None);
        // The file it was read from by name (the whole path in the tooltip); the time only on a timeline
        // (cluster data gives the profiler's absolute clock).
        const QString source =
            peak.source.contains(QLatin1Char('/')) ? peak.source.section(QLatin1Char('/'), -1) : peak.source;
        m_memoryNote->setText(
            peak.target.kind == OverviewTarget::Kind::TimeRange && peak.target.group >= 0
                ? tr("component %1, at %2 (from %3)").arg(peak.component, durationText(peak.time), source)
                : tr("component %1 (from %2)").arg(peak.component, source));
        m_memoryNote->setToolTip(peak.source);
    } else {
        m_memory->setText(tr("No memory data"));
        m_memory->setEnabled(false);
        m_memoryNote->setText(tr("collect with profile_memory=True to see the peak and its component"));
    }
    QStringList lines;
    for (const QString &w : m_overview->warnings)
        lines << QStringLiteral("• ") + w.toHtmlEscaped();
    for (const QString &w : rank.warnings) // the load's warnings name the rank before the same text
        if (std::none_of(m_overview->warnings.begin(), m_overview->warnings.end(),
                         [&w](const QString &o) { return o.endsWith(w); }))
            lines << QStringLiteral("• ") + w.toHtmlEscaped();
    for (const QString &m : m_overview->missing + rank.missing)
        lines << QStringLiteral("• ") + m.toHtmlEscaped();
    m_warnings->setTextFormat(Qt::RichText);
    m_warnings->setText(lines.isEmpty() ? tr("None: the collection reported no problem.")
                                        : lines.join(QStringLiteral("<br>")));
}

void OverviewPage::activateItem(QTreeWidgetItem *item)
{
    const QVariant index = item ? item->data(0, Qt::UserRole) : QVariant();
    if (!index.isValid() || index.toInt() < 0 || index.toInt() >= static_cast<int>(m_itemTargets.size()))
        return;
    Q_EMIT targetActivated(m_itemTargets[static_cast<std::size_t>(index.toInt())]);
}

} // namespace at
