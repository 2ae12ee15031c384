#include "OpenDialogs.h"

#include "SessionController.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>

namespace at {

namespace {
// Gives the file dialogs' texts their own translation context.
struct OpenDialogs
{
    Q_DECLARE_TR_FUNCTIONS(OpenDialogs)
};
// Picks a trace file or a profiling result folder: Qt's dialogs take one or the other, and a run
// is as often a folder (kernels, memory, ranks) as one file. Double-clicking a folder still enters
// it; Open (or Enter) with a folder selected or typed opens that folder.
class TraceOrFolderDialog : public QFileDialog
{
public:
    using QFileDialog::QFileDialog;

    void accept() override
    {
        const QStringList chosen = selectedFiles();
        if (chosen.size() == 1 && QFileInfo(chosen.front()).isDir()) {
            // Skips QFileDialog::accept on purpose: it would only enter the folder, not return it.
            QDialog::accept(); // NOLINT(bugprone-parent-virtual-call)
            return;
        }
        QFileDialog::accept();
    }
};

} // namespace

QString chooseTraceFile(QWidget *parent, const QString &title)
{
    TraceOrFolderDialog dialog(
        parent, title, QString(),
        OpenDialogs::tr(
            "Traces and profiling folders (*.json *.json.zst *.json.gz *.zst *.gz *.db);;All files (*)"));
    // The platform dialogs cannot return a folder from a file chooser.
    dialog.setOption(QFileDialog::DontUseNativeDialog);
    dialog.setFileMode(QFileDialog::ExistingFile);
    dialog.setLabelText(QFileDialog::FileName, OpenDialogs::tr("File or folder:"));
    if (dialog.exec() != QDialog::Accepted)
        return {};
    return dialog.selectedFiles().value(0);
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
