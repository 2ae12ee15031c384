#include "CompareLauncher.h"

#include "MainWindow.h"
#include "MessageBar.h"
#include "OpDiffWindow.h"
#include "OpenDialogs.h"
#include "Steps.h"
#include "StepsPanel.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QPointer>
#include <QPushButton>

namespace at {

namespace {

std::optional<StepChoice> pick(const std::vector<StepChoice> &choices, const TraceModel *model,
                               std::int64_t number)
{
    for (const StepChoice &c : choices)
        if (c.model.get() == model && c.model->steps()[static_cast<std::size_t>(c.step)].number == number)
            return c;
    return std::nullopt;
}

} // namespace

CompareLauncher::CompareLauncher(MainWindow *window) : QObject(window), m_window(window) {}

std::vector<StepChoice> CompareLauncher::stepChoices() const
{
    std::vector<StepChoice> out;
    QList<MainWindow *> windows = MainWindow::openWindows();
    windows.removeAll(m_window);
    windows.prepend(m_window);
    for (const MainWindow *w : windows) {
        const std::shared_ptr<const TraceModel> model = w->sharedModel();
        if (!model)
            continue;
        const QString file = w->currentPath() == QLatin1String(MainWindow::kBundledSample)
                                 ? tr("Bundled sample")
                                 : QFileInfo(w->currentPath()).fileName();
        for (std::size_t i = 0; i < model->steps().size(); ++i) {
            const Step &s = model->steps()[i];
            const QString group = model->groups()[static_cast<std::size_t>(s.group)].label;
            out.push_back(
                {model, static_cast<int>(i),
                 QStringLiteral("%1 · %2%3")
                     .arg(file, group.isEmpty() ? QString() : group + QStringLiteral(" · "), s.label)});
        }
    }
    return out;
}

CompareWindow *CompareLauncher::compareSteps(const StepChoice &base, const StepChoice &comparison,
                                             bool matchShapes)
{
    // Remembered for the session when the base step is one of ours.
    if (base.model == m_window->sharedModel()) {
        CompareSetup setup;
        setup.baseStep = base.model->steps()[static_cast<std::size_t>(base.step)].number;
        setup.comparisonStep = comparison.model->steps()[static_cast<std::size_t>(comparison.step)].number;
        setup.matchShapes = matchShapes;
        for (const MainWindow *w : MainWindow::openWindows())
            if (w->sharedModel() == comparison.model && w != m_window)
                setup.comparisonPath = w->currentPath();
        m_lastCompare = setup;
    }
    auto *window = new CompareWindow(base, comparison, matchShapes);
    window->show();
    return window;
}

OpDiffWindow *CompareLauncher::diffSteps(const StepChoice &base, const StepChoice &comparison,
                                         bool matchShapes)
{
    auto *window = new OpDiffWindow(base, comparison, matchShapes);
    window->show();
    return window;
}

bool CompareLauncher::presetChoices(const std::vector<StepChoice> &choices, ComparePurpose purpose, int *base,
                                    int *comparison)
{
    if (choices.empty()) {
        m_window->messageBar()->showMessage(MessageBar::Kind::Info,
                                            tr("Comparing needs steps: this profile has none."));
        return false;
    }
    if (choices.size() < 2) {
        // One step here and no other profile open: the other step is in another run.
        chooseAnotherRunToCompare(choices.front(), purpose);
        return false;
    }
    // Preset from the step list: two rows → those; one row → it and the next choice.
    const std::vector<int> selected = m_window->steps()->selectedSteps();
    *base = selected.empty() ? 0 : selected.front();
    *comparison = selected.size() >= 2 ? selected[1] : *base + 1;
    if (*comparison >= static_cast<int>(choices.size()))
        *comparison = *base == 0 ? 1 : 0;
    return true;
}

void CompareLauncher::chooseStepsToCompare()
{
    const std::vector<StepChoice> choices = stepChoices();
    int base = 0, comparison = 0;
    if (presetChoices(choices, ComparePurpose::Steps, &base, &comparison))
        openCompareDialog(choices, base, comparison, ComparePurpose::Steps);
}

void CompareLauncher::chooseStepsToDiff()
{
    const std::vector<StepChoice> choices = stepChoices();
    int base = 0, comparison = 0;
    if (presetChoices(choices, ComparePurpose::OpDiff, &base, &comparison))
        openCompareDialog(choices, base, comparison, ComparePurpose::OpDiff);
}

void CompareLauncher::openCompareDialog(std::vector<StepChoice> choices, int base, int comparison,
                                        ComparePurpose purpose)
{
    auto *dialog = new CompareStepsDialog(std::move(choices), base, comparison, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (purpose == ComparePurpose::OpDiff)
        dialog->useForOpDiff();
    connect(dialog, &QDialog::accepted, this, [this, dialog, purpose] {
        if (purpose == ComparePurpose::OpDiff)
            diffSteps(dialog->base(), dialog->comparison(), dialog->matchShapes());
        else
            compareSteps(dialog->base(), dialog->comparison(), dialog->matchShapes());
    });
    // Another run than the open ones: the dialog's own buttons get one more (CompareStepsDialog lists only
    // open profiles; where the other run comes from is the launcher's business).
    if (auto *buttons = dialog->findChild<QDialogButtonBox *>()) {
        QPushButton *another = buttons->addButton(tr("Another Run…"), QDialogButtonBox::ActionRole);
        another->setObjectName(QStringLiteral("compare.anotherRun"));
        another->setToolTip(tr("Compare with a step of a run that is not open: a trace file or a profiling "
                               "result folder"));
        connect(another, &QPushButton::clicked, this, [this, dialog, purpose] {
            const StepChoice base = dialog->base();
            dialog->reject();
            chooseAnotherRunToCompare(base, purpose);
        });
    }
    dialog->open();
}

void CompareLauncher::chooseAnotherRunToCompare(const StepChoice &base, ComparePurpose purpose)
{
    const QString path = chooseTraceFile(m_window, tr("Compare against another run"));
    if (path.isEmpty())
        return;
    auto *other = new MainWindow;
    other->setAttribute(Qt::WA_DeleteOnClose);
    other->show();
    const QPointer<MainWindow> opened(other);
    connect(
        other, &MainWindow::loadFinished, this,
        [this, opened, base, path, purpose](bool ok) {
            if (!ok || !opened)
                return; // the new window says why
            const std::vector<StepChoice> choices = stepChoices();
            int baseIndex = -1, comparison = -1;
            for (std::size_t i = 0; i < choices.size(); ++i) {
                if (choices[i].model == base.model && choices[i].step == base.step && baseIndex < 0)
                    baseIndex = static_cast<int>(i);
                if (choices[i].model == opened->sharedModel() && comparison < 0)
                    comparison = static_cast<int>(i);
            }
            if (baseIndex < 0 || comparison < 0) {
                m_window->messageBar()->showMessage(MessageBar::Kind::Info,
                                                    tr("%1 has no steps to compare with.").arg(path));
                return;
            }
            openCompareDialog(choices, baseIndex, comparison, purpose);
        },
        Qt::SingleShotConnection);
    other->openPath(path);
}

void CompareLauncher::restore(const CompareSetup &setup)
{
    const TraceModel *model = m_window->model();
    const std::vector<StepChoice> mine = stepChoices();
    const auto base = pick(mine, model, setup.baseStep);
    if (setup.comparisonPath.isEmpty() || setup.comparisonPath == m_window->currentPath()) {
        const auto comparison = pick(mine, model, setup.comparisonStep);
        if (base && comparison)
            compareSteps(*base, *comparison, setup.matchShapes);
    } else if (base) {
        auto *other = new MainWindow;
        other->setAttribute(Qt::WA_DeleteOnClose);
        other->show();
        connect(
            other, &MainWindow::loadFinished, this,
            [this, other, base, setup](bool ok) {
                if (!ok)
                    return;
                if (const auto comparison = pick(other->stepChoices(), other->model(), setup.comparisonStep))
                    compareSteps(*base, *comparison, setup.matchShapes);
            },
            Qt::SingleShotConnection);
        other->openPath(setup.comparisonPath);
    }
}

} // namespace at
