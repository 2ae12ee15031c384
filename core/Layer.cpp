#include "Layer.h"
#include "LayerWording.h"

#include <array>
#include <utility>

namespace at {
namespace {

struct NameToLayer
{
    std::string_view name;
    Layer layer;
};

// Legacy and current names (FORMATS.md §2.6). Counter-only processes are listed so that they
// group with counters even before their samples are seen.
constexpr std::array kKnownNames{
    NameToLayer{"MsprofTx", Layer::Framework},
    NameToLayer{"PTA", Layer::Framework},
    NameToLayer{"Python", Layer::Framework},
    NameToLayer{"Python GC", Layer::Framework},
    NameToLayer{"AscendCL", Layer::CannApi},
    NameToLayer{"CANN", Layer::CannApi},
    NameToLayer{"GE", Layer::CannApi},
    NameToLayer{"GeOPExecute", Layer::CannApi},
    NameToLayer{"Runtime", Layer::CannApi},
    NameToLayer{"Api", Layer::CannApi},
    NameToLayer{"Event", Layer::CannApi},
    NameToLayer{"AI Stack Time", Layer::CannApi},
    NameToLayer{"OS Runtime API", Layer::CannApi},
    NameToLayer{"Task Scheduler", Layer::DeviceStreams},
    NameToLayer{"Ascend Hardware", Layer::DeviceStreams},
    NameToLayer{"Subtask Time", Layer::DeviceStreams},
    NameToLayer{"Thread Task Time", Layer::DeviceStreams},
    NameToLayer{"ACSQ", Layer::DeviceStreams},
    NameToLayer{"Fusion Task", Layer::DeviceStreams},
    NameToLayer{"Block Detail", Layer::DeviceStreams},
    NameToLayer{"AI CPU", Layer::AiCpu},
    NameToLayer{"Step Trace", Layer::StepTrace},
    NameToLayer{"Training Trace", Layer::StepTrace},
    NameToLayer{"HCCL", Layer::Communication},
    NameToLayer{"Communication", Layer::Communication},
    NameToLayer{"All Reduce", Layer::Communication},
    NameToLayer{"Overlap Analysis", Layer::OverlapAnalysis},
    NameToLayer{"AI Core Freq", Layer::Counters},
    NameToLayer{"AI Core Utilization", Layer::Counters},
    NameToLayer{"HBM", Layer::Counters},
    NameToLayer{"LLC", Layer::Counters},
    NameToLayer{"NPU MEM", Layer::Counters},
    NameToLayer{"DDR", Layer::Counters},
    NameToLayer{"QoS", Layer::Counters},
    NameToLayer{"Acc PMU", Layer::Counters},
    NameToLayer{"Stars Soc Info", Layer::Counters},
    NameToLayer{"Stars Chip Trans", Layer::Counters},
    NameToLayer{"HCCS", Layer::Counters},
    NameToLayer{"NIC", Layer::Counters},
    NameToLayer{"RoCE", Layer::Counters},
    NameToLayer{"PCIe", Layer::Counters},
    NameToLayer{"Pcie", Layer::Counters},
    NameToLayer{"SIO", Layer::Counters},
    NameToLayer{"Voltage Info", Layer::Counters},
    NameToLayer{"CCU", Layer::Counters},
    NameToLayer{"Biu Perf", Layer::Counters},
    NameToLayer{"Ub", Layer::Counters},
    NameToLayer{"DPU", Layer::Counters},
    NameToLayer{"CPU Usage", Layer::Counters},
    NameToLayer{"Memory Usage", Layer::Counters},
    NameToLayer{"Disk Usage", Layer::Counters},
    NameToLayer{"Network Usage", Layer::Counters},
    NameToLayer{"Low Power", Layer::Counters},
};

} // namespace

namespace {

// The process names the Kineto reader gives (parser/kineto, FORMATS.md §10.3): "GPU <n>" for a device
// (kernels, memcpy, memset per stream) and "CPU · <python process> (pid <n>)" for the host process
// (Python functions, framework ops, user annotations, CUDA runtime calls).
Layer kinetoLayer(std::string_view processName)
{
    constexpr std::string_view gpu = "GPU ", cpu = "CPU · ";
    if (processName.starts_with(gpu) && processName.size() > gpu.size() &&
        processName.find_first_not_of("0123456789", gpu.size()) == std::string_view::npos)
        return Layer::DeviceStreams;
    if (processName.starts_with(cpu))
        return Layer::Framework;
    return Layer::Other;
}

} // namespace

Layer layerFromProcessName(std::string_view processName)
{
    for (const auto &entry : kKnownNames)
        if (entry.name == processName)
            return entry.layer;
    return kinetoLayer(processName);
}

QString layerDisplayName(Layer layer)
{
    switch (layer) {
    case Layer::Framework:
        return QStringLiteral("Framework (MsprofTx / Python)");
    case Layer::CannApi:
        return QStringLiteral("CANN API (AscendCL)");
    case Layer::DeviceStreams:
        return QStringLiteral("Device tasks (Task Scheduler / Ascend Hardware)");
    case Layer::AiCpu:
        return QStringLiteral("AI CPU");
    case Layer::StepTrace:
        return QStringLiteral("Step trace");
    case Layer::Communication:
        return QStringLiteral("Communication (HCCL)");
    case Layer::OverlapAnalysis:
        return QStringLiteral("Overlap analysis");
    case Layer::Counters:
        return QStringLiteral("Counters");
    case Layer::Other:
        break;
    }
    return QStringLiteral("Other");
}

QString kinetoLayoutText()
{
    return QStringLiteral("PyTorch profiler GPU trace (Kineto)");
}

QString layerDisplayName(Layer layer, const QString &sourceLayout)
{
    if (sourceLayout != kinetoLayoutText())
        return layerDisplayName(layer);
    switch (layer) {
    case Layer::Framework:
        return QStringLiteral("Host (Python, framework ops, CUDA runtime)");
    case Layer::DeviceStreams:
        return QStringLiteral("GPU kernels (CUDA)");
    case Layer::Communication:
        return QStringLiteral("Communication (NCCL)");
    default:
        return layerDisplayName(layer);
    }
}

int layerRank(Layer layer)
{
    return static_cast<int>(layer);
}

} // namespace at
