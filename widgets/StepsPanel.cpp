#include "StepsPanel.h"

#include "MemoryAnalysis.h"

#include "TableExport.h"

#include "NumberFormat.h"
#include "TableCells.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <array>
#include <optional>

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

// The columns after Source and Step: durations, a count and memory sizes, in the panel's column order.
enum Column
{
    SourceColumn,
    StepColumn,
    Start,
    Duration,
    Host,
    DeviceStage,
    Computing,
    Communication,
    NotOverlapped,
    Free,
    DeviceTasks,
    PeakMemory,
    MemoryGrowth,
    ColumnCount
};

// A cell showing `shown`, sorting by `value` and exporting `exact` (the CSV keeps what it always wrote).
QTableWidgetItem *valueItem(const QString &shown, double value, const QString &exact)
{
    auto *item = new NumberItem(shown, value);
    item->setData(kExportTextRole, exact);
    return item;
}

// One step's numbers, in column order (Start .. MemoryGrowth); memory only when the group has a curve.
struct StepValues
{
    std::array<TimeNs, Free - Start + 1> times{};
    std::optional<StepMemory> memory;
};

} // namespace

QString StepsPanel::sourceText(StepSource source)
{
    switch (source) {
    case StepSource::ProfilerStep:
        return tr("ProfilerStep slices");
    case StepSource::Iteration:
        return tr("Iteration slices (step trace)");
    case StepSource::Declared:
        return tr("step windows of the source");
    case StepSource::StepTraceCsv:
        return tr("step_trace table");
    case StepSource::KernelStepId:
        return tr("Step Id of the kernel table");
    case StepSource::GpuAnnotation:
        return tr("ProfilerStep GPU annotations");
    }
    return {};
}

StepsPanel::StepsPanel(QWidget *parent)
    : QWidget(parent), m_table(new QTableWidget), m_compare(new QPushButton), m_hint(new QLabel)
{
    addCsvExportAction(m_table, QStringLiteral("steps.csv"));
    m_table->setColumnCount(ColumnCount);
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
    m_table->setHorizontalHeaderLabels(
        {tr("Source"), tr("Step"), tr("Start"), tr("Duration"), tr("Host"), tr("Device stage"),
         tr("Computing"), tr("Communication"), tr("Not overlapped"), tr("Free"), tr("Device tasks"),
         tr("Peak allocated (operators)"), tr("Allocated growth (operators)")});
    // Which memory this is: the cluster page's peak is another component's (Reserved, largest component).
    const QString memory =
        tr("The operators' memory curve of the rank (PTA+GE, else MindSpore+GE, PTA or GE; "
           "docs/MEMORY.md), its Allocated values. The cluster page shows the largest "
           "Reserved value of any component (usually APP) instead.");
    for (int c : {PeakMemory, MemoryGrowth}) {
        m_table->horizontalHeaderItem(c)->setToolTip(memory);
        // The CSV export keeps its header and its MB values.
        m_table->horizontalHeaderItem(c)->setData(
            kExportTextRole, c == PeakMemory ? tr("Peak memory (MB)") : tr("Memory growth (MB)"));
    }
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
    // Each column reads in one unit, picked from all its rows (NumberFormat.h).
    std::vector<StepValues> values(static_cast<std::size_t>(rows));
    std::array<TimeNs, Free - Start + 1> largestTime{};
    double largestPeak = 0, largestGrowth = 0;
    for (int r = 0; r < rows; ++r) {
        const Step &s = model->steps()[static_cast<std::size_t>(r)];
        StepValues &v = values[static_cast<std::size_t>(r)];
        v.times = {s.begin(),
                   s.duration(),
                   s.hostEnd - s.hostBegin,
                   s.stageDuration(),
                   s.breakdown.computing,
                   s.breakdown.communication,
                   s.breakdown.communicationNotOverlapped,
                   s.breakdown.free};
        for (std::size_t c = 0; c < v.times.size(); ++c)
            largestTime[c] = std::max(largestTime[c], std::abs(v.times[c]));
        // Peak and net growth of the group's overall memory curve over the step (docs/MEMORY.md).
        v.memory = groupStepMemory(model->memory(), s.group, s.begin(), s.end());
        if (v.memory) {
            largestPeak = std::max(largestPeak, std::abs(static_cast<double>(v.memory->peakBytes)));
            largestGrowth = std::max(largestGrowth, std::abs(static_cast<double>(v.memory->growthBytes)));
        }
    }
    std::array<DisplayUnit, Free - Start + 1> timeUnits;
    for (std::size_t c = 0; c < timeUnits.size(); ++c)
        timeUnits[c] = c == 0 ? timePointUnitFor(largestTime[c]) : durationUnitFor(largestTime[c]);
    const DisplayUnit peakUnit = bytesUnitFor(largestPeak);
    const DisplayUnit growthUnit = bytesUnitFor(largestGrowth);
    for (int r = 0; r < rows; ++r) {
        const Step &s = model->steps()[static_cast<std::size_t>(r)];
        const StepValues &v = values[static_cast<std::size_t>(r)];
        const QString group = model->groups()[static_cast<std::size_t>(s.group)].label;
        auto *source = new QTableWidgetItem(group.isEmpty() ? sourceText(s.source) : group);
        source->setToolTip(sourceText(s.source));
        m_table->setItem(r, SourceColumn, source);
        auto *label = new NumberItem(s.label, static_cast<double>(s.number));
        label->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        label->setData(Qt::UserRole, r);
        m_table->setItem(r, StepColumn, label);
        for (std::size_t c = 0; c < v.times.size(); ++c) {
            const TimeNs ns = v.times[c];
            const QString shown =
                c == 0 ? formatTimePointNs(ns, timeUnits[c]) : formatDurationNs(ns, timeUnits[c]);
            m_table->setItem(r, Start + static_cast<int>(c),
                             valueItem(shown, static_cast<double>(ns), formatDuration(ns)));
        }
        if (s.source == StepSource::GpuAnnotation) { // no host window: the step is what the GPU marked
            auto *host = valueItem(QStringLiteral("—"), -1.0, QString());
            host->setToolTip(
                tr("The trace has no host ProfilerStep: the step is the span of its GPU annotations."));
            m_table->setItem(r, Host, host);
        }
        const auto tasks = static_cast<qint64>(s.deviceTasks.size());
        m_table->setItem(r, DeviceTasks,
                         valueItem(formatCount(tasks), static_cast<double>(tasks), QString::number(tasks)));
        if (v.memory) {
            const int curve = groupOverallCurve(model->memory(), s.group);
            const QString component =
                curve >= 0 ? model->memory().curves[static_cast<std::size_t>(curve)].component : QString();
            const auto peak = static_cast<double>(v.memory->peakBytes);
            const auto growth = static_cast<double>(v.memory->growthBytes);
            QTableWidgetItem *peakItem =
                valueItem(formatBytes(peak, peakUnit), peak, bytesAsMegabytes(v.memory->peakBytes));
            QTableWidgetItem *growthItem =
                valueItem(formatBytes(growth, growthUnit), growth, bytesAsMegabytes(v.memory->growthBytes));
            //: %1: a memory component ("PTA+GE"); %2: its exact size
            peakItem->setToolTip(tr("Allocated, %1: %2").arg(component, formatBytes(peak)));
            growthItem->setToolTip(tr("Allocated, %1: %2").arg(component, formatBytes(growth)));
            m_table->setItem(r, PeakMemory, peakItem);
            m_table->setItem(r, MemoryGrowth, growthItem);
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
