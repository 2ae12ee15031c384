#include "OpDiff.h"

namespace at::diff {

// Stub: the API compiles; the implementation follows.
std::vector<DiffWindow> profilerStepWindows(const TraceModel &)
{
    return {};
}
std::optional<DiffWindow> profilerStepWindow(const TraceModel &, std::int64_t)
{
    return std::nullopt;
}
DiffWindow wholeProfileWindow(const TraceModel &model)
{
    DiffWindow window;
    window.begin = model.dataBegin();
    window.end = model.dataEnd() + 1;
    return window;
}
QString shapesFromArgs(const TraceModel &, SliceRef)
{
    return {};
}
QString normalizedShapes(const QString &)
{
    return {};
}
OpTree buildOpTree(const TraceModel &, const DiffWindow &, const DiffOptions &)
{
    return {};
}
DiffResult diffProfiles(const DiffInput &, const DiffInput &, const DiffOptions &)
{
    return {};
}
std::vector<RowGroup> groupRowsByName(const DiffResult &)
{
    return {};
}
std::vector<RowGroup> groupRowsByModule(const DiffResult &)
{
    return {};
}
std::vector<SliceRef> rowSlices(const DiffResult &, int, bool)
{
    return {};
}
std::vector<std::pair<std::size_t, std::size_t>> alignLevel(const std::vector<std::int32_t> &,
                                                            const std::vector<std::int32_t> &, std::uint64_t)
{
    return {};
}
QString diffJson(const DiffResult &)
{
    return {};
}
QString diffCsv(const DiffResult &)
{
    return {};
}

} // namespace at::diff
