#include "MarkersPanel.h"

#include "NumberFormat.h"

#include "Commands.h"
#include "TableExport.h"

#include <QAction>

#include <QAbstractTableModel>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace at {

// The markers as three columns (name with its colour, start, length): rows are formatted when the view
// asks for them, so the cost of a change does not grow with the number of markers.
class MarkerTableModel : public QAbstractTableModel
{
public:
    explicit MarkerTableModel(MarkerList *markers, QObject *parent)
        : QAbstractTableModel(parent), m_markers(markers), m_rows(markers->size())
    {}

    void setTexts(QStringList headers, QString flag)
    {
        m_headers = std::move(headers);
        m_flag = std::move(flag);
        Q_EMIT headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
        if (rowCount() > 0)
            Q_EMIT dataChanged(index(0, 2), index(rowCount() - 1, 2));
    }
    // After an edit of the list: a rename or recolour keeps the rows (and an open editor, the selection);
    // an added or removed marker resets them. Either way only the visible rows are asked for again.
    void refresh()
    {
        if (m_rows == m_markers->size()) {
            m_unitsValid = false; // an edit may have moved a marker
            if (m_rows > 0)
                Q_EMIT dataChanged(index(0, 0), index(m_rows - 1, columnCount() - 1));
            return;
        }
        beginResetModel();
        m_rows = m_markers->size();
        m_unitsValid = false;
        endResetModel();
    }

    int rowCount(const QModelIndex &parent = {}) const override { return parent.isValid() ? 0 : m_rows; }
    int columnCount(const QModelIndex &parent = {}) const override { return parent.isValid() ? 0 : 3; }

    QVariant data(const QModelIndex &index, int role) const override
    {
        if (!index.isValid() || index.row() >= m_markers->size())
            return {};
        const Marker &m = m_markers->at(index.row());
        if (role == Qt::DecorationRole && index.column() == 0)
            return QColor::fromRgb(m.rgb);
        if (role == Qt::TextAlignmentRole && index.column() > 0)
            return QVariant::fromValue<int>(Qt::AlignRight | Qt::AlignVCenter);
        const bool exported = role == kExportTextRole;
        if (role != Qt::DisplayRole && role != Qt::EditRole && !exported)
            return {};
        switch (index.column()) {
        case 0:
            return exported ? QVariant() : QVariant(m.name);
        case 1:
            // The CSV export keeps its exact text; the table reads in one unit per column.
            return exported ? formatDuration(m.begin) : formatTimePointNs(m.begin, units().start);
        default:
            if (m.isFlag())
                return exported ? QVariant() : QVariant(m_flag);
            return exported ? formatDuration(m.end - m.begin)
                            : formatDurationNs(m.end - m.begin, units().length);
        }
    }

    QVariant headerData(int section, Qt::Orientation orientation, int role) const override
    {
        if (orientation == Qt::Horizontal && role == Qt::DisplayRole && section >= 0 &&
            section < m_headers.size())
            return m_headers[section];
        return QAbstractTableModel::headerData(section, orientation, role);
    }

    Qt::ItemFlags flags(const QModelIndex &index) const override
    {
        const Qt::ItemFlags base = QAbstractTableModel::flags(index);
        return index.column() == 0 ? base | Qt::ItemIsEditable : base;
    }

    bool setData(const QModelIndex &index, const QVariant &value, int role) override
    {
        if (role != Qt::EditRole || index.column() != 0 || index.row() >= m_markers->size())
            return false;
        m_markers->rename(index.row(), value.toString()); // changed() resets the model
        return true;
    }

private:
    struct Units
    {
        DisplayUnit start, length;
    };
    // Picked from every marker the first time a cell is asked for after a change: a burst of edits costs
    // one pass over the list, not one per edit.
    const Units &units() const
    {
        if (!m_unitsValid) {
            TimeNs latest = 0, longest = 0;
            for (int i = 0; i < m_markers->size(); ++i) {
                const Marker &m = m_markers->at(i);
                latest = std::max(latest, std::abs(m.begin));
                longest = std::max(longest, std::abs(m.end - m.begin));
            }
            m_units = {timePointUnitFor(latest), durationUnitFor(longest)};
            m_unitsValid = true;
        }
        return m_units;
    }

    MarkerList *m_markers;
    mutable Units m_units;
    mutable bool m_unitsValid = false;
    int m_rows = 0; // the list's size when the view last saw it
    QStringList m_headers;
    QString m_flag;
};

MarkersPanel::MarkersPanel(MarkerList *markers, QWidget *parent)
    : QWidget(parent), m_markers(markers), m_model(new MarkerTableModel(markers, this)),
      m_table(new QTableView), m_color(new QPushButton), m_delete(new QPushButton), m_hint(new QLabel)
{
    m_table->setModel(m_model);
    addCsvExportAction(m_table, QStringLiteral("markers.csv"));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_table->verticalHeader()->hide();
    // Every row as high as the first: the view never measures a million rows.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
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
    connect(m_table, &QTableView::clicked, this,
            [this](const QModelIndex &index) { Q_EMIT markerActivated(index.row()); });
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
    m_model->setTexts({tr("Marker"), tr("Start"), tr("Length")}, tr("flag"));
    m_color->setText(tr("Colour"));
    m_color->setToolTip(tr("Next colour for the selected marker"));
    m_delete->setText(tr("Delete"));
    m_hint->setText(tr("m marks the selected slice or range, k drops a flag at the mouse. Double-click a "
                       "name to rename."));
}

int MarkersPanel::currentMarker() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? -1 : rows.first().row();
}

void MarkersPanel::refill()
{
    const int selected = currentMarker();
    m_model->refresh();
    if (selected >= 0 && selected < m_markers->size())
        m_table->selectRow(selected);
}

} // namespace at
