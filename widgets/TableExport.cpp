#include "TableExport.h"

#include "Commands.h"
#include "TraceQueries.h"

#include <QAbstractItemView>
#include <QAction>
#include <QFileDialog>
#include <QMessageBox>
#include <QSaveFile>

namespace at {

QByteArray modelToCsv(const QAbstractItemModel &model)
{
    QString out;
    QStringList fields;
    for (int c = 0; c < model.columnCount(); ++c)
        fields << csvField(model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
    out += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (int r = 0; r < model.rowCount(); ++r) {
        fields.clear();
        for (int c = 0; c < model.columnCount(); ++c)
            fields << csvField(model.index(r, c).data(Qt::DisplayRole).toString());
        out += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out.toUtf8();
}

bool writeModelCsv(const QAbstractItemModel &model, const QString &path, QString *error)
{
    const QByteArray csv = modelToCsv(model);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(csv) != csv.size() || !file.commit()) {
        *error = QObject::tr("Could not write %1: %2").arg(path, file.errorString());
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
