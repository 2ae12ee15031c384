#pragma once

#include "MarkerList.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace at {

class MarkerTableModel;

// The Markers dock: every marker with its start and length; click to jump, edit the name in place,
// change the colour, delete (button or Delete key). The table is a view of the MarkerList (a model, not
// one item per cell): a session with 1,000,000 markers is shown at once, as only the visible rows are
// ever formatted.
class MarkersPanel : public QWidget
{
    Q_OBJECT
public:
    explicit MarkersPanel(MarkerList *markers, QWidget *parent = nullptr);
    QTableView *table() const { return m_table; }
    QPushButton *colorButton() const { return m_color; }
    QPushButton *deleteButton() const { return m_delete; }
    int currentMarker() const;

Q_SIGNALS:
    void markerActivated(int marker);

protected:
    // QEvent::LanguageChange: headers, buttons and hint in the new language.
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi(); // every fixed text; the constructor sets them through it too
    void refill();        // after every edit of the list: the rows again, the selected row kept

    MarkerList *m_markers;
    MarkerTableModel *m_model;
    QTableView *m_table;
    QPushButton *m_color;
    QPushButton *m_delete;
    QLabel *m_hint;
};

} // namespace at
