#include "ToolBarAutoHide.h"

#include <QAction>
#include <QEvent>
#include <QToolBar>

namespace at {

ToolBarAutoHide::ToolBarAutoHide(QToolBar *toolbar) : QObject(toolbar), m_toolbar(toolbar)
{
    toolbar->installEventFilter(this);
    // The tool bar's own show/hide entry (the main window's context menu) is the user's choice.
    connect(toolbar->toggleViewAction(), &QAction::triggered, this, [this](bool shown) {
        m_closedByUser = !shown;
        update();
    });
    update();
}

bool ToolBarAutoHide::eventFilter(QObject *watched, QEvent *event)
{
    switch (event->type()) {
    case QEvent::ActionAdded:
    case QEvent::ActionChanged: // also a change of an action's visibility
    case QEvent::ActionRemoved:
        update();
        break;
    default:
        break;
    }
    return QObject::eventFilter(watched, event);
}

void ToolBarAutoHide::update()
{
    if (m_updating)
        return;
    m_updating = true;
    bool anyVisible = false;
    for (const QAction *action : m_toolbar->actions())
        anyVisible = anyVisible || (action->isVisible() && !action->isSeparator());
    m_toolbar->setVisible(anyVisible && !m_closedByUser);
    m_updating = false;
}

} // namespace at
