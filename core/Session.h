#pragma once

#include "Time.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace at {

// A user annotation on the timeline: a time range (m on a slice) or a flag (k: begin == end).
struct Marker
{
    QString name;
    TimeNs begin = 0; // relative to the model origin
    TimeNs end = 0;
    std::uint32_t rgb = 0xE6550D; // 0xRRGGBB
    bool isFlag() const { return begin == end; }
    friend bool operator==(const Marker &, const Marker &) = default;
};

// "name matches regex → colour" for slices (first matching rule wins).
struct ColorRule
{
    QString pattern;
    std::uint32_t rgb = 0;
    friend bool operator==(const ColorRule &, const ColorRule &) = default;
};

// The compare window's setup, restored with the session.
struct CompareSetup
{
    std::int64_t baseStep = 0;
    QString comparisonPath; // empty: the same profile
    std::int64_t comparisonStep = 0;
    bool matchShapes = false;
    friend bool operator==(const CompareSetup &, const CompareSetup &) = default;
};

// A rank's time offset on the timeline (ranks aligned on a collective), by its group label.
struct RankOffset
{
    QString group; // "Rank 1 / Device 1"
    TimeNs offset = 0;
    friend bool operator==(const RankOffset &, const RankOffset &) = default;
};

// A query of the Query dock saved by name (issue #31).
struct NamedQuery
{
    QString name;
    QString sql;
    friend bool operator==(const NamedQuery &, const NamedQuery &) = default;
};

// What File ▸ Save Session writes: enough to reopen the same data in the same view. Lanes are named by
// "group label / process name" so that a session survives a reload of the same files.
// Version 2 added rankFolders and rankOffsets, version 3 the Query dock's saved queries; older files still
// load (without them).
struct Session
{
    static constexpr int kVersion = 3;
    QStringList paths;
    // The ranks open on the timeline when paths.first() is a cluster folder opened rank by rank
    // (LoadOptions::rankFolders); empty: the whole folder.
    QStringList rankFolders;
    std::vector<RankOffset> rankOffsets; // non-zero offsets only
    TimeNs viewBegin = 0, viewEnd = 0;   // relative to the model origin
    QString originText; // absolute model origin in µs when saved, to warn when the data changed
    QStringList collapsedProcesses;
    QStringList collapsedGroups;
    QStringList pinnedProcesses; // in pin order
    QStringList processOrder;    // the user's lane order (dragged headers); empty: the default
    QStringList hiddenProcesses;
    QStringList hiddenThreads; // "process key / thread name"
    std::vector<Marker> markers;
    std::vector<ColorRule> colorRules;
    std::optional<CompareSetup> compare;
    std::vector<NamedQuery> queries; // the Query dock's saved queries, in their order
    friend bool operator==(const Session &, const Session &) = default;
};

QByteArray sessionToJson(const Session &session);
// nullopt with *error set (what is wrong) for text that is not a session of a known version.
std::optional<Session> sessionFromJson(const QByteArray &json, QString *error);
// The same with Qt's QJsonDocument (the reader before issue 29, item 8; sessionFromJson falls back to it):
// the reference sessionFromJson must agree with on any text, result and message.
std::optional<Session> sessionFromJsonWithQt(const QByteArray &json, QString *error);

} // namespace at
