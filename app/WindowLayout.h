#pragma once

#include <QSize>

class QMainWindow;

namespace at {

class PanelRegistry;

// The main window's geometry and dock layout as the user left them (QSettings "window/geometry" and
// "window/state"). A restored geometry from another screen (or scale factor) is put back on the
// available screen. restoreWindowLayout returns whether a dock layout was restored.
bool restoreWindowLayout(QMainWindow &window);
void saveWindowLayout(const QMainWindow &window);

// The default layout (no saved one): the room each dock area gets at a window size. The bottom area holds
// the Charts, Memory and Kernels docks, which need the height to be read (a chart's axes and legend, a
// table of more than a few rows); the side area the Details and Collection text. The timeline keeps the
// larger share. Part of this is the areas' caps when the window shrinks (kSideShare, kBottomShare).
struct DefaultDockSizes
{
    int sideWidth = 0;
    int bottomHeight = 0;
};
inline constexpr double kSideShare = 0.3, kBottomShare = 0.45;
DefaultDockSizes defaultDockSizes(QSize window);
// Gives the docks their default sizes for the window's current size.
void applyDefaultDockSizes(QMainWindow &window, const PanelRegistry &panels);

} // namespace at
