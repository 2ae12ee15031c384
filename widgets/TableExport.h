#pragma once

#include <QByteArray>
#include <QString>

class QAbstractItemModel;
class QAbstractItemView;

namespace at {

// Any table of the GUI as CSV: the header and every row as shown (display text, in the view's
// current sort order when given the view's model), fields quoted as needed.
QByteArray modelToCsv(const QAbstractItemModel &model);
// Writes modelToCsv() atomically; false with *error naming the file and the reason.
bool writeModelCsv(const QAbstractItemModel &model, const QString &path, QString *error);
// Adds "Export Table as CSV…" to the view's context menu (a file dialog, then writeModelCsv).
void addCsvExportAction(QAbstractItemView *view, const QString &suggestedName);

} // namespace at
