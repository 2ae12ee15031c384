#pragma once

#include "ClusterController.h"
#include "CompareLauncher.h"
#include "KernelColorChooser.h"
#include "RecentPaths.h"
#include "Session.h"
#include "SessionController.h"
#include "TraceLoadJob.h"
#include "TraceLoader.h"
#include "ViewExport.h"

#include <QMainWindow>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QAction;
class QComboBox;
class QMenu;
class QLabel;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QToolBar;

namespace at {

class ClusterView;
class ChartsPanel;
class OverviewPage;
struct Overview;
struct OverviewTarget;
class MarkerList;
class MarkersPanel;
class CollectionPanel;
class DetailsPanel;
class KernelTablePanel;
class SummaryTablesPanel;
class MessageBar;
class SearchBar;
class StatisticsPanel;
class StepsPanel;
class StartPage;
class TimelineView;
class CompareLauncher;
class CompareWindow;
class PanelRegistry;
class SessionController;
class TraceLoadJob;
struct StepChoice;

// The application window: owns the loaded model and wires the loader (TraceLoadJob), the timeline,
// the panels (PanelRegistry), the commands (Commands.h), sessions (SessionController) and step
// comparison (CompareLauncher) together. Loading runs on a worker thread; the UI shows progress
// and can cancel.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    static constexpr const char *kBundledSample = ":/samples/alexnet_level1_rank0_trace_view.json.zst";

    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    TimelineView *timeline() const { return m_timeline; }
    DetailsPanel *details() const { return m_details; }
    StatisticsPanel *statistics() const { return m_statistics; }
    SearchBar *searchBar() const { return m_search; }
    KernelTablePanel *kernels() const { return m_kernels; }
    CollectionPanel *collection() const { return m_collection; }
    SummaryTablesPanel *tables() const { return m_tables; }
    ChartsPanel *charts() const { return m_charts; }
    StepsPanel *steps() const { return m_steps; }
    StartPage *startPage() const { return m_startPage; }
    bool showsStartPage() const;
    // The Overview page (widgets/OverviewPage, app/MainWindowOverview.cpp): the first page after a load (a
    // timeline of one or several ranks, or a cluster folder), back to from anywhere with View ▸ Overview or
    // the toolbar's "Overview". It is computed off the GUI thread: overviewReady() is emitted once it shows
    // the data of the current load.
    OverviewPage *overviewPage() const { return m_overview; }
    bool showsOverview() const;
    bool overviewIsReady() const { return m_overviewReady; }
    void showOverviewPage();
    // What a click on one of the Overview's numbers does: the timeline with the range or slice selected,
    // the Kernels panel filtered to the kernel, the cluster page, or the Insights panel.
    void activateOverviewTarget(const OverviewTarget &target);
    // The dock registered under this panel id ("kernels", "charts", …: PanelRegistry::ids()), shown and
    // raised; false for an unknown id.
    bool raisePanel(const QString &id);
    QStringList panelIds() const;
    // The Cluster page (app/ClusterController): shown instead of a timeline when a folder of rank folders is
    // opened; activating a rank opens that rank folder here. Null until a cluster is opened.
    ClusterController *clusterController() const { return m_cluster; }
    ClusterView *clusterView() const { return m_cluster->view(); }
    bool showsCluster() const { return m_cluster->showsCluster(); }
    // Several ranks of a cluster on one timeline (a SourceGroup each), loaded in the background with
    // progress; only those rank folders are parsed. Ranks with summary files only are named in a message.
    // op: an hcom op to select and zoom to on the open ranks once loaded (empty: none).
    void openClusterRanks(const QList<int> &ranks, const QString &op = {})
    {
        m_cluster->openClusterRanks(ranks, op);
    }
    // The same by folder (a session's rankFolders): root is the cluster folder.
    void openRankFolders(const QString &root, const QStringList &folders, const QString &op = {})
    {
        m_cluster->openRankFolders(root, folders, op);
    }
    // The rank folders on the timeline when it was opened as a subset of a cluster's ranks (else empty).
    QStringList loadedRankFolders() const { return m_cluster->loadedRankFolders(); }
    // The cluster the timeline belongs to (its folder), empty when none.
    QString clusterRoot() const { return m_cluster->clusterRoot(); }
    // "Close Rank" (the rank header's menu): the timeline is reloaded without that group, keeping the
    // view, offsets and lanes of the others; closing the last one releases the model. false when the
    // group is not a rank folder of a cluster.
    bool closeRank(int group) { return m_cluster->closeRank(group); }
    // The "Cluster" toolbar action: the cluster page of the timeline's cluster; the timeline stays loaded
    // ("Back to Timeline" returns to it).
    // (a cluster folder opened as its page: that page again, from the Overview).
    void showClusterPage();
    void showTimelinePage() { m_cluster->showTimelinePage(); }
    QAction *clusterAction() const { return m_cluster->clusterAction(); }
    // Rank Offsets… (the rank header's menu): per-rank offsets in µs, editable (the timeline's groupOffsets).
    void editRankOffsets() { m_cluster->editRankOffsets(); }
    MarkerList *markers() const { return m_markerList; }
    MarkersPanel *markersPanel() const { return m_markersPanel; }
    // m: marks the range selection, else the selected slice; k: a flag at the mouse (else the view's
    // centre). false when there is nothing to mark.
    bool markSelection();
    void dropFlag();
    // Sessions (File ▸ Save Session / Open Session, or a *.atsession path anywhere a trace is opened).
    static constexpr const char *kSessionSuffix = SessionController::kSuffix;
    Session captureSession() const { return m_sessions->capture(); }
    bool saveSession(const QString &path, QString *error) const { return m_sessions->save(path, error); }
    // Reads the session, opens its data and then restores the view (after loadFinished).
    bool openSession(const QString &path);
    void setColorRules(const std::vector<ColorRule> &rules);
    // "Colour: by name / duration percentile / <metric>" on the toolbar.
    QComboBox *colorChooser() const { return m_colorBy; }
    MessageBar *messageBar() const { return m_messages; }
    const TraceModel *model() const { return m_model.get(); }
    std::shared_ptr<const TraceModel> sharedModel() const { return m_model; }
    // Every open main window (for choosing steps of another profile to compare with).
    static QList<MainWindow *> openWindows();
    // Fits the timeline to a step (index into model()->steps()) and selects it in the step list.
    void showStep(int step);
    // ] / [ : the next / previous step of the shown group; false when there is none.
    bool showAdjacentStep(int direction);
    // Steps of every open profile, labelled for the compare dialog; this window's first.
    std::vector<StepChoice> stepChoices() const { return m_compare->stepChoices(); }
    // Opens the compare window on two of stepChoices() directly (no dialog).
    CompareWindow *compareSteps(const StepChoice &base, const StepChoice &comparison, bool matchShapes)
    {
        return m_compare->compareSteps(base, comparison, matchShapes);
    }
    // The compare dialog preset from the step list's selection.
    void chooseStepsToCompare() { m_compare->chooseStepsToCompare(); }
    bool isLoading() const { return m_load->isRunning(); }
    QString currentPath() const { return m_currentPath; }
    // Which export later loads use when a result has both a database and the text export.
    // Kept in the window's one LoadOptions: the command line's --source is its start value.
    PreferredSource preferredSource() const { return m_loadOptions.options().preferredSource; }
    void setPreferredSource(PreferredSource source) { m_loadOptions.setPreferredSource(source); }
    // The source, cache and memory limit of every load (the command line's --source, --no-cache,
    // --memory-limit, --cache).
    // Also gives the Insights panel's communication reader the memory limit (--memory-limit).
    void setLoadOptions(const LoadOptions &options);
    // File ▸ Prepared Cache (PreparedCacheMenu.h): its folder is used like `--cache DIR` by every load that
    // the command line leaves free (no --cache); off for a window started with --no-cache.
    void setSavedCacheFolderUsed(bool used) { m_loadOptions.setSavedCacheFolderUsed(used); }
    // Keeps the folder (empty: none) and says what the following loads use.
    void setPreparedCacheFolder(const QString &folder);
    // Reloads the current result from its other export (database ↔ text); false when it has only one.
    bool reloadWithOtherSource();
    // Reloads the current folder decoding its raw PROF_* data (false when it has none).
    bool reloadFromRawData();
    // Error of the last failed load (names the file and the problem).
    QString lastError() const { return m_lastError; }
    // Saves the timeline as it is shown (File ▸ Export View), or with every lane (wholeHeight).
    bool exportViewPng(const QString &path, bool wholeHeight = false) const
    {
        return exportTimelinePng(*m_timeline, path,
                                 wholeHeight ? PngExtent::WholeHeight : PngExtent::VisibleView);
    }
    // The same view as vector graphics (File ▸ Export View as SVG).
    bool exportViewSvg(const QString &path, QString *error) const;
    // Most recent first; kept in QSettings across restarts.
    QStringList recentPaths() const { return at::recentPaths(); }

public Q_SLOTS:
    void openPath(const QString &path);
    void openBundledSample() { openPath(QString::fromLatin1(kBundledSample)); }
    void cancelLoading() { m_load->cancel(); }
    // File ▸ Close: back to the start page (recent files and folders).
    void closeTrace();
    // File ▸ Open / Open Folder: a file dialog, then openPath().
    void chooseFileToOpen();
    void chooseFolderToOpen();

Q_SIGNALS:
    // Emitted when a load ends: ok is false on error or cancel.
    void loadFinished(bool ok);
    // The Overview page shows the overview of the data now open.
    void overviewReady();

protected:
    void closeEvent(QCloseEvent *event) override;
    // QEvent::LanguageChange (View ▸ Language): menus, dock titles, toolbar and status in the new language.
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createPanels();
    void createActions();
    std::vector<std::pair<const char *, std::function<void()>>> commandHandlers();
    // Loads path (with a rank subset when rankFolders is not empty) in the background.
    void startLoad(const QString &path, const QStringList &rankFolders);
    void reloadAs(PreferredSource source, const QString &path); // the shown ranks, else path
    void onLoadFinished(const QString &path, const std::shared_ptr<LoadResult> &result);
    void onLoadCancelled(const QString &path);
    void failLoad(const QString &error, const QString &message);
    void showModel(std::unique_ptr<TraceModel> model, const QString &path);
    void showModelSummary(); // window title and status line of the shown model
    void retranslateUi();
    void attachViews(const TraceModel *model);
    void rememberRecent(const QString &path);
    void editColorRules();
    void openInNewWindow();
    void saveSessionAs();
    void exportView(ViewImageFormat format);
    void createOverviewPage(QToolBar *toolbar);
    void startOverview(); // of the timeline's model (with the cluster data of its folder when there is one)
    void showClusterOverview(); // of the cluster page's data
    void overviewComputed(std::shared_ptr<const Overview> overview, int generation);
    void updateOverviewAction();
    QString viewDescription() const; // of an exported SVG

    std::shared_ptr<TraceModel> m_model; // shared with open compare windows
    QString m_currentPath;
    QString m_lastError;
    WindowLoadOptions m_loadOptions;
    // With File ▸ Prepared Cache's folder when the command line gave none (a cluster's ranks).
    LoadOptions loadOptions() const { return m_loadOptions.forLoad(true); }
    void updatePreparedCacheActions(); // Stop Using is enabled when a folder is kept
    TimelineView *m_timeline;
    DetailsPanel *m_details = nullptr;
    StatisticsPanel *m_statistics = nullptr;
    SearchBar *m_search;
    KernelTablePanel *m_kernels = nullptr;
    CollectionPanel *m_collection = nullptr;
    SummaryTablesPanel *m_tables = nullptr;
    ChartsPanel *m_charts = nullptr;
    StepsPanel *m_steps = nullptr;
    QStackedWidget *m_pages; // the start page, the timeline or the cluster page
    StartPage *m_startPage;
    MarkerList *m_markerList;
    MarkersPanel *m_markersPanel = nullptr;
    KernelColorChooser *m_colorBy;
    class RecentMenu *m_recentMenu = nullptr;
    MessageBar *m_messages;
    class LoadProgress *m_progress = nullptr;
    class StatusLabel *m_status;
    std::unique_ptr<PanelRegistry> m_panels;
    CompareLauncher *m_compare;
    SessionController *m_sessions;
    TraceLoadJob *m_load;
    ClusterController *m_cluster = nullptr; // the cluster page and its flows
    OverviewPage *m_overview = nullptr;
    QAction *m_overviewAction = nullptr; // the toolbar's "Overview" (not shown on the Overview page)
    int m_overviewGeneration = 0;        // the overview being computed; older results are dropped
    bool m_overviewReady = false;
    bool m_overviewRerunPending = false; // a language change asked for the Overview's texts again
    bool m_layoutRestored = false;       // a saved dock layout was restored (else the default one applies)
    bool m_defaultLayoutApplied = false;
    // It drives the window's pages, load, views and message bar: parts of the window, not its API.
    friend class ClusterController;
};

} // namespace at
