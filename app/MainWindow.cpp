#include "MainWindow.h"

#include "ChartsPanel.h"
#include "CollectionPanel.h"
#include "CompareWindow.h"
#include "DetailsPanel.h"
#include "KernelTablePanel.h"
#include "MarkerList.h"
#include "MarkersPanel.h"
#include "MessageBar.h"
#include "SearchBar.h"
#include "StartPage.h"
#include "StatisticsPanel.h"
#include "Steps.h"
#include "StepsPanel.h"
#include "SummaryTablesPanel.h"
#include "TimelineView.h"
#include "TraceQueries.h"

#include <QAction>
#include <QApplication>
#include <QBuffer>
#include <QCloseEvent>
#include <QColorDialog>
#include <QComboBox>
#include <QDialog>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QMultiHash>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QSvgGenerator>
#include <QTableWidget>
#include <QToolBar>
#include <QVBoxLayout>
#include <QtConcurrent>

static void initResources()
{
    Q_INIT_RESOURCE(resources);
}

namespace at {

namespace {
QList<MainWindow *> &windowRegistry()
{
    static QList<MainWindow *> windows;
    return windows;
}
} // namespace

struct MainWindow::Loading
{
    QString path;
    std::shared_ptr<LoadControl> control = std::make_shared<LoadControl>();
    QFutureWatcher<std::shared_ptr<LoadResult>> watcher;
};

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_timeline(new TimelineView), m_details(new DetailsPanel),
      m_statistics(new StatisticsPanel), m_search(new SearchBar), m_kernels(new KernelTablePanel),
      m_collection(new CollectionPanel), m_tables(new SummaryTablesPanel), m_charts(new ChartsPanel),
      m_steps(new StepsPanel), m_pages(new QStackedWidget), m_startPage(new StartPage),
      m_markerList(new MarkerList(this)), m_markersPanel(new MarkersPanel(m_markerList)),
      m_colorBy(new QComboBox), m_messages(new MessageBar), m_progress(new QProgressBar),
      m_cancel(new QPushButton(tr("Cancel"))), m_status(new QLabel)
{
    initResources();
    windowRegistry().append(this);
    setWindowTitle(tr("Ascend Timeline"));
    setAcceptDrops(true);
    resize(1400, 900);

    auto *central = new QWidget;
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_messages);
    layout->addWidget(m_search);
    m_pages->addWidget(m_startPage);
    m_pages->addWidget(m_timeline);
    layout->addWidget(m_pages, 1);
    connect(m_startPage, &StartPage::openPathRequested, this, &MainWindow::openPath);
    connect(m_startPage, &StartPage::openSampleRequested, this, &MainWindow::openBundledSample);
    connect(m_startPage, &StartPage::openFileRequested, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open trace"), QString(),
            tr("Traces (*.json *.json.zst *.json.gz *.zst *.gz *.db);;All files (*)"));
        if (!path.isEmpty())
            openPath(path);
    });
    connect(m_startPage, &StartPage::openFolderRequested, this, [this] {
        const QString path = QFileDialog::getExistingDirectory(this, tr("Open profiling result folder"));
        if (!path.isEmpty())
            openPath(path);
    });
    m_search->hide();
    setCentralWidget(central);

    auto *detailsDock = new QDockWidget(tr("Details"), this);
    detailsDock->setObjectName(QStringLiteral("DetailsDock"));
    detailsDock->setWidget(m_details);
    addDockWidget(Qt::RightDockWidgetArea, detailsDock);
    auto *statsDock = new QDockWidget(tr("Range statistics"), this);
    statsDock->setObjectName(QStringLiteral("StatisticsDock"));
    statsDock->setWidget(m_statistics);
    addDockWidget(Qt::BottomDockWidgetArea, statsDock);
    auto *kernelsDock = new QDockWidget(tr("Kernels"), this);
    kernelsDock->setObjectName(QStringLiteral("KernelsDock"));
    kernelsDock->setWidget(m_kernels);
    addDockWidget(Qt::BottomDockWidgetArea, kernelsDock);
    tabifyDockWidget(statsDock, kernelsDock);
    auto *tablesDock = new QDockWidget(tr("Tables"), this);
    tablesDock->setObjectName(QStringLiteral("TablesDock"));
    tablesDock->setWidget(m_tables);
    addDockWidget(Qt::BottomDockWidgetArea, tablesDock);
    tabifyDockWidget(kernelsDock, tablesDock);
    auto *chartsDock = new QDockWidget(tr("Charts"), this);
    chartsDock->setObjectName(QStringLiteral("ChartsDock"));
    chartsDock->setWidget(m_charts);
    addDockWidget(Qt::BottomDockWidgetArea, chartsDock);
    tabifyDockWidget(tablesDock, chartsDock);
    auto *stepsDock = new QDockWidget(tr("Steps"), this);
    stepsDock->setObjectName(QStringLiteral("StepsDock"));
    stepsDock->setWidget(m_steps);
    addDockWidget(Qt::BottomDockWidgetArea, stepsDock);
    tabifyDockWidget(chartsDock, stepsDock);
    connect(m_steps, &StepsPanel::stepActivated, this, &MainWindow::showStep);
    connect(m_steps, &StepsPanel::compareRequested, this, [this] { chooseStepsToCompare(); });
    auto *markersDock = new QDockWidget(tr("Markers"), this);
    markersDock->setObjectName(QStringLiteral("MarkersDock"));
    markersDock->setWidget(m_markersPanel);
    addDockWidget(Qt::BottomDockWidgetArea, markersDock);
    tabifyDockWidget(stepsDock, markersDock);
    m_timeline->setMarkers(m_markerList);
    connect(m_markersPanel, &MarkersPanel::markerActivated, this, [this](int i) {
        const Marker &m = m_markerList->at(i);
        if (m.isFlag()) {
            const TimeRange r = m_timeline->zoom()->range();
            m_timeline->zoom()->setRange({m.begin - r.width() / 2, m.begin - r.width() / 2 + r.width()},
                                         true);
        } else {
            m_timeline->zoom()->fit({m.begin, m.end});
        }
    });
    auto *collectionDock = new QDockWidget(tr("Collection"), this);
    collectionDock->setObjectName(QStringLiteral("CollectionDock"));
    collectionDock->setWidget(m_collection);
    addDockWidget(Qt::RightDockWidgetArea, collectionDock);
    tabifyDockWidget(detailsDock, collectionDock);
    detailsDock->raise();
    statsDock->raise();
    resizeDocks({detailsDock}, {420}, Qt::Horizontal);
    resizeDocks({statsDock}, {220}, Qt::Vertical);

    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    m_progress->setRange(0, 1000);
    m_progress->setFormat(tr("%p% read"));
    m_progress->setMaximumWidth(260);
    m_progress->hide();
    m_cancel->hide();
    connect(m_cancel, &QPushButton::clicked, this, &MainWindow::cancelLoading);
    m_progressTimer.setInterval(50);
    connect(&m_progressTimer, &QTimer::timeout, this, &MainWindow::updateProgress);

    connect(m_timeline, &TimelineView::selectionChanged, m_details, &DetailsPanel::showSlice);
    connect(m_timeline, &TimelineView::rangeSelected, m_statistics, &StatisticsPanel::showRange);
    connect(m_timeline, &TimelineView::selectionChanged, m_kernels, &KernelTablePanel::selectSlice);
    connect(m_timeline, &TimelineView::rangeSelected, m_kernels, &KernelTablePanel::setTimeSelection);
    connect(m_timeline, &TimelineView::selectionChanged, m_charts, &ChartsPanel::selectSlice);
    connect(m_charts, &ChartsPanel::kernelActivated, m_timeline,
            [this](SliceRef ref) { m_timeline->selectSlice(ref, true); });
    connect(m_kernels, &KernelTablePanel::filterChanged, m_charts, [this](const KernelRows &rows) {
        // The charts read an empty list as "all kernels"; a filter that matches nothing is kept empty
        // with an index no table has.
        m_charts->setFilter(rows.empty() ? KernelRows{std::numeric_limits<std::size_t>::max()} : rows);
    });
    auto *toolbar = addToolBar(tr("View"));
    toolbar->setObjectName(QStringLiteral("ViewToolBar"));
    toolbar->addWidget(new QLabel(tr(" Colour kernels: ")));
    m_colorBy->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_colorBy->setToolTip(
        tr("Colour device kernels by name, by duration percentile, or by an AI Core metric"));
    toolbar->addWidget(m_colorBy);
    connect(m_colorBy, &QComboBox::currentIndexChanged, this, &MainWindow::applyColoring);
    connect(m_kernels, &KernelTablePanel::kernelActivated, m_timeline,
            [this](SliceRef ref) { m_timeline->selectSlice(ref, true); });
    connect(m_details, &DetailsPanel::jumpTo, m_timeline,
            [this](SliceRef ref) { m_timeline->selectSlice(ref, true); });
    connect(m_search, &SearchBar::matchActivated, m_timeline,
            [this](SliceRef ref) { m_timeline->selectSlice(ref, true); });
    connect(m_search, &SearchBar::closed, m_timeline, [this] { m_timeline->setFocus(); });
    createActions();
    // Window geometry and dock layout as the user left them.
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_timeline->setFocus();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    QMainWindow::closeEvent(event);
}

bool MainWindow::exportViewPng(const QString &path) const
{
    return m_timeline->grab().save(path, "PNG");
}

bool MainWindow::exportViewSvg(const QString &path, QString *error) const
{
    // The view paints itself into the SVG generator (text stays text, shapes stay vectors).
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    const QSize size = m_timeline->viewport()->size();
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(windowTitle());
    generator.setDescription(tr("Ascend Timeline view of %1").arg(m_currentPath));
    m_timeline->viewport()->render(&generator);
    buffer.close();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(buffer.data()) != buffer.data().size() ||
        !file.commit()) {
        *error = tr("Could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

QStringList MainWindow::recentPaths() const
{
    return QSettings().value(QStringLiteral("recent/paths")).toStringList();
}

void MainWindow::rememberRecent(const QString &path)
{
    if (path == QLatin1String(kBundledSample))
        return;
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList paths = recentPaths();
    paths.removeAll(absolute);
    paths.prepend(absolute);
    while (paths.size() > 10)
        paths.removeLast();
    QSettings().setValue(QStringLiteral("recent/paths"), paths);
    fillRecentMenu();
}

void MainWindow::fillRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList paths = recentPaths();
    for (const QString &path : paths)
        m_recentMenu->addAction(path, this, [this, path] { openPath(path); });
    m_recentMenu->setEnabled(!paths.isEmpty());
    m_startPage->setRecentPaths(paths);
}

void MainWindow::chooseFileToOpen()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open trace"), QString(),
        tr("Traces (*.json *.json.zst *.json.gz *.zst *.gz *.db);;All files (*)"));
    if (!path.isEmpty())
        openPath(path);
}

void MainWindow::chooseFolderToOpen()
{
    const QString path = QFileDialog::getExistingDirectory(this, tr("Open profiling result folder"));
    if (!path.isEmpty())
        openPath(path);
}

bool MainWindow::showsStartPage() const
{
    return m_pages->currentWidget() == m_startPage;
}

void MainWindow::closeTrace()
{
    attachViews(nullptr);
    m_model.reset();
    m_currentPath.clear();
    m_markerList->setAll({});
    m_lastCompare.reset();
    setWindowTitle(tr("Ascend Timeline"));
    m_status->clear();
    m_pages->setCurrentWidget(m_startPage);
}

QList<MainWindow *> MainWindow::openWindows()
{
    return windowRegistry();
}

MainWindow::~MainWindow()
{
    windowRegistry().removeAll(this);
    if (m_loading) {
        m_loading->control->cancel = true;
        m_loading->watcher.waitForFinished();
    }
    // The panels are destroyed by ~QWidget, after our members: they must not keep a pointer to
    // the model past this point (a hidden table still asks its model for header data).
    attachViews(nullptr);
    m_model.reset();
}

void MainWindow::attachViews(const TraceModel *model)
{
    m_timeline->setModel(model);
    m_details->setModel(model);
    m_statistics->setModel(model);
    m_search->setModel(model);
    m_kernels->setModel(model);
    m_collection->setModel(model);
    m_tables->setModel(model);
    m_charts->setModel(model);
    m_steps->setModel(model);
    fillColorChooser();
}

void MainWindow::fillColorChooser()
{
    const QSignalBlocker blocker(m_colorBy);
    m_colorBy->clear();
    m_colorBy->addItem(tr("by name"), -2);
    const TraceModel *model = m_timeline->model();
    if (model && !model->kernels().empty()) {
        m_colorBy->addItem(tr("by duration percentile"), -1);
        const auto &columns = model->kernels().columns();
        for (std::size_t c = 0; c < columns.size(); ++c)
            m_colorBy->addItem(tr("by %1").arg(columns[c].header), static_cast<int>(c));
    }
    m_colorBy->setCurrentIndex(0);
}

void MainWindow::applyColoring()
{
    const int choice = m_colorBy->currentData().toInt();
    MetricColoring &coloring = m_timeline->coloring();
    if (choice == -2)
        coloring.setByName();
    else if (choice == -1)
        coloring.setByDurationPercentile();
    else
        coloring.setByMetric(choice);
    m_timeline->refreshColors();
}

void MainWindow::createActions()
{
    struct Entry
    {
        QMenu *menu;
        QString text;
        QList<QKeySequence> keys;
        std::function<void()> slot;
    };
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QMenu *view = menuBar()->addMenu(tr("&View"));
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    TimelineView *t = m_timeline;
    // One QAction per command: menus, keys and the shortcut list all come from this table.
    const std::vector<Entry> entries = {
        {file, tr("&Open…"), {QKeySequence::Open}, [this] { chooseFileToOpen(); }},
        {file,
         tr("Open &Folder…"),
         {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O)},
         [this] { chooseFolderToOpen(); }},
        {file,
         tr("Open in &New Window…"),
         {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N)},
         [this] {
             const QString path = QFileDialog::getOpenFileName(
                 this, tr("Open trace in a new window"), QString(),
                 tr("Traces (*.json *.json.zst *.json.gz *.zst *.gz *.db);;All files (*)"));
             if (path.isEmpty())
                 return;
             auto *window = new MainWindow;
             window->setAttribute(Qt::WA_DeleteOnClose);
             window->show();
             window->openPath(path);
         }},
        {file, tr("Open &Bundled Sample"), {}, [this] { openBundledSample(); }},
        {file,
         tr("Reload from Other &Source (Database ↔ Text)"),
         {},
         [this] {
             if (!reloadWithOtherSource())
                 m_messages->showMessage(MessageBar::Kind::Info,
                                         tr("This result has only one export (no database beside the text "
                                            "export, or the other way round)."));
         }},
        {file,
         tr("Reload from &Raw Data (PROF_* slices)"),
         {},
         [this] {
             if (!reloadFromRawData())
                 m_messages->showMessage(MessageBar::Kind::Info,
                                         tr("This result has no raw data (PROF_*/host|device_N/data), or it "
                                            "is already decoded from it."));
         }},
        {file,
         tr("&Export View as PNG…"),
         {},
         [this] {
             const QString path = QFileDialog::getSaveFileName(
                 this, tr("Export view"), QStringLiteral("timeline.png"), tr("PNG images (*.png)"));
             if (!path.isEmpty() && !exportViewPng(path))
                 m_messages->showMessage(MessageBar::Kind::Error, tr("Could not write %1").arg(path));
         }},
        {file,
         tr("Export View as S&VG…"),
         {},
         [this] {
             const QString path = QFileDialog::getSaveFileName(
                 this, tr("Export view"), QStringLiteral("timeline.svg"), tr("SVG images (*.svg)"));
             QString error;
             if (!path.isEmpty() && !exportViewSvg(path, &error))
                 m_messages->showMessage(MessageBar::Kind::Error, error);
         }},
        {file,
         tr("Open Sess&ion…"),
         {},
         [this] {
             const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), QString(),
                                                               tr("Sessions (*.atsession);;All files (*)"));
             if (!path.isEmpty())
                 openSession(path);
         }},
        {file,
         tr("&Save Session…"),
         {QKeySequence::Save},
         [this] {
             if (!m_model)
                 return;
             QString path = QFileDialog::getSaveFileName(
                 this, tr("Save session"), QStringLiteral("profile.atsession"), tr("Sessions (*.atsession)"));
             if (path.isEmpty())
                 return;
             if (!path.endsWith(QLatin1String(kSessionSuffix)))
                 path += QLatin1String(kSessionSuffix);
             QString error;
             if (!saveSession(path, &error))
                 m_messages->showMessage(MessageBar::Kind::Error, error);
         }},
        {file, tr("&Close"), {QKeySequence::Close}, [this] { closeTrace(); }},
        {file, tr("&Quit"), {QKeySequence::Quit}, [this] { close(); }},
        {view, tr("&Find…"), {QKeySequence::Find}, [this] { m_search->activate(); }},
        {view, tr("Zoom &In"), {QKeySequence(Qt::Key_W)}, [t] { t->zoomIn(); }},
        {view, tr("Zoom &Out"), {QKeySequence(Qt::Key_S)}, [t] { t->zoomOut(); }},
        {view, tr("Pan &Left"), {QKeySequence(Qt::Key_A)}, [t] { t->panLeft(); }},
        {view, tr("Pan &Right"), {QKeySequence(Qt::Key_D)}, [t] { t->panRight(); }},
        {view,
         tr("Show &Everything"),
         {QKeySequence(Qt::Key_0), QKeySequence(Qt::CTRL | Qt::Key_0)},
         [t] { t->showAll(); }},
        {view, tr("&Fit Selection"), {QKeySequence(Qt::Key_F)}, [t] { t->fitSelection(); }},
        {view, tr("&Undo Zoom"), {QKeySequence(Qt::Key_Backspace)}, [t] { t->undoZoom(); }},
        {view, tr("&Mark Selection"), {QKeySequence(Qt::Key_M)}, [this] { markSelection(); }},
        {view, tr("Drop a &Flag"), {QKeySequence(Qt::Key_K)}, [this] { dropFlag(); }},
        {view, tr("Colour &Rules…"), {}, [this] { editColorRules(); }},
        {view, tr("&Previous Step"), {QKeySequence(Qt::Key_BracketLeft)}, [this] { showAdjacentStep(-1); }},
        {view, tr("&Next Step"), {QKeySequence(Qt::Key_BracketRight)}, [this] { showAdjacentStep(+1); }},
        {view,
         tr("&Compare Steps…"),
         {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C)},
         [this] { chooseStepsToCompare(); }},
    };
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    fillRecentMenu();
    QList<QAction *> shortcutActions;
    for (const Entry &e : entries) {
        QAction *action = e.menu->addAction(e.text);
        action->setShortcuts(e.keys);
        action->setShortcutContext(Qt::WindowShortcut);
        connect(action, &QAction::triggered, this, e.slot);
        shortcutActions << action;
    }
    QAction *shortcuts = help->addAction(tr("&Keyboard Shortcuts"));
    connect(shortcuts, &QAction::triggered, this, [this, shortcutActions] {
        auto *dialog = new QDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->setWindowTitle(tr("Keyboard Shortcuts"));
        auto *table = new QTableWidget(dialog);
        table->setColumnCount(2);
        table->setHorizontalHeaderLabels({tr("Command"), tr("Keys")});
        QList<QPair<QString, QString>> rows;
        for (QAction *a : shortcutActions) {
            QStringList keys;
            for (const QKeySequence &k : a->shortcuts())
                keys << k.toString(QKeySequence::NativeText);
            rows.append({a->text().remove(QLatin1Char('&')).remove(QStringLiteral("…")),
                         keys.join(QStringLiteral(", "))});
        }
        rows.append({tr("Zoom at the mouse"), tr("Ctrl+Wheel")});
        rows.append({tr("Scroll lanes"), tr("Wheel")});
        rows.append({tr("Pan"), tr("Middle drag, Shift+drag, Shift+Wheel, Left/Right arrows")});
        rows.append({tr("Zoom in / out"), tr("Up / Down arrows")});
        rows.append({tr("Select a slice"), tr("Click")});
        rows.append({tr("Range statistics"), tr("Drag across the timeline (Esc clears)")});
        rows.append({tr("Collapse / expand a group"), tr("Click its header")});
        table->setRowCount(static_cast<int>(rows.size()));
        for (int r = 0; r < rows.size(); ++r) {
            table->setItem(r, 0, new QTableWidgetItem(rows[r].first));
            table->setItem(r, 1, new QTableWidgetItem(rows[r].second));
        }
        table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
        auto *layout = new QVBoxLayout(dialog);
        layout->addWidget(table);
        dialog->resize(560, 420);
        dialog->show();
    });
    QAction *about = help->addAction(tr("&About"));
    connect(about, &QAction::triggered, this, [this] {
        m_messages->showMessage(
            MessageBar::Kind::Info,
            tr("Ascend Timeline %1: a fast timeline viewer for Ascend NPU profiling data.")
                .arg(QCoreApplication::applicationVersion()));
    });
}

bool MainWindow::markSelection()
{
    if (!m_model)
        return false;
    Marker m;
    if (const auto range = m_timeline->selectedRange()) {
        m.begin = range->start;
        m.end = range->end;
    } else if (const SliceRef s = m_timeline->selectedSlice(); s.isValid()) {
        const SliceTable &t = m_model->threads()[static_cast<std::size_t>(s.thread)].slices;
        m.begin = t.start(s.index);
        m.end = t.end(s.index);
        m.name = m_model->sliceName(s);
    } else {
        m_status->setText(tr("Select a slice or drag a range first, then press m"));
        return false;
    }
    if (m.end == m.begin)
        ++m.end; // a zero-length slice is still a range, not a flag
    m.rgb = markerPalette()[static_cast<std::size_t>(m_markerList->size()) % markerPalette().size()];
    m_markerList->add(m);
    return true;
}

void MainWindow::dropFlag()
{
    if (!m_model)
        return;
    Marker m;
    m.begin = m.end = m_timeline->mouseTime().value_or(m_timeline->zoom()->range().center());
    m.rgb = markerPalette()[static_cast<std::size_t>(m_markerList->size()) % markerPalette().size()];
    m_markerList->add(m);
}

QString MainWindow::processKey(int process) const
{
    const ProcessInfo &p = m_model->processes()[static_cast<std::size_t>(process)];
    return m_model->groups()[static_cast<std::size_t>(p.group)].label + QStringLiteral(" / ") +
           m_model->processDisplayName(process);
}

QString MainWindow::threadKey(int thread) const
{
    return processKey(m_model->threads()[static_cast<std::size_t>(thread)].process) + QStringLiteral(" / ") +
           m_model->threadDisplayName(thread);
}

Session MainWindow::captureSession() const
{
    Session s;
    s.paths = {m_currentPath};
    const TimeRange r = m_timeline->zoom()->range();
    s.viewBegin = r.start;
    s.viewEnd = r.end;
    if (m_model) {
        s.originText = formatAbsoluteMicros(m_model->origin());
        for (int p = 0; p < static_cast<int>(m_model->processes().size()); ++p)
            if (m_timeline->isCollapsed(p))
                s.collapsedProcesses << processKey(p);
        for (int g = 0; g < static_cast<int>(m_model->groups().size()); ++g)
            if (m_timeline->isGroupCollapsed(g))
                s.collapsedGroups << m_model->groups()[static_cast<std::size_t>(g)].label;
        const LaneVisibility &lanes = m_timeline->laneVisibility();
        for (int p : lanes.pinnedProcesses)
            s.pinnedProcesses << processKey(p);
        for (int p : lanes.processOrder)
            s.processOrder << processKey(p);
        for (int p = 0; p < static_cast<int>(m_model->processes().size()); ++p)
            if (lanes.hiddenProcesses.contains(p))
                s.hiddenProcesses << processKey(p);
        for (int t = 0; t < static_cast<int>(m_model->threads().size()); ++t)
            if (lanes.hiddenThreads.contains(t))
                s.hiddenThreads << threadKey(t);
    }
    s.markers = m_markerList->markers();
    s.colorRules = m_timeline->colorRules();
    s.compare = m_lastCompare;
    return s;
}

bool MainWindow::saveSession(const QString &path, QString *error) const
{
    QSaveFile file(path); // atomic: a crash mid-write leaves the old session intact
    const QByteArray json = sessionToJson(captureSession());
    if (!file.open(QIODevice::WriteOnly) || file.write(json) != json.size() || !file.commit()) {
        *error = tr("Could not save the session to %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

bool MainWindow::openSession(const QString &path)
{
    QFile file(path);
    QString error;
    std::optional<Session> session;
    if (!file.open(QIODevice::ReadOnly))
        error = file.errorString();
    else
        session = sessionFromJson(file.readAll(), &error);
    if (!session) {
        m_lastError = tr("%1: %2").arg(path, error);
        m_messages->showMessage(MessageBar::Kind::Error,
                                tr("Could not open the session %1").arg(m_lastError));
        Q_EMIT loadFinished(false);
        return false;
    }
    m_pendingSession = session;
    openPath(session->paths.first());
    return true;
}

void MainWindow::applySession(const Session &s)
{
    if (!s.originText.isEmpty() && s.originText != formatAbsoluteMicros(m_model->origin()))
        m_messages->showMessage(MessageBar::Kind::Warning,
                                tr("The data of this session changed since it was saved (it starts at %1 µs, "
                                   "the session expected %2 µs); the view and markers may not line up.")
                                    .arg(formatAbsoluteMicros(m_model->origin()), s.originText));
    QMultiHash<QString, int> processesByKey; // a key can name several processes (same name in a group)
    for (int p = 0; p < static_cast<int>(m_model->processes().size()); ++p)
        processesByKey.insert(processKey(p), p);
    auto processesOf = [&processesByKey](const QStringList &keys) {
        std::vector<int> out;
        for (const QString &key : keys) {
            QList<int> found = processesByKey.values(key);
            std::sort(found.begin(), found.end());
            out.insert(out.end(), found.begin(), found.end());
        }
        return out;
    };
    const std::vector<int> collapsed = processesOf(s.collapsedProcesses);
    for (int p = 0; p < static_cast<int>(m_model->processes().size()); ++p)
        m_timeline->setCollapsed(p, std::find(collapsed.begin(), collapsed.end(), p) != collapsed.end());
    for (int g = 0; g < static_cast<int>(m_model->groups().size()); ++g)
        m_timeline->setGroupCollapsed(
            g, s.collapsedGroups.contains(m_model->groups()[static_cast<std::size_t>(g)].label));
    LaneVisibility lanes;
    lanes.pinnedProcesses = processesOf(s.pinnedProcesses);
    lanes.processOrder = processesOf(s.processOrder);
    for (int p : processesOf(s.hiddenProcesses))
        lanes.hiddenProcesses.insert(p);
    for (int t = 0; t < static_cast<int>(m_model->threads().size()); ++t)
        if (s.hiddenThreads.contains(threadKey(t)))
            lanes.hiddenThreads.insert(t);
    m_timeline->setLaneVisibility(lanes);
    m_markerList->setAll(s.markers);
    setColorRules(s.colorRules);
    if (s.viewEnd > s.viewBegin)
        m_timeline->zoom()->setRange({s.viewBegin, s.viewEnd}, true);
    if (s.compare) {
        const CompareSetup setup = *s.compare;
        const std::vector<StepChoice> mine = stepChoices();
        auto pick = [](const std::vector<StepChoice> &choices, const TraceModel *model, std::int64_t number) {
            for (const StepChoice &c : choices)
                if (c.model.get() == model &&
                    c.model->steps()[static_cast<std::size_t>(c.step)].number == number)
                    return std::optional<StepChoice>(c);
            return std::optional<StepChoice>();
        };
        const auto base = pick(mine, m_model.get(), setup.baseStep);
        if (setup.comparisonPath.isEmpty() || setup.comparisonPath == m_currentPath) {
            const auto comparison = pick(mine, m_model.get(), setup.comparisonStep);
            if (base && comparison)
                compareSteps(*base, *comparison, setup.matchShapes);
        } else if (base) {
            auto *other = new MainWindow;
            other->setAttribute(Qt::WA_DeleteOnClose);
            other->show();
            connect(
                other, &MainWindow::loadFinished, this,
                [this, other, base, setup, pick](bool ok) {
                    if (!ok)
                        return;
                    if (const auto comparison =
                            pick(other->stepChoices(), other->model(), setup.comparisonStep))
                        compareSteps(*base, *comparison, setup.matchShapes);
                },
                Qt::SingleShotConnection);
            other->openPath(setup.comparisonPath);
        }
    }
}

void MainWindow::setColorRules(const std::vector<ColorRule> &rules)
{
    m_timeline->setColorRules(rules);
}

void MainWindow::editColorRules()
{
    auto *dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Colour Rules"));
    auto *table = new QTableWidget(dialog);
    table->setColumnCount(2);
    table->setHorizontalHeaderLabels({tr("Slice name (regular expression)"), tr("Colour")});
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    auto addRow = [table](const QString &pattern, QColor color) {
        const int row = table->rowCount();
        table->insertRow(row);
        table->setItem(row, 0, new QTableWidgetItem(pattern));
        auto *swatch = new QTableWidgetItem(color.name());
        swatch->setData(Qt::DecorationRole, color);
        swatch->setFlags(swatch->flags() & ~Qt::ItemIsEditable);
        table->setItem(row, 1, swatch);
    };
    for (const ColorRule &r : m_timeline->colorRules())
        addRow(r.pattern, QColor::fromRgb(r.rgb));
    connect(table, &QTableWidget::cellDoubleClicked, dialog, [table, dialog](int row, int column) {
        if (column != 1)
            return;
        const QColor c = QColorDialog::getColor(QColor(table->item(row, 1)->text()), dialog);
        if (c.isValid()) {
            table->item(row, 1)->setText(c.name());
            table->item(row, 1)->setData(Qt::DecorationRole, c);
        }
    });
    auto *add = new QPushButton(tr("Add Rule"));
    connect(add, &QPushButton::clicked, dialog,
            [addRow] { addRow(QStringLiteral("^aclnn"), QColor(0xE6550D)); });
    auto *remove = new QPushButton(tr("Remove"));
    connect(remove, &QPushButton::clicked, dialog, [table] { table->removeRow(table->currentRow()); });
    auto *apply = new QPushButton(tr("Apply"));
    connect(apply, &QPushButton::clicked, dialog, [this, table] {
        std::vector<ColorRule> rules;
        for (int r = 0; r < table->rowCount(); ++r) {
            const QString pattern = table->item(r, 0)->text();
            if (!QRegularExpression(pattern).isValid() || pattern.isEmpty()) {
                m_messages->showMessage(MessageBar::Kind::Error,
                                        tr("Not a valid regular expression: %1").arg(pattern));
                return;
            }
            rules.push_back({pattern, QColor(table->item(r, 1)->text()).rgb() & 0xFFFFFF});
        }
        setColorRules(rules);
    });
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch(1);
    buttons->addWidget(apply);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(new QLabel(tr("Slices whose name matches a rule get its colour (first match wins); "
                                    "double-click a colour to change it.")));
    layout->addWidget(table);
    layout->addLayout(buttons);
    dialog->resize(560, 360);
    dialog->show();
}

void MainWindow::showStep(int step)
{
    if (!m_model || step < 0 || step >= static_cast<int>(m_model->steps().size()))
        return;
    const Step &s = m_model->steps()[static_cast<std::size_t>(step)];
    m_timeline->zoom()->fit({s.begin(), s.end()});
    const QSignalBlocker blocker(m_steps);
    m_steps->selectStep(step);
}

bool MainWindow::showAdjacentStep(int direction)
{
    if (!m_model || m_model->steps().empty())
        return false;
    // The group of the selected slice, else of the step list's selection, else the first with steps.
    int group = m_model->steps().front().group;
    const SliceRef selected = m_timeline->selectedSlice();
    if (selected.isValid())
        group = m_model
                    ->processes()[static_cast<std::size_t>(
                        m_model->threads()[static_cast<std::size_t>(selected.thread)].process)]
                    .group;
    else if (const auto rows = m_steps->selectedSteps(); !rows.empty())
        group = m_model->steps()[static_cast<std::size_t>(rows.front())].group;
    const int step = adjacentStep(m_model->steps(), group, m_timeline->zoom()->range().center(), direction);
    if (step < 0) {
        m_status->setText(direction > 0 ? tr("No later step") : tr("No earlier step"));
        return false;
    }
    showStep(step);
    return true;
}

std::vector<StepChoice> MainWindow::stepChoices() const
{
    std::vector<StepChoice> out;
    QList<MainWindow *> windows = openWindows();
    windows.removeAll(const_cast<MainWindow *>(this));
    windows.prepend(const_cast<MainWindow *>(this));
    for (const MainWindow *w : windows) {
        if (!w->m_model)
            continue;
        const QString file = w->m_currentPath == QLatin1String(kBundledSample)
                                 ? tr("Bundled sample")
                                 : QFileInfo(w->m_currentPath).fileName();
        for (std::size_t i = 0; i < w->m_model->steps().size(); ++i) {
            const Step &s = w->m_model->steps()[i];
            const QString group = w->m_model->groups()[static_cast<std::size_t>(s.group)].label;
            out.push_back(
                {w->m_model, static_cast<int>(i),
                 QStringLiteral("%1 · %2%3")
                     .arg(file, group.isEmpty() ? QString() : group + QStringLiteral(" · "), s.label)});
        }
    }
    return out;
}

CompareWindow *MainWindow::compareSteps(const StepChoice &base, const StepChoice &comparison,
                                        bool matchShapes)
{
    // Remembered for the session when the base step is one of ours.
    if (base.model == m_model) {
        CompareSetup setup;
        setup.baseStep = base.model->steps()[static_cast<std::size_t>(base.step)].number;
        setup.comparisonStep = comparison.model->steps()[static_cast<std::size_t>(comparison.step)].number;
        setup.matchShapes = matchShapes;
        for (const MainWindow *w : openWindows())
            if (w->m_model == comparison.model && w != this)
                setup.comparisonPath = w->m_currentPath;
        m_lastCompare = setup;
    }
    auto *window = new CompareWindow(base, comparison, matchShapes);
    window->show();
    return window;
}

void MainWindow::chooseStepsToCompare()
{
    const std::vector<StepChoice> choices = stepChoices();
    if (choices.size() < 2) {
        m_messages->showMessage(
            MessageBar::Kind::Info,
            tr("Comparing needs two steps: this profile has %n step(s). Open another profile "
               "(File ▸ Open in New Window) to compare with one of its steps.",
               nullptr, static_cast<int>(choices.size())));
        return;
    }
    // Preset from the step list: two rows → those; one row → it and the next choice.
    const std::vector<int> selected = m_steps->selectedSteps();
    int base = selected.empty() ? 0 : selected.front();
    int comparison = selected.size() >= 2 ? selected[1] : base + 1;
    if (comparison >= static_cast<int>(choices.size()))
        comparison = base == 0 ? 1 : 0;
    auto *dialog = new CompareStepsDialog(choices, base, comparison, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this,
            [this, dialog] { compareSteps(dialog->base(), dialog->comparison(), dialog->matchShapes()); });
    dialog->open();
}

void MainWindow::openBundledSample()
{
    openPath(QString::fromLatin1(kBundledSample));
}

bool MainWindow::reloadWithOtherSource()
{
    if (!m_model || m_currentPath.isEmpty())
        return false;
    // The loader records in each group's provenance which other exports the result has.
    bool hasOther = false;
    for (const SourceGroup &group : m_model->groups())
        hasOther = hasOther || group.provenance.hasOtherExport();
    if (!hasOther)
        return false;
    m_preferredSource =
        m_preferredSource == PreferredSource::Text ? PreferredSource::Database : PreferredSource::Text;
    QString path = m_currentPath;
    // A database opened directly: its folder holds the text export.
    if (QFileInfo(path).isFile() && path.endsWith(QStringLiteral(".db")))
        path = QFileInfo(path).absolutePath();
    openPath(path);
    return true;
}

bool MainWindow::reloadFromRawData()
{
    if (!m_model || m_currentPath.isEmpty() || m_preferredSource == PreferredSource::Raw)
        return false;
    // The loader records the raw data folders of each source.
    bool hasRaw = false;
    for (const SourceGroup &group : m_model->groups())
        hasRaw = hasRaw || group.provenance.hasRawData();
    if (!hasRaw)
        return false;
    m_preferredSource = PreferredSource::Raw;
    openPath(m_currentPath);
    return true;
}

void MainWindow::openPath(const QString &path)
{
    if (path.endsWith(QLatin1String(kSessionSuffix))) {
        openSession(path);
        return;
    }
    if (m_pendingSession && m_pendingSession->paths.first() != path)
        m_pendingSession.reset(); // the user opened something else before the session's data arrived
    if (m_loading)
        cancelLoading();
    m_loading = std::make_unique<Loading>();
    m_loading->path = path;
    std::shared_ptr<LoadControl> control = m_loading->control;
    LoadOptions options = m_loadOptions;
    options.preferredSource = m_preferredSource;
    options.writeSnapshotInBackground = true; // the first frame does not wait for the cache write
    connect(&m_loading->watcher, &QFutureWatcher<std::shared_ptr<LoadResult>>::finished, this,
            &MainWindow::onLoadFinished);
    m_loading->watcher.setFuture(QtConcurrent::run([path, options, control] {
        auto result = std::make_shared<LoadResult>(loadTrace(path, options, *control));
        if (result->model)
            result->model->buildSliceLods(); // here, not in the first paint on the GUI thread
        return result;
    }));
    m_progress->setValue(0);
    m_progress->show();
    m_cancel->show();
    m_status->setText(tr("Loading %1…").arg(path));
    m_progressTimer.start();
}

void MainWindow::cancelLoading()
{
    if (!m_loading)
        return;
    m_loading->control->cancel = true;
    // The worker notices the flag within one chunk; waiting keeps ownership simple.
    m_loading->watcher.disconnect(this);
    m_loading->watcher.waitForFinished();
    const QString path = m_loading->path;
    m_loading.reset();
    m_progressTimer.stop();
    m_progress->hide();
    m_cancel->hide();
    m_status->setText(tr("Loading of %1 cancelled").arg(path));
    Q_EMIT loadFinished(false);
}

void MainWindow::updateProgress()
{
    if (!m_loading)
        return;
    const auto total = m_loading->control->bytesTotal.load();
    const auto done = m_loading->control->bytesDone.load();
    m_progress->setValue(
        total ? static_cast<int>(1000.0 * static_cast<double>(done) / static_cast<double>(total)) : 0);
    m_status->setText(tr("Loading %1… %2 of %3 MB")
                          .arg(m_loading->path)
                          .arg(done / 1e6, 0, 'f', 1)
                          .arg(total / 1e6, 0, 'f', 1));
}

void MainWindow::onLoadFinished()
{
    std::unique_ptr<Loading> loading = std::move(m_loading);
    m_progressTimer.stop();
    m_progress->hide();
    m_cancel->hide();
    std::shared_ptr<LoadResult> result = loading->watcher.result();
    if (!result || !result->model) {
        const QString error = result && result->cancelled() ? tr("Loading of %1 cancelled").arg(loading->path)
                                                            : (result ? result->error : tr("unknown error"));
        m_lastError = error;
        m_messages->showMessage(MessageBar::Kind::Error, tr("Could not open %1").arg(error));
        m_status->setText(m_model ? tr("Showing %1").arg(m_currentPath) : QString());
        Q_EMIT loadFinished(false);
        return;
    }
    showModel(std::move(result->model), loading->path);
    rememberRecent(loading->path);
    if (m_pendingSession) {
        const Session session = *m_pendingSession;
        m_pendingSession.reset();
        applySession(session);
    }
    Q_EMIT loadFinished(true);
}

void MainWindow::showModel(std::unique_ptr<TraceModel> model, const QString &path)
{
    // Views drop their pointers before the old model goes away.
    attachViews(nullptr);
    m_model = std::move(model);
    m_currentPath = path;
    m_markerList->setAll({}); // markers belong to the data they were set on
    m_lastCompare.reset();
    attachViews(m_model.get());
    m_pages->setCurrentWidget(m_timeline);
    const bool bundled = path == QLatin1String(kBundledSample);
    setWindowTitle(
        tr("%1 — Ascend Timeline").arg(bundled ? tr("Bundled sample") : QFileInfo(path).fileName()));
    const EventCounts &counts = m_model->eventCounts();
    m_status->setText(tr("%1: %2 events, %3 slices, %4 flows, span %5")
                          .arg(bundled ? tr("Bundled sample (AlexNet, 1 step, rank 0)") : path)
                          .arg(counts.total())
                          .arg(m_model->sliceCount())
                          .arg(m_model->flows().size())
                          .arg(formatDuration(m_model->dataEnd() - m_model->dataBegin())));
    if (!m_model->warnings().isEmpty()) {
        m_messages->showMessage(
            MessageBar::Kind::Warning,
            tr("Opened with %n warning(s): %1", nullptr, static_cast<int>(m_model->warnings().size()))
                .arg(m_model->warnings().first()),
            m_model->warnings().join(QLatin1Char('\n')));
    } else {
        m_messages->hide();
    }
    m_timeline->setFocus();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    for (const QUrl &url : urls) {
        if (url.isLocalFile()) {
            openPath(url.toLocalFile());
            event->acceptProposedAction();
            return;
        }
    }
}

} // namespace at
