#include "config/ChipInfo.h"

#include <array>

namespace at::config {
namespace {

struct ChipEntry
{
    const char *id;
    const char *name;
    const char *generation;
    TaskScheduler scheduler;
};

// FORMATS.md §4.4. STARS membership follows msprof `ChipManager.is_stars_chip` (v4, v1.1.x, v6).
constexpr std::array<ChipEntry, 12> kChips = {{
    {"0", "Ascend 310", "v1", TaskScheduler::Hwts},
    {"1", "Ascend 910A", "v2", TaskScheduler::Hwts},
    {"2", "Ascend 310P family", "v3", TaskScheduler::Hwts},
    {"3", "Ascend 310P family", "v3", TaskScheduler::Hwts},
    {"4", "Ascend 310P family", "v3", TaskScheduler::Hwts},
    {"5", "Ascend 910B / A2 / A3", "v4", TaskScheduler::Stars},
    {"7", "Ascend chip v1.1.1", "v1.1.x", TaskScheduler::Stars},
    {"8", "Ascend chip v1.1.2", "v1.1.x", TaskScheduler::Stars},
    {"9", "Ascend chip v5", "v5", TaskScheduler::Hwts},
    {"11", "Ascend chip v1.1.3", "v1.1.x", TaskScheduler::Stars},
    {"15", "Ascend 950", "v6", TaskScheduler::Stars},
    {"16", "Ascend 950", "v6", TaskScheduler::Stars},
}};

} // namespace

ChipInfo chipFromPlatformVersion(const QString &platformVersion)
{
    ChipInfo out;
    out.platformVersion = platformVersion.trimmed();
    for (const ChipEntry &c : kChips) {
        if (out.platformVersion == QLatin1String(c.id)) {
            out.name = QString::fromLatin1(c.name);
            out.generation = QString::fromLatin1(c.generation);
            out.scheduler = c.scheduler;
            break;
        }
    }
    return out;
}

QString taskSchedulerName(TaskScheduler scheduler)
{
    switch (scheduler) {
    case TaskScheduler::Hwts:
        return QStringLiteral("HWTS");
    case TaskScheduler::Stars:
        return QStringLiteral("STARS");
    case TaskScheduler::Unknown:
        break;
    }
    return {};
}

} // namespace at::config
