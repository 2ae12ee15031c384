#include "CompareWindow.h"

#include "Commands.h"
#include "StepCompareView.h"
#include "Steps.h"
#include "TimelineKeyboard.h"
#include "common/OutputPath.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>

namespace at {

CompareWindow::CompareWindow(const StepChoice &base, const StepChoice &comparison, bool matchShapes,
                             QWidget *parent)
    : QMainWindow(parent), m_models{base.model, comparison.model},
      m_stepLabels{base.model->steps()[static_cast<std::size_t>(base.step)].label,
                   comparison.model->steps()[static_cast<std::size_t>(comparison.step)].label},
      m_view(new StepCompareView)
{
    setAttribute(Qt::WA_DeleteOnClose);
    setCentralWidget(m_view);
    m_view->setMatchShapes(matchShapes);
    m_view->setSteps(base.model.get(), base.step, comparison.model.get(), comparison.step, base.label,
                     comparison.label);
    m_fileMenu = menuBar()->addMenu(QString());
    QMenu *file = m_fileMenu;
    const std::pair<const char *, std::function<void()>> commands[] = {
        {"compare.exportByName", [this] { exportCsv(true); }},
        {"compare.exportPerKernel", [this] { exportCsv(false); }},
        {"compare.close", [this] { close(); }},
    };
    for (const auto &[id, handler] : commands) {
        QAction *action = makeCommandAction(id, this);
        connect(action, &QAction::triggered, this, handler);
        file->addAction(action);
    }
    // w/s/a/d (held too), 0, f, Backspace from anywhere in the window, as in the main window.
    new NavigationKeyFilter(this, [this] { return m_view->activePane(); });
    retranslateUi();
    resize(1400, 950);
}

void CompareWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QMainWindow::changeEvent(event);
}

void CompareWindow::retranslateUi()
{
    setWindowTitle(tr("Compare %1 with %2 — Ascend Timeline").arg(m_stepLabels[0], m_stepLabels[1]));
    m_fileMenu->setTitle(tr("&File"));
    retranslateCommandActions(this);
}

CompareWindow::~CompareWindow()
{
    delete m_view; // before the models it points to
}

void CompareWindow::exportCsv(bool byName)
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export diff"),
                                                      byName ? QStringLiteral("step_diff_by_name.csv")
                                                             : QStringLiteral("step_diff.csv"),
                                                      tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    const QByteArray csv = byName ? formatComparisonByNameCsv(m_view->comparison())
                                  : formatComparisonKernelsCsv(m_view->comparison());
    QString why;
    if (!writeOutputFile(path, csv, &why))
        QMessageBox::warning(this, tr("Export diff"), tr("Could not write %1: %2").arg(path, why));
}

CompareStepsDialog::CompareStepsDialog(std::vector<StepChoice> choices, int base, int comparison,
                                       QWidget *parent)
    : QDialog(parent), m_choices(std::move(choices)), m_base(new QComboBox), m_comparison(new QComboBox),
      m_shapes(new QCheckBox(tr("Match kernels by name and input shapes")))
{
    setWindowTitle(tr("Compare Steps"));
    for (const StepChoice &c : m_choices) {
        m_base->addItem(c.label);
        m_comparison->addItem(c.label);
    }
    m_base->setCurrentIndex(base);
    m_comparison->setCurrentIndex(comparison);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Compare"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *form = new QFormLayout(this);
    form->addRow(tr("Base step:"), m_base);
    form->addRow(tr("Comparison step:"), m_comparison);
    form->addRow(m_shapes);
    form->addRow(buttons);
    resize(640, sizeHint().height());
}

const StepChoice &CompareStepsDialog::base() const
{
    return m_choices[static_cast<std::size_t>(m_base->currentIndex())];
}

const StepChoice &CompareStepsDialog::comparison() const
{
    return m_choices[static_cast<std::size_t>(m_comparison->currentIndex())];
}

bool CompareStepsDialog::matchShapes() const
{
    return m_shapes->isChecked();
}

void CompareStepsDialog::useForOpDiff()
{
    setWindowTitle(tr("Diff by Framework Op"));
    m_shapes->setText(tr("Match ops by name and input shapes"));
    if (auto *buttons = findChild<QDialogButtonBox *>())
        buttons->button(QDialogButtonBox::Ok)->setText(tr("Diff"));
}

} // namespace at
