#include "PanelRegistry.h"

#include <QCoreApplication>

namespace at {

PanelRegistry::PanelRegistry(QMainWindow *window)
    : m_window(window), m_menu(new QMenu(QCoreApplication::translate("PanelRegistry", "P&anels"), window))
{}

void PanelRegistry::addDock(const char *command, const char *objectName, PanelPlacement placement,
                            QWidget *panel)
{
    auto *dock = new QDockWidget(commandTitle(at::command(command)), m_window);
    dock->setObjectName(QString::fromLatin1(objectName));
    // Without an explicit minimum a panel's layout (e.g. the Kernels filter row) would set the
    // window's minimum size.
    panel->setMinimumSize(placement.minimum);
    dock->setWidget(panel);
    m_window->addDockWidget(placement.area, dock);
    for (std::size_t i = m_docks.size(); i-- > 0;) {
        if (m_placements[i].area == placement.area) {
            m_window->tabifyDockWidget(m_docks[i], dock);
            break;
        }
    }
    QAction *toggle = dock->toggleViewAction();
    toggle->setObjectName(QString::fromLatin1(command));
    toggle->setToolTip(QCoreApplication::translate("Commands", at::command(command).help));
    m_menu->addAction(toggle);
    m_docks.push_back(dock);
    m_placements.push_back(placement);
    m_commands.push_back(command);
}

void PanelRegistry::retranslate() const
{
    m_menu->setTitle(QCoreApplication::translate("PanelRegistry", "P&anels"));
    for (std::size_t i = 0; i < m_docks.size(); ++i) {
        const Command &c = at::command(m_commands[i]);
        m_docks[i]->setWindowTitle(commandTitle(c)); // the toggle action follows the title
        m_docks[i]->toggleViewAction()->setToolTip(QCoreApplication::translate("Commands", c.help));
    }
}

void PanelRegistry::finish()
{
    for (std::size_t i = 0; i < m_docks.size(); ++i) {
        bool first = true;
        for (std::size_t j = 0; j < i; ++j)
            first = first && m_placements[j].area != m_placements[i].area;
        if (!first)
            continue;
        m_docks[i]->raise();
        const bool side =
            m_placements[i].area == Qt::LeftDockWidgetArea || m_placements[i].area == Qt::RightDockWidgetArea;
        if (m_placements[i].areaSize > 0)
            m_window->resizeDocks({m_docks[i]}, {m_placements[i].areaSize},
                                  side ? Qt::Horizontal : Qt::Vertical);
    }
}

void PanelRegistry::limitAreaShares(double sideShare, double bottomShare) const
{
    for (const Qt::DockWidgetArea area :
         {Qt::LeftDockWidgetArea, Qt::RightDockWidgetArea, Qt::BottomDockWidgetArea}) {
        const bool side = area != Qt::BottomDockWidgetArea;
        QDockWidget *widest = nullptr;
        for (QDockWidget *dock : m_docks) {
            if (dock->isFloating() || !dock->isVisible() || m_window->dockWidgetArea(dock) != area)
                continue;
            if (!widest || (side ? dock->width() > widest->width() : dock->height() > widest->height()))
                widest = dock;
        }
        if (!widest)
            continue;
        const int limit =
            static_cast<int>(side ? sideShare * m_window->width() : bottomShare * m_window->height());
        if ((side ? widest->width() : widest->height()) > limit)
            m_window->resizeDocks({widest}, {limit}, side ? Qt::Horizontal : Qt::Vertical);
    }
}

QStringList PanelRegistry::ids() const
{
    QStringList ids;
    for (const char *command : m_commands)
        ids << QString::fromLatin1(command).section(QLatin1Char('.'), 1);
    return ids;
}

QDockWidget *PanelRegistry::dock(const QString &id) const
{
    const qsizetype i = ids().indexOf(id);
    return i < 0 ? nullptr : m_docks[static_cast<std::size_t>(i)];
}

void PanelRegistry::resizeAreas(int sideWidth, int bottomHeight) const
{
    for (const Qt::DockWidgetArea area :
         {Qt::LeftDockWidgetArea, Qt::RightDockWidgetArea, Qt::BottomDockWidgetArea}) {
        const bool side = area != Qt::BottomDockWidgetArea;
        const int size = side ? sideWidth : bottomHeight;
        for (QDockWidget *dock : m_docks) {
            if (size <= 0 || dock->isFloating() || dock->isHidden() || m_window->dockWidgetArea(dock) != area)
                continue;
            m_window->resizeDocks({dock}, {size}, side ? Qt::Horizontal : Qt::Vertical);
            break; // the docks of an area are tabbed: one resize sizes the area
        }
    }
}

void PanelRegistry::raise(const QWidget *panel) const
{
    for (QDockWidget *dock : m_docks)
        if (dock->widget() == panel && dock->isVisible())
            dock->raise();
}

void PanelRegistry::setModel(const TraceModel *model) const
{
    for (const auto &set : m_setModel)
        set(model);
}

} // namespace at
