#pragma once

#include "MarkerList.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace at {

// The Markers dock: every marker with its start and length; click to jump, edit the name in place,
// change the colour, delete (button or Delete key).
class MarkersPanel : public QWidget
{
    Q_OBJECT
public:
    explicit MarkersPanel(MarkerList *markers, QWidget *parent = nullptr);
    QTableWidget *table() const { return m_table; }
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
    void refill();

    MarkerList *m_markers;
    QTableWidget *m_table;
    QPushButton *m_color;
    QPushButton *m_delete;
    QLabel *m_hint;
    bool m_filling = false;
};

} // namespace at
