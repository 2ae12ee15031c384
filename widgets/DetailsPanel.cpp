#include "DetailsPanel.h"

#include <QApplication>
#include <QHeaderView>

#include <cmath>

namespace at {

namespace {
constexpr int kSliceRole = Qt::UserRole + 1;
}

DetailsPanel::DetailsPanel(QWidget *parent) : QTreeWidget(parent)
{
    setColumnCount(2);
    setHeaderLabels({tr("Field"), tr("Value")});
    setRootIsDecorated(true);
    setUniformRowHeights(true);
    setWordWrap(false);
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    // One click on a flow jumps (as a link would); Enter on a focused flow item does too.
    auto jump = [this](QTreeWidgetItem *item) {
        const QVariant v = item->data(0, kSliceRole);
        if (v.isValid()) {
            const auto key = v.value<qulonglong>();
            Q_EMIT jumpTo(SliceRef{static_cast<std::int32_t>(key >> 32),
                                   static_cast<std::uint32_t>(key & 0xFFFFFFFFu)});
        }
    };
    connect(this, &QTreeWidget::itemClicked, this, jump);
    connect(this, &QTreeWidget::itemActivated, this, [this, jump](QTreeWidgetItem *item) {
        if (!(QApplication::mouseButtons() & Qt::LeftButton))
            jump(item);
    });
}

void DetailsPanel::setModel(const TraceModel *model)
{
    m_model = model;
    clear();
}

QTreeWidgetItem *DetailsPanel::addField(const QString &field, const QString &value)
{
    auto *item = new QTreeWidgetItem(this, {field, value});
    item->setToolTip(1, value);
    return item;
}

void DetailsPanel::showSlice(SliceRef ref)
{
    clear();
    if (!m_model || !ref.isValid())
        return;
    const ThreadInfo &thread = m_model->threads()[static_cast<std::size_t>(ref.thread)];
    const SliceTable &t = thread.slices;
    const std::uint32_t i = ref.index;
    addField(tr("Name"), m_model->sliceName(ref));
    addField(tr("Category"), m_model->strings().qstring(t.category(i)));
    addField(tr("Start"), formatDuration(t.start(i)));
    addField(tr("Start (absolute µs)"), formatAbsoluteMicros(t.start(i) + m_model->origin()));
    addField(tr("Duration"), formatDuration(t.duration(i)));
    addField(tr("Self time"), formatDuration(m_model->selfTime(ref)));
    addField(tr("Depth"), QString::number(t.depthOf(i)));
    addField(tr("Process"), m_model->processDisplayName(thread.process));
    addField(tr("Thread"), m_model->threadDisplayName(ref.thread));
    const auto args = m_model->sliceArgs(ref);
    auto *argsItem = addField(tr("Args"), tr("%n value(s)", nullptr, static_cast<int>(args.size())));
    for (const auto &[key, value] : args) {
        auto *child = new QTreeWidgetItem(argsItem, {key, value});
        child->setToolTip(1, value);
    }
    argsItem->setExpanded(true);
    addKernelMetrics(ref);
    addFlows(tr("Outgoing flows"), m_model->flowsFrom(ref), true);
    addFlows(tr("Incoming flows"), m_model->flowsTo(ref), false);
}

void DetailsPanel::addKernelMetrics(SliceRef ref)
{
    const KernelTable &table = m_model->kernels();
    const std::int64_t row = table.rowOfSlice(ref.thread, ref.index);
    if (row < 0)
        return;
    const KernelRecord &k = table.rows()[static_cast<std::size_t>(row)];
    const StringPool &strings = m_model->strings();
    auto *kernel = addField(tr("Kernel"), strings.qstring(k.type));
    auto child = [kernel](const QString &key, const QString &value) {
        auto *item = new QTreeWidgetItem(kernel, {key, value});
        item->setToolTip(1, value);
    };
    child(tr("Accelerator core"), strings.qstring(k.acceleratorCore));
    child(tr("Wait time"), formatDuration(k.wait));
    if (k.blockDim != KernelRecord::kNone)
        child(tr("Block dim"), QString::number(k.blockDim));
    child(tr("Input shapes"), strings.qstring(k.inputShapes));
    child(tr("Input data types"), strings.qstring(k.inputTypes));
    kernel->setExpanded(true);
    const QString groupName = table.metricGroupOf(k.group);
    const QString group = groupName.isEmpty() ? tr("not collected") : groupName;
    auto *metrics = addField(tr("AI Core metrics"), group);
    for (std::size_t c = 0; c < table.columns().size(); ++c) {
        const double v = table.metric(static_cast<std::size_t>(row), c);
        if (std::isnan(v))
            continue;
        const KernelMetricColumn &column = table.columns()[c];
        const QString value = column.unit.isEmpty()
                                  ? QString::number(v, 'g', 6)
                                  : QStringLiteral("%1 %2").arg(QString::number(v, 'g', 6), column.unit);
        new QTreeWidgetItem(metrics, {column.header, value});
    }
    metrics->setExpanded(true);
}

void DetailsPanel::addFlows(const QString &title, const std::vector<std::uint32_t> &flows, bool outgoing)
{
    auto *group = addField(title, QString::number(flows.size()));
    for (std::uint32_t f : flows) {
        const FlowInfo &flow = m_model->flows()[f];
        const SliceRef other = outgoing ? flow.to : flow.from;
        QString target = tr("(unbound)");
        if (other.isValid())
            target = QStringLiteral("%1 — %2 @ %3")
                         .arg(m_model->sliceName(other), m_model->threadDisplayName(other.thread),
                              formatDuration(outgoing ? flow.toTime : flow.fromTime));
        auto *item = new QTreeWidgetItem(
            group, {QStringLiteral("%1 %2 [%3]")
                        .arg(outgoing ? QStringLiteral("→") : QStringLiteral("←"),
                             m_model->strings().qstring(flow.category), m_model->strings().qstring(flow.id)),
                    target});
        if (other.isValid())
            item->setData(0, kSliceRole, QVariant::fromValue<qulonglong>(sliceKey(other)));
        item->setToolTip(1, tr("Click to jump"));
    }
    group->setExpanded(true);
}

QString DetailsPanel::fieldValue(const QString &field) const
{
    for (int i = 0; i < topLevelItemCount(); ++i)
        if (topLevelItem(i)->text(0) == field)
            return topLevelItem(i)->text(1);
    return {};
}

QTreeWidgetItem *DetailsPanel::flowItem(int index) const
{
    int seen = 0;
    for (int i = 0; i < topLevelItemCount(); ++i) {
        QTreeWidgetItem *top = topLevelItem(i);
        if (!top->text(0).endsWith(QLatin1String("flows")))
            continue;
        for (int c = 0; c < top->childCount(); ++c)
            if (seen++ == index)
                return top->child(c);
    }
    return nullptr;
}

} // namespace at
