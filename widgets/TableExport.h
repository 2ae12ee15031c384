#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <QtCore/qnamespace.h>

#include <functional>

class QAbstractItemModel;
class QAbstractItemView;

namespace at {

// The text a cell (or a horizontal header) exports as, when it differs from the one shown: the window shows
// numbers rounded in their column's unit (NumberFormat.h), the CSV keeps the exact value it always wrote.
inline constexpr int kExportTextRole = Qt::UserRole + 64;

// Any table of the GUI as CSV: the header and every row as shown (display text, in the view's
// current sort order when given the view's model), fields quoted as needed.
QByteArray modelToCsv(const QAbstractItemModel &model);
// Writes modelToCsv() atomically; false with *error naming the file and the reason.
bool writeModelCsv(const QAbstractItemModel &model, const QString &path, QString *error);
// How the GUI's exports write a file: by default a check that the path is missing or a regular file,
// then QSaveFile; app/ installs parser/common/OutputPath's writeOutputFile (which never follows a
// symlink or replaces a device) at start, since widgets cannot depend on the parser. False with *why.
using ExportFileWriter = std::function<bool(const QString &path, QByteArrayView bytes, QString *why)>;
void setExportFileWriter(ExportFileWriter writer);
bool writeExportFile(const QString &path, QByteArrayView bytes, QString *why);
// Adds "Export Table as CSV…" to the view's context menu (a file dialog, then writeModelCsv).
void addCsvExportAction(QAbstractItemView *view, const QString &suggestedName);

} // namespace at
