#include "OpDiffView.h"

#include "NumberFormat.h"
#include "OpDiffCurve.h"
#include "OpDiffTableModel.h"
#include "OpDiffUnmatchedModel.h"
#include "TableExport.h"
#include "Theme.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace at {

namespace {

constexpr int kCurveHeight = 230;

QTableView *makeTable(QAbstractItemModel *model)
{
    auto *table = new QTableView;
    table->setModel(model);
    table->setSortingEnabled(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->setTextElideMode(Qt::ElideMiddle);
    return table;
}

// The headline: wrapped rich text that keeps the height its width needs (a layout short of room would
// otherwise give it a few pixels less than heightForWidth and cut its last line).
class HeadlineLabel : public QLabel
{
public:
    void keepWholeHeight()
    {
        if (width() > 0)
            setMinimumHeight(heightForWidth(width()));
    }

protected:
    void resizeEvent(QResizeEvent *event) override
    {
        QLabel::resizeEvent(event);
        keepWholeHeight();
    }
};

// A value that never breaks inside: the headline wraps between values only.
QString unbroken(const QString &text)
{
    return QString(text).toHtmlEscaped().replace(QLatin1Char(' '), QStringLiteral("&nbsp;"));
}

QString signedDuration(TimeNs ns)
{
    return (ns > 0 ? QStringLiteral("+") : QString()) + formatDurationNs(ns);
}

// "<b>Step</b> 224.936 ms → 230.101 ms (+5.165 ms, +2.3%)"
QString pairText(const QString &label, TimeNs base, TimeNs comparison)
{
    const TimeNs delta = comparison - base;
    QString change = signedDuration(delta);
    if (base > 0)
        change += QStringLiteral(", ") + (delta > 0 ? QStringLiteral("+") : QString()) +
                  formatPercent(100.0 * static_cast<double>(delta) / static_cast<double>(base));
    return QStringLiteral("<b>%1</b> %2 → %3 (%4)")
        .arg(label.toHtmlEscaped(), unbroken(formatDurationNs(base)), unbroken(formatDurationNs(comparison)),
             unbroken(change));
}

} // namespace

OpDiffView::OpDiffView(QWidget *parent)
    : QWidget(parent), m_headline(new HeadlineLabel), m_filterLabel(new QLabel), m_filter(new QLineEdit),
      m_groupLabel(new QLabel), m_grouping(new QComboBox), m_tabs(new QTabWidget),
      m_model(new OpDiffTableModel(this)), m_proxy(new OpDiffSortProxy(this)),
      m_unmatched(new OpDiffUnmatchedModel(this)), m_unmatchedProxy(new QSortFilterProxyModel(this)),
      m_curve(new OpDiffCurve)
{
    m_proxy->setSourceModel(m_model);
    m_unmatchedProxy->setSourceModel(m_unmatched);
    m_unmatchedProxy->setSortRole(Qt::UserRole);
    m_table = makeTable(m_proxy);
    m_table->setObjectName(QStringLiteral("opDiffTable"));
    m_unmatchedTable = makeTable(m_unmatchedProxy);
    m_unmatchedTable->setObjectName(QStringLiteral("opDiffUnmatched"));
    addCsvExportAction(m_table, QStringLiteral("op_diff.csv"));
    addCsvExportAction(m_unmatchedTable, QStringLiteral("op_diff_unmatched.csv"));
    m_tabs->addTab(m_table, QString());
    m_tabs->addTab(m_unmatchedTable, QString());

    m_headline->setTextFormat(Qt::RichText);
    m_headline->setWordWrap(true);
    m_headline->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_headline->setObjectName(QStringLiteral("opDiffHeadline"));
    connect(m_headline, &QLabel::linkActivated, this, [this](const QString &link) {
        // "row:N": a headline op.
        if (link.startsWith(QLatin1String("row:")))
            selectDiffRow(link.mid(4).toInt());
    });

    m_filter->setClearButtonEnabled(true);
    m_filter->setObjectName(QStringLiteral("opDiffFilter"));
    m_filterLabel->setBuddy(m_filter);
    m_groupLabel->setBuddy(m_grouping);
    m_grouping->addItems({QString(), QString(), QString()});
    m_grouping->setObjectName(QStringLiteral("opDiffGrouping"));
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_filter, &QLineEdit::textChanged, m_unmatchedProxy,
            &QSortFilterProxyModel::setFilterFixedString);
    m_unmatchedProxy->setFilterKeyColumn(-1);
    m_unmatchedProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    connect(m_grouping, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_model->setGrouping(static_cast<OpDiffTableModel::Grouping>(std::clamp(index, 0, 2)));
        m_table->resizeColumnsToContents();
    });

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_filterLabel);
    bar->addWidget(m_filter, 1);
    bar->addSpacing(12);
    bar->addWidget(m_groupLabel);
    bar->addWidget(m_grouping);

    auto *tablePart = new QWidget;
    auto *tableLayout = new QVBoxLayout(tablePart);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addLayout(bar);
    tableLayout->addWidget(m_tabs, 1);

    auto *splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(tablePart);
    splitter->addWidget(m_curve);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);
    splitter->setSizes({600, kCurveHeight});

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_headline);
    layout->addWidget(splitter, 1);

    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &OpDiffView::onCurrentRowChanged);
    connect(m_unmatchedTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (!current.isValid())
                    return;
                const auto [comparison, op] = m_unmatched->opAt(m_unmatchedProxy->mapToSource(current).row());
                if (op)
                    Q_EMIT unmatchedOpActivated(comparison, op->op);
            });
    connect(m_curve, &OpDiffCurve::timeClicked, this, [this](TimeNs time) {
        // The matched op whose base start is nearest the click.
        if (!m_result || m_result->accumulated.empty())
            return;
        const auto &points = m_result->accumulated;
        auto it = std::lower_bound(points.begin(), points.end(), time,
                                   [](const diff::AccumulatedPoint &p, TimeNs t) { return p.offset < t; });
        if (it == points.end() || (it != points.begin() && time - std::prev(it)->offset < it->offset - time))
            it = std::prev(it);
        selectDiffRow(it->row);
    });
    retranslateUi();
}

void OpDiffView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    else if (event->type() == QEvent::PaletteChange)
        updateHeadline();
    QWidget::changeEvent(event);
}

void OpDiffView::retranslateUi()
{
    m_filterLabel->setText(tr("&Filter:"));
    m_filter->setPlaceholderText(tr("op name, call path, module, shapes or kernel"));
    m_groupLabel->setText(tr("&Group:"));
    m_grouping->setItemText(0, tr("Per op"));
    m_grouping->setItemText(1, tr("By op name"));
    m_grouping->setItemText(2, tr("By module"));
    m_tabs->setTabText(0, tr("Ops"));
    const int unmatched =
        m_result ? static_cast<int>(m_result->unmatchedBase.size() + m_result->unmatchedComparison.size())
                 : 0;
    //: The tab of the ops of one side only, with their count
    m_tabs->setTabText(1, tr("Unmatched (%1)").arg(formatCount(unmatched)));
    Q_EMIT m_model->headerDataChanged(Qt::Horizontal, 0, m_model->columnCount() - 1);
    Q_EMIT m_unmatched->headerDataChanged(Qt::Horizontal, 0, m_unmatched->columnCount() - 1);
    updateHeadline();
}

void OpDiffView::setResult(std::shared_ptr<const diff::DiffResult> result, const TraceModel *baseModel,
                           const TraceModel *comparisonModel)
{
    m_result = std::move(result);
    m_model->setResult(m_result, baseModel, comparisonModel);
    m_unmatched->setResult(m_result);
    std::vector<OpDiffCurve::Point> points;
    if (m_result)
        for (const diff::AccumulatedPoint &p : m_result->accumulated)
            points.push_back({p.offset, p.delta});
    m_curve->setCurve(std::move(points), m_result ? m_result->base.stepTime : 0);
    m_curve->setMarkedTime(std::nullopt);
    // Largest slowdown first; the total rows stay last.
    m_table->sortByColumn(OpDiffTableModel::DeltaColumn, Qt::DescendingOrder);
    m_unmatchedTable->sortByColumn(OpDiffUnmatchedModel::DeviceColumn, Qt::DescendingOrder);
    m_table->resizeColumnsToContents();
    m_unmatchedTable->resizeColumnsToContents();
    // The path and kernel columns can be very long: they elide instead of pushing the numbers away.
    for (const int column :
         {OpDiffTableModel::PathColumn, OpDiffTableModel::ShapesColumn, OpDiffTableModel::BaseKernelsColumn})
        m_table->setColumnWidth(column, std::min(m_table->columnWidth(column), 260));
    m_table->setColumnWidth(OpDiffTableModel::OpColumn,
                            std::min(m_table->columnWidth(OpDiffTableModel::OpColumn), 320));
    m_unmatchedTable->setColumnWidth(
        OpDiffUnmatchedModel::PathColumn,
        std::min(m_unmatchedTable->columnWidth(OpDiffUnmatchedModel::PathColumn), 360));
    retranslateUi();
}

void OpDiffView::updateHeadline()
{
    if (!m_result) {
        m_headline->setText(tr("Computing the diff…"));
        return;
    }
    const diff::SideHeadline &b = m_result->base, &c = m_result->comparison;
    const QString sep = QStringLiteral(" &nbsp;·&nbsp; ");
    QStringList parts{pairText(tr("Step"), b.stepTime, c.stepTime),
                      pairText(tr("Computing"), b.computing, c.computing),
                      pairText(tr("Communication"), b.communication, c.communication),
                      pairText(tr("Free"), b.free, c.free)};
    std::size_t matched = 0;
    for (const diff::DiffRow &r : m_result->rows)
        matched += r.kind == diff::RowKind::MatchedOp;
    QString text =
        QStringLiteral("<b>%1</b> → <b>%2</b><br>").arg(b.label.toHtmlEscaped(), c.label.toHtmlEscaped()) +
        parts.join(sep) + QStringLiteral("<br>") +
        //: The op diff's match summary: "Ops: 812 matched, 3 only in base, 0 only in comparison"
        tr("Ops: %1 matched, %2 only in base, %3 only in comparison")
            .arg(formatCount(static_cast<qint64>(matched)),
                 formatCount(static_cast<qint64>(m_result->unmatchedBase.size())),
                 formatCount(static_cast<qint64>(m_result->unmatchedComparison.size())));
    // The palette's link colour is a dark blue in both themes: lighter on a dark background.
    const QString link =
        (isDark(palette()) ? QColor(0x8a, 0xb4, 0xf8) : palette().color(QPalette::Link)).name();
    QStringList top;
    for (std::size_t i = 0; i < m_result->topRows.size(); ++i) {
        const int row = m_result->topRows[i];
        if (row < 0 || static_cast<std::size_t>(row) >= m_result->rows.size())
            continue;
        const diff::DiffRow &r = m_result->rows[static_cast<std::size_t>(row)];
        top << QStringLiteral("%1.&nbsp;<a href=\"row:%2\" style=\"color:%3\">%4</a>&nbsp;%5")
                   .arg(i + 1)
                   .arg(row)
                   .arg(link, r.name.toHtmlEscaped(), unbroken(signedDuration(r.deltaNs)));
    }
    if (!top.isEmpty())
        text += QStringLiteral("<br><b>%1</b> ").arg(tr("Ops that explain most of the difference:")) +
                top.join(QStringLiteral(" &nbsp; "));
    for (const QString &warning : m_result->warnings)
        text += QStringLiteral("<br>") + warning.toHtmlEscaped();
    m_headline->setText(text);
    static_cast<HeadlineLabel *>(m_headline)->keepWholeHeight();
}

int OpDiffView::currentDiffRow() const
{
    const QModelIndex current = m_table->currentIndex();
    if (!current.isValid())
        return -1;
    const OpDiffTableModel::Entry &e = m_model->entry(m_proxy->mapToSource(current).row());
    return e.group ? -1 : e.index;
}

void OpDiffView::selectDiffRow(int diffRow)
{
    if (!m_result || diffRow < 0 || static_cast<std::size_t>(diffRow) >= m_result->rows.size())
        return;
    if (m_model->rowOfDiffRow(diffRow) < 0)
        m_grouping->setCurrentIndex(0); // grouped away: show it per op
    QModelIndex row = m_proxy->mapFromSource(m_model->index(m_model->rowOfDiffRow(diffRow), 0));
    if (!row.isValid()) {
        m_filter->clear(); // filtered away
        row = m_proxy->mapFromSource(m_model->index(m_model->rowOfDiffRow(diffRow), 0));
    }
    m_tabs->setCurrentWidget(m_table);
    m_table->selectionModel()->setCurrentIndex(row, QItemSelectionModel::ClearAndSelect |
                                                        QItemSelectionModel::Rows);
    m_table->scrollTo(row);
}

void OpDiffView::onCurrentRowChanged(const QModelIndex &current)
{
    if (!current.isValid() || !m_result)
        return;
    const OpDiffTableModel::Entry &e = m_model->entry(m_proxy->mapToSource(current).row());
    int diffRow = e.index;
    if (e.group) {
        // A group shows its op that changed most.
        const std::vector<int> rows = m_model->rowsOfGroup(e.index);
        if (rows.empty())
            return;
        diffRow = *std::max_element(rows.begin(), rows.end(), [this](int a, int b) {
            return std::abs(m_result->rows[static_cast<std::size_t>(a)].deltaNs) <
                   std::abs(m_result->rows[static_cast<std::size_t>(b)].deltaNs);
        });
    }
    const diff::DiffRow &r = m_result->rows[static_cast<std::size_t>(diffRow)];
    m_curve->setMarkedTime(r.kind == diff::RowKind::MatchedOp ? std::optional<TimeNs>(r.baseOffset)
                                                              : std::nullopt);
    Q_EMIT diffRowActivated(diffRow);
}

QByteArray OpDiffView::tableCsv() const
{
    return modelToCsv(*m_proxy);
}

} // namespace at
