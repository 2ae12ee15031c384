#include "MainWindow.h"

#include "AppearanceMenus.h"

#include "Commands.h"
#include "MarkerList.h"
#include "MarksAndSteps.h"
#include "MessageBar.h"
#include "OpenDialogs.h"
#include "PanelRegistry.h"
#include "PreparedCacheSetting.h"
#include "RecentPaths.h"
#include "SearchBar.h"
#include "ShortcutsDialog.h"
#include "StartPage.h"
#include "StatusLabel.h"
#include "Steps.h"
#include "StepsPanel.h"
#include "TimelineView.h"
#include "TraceQueries.h"
#include "ViewExport.h"

#include <QAction>
#include <QCoreApplication>
#include <QLabel>
#include <QMenuBar>

#include <algorithm>

// The main window's commands: a handler per command id of the registry (Commands.h), and the menus
// built in the registry's order.

namespace at {

std::vector<std::pair<const char *, std::function<void()>>> MainWindow::commandHandlers()
{
    TimelineView *t = m_timeline;
    const auto info = [this](const QString &text) { m_messages->showMessage(MessageBar::Kind::Info, text); };
    return {
        {"file.open", [this] { chooseFileToOpen(); }},
        {"file.openFolder", [this] { chooseFolderToOpen(); }},
        {"file.openInNewWindow", [this] { openInNewWindow(); }},
        {"file.openSample", [this] { openBundledSample(); }},
        {"file.reloadOtherSource",
         [this, info] {
             if (!reloadWithOtherSource())
                 info(tr(
                     "This result has only one export (no database beside the text export, or the other way "
                     "round)."));
         }},
        {"file.reloadRaw",
         [this, info] {
             if (!reloadFromRawData())
                 info(tr(
                     "This result has no raw data (PROF_*/host|device_N/data), or it is already decoded from "
                     "it."));
         }},
        {"file.exportPng", [this] { exportView(ViewImageFormat::Png); }},
        {"file.exportPngWhole", [this] { exportView(ViewImageFormat::WholeHeightPng); }},
        {"file.exportSvg", [this] { exportView(ViewImageFormat::Svg); }},
        {"file.openSession",
         [this] {
             if (const QString path = chooseSessionToOpen(this); !path.isEmpty())
                 openSession(path);
         }},
        {"file.saveSession", [this] { saveSessionAs(); }},
        {"file.preparedCacheFolder",
         [this] {
             if (const QString folder = choosePreparedCacheFolder(this); !folder.isEmpty())
                 setPreparedCacheFolder(folder);
         }},
        {"file.stopPreparedCache", [this] { setPreparedCacheFolder({}); }},
        {"file.close", [this] { closeTrace(); }},
        {"file.quit", [this] { close(); }},
        {"view.overview", [this] { showOverviewPage(); }},
        {"view.find", [this] { m_search->activate(); }},
        {"view.zoomIn", [t] { t->zoomIn(); }},
        {"view.zoomOut", [t] { t->zoomOut(); }},
        {"view.panLeft", [t] { t->panLeft(); }},
        {"view.panRight", [t] { t->panRight(); }},
        {"view.showAll", [t] { t->showAll(); }},
        {"view.fitSelection", [t] { t->fitSelection(); }},
        {"view.undoZoom", [t] { t->undoZoom(); }},
        {"view.markSelection", [this] { markSelection(); }},
        {"view.dropFlag", [this] { dropFlag(); }},
        {"view.colorRules", [this] { editColorRules(); }},
        {"view.previousStep", [this] { showAdjacentStep(-1); }},
        {"view.nextStep", [this] { showAdjacentStep(+1); }},
        {"view.compareSteps", [this] { chooseStepsToCompare(); }},
        {"view.diffByOp", [this] { m_compare->chooseStepsToDiff(); }},
        {"help.shortcuts",
         [this] {
             auto *dialog = new ShortcutsDialog(this);
             dialog->setAttribute(Qt::WA_DeleteOnClose);
             dialog->show();
         }},
        {"help.about",
         [info] {
             info(tr("Ascend Timeline %1: a fast timeline viewer for Ascend NPU profiling data.")
                      .arg(QCoreApplication::applicationVersion()));
         }},
    };
}

void MainWindow::createActions()
{
    // Menus in the registry's order; each command's keys come from the registry (Commands.h).
    const std::pair<CommandScope, QMenu *> menus[] = {
        {CommandScope::File, menuBar()->addMenu(tr("&File"))},
        {CommandScope::View, menuBar()->addMenu(tr("&View"))},
        {CommandScope::Help, menuBar()->addMenu(tr("&Help"))},
    };
    menus[0].second->setObjectName(QStringLiteral("menu.file"));
    menus[1].second->setObjectName(QStringLiteral("menu.view"));
    menus[2].second->setObjectName(QStringLiteral("menu.help"));
    m_recentMenu = new RecentMenu(this);
    menus[0].second->addMenu(m_recentMenu);
    connect(m_recentMenu, &RecentMenu::pathChosen, this, &MainWindow::openPath);
    connect(m_recentMenu, &RecentMenu::pathsChanged, m_startPage, &StartPage::setRecentPaths);
    m_recentMenu->refill();
    const auto handlers = commandHandlers();
    for (const auto &[scope, menu] : menus) {
        for (const Command &c : commands()) {
            if (c.scope != scope)
                continue;
            const auto handler = std::find_if(handlers.begin(), handlers.end(),
                                              [&c](const auto &h) { return qstrcmp(h.first, c.id) == 0; });
            Q_ASSERT_X(handler != handlers.end(), "MainWindow::createActions", c.id);
            if (handler == handlers.end())
                continue; // a menu command without a handler (tst_keys lists it)
            QAction *action = makeCommandAction(c.id, this);
            connect(action, &QAction::triggered, this, handler->second);
            menu->addAction(action);
        }
    }
    menus[1].second->addMenu(m_panels->menu());
    addAppearanceMenus(menus[1].second, m_messages);
    updatePreparedCacheActions();
}

void MainWindow::setPreparedCacheFolder(const QString &folder)
{
    setSavedPreparedCacheFolder(folder);
    updatePreparedCacheActions();
    const QString saved = savedPreparedCacheFolder();
    m_messages->showMessage(
        MessageBar::Kind::Info,
        saved.isEmpty() ? tr("No prepared cache folder: the following loads use the usual snapshot cache.")
        : !m_loadOptions.followsSavedFolder()
            ? tr("Prepared cache folder %1 kept for the next start; this window keeps the command line's "
                 "choice.")
                  .arg(saved)
            : tr("The following loads use the prepared cache folder %1 (ranks prepared there open without "
                 "parsing).")
                  .arg(saved));
}

void MainWindow::updatePreparedCacheActions()
{
    if (auto *stop = findChild<QAction *>(QStringLiteral("file.stopPreparedCache")))
        stop->setEnabled(!savedPreparedCacheFolder().isEmpty());
}

void MainWindow::openInNewWindow()
{
    const QString path = chooseTraceFile(this, tr("Open trace in a new window"));
    if (path.isEmpty())
        return;
    auto *window = new MainWindow;
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->show();
    window->openPath(path);
}

void MainWindow::saveSessionAs()
{
    if (!m_model)
        return;
    const QString path = chooseSessionToSave(this);
    QString error;
    if (!path.isEmpty() && !saveSession(path, &error))
        m_messages->showMessage(MessageBar::Kind::Error, error);
}

void MainWindow::exportView(ViewImageFormat format)
{
    if (const QString error = saveViewImage(this, *m_timeline, format, windowTitle(), viewDescription());
        !error.isEmpty())
        m_messages->showMessage(MessageBar::Kind::Error, error);
}

bool MainWindow::markSelection()
{
    if (!m_model)
        return false;
    const std::optional<Marker> m = markerOfSelection(*m_timeline);
    if (!m)
        m_status->setText(tr("Select a slice or drag a range first, then press m"));
    else
        addInNextColour(*m_markerList, *m);
    return m.has_value();
}

void MainWindow::dropFlag()
{
    if (m_model)
        addInNextColour(*m_markerList, flagAtMouse(*m_timeline));
}

void MainWindow::showStep(int step)
{
    if (!fitStep(*m_timeline, step))
        return;
    const QSignalBlocker blocker(m_steps);
    m_steps->selectStep(step);
}

bool MainWindow::showAdjacentStep(int direction)
{
    if (!m_model || m_model->steps().empty())
        return false;
    const int step = adjacentStepOf(*m_timeline, m_steps->selectedSteps(), direction);
    if (step < 0)
        m_status->setText(direction > 0 ? tr("No later step") : tr("No earlier step"));
    else
        showStep(step);
    return step >= 0;
}

} // namespace at
