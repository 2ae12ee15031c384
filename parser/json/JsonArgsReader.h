#pragma once

#include "ReopenableArgsReader.h"
#include "TraceModel.h"
#include "common/MappedFile.h"

#include <QTemporaryFile>

#include <memory>

namespace at {

// Re-reads the args of one event from the memory-mapped trace file, given the event's byte
// offset. This keeps args (call stacks, shapes: often most of a trace's bytes) out of the model.
class JsonArgsReader : public ReopenableArgsReader
{
public:
    // The reader owns the mapping, and the temporary file for decompressed input.
    JsonArgsReader(std::unique_ptr<MappedFile> file, std::unique_ptr<QTemporaryFile> temporary);
    ~JsonArgsReader() override;

    std::vector<std::pair<QString, QString>> readArgs(std::uint64_t offset) const override;
    std::optional<TaskIds> taskIds(std::uint64_t offset) const override;
    std::uint8_t snapshotKind() const override { return snapshot_args_kind::kJson; }
    const MappedFile &file() const { return *m_file; }

private:
    std::unique_ptr<QTemporaryFile> m_temporary; // destroyed after the mapping
    std::unique_ptr<MappedFile> m_file;
};

} // namespace at
