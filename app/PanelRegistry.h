#pragma once

#include "Commands.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>

#include <functional>
#include <vector>

namespace at {

class TraceModel;

// The smallest a panel gets: its content is clipped below this (the window can still shrink).
inline constexpr QSize kMinimumPanelSize{160, 80};

// Where a dock starts: its area (docks of one area are tabbed together, the first one raised), the size
// the area gets (width on the sides, height at the bottom; the window's default layout may give more,
// WindowLayout.h) and the smallest size its panel is drawn at (a chart asks for the room it needs to be
// read: below it the dock area does not shrink).
struct PanelPlacement
{
    Qt::DockWidgetArea area;
    int areaSize = 0;
    QSize minimum = kMinimumPanelSize;
};

// The docks of the main window. A panel is one registration: its command (id, title and the
// View ▸ Panels toggle, from Commands.h), the dock's object name (saved window layouts use it), its
// placement, its widget, and what it listens to (connected by the caller's wiring function). Every
// panel with setModel(const TraceModel *) gets each model the window shows.
class PanelRegistry
{
public:
    explicit PanelRegistry(QMainWindow *window);

    template <class Panel>
    Panel *add(const char *command, const char *objectName, PanelPlacement placement, Panel *panel,
               const std::function<void(Panel *)> &listen = {})
    {
        addDock(command, objectName, placement, panel);
        if constexpr (requires(const TraceModel *m) { panel->setModel(m); })
            m_setModel.push_back([panel](const TraceModel *m) { panel->setModel(m); });
        if (listen)
            listen(panel);
        return panel;
    }
    // The registered panel of this type (typed access instead of looking widgets up by name), else null.
    template <class Panel> Panel *panel() const
    {
        for (QDockWidget *dock : m_docks)
            if (auto *p = dynamic_cast<Panel *>(dock->widget()))
                return p;
        return nullptr;
    }
    // Raises the first dock of every area and gives the areas their sizes (after the last add).
    void finish();
    void setModel(const TraceModel *model) const;
    // Caps each dock area to a share of the window (sides: of its width, bottom: of its height), so the
    // timeline in the middle keeps the space when the window shrinks.
    void limitAreaShares(double sideShare, double bottomShare) const;
    // Brings the dock of a registered panel to the front of its tab group (when it is shown).
    void raise(const QWidget *panel) const;
    // The panel ids: the command id without "panel." ("details", "kernels", "charts", …), in registration
    // order; --screenshot --dock takes them.
    QStringList ids() const;
    // The dock of a panel id, else null.
    QDockWidget *dock(const QString &id) const;
    // Gives each dock area its size: the side areas' width and the bottom area's height (0: unchanged).
    void resizeAreas(int sideWidth, int bottomHeight) const;
    // View ▸ Panels: one toggle per dock.
    QMenu *menu() const { return m_menu; }
    const std::vector<QDockWidget *> &docks() const { return m_docks; }
    // Dock titles, their View ▸ Panels toggles and the menu title again in the current language.
    void retranslate() const;

private:
    void addDock(const char *command, const char *objectName, PanelPlacement placement, QWidget *panel);

    QMainWindow *m_window;
    QMenu *m_menu;
    std::vector<QDockWidget *> m_docks;
    std::vector<PanelPlacement> m_placements;
    std::vector<const char *> m_commands; // per dock
    std::vector<std::function<void(const TraceModel *)>> m_setModel;
};

} // namespace at
