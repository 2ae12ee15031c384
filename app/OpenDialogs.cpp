#include "OpenDialogs.h"

#include "SessionController.h"

#include <QCoreApplication>
#include <QFileDialog>

namespace at {

namespace {
// Gives the file dialogs' texts their own translation context.
struct OpenDialogs
{
    Q_DECLARE_TR_FUNCTIONS(OpenDialogs)
};
} // namespace

QString chooseTraceFile(QWidget *parent, const QString &title)
{
    return QFileDialog::getOpenFileName(
        parent, title, QString(),
        OpenDialogs::tr("Traces (*.json *.json.zst *.json.gz *.zst *.gz *.db);;All files (*)"));
}

QString chooseResultFolder(QWidget *parent)
{
    return QFileDialog::getExistingDirectory(parent, OpenDialogs::tr("Open profiling result folder"));
}

QString chooseSessionToOpen(QWidget *parent)
{
    return QFileDialog::getOpenFileName(parent, OpenDialogs::tr("Open session"), QString(),
                                        OpenDialogs::tr("Sessions (*.atsession);;All files (*)"));
}

QString chooseSessionToSave(QWidget *parent)
{
    QString path = QFileDialog::getSaveFileName(parent, OpenDialogs::tr("Save session"),
                                                QStringLiteral("profile.atsession"),
                                                OpenDialogs::tr("Sessions (*.atsession)"));
    if (!path.isEmpty() && !path.endsWith(QLatin1String(SessionController::kSuffix)))
        path += QLatin1String(SessionController::kSuffix);
    return path;
}

QString chooseImageToSave(QWidget *parent, const QString &suggestedName, const QString &filter)
{
    return QFileDialog::getSaveFileName(parent, OpenDialogs::tr("Export view"), suggestedName, filter);
}

} // namespace at
