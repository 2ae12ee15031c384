#pragma once
// A synthetic two-rank timeline for the tests of ranks aligned with offsets (docs/CLUSTER.md): both ranks
// have the same process and lane ("Stream 1", pid 7 / tid 1), times in µs of each rank's own clock.
//   rank 0: anchor [0, 10], k0 [120, 140], op [200, 210], op [300, 310]
//   rank 1: early [100, 150], op [350, 360], late [400, 460], op [700, 710]

#include "TraceBuilder.h"

#include <memory>

namespace at::test {

inline constexpr TimeNs kTwoRankBase = 1'736'408'883'573'887'920;

inline std::unique_ptr<TraceModel> twoRankModel()
{
    TraceBuilder b;
    auto name = [&b](const char *s) { return b.strings().intern(s); };
    const auto add = [&](int lane, TimeNs startUs, TimeNs durationUs, const char *n) {
        b.addSlice(lane, kTwoRankBase + startUs * 1000, durationUs * 1000, name(n), 0, kNoSource);
    };
    for (int rank = 0; rank < 2; ++rank) {
        SourceGroup group;
        group.label = QStringLiteral("Rank %1").arg(rank);
        b.addGroup(group);
        const int lane = b.thread(b.numberKey(7), b.numberKey(1));
        b.setThreadName(lane, name("Stream 1"));
        b.setProcessName(b.process(b.numberKey(7)), name("Ascend Hardware"));
        if (rank == 0) {
            add(lane, 0, 10, "anchor");
            add(lane, 120, 20, "k0");
            add(lane, 200, 10, "op");
            add(lane, 300, 10, "op");
        } else {
            add(lane, 100, 50, "early");
            add(lane, 350, 10, "op");
            add(lane, 400, 60, "late");
            add(lane, 700, 10, "op");
        }
    }
    return b.build();
}

// The slice named n starting at startUs (model time) on the first lane of group, else an invalid ref.
inline SliceRef twoRankSlice(const TraceModel &model, int group, const char *n, TimeNs startUs)
{
    for (std::size_t t = 0; t < model.threads().size(); ++t) {
        const ThreadInfo &thread = model.threads()[t];
        if (model.processes()[static_cast<std::size_t>(thread.process)].group != group)
            continue;
        for (std::uint32_t i = 0; i < thread.slices.size(); ++i)
            if (thread.slices.start(i) == startUs * 1000 &&
                model.sliceName({static_cast<int>(t), i}) == QLatin1String(n))
                return {static_cast<int>(t), i};
    }
    return {};
}

} // namespace at::test
