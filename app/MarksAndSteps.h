#pragma once

#include "Session.h"

#include <optional>
#include <vector>

namespace at {

class MarkerList;
class TimelineView;

// What the window's m, k, ] and [ do on the timeline, apart from the window's status messages.

// m: a marker over the range selection, else over the selected slice where it is drawn (an aligned rank's
// slice + the rank's offset: markers are on the ruler's clock); nullopt when nothing is selected.
std::optional<Marker> markerOfSelection(const TimelineView &timeline);
// k: a flag at the mouse, else at the view's centre.
Marker flagAtMouse(TimelineView &timeline);
// Adds m in the next colour of the marker palette.
void addInNextColour(MarkerList &markers, Marker m);

// Fits the timeline to a step (index into the model's steps), where it is drawn; false when there is none.
bool fitStep(TimelineView &timeline, int step);
// ] / [ : the next / previous step of the shown group: the selected slice's group, else the group of the
// first of selectedSteps, else the first with steps. -1 when there is none.
int adjacentStepOf(TimelineView &timeline, const std::vector<int> &selectedSteps, int direction);

} // namespace at
