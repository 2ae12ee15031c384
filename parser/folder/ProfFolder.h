#pragma once

// PROF_* folders: G3, G2, G1 and raw-only (FORMATS.md §1.2-§1.4, §1.6).

#include "folder/FolderListing.h"
#include "folder/ProfileLayout.h"

namespace at {

enum class ProfFolderKind
{
    None, // not a PROF_* folder, or none of the §1.7 rules matches
    G3,
    G2,
    G1,
    RawOnly
};

// §1.7 table rows 2-5, first match wins.
ProfFolderKind classifyProfFolder(const FolderListing &prof);

// Builds the sources of a recognised PROF_* folder following §1.8 priorities 3-7: one source for G3/G2/raw,
// one per device_<id> for G1. Label, rank and cluster are left to the caller.
QList<DataSource> collectProfFolder(const FolderListing &prof, ProfFolderKind kind,
                                    const DetectOptions &options, QList<Diagnostic> &diagnostics);

} // namespace at
