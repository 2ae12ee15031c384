#include "WindowLayout.h"

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

void restoreWindowLayout(QMainWindow &window)
{
    QSettings settings;
    if (window.restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        fitOnScreen(window);
    window.restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

void saveWindowLayout(const QMainWindow &window)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), window.saveGeometry());
    settings.setValue(QStringLiteral("window/state"), window.saveState());
}

} // namespace at
