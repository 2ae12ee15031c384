#pragma once

// Helpers for tests of the application windows (link at_app).

#include "CompareWindow.h"

#include <QApplication>
#include <QPointer>

namespace at::test {

// Deletes every open compare window. Their menus are top-level widgets too, so the windows are
// collected first and deleted afterwards.
inline void closeCompareWindows()
{
    QList<QPointer<CompareWindow>> compares;
    for (QWidget *w : QApplication::topLevelWidgets())
        if (auto *c = qobject_cast<CompareWindow *>(w))
            compares << c;
    for (const auto &c : compares)
        delete c.data();
}

} // namespace at::test
