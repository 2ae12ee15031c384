#pragma once

// info.json `platform_version` → chip (FORMATS.md §4.4; msprof `chip_model.py`, `chip_manager.py`).

#include <QString>

namespace at::config {

enum class TaskScheduler
{
    Unknown,
    Hwts, // 310, 910A, 310P, chip v5: device tasks logged by HWTS
    Stars // 910B/910C (A2/A3), chip v1.1.x, Ascend 950: STARS (msprof `is_stars_chip`)
};

struct ChipInfo
{
    QString platformVersion; // as written, e.g. "5"
    QString name;            // "Ascend 910B / A2 / A3", ...; empty when the id is unknown
    QString generation;      // "v4", "v1.1.x", ...; empty when unknown
    TaskScheduler scheduler = TaskScheduler::Unknown;
};

ChipInfo chipFromPlatformVersion(const QString &platformVersion);
QString taskSchedulerName(TaskScheduler scheduler); // "HWTS", "STARS", ""

} // namespace at::config
