#pragma once

#include "InputReader.h"

namespace at {

// The kernel table of a source (kernel_details.csv, else op_summary_*.csv; a database carries its own) and
// its other summary CSVs as plain tables. Runs after the timeline readers.
class SummaryTablesReader : public InputReader
{
public:
    bool recognises(const DataSource &source) const override;
    // Not counted in the progress: the tables are small next to the timelines.
    std::uint64_t bytesToRead(const DataSource &source) const override;
    ReadStatus read(SourceReading &reading) const override;
};

// The CSV files the kernel table of a source is read from (none for a database).
QStringList kernelTableFiles(const DataSource &source);

} // namespace at
