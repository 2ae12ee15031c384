#include "cluster/MoeLoadView.h"

#include "NumberFormat.h"
#include "cluster/ClusterHeatMap.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace at {

using namespace at::cluster;

namespace {

QString stepLabel(std::int64_t step)
{
    return step == kNoStep ? MoeLoadView::tr("(no step)") : QString::number(step);
}

QTableWidgetItem *cellItem(const QString &text, bool number)
{
    auto *item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    if (number)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QString ratioText(double ratio)
{
    return QLocale().toString(ratio, 'f', 2);
}

} // namespace

MoeLoadView::MoeLoadView(QWidget *parent)
    : QWidget(parent), m_summary(new QLabel), m_heat(new ClusterHeatMap), m_spread(new QTableWidget)
{
    auto *layout = new QVBoxLayout(this);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setObjectName(QStringLiteral("MoeLoadSummary"));
    layout->addWidget(m_summary);
    m_heatArea = new QScrollArea;
    m_heatArea->setWidget(m_heat);
    m_heatArea->setWidgetResizable(false);
    m_spread->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_spread->setSelectionMode(QAbstractItemView::SingleSelection);
    m_spread->verticalHeader()->hide();
    m_spread->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_spread->horizontalHeader()->setStretchLastSection(true);
    // The map and the spread share the tab's height; a short tab scrolls each rather than cutting one.
    m_split = new QSplitter(Qt::Vertical);
    m_split->addWidget(m_heatArea);
    m_split->addWidget(m_spread);
    m_split->setChildrenCollapsible(false);
    layout->addWidget(m_split, 1);
    connect(m_heat, &ClusterHeatMap::cellClicked, this, [this](int row, int) {
        if (row >= 0 && row < static_cast<int>(m_load.ranks.size()))
            Q_EMIT ranksOpenRequested({m_load.ranks[static_cast<std::size_t>(row)]}, QString());
    });
    connect(m_spread, &QTableWidget::cellActivated, this, [this](int row, int) { openSpreadRow(row); });
    rebuild();
}

void MoeLoadView::setModel(std::shared_ptr<const ClusterModel> model)
{
    m_model = std::move(model);
    rebuild();
}

void MoeLoadView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        rebuild();
    QWidget::changeEvent(event);
}

void MoeLoadView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitSplit();
}

void MoeLoadView::fitSplit()
{
    const int total = m_split->height();
    if (total <= 0)
        return;
    const int frame = 2 * m_heatArea->frameWidth();
    const int wanted =
        m_heat->sizeHint().height() + frame + m_heatArea->horizontalScrollBar()->sizeHint().height();
    const int heat = std::min(wanted, total * 2 / 3);
    m_split->setSizes({heat, total - heat});
}

void MoeLoadView::rebuild()
{
    m_load = m_model ? moeLoad(*m_model) : MoeLoad{};
    m_spread->setToolTip(tr("Double-click a row to open its most and least loaded ranks on one timeline"));
    if (!m_model) {
        m_summary->setText(tr("No cluster open."));
    } else if (!m_load.available()) {
        m_summary->setText(tr("No MoE load to show: %1.").arg(m_load.reason));
    } else {
        int flagged = 0;
        for (const MoeGroupStep &s : m_load.groupSteps)
            flagged += s.maxOverMean > kMoeMaxOverMeanThreshold ? 1 : 0;
        m_summary->setText(
            tr("Tokens routed to each rank's experts per step (first input dimension of its GroupedMatmul "
               "kernels, summed), %n expert-parallel group(s); %1 step(s) above %2 × the group's mean.",
               nullptr, static_cast<int>(m_load.groups.size()))
                .arg(flagged)
                .arg(ratioText(kMoeMaxOverMeanThreshold)));
    }
    m_heatArea->setVisible(m_load.available() && m_model);
    m_spread->setVisible(m_load.available() && m_model);
    fillHeatMap();
    fillSpread();
    fitSplit();
}

void MoeLoadView::fillHeatMap()
{
    QStringList rows, columns;
    std::vector<std::vector<std::optional<double>>> values;
    if (m_model && m_load.available()) {
        for (std::int64_t step : m_load.steps)
            columns << stepLabel(step);
        for (int rank : m_load.ranks) {
            rows << QString::number(rank);
            std::vector<std::optional<double>> row;
            row.reserve(m_load.steps.size());
            for (std::int64_t step : m_load.steps) {
                const std::optional<std::int64_t> tokens = m_load.tokens(*m_model, rank, step);
                row.push_back(tokens ? std::optional<double>(static_cast<double>(*tokens)) : std::nullopt);
            }
            values.push_back(std::move(row));
        }
    }
    m_heat->setAxisTitles(tr("Rank"), tr("Step"));
    m_heat->setData(rows, columns, std::move(values), tr("tokens"));
    m_heat->resize(m_heat->sizeHint());
}

void MoeLoadView::fillSpread()
{
    m_spread->clear();
    const QStringList headers{
        tr("Step"),      tr("EP group"),   tr("Most loaded rank (tokens)"), tr("Least loaded rank (tokens)"),
        tr("Max / min"), tr("Max / mean"), tr("Coefficient of variation")};
    m_spread->setColumnCount(static_cast<int>(headers.size()));
    m_spread->setHorizontalHeaderLabels(headers);
    m_spread->setRowCount(static_cast<int>(m_load.groupSteps.size()));
    for (int row = 0; row < m_spread->rowCount(); ++row) {
        const MoeGroupStep &s = m_load.groupSteps[static_cast<std::size_t>(row)];
        const auto rankTokens = [](int rank, std::int64_t tokens) {
            return MoeLoadView::tr("%1 (%2)").arg(rank).arg(formatCount(tokens));
        };
        m_spread->setItem(row, 0, cellItem(stepLabel(s.step), true));
        m_spread->setItem(row, 1, cellItem(m_load.groups[static_cast<std::size_t>(s.group)].name, false));
        m_spread->setItem(row, 2, cellItem(rankTokens(s.mostLoaded, s.maxTokens), false));
        m_spread->setItem(row, 3, cellItem(rankTokens(s.leastLoaded, s.minTokens), false));
        m_spread->setItem(row, 4,
                          cellItem(s.maxOverMin ? ratioText(*s.maxOverMin) : QStringLiteral("–"), true));
        QTableWidgetItem *overMean = cellItem(ratioText(s.maxOverMean), true);
        if (s.maxOverMean > kMoeMaxOverMeanThreshold) {
            QFont bold = overMean->font();
            bold.setBold(true);
            overMean->setFont(bold);
            overMean->setToolTip(
                tr("Above %1 × the mean: a finding").arg(ratioText(kMoeMaxOverMeanThreshold)));
        }
        m_spread->setItem(row, 5, overMean);
        m_spread->setItem(row, 6, cellItem(QLocale().toString(s.coefficientOfVariation, 'f', 3), true));
    }
}

void MoeLoadView::openSpreadRow(int row)
{
    if (!m_model || row < 0 || row >= static_cast<int>(m_load.groupSteps.size()))
        return;
    const MoeGroupStep &s = m_load.groupSteps[static_cast<std::size_t>(row)];
    QList<int> ranks{s.mostLoaded};
    if (s.leastLoaded != s.mostLoaded)
        ranks << s.leastLoaded;
    QString op;
    if (const Rank *rank = m_model->rank(s.mostLoaded))
        for (const GroupedMatmulStep &g : rank->groupedMatmul)
            if (g.step == s.step)
                op = g.largestName;
    Q_EMIT ranksOpenRequested(ranks, op);
}

} // namespace at
