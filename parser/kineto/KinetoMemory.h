#pragma once

// The memory profile of a PyTorch GPU trace recorded with profile_memory=True (issue 30; FORMATS.md §10.4):
// the allocator's `[memory]` instants become, per CUDA device, a "CUDA" component curve of Total Allocated
// and Total Reserved (one sample per event) and operator allocations (an allocation paired with the
// release of the same address and size), each named after the innermost `cpu_op` enclosing it on its
// thread, as torch_npu's memory_record / operator_memory are read (docs/MEMORY.md). CPU allocator events
// (Device Type 0) are left out: the Memory dock, its lanes and --memory are about device memory.

#include <QString>

#include <cstddef>
#include <cstdint>

namespace at {

class TraceBuilder;

namespace kineto {

struct GpuEvents;

inline constexpr std::int64_t kCudaDeviceType = 1; // c10::DeviceType::CUDA
// The component name of the curves (the device's overall curve, core/MemoryAnalysis).
QString cudaMemoryComponent();

struct KinetoMemoryCounts
{
    std::size_t curves = 0;
    std::size_t allocations = 0; // allocations with or without their release
    std::size_t paired = 0;      // of which released inside the trace
    std::size_t releasesOnly = 0;
    std::size_t hostEventsLeftOut = 0; // CPU (and other non-CUDA) allocator events
};

// Adds the curves, allocations and their counter lanes to the builder's memory profile for source group
// `group`; times become absolute (plus baseTimeNanoseconds).
KinetoMemoryCounts addKinetoMemory(TraceBuilder &builder, int group, const GpuEvents &events);

} // namespace kineto
} // namespace at
