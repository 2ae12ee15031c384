#include "SessionController.h"

#include "CompareLauncher.h"
#include "HugePages.h"
#include "MainWindow.h"
#include "MarkerList.h"
#include "MessageBar.h"
#include "QueryPanel.h"
#include "TimelineView.h"
#include "common/OutputPath.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMultiHash>

#include <algorithm>
#include <limits>

namespace at {

SessionController::SessionController(MainWindow *window, CompareLauncher *compare)
    : QObject(window), m_window(window), m_compare(compare)
{}

QString SessionController::processKey(int process) const
{
    const TraceModel *model = m_window->model();
    const ProcessInfo &p = model->processes()[static_cast<std::size_t>(process)];
    return model->groups()[static_cast<std::size_t>(p.group)].label + QStringLiteral(" / ") +
           model->processDisplayName(process);
}

QString SessionController::threadKey(int thread) const
{
    const TraceModel *model = m_window->model();
    return processKey(model->threads()[static_cast<std::size_t>(thread)].process) + QStringLiteral(" / ") +
           model->threadDisplayName(thread);
}

Session SessionController::capture() const
{
    const TraceModel *model = m_window->model();
    TimelineView *timeline = m_window->timeline();
    Session s;
    s.paths = {m_window->currentPath()};
    s.rankFolders = m_window->loadedRankFolders();
    const TimeRange r = timeline->zoom()->range();
    s.viewBegin = r.start;
    s.viewEnd = r.end;
    if (model) {
        s.originText = formatAbsoluteMicros(model->origin());
        for (int p = 0; p < static_cast<int>(model->processes().size()); ++p)
            if (timeline->isCollapsed(p))
                s.collapsedProcesses << processKey(p);
        for (int g = 0; g < static_cast<int>(model->groups().size()); ++g)
            if (timeline->isGroupCollapsed(g))
                s.collapsedGroups << model->groups()[static_cast<std::size_t>(g)].label;
        const LaneVisibility &lanes = timeline->laneVisibility();
        for (int p : lanes.pinnedProcesses)
            s.pinnedProcesses << processKey(p);
        for (int p : lanes.processOrder)
            s.processOrder << processKey(p);
        for (int p = 0; p < static_cast<int>(model->processes().size()); ++p)
            if (lanes.hiddenProcesses.contains(p))
                s.hiddenProcesses << processKey(p);
        for (int t = 0; t < static_cast<int>(model->threads().size()); ++t)
            if (lanes.hiddenThreads.contains(t))
                s.hiddenThreads << threadKey(t);
        for (int g = 0; g < static_cast<int>(model->groups().size()); ++g)
            if (const TimeNs offset = timeline->groupOffset(g); offset != 0)
                s.rankOffsets.push_back({model->groups()[static_cast<std::size_t>(g)].label, offset});
    }
    s.markers = m_window->markers()->markers();
    if (const auto *query = m_window->findChild<QueryPanel *>())
        s.queries = query->savedQueries();
    s.colorRules = timeline->colorRules();
    s.compare = m_compare->lastCompare();
    return s;
}

bool SessionController::save(const QString &path, QString *error) const
{
    // Atomic (a crash mid-write leaves the old session intact), and never onto a device, FIFO or socket.
    QString why;
    if (!writeOutputFile(path, sessionToJson(capture()), &why)) {
        *error = tr("Could not save the session to %1: %2").arg(path, why);
        return false;
    }
    return true;
}

namespace {

// A session names at most this many sessions in a row before a trace (a longer chain is refused).
constexpr int kMaxSessionChain = 32;

// The whole file with spare room behind it: sessionFromJson's simdjson then reads the text where it is
// instead of copying it (150 MB for a million markers). A size that changes while read is taken as it comes.
QByteArray readWithRoomBehind(QFile &file)
{
    constexpr qint64 kRoom = 128; // simdjson reads up to 64 bytes past the text
    const qint64 size = file.size();
    if (size <= 0 || size > std::numeric_limits<qsizetype>::max() - kRoom)
        return file.readAll();
    QByteArray text;
    text.reserve(static_cast<qsizetype>(size + kRoom));
    adviseHugePages(text.data(), static_cast<std::size_t>(size)); // a fault per 2 MiB, not per 4 KiB
    text.resize(static_cast<qsizetype>(size));
    const qint64 read = file.read(text.data(), size);
    text.resize(static_cast<qsizetype>(std::max<qint64>(read, 0)));
    if (read == size)
        text += file.readAll(); // a file that grew meanwhile
    return text;
}

std::optional<Session> readOne(const QString &path, QString *error)
{
    QFile file(path);
    // A FIFO or device planted at the session path would block the read or never end.
    const QFileInfo info(path);
    if (info.exists() && !info.isFile())
        *error = SessionController::tr("not a regular file (a folder, FIFO, socket or device)");
    else if (!file.open(QIODevice::ReadOnly))
        *error = file.errorString();
    else
        return sessionFromJson(readWithRoomBehind(file), error);
    return std::nullopt;
}

// One file however it is spelled (relative, "./", through a symbolic link): a cycle is found by it.
QString fileIdentity(const QString &path)
{
    const QFileInfo info(path);
    const QString canonical = info.canonicalFilePath();
    return canonical.isEmpty() ? QDir::cleanPath(info.absoluteFilePath()) : canonical;
}

bool namesSession(const Session &session)
{
    return session.paths.first().endsWith(QLatin1String(SessionController::kSuffix));
}

std::optional<Session> readChain(const QString &path, QString *error)
{
    QStringList chain{path};
    QStringList seen{fileIdentity(path)};
    std::optional<Session> session = readOne(path, error);
    while (session && namesSession(*session)) {
        const QString next = session->paths.first();
        const QString identity = fileIdentity(next);
        if (seen.contains(identity)) {
            *error =
                chain.size() == 1
                    ? SessionController::tr("the session names itself as its data (%1), not a trace file or "
                                            "folder")
                          .arg(next)
                    : SessionController::tr("its sessions name each other in a cycle: %1 → %2")
                          .arg(chain.join(QStringLiteral(" → ")), next);
            return std::nullopt;
        }
        if (chain.size() >= kMaxSessionChain) {
            *error = SessionController::tr("more than %1 sessions name each other in a chain (%2 → …)")
                         .arg(kMaxSessionChain)
                         .arg(chain.first());
            return std::nullopt;
        }
        QString why;
        session = readOne(next, &why);
        if (!session)
            *error = SessionController::tr("the session it names, %1: %2").arg(next, why);
        chain << next;
        seen << identity;
    }
    return session;
}

} // namespace

// A session whose data is another session is followed to the one whose data is a trace (that one is kept, as
// opening each in turn would); a cycle (a session naming itself, two naming each other) or a chain longer
// than kMaxSessionChain is refused instead of recursing openPath → openSession until the stack overflows. A
// comparison path naming a session is replaced by the trace its chain ends at, so the comparison window never
// opens sessions (whose own comparisons would open windows without end).
bool SessionController::read(const QString &path, QString *error)
{
    std::optional<Session> session = readChain(path, error);
    if (!session)
        return false;
    if (session->compare && session->compare->comparisonPath.endsWith(QLatin1String(kSuffix))) {
        QString why;
        const std::optional<Session> comparison = readChain(session->compare->comparisonPath, &why);
        if (!comparison) {
            *error = tr("its comparison session %1: %2").arg(session->compare->comparisonPath, why);
            return false;
        }
        session->compare->comparisonPath = comparison->paths.first();
    }
    m_pending = std::move(session);
    return true;
}

void SessionController::dropPendingUnlessFor(const QString &path)
{
    if (m_pending && m_pending->paths.first() != path)
        m_pending.reset();
}

void SessionController::applyPending()
{
    if (!m_pending)
        return;
    // Moved, not copied: copying a million markers' names cost half a second.
    Session session = std::move(*m_pending);
    m_pending.reset();
    apply(std::move(session));
}

void SessionController::apply(Session s)
{
    const TraceModel *model = m_window->model();
    TimelineView *timeline = m_window->timeline();
    if (!s.originText.isEmpty() && s.originText != formatAbsoluteMicros(model->origin()))
        m_window->messageBar()->showMessage(
            MessageBar::Kind::Warning,
            tr("The data of this session changed since it was saved (it starts at %1 µs, "
               "the session expected %2 µs); the view and markers may not line up.")
                .arg(formatAbsoluteMicros(model->origin()), s.originText));
    QMultiHash<QString, int> processesByKey; // a key can name several processes (same name in a group)
    for (int p = 0; p < static_cast<int>(model->processes().size()); ++p)
        processesByKey.insert(processKey(p), p);
    auto processesOf = [&processesByKey](const QStringList &keys) {
        std::vector<int> out;
        for (const QString &key : keys) {
            QList<int> found = processesByKey.values(key);
            std::sort(found.begin(), found.end());
            out.insert(out.end(), found.begin(), found.end());
        }
        return out;
    };
    const std::vector<int> collapsed = processesOf(s.collapsedProcesses);
    for (int p = 0; p < static_cast<int>(model->processes().size()); ++p)
        timeline->setCollapsed(p, std::find(collapsed.begin(), collapsed.end(), p) != collapsed.end());
    for (int g = 0; g < static_cast<int>(model->groups().size()); ++g)
        timeline->setGroupCollapsed(
            g, s.collapsedGroups.contains(model->groups()[static_cast<std::size_t>(g)].label));
    LaneVisibility lanes;
    lanes.pinnedProcesses = processesOf(s.pinnedProcesses);
    lanes.processOrder = processesOf(s.processOrder);
    for (int p : processesOf(s.hiddenProcesses))
        lanes.hiddenProcesses.insert(p);
    for (int t = 0; t < static_cast<int>(model->threads().size()); ++t)
        if (s.hiddenThreads.contains(threadKey(t)))
            lanes.hiddenThreads.insert(t);
    timeline->setLaneVisibility(lanes);
    // Rank offsets by group label (a rank that is not open any more is skipped).
    std::vector<TimeNs> offsets(model->groups().size(), 0);
    for (const RankOffset &o : s.rankOffsets)
        for (std::size_t g = 0; g < model->groups().size(); ++g)
            if (model->groups()[g].label == o.group)
                offsets[g] = o.offset;
    timeline->setGroupOffsets(std::move(offsets));
    m_window->markers()->setAll(std::move(s.markers));
    // The session's queries join the ones the dock has (a saved query of the same name is replaced).
    if (auto *query = m_window->findChild<QueryPanel *>(); query && !s.queries.empty())
        query->addSavedQueries(s.queries);
    m_window->setColorRules(s.colorRules);
    if (s.viewEnd > s.viewBegin)
        timeline->zoom()->setRange({s.viewBegin, s.viewEnd}, true);
    if (s.compare)
        m_compare->restore(*s.compare);
}

} // namespace at
