#include "OpenDialogs.h"

#include "SessionController.h"

#include <QCoreApplication>
#include <QFileDialog>

namespace at {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("OpenDialogs", text);
}
} // namespace

QString chooseTraceFile(QWidget *parent, const QString &title)
{
    return QFileDialog::getOpenFileName(
        parent, title, QString(), tr("Traces (*.json *.json.zst *.json.gz *.zst *.gz *.db);;All files (*)"));
}

QString chooseResultFolder(QWidget *parent)
{
    return QFileDialog::getExistingDirectory(parent, tr("Open profiling result folder"));
}

QString chooseSessionToOpen(QWidget *parent)
{
    return QFileDialog::getOpenFileName(parent, tr("Open session"), QString(),
                                        tr("Sessions (*.atsession);;All files (*)"));
}

QString chooseSessionToSave(QWidget *parent)
{
    QString path = QFileDialog::getSaveFileName(
        parent, tr("Save session"), QStringLiteral("profile.atsession"), tr("Sessions (*.atsession)"));
    if (!path.isEmpty() && !path.endsWith(QLatin1String(SessionController::kSuffix)))
        path += QLatin1String(SessionController::kSuffix);
    return path;
}

QString chooseImageToSave(QWidget *parent, const QString &suggestedName, const QString &filter)
{
    return QFileDialog::getSaveFileName(parent, tr("Export view"), suggestedName, filter);
}

} // namespace at
