#pragma once

#include "ReopenableArgsReader.h"
#include "TraceModel.h"
#include "common/MappedFile.h"

#include <QStringList>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

namespace at {

// Re-reads the args of a slice drawn from a CSV row (KernelRowTimelineReader) from the memory-mapped file,
// given the row's byte offset: the header names paired with the row's cells, so the model keeps no cell
// text. Its task ids (Task ID, Context ID) break the kernel join's ties like the JSON reader's do.
class CsvRowArgsReader : public ReopenableArgsReader
{
public:
    explicit CsvRowArgsReader(std::unique_ptr<MappedFile> file);
    // Maps `path`; a file that cannot be mapped (gone, replaced by a folder) gives no args.
    static std::shared_ptr<CsvRowArgsReader> open(const QString &path);

    std::vector<std::pair<QString, QString>> readArgs(std::uint64_t offset) const override;
    std::optional<TaskIds> taskIds(std::uint64_t offset) const override;
    std::uint8_t snapshotKind() const override { return snapshot_args_kind::kKernelRows; }
    const QString &path() const { return m_path; }

private:
    const QStringList &header() const; // read once, on first use
    void noteRecordRead() const;       // gives the mapped pages back now and then
    static constexpr std::uint32_t kReadsPerRelease = 256;

    QString m_path;
    std::unique_ptr<MappedFile> m_file;
    mutable std::once_flag m_headerRead;
    mutable QStringList m_header;
    mutable std::atomic<std::uint32_t> m_reads{0};
};

} // namespace at
