#pragma once

#include <QString>

class QWidget;

namespace at {

// The file dialogs of the window, one of each (start page, File menu and session commands share
// them). Each returns an empty string when the user cancels.
// A trace file or a profiling result folder (Open, Open in New Window).
QString chooseTraceFile(QWidget *parent, const QString &title);
QString chooseResultFolder(QWidget *parent);
QString chooseSessionToOpen(QWidget *parent);
// Appends the session suffix when the user left it out.
QString chooseSessionToSave(QWidget *parent);
QString chooseImageToSave(QWidget *parent, const QString &suggestedName, const QString &filter);

} // namespace at
