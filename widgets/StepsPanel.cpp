#include "StepsPanel.h"

#include "MemoryAnalysis.h"

#include "TableExport.h"

#include "TableCells.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace at {

namespace {

// A table item that shows formatted text and sorts by the number behind it.
class NumberItem : public QTableWidgetItem
{
public:
    NumberItem(const QString &text, double value) : QTableWidgetItem(text), m_value(value)
    {
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem &other) const override
    {
        const auto *o = dynamic_cast<const NumberItem *>(&other);
        return o ? m_value < o->m_value : QTableWidgetItem::operator<(other);
    }

private:
    double m_value;
};

QTableWidgetItem *durationItem(TimeNs ns)
{
    return new NumberItem(formatDuration(ns), static_cast<double>(ns));
}

} // namespace

StepsPanel::StepsPanel(QWidget *parent)
    : QWidget(parent), m_table(new QTableWidget), m_compare(new QPushButton), m_hint(new QLabel)
{
    addCsvExportAction(m_table, QStringLiteral("steps.csv"));
    m_table->setColumnCount(13);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->setSortingEnabled(true);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_hint->setEnabled(false);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_hint, 1);
    buttons->addWidget(m_compare);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);

    connect(m_table, &QTableWidget::itemActivated, this, [this](QTableWidgetItem *item) {
        Q_EMIT stepActivated(m_table->item(item->row(), 1)->data(Qt::UserRole).toInt());
    });
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &StepsPanel::updateButtons);
    connect(m_compare, &QPushButton::clicked, this, [this] { Q_EMIT compareRequested(selectedSteps()); });
    retranslateUi();
    updateButtons();
}

void StepsPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void StepsPanel::retranslateUi()
{
    m_table->setHorizontalHeaderLabels({tr("Source"), tr("Step"), tr("Start"), tr("Duration"), tr("Host"),
                                        tr("Device stage"), tr("Computing"), tr("Communication"),
                                        tr("Not overlapped"), tr("Free"), tr("Device tasks"),
                                        tr("Peak memory (MB)"), tr("Memory growth (MB)")});
    m_compare->setText(tr("Compare…"));
    m_compare->setToolTip(tr("Select two steps to compare them, or one to compare it with a step of another "
                             "open profile"));
    m_hint->setText(tr("Double-click fits the timeline to a step; [ and ] step through them."));
}

void StepsPanel::setModel(const TraceModel *model)
{
    m_model = model;
    m_table->setSortingEnabled(false);
    m_table->clearContents();
    const int rows = model ? static_cast<int>(model->steps().size()) : 0;
    m_table->setRowCount(rows);
    for (int r = 0; r < rows; ++r) {
        const Step &s = model->steps()[static_cast<std::size_t>(r)];
        const QString group = model->groups()[static_cast<std::size_t>(s.group)].label;
        auto *source = new QTableWidgetItem(group.isEmpty() ? stepSourceName(s.source) : group);
        source->setToolTip(stepSourceName(s.source));
        m_table->setItem(r, 0, source);
        auto *label = new NumberItem(s.label, static_cast<double>(s.number));
        label->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        label->setData(Qt::UserRole, r);
        m_table->setItem(r, 1, label);
        m_table->setItem(r, 2, durationItem(s.begin()));
        m_table->setItem(r, 3, durationItem(s.duration()));
        m_table->setItem(r, 4, durationItem(s.hostEnd - s.hostBegin));
        m_table->setItem(r, 5, durationItem(s.stageDuration()));
        m_table->setItem(r, 6, durationItem(s.breakdown.computing));
        m_table->setItem(r, 7, durationItem(s.breakdown.communication));
        m_table->setItem(r, 8, durationItem(s.breakdown.communicationNotOverlapped));
        m_table->setItem(r, 9, durationItem(s.breakdown.free));
        m_table->setItem(
            r, 10,
            new NumberItem(QString::number(s.deviceTasks.size()), static_cast<double>(s.deviceTasks.size())));
        // Peak and net growth of the group's overall memory curve over the step (docs/MEMORY.md).
        if (const auto memory = groupStepMemory(model->memory(), s.group, s.begin(), s.end())) {
            m_table->setItem(
                r, 11,
                new NumberItem(bytesAsMegabytes(memory->peakBytes), static_cast<double>(memory->peakBytes)));
            m_table->setItem(r, 12,
                             new NumberItem(bytesAsMegabytes(memory->growthBytes),
                                            static_cast<double>(memory->growthBytes)));
        }
    }
    m_table->setSortingEnabled(true);
    m_table->resizeColumnsToContents();
    updateButtons();
}

std::vector<int> StepsPanel::selectedSteps() const
{
    std::vector<int> out;
    const QModelIndexList rows = m_table->selectionModel()->selectedRows(1);
    for (const QModelIndex &index : rows)
        out.push_back(m_table->item(index.row(), 1)->data(Qt::UserRole).toInt());
    std::sort(out.begin(), out.end());
    return out;
}

void StepsPanel::selectStep(int step)
{
    for (int r = 0; r < m_table->rowCount(); ++r)
        if (m_table->item(r, 1)->data(Qt::UserRole).toInt() == step) {
            m_table->selectRow(r);
            m_table->scrollToItem(m_table->item(r, 1));
            return;
        }
}

void StepsPanel::updateButtons()
{
    const std::size_t n = selectedSteps().size();
    m_compare->setEnabled(n == 1 || n == 2);
}

} // namespace at
