#include "CollectionPanel.h"

#include "NumberFormat.h"

#include <algorithm>

#include <QEvent>
#include <QHeaderView>
#include <QRegularExpression>

namespace at {

namespace {

// A configuration value that is a plain number ("1150", "49.000000") reads as every number of the window
// (thousands separators, at most three decimals, no float artefacts); identifiers (rank, device) and any
// other text stay as the files wrote them.
QString collectionValueText(const QString &key, const QString &value)
{
    static const QRegularExpression number(QStringLiteral("^-?\\d+(\\.\\d+)?$"));
    if (key == QLatin1String("rank") || key == QLatin1String("device") || !number.match(value).hasMatch())
        return value;
    bool ok = false;
    const double v = value.toDouble(&ok);
    return ok ? formatNumber(v) : value;
}

} // namespace

CollectionPanel::CollectionPanel(QWidget *parent) : QTreeWidget(parent)
{
    setColumnCount(2);
    // A side dock is about 250 px wide: the item names take at most half of it and the values the rest,
    // both elided in the middle (paths keep their file name) with the whole text in their tooltips, so
    // that nothing scrolls sideways out of sight.
    header()->setSectionResizeMode(0, QHeaderView::Interactive);
    header()->setStretchLastSection(true);
    header()->setMinimumSectionSize(40);
    setTextElideMode(Qt::ElideMiddle);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setUniformRowHeights(true);
    retranslateUi();
}

void CollectionPanel::fitColumns()
{
    const int names = sizeHintForColumn(0); // with the items' indentation
    setColumnWidth(0, std::max(40, std::min(names, viewport()->width() / 2)));
}

void CollectionPanel::resizeEvent(QResizeEvent *event)
{
    QTreeWidget::resizeEvent(event);
    fitColumns();
}

void CollectionPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QTreeWidget::changeEvent(event);
}

void CollectionPanel::retranslateUi()
{
    setHeaderLabels({tr("Item"), tr("Value")});
    if (m_model) // the item names are made in setModel
        setModel(m_model);
}

void CollectionPanel::setModel(const TraceModel *model)
{
    m_model = model;
    clear();
    if (!model)
        return;
    for (const SourceGroup &group : model->groups()) {
        auto *top =
            new QTreeWidgetItem(this, {group.label.isEmpty() ? tr("Trace file") : group.label, group.layout});
        top->setToolTip(0, top->text(0));
        top->setToolTip(1, group.layout);
        auto add = [](QTreeWidgetItem *parent, const QString &key, const QString &value) {
            auto *item = new QTreeWidgetItem(parent, {key, value});
            item->setToolTip(0, key);
            item->setToolTip(1, value);
            return item;
        };
        add(top, tr("Path"), group.path);
        for (const QString &f : group.timelineFiles)
            add(top, tr("Timeline file"), f);
        for (const QString &f : group.summaryFiles)
            add(top, tr("Kernel table"), f);
        const CollectionInfo &c = group.collection;
        QString metricGroup = c.metricGroup;
        if (metricGroup.isEmpty() && !group.summaryFiles.isEmpty())
            metricGroup = model->kernels().metricGroupOf(static_cast<int>(&group - model->groups().data()));
        auto *metrics =
            add(top, tr("AI Core metric group"), metricGroup.isEmpty() ? tr("none collected") : metricGroup);
        for (const QString &m : c.metrics)
            add(metrics, m, QString());
        if (!c.profilerLevel.isEmpty())
            add(top, tr("Profiler level"), c.profilerLevel);
        if (!c.switchesOn.isEmpty())
            add(top, tr("Switches on"), c.switchesOn.join(QStringLiteral(", ")));
        if (!c.switchesOff.isEmpty())
            add(top, tr("Switches off"), c.switchesOff.join(QStringLiteral(", ")));
        for (const auto &[key, value] : c.properties + provenanceRows(group.provenance))
            add(top, key, collectionValueText(key, value));
        for (const QString &w : c.warnings) {
            auto *item = add(top, tr("Warning"), w);
            item->setForeground(1, QColor(180, 90, 0));
        }
        for (const QString &f : c.files)
            add(top, tr("Configuration file"), f);
        top->setExpanded(true);
    }
    fitColumns();
}

QString CollectionPanel::text() const
{
    QStringList lines;
    std::function<void(QTreeWidgetItem *, int)> walk = [&](QTreeWidgetItem *item, int depth) {
        lines << QString(qsizetype(depth) * 2, QLatin1Char(' ')) + item->text(0) + QStringLiteral(": ") +
                     item->text(1);
        for (int i = 0; i < item->childCount(); ++i)
            walk(item->child(i), depth + 1);
    };
    for (int i = 0; i < topLevelItemCount(); ++i)
        walk(topLevelItem(i), 0);
    return lines.join(QLatin1Char('\n'));
}

} // namespace at
