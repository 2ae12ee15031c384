#include "cluster/ClusterView.h"

#include "MemoryAnalysis.h"
#include "Theme.h"
#include "cluster/ClusterAnalysis.h"
#include "cluster/ClusterHeatMap.h"

#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedBarSeries>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <set>

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

QStandardItem *numberItem(double value, bool present = true)
{
    auto *item = new QStandardItem(present ? QString::number(value, 'f', 3) : QStringLiteral("–"));
    item->setData(present ? value : -1.0, Qt::UserRole);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setEditable(false);
    return item;
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

QString ranksText(const std::vector<int> &ranks)
{
    QStringList parts;
    for (int r : ranks)
        parts << QString::number(r);
    return parts.join(QStringLiteral(", "));
}

QString dimensionText(Dimension d)
{
    switch (d) {
    case Dimension::Computing:
        return ClusterView::tr("computing");
    case Dimension::Communication:
        return ClusterView::tr("communication");
    case Dimension::Free:
        return ClusterView::tr("free time");
    }
    return {};
}

} // namespace

ClusterView::ClusterView(QWidget *parent)
    : QWidget(parent), m_title(new QLabel), m_rows(new QStandardItemModel(this)), m_table(new QTableView),
      m_open(new QPushButton), m_chart(new QChartView), m_tabs(new QTabWidget),
      m_stepHeat(new ClusterHeatMap), m_matrixHeat(new ClusterHeatMap), m_matrixTitle(new QLabel),
      m_findings(new QListWidget)
{
    auto *layout = new QVBoxLayout(this);
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_title);

    m_rows->setSortRole(Qt::UserRole);
    m_table->setModel(m_rows);
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    connect(m_table, &QTableView::activated, this,
            [this](const QModelIndex &index) { openRank(rankAtRow(index.row())); });
    connect(m_open, &QPushButton::clicked, this, [this] {
        const QList<int> ranks = selectedRanks();
        if (ranks.size() == 1)
            openRank(ranks.first());
        else if (ranks.size() > 1)
            Q_EMIT ranksOpenRequested(ranks);
    });

    auto *tableBox = new QWidget;
    auto *tableLayout = new QVBoxLayout(tableBox);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(m_table, 1);
    tableLayout->addWidget(m_open, 0, Qt::AlignLeft);

    m_chart->setRenderHint(QPainter::Antialiasing);
    m_chart->setMinimumSize(320, 240);
    auto *top = new QSplitter(Qt::Horizontal);
    top->addWidget(tableBox);
    top->addWidget(m_chart);
    top->setStretchFactor(0, 3);
    top->setStretchFactor(1, 2);
    top->setSizes({900, 560});

    auto scrolled = [](QWidget *inner) {
        auto *area = new QScrollArea;
        area->setWidget(inner);
        area->setWidgetResizable(false);
        return area;
    };
    auto *matrixBox = new QWidget;
    auto *matrixLayout = new QVBoxLayout(matrixBox);
    m_matrixTitle->setWordWrap(true);
    matrixLayout->addWidget(m_matrixTitle);
    matrixLayout->addWidget(scrolled(m_matrixHeat), 1);
    m_tabs->addTab(m_findings, QString());
    m_tabs->addTab(scrolled(m_stepHeat), QString());
    m_tabs->addTab(matrixBox, QString());
    connect(m_stepHeat, &ClusterHeatMap::cellClicked, this, [this](int row, int) {
        if (m_model && row >= 0 && row < static_cast<int>(m_model->ranks.size()))
            openRank(m_model->ranks[static_cast<std::size_t>(row)].rank);
    });

    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(top);
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    rebuild();
}

void ClusterView::setModel(std::shared_ptr<const ClusterModel> model)
{
    m_model = std::move(model);
    rebuild();
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

void ClusterView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange)
        rebuild();
    QWidget::changeEvent(event);
}

void ClusterView::rebuild()
{
    m_open->setText(tr("Open Timelines of Selected Ranks"));
    m_tabs->setTabText(0, tr("Findings"));
    m_tabs->setTabText(1, tr("Step Time per Rank and Step"));
    m_tabs->setTabText(2, tr("Communication Matrix"));
    if (!m_model) {
        m_title->setText(tr("No cluster open."));
        m_rows->clear();
        return;
    }
    int summaryOnly = 0;
    for (const Rank &r : m_model->ranks)
        summaryOnly += r.hasTimeline ? 0 : 1;
    m_title->setText(
        tr("Cluster %1: %n rank(s), %2 with summary files only. Times are the mean per step in ms; "
           "double-click a rank to open its timeline, or select several and open them (one window each).",
           nullptr, static_cast<int>(m_model->ranks.size()))
            .arg(m_model->root)
            .arg(summaryOnly));
    fillTable();
    fillChart();
    fillStepHeatMap();
    fillFindings();
    fillMatrix();
}

void ClusterView::fillTable()
{
    m_rows->clear();
    m_rows->setHorizontalHeaderLabels({tr("Rank"), tr("Device"), tr("Stage"), tr("Steps"), tr("Computing"),
                                       tr("Communication (not overlapped)"), tr("Overlapped"), tr("Free"),
                                       tr("Bubble"), tr("Preparing"), tr("Stage Time"), tr("Source"),
                                       tr("Timeline"), tr("Peak Memory (MB)")});
    for (const Rank &r : m_model->ranks) {
        const RankStep m = meanStep(r);
        const bool has = !r.steps.empty();
        QList<QStandardItem *> row;
        row << textItem(QString::number(r.rank), r.rank)
            << textItem(r.device >= 0 ? QString::number(r.device) : tr("unknown"), r.device)
            << textItem(r.stage >= 0 ? QString::number(r.stage) : QStringLiteral("–"), r.stage)
            << textItem(QString::number(r.steps.size()), static_cast<int>(r.steps.size()))
            << numberItem(ms(m.computing), has) << numberItem(ms(m.communicationNotOverlapped), has)
            << numberItem(ms(m.overlapped), has) << numberItem(ms(m.free), has)
            << numberItem(ms(m.bubble), has) << numberItem(ms(m.preparing), has && m.hasPreparing)
            << numberItem(ms(m.stage), has)
            << textItem(has ? breakdownSourceName(m.source) : tr("none"),
                        has ? breakdownSourceName(m.source) : QString())
            << textItem(r.hasTimeline ? tr("yes") : tr("summary only"), r.hasTimeline);
        // The rank's peak device memory (ClusterModel.h RankMemoryPeak), MB = 2^20 bytes.
        QStandardItem *memory =
            numberItem(r.memoryPeak ? static_cast<double>(r.memoryPeak->bytes) / (1 << 20) : 0,
                       r.memoryPeak.has_value());
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
    chart->setTitle(tr("Step breakdown per rank (mean per step, ms)"));
    auto *series = new QStackedBarSeries;
    auto *computing = new QBarSet(tr("Computing"));
    auto *communication = new QBarSet(tr("Communication (not overlapped)"));
    auto *free = new QBarSet(tr("Free"));
    QStringList categories;
    double maximum = 0;
    for (const Rank &r : m_model->ranks) {
        const RankStep m = meanStep(r);
        *computing << ms(m.computing);
        *communication << ms(m.communicationNotOverlapped);
        *free << ms(m.free);
        maximum = std::max(maximum, ms(m.computing + m.communicationNotOverlapped + m.free));
        categories << tr("Rank %1").arg(r.rank);
    }
    series->append(computing);
    series->append(communication);
    series->append(free);
    chart->addSeries(series);
    auto *x = new QBarCategoryAxis;
    x->append(categories);
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    auto *y = new QValueAxis;
    y->setRange(0, maximum > 0 ? maximum * 1.05 : 1);
    y->setTitleText(tr("ms"));
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    chart->legend()->setAlignment(Qt::AlignBottom);
    connect(series, &QStackedBarSeries::clicked, this, [this](int index, QBarSet *) {
        if (m_model && index >= 0 && index < static_cast<int>(m_model->ranks.size()))
            openRank(m_model->ranks[static_cast<std::size_t>(index)].rank);
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
        rows << tr("Rank %1").arg(r.rank);
        std::vector<std::optional<double>> row(steps.size());
        for (const RankStep &s : r.steps) {
            const auto at = std::find(steps.begin(), steps.end(), s.step) - steps.begin();
            row[static_cast<std::size_t>(at)] = ms(rankTotal(s));
        }
        values.push_back(std::move(row));
    }
    m_stepHeat->setData(rows, columns, std::move(values), tr("ms"));
    m_stepHeat->resize(m_stepHeat->sizeHint());
}

void ClusterView::fillFindings()
{
    m_findings->clear();
    for (const StageImbalance &s : findStageImbalance(*m_model))
        m_findings->addItem(
            tr("Step %1: load imbalance between pipeline stages: stage %2 computes %3 ms, stage %4 "
               "%5 ms (%6 ms more). This is the model's split, not a slow rank.")
                .arg(stepText(s.step))
                .arg(s.heavierStage)
                .arg(ms(s.heavierComputing), 0, 'f', 3)
                .arg(s.lighterStage)
                .arg(ms(s.lighterComputing), 0, 'f', 3)
                .arg(ms(s.gap), 0, 'f', 3));
    for (const SlowRank &s : findSlowRanks(*m_model)) {
        QString text =
            tr("Step %1, %2: rank %3 is slow in %4 by %5 ms against the fastest rank of its group.")
                .arg(stepText(s.step), s.group)
                .arg(s.rank)
                .arg(dimensionText(s.dimension))
                .arg(ms(s.gap), 0, 'f', 3);
        if (!s.waiting.empty())
            text += QLatin1Char(' ') + tr("Ranks %1 wait for it.").arg(ranksText(s.waiting));
        m_findings->addItem(text);
    }
    for (const PlainRuleFlag &f : plainRule(*m_model))
        m_findings->addItem(
            tr("Step %1 (msprof-analyze rule, all ranks): %2 differs by %3 ms between rank %4 and "
               "rank %5 (%6 % of the mean step).")
                .arg(stepText(f.step), dimensionText(f.dimension))
                .arg(ms(f.gap), 0, 'f', 3)
                .arg(f.maxRank)
                .arg(f.minRank)
                .arg(f.ratio * 100, 0, 'f', 1));
    for (const SlowLink &l : findSlowLinks(*m_model))
        m_findings->addItem(tr("Step %1: slow link %2 → %3 (%4): %5 GB/s against a median of %6 GB/s.")
                                .arg(stepText(l.step))
                                .arg(l.src)
                                .arg(l.dst)
                                .arg(l.transport)
                                .arg(l.bandwidthGbps, 0, 'f', 2)
                                .arg(l.medianGbps, 0, 'f', 2));
    for (const CollectiveWait &w : findWaits(*m_model)) {
        QStringList waiting;
        for (const CollectiveWait::Waiter &x : w.waiting)
            waiting << tr("%1 (%2 ms)").arg(x.rank).arg(ms(x.wait), 0, 'f', 3);
        m_findings->addItem(tr("Step %1, %2: ranks %3 wait for rank %4.")
                                .arg(stepText(w.step), w.op, waiting.join(QStringLiteral(", ")))
                                .arg(w.waitedFor));
    }
    for (const QString &w : m_model->warnings)
        m_findings->addItem(tr("Warning: %1").arg(w));
    if (m_findings->count() == 0)
        m_findings->addItem(tr("No slow rank, load imbalance, slow link or long wait found."));
}

void ClusterView::fillMatrix()
{
    const std::vector<std::int64_t> steps = m_model->stepNumbers();
    std::vector<LinkTotal> links;
    std::int64_t shownStep = kNoStep;
    for (std::int64_t s : steps) {
        links = matrixLinks(*m_model, s);
        shownStep = s;
        if (!links.empty())
            break;
    }
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
    auto indexOf = [&](int rank) {
        return static_cast<std::size_t>(std::find(m_matrixRanks.begin(), m_matrixRanks.end(), rank) -
                                        m_matrixRanks.begin());
    };
    for (const LinkTotal &l : links)
        if (l.src != l.dst) // the on-chip LOCAL copies would set the scale
            values[indexOf(l.src)][indexOf(l.dst)] = l.bandwidthGbps();
    m_matrixTitle->setText(links.empty()
                               ? tr("No communication matrix (communication_matrix.json or analysis.db).")
                               : tr("Step %1: bandwidth from source rank (row) to destination rank (column), "
                                    "GB/s, all groups and ops. Hover a cell for its value.")
                                     .arg(stepText(shownStep)));
    m_matrixHeat->setData(labels, labels, std::move(values), tr("GB/s"));
    m_matrixHeat->resize(m_matrixHeat->sizeHint());
}

} // namespace at
