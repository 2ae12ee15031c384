#pragma once

#include <QObject>

class QToolBar;

namespace at {

// Hides a tool bar while none of its actions is visible (the View tool bar over a cluster read from its
// summary files: no Overview button on the Overview, no kernel colours without a timeline), so that the
// window shows no empty strip, and shows it again when an action becomes visible. A tool bar the user
// closed (its context menu) stays closed.
class ToolBarAutoHide : public QObject
{
    Q_OBJECT
public:
    explicit ToolBarAutoHide(QToolBar *toolbar);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void update();

    QToolBar *m_toolbar;
    bool m_closedByUser = false;
    bool m_updating = false;
};

} // namespace at
