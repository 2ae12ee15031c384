#include "MemoryLanes.h"

#include "MemoryAnalysis.h"

#include <algorithm>
#include <numeric>

namespace at {

namespace {

// The lanes of a GPU's curves (a Kineto trace's "CUDA" component, parser/kineto) say GPU, not NPU.
QString gpuMemoryLaneProcessName(std::int64_t device)
{
    return QStringLiteral("Memory (GPU %1)").arg(device);
}

// "Memory" / "Memory modules" process of a (group, device) for the counter lanes.
int laneProcess(TraceBuilder &builder, bool modules, std::int64_t device, bool gpu)
{
    const QString key = QStringLiteral("%1 %2")
                            .arg(modules ? QStringLiteral("Memory modules") : QStringLiteral("Memory"))
                            .arg(device);
    const QByteArray utf8 = key.toUtf8();
    const int process = builder.process(
        LaneKey{device, builder.textKey(std::string_view(utf8.constData(), std::size_t(utf8.size()))).text});
    const QString name = gpu && !modules && device >= 0 ? gpuMemoryLaneProcessName(device)
                                                        : memoryLaneProcessName(modules, device);
    builder.setProcessName(process, builder.strings().intern(name.toStdString()));
    return process;
}

} // namespace

QString memoryLaneProcessName(bool modules, std::int64_t device)
{
    const QString name = modules ? QStringLiteral("Memory modules") : QStringLiteral("Memory");
    return device >= 0 ? QStringLiteral("%1 (NPU %2)").arg(name).arg(device) : name;
}

int memoryLaneProcess(const TraceModel &model, int group, std::int64_t device)
{
    const QString name = memoryLaneProcessName(false, device);
    const QString gpuName = gpuMemoryLaneProcessName(device);
    for (std::size_t p = 0; p < model.processes().size(); ++p) {
        const ProcessInfo &process = model.processes()[p];
        if (process.group != group || process.name == 0)
            continue;
        const QString processName = model.strings().qstring(process.name);
        if (processName == name || (device >= 0 && processName == gpuName))
            return static_cast<int>(p);
    }
    return -1;
}

void sortMemoryCurves(MemoryProfile &profile, std::size_t firstCurve)
{
    for (std::size_t i = firstCurve; i < profile.curves.size(); ++i) {
        MemoryCurve &c = profile.curves[i];
        if (std::is_sorted(c.times.begin(), c.times.end()))
            continue;
        std::vector<std::size_t> order(c.times.size());
        std::iota(order.begin(), order.end(), std::size_t(0));
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t x, std::size_t y) { return c.times[x] < c.times[y]; });
        auto permute = [&](auto &v) {
            std::remove_reference_t<decltype(v)> out;
            out.reserve(v.size());
            for (std::size_t k : order)
                out.push_back(v[k]);
            v = std::move(out);
        };
        permute(c.times);
        permute(c.allocated);
        permute(c.reserved);
        permute(c.active);
    }
}

void addMemoryCounterLanes(TraceBuilder &builder, std::size_t firstCurve)
{
    const MemoryProfile &profile = builder.memory();
    constexpr double kBytesPerMB = 1024.0 * 1024.0;
    const std::pair<MemoryMetric, const char *> metrics[] = {{MemoryMetric::Allocated, "Allocated(MB)"},
                                                             {MemoryMetric::Reserved, "Reserved(MB)"},
                                                             {MemoryMetric::Active, "Active(MB)"}};
    for (std::size_t i = firstCurve; i < profile.curves.size(); ++i) {
        const MemoryCurve &c = profile.curves[i];
        const bool module = c.kind == MemoryCurveKind::Module;
        if (module) {
            const auto peak = peakOf(c, MemoryMetric::Reserved);
            if (!peak || peak->bytes <= 0)
                continue; // 77 modules, most of them never hold memory
        }
        const int process = laneProcess(builder, module, c.device, c.component == QLatin1String("CUDA"));
        const QByteArray component = c.component.toUtf8();
        const StringId name =
            builder.strings().intern(std::string_view(component.constData(), std::size_t(component.size())));
        for (const auto &[metric, label] : metrics) {
            const auto &values = profile.curves[i].values(metric);
            if (!profile.curves[i].hasValues(metric))
                continue;
            const StringId key = builder.strings().intern(label);
            for (std::size_t k = 0; k < values.size(); ++k)
                if (values[k] != kNoBytes)
                    builder.addCounterSample(process, name, key, profile.curves[i].times[k],
                                             static_cast<double>(values[k]) / kBytesPerMB);
        }
    }
}

} // namespace at
