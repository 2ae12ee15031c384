#pragma once

#include "CommandLine.h"

namespace at {

// `--screenshot OUT.png [--size WxH] [--range START:END] [--select NAME] PATH`: opens PATH in the
// real main window (offscreen), applies the range and selection, and saves what it shows.
int runScreenshot(const CommandLineOptions &options);

// `--chart NAME --out FILE.png PATH`: renders one metric chart headlessly (names: ChartExport.h).
int runChart(const CommandLineOptions &options);

} // namespace at
