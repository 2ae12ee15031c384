#include "MarkersPanel.h"

#include "Commands.h"
#include "TableExport.h"

#include <QAction>

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace at {

MarkersPanel::MarkersPanel(MarkerList *markers, QWidget *parent)
    : QWidget(parent), m_markers(markers), m_table(new QTableWidget), m_color(new QPushButton),
      m_delete(new QPushButton), m_hint(new QLabel)
{
    addCsvExportAction(m_table, QStringLiteral("markers.csv"));
    m_table->setColumnCount(3);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_hint->setEnabled(false);
    m_hint->setWordWrap(true);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_hint, 1);
    buttons->addWidget(m_color);
    buttons->addWidget(m_delete);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);

    connect(m_markers, &MarkerList::changed, this, &MarkersPanel::refill);
    connect(m_table, &QTableWidget::itemChanged, this, [this](QTableWidgetItem *item) {
        if (!m_filling && item->column() == 0)
            m_markers->rename(item->row(), item->text());
    });
    connect(m_table, &QTableWidget::cellClicked, this, [this](int row, int) { Q_EMIT markerActivated(row); });
    connect(m_color, &QPushButton::clicked, this, [this] {
        const int i = currentMarker();
        if (i < 0)
            return;
        const auto &palette = markerPalette();
        const auto it = std::find(palette.begin(), palette.end(), m_markers->at(i).rgb);
        const std::size_t next =
            it == palette.end() ? 0 : (static_cast<std::size_t>(it - palette.begin()) + 1) % palette.size();
        m_markers->recolor(i, palette[next]);
        m_table->selectRow(i);
    });
    connect(m_delete, &QPushButton::clicked, this, [this] { m_markers->remove(currentMarker()); });
    QAction *del = makeCommandAction("markers.delete", m_table, Qt::WidgetShortcut);
    connect(del, &QAction::triggered, this, [this] { m_markers->remove(currentMarker()); });
    m_table->addAction(del);
    retranslateUi();
}

void MarkersPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void MarkersPanel::retranslateUi()
{
    m_table->setHorizontalHeaderLabels({tr("Marker"), tr("Start"), tr("Length")});
    m_color->setText(tr("Colour"));
    m_color->setToolTip(tr("Next colour for the selected marker"));
    m_delete->setText(tr("Delete"));
    m_hint->setText(tr("m marks the selected slice or range, k drops a flag at the mouse. Double-click a "
                       "name to rename."));
    refill(); // "flag" in the Length column
}

int MarkersPanel::currentMarker() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? -1 : rows.first().row();
}

void MarkersPanel::refill()
{
    m_filling = true;
    const int selected = currentMarker();
    m_table->setRowCount(m_markers->size());
    for (int i = 0; i < m_markers->size(); ++i) {
        const Marker &m = m_markers->at(i);
        auto *name = new QTableWidgetItem(m.name);
        name->setData(Qt::DecorationRole, QColor::fromRgb(m.rgb));
        m_table->setItem(i, 0, name);
        auto *start = new QTableWidgetItem(formatDuration(m.begin));
        start->setFlags(start->flags() & ~Qt::ItemIsEditable);
        m_table->setItem(i, 1, start);
        auto *length = new QTableWidgetItem(m.isFlag() ? tr("flag") : formatDuration(m.end - m.begin));
        length->setFlags(length->flags() & ~Qt::ItemIsEditable);
        m_table->setItem(i, 2, length);
    }
    if (selected >= 0 && selected < m_markers->size())
        m_table->selectRow(selected);
    m_filling = false;
}

} // namespace at
