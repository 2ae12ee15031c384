#pragma once

#include "CompareWindow.h"
#include "Session.h"

#include <QObject>

#include <optional>
#include <vector>

namespace at {

class MainWindow;
class OpDiffWindow;

// What the step choice is for: the kernel-by-kernel compare window or the diff by framework op.
enum class ComparePurpose
{
    Steps,
    OpDiff
};

// Step comparison for one main window: the choices among every open profile, the compare dialog,
// the compare window, and the last comparison (saved with the session and restored from it).
class CompareLauncher : public QObject
{
    Q_OBJECT
public:
    explicit CompareLauncher(MainWindow *window);

    // Steps of every open profile, labelled for the compare dialog; this window's first.
    std::vector<StepChoice> stepChoices() const;
    // Opens the compare window on two of stepChoices() directly (no dialog).
    CompareWindow *compareSteps(const StepChoice &base, const StepChoice &comparison, bool matchShapes);
    // The compare dialog preset from the step list's selection. It offers "Another Run…"; with a single
    // step in every open profile it asks for another run straight away.
    void chooseStepsToCompare();
    // Asks for another run (a trace file or a result folder, the dialog File ▸ Open uses), opens it in a
    // new window and, once loaded, offers the compare dialog: base against the new run's first step.
    void chooseAnotherRunToCompare(const StepChoice &base, ComparePurpose purpose = ComparePurpose::Steps);
    // Opens the diff by framework op of two of stepChoices() directly (no dialog).
    OpDiffWindow *diffSteps(const StepChoice &base, const StepChoice &comparison, bool matchShapes);
    // The compare dialog for the diff by framework op (same choices and presets as chooseStepsToCompare).
    void chooseStepsToDiff();
    // Reopens a saved comparison (its other profile in a new window when it is not this one).
    void restore(const CompareSetup &setup);

    const std::optional<CompareSetup> &lastCompare() const { return m_lastCompare; }
    void forget() { m_lastCompare.reset(); } // the data it was made on is gone

private:
    // The dialog on choices, with base and comparison chosen (indices into choices).
    void openCompareDialog(std::vector<StepChoice> choices, int base, int comparison, ComparePurpose purpose);
    // The dialog's presets from the step list's selection; false (after asking for another run) when
    // there is nothing to choose between.
    bool presetChoices(const std::vector<StepChoice> &choices, ComparePurpose purpose, int *base,
                       int *comparison);

    MainWindow *m_window;
    std::optional<CompareSetup> m_lastCompare;
};

} // namespace at
