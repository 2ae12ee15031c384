#pragma once

// The host data as text (FORMATS.md §5.3): hash_dic names, the name a device task is shown with, and the
// args its submission adds (op type, GE task type, block dims, tensors, HCCL fields).

#include "CannAssociation.h"

#include <QHash>
#include <QString>

#include <cstdint>
#include <utility>
#include <vector>

namespace at::raw {

class HostTaskText
{
public:
    // Both are read on every call, so they may still be filling up when this is made.
    HostTaskText(const CannAssociation &cann, const QHash<QString, QString> &hashes)
        : m_cann(cann), m_hashes(hashes)
    {}

    QString hashName(std::uint64_t hash) const; // empty for 0 or an unknown hash
    QString opName(const OpDescription &op) const;
    QString opType(const OpDescription &op) const;
    // The HCCL small task, else the op of its Node range, else the kernel of the submission; empty when the
    // host data names nothing (hash_dic missing).
    QString taskName(const HostTask &t) const;
    std::vector<std::pair<QString, QString>> args(const HostTask &t) const;

private:
    const CannAssociation &m_cann;
    const QHash<QString, QString> &m_hashes;
};

} // namespace at::raw
