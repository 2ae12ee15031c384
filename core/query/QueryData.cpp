#include "QueryData.h"

#include "Steps.h"

#include <algorithm>

namespace at::query {

QueryData::QueryData(const TraceModel &model, std::shared_ptr<const cluster::ClusterModel> cluster)
    : m_model(model), m_cluster(std::move(cluster))
{
    m_firstId.reserve(model.threads().size() + 1);
    std::int64_t next = 0;
    for (const ThreadInfo &thread : model.threads()) {
        m_firstId.push_back(next);
        next += static_cast<std::int64_t>(thread.slices.size());
    }
    m_firstId.push_back(next);
    for (std::size_t g = 0; g < model.groups().size(); ++g) {
        bool ok = false;
        const int rank = model.groups()[g].collection.property(QStringLiteral("rank")).toInt(&ok);
        m_rankOfGroup.push_back(ok ? rank : static_cast<int>(g));
    }
}

SliceRef QueryData::refOf(std::int64_t id) const
{
    if (id < 0 || id >= sliceCount())
        return {};
    // The last track whose first id is <= id (empty tracks share their first id with the next one).
    const auto it = std::upper_bound(m_firstId.begin(), m_firstId.end() - 1, id);
    const auto thread = static_cast<std::int32_t>(it - m_firstId.begin()) - 1;
    return {thread, static_cast<std::uint32_t>(id - m_firstId[static_cast<std::size_t>(thread)])};
}

int QueryData::rankOfGroup(int group) const
{
    return group >= 0 && group < static_cast<int>(m_rankOfGroup.size())
               ? m_rankOfGroup[static_cast<std::size_t>(group)]
               : group;
}

const std::vector<std::uint32_t> &QueryData::idsByName()
{
    std::call_once(m_byNameOnce, [this] {
        if (sliceCount() >= std::int64_t(1) << 32)
            return;
        // A counting sort by name (the count array over every string id is transient: the pool also holds
        // flow ids). The names' ranges are laid out in the text's byte order (SQLite's BINARY collation), so
        // the walk is grouped and sorted: GROUP BY name and ORDER BY name both hold without a sorter.
        const StringPool &strings = m_model.strings();
        std::vector<std::uint32_t> next(strings.size(), 0);
        for (const ThreadInfo &thread : m_model.threads())
            for (const StringId name : thread.slices.names())
                ++next[name];
        std::vector<StringId> used;
        for (std::size_t id = 0; id < next.size(); ++id)
            if (next[id] != 0)
                used.push_back(static_cast<StringId>(id));
        std::sort(used.begin(), used.end(),
                  [&strings](StringId a, StringId b) { return strings.view(a) < strings.view(b); });
        std::uint32_t start = 0;
        for (const StringId name : used) {
            const std::uint32_t count = next[name];
            m_nameRanges.push_back({name, {start, start + count}});
            next[name] = start;
            start += count;
        }
        std::sort(m_nameRanges.begin(), m_nameRanges.end(),
                  [](const auto &a, const auto &b) { return a.first < b.first; });
        m_idsByName.resize(static_cast<std::size_t>(sliceCount()));
        std::uint32_t id = 0;
        for (const ThreadInfo &thread : m_model.threads())
            for (const StringId name : thread.slices.names())
                m_idsByName[next[name]++] = id++;
    });
    return m_idsByName;
}

QueryData::NameRange QueryData::rangeOfName(StringId name)
{
    idsByName();
    const auto it = std::lower_bound(m_nameRanges.begin(), m_nameRanges.end(), name,
                                     [](const auto &range, StringId n) { return range.first < n; });
    if (it == m_nameRanges.end() || it->first != name)
        return {};
    return it->second;
}

const Overview &QueryData::overview()
{
    std::call_once(m_overviewOnce, [this] {
        OverviewInputs inputs;
        inputs.model = &m_model;
        inputs.cluster = m_cluster.get();
        inputs.steps = &m_model.steps();
        m_overview = std::make_unique<Overview>(buildOverview(inputs));
    });
    return *m_overview;
}

const std::vector<cluster::CommOpRow> &QueryData::commOps()
{
    std::call_once(m_commOnce, [this] {
        if (m_cluster) {
            cluster::CommOpFilter filter;
            filter.includeTotals = true;
            m_commOps = cluster::communicationOps(*m_cluster, filter);
        }
    });
    return m_commOps;
}

std::size_t QueryData::memoryBytes() const
{
    return m_firstId.capacity() * sizeof(std::int64_t) + m_rankOfGroup.capacity() * sizeof(int) +
           m_idsByName.capacity() * sizeof(std::uint32_t) +
           m_nameRanges.capacity() * sizeof(std::pair<StringId, NameRange>) +
           m_commOps.capacity() * sizeof(cluster::CommOpRow);
}

} // namespace at::query
