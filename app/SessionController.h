#pragma once

#include "Session.h"

#include <QObject>

#include <optional>

namespace at {

class CompareLauncher;
class MainWindow;

// Sessions of one main window (File ▸ Save Session / Open Session, or a *.atsession path anywhere a
// trace is opened): captures the view, lanes, markers, colour rules and comparison, and applies a
// session once its data has loaded. Lanes are named by "group label / process name [/ thread]".
class SessionController : public QObject
{
    Q_OBJECT
public:
    static constexpr const char *kSuffix = ".atsession";

    SessionController(MainWindow *window, CompareLauncher *compare);

    Session capture() const;
    bool save(const QString &path, QString *error) const;
    // Reads the session and keeps it until its data has loaded; false with *error when unreadable.
    bool read(const QString &path, QString *error);
    const std::optional<Session> &pending() const { return m_pending; }
    // A session to apply after the next load of its paths (Close Rank keeps the view of the other ranks).
    void setPending(Session session) { m_pending = std::move(session); }
    // The user opened something else before the session's data arrived.
    void dropPendingUnlessFor(const QString &path);
    // After a load: applies the pending session, if any.
    void applyPending();
    void apply(Session session);

private:
    QString processKey(int process) const;
    QString threadKey(int thread) const;

    MainWindow *m_window;
    CompareLauncher *m_compare;
    std::optional<Session> m_pending;
};

} // namespace at
