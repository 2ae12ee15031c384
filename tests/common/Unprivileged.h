#pragma once

// Permission-denied inputs cannot be provoked as root (CI runs as root): root reads chmod 000 files.
// AsUnprivilegedUser switches the real and effective user and group to nobody for its lifetime (the
// real one too, because access(2), which QFileInfo::isReadable uses, checks the real id; the saved id
// stays root, so the destructor can switch back), after opening `traverse` (the test's temporary
// folder, which QTemporaryDir makes 0700) to everybody so nobody can reach the files.
// Not root: nothing changes, the permission bits already apply.

#include <QFile>
#include <QString>

#include <sys/types.h>
#include <unistd.h>

namespace at::test {

class AsUnprivilegedUser
{
public:
    explicit AsUnprivilegedUser(const QString &traverse)
    {
        if (::geteuid() != 0)
            return;
        m_path = traverse;
        m_permissions = QFile::permissions(traverse);
        QFile::setPermissions(traverse, m_permissions | QFileDevice::ExeOther | QFileDevice::ReadOther |
                                            QFileDevice::ExeGroup | QFileDevice::ReadGroup);
        constexpr uid_t kNobody = 65534;
        m_active = ::setresgid(kNobody, kNobody, 0) == 0 && ::setresuid(kNobody, kNobody, 0) == 0;
    }
    ~AsUnprivilegedUser()
    {
        if (m_path.isEmpty())
            return;
        if (::setresuid(0, 0, 0) != 0 || ::setresgid(0, 0, 0) != 0)
            qFatal("cannot switch back to root");
        QFile::setPermissions(m_path, m_permissions);
    }
    AsUnprivilegedUser(const AsUnprivilegedUser &) = delete;
    AsUnprivilegedUser &operator=(const AsUnprivilegedUser &) = delete;

    // False only when running as root and the switch failed (then the test cannot run).
    bool ok() const { return m_path.isEmpty() || m_active; }

private:
    QString m_path;
    QFileDevice::Permissions m_permissions;
    bool m_active = false;
};

} // namespace at::test
