#pragma once

#include "Session.h"
#include "SessionController.h"
#include "TraceLoader.h"

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

namespace cluster {
struct ClusterModel;
}
class ClusterView;
class ChartsPanel;
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
    // The Cluster page (app/MainWindowCluster.cpp): shown instead of a timeline when a folder of rank
    // folders is opened; activating a rank opens that rank folder here. Null until a cluster is opened.
    ClusterView *clusterView() const { return m_clusterView; }
    bool showsCluster() const;
    // Several ranks of a cluster on one timeline (a SourceGroup each), loaded in the background with
    // progress; only those rank folders are parsed. Ranks with summary files only are named in a message.
    // op: an hcom op to select and zoom to on the open ranks once loaded (empty: none).
    void openClusterRanks(const QList<int> &ranks, const QString &op = {});
    // The same by folder (a session's rankFolders): root is the cluster folder.
    void openRankFolders(const QString &root, const QStringList &folders, const QString &op = {});
    // The rank folders on the timeline when it was opened as a subset of a cluster's ranks (else empty).
    QStringList loadedRankFolders() const { return m_rankFolders; }
    // The cluster the timeline belongs to (its folder), empty when none.
    QString clusterRoot() const { return m_clusterRoot; }
    // "Close Rank" (the rank header's menu): the timeline is reloaded without that group, keeping the
    // view, offsets and lanes of the others; closing the last one releases the model. false when the
    // group is not a rank folder of a cluster.
    bool closeRank(int group);
    // The "Cluster" toolbar action: the cluster page of the timeline's cluster; the timeline stays loaded
    // ("Back to Timeline" returns to it).
    void showClusterPage();
    void showTimelinePage();
    QAction *clusterAction() const { return m_clusterAction; }
    // Rank Offsets… (the rank header's menu): per-rank offsets in µs, editable (the timeline's groupOffsets).
    void editRankOffsets();
    MarkerList *markers() const { return m_markerList; }
    MarkersPanel *markersPanel() const { return m_markersPanel; }
    // m: marks the range selection, else the selected slice; k: a flag at the mouse (else the view's
    // centre). false when there is nothing to mark.
    bool markSelection();
    void dropFlag();
    // Sessions (File ▸ Save Session / Open Session, or a *.atsession path anywhere a trace is opened).
    static constexpr const char *kSessionSuffix = SessionController::kSuffix;
    Session captureSession() const;
    bool saveSession(const QString &path, QString *error) const;
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
    std::vector<StepChoice> stepChoices() const;
    // Opens the compare window on two of stepChoices() directly (no dialog).
    CompareWindow *compareSteps(const StepChoice &base, const StepChoice &comparison, bool matchShapes);
    // The compare dialog preset from the step list's selection.
    void chooseStepsToCompare();
    bool isLoading() const;
    QString currentPath() const { return m_currentPath; }
    // Which export later loads use when a result has both a database and the text export.
    PreferredSource preferredSource() const { return m_preferredSource; }
    void setPreferredSource(PreferredSource source) { m_preferredSource = source; }
    // The cache and memory limit of every load (the command line's --no-cache, --memory-limit).
    void setLoadOptions(const LoadOptions &options) { m_loadOptions = options; }
    // File ▸ Prepared Cache (PreparedCacheMenu.h): its folder is used like `--cache DIR` by every load that
    // the command line leaves free (no --cache); off for a window started with --no-cache.
    void setSavedCacheFolderUsed(bool used) { m_savedCacheUsed = used; }
    // Keeps the folder (empty: none) and says what the following loads use.
    void setPreparedCacheFolder(const QString &folder);
    // Reloads the current result from its other export (database ↔ text); false when it has only one.
    bool reloadWithOtherSource();
    // Reloads the current folder decoding its raw PROF_* data (false when it has none).
    bool reloadFromRawData();
    // Error of the last failed load (names the file and the problem).
    QString lastError() const { return m_lastError; }
    // Saves the timeline as it is shown (File ▸ Export View), or with every lane (wholeHeight).
    bool exportViewPng(const QString &path, bool wholeHeight = false) const;
    // The same view as vector graphics (File ▸ Export View as SVG).
    bool exportViewSvg(const QString &path, QString *error) const;
    // Most recent first; kept in QSettings across restarts.
    QStringList recentPaths() const;

public Q_SLOTS:
    void openPath(const QString &path);
    void openBundledSample();
    void cancelLoading();
    // File ▸ Close: back to the start page (recent files and folders).
    void closeTrace();
    // File ▸ Open / Open Folder: a file dialog, then openPath().
    void chooseFileToOpen();
    void chooseFolderToOpen();

Q_SIGNALS:
    // Emitted when a load ends: ok is false on error or cancel.
    void loadFinished(bool ok);

protected:
    void closeEvent(QCloseEvent *event) override;
    // QEvent::LanguageChange (View ▸ Language): menus, dock titles, toolbar and status in the new language.
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createPanels();
    // A restored geometry from another screen (or scale factor) is put back on the available screen.
    void fitOnScreen();
    void createActions();
    std::vector<std::pair<const char *, std::function<void()>>> commandHandlers();
    bool openCluster(const QString &path); // false when path is not a cluster folder
    void openClusterRank(int rank);
    ClusterView *ensureClusterView();
    void createClusterActions(QToolBar *toolbar);
    void retranslateClusterActions();
    // Loads path (with a rank subset when rankFolders is not empty) in the background.
    void startLoad(const QString &path, const QStringList &rankFolders);
    void afterClusterLoad(); // titles, messages and the op to show once a rank subset has loaded
    void addRankActions(QMenu *menu, int group);
    QString loadedRanksText() const;
    void rebasePendingSession(); // after Close Rank: the kept view follows a moved model origin
    void onLoadFinished(const QString &path, const std::shared_ptr<LoadResult> &result);
    void onLoadCancelled(const QString &path);
    void failLoad(const QString &error, const QString &message);
    void showModel(std::unique_ptr<TraceModel> model, const QString &path);
    void showModelSummary(); // window title and status line of the shown model
    void retranslateUi();
    void attachViews(const TraceModel *model);
    void fillColorChooser();
    void rememberRecent(const QString &path);
    void fillRecentMenu();
    void applyColoring();
    void editColorRules();
    void openInNewWindow();
    void saveSessionAs();
    enum class ExportFormat
    {
        Png,
        WholeHeightPng,
        Svg
    };
    void exportView(ExportFormat format);

    std::shared_ptr<TraceModel> m_model; // shared with open compare windows
    QString m_currentPath;
    QString m_lastError;
    PreferredSource m_preferredSource = PreferredSource::Text;
    LoadOptions m_loadOptions = environmentLoadOptions();
    bool m_savedCacheUsed = true;
    // m_loadOptions with File ▸ Prepared Cache's folder when the command line gave none.
    LoadOptions loadOptions() const;
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
    ClusterView *m_clusterView = nullptr;
    std::shared_ptr<cluster::ClusterModel> m_cluster;
    QString m_clusterRoot;             // the cluster of the shown timeline (breadcrumb, Close Rank)
    bool m_openingClusterRank = false; // openClusterRank() is opening a rank folder (startLoad's cache)
    QStringList m_rankFolders;         // the shown timeline's rank subset (LoadOptions::rankFolders)
    QStringList m_loadingRankFolders;  // ... of the running load
    QString m_loadingClusterRoot;      // ... of the running load
    QString m_pendingOp;               // an op to show once the running load has finished
    QStringList m_pendingNotOpened;    // ranks of the request without a timeline
    QAction *m_clusterAction = nullptr;
    std::optional<TimeNs> m_reloadOrigin; // the origin before Close Rank's reload
    StartPage *m_startPage;
    MarkerList *m_markerList;
    MarkersPanel *m_markersPanel = nullptr;
    QComboBox *m_colorBy;
    QMenu *m_recentMenu = nullptr;
    MessageBar *m_messages;
    QProgressBar *m_progress;
    QPushButton *m_cancel;
    class StatusLabel *m_status;
    std::unique_ptr<PanelRegistry> m_panels;
    CompareLauncher *m_compare;
    SessionController *m_sessions;
    TraceLoadJob *m_load;
};

} // namespace at
