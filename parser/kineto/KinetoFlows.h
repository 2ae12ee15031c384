#pragma once

#include "TraceBuilder.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace at {

// The flow halves of a Kineto trace, kept until the whole file was read: only a (cat, id) with both a
// start and a finish reaches the builder (FORMATS.md §10.6 rules 1–2). libkineto writes an orphan ac2g
// finish on every runtime call that launches no GPU work and a start without finish where the GPU side
// was not recorded; neither is a broken link, so they are counted, not warned about.
class KinetoFlows
{
public:
    struct Half // 32 bytes (the widest field first): a 200 MB trace holds ~300,000 of them
    {
        TimeNs ts;
        StringId category;
        StringId name;
        StringId id;
        int thread;
        StringId launcher; // starts: the slice the start sits on (cudaLaunchKernel, ...), 0 when unknown
        std::uint8_t phaseValue; // a FlowPhase (an int-sized enum) in one byte
        bool bindEnclosing;
        FlowPhase phase() const { return static_cast<FlowPhase>(phaseValue); }
    };
    static_assert(sizeof(Half) == 32);

    // Makes room for the flows of a trace of this many bytes.
    void reserveFor(std::size_t traceBytes);
    void add(const Half &half) { m_halves.push_back(half); }
    // Hands the paired halves to the builder and says in one line what was bound and what was left out
    // ("3774 ac2g, 543 fwdbwd; 4878 finishes without a start left out …; 88 starts … (84 cudaStreamWaitEvent,
    // …)"), for the collection row "flows".
    QString bind(TraceBuilder &builder);

private:
    std::vector<Half> m_halves;
};

} // namespace at
