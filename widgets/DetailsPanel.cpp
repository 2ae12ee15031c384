#include "DetailsPanel.h"

#include "KernelTablePanel.h"
#include "NumberFormat.h"

#include <QApplication>
#include <QEvent>
#include <QHeaderView>
#include <QPainter>
#include <QResizeEvent>
#include <QStyledItemDelegate>

#include <cmath>

namespace at {

namespace {
constexpr int kSliceRole = Qt::UserRole + 1;
constexpr int kFlowsRole = Qt::UserRole + 2; // on the "Outgoing flows" / "Incoming flows" items

// "no value" markers profilers write into id fields (UINT32_MAX, UINT64_MAX).
bool isSentinel(const QString &value)
{
    return value == QLatin1String("4294967295") || value == QLatin1String("18446744073709551615");
}
constexpr int kTextMargin = 4; // left and right of a cell's text

// Rows as tall as their text needs at their column's width (QTreeView asks the delegate for a row's height
// without telling it the column width, so wrapped text would keep one line). Text wraps between words
// (DetailsPanel::wrappedLines), so "aic_icache_miss_rate" never reads "aic_icache_miss_rat / e".
class WrappingDelegate : public QStyledItemDelegate
{
public:
    explicit WrappingDelegate(QTreeView *view) : QStyledItemDelegate(view), m_view(view) {}
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QSize size = QStyledItemDelegate::sizeHint(option, index);
        const int width = textWidth(index);
        if (width <= 0)
            return size;
        const QStringList lines =
            DetailsPanel::wrappedLines(index.data(Qt::DisplayRole).toString(), option.fontMetrics, width);
        size.setHeight(
            std::max(size.height(), static_cast<int>(lines.size()) * option.fontMetrics.lineSpacing() + 2));
        return size;
    }
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QStyleOptionViewItem item = option;
        initStyleOption(&item, index);
        const QString text = item.text;
        item.text.clear();
        QStyle *style = item.widget ? item.widget->style() : QApplication::style();
        style->drawControl(QStyle::CE_ItemViewItem, &item, painter, item.widget);
        painter->save();
        painter->setPen(item.palette.color(item.state & QStyle::State_Selected ? QPalette::HighlightedText
                                                                               : QPalette::Text));
        painter->setFont(item.font);
        const QRect area = item.rect.adjusted(kTextMargin, 1, -kTextMargin, -1);
        const QFontMetrics metrics(item.font);
        const QStringList lines = DetailsPanel::wrappedLines(text, metrics, area.width());
        const int height = static_cast<int>(lines.size()) * metrics.lineSpacing();
        int y = area.top() + std::max(0, (area.height() - height) / 2);
        for (const QString &line : lines) {
            painter->drawText(QRect(area.left(), y, area.width(), metrics.lineSpacing()),
                              Qt::AlignLeft | Qt::AlignVCenter, line);
            y += metrics.lineSpacing();
        }
        painter->restore();
    }

private:
    // The width the text of this cell gets: its column less the tree's indentation (names column) and
    // margins.
    int textWidth(const QModelIndex &index) const
    {
        int indent = 0;
        if (index.column() == 0)
            for (QModelIndex parent = index.parent();; parent = parent.parent()) {
                indent += m_view->indentation();
                if (!parent.isValid())
                    break;
            }
        return m_view->header()->sectionSize(index.column()) - indent - 2 * kTextMargin;
    }

    QTreeView *m_view;
};

// Where a line may break besides spaces: after the separators of identifiers and paths ("aic_icache_",
// "ops/", "a.b", "1,2;"), so a long name breaks between its parts.
bool breaksAfter(QChar c)
{
    static const QString separators = QStringLiteral("_/\\.,;:-)]}>|=");
    return separators.contains(c);
}
} // namespace

QStringList DetailsPanel::wrappedLines(const QString &text, const QFontMetrics &metrics, int width)
{
    QStringList lines;
    for (const QString &paragraph : text.split(QLatin1Char('\n'))) {
        // Break opportunities: after a space or a separator. A piece wider than the line on its own (a
        // name of one word) is the only thing ever broken inside, at the last character that fits.
        QStringList pieces;
        qsizetype start = 0;
        for (qsizetype i = 0; i < paragraph.size(); ++i)
            if (paragraph[i].isSpace() || breaksAfter(paragraph[i])) {
                pieces << paragraph.mid(start, i + 1 - start);
                start = i + 1;
            }
        if (start < paragraph.size() || pieces.isEmpty())
            pieces << paragraph.mid(start);
        QString line;
        for (QString piece : pieces) {
            if (!line.isEmpty() && metrics.horizontalAdvance(line + piece.trimmed()) > width) {
                lines << line.trimmed();
                line.clear();
            }
            while (line.isEmpty() && width > 0 && piece.size() > 1 &&
                   metrics.horizontalAdvance(piece.trimmed()) > width) {
                qsizetype fits = 1;
                while (fits < piece.size() && metrics.horizontalAdvance(piece.left(fits + 1)) <= width)
                    ++fits;
                // Inside a word, break before a capital that starts a new part of a camelCase name
                // ("MaxPool2dWith|MaskBackward"), when one lies in the second half of what fits.
                for (qsizetype k = fits; k > fits / 2 && k < piece.size(); --k)
                    if (piece[k].isUpper() && (piece[k - 1].isLower() || piece[k - 1].isDigit())) {
                        fits = k;
                        break;
                    }
                lines << piece.left(fits);
                piece.remove(0, fits);
            }
            line += piece;
        }
        lines << line.trimmed();
    }
    return lines;
}

QString DetailsPanel::displayValue(const QString &raw)
{
    return isSentinel(raw) ? tr("n/a") : raw;
}

DetailsPanel::DetailsPanel(QWidget *parent) : QTreeWidget(parent)
{
    setColumnCount(2);
    retranslateUi();
    setRootIsDecorated(true);
    // Long values (kernel names, absolute timestamps, shapes) wrap instead of being cut at the dock's
    // width; the field column fits its names, the value column takes the rest.
    setUniformRowHeights(false);
    setWordWrap(true);
    setTextElideMode(Qt::ElideNone);
    setItemDelegate(new WrappingDelegate(this));
    header()->setStretchLastSection(true);
    header()->setSectionResizeMode(0, QHeaderView::Interactive);
    // Wrapped rows change height with their column: lay the items out again when it changes.
    connect(header(), &QHeaderView::sectionResized, this, [this] { scheduleDelayedItemsLayout(); });
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
    connect(this, &QTreeWidget::itemActivated, this, [jump](QTreeWidgetItem *item) {
        if (!(QApplication::mouseButtons() & Qt::LeftButton))
            jump(item);
    });
}

void DetailsPanel::setModel(const TraceModel *model)
{
    m_model = model;
    m_shown = {};
    clear();
}

void DetailsPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QTreeWidget::changeEvent(event);
}

void DetailsPanel::retranslateUi()
{
    setHeaderLabels({tr("Field"), tr("Value")});
    if (m_shown.isValid()) // the field names (and "n/a", "Click to jump") are made in showSlice
        showSlice(m_shown);
}

QTreeWidgetItem *DetailsPanel::addField(const QString &field, const QString &value)
{
    auto *item = new QTreeWidgetItem(this, {field, value});
    item->setToolTip(1, value);
    return item;
}

QTreeWidgetItem *DetailsPanel::addChild(QTreeWidgetItem *parent, const QString &field, const QString &raw)
{
    const QString value = displayValue(raw);
    auto *item = new QTreeWidgetItem(parent, {field, value});
    item->setToolTip(1, value == raw ? raw : tr("%1 (the profiler's \"no value\" marker)").arg(raw));
    return item;
}

void DetailsPanel::showSlice(SliceRef ref)
{
    clear();
    m_shown = m_model ? ref : SliceRef{};
    if (!m_model || !ref.isValid())
        return;
    const ThreadInfo &thread = m_model->threads()[static_cast<std::size_t>(ref.thread)];
    const SliceTable &t = thread.slices;
    const std::uint32_t i = ref.index;
    addField(tr("Name"), m_model->sliceName(ref));
    addField(tr("Category"), m_model->strings().qstring(t.category(i)));
    addField(tr("Start"), formatTimePointNs(t.start(i)));
    addField(tr("Start (absolute µs)"), formatAbsoluteMicros(t.start(i) + m_model->origin()));
    addField(tr("Duration"), formatDurationNs(t.duration(i)));
    addField(tr("Self time"), formatDurationNs(m_model->selfTime(ref)));
    addField(tr("Depth"), formatCount(t.depthOf(i)));
    addField(tr("Process"), m_model->processDisplayName(thread.process));
    addField(tr("Thread"), m_model->threadDisplayName(ref.thread));
    const auto args = m_model->sliceArgs(ref);
    auto *argsItem = addField(tr("Args"), tr("%n value(s)", nullptr, static_cast<int>(args.size())));
    for (const auto &[key, value] : args)
        addChild(argsItem, key, value);
    argsItem->setExpanded(true);
    addKernelMetrics(ref);
    addFlows(tr("Outgoing flows"), m_model->flowsFrom(ref), true);
    addFlows(tr("Incoming flows"), m_model->flowsTo(ref), false);
    fitFieldColumn();
}

void DetailsPanel::fitFieldColumn()
{
    // The names column fits its names but leaves the values at least 55 % of the width.
    const int available = viewport()->width();
    header()->resizeSection(0, std::min(sizeHintForColumn(0), available * 45 / 100));
}

void DetailsPanel::resizeEvent(QResizeEvent *event)
{
    QTreeWidget::resizeEvent(event);
    fitFieldColumn();
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
    auto child = [this, kernel](const QString &key, const QString &value) { addChild(kernel, key, value); };
    child(tr("Accelerator core"), strings.qstring(k.acceleratorCore));
    child(tr("Wait time"), formatDurationNs(k.wait));
    if (k.blockDim != KernelRecord::kNone)
        child(tr("Block dim"), formatCount(k.blockDim));
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
        // The unit goes with the value ("12.500 µs"), not in the name ("aicore_time(us)"); the Kernels
        // table's header is the same name.
        addChild(metrics, KernelTableModel::metricTitle(column), formatNumber(v, column.unit));
    }
    metrics->setExpanded(true);
}

void DetailsPanel::addFlows(const QString &title, const std::vector<std::uint32_t> &flows, bool outgoing)
{
    auto *group = addField(title, formatCount(static_cast<qint64>(flows.size())));
    group->setData(0, kFlowsRole, true);
    for (std::uint32_t f : flows) {
        const FlowInfo &flow = m_model->flows()[f];
        const SliceRef other = outgoing ? flow.to : flow.from;
        QString target = tr("(unbound)");
        if (other.isValid())
            target = QStringLiteral("%1 — %2 @ %3")
                         .arg(m_model->sliceName(other), m_model->threadDisplayName(other.thread),
                              formatTimePointNs(outgoing ? flow.toTime : flow.fromTime));
        // The id (often 20 digits) goes with the value, so the names column stays narrow.
        target += QStringLiteral(" · ") + tr("id %1").arg(m_model->strings().qstring(flow.id));
        auto *item = new QTreeWidgetItem(
            group, {QStringLiteral("%1 %2").arg(outgoing ? QStringLiteral("→") : QStringLiteral("←"),
                                                m_model->strings().qstring(flow.category)),
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
        if (!top->data(0, kFlowsRole).toBool())
            continue;
        for (int c = 0; c < top->childCount(); ++c)
            if (seen++ == index)
                return top->child(c);
    }
    return nullptr;
}

} // namespace at
