#pragma once

#include "kineto/KinetoGpuEvents.h"
#include "kineto/KinetoMetadata.h"
#include "json/ChromeTraceParser.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace at {

// The rules of a PyTorch profiler (Kineto) GPU trace (FORMATS.md §10) on top of the generic Chrome-trace
// reading: times made absolute with baseTimeNanoseconds (also when the key follows the events); lanes
// named for what they are (the CPU process from its Python name and pid, GPU processes "GPU n" from
// process_labels and only when they have events, "stream n" lanes with NCCL streams marked, each
// stream's gpu_user_annotation spans on a lane of their own); flows kept only when both halves exist
// (orphan ac2g finishes on runtime calls are no broken links, §10.6), so the builder binds each ac2g
// finish to the GPU activity starting exactly there and each fwdbwd end to the op starting there; the
// trace's distributedInfo and deviceProperties as collection rows; the GPU kernel rows and `[memory]`
// curves from the args of the kernel, cpu_op and [memory] events, read as their chunk is merged (the
// file is read once).
class KinetoTrace : public EventDialect
{
public:
    // The rules for this file when it is a Kineto trace (looksLikeKinetoTrace), else null.
    static std::unique_ptr<KinetoTrace> recognise(const char *data, std::size_t size, TraceBuilder &builder,
                                                  int group, const QString &file);
    ~KinetoTrace() override;

    // On the parse's worker threads: the chunk's kernel and `[memory]` args read from its text
    // (kineto::prepareGpuEvents), so that the merge on the loading thread only appends them.
    std::unique_ptr<PreparedChunk> newPreparedChunk() const override;
    void prepare(const jsonkernel::ChunkResult &chunk, const ChunkText &text,
                 PreparedChunk &out) const override;
    void merge(const jsonkernel::ChunkResult &chunk, const std::vector<StringId> &globalIds,
               std::uint32_t sourceIndex, const ChunkText &text, const PreparedChunk *prepared) override;
    // After the last chunk: reads the keys after the event array (eventArrayEnd: ChromeTraceParser's,
    // 0 when unknown), merges the chunks kept until the time base was known, names the lanes, hands the
    // bound flows to the builder, writes the collection rows and says what was left out.
    void finish(const char *data, std::size_t size, std::size_t eventArrayEnd);
    // After finish(), once the load was not stopped: adds the kernel rows and the memory profile of the
    // events gathered during the merge (kineto::addKinetoGpuData); the file is not read again.
    void addGpuData();

    const KinetoMetadata &metadata() const { return m_metadata; }
    // What every relative ts was shifted by (baseTimeNanoseconds, else 0).
    std::int64_t timeOffsetNs() const { return m_offset; }

    // The layout text of a source read as a Kineto trace (SourceGroup::layout).
    static QString layoutText();

private:
    KinetoTrace(TraceBuilder &builder, int group, QString file, KinetoMetadata metadata);
    struct Impl;
    std::unique_ptr<Impl> d;
    KinetoMetadata m_metadata;
    std::int64_t m_offset = 0;
    kineto::GpuEventCollector m_gpuEvents;
};

} // namespace at
