#pragma once

#include "TestPaths.h"
#include "TraceLoader.h"
#include "TraceQueries.h"

#include <QString>
#include <QTest>

namespace at::test {

// Real samples are read in place from ../shared/samples next to the checkout.
inline QString samplePath(const QString &relative)
{
    return (at::test::samplesDir() + QStringLiteral("/")) + relative;
}

inline QString level1Rank0Trace()
{
    return samplePath(
        QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt/"
                       "ASCEND_PROFILER_OUTPUT/trace_view.json"));
}

// The torch_npu database of the same alexnet run as level1Rank0Trace's folder (db/ instead of text/).
inline QString level1Rank0Database()
{
    return samplePath(
        QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/db/level1/rank0_ascend_pt/"
                       "ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db"));
}

inline std::unique_ptr<TraceModel> loadOrFail(const QString &path)
{
    LoadControl control;
    LoadResult result = loadTrace(path, at::environmentLoadOptions(), control);
    if (!result.model)
        qWarning("load of %s failed: %s", qPrintable(path), qPrintable(result.error));
    return std::move(result.model);
}

// The single slice with this exact name (fails the test if not exactly one).
inline SliceRef uniqueSlice(const TraceModel &model, const QString &name)
{
    SliceRef found;
    int hits = 0;
    for (const SliceRef &ref : searchSlices(model, name, {true})) {
        if (model.sliceName(ref) == name) {
            found = ref;
            ++hits;
        }
    }
    if (hits != 1)
        qWarning("expected exactly one slice named %s, found %d", qPrintable(name), hits);
    return hits == 1 ? found : SliceRef{};
}

} // namespace at::test
