// `--memory PATH [--json]`: per device and component the peaks (value and first time) and the operator
// allocations live at the device's overall peak (FORMATS.md §9.5; docs/MEMORY.md).

#include "CommandLine.h"
#include "ExactText.h"
#include "JsonWriter.h"
#include "MemoryAnalysis.h"
#include "TraceModel.h"

#include <QTextStream>

namespace at {

namespace {

// The JSON is written by hand: QJsonDocument writes numbers through a double, and absolute µs
// (1736408883573957.92) need 18 digits. MB, KB and µs are exact decimals of the bytes and ns.
QString jsonString(const QString &text)
{
    return JsonWriter::quoted(text);
}

QString peakMegabytes(const std::optional<MemoryPeak> &peak)
{
    return peak ? bytesAsMegabytes(peak->bytes) : QStringLiteral("null");
}

QString deviceJson(const TraceModel &model, const DeviceMemory &d)
{
    const MemoryProfile &profile = model.memory();
    QStringList components;
    for (const ComponentPeaks &p : d.components)
        components << QStringLiteral(
                          "        {\"name\": %1, \"peak_reserved_mb\": %2, \"peak_allocated_mb\": %3, "
                          "\"peak_time_us\": %4}")
                          .arg(jsonString(curveLabel(profile.curves[p.curve])), peakMegabytes(p.reserved),
                               peakMegabytes(p.allocated), microsText(model.origin() + p.time()));
    QStringList live;
    for (std::size_t i : d.liveAtPeak) {
        const MemoryAllocation &a = profile.allocations[i];
        live << QStringLiteral("        {\"name\": %1, \"size_kb\": %2, \"allocation_time_us\": %3}")
                    .arg(jsonString(model.strings().qstring(a.name)), bytesAsKilobytes(a.bytes),
                         microsText(model.origin() + a.allocation));
    }
    const QString label = model.groups()[static_cast<std::size_t>(d.group)].label;
    auto list = [](const QStringList &items) {
        return items.isEmpty()
                   ? QStringLiteral("[]")
                   : QStringLiteral("[\n") + items.join(QStringLiteral(",\n")) + QStringLiteral("\n      ]");
    };
    return QStringLiteral(
               "    {\n      \"device\": %1,\n%2      \"components\": %3,\n      \"live_at_peak\": %4\n    }")
        .arg(QString::number(d.device),
             label.isEmpty() ? QString() : QStringLiteral("      \"source\": %1,\n").arg(jsonString(label)),
             list(components), list(live));
}

QString megabytesText(const std::optional<MemoryPeak> &peak)
{
    return peak ? bytesAsMegabytes(peak->bytes) + QStringLiteral(" MB") : QStringLiteral("-");
}

void printText(QTextStream &out, const TraceModel &model, const std::vector<DeviceMemory> &devices)
{
    const MemoryProfile &profile = model.memory();
    constexpr std::size_t kTopLive = 10;
    for (const DeviceMemory &d : devices) {
        const QString label = model.groups()[static_cast<std::size_t>(d.group)].label;
        out << "Device " << d.device << (label.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(label))
            << "\n";
        for (const ComponentPeaks &p : d.components)
            out << "  " << curveLabel(profile.curves[p.curve]) << ": peak reserved "
                << megabytesText(p.reserved) << ", peak allocated " << megabytesText(p.allocated) << " at "
                << microsText(model.origin() + p.time()) << " us\n";
        if (!d.overallPeak)
            continue;
        out << "  Live at the " << profile.curves[static_cast<std::size_t>(d.overall)].component
            << " allocated peak (" << bytesAsMegabytes(d.overallPeak->bytes) << " MB at "
            << microsText(model.origin() + d.overallPeak->time) << " us): " << d.liveAtPeak.size()
            << " allocations\n";
        for (std::size_t k = 0; k < d.liveAtPeak.size() && k < kTopLive; ++k) {
            const MemoryAllocation &a = profile.allocations[d.liveAtPeak[k]];
            out << "    " << bytesAsKilobytes(a.bytes) << " KB  " << model.strings().qstring(a.name)
                << "  allocated at " << microsText(model.origin() + a.allocation) << " us"
                << (a.released() ? QString() : QStringLiteral("  (not released in the profile)")) << "\n";
        }
    }
}

} // namespace

int runMemory(const CommandLineOptions &options)
{
    QTextStream err(stderr);
    QTextStream out(stdout);
    if (options.paths.size() != 1) {
        err << "ascend-timeline: --memory needs exactly one PATH\n";
        return 2;
    }
    const std::unique_ptr<TraceModel> model = loadForCommand(options.paths.front(), options, err);
    if (!model)
        return 1;
    for (const QString &warning : model->warnings())
        err << "warning: " << warning << "\n";
    const std::vector<DeviceMemory> devices = deviceMemory(model->memory());
    const std::vector<StaticGraphMemory> graphs = staticGraphMemory(*model);
    if (devices.empty() && graphs.empty())
        err << "ascend-timeline: " << options.paths.front()
            << " has no memory data (memory_record.csv, operator_memory.csv, npu_module_mem.csv or the "
               "database's MEMORY_RECORD / OP_MEMORY tables; profile with profile_memory=True)\n";
    if (options.json) {
        QStringList items;
        for (const DeviceMemory &d : devices)
            items << deviceJson(*model, d);
        out << "{\n  \"devices\": ["
            << (items.isEmpty()
                    ? QString()
                    : QStringLiteral("\n") + items.join(QStringLiteral(",\n")) + QStringLiteral("\n  "))
            << "]";
        if (!graphs.empty()) {
            QStringList g;
            for (const StaticGraphMemory &graph : graphs)
                g << QStringLiteral("    {\"device\": %1, \"model\": %2, \"graph\": %3, \"ops\": %4, "
                                    "\"peak_mb\": %5, \"peak_node\": %6, \"total_mb\": %7}")
                         .arg(QString::number(graph.device), jsonString(graph.model), jsonString(graph.graph),
                              QString::number(graph.ops), bytesAsMegabytes(graph.peakBytes),
                              QString::number(graph.peakNode),
                              graph.totalBytes == kNoBytes ? QStringLiteral("null")
                                                           : bytesAsMegabytes(graph.totalBytes));
            out << ",\n  \"static_graphs\": [\n" << g.join(QStringLiteral(",\n")) << "\n  ]";
        }
        out << "\n}\n";
    } else {
        printText(out, *model, devices);
        for (const StaticGraphMemory &graph : graphs)
            out << "Static graph " << graph.graph << " (model " << graph.model << ", device " << graph.device
                << "): " << graph.ops << " operators, peak " << bytesAsMegabytes(graph.peakBytes)
                << " MB at node index " << graph.peakNode
                << (graph.totalBytes == kNoBytes
                        ? QString()
                        : QStringLiteral(", TOTAL %1 MB").arg(bytesAsMegabytes(graph.totalBytes)))
                << "\n";
    }
    out.flush();
    return devices.empty() && graphs.empty() ? 1 : 0;
}

} // namespace at
