#pragma once

class QMainWindow;

namespace at {

// The main window's geometry and dock layout as the user left them (QSettings "window/geometry" and
// "window/state"). A restored geometry from another screen (or scale factor) is put back on the
// available screen.
void restoreWindowLayout(QMainWindow &window);
void saveWindowLayout(const QMainWindow &window);

} // namespace at
