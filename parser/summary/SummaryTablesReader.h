#pragma once

#include "folder/ProfileLayout.h"

#include <QStringList>

namespace at {

// The CSV files the kernel table of a source is read from (none for a database).
QStringList kernelTableFiles(const DataSource &source);

} // namespace at
