#include "WindowLayout.h"

#include "PanelRegistry.h"

#include <QMainWindow>
#include <QScreen>
#include <QSettings>

#include <algorithm>

namespace at {

namespace {
void fitOnScreen(QMainWindow &w)
{
    const QScreen *s = w.screen();
    if (!s)
        return;
    const QRect available = s->availableGeometry();
    w.resize(std::min(w.width(), available.width()), std::min(w.height(), available.height()));
    w.move(
        std::clamp(w.x(), available.left(), std::max(available.left(), available.right() + 1 - w.width())),
        std::clamp(w.y(), available.top(), std::max(available.top(), available.bottom() + 1 - w.height())));
}
} // namespace

bool restoreWindowLayout(QMainWindow &window)
{
    QSettings settings;
    if (window.restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        fitOnScreen(window);
    return window.restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

DefaultDockSizes defaultDockSizes(QSize window)
{
    // Bottom: 42 % of the height, at least 300 px (the dock's title and tabs take about 50 of them; the rest
    // holds a chart's axes, legend and title, or about ten table rows) and at most 440 px; side: 28 % of the
    // width, 240 to 420 px. Both stay under the shares the window caps them at (MainWindow::resizeEvent), so
    // a default layout is never cut back at once.
    constexpr int kMinBottom = 300, kMaxBottom = 440, kMinSide = 240, kMaxSide = 420;
    const int bottom = std::clamp(static_cast<int>(window.height() * 0.42), kMinBottom, kMaxBottom);
    const int side = std::clamp(static_cast<int>(window.width() * 0.28), kMinSide, kMaxSide);
    return {std::min(side, static_cast<int>(window.width() * kSideShare)),
            std::min(bottom, static_cast<int>(window.height() * kBottomShare))};
}

void applyDefaultDockSizes(QMainWindow &window, const PanelRegistry &panels)
{
    const DefaultDockSizes sizes = defaultDockSizes(window.size());
    panels.resizeAreas(sizes.sideWidth, sizes.bottomHeight);
}

void saveWindowLayout(const QMainWindow &window)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), window.saveGeometry());
    settings.setValue(QStringLiteral("window/state"), window.saveState());
}

} // namespace at
