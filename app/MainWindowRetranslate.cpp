// Live retranslation (issue 17): View ▸ Language installs a translator, Qt sends QEvent::LanguageChange to
// every window, and the main window sets its texts again in the new language.
#include "MainWindow.h"

#include "AppearanceMenus.h"
#include "ClusterController.h"
#include "Commands.h"
#include "KernelColorChooser.h"
#include "LoadProgress.h"
#include "PanelRegistry.h"
#include "RecentPaths.h"
#include "StartPage.h"
#include "StatusLabel.h"
#include "TimelineView.h"

#include <QComboBox>
#include <QEvent>
#include <QLabel>
#include <QMenu>
#include <QStackedWidget>
#include <QTimer>
#include <QToolBar>

namespace at {

void MainWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QMainWindow::changeEvent(event);
}

void MainWindow::retranslateUi()
{
    const std::pair<const char *, const char *> menus[] = {{"menu.file", QT_TR_NOOP("&File")},
                                                           {"menu.view", QT_TR_NOOP("&View")},
                                                           {"menu.help", QT_TR_NOOP("&Help")}};
    for (const auto &[name, title] : menus)
        if (auto *menu = findChild<QMenu *>(QLatin1String(name)))
            menu->setTitle(tr(title));
    m_recentMenu->retranslate();
    retranslateCommandActions(this); // every registry command, also the panels' own actions
    m_panels->retranslate();
    retranslateAppearanceMenus(this);
    m_cluster->retranslate();
    m_progress->retranslate();
    if (auto *toolbar = findChild<QToolBar *>(QStringLiteral("ViewToolBar")))
        toolbar->setWindowTitle(tr("View"));
    if (auto *label = findChild<QLabel *>(QStringLiteral("ColorByLabel")))
        label->setText(tr(" Colour kernels: "));
    m_colorBy->retranslate();
    retranslateTableHeaders(this);
    // The Overview's texts come translated from core: made again (the page keeps showing the old ones
    // until then).
    updateOverviewAction();
    if (m_overviewReady && !m_overviewRerunPending) { // once for a burst of LanguageChange events
        m_overviewRerunPending = true;
        QTimer::singleShot(0, this, [this] {
            m_overviewRerunPending = false;
            if (m_model && !isLoading())
                startOverview();
            else if (!m_model)
                showClusterOverview();
        });
    }
    if (m_model && (m_pages->currentWidget() == m_timeline || showsOverview()) && !isLoading()) {
        showModelSummary();
    } else if (m_pages->currentWidget() == m_startPage) {
        setWindowTitle(tr("Ascend Timeline"));
    }
}

} // namespace at
