#pragma once
// msprof splits big summaries into `<type>_slice_<k>_<timestamp>.csv` (k = 0, 1, ...). Each slice repeats the
// header. These helpers put the slices back together in k order (FORMATS.md §3.1 "Slicing").

#include "csv/CsvReader.h"

#include <QString>
#include <QStringList>

namespace at {

// k of "<type>_slice_<k>_<ts>.csv" (directory part ignored), or -1 when the name is not a slice name.
int csvSliceIndex(const QString &path);

// Stable sort by slice index (numeric, so _slice_10_ follows _slice_9_); non-slice names keep their order
// first.
QStringList sortCsvSlices(QStringList paths);

// Reads every path (in slice order) and concatenates the rows into one table. The header comes from the
// first slice; the repeated headers of later slices are dropped (a differing one is remapped by column name
// and reported). Issues of every slice are kept, each naming its own file.
CsvTable readCsvSlices(const QStringList &paths, const CsvReader &reader = CsvReader());

} // namespace at
