#include "KernelColorChooser.h"

#include "TimelineView.h"

namespace at {

namespace {
constexpr int kByName = -2, kByDurationPercentile = -1; // else the index of a kernel metric column
}

KernelColorChooser::KernelColorChooser(TimelineView *timeline, QWidget *parent)
    : QComboBox(parent), m_timeline(timeline)
{
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(this, &QComboBox::currentIndexChanged, this, &KernelColorChooser::apply);
    retranslate();
}

void KernelColorChooser::fill()
{
    const QSignalBlocker blocker(this);
    clear();
    addItem(tr("by name"), kByName);
    const TraceModel *model = m_timeline->model();
    if (model && !model->kernels().empty()) {
        addItem(tr("by duration percentile"), kByDurationPercentile);
        const auto &columns = model->kernels().columns();
        for (std::size_t c = 0; c < columns.size(); ++c)
            addItem(tr("by %1").arg(columns[c].header), static_cast<int>(c));
    }
    setCurrentIndex(0);
}

void KernelColorChooser::retranslate()
{
    setToolTip(tr("Colour device kernels by name, by duration percentile, or by an AI Core metric"));
    const TraceModel *shown = m_timeline->model();
    for (int i = 0; i < count(); ++i) {
        const int choice = itemData(i).toInt();
        if (choice == kByName)
            setItemText(i, tr("by name"));
        else if (choice == kByDurationPercentile)
            setItemText(i, tr("by duration percentile"));
        else if (shown && static_cast<std::size_t>(choice) < shown->kernels().columns().size())
            setItemText(i,
                        tr("by %1").arg(shown->kernels().columns()[static_cast<std::size_t>(choice)].header));
    }
}

void KernelColorChooser::apply()
{
    const int choice = currentData().toInt();
    MetricColoring &coloring = m_timeline->coloring();
    if (choice == kByName)
        coloring.setByName();
    else if (choice == kByDurationPercentile)
        coloring.setByDurationPercentile();
    else
        coloring.setByMetric(choice);
    m_timeline->refreshColors();
}

} // namespace at
