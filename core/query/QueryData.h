#pragma once
// What the virtual tables read (internal to core/query): the model, the cluster data, the dense slice ids
// and the derived tables computed on first use (the Overview's steps, ranks and findings; the cluster's
// communication op rows). Everything else is read from the model in place.

#include "TraceModel.h"
#include "cluster/ClusterModel.h"
#include "cluster/CommunicationOps.h"
#include "overview/Overview.h"

#include <memory>
#include <mutex>
#include <vector>

namespace at::query {

class QueryData
{
public:
    QueryData(const TraceModel &model, std::shared_ptr<const cluster::ClusterModel> cluster);

    const TraceModel &model() const { return m_model; }
    const cluster::ClusterModel *cluster() const { return m_cluster.get(); }

    // Slice ids: track (thread) t's rows are [firstId(t), firstId(t) + size).
    std::int64_t sliceCount() const { return m_firstId.back(); }
    std::int64_t firstId(int thread) const { return m_firstId[static_cast<std::size_t>(thread)]; }
    std::int64_t idOf(SliceRef ref) const { return firstId(ref.thread) + ref.index; }
    SliceRef refOf(std::int64_t id) const; // invalid when out of range

    // The rank shown for a source group: its collection's "rank", else the group index (as the Insights do).
    int rankOfGroup(int group) const;

    // Slice ids grouped by name (ascending within a name), built on first use (4 bytes a slice): GROUP BY
    // name streams group after group with no sort, and name = ? reads only that name's rows. Empty when the
    // model has 2^32 slices or more.
    struct NameRange
    {
        std::size_t begin = 0, end = 0;
    };
    const std::vector<std::uint32_t> &idsByName();
    NameRange rangeOfName(StringId name); // within idsByName(); empty when no slice has it

    // Built on first use (each takes the model's whole profile).
    const Overview &overview();
    const std::vector<cluster::CommOpRow> &commOps();

    std::size_t memoryBytes() const;

private:
    const TraceModel &m_model;
    std::shared_ptr<const cluster::ClusterModel> m_cluster;
    std::vector<std::int64_t> m_firstId; // one per thread, plus the total
    std::vector<int> m_rankOfGroup;
    std::once_flag m_overviewOnce, m_commOnce, m_byNameOnce;
    std::vector<std::uint32_t> m_idsByName;
    std::vector<std::pair<StringId, NameRange>> m_nameRanges; // where each name's ids are, by name id
    std::unique_ptr<Overview> m_overview;
    std::vector<cluster::CommOpRow> m_commOps;
};

} // namespace at::query
