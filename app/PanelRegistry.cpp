#include "PanelRegistry.h"

#include <QCoreApplication>

namespace at {

PanelRegistry::PanelRegistry(QMainWindow *window)
    : m_window(window), m_menu(new QMenu(QCoreApplication::translate("PanelRegistry", "&Panels"), window))
{}

void PanelRegistry::addDock(const char *command, const char *objectName, PanelPlacement placement,
                            QWidget *panel)
{
    auto *dock = new QDockWidget(commandTitle(at::command(command)), m_window);
    dock->setObjectName(QString::fromLatin1(objectName));
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

void PanelRegistry::setModel(const TraceModel *model) const
{
    for (const auto &set : m_setModel)
        set(model);
}

} // namespace at
