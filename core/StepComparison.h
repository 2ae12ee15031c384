#pragma once

#include "Steps.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cmath>
#include <vector>

namespace at {

struct CompareOptions
{
    bool matchShapes = false; // kernels match only when their input shapes match too
};

// One kernel of the base step and its partner in the comparison step (either side may be missing).
struct KernelPair
{
    SliceRef base, comparison; // invalid on the side where the kernel has no partner
    QString name;
    QString stream; // lane name, e.g. "Stream 4"
    TimeNs baseDuration = 0, comparisonDuration = 0;
    TimeNs baseOffset = 0, comparisonOffset = 0; // start relative to its step's begin
    std::vector<double> metricDeltas; // comparison - base per StepComparison::metrics (NaN: missing)

    bool matched() const { return base.isValid() && comparison.isValid(); }
    TimeNs diff() const { return comparisonDuration - baseDuration; }
};

// All kernels of one name: counts and total durations on both sides.
struct KernelNameDiff
{
    QString name;
    std::size_t baseCount = 0, comparisonCount = 0, matchedCount = 0;
    TimeNs baseTotal = 0, comparisonTotal = 0;
    std::vector<double> meanMetricDeltas; // over matched pairs with values on both sides

    TimeNs diff() const { return comparisonTotal - baseTotal; }
    double ratio() const
    {
        return baseTotal > 0 ? static_cast<double>(comparisonTotal) / static_cast<double>(baseTotal)
                             : std::nan("");
    }
};

struct TimePair
{
    TimeNs base = 0, comparison = 0;
    TimeNs diff() const { return comparison - base; }
};

// Two steps compared kernel by kernel: kernels are matched per stream by the longest common
// subsequence of their names (optionally with input shapes), streams by lane name.
struct StepComparison
{
    std::vector<KernelPair> kernels;    // per stream in base order, unmatched ones where they occur
    std::vector<KernelNameDiff> byName; // largest |diff| first
    QStringList metrics;                // AI Core metric columns both sides have
    TimePair stepTime, computing, communication, communicationNotOverlapped, free, kernelTime;
    std::size_t matched = 0, onlyInBase = 0, onlyInComparison = 0;
};

// The name kernels are matched and aggregated by: the slice name, with the run-wide op counter of
// communication ops replaced by '*' (hcom_allReduce__586_0_1 → hcom_allReduce__*_0_1).
QString kernelMatchName(const QString &name);

StepComparison compareSteps(const TraceModel &baseModel, const Step &base, const TraceModel &comparisonModel,
                            const Step &comparison, const CompareOptions &options = {});

// The same data for --compare-steps and the diff table's export.
QString formatComparisonText(const StepComparison &c, const QString &baseLabel,
                             const QString &comparisonLabel, int topNames = 20);
QByteArray formatComparisonByNameCsv(const StepComparison &c);
QByteArray formatComparisonKernelsCsv(const StepComparison &c);

} // namespace at
