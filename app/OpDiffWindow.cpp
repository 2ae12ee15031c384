#include "OpDiffWindow.h"

#include "ChangeColors.h"
#include "Commands.h"
#include "NumberFormat.h"
#include "OpDiffView.h"
#include "StepCompareView.h"
#include "Steps.h"
#include "TimelineKeyboard.h"
#include "TimelineView.h"
#include "common/OutputPath.h"

#include <QAction>
#include <QEvent>
#include <QFileDialog>
#include <QHash>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QStatusBar>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

namespace at {

namespace {

constexpr int kBusyAfterMs = 100;     // the progress bar shows only for a diff that takes longer
constexpr TimeNs kMinRevealNs = 1000; // an op without device work is still shown over a few µs

// The colour of each op slice of one side: matched ops by their device-time change, ops of one side only
// grey. Shared by the pane's colour override, which may outlive this window.
using OpColours = QHash<std::uint64_t, QColor>;

const diff::OpTree &treeOf(const diff::DiffResult &result, int side)
{
    return side == 0 ? result.baseTree : result.comparisonTree;
}

TimelineView *paneOf(StepCompareView *view, int side)
{
    return side == 0 ? view->basePane() : view->comparisonPane();
}

} // namespace

diff::DiffWindow OpDiffWindow::windowOf(const StepChoice &choice)
{
    const Step &step = choice.model->steps()[static_cast<std::size_t>(choice.step)];
    diff::DiffWindow window{step.hostBegin, step.hostEnd, step.group, step.label, step.marker};
    if (step.marker.isValid())
        for (const diff::DiffWindow &w : diff::profilerStepWindows(*choice.model))
            if (w.step == step.marker)
                window = w;
    window.label = choice.label; // "file · Rank 0 / Device 0 · ProfilerStep#50" in the headline
    return window;
}

OpDiffWindow::OpDiffWindow(const StepChoice &base, const StepChoice &comparison, bool matchShapes,
                           QWidget *parent)
    : QMainWindow(parent), m_sides{base, comparison}, m_matchShapes(matchShapes), m_view(new OpDiffView),
      m_progress(new QProgressBar), m_status(new QLabel)
{
    setAttribute(Qt::WA_DeleteOnClose);
    setCentralWidget(m_view);
    m_fileMenu = menuBar()->addMenu(QString());
    const std::pair<const char *, std::function<void()>> commands[] = {
        {"opdiff.exportCsv", [this] { exportCsv(); }},
        {"opdiff.sideBySide", [this] { showSideBySide(); }},
        {"compare.close", [this] { close(); }},
    };
    for (const auto &[id, handler] : commands) {
        QAction *action = makeCommandAction(id, this);
        connect(action, &QAction::triggered, this, handler);
        m_fileMenu->addAction(action);
    }
    m_progress->setRange(0, 0); // busy: the diff reports no fraction
    m_progress->setMaximumWidth(200);
    m_progress->hide();
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_progress);
    connect(m_view, &OpDiffView::diffRowActivated, this, &OpDiffWindow::showRow);
    connect(m_view, &OpDiffView::unmatchedOpActivated, this, &OpDiffWindow::showUnmatchedOp);
    connect(&m_watcher, &QFutureWatcherBase::finished, this, &OpDiffWindow::onFinished);

    diff::DiffOptions options;
    options.matchShapes = matchShapes;
    // The worker keeps the models alive through its own copies of the shared pointers.
    m_clock.start();
    m_watcher.setFuture(QtConcurrent::run([b = base.model, c = comparison.model, baseWindow = windowOf(base),
                                           comparisonWindow = windowOf(comparison), options] {
        return std::shared_ptr<const diff::DiffResult>(std::make_shared<diff::DiffResult>(
            diff::diffProfiles({b.get(), baseWindow}, {c.get(), comparisonWindow}, options)));
    }));
    QTimer::singleShot(kBusyAfterMs, this, [this] {
        if (m_watcher.isRunning())
            m_progress->show();
    });
    retranslateUi();
    resize(1400, 900);
}

OpDiffWindow::~OpDiffWindow()
{
    m_watcher.waitForFinished(); // the worker reads the models this window keeps alive
    delete m_view;               // before the result its models point into
}

void OpDiffWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QMainWindow::changeEvent(event);
}

void OpDiffWindow::retranslateUi()
{
    //: The op diff window's title: "Diff by framework op: <base step> → <comparison step>"
    setWindowTitle(
        tr("Diff by framework op: %1 → %2 — Ascend Timeline").arg(m_sides[0].label, m_sides[1].label));
    m_fileMenu->setTitle(tr("&File"));
    retranslateCommandActions(this);
    if (!m_result)
        m_status->setText(tr("Computing the diff by framework op…"));
    else
        //: The op diff's status bar: how the op levels were aligned (e.g. "exact LCS on every level") and
        //: how long the diff took
        m_status->setText(
            tr("Alignment: %1 · computed in %2").arg(m_result->method, formatDurationNs(m_computeNs)));
}

void OpDiffWindow::onFinished()
{
    m_progress->hide();
    m_computeNs = m_clock.nsecsElapsed();
    m_result = m_watcher.result();
    m_view->setResult(m_result, m_sides[0].model.get(), m_sides[1].model.get());
    retranslateUi();
    if (m_sideBySide)
        colourPanes();
    Q_EMIT resultReady();
}

CompareWindow *OpDiffWindow::showSideBySide()
{
    if (!m_sideBySide) {
        m_sideBySide = new CompareWindow(m_sides[0], m_sides[1], m_matchShapes);
        m_sideBySide->show();
        if (m_result)
            colourPanes();
    }
    m_sideBySide->raise();
    return m_sideBySide;
}

void OpDiffWindow::colourPanes()
{
    StepCompareView *view = m_sideBySide->view();
    for (int side = 0; side < 2; ++side) {
        auto colours = std::make_shared<OpColours>();
        for (const diff::DiffRow &row : m_result->rows) {
            const diff::RowSide &mine = side == 0 ? row.base : row.comparison;
            if (row.kind == diff::RowKind::MatchedOp && mine.op >= 0)
                colours->insert(
                    sliceKey(treeOf(*m_result, side).ops[static_cast<std::size_t>(mine.op)].slice),
                    durationChangeColor(row.base.deviceNs, row.comparison.deviceNs));
        }
        for (const diff::UnmatchedOp &op :
             side == 0 ? m_result->unmatchedBase : m_result->unmatchedComparison)
            colours->insert(sliceKey(treeOf(*m_result, side).ops[static_cast<std::size_t>(op.op)].slice),
                            unmatchedKernelColor());
        // Ops by the op diff; kernels, as before, by the compare view's kernel pairs.
        paneOf(view, side)->setColorOverride([view, side, colours](SliceRef ref) -> std::optional<QColor> {
            if (const auto it = colours->constFind(sliceKey(ref)); it != colours->constEnd())
                return *it;
            if (const auto pair = view->pairOf(side, ref))
                return durationChangeColor(view->comparison().kernels[*pair]);
            return std::nullopt;
        });
        paneOf(view, side)->refreshColors();
    }
}

void OpDiffWindow::showRow(int diffRow)
{
    if (!m_result || diffRow < 0 || static_cast<std::size_t>(diffRow) >= m_result->rows.size())
        return;
    StepCompareView *view = showSideBySide()->view();
    const diff::DiffRow &row = m_result->rows[static_cast<std::size_t>(diffRow)];
    const Step *steps[2] = {&view->baseStep(), &view->comparisonStep()};
    TimeNs starts[2] = {steps[0]->begin(), steps[1]->begin()};
    TimeNs ends[2] = {starts[0], starts[1]};
    // The comparison pane first: the base pane's vertical scroll, done last, is the one the panes keep.
    for (const int side : {1, 0}) {
        TimelineView *pane = paneOf(view, side);
        const diff::RowSide &mine = side == 0 ? row.base : row.comparison;
        const diff::OpTree &tree = treeOf(*m_result, side);
        if (mine.op >= 0) {
            const diff::FrameworkOp &op = tree.ops[static_cast<std::size_t>(mine.op)];
            pane->selectSlice(op.slice, false);
            pane->revealSliceRow(op.slice);
            starts[side] = op.start;
            ends[side] = op.start + op.hostDuration;
        } else {
            pane->selectSlice({}, false);
            if (!mine.work.empty())
                starts[side] = ends[side] = tree.work[static_cast<std::size_t>(mine.work.front())].start;
        }
        for (const int w : mine.work) {
            const diff::DeviceWork &work = tree.work[static_cast<std::size_t>(w)];
            ends[side] = std::max(ends[side], work.start + work.duration);
        }
        std::vector<SliceRef> kernels = diff::rowSlices(*m_result, diffRow, side == 1);
        pane->setHighlightedSlices(std::move(kernels));
    }
    // Matched ops, not times: the comparison op sits at the base op's x.
    view->alignOnTimes(starts[0], starts[1]);
    // Zoomed on the op and its kernels (the longer side's), with three times their length around them
    // for context; the comparison pane follows the base pane.
    const TimeNs length = std::max<TimeNs>({ends[0] - starts[0], ends[1] - starts[1], kMinRevealNs});
    paneOf(view, 0)->zoom()->fit({starts[0] - 3 * length, starts[0] + 4 * length});
}

void OpDiffWindow::showUnmatchedOp(bool comparison, int opIndex)
{
    if (!m_result)
        return;
    const int side = comparison ? 1 : 0;
    const diff::OpTree &tree = treeOf(*m_result, side);
    if (opIndex < 0 || static_cast<std::size_t>(opIndex) >= tree.ops.size())
        return;
    StepCompareView *view = showSideBySide()->view();
    const diff::FrameworkOp &op = tree.ops[static_cast<std::size_t>(opIndex)];
    TimelineView *pane = paneOf(view, side);
    pane->selectSlice(op.slice, false);
    pane->revealSliceRow(op.slice);
    pane->clearHighlights();
    pane->revealSpan(op.start, op.start + op.hostDuration);
}

void OpDiffWindow::exportCsv()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export op diff"),
                                                      QStringLiteral("op_diff.csv"), tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    QString why;
    if (!writeOutputFile(path, m_view->tableCsv(), &why))
        QMessageBox::warning(this, tr("Export op diff"), tr("Could not write %1: %2").arg(path, why));
}

} // namespace at
