#include "KinetoKernelRows.h"

#include "KinetoGpuEvents.h"
#include "TraceBuilder.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace at::kineto {
namespace {

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

bool contains(std::string_view text, std::string_view part)
{
    return text.find(part) != std::string_view::npos;
}

// The columns, in the order of gpuKernelColumns().
enum Column
{
    Occupancy,
    GridSize,
    BlockSize,
    Registers,
    SharedMemory,
    BlocksPerSm,
    WarpsPerSm,
    SmEfficiency,
    Device,
    Correlation,
    ColumnCount
};

double numberOrNone(std::int64_t value, bool known)
{
    return known ? static_cast<double>(value) : kNoValue;
}

} // namespace

std::string_view kernelTypeOf(std::string_view name)
{
    // hta/utils/utils.py: re.match, so "^x" is a prefix and ".*x" anywhere.
    if (startsWith(name, "nccl") || startsWith(name, "hip") || startsWith(name, "hccl") ||
        contains(name, "ncclKernel"))
        return "COMMUNICATION";
    if (startsWith(name, "Memcpy") || startsWith(name, "hipMemcpy") || startsWith(name, "Memset") ||
        startsWith(name, "hipMemset") || startsWith(name, "dma"))
        return "MEMORY";
    const bool notComputation =
        contains(name, "Memcpy") || contains(name, "Memset") || contains(name, "dma") ||
        contains(name, "Sync") || startsWith(name, "Stream Wait Event") ||
        (startsWith(name, "cuda") && contains(name, "LaunchKernel")) || startsWith(name, "runFunction") ||
        startsWith(name, "job_exe") || startsWith(name, "packet") || startsWith(name, "pe_exe") ||
        startsWith(name, "cpum_exe_subgraph") || startsWith(name, "collective_subgraph_execution");
    return notComputation ? "OTHER" : "COMPUTATION";
}

const std::vector<KernelMetricColumn> &gpuKernelColumns()
{
    // Grid and block as their sizes (blocks in the grid, threads per block), as Nsight Compute's launch
    // statistics show them; the [x, y, z] dimensions stay in the slice's args (the Details dock).
    static const std::vector<KernelMetricColumn> columns{
        // First: the default of the metric charts' scatter (core/KernelQueries defaultScatterColumn).
        {QStringLiteral("est. achieved occupancy(%)"),
         QStringLiteral("est. achieved occupancy"),
         {},
         QStringLiteral("%")},
        {QStringLiteral("grid size"), QStringLiteral("grid size"), {}, {}},
        {QStringLiteral("block size"), QStringLiteral("block size"), {}, {}},
        {QStringLiteral("registers per thread"), QStringLiteral("registers per thread"), {}, {}},
        {QStringLiteral("shared memory(B)"), QStringLiteral("shared memory"), {}, QStringLiteral("B")},
        {QStringLiteral("blocks per SM"), QStringLiteral("blocks per SM"), {}, {}},
        {QStringLiteral("warps per SM"), QStringLiteral("warps per SM"), {}, {}},
        // The TensorBoard plugin's "Est. SM Efficiency" of a kernel (FORMATS.md §10.11): min(blocks per SM,
        // 1). A ratio (0..1, name "_ratio"), so the Kernel metrics chart draws it for the selected kernels.
        {QStringLiteral("est. SM efficiency"), QStringLiteral("sm_efficiency_ratio"), {}, {}},
        {QStringLiteral("device"), QStringLiteral("device"), {}, {}},
        {QStringLiteral("correlation"), QStringLiteral("correlation"), {}, {}},
    };
    return columns;
}

void addKinetoKernelRows(TraceBuilder &builder, int group, const GpuEvents &events)
{
    if (events.kernels.empty())
        return;
    KernelTable &table = builder.kernels();
    std::array<int, ColumnCount> columns{};
    for (std::size_t c = 0; c < ColumnCount; ++c)
        columns[c] = table.addColumn(gpuKernelColumns()[c]);
    table.setMetricGroup(group, QStringLiteral("CUDA launch"));
    StringPool &strings = builder.strings();
    std::unordered_map<StringId, StringId> typeOfName; // names repeat: classify each once
    for (const KernelEvent &k : events.kernels) {
        KernelRecord row;
        row.group = group;
        row.name = k.name;
        row.start = events.baseTime + k.start;
        row.duration = k.duration;
        row.streamId = k.stream;
        auto type = typeOfName.find(k.name);
        if (type == typeOfName.end())
            type = typeOfName.emplace(k.name, strings.intern(kernelTypeOf(strings.view(k.name)))).first;
        row.type = type->second;
        // The HTA class doubles as the core class, so that core/Steps and the Overview count NCCL kernels
        // as communication (they know a communication row by its core: HCCL or COMMUNICATION).
        row.acceleratorCore = type->second;
        const std::size_t r = table.addRow(row);
        const bool hasGrid = k.gridVolume > 0, hasBlock = k.blockVolume > 0;
        const double values[ColumnCount] = {
            k.occupancyPercent,
            numberOrNone(k.gridVolume, hasGrid),
            numberOrNone(k.blockVolume, hasBlock),
            k.registersPerThread,
            k.sharedMemory,
            k.blocksPerSm,
            k.warpsPerSm,
            std::isnan(k.blocksPerSm) ? kNoValue : std::min(k.blocksPerSm, 1.0),
            numberOrNone(k.device, k.device >= 0),
            numberOrNone(k.correlation, k.correlation >= 0),
        };
        for (std::size_t c = 0; c < ColumnCount; ++c)
            table.setMetric(r, columns[c], values[c]);
    }
}

} // namespace at::kineto
