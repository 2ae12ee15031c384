#pragma once

#include <QString>

#include <string_view>

namespace at {

// The viewer's canonical layer groups, top to bottom. Process names differ by generation
// (MsprofTx/Python, AscendCL/CANN, Task Scheduler/Ascend Hardware, ...); all map onto these.
enum class Layer
{
    Framework,       // MsprofTx, PTA, Python, Python GC
    CannApi,         // AscendCL, GE, GeOPExecute, Runtime, Api, Event, CANN, AI Stack Time
    DeviceStreams,   // Task Scheduler, Ascend Hardware, Subtask Time, ACSQ
    AiCpu,           // legacy AI CPU layer
    StepTrace,       // Step Trace, Training Trace
    Communication,   // HCCL, Communication, All Reduce
    OverlapAnalysis, // Overlap Analysis
    Counters,        // AI Core Freq, HBM, LLC, NPU MEM, ... (counter-only processes)
    Other            // anything not recognised
};

Layer layerFromProcessName(std::string_view processName);
// "Framework (Python)", "CANN API", ... shown in group headers.
QString layerDisplayName(Layer layer);
// Rank used to order groups: lower is higher on screen.
int layerRank(Layer layer);

} // namespace at
