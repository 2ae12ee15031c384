#pragma once

// What a load will read, decided before the first byte is: the folder detector's result
// (folder/ProfileLayoutDetector) grouped into runs, the run to show, and per source the readers that
// recognise it (InputReader.h). A file opened on its own is a one-source plan.

#include "InputReader.h"
#include "TraceLoader.h"
#include "folder/ProfileLayout.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace at {

struct PlannedSource
{
    DataSource source;
    std::vector<const InputReader *> readers; // in inputReaders() order
    // The format (reader id) the source had before --source raw replaced its export with the raw data.
    QString exportFormat;
    QStringList rawDataOnlyMessages; // the detector's "run msprof" messages naming its PROF_* folder
};

// Sources of one run share a clock; sources of different runs do not (FORMATS.md §1.8).
struct PlannedRun
{
    QString path;                       // the folder holding the run's sources (DataSource::clusterPath)
    std::vector<PlannedSource> sources; // the loadable ones
};

struct LoadPlan
{
    QString input;
    bool singleFile = false; // a file opened on its own (a file that cannot be read fails the load)
    std::vector<PlannedRun> runs;
    int chosenRun = -1;  // the run that is loaded; -1 when nothing can be
    QStringList notices; // what the detector found wrong or left out: warnings of the loaded model
    QString error;       // why nothing can be loaded (chosenRun == -1)

    const PlannedRun *chosen() const
    {
        return chosenRun < 0 ? nullptr : &runs[static_cast<std::size_t>(chosenRun)];
    }
};

// Plans the load of a file or folder with the options' source preference. Reads directory listings only
// (and the first MiB of a file opened directly whose name no reader knows).
LoadPlan planLoad(const QString &path, const LoadOptions &options);

} // namespace at
