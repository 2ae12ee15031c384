#pragma once

// Field-by-field comparison of two TraceModels of the same profile, shared by the suites that check a
// model built another way against a reference (tst_snapshot: a snapshot reopen against the cold load;
// tst_rank_merge: ranks loaded one by one and merged against one load of them all). Failures are
// reported through QtTest (QCOMPARE / QFAIL), so call it from a test function and return when
// QTest::currentTestFailed() is set afterwards.

#include "TraceModel.h"

#include <QStringList>

#include <cstddef>
#include <functional>

namespace at::test {

struct ModelComparison
{
    // SameIndices: the second model is a copy of the first (a snapshot reopen): string ids, process,
    // thread, slice, flow and kernel row indices must all match too.
    // ByPlace: the two were built independently (a merge against one load): lanes are walked in display
    // order, slices and flows are named by where they are (group, pid, tid, row) and strings by text.
    enum class Identity
    {
        SameIndices,
        ByPlace
    };
    Identity identity = Identity::SameIndices;
    // SameIndices: the args of this many slices (the first ones) are re-read from both models and
    // compared. ByPlace: the args of each lane's first slice.
    std::size_t maxArgs = 100000;
    // Compares the warnings; empty: they must be equal.
    std::function<void(const QStringList &a, const QStringList &b)> compareWarnings;
};

// Compares b against the reference a.
void compareModels(const TraceModel &a, const TraceModel &b, const ModelComparison &how);

} // namespace at::test
