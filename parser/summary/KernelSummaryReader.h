#pragma once

#include "TraceBuilder.h"
#include "csv/CsvMetrics.h"
#include "csv/CsvReader.h"
#include "csv/CsvSlices.h"

#include <QStringList>

#include <atomic>
#include <vector>

namespace at {

// The kernel table's rows made kernel records block by block while its files are read (readKernelSummary,
// and the kernel-row timeline, which draws its slices from the same blocks in the same pass): a block's CSV
// rows are dropped once converted, so memory holds the records and one block, never the whole parsed table
// next to them (issue 21). The records, columns and warnings are those of reading the table whole.
class KernelTableBlocks
{
public:
    // Rows per block: the CSV reader's stop check, so a stop still keeps a multiple of it.
    static constexpr std::size_t kBlockRows = CsvOptions::kStopCheckRows;

    // `files` as given (the first names the table in warnings); they are read in slice order.
    KernelTableBlocks(const QStringList &files, int group, TraceBuilder &builder);
    // A block of the current file's rows, as CsvReader::readFileInBlocks hands it.
    void add(const CsvTable &fileBlock);
    // Ends the current file: what reading it returned (its header, source and issues).
    void endFile(const CsvTable &rest);
    // Adds the warnings: every file's CSV issues, a table without Name / Start Time, rows without a start.
    // Returns the records added.
    std::size_t finish();
    // Whether a stop ended reading a file early.
    bool stopped() const;
    // The header of the first file as given, once read (empty when it could not be): the configuration
    // reader takes it (CollectionInputs::summaryHeader) instead of opening the file again.
    const QStringList &firstFileHeader() const { return m_firstHeader; }

private:
    void setUp(const CsvTable &joined); // columns of the joined header, once
    void convert(const CsvTable &rows);

    QString m_name;
    QString m_firstFile;
    QStringList m_firstHeader;
    int m_group;
    TraceBuilder &m_builder;
    CsvSliceJoin m_join;
    bool m_setUp = false;
    bool m_kernelTable = false;
    int m_nameCol = -1, m_startCol = -1, m_typeCol = -1, m_coreCol = -1, m_durCol = -1, m_waitCol = -1,
        m_streamCol = -1, m_taskCol = -1, m_contextCol = -1, m_blockCol = -1, m_shapesCol = -1,
        m_typesCol = -1, m_stepCol = -1, m_opStateCol = -1, m_mixBlockCol = -1;
    MetricLayout m_layout;
    std::vector<int> m_metricIndex;
    std::size_t m_badTimes = 0;
    std::size_t m_read = 0;
};

// Reads the per-kernel summary table of one source (kernel_details.csv, or op_summary_*.csv with
// its slices) into the builder's KernelTable for a group. Columns are found by header name (with
// the renames of FORMATS.md §3.10), every column after Context ID / Output Formats is a metric.
// Problems are added to the builder's warnings, naming the file. Returns the rows read.
// `stop` (LoadControl::stopReading) ends reading the table early; the rows before are kept (issue 21) and
// *stopped (when given) says so.
// *firstHeader (when given) gets KernelTableBlocks::firstFileHeader().
std::size_t readKernelSummary(const QStringList &files, int group, TraceBuilder &builder,
                              const std::atomic<bool> *stop = nullptr, bool *stopped = nullptr,
                              QStringList *firstHeader = nullptr);

} // namespace at

namespace at {

// The summary CSV types shown as plain tables (FORMATS.md §3.4–3.8), in display order.
QStringList plainSummaryTypes();

// Reads one summary CSV (with its slices) as text into the builder; problems become warnings
// naming the file. Returns the rows read. `stop` and `stopped` as for readKernelSummary.
std::size_t readSummaryTable(const QString &type, const QStringList &files, int group, TraceBuilder &builder,
                             const std::atomic<bool> *stop = nullptr, bool *stopped = nullptr);

} // namespace at
