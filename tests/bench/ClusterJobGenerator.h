#pragma once
// A large cluster job generated from the real Qwen3 4-rank sample's summary files (issue #32, SCALE): R
// rank folders laid out tp 8 × pp 4 × dp R/32 (Megatron's order: tp fastest, then dp, then pp), each with
// the step_trace_time.csv, communication.json, communication_matrix.json and profiler_metadata.json of the
// sample rank of the same pipeline half and data-parallel parity, perturbed per rank, and two faults:
//  * one slow rank: its computing +60 ms, and the other ranks of its tp and dp groups waiting 60 ms for it
//    in the first collective of each of those groups (communication.json);
//  * one slow link: one src → dst pair of the slow link rank's dp group with its transit time × 3 in
//    communication_matrix.json.
// Op and matrix keys carry the hash (doubleHash) of the generated group the sample's group maps to, so the
// ops land in the right groups. Used by bench_cluster, bench_cluster_page and tst_cluster_scale.

#include <QString>

#include <cstdint>
#include <optional>

namespace at::bench {

struct GeneratedClusterJob
{
    int ranks = 0;
    int tp = 8, pp = 4, dp = 0;
    int slowRank = -1;                      // computing +60 ms
    int slowLinkSrc = -1, slowLinkDst = -1; // global ranks; transit time × 3
    std::int64_t bytes = 0;                 // of the files written
};

// Writes the job under root (rank folders node<N>/rank_<r>_ascend_pt, 8 a node). ranks: a multiple of 32
// (tp 8 × pp 4), at least 64. sampleLevel2: the sample's ".../test/st/level2" folder. Nothing on error
// (*error says what).
std::optional<GeneratedClusterJob> generateClusterJob(const QString &root, int ranks,
                                                      const QString &sampleLevel2, QString *error);

// The Qwen3 sample's level2 folder under a samples folder.
QString qwen3SampleLevel2(const QString &samplesDir);

} // namespace at::bench
