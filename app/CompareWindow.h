#pragma once

#include "TraceModel.h"

#include <QDialog>
#include <QMainWindow>

#include <memory>

class QCheckBox;
class QComboBox;
class QMenu;

namespace at {

class StepCompareView;

// One step of one opened profile, as offered for comparison.
struct StepChoice
{
    std::shared_ptr<const TraceModel> model;
    int step = -1;
    QString label; // "trace_view.json · Rank 0 / Device 0 · ProfilerStep#50"
};

// Two steps side by side (StepCompareView) in their own window, which keeps both models alive
// for as long as it is open, even if their main windows load something else.
class CompareWindow : public QMainWindow
{
    Q_OBJECT
public:
    CompareWindow(const StepChoice &base, const StepChoice &comparison, bool matchShapes,
                  QWidget *parent = nullptr);
    ~CompareWindow() override;
    StepCompareView *view() const { return m_view; }

protected:
    void changeEvent(QEvent *event) override;

private:
    // The title and menus in the current language (the constructor and QEvent::LanguageChange; the
    // view retranslates itself).
    void retranslateUi();
    void exportCsv(bool byName);

    std::shared_ptr<const TraceModel> m_models[2];
    QString m_stepLabels[2];
    StepCompareView *m_view;
    QMenu *m_fileMenu;
};

// Picks the base and comparison steps among all steps of all open profiles.
class CompareStepsDialog : public QDialog
{
    Q_OBJECT
public:
    CompareStepsDialog(std::vector<StepChoice> choices, int base, int comparison, QWidget *parent = nullptr);
    const StepChoice &base() const;
    const StepChoice &comparison() const;
    bool matchShapes() const;
    // The same choice for the diff by framework op: its title, the shapes option and the button say so.
    void useForOpDiff();
    QComboBox *baseChooser() const { return m_base; }
    QComboBox *comparisonChooser() const { return m_comparison; }

private:
    std::vector<StepChoice> m_choices;
    QComboBox *m_base;
    QComboBox *m_comparison;
    QCheckBox *m_shapes;
};

} // namespace at
