#include "TableExport.h"

#include "Commands.h"
#include "TraceQueries.h"

#include <QAbstractItemView>
#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSaveFile>

namespace at {

QByteArray modelToCsv(const QAbstractItemModel &model)
{
    // A cell's kExportTextRole, where the model gives one, keeps the exact value the display rounds.
    auto text = [](const QVariant &exported, const QVariant &shown) {
        return (exported.isValid() ? exported : shown).toString();
    };
    QString out;
    QStringList fields;
    for (int c = 0; c < model.columnCount(); ++c)
        fields << csvField(text(model.headerData(c, Qt::Horizontal, kExportTextRole),
                                model.headerData(c, Qt::Horizontal, Qt::DisplayRole)));
    out += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (int r = 0; r < model.rowCount(); ++r) {
        fields.clear();
        for (int c = 0; c < model.columnCount(); ++c) {
            const QModelIndex index = model.index(r, c);
            fields << csvField(text(index.data(kExportTextRole), index.data(Qt::DisplayRole)));
        }
        out += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out.toUtf8();
}

namespace {

ExportFileWriter &exportFileWriter()
{
    static ExportFileWriter writer;
    return writer;
}

} // namespace

void setExportFileWriter(ExportFileWriter writer)
{
    exportFileWriter() = std::move(writer);
}

bool writeExportFile(const QString &path, QByteArrayView bytes, QString *why)
{
    if (exportFileWriter())
        return exportFileWriter()(path, bytes, why);
    const QFileInfo info(path);
    if (info.exists() && !info.isFile()) {
        *why = QObject::tr("not a regular file");
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes.data(), bytes.size()) != bytes.size() ||
        !file.commit()) {
        *why = file.errorString();
        return false;
    }
    return true;
}

bool writeModelCsv(const QAbstractItemModel &model, const QString &path, QString *error)
{
    QString why;
    if (!writeExportFile(path, modelToCsv(model), &why)) {
        *error = QObject::tr("Could not write %1: %2").arg(path, why);
        return false;
    }
    return true;
}

void addCsvExportAction(QAbstractItemView *view, const QString &suggestedName)
{
    QAction *action = makeCommandAction("table.exportCsv", view, Qt::WidgetShortcut);
    action->setObjectName(QStringLiteral("exportCsv")); // the name callers look the action up by
    QObject::connect(action, &QAction::triggered, view, [view, suggestedName] {
        const QString path = QFileDialog::getSaveFileName(view, QObject::tr("Export table"), suggestedName,
                                                          QObject::tr("CSV files (*.csv)"));
        QString error;
        if (!path.isEmpty() && view->model() && !writeModelCsv(*view->model(), path, &error))
            QMessageBox::warning(view, QObject::tr("Export table"), error);
    });
    view->addAction(action);
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
}

} // namespace at
