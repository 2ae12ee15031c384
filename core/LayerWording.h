#pragma once

#include "Layer.h"

#include <QString>

namespace at {

// The layout text of a source read as a PyTorch profiler (Kineto) GPU trace (SourceGroup::layout; the
// reader is parser/kineto).
QString kinetoLayoutText();

// layerDisplayName in the words of the source a process came from: a Kineto GPU trace's host and
// device layers are "Host (…CUDA runtime)" and "GPU kernels (CUDA)", not the Ascend names.
QString layerDisplayName(Layer layer, const QString &sourceLayout);

} // namespace at
