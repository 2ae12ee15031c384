#include "Commands.h"

#include <QAction>
#include <QCoreApplication>
#include <QKeyEvent>
#include <QWidget>

namespace at {

namespace {

using S = CommandScope;
using N = Navigation;

QKeySequence key(QKeyCombination combination)
{
    return QKeySequence(combination);
}

// File menu.
std::vector<Command> fileCommands()
{
    const auto ctrlShift = Qt::ControlModifier | Qt::ShiftModifier;
    return {
        {"file.open",
         S::File,
         QT_TRANSLATE_NOOP("Commands", "&Open…"),
         {},
         QT_TRANSLATE_NOOP("Commands", "open a trace file"),
         nullptr,
         N::None,
         QKeySequence::Open},
        {"file.openFolder",
         S::File,
         QT_TRANSLATE_NOOP("Commands", "Open &Folder…"),
         {key(ctrlShift | Qt::Key_O)},
         QT_TRANSLATE_NOOP("Commands", "open a profiling result folder")},
        {"file.openInNewWindow",
         S::File,
         QT_TRANSLATE_NOOP("Commands", "Open in &New Window…"),
         {key(ctrlShift | Qt::Key_N)},
         QT_TRANSLATE_NOOP("Commands", "open a trace in another window (e.g. to compare steps)")},
        {"file.openSample",
         S::File,
         QT_TRANSLATE_NOOP("Commands", "Open &Bundled Sample"),
         {},
         QT_TRANSLATE_NOOP("Commands", "open the bundled AlexNet sample")},
        {"file.reloadOtherSource",
         S::File,
         QT_TRANSLATE_NOOP("Commands", "Re&load from Other Source (Database ↔ Text)"),
         {},
         QT_TRANSLATE_NOOP("Commands", "reload the result from its other export")},
        {"file.reloadRaw",
         S::File,
         QT_TRANSLATE_NOOP("Commands", "Reload from Raw &Data (PROF_* slices)"),
         {},
         QT_TRANSLATE_NOOP("Commands", "reload the result decoding its raw PROF_* data")},
        {"file.exportPng",
         S::File,
         QT_TRANSLATE_NOOP("Commands", "&Export View as PNG…"),
         {},
         QT_TRANSLATE_NOOP("Commands", "save the timeline as shown")},
        {"file.exportPngWhole",
         S::File,
         QT_TRANSLATE_NOOP("Commands", "Export &Whole Trace Height as PNG…"),
         {},
         QT_TRANSLATE_NOOP("Commands",
                           "save the timeline with every lane, also those scrolled out of sight")},
        {"file.exportSvg",
         S::File,
         QT_TRANSLATE_NOOP("Commands", "Export View as S&VG…"),
         {},
         QT_TRANSLATE_NOOP("Commands", "save the timeline as vector graphics")},
        {"file.openSession",
         S::File,
         QT_TRANSLATE_NOOP("Commands", "Open Sess&ion…"),
         {},
         QT_TRANSLATE_NOOP("Commands", "open a saved session and its data")},
        {"file.saveSession",
         S::File,
         QT_TRANSLATE_NOOP("Commands", "&Save Session…"),
         {},
         QT_TRANSLATE_NOOP("Commands", "save the session (view, lanes, markers, colour rules, comparison)"),
         nullptr,
         N::None,
         QKeySequence::Save},
        {"file.preparedCacheFolder",
         S::File,
         QT_TRANSLATE_NOOP("Commands", "Prepared Cac&he Folder…"),
         {},
         QT_TRANSLATE_NOOP(
             "Commands",
             "open prepared clusters from this folder, as with --cache DIR (kept for the next starts)")},
        {"file.stopPreparedCache",
         S::File,
         QT_TRANSLATE_NOOP("Commands", "Stop &Using the Prepared Cache Folder"),
         {},
         QT_TRANSLATE_NOOP("Commands",
                           "forget the prepared cache folder (loads use the usual snapshot cache)")},
        {"file.close",
         S::File,
         QT_TRANSLATE_NOOP("Commands", "&Close"),
         {},
         QT_TRANSLATE_NOOP("Commands", "close the trace (back to the start page)"),
         nullptr,
         N::None,
         QKeySequence::Close},
        {"file.quit",
         S::File,
         QT_TRANSLATE_NOOP("Commands", "&Quit"),
         {},
         QT_TRANSLATE_NOOP("Commands", "quit"),
         nullptr,
         N::None,
         QKeySequence::Quit},
    };
}

// View menu.
std::vector<Command> viewCommands()
{
    const auto ctrl = Qt::ControlModifier;
    return {
        {"view.overview",
         S::View,
         QT_TRANSLATE_NOOP("Commands", "O&verview"),
         {key(ctrl | Qt::Key_1)},
         QT_TRANSLATE_NOOP("Commands",
                           "show the Overview: where each step's time went and the top findings (the first "
                           "page after a load)")},
        {"view.find",
         S::View,
         QT_TRANSLATE_NOOP("Commands", "&Find…"),
         {},
         QT_TRANSLATE_NOOP("Commands",
                           "find slices by name (Enter / Shift+Enter step through matches in time order)"),
         nullptr,
         N::None,
         QKeySequence::Find},
        {"view.zoomIn",
         S::View,
         QT_TRANSLATE_NOOP("Commands", "Zoom &In"),
         {key(Qt::Key_W)},
         QT_TRANSLATE_NOOP(
             "Commands",
             "zoom in by 1.25× (centred on the mouse when it is over the timeline); held: by the time held"),
         nullptr,
         N::ZoomIn},
        {"view.zoomOut",
         S::View,
         QT_TRANSLATE_NOOP("Commands", "Zoom &Out"),
         {key(Qt::Key_S)},
         QT_TRANSLATE_NOOP("Commands", "zoom out by 1.25×; held: by the time held"),
         nullptr,
         N::ZoomOut},
        {"view.panLeft",
         S::View,
         QT_TRANSLATE_NOOP("Commands", "Pan &Left"),
         {key(Qt::Key_A)},
         QT_TRANSLATE_NOOP("Commands", "pan left by 10 % of the visible width; held: by the time held"),
         nullptr,
         N::PanLeft,
         QKeySequence::UnknownKey,
         {key(Qt::Key_Left)}},
        {"view.panRight",
         S::View,
         QT_TRANSLATE_NOOP("Commands", "Pan &Right"),
         {key(Qt::Key_D)},
         QT_TRANSLATE_NOOP("Commands", "pan right by 10 % of the visible width; held: by the time held"),
         nullptr,
         N::PanRight,
         QKeySequence::UnknownKey,
         {key(Qt::Key_Right)}},
        {"view.showAll",
         S::View,
         QT_TRANSLATE_NOOP("Commands", "Show &Everything"),
         {key(Qt::Key_0), key(ctrl | Qt::Key_0)},
         QT_TRANSLATE_NOOP("Commands",
                           "show everything (far outliers such as stray ts=0 events are not fitted)"),
         nullptr,
         N::ShowAll},
        {"view.fitSelection",
         S::View,
         QT_TRANSLATE_NOOP("Commands", "Fi&t Selection"),
         {key(Qt::Key_F)},
         QT_TRANSLATE_NOOP("Commands", "fit the selected slice (or the selected range)"),
         nullptr,
         N::FitSelection},
        {"view.undoZoom",
         S::View,
         QT_TRANSLATE_NOOP("Commands", "&Undo Zoom"),
         {key(Qt::Key_Backspace)},
         QT_TRANSLATE_NOOP("Commands", "undo the last zoom (a burst of w/s presses counts as one)"),
         nullptr,
         N::UndoZoom},
    };
}

// The timeline's own keys (and the View rows after them).
std::vector<Command> timelineCommands()
{
    const auto ctrlShift = Qt::ControlModifier | Qt::ShiftModifier;
    return {
        {"view.clearRange",
         S::Timeline,
         QT_TRANSLATE_NOOP("Commands", "Clear Range Selection"),
         {},
         QT_TRANSLATE_NOOP("Commands", "clear the range selection (in the find bar: close it)"),
         nullptr,
         N::ClearRange,
         QKeySequence::UnknownKey,
         {key(Qt::Key_Escape)}},
        {"lane.previous",
         S::Timeline,
         QT_TRANSLATE_NOOP("Commands", "Previous Lane"),
         {},
         QT_TRANSLATE_NOOP(
             "Commands", "select the lane above and its slice at the selected slice's time (else the view's "
                         "centre)"),
         nullptr,
         N::PreviousLane,
         QKeySequence::UnknownKey,
         {key(Qt::Key_Up)}},
        {"lane.next",
         S::Timeline,
         QT_TRANSLATE_NOOP("Commands", "Next Lane"),
         {},
         QT_TRANSLATE_NOOP("Commands", "select the lane below and its slice at the same time"),
         nullptr,
         N::NextLane,
         QKeySequence::UnknownKey,
         {key(Qt::Key_Down)}},
        {"lane.nextSlice",
         S::Timeline,
         QT_TRANSLATE_NOOP("Commands", "Next Slice on the Lane"),
         {key(Qt::Key_Period)},
         QT_TRANSLATE_NOOP("Commands", "select the next slice of the same depth on the lane"),
         nullptr,
         N::NextSlice},
        {"lane.previousSlice",
         S::Timeline,
         QT_TRANSLATE_NOOP("Commands", "Previous Slice on the Lane"),
         {key(Qt::Key_Comma)},
         QT_TRANSLATE_NOOP("Commands", "select the previous slice of the same depth on the lane"),
         nullptr,
         N::PreviousSlice},
        {"lane.nextOccurrence",
         S::Timeline,
         QT_TRANSLATE_NOOP("Commands", "Next Occurrence"),
         {key(Qt::Key_N)},
         QT_TRANSLATE_NOOP(
             "Commands", "select the next slice with the selected slice's name, on any lane (in time order)"),
         nullptr,
         N::NextOccurrence},
        {"lane.previousOccurrence",
         S::Timeline,
         QT_TRANSLATE_NOOP("Commands", "Previous Occurrence"),
         {key(Qt::ShiftModifier | Qt::Key_N)},
         QT_TRANSLATE_NOOP("Commands", "select the previous slice with the selected slice's name"),
         nullptr,
         N::PreviousOccurrence},
        {"view.markSelection",
         S::View,
         QT_TRANSLATE_NOOP("Commands", "&Mark Selection"),
         {key(Qt::Key_M)},
         QT_TRANSLATE_NOOP(
             "Commands",
             "mark the range selection, else the selected slice, as a named range (Markers dock)")},
        {"view.dropFlag",
         S::View,
         QT_TRANSLATE_NOOP("Commands", "Drop a Fla&g"),
         {key(Qt::Key_K)},
         QT_TRANSLATE_NOOP("Commands", "drop a flag at the time under the mouse (else the view's centre)")},
        {"view.colorRules",
         S::View,
         QT_TRANSLATE_NOOP("Commands", "Colour Rule&s…"),
         {},
         QT_TRANSLATE_NOOP("Commands", "colour slices whose name matches a pattern")},
        {"view.previousStep",
         S::View,
         QT_TRANSLATE_NOOP("Commands", "&Previous Step"),
         {key(Qt::Key_BracketLeft)},
         QT_TRANSLATE_NOOP("Commands",
                           "previous step, fitted (of the selected slice's rank, else the first)")},
        {"view.nextStep",
         S::View,
         QT_TRANSLATE_NOOP("Commands", "&Next Step"),
         {key(Qt::Key_BracketRight)},
         QT_TRANSLATE_NOOP("Commands", "next step, fitted")},
        {"view.compareSteps",
         S::View,
         QT_TRANSLATE_NOOP("Commands", "&Compare Steps…"),
         {key(ctrlShift | Qt::Key_C)},
         QT_TRANSLATE_NOOP("Commands", "compare two steps side by side")},
        {"view.diffByOp",
         S::View,
         QT_TRANSLATE_NOOP("Commands", "&Diff by Framework Op…"),
         {key(ctrlShift | Qt::Key_D)},
         QT_TRANSLATE_NOOP(
             "Commands",
             "compare two steps or profiles op by op: diff table, accumulated delta, both timelines")},
    };
}

// View ▸ Panels.
std::vector<Command> panelToggleCommands()
{
    const auto ctrlShift = Qt::ControlModifier | Qt::ShiftModifier;
    return {
        {"panel.details",
         S::Panels,
         QT_TRANSLATE_NOOP("Commands", "Details"),
         {},
         QT_TRANSLATE_NOOP("Commands", "show or hide the Details dock")},
        {"panel.statistics",
         S::Panels,
         QT_TRANSLATE_NOOP("Commands", "Range statistics"),
         {},
         QT_TRANSLATE_NOOP("Commands", "show or hide the Range statistics dock")},
        {"panel.kernels",
         S::Panels,
         QT_TRANSLATE_NOOP("Commands", "Kernels"),
         {},
         QT_TRANSLATE_NOOP("Commands", "show or hide the Kernels dock")},
        {"panel.tables",
         S::Panels,
         QT_TRANSLATE_NOOP("Commands", "Tables"),
         {},
         QT_TRANSLATE_NOOP("Commands", "show or hide the Tables dock")},
        {"panel.charts",
         S::Panels,
         QT_TRANSLATE_NOOP("Commands", "Charts"),
         {},
         QT_TRANSLATE_NOOP("Commands", "show or hide the Charts dock")},
        {"panel.memory",
         S::Panels,
         QT_TRANSLATE_NOOP("Commands", "Memory"),
         {},
         QT_TRANSLATE_NOOP("Commands", "show or hide the Memory dock")},
        {"panel.steps",
         S::Panels,
         QT_TRANSLATE_NOOP("Commands", "Steps"),
         {},
         QT_TRANSLATE_NOOP("Commands", "show or hide the Steps dock")},
        {"panel.markers",
         S::Panels,
         QT_TRANSLATE_NOOP("Commands", "Markers"),
         {},
         QT_TRANSLATE_NOOP("Commands", "show or hide the Markers dock")},
        {"panel.collection",
         S::Panels,
         QT_TRANSLATE_NOOP("Commands", "Collection"),
         {},
         QT_TRANSLATE_NOOP("Commands", "show or hide the Collection dock")},
        {"panel.insights",
         S::Panels,
         QT_TRANSLATE_NOOP("Commands", "Insights"),
         {},
         QT_TRANSLATE_NOOP("Commands",
                           "show or hide the Insights dock (performance problems found automatically)")},
        {"panel.query",
         S::Panels,
         QT_TRANSLATE_NOOP("Commands", "Query"),
         {key(ctrlShift | Qt::Key_Q)},
         QT_TRANSLATE_NOOP("Commands", "show or hide the Query dock (SQL over everything loaded)")},
    };
}

// View ▸ Theme / Language and Help.
std::vector<Command> appearanceAndHelpCommands()
{
    return {
        {"theme.system",
         S::Appearance,
         QT_TRANSLATE_NOOP("Commands", "&System Theme"),
         {},
         QT_TRANSLATE_NOOP("Commands", "follow the desktop's theme")},
        {"theme.light",
         S::Appearance,
         QT_TRANSLATE_NOOP("Commands", "&Light"),
         {},
         QT_TRANSLATE_NOOP("Commands", "light window and timeline")},
        {"theme.dark",
         S::Appearance,
         QT_TRANSLATE_NOOP("Commands", "&Dark"),
         {},
         QT_TRANSLATE_NOOP("Commands", "dark window and timeline")},
        {"language.system",
         S::Appearance,
         QT_TRANSLATE_NOOP("Commands", "System &Language"),
         {},
         QT_TRANSLATE_NOOP("Commands", "the desktop's language (Chinese or English)")},
        {"language.en",
         S::Appearance,
         QT_TRANSLATE_NOOP("Commands", "&English"),
         {},
         QT_TRANSLATE_NOOP("Commands", "English user interface")},
        {"language.zh_CN",
         S::Appearance,
         QT_TRANSLATE_NOOP("Commands", "简体中文(&C)"),
         {},
         QT_TRANSLATE_NOOP("Commands", "Simplified Chinese user interface")},
        {"help.shortcuts",
         S::Help,
         QT_TRANSLATE_NOOP("Commands", "&Keyboard Shortcuts"),
         {},
         QT_TRANSLATE_NOOP("Commands", "list every command and its keys")},
        {"help.about",
         S::Help,
         QT_TRANSLATE_NOOP("Commands", "&About"),
         {},
         QT_TRANSLATE_NOOP("Commands", "the version")},
    };
}

// The copy keys of Range statistics and the Query dock's own keys (issue #31).
std::vector<Command> statisticsAndQueryCommands()
{
    const auto ctrl = Qt::ControlModifier;
    return {
        {"statistics.copy",
         S::Panel,
         QT_TRANSLATE_NOOP("Commands", "Copy"),
         {},
         QT_TRANSLATE_NOOP("Commands", "in Range statistics: copy the selected rows as TSV"),
         nullptr,
         N::None,
         QKeySequence::Copy},
        {"query.run",
         S::Panel,
         QT_TRANSLATE_NOOP("Commands", "Run Query"),
         {key(ctrl | Qt::Key_Return), key(ctrl | Qt::Key_Enter)},
         QT_TRANSLATE_NOOP("Commands", "in Query: run the SQL of the editor")},
        {"query.copy",
         S::Panel,
         QT_TRANSLATE_NOOP("Commands", "Copy"),
         {},
         QT_TRANSLATE_NOOP("Commands", "in Query: copy the selected rows as TSV"),
         nullptr,
         N::None,
         QKeySequence::Copy},
    };
}

// the other panels' own keys, the compare window, and the listed-only gestures.
std::vector<Command> panelCompareAndListedCommands()
{
    return {
        {"markers.delete",
         S::Panel,
         QT_TRANSLATE_NOOP("Commands", "Delete Marker"),
         {},
         QT_TRANSLATE_NOOP("Commands", "in Markers: delete the selected marker"),
         nullptr,
         N::None,
         QKeySequence::Delete},
        {"table.exportCsv",
         S::Panel,
         QT_TRANSLATE_NOOP("Commands", "Export Table as CSV…"),
         {},
         QT_TRANSLATE_NOOP("Commands", "any table's context menu: the rows as shown, as CSV")},
        {"compare.exportByName",
         S::Compare,
         QT_TRANSLATE_NOOP("Commands", "Export Diff by &Name as CSV…"),
         {},
         QT_TRANSLATE_NOOP("Commands", "compare window: the diff by kernel name as CSV")},
        {"compare.exportPerKernel",
         S::Compare,
         QT_TRANSLATE_NOOP("Commands", "Export Diff per &Kernel as CSV…"),
         {},
         QT_TRANSLATE_NOOP("Commands", "compare window: the diff per kernel pair as CSV")},
        {"compare.close",
         S::Compare,
         QT_TRANSLATE_NOOP("Commands", "&Close"),
         {},
         QT_TRANSLATE_NOOP("Commands", "close the compare window"),
         nullptr,
         N::None,
         QKeySequence::Close},
        {"opdiff.exportCsv",
         S::Compare,
         QT_TRANSLATE_NOOP("Commands", "&Export Op Diff as CSV…"),
         {},
         QT_TRANSLATE_NOOP("Commands", "op diff window: the diff table as shown, as CSV")},
        {"opdiff.sideBySide",
         S::Compare,
         QT_TRANSLATE_NOOP("Commands", "Show &Timelines Side by Side"),
         {},
         QT_TRANSLATE_NOOP("Commands", "op diff window: open both steps' timelines in the compare window")},
        {"find.next",
         S::Listed,
         QT_TRANSLATE_NOOP("Commands", "Next Match"),
         {},
         QT_TRANSLATE_NOOP("Commands", "in the find bar: the next match in time"),
         QT_TRANSLATE_NOOP("Commands", "Enter")},
        {"find.previous",
         S::Listed,
         QT_TRANSLATE_NOOP("Commands", "Previous Match"),
         {},
         QT_TRANSLATE_NOOP("Commands", "in the find bar: the previous match in time"),
         QT_TRANSLATE_NOOP("Commands", "Shift+Enter")},
        {"mouse.zoom",
         S::Listed,
         QT_TRANSLATE_NOOP("Commands", "Zoom at the Mouse"),
         {},
         QT_TRANSLATE_NOOP("Commands", "zoom at the mouse"),
         QT_TRANSLATE_NOOP("Commands", "Ctrl+Wheel")},
        {"mouse.scroll",
         S::Listed,
         QT_TRANSLATE_NOOP("Commands", "Scroll Lanes"),
         {},
         QT_TRANSLATE_NOOP("Commands", "scroll lanes; Shift+Wheel pans"),
         QT_TRANSLATE_NOOP("Commands", "Wheel")},
        {"mouse.panWheel",
         S::Listed,
         QT_TRANSLATE_NOOP("Commands", "Pan with the Wheel"),
         {},
         QT_TRANSLATE_NOOP("Commands", "pan left or right"),
         QT_TRANSLATE_NOOP("Commands", "Shift+Wheel, horizontal wheel")},
        {"mouse.pan",
         S::Listed,
         QT_TRANSLATE_NOOP("Commands", "Pan"),
         {},
         QT_TRANSLATE_NOOP("Commands", "pan"),
         QT_TRANSLATE_NOOP("Commands", "Middle drag, Shift+drag")},
        {"mouse.select",
         S::Listed,
         QT_TRANSLATE_NOOP("Commands", "Select a Slice"),
         {},
         QT_TRANSLATE_NOOP("Commands",
                           "select a slice: its details and flow arrows (click a flow in Details to jump)"),
         QT_TRANSLATE_NOOP("Commands", "Click")},
        {"mouse.range",
         S::Listed,
         QT_TRANSLATE_NOOP("Commands", "Select a Range"),
         {},
         QT_TRANSLATE_NOOP("Commands",
                           "select a time range: statistics by name (sortable; Ctrl+C copies as TSV)"),
         QT_TRANSLATE_NOOP("Commands", "Drag across the timeline")},
        {"mouse.rangeLanes",
         S::Listed,
         QT_TRANSLATE_NOOP("Commands", "Select a Range on Chosen Lanes"),
         {},
         QT_TRANSLATE_NOOP("Commands",
                           "select a time range on the lanes the drag crosses only: they are tinted, and the "
                           "statistics and the slice list count only their slices"),
         QT_TRANSLATE_NOOP("Commands", "Ctrl+drag across lanes")},
        {"mouse.collapse",
         S::Listed,
         QT_TRANSLATE_NOOP("Commands", "Collapse a Group"),
         {},
         QT_TRANSLATE_NOOP("Commands", "collapse / expand the process group"),
         QT_TRANSLATE_NOOP("Commands", "Click a group header")},
        {"mouse.zeroCounters",
         S::Listed,
         QT_TRANSLATE_NOOP("Commands", "Show All-Zero Counters"),
         {},
         QT_TRANSLATE_NOOP("Commands", "show or hide the process's counter series that are zero throughout"),
         QT_TRANSLATE_NOOP("Commands", "Click an \"all-zero series hidden\" row")},
        {"mouse.laneMenu",
         S::Listed,
         QT_TRANSLATE_NOOP("Commands", "Lane Menu"),
         {},
         QT_TRANSLATE_NOOP(
             "Commands",
             "pin its process to the top / unpin, hide the process or the thread lane, show hidden lanes; "
             "with a range selected: restrict the range to the lane, add or remove it, or return to all "
             "lanes"),
         QT_TRANSLATE_NOOP("Commands", "Right-click a lane")},
        {"mouse.reorder",
         S::Listed,
         QT_TRANSLATE_NOOP("Commands", "Reorder Processes"),
         {},
         QT_TRANSLATE_NOOP("Commands", "reorder the processes of a rank (kept in sessions)"),
         QT_TRANSLATE_NOOP("Commands", "Drag a process header up or down")},
    };
}

// One table, in menu order: the menus, help and README list the commands in this order.
std::vector<Command> buildTable()
{
    std::vector<Command> table;
    for (Command &c : fileCommands())
        table.push_back(std::move(c));
    for (Command &c : viewCommands())
        table.push_back(std::move(c));
    for (Command &c : timelineCommands())
        table.push_back(std::move(c));
    for (Command &c : panelToggleCommands())
        table.push_back(std::move(c));
    for (Command &c : appearanceAndHelpCommands())
        table.push_back(std::move(c));
    for (Command &c : statisticsAndQueryCommands())
        table.push_back(std::move(c));
    for (Command &c : panelCompareAndListedCommands())
        table.push_back(std::move(c));
    return table;
}

#undef T

// README names a platform standard key by its role (Ctrl+S is Save on most desktops, but not all).
QString standardKeyName(QKeySequence::StandardKey key)
{
    switch (key) {
    case QKeySequence::Open:
        return QStringLiteral("Open (Ctrl+O)");
    case QKeySequence::Save:
        return QStringLiteral("Save (Ctrl+S)");
    case QKeySequence::Close:
        return QStringLiteral("Close (Ctrl+W or Ctrl+F4)");
    case QKeySequence::Quit:
        return QStringLiteral("Quit (Ctrl+Q)");
    case QKeySequence::Find:
        return QStringLiteral("Find (Ctrl+F)");
    case QKeySequence::Copy:
        return QStringLiteral("Copy (Ctrl+C)");
    case QKeySequence::Delete:
        return QStringLiteral("Delete (Del)");
    default:
        return QStringLiteral("standard key %1").arg(int(key));
    }
}

QString translated(const char *text)
{
    return QCoreApplication::translate("Commands", text);
}

} // namespace

const std::vector<Command> &commands()
{
    static const std::vector<Command> table = buildTable();
    return table;
}

const Command &command(const char *id)
{
    for (const Command &c : commands())
        if (qstrcmp(c.id, id) == 0)
            return c;
    Q_ASSERT_X(false, "command", id);
    return commands().front();
}

QString commandTitle(const Command &c)
{
    return translated(c.text).remove(QLatin1Char('&')).remove(QStringLiteral("…"));
}

QList<QKeySequence> commandKeys(const Command &c)
{
    QList<QKeySequence> keys = c.keys + c.viewKeys;
    if (c.standardKey != QKeySequence::UnknownKey)
        keys.prepend(QKeySequence(c.standardKey)); // the platform's first binding
    return keys;
}

QString commandKeysText(const Command &c, QKeySequence::SequenceFormat format)
{
    if (c.input)
        return translated(c.input);
    QStringList keys;
    for (const QKeySequence &k : commandKeys(c))
        keys << k.toString(format);
    return keys.join(QStringLiteral(", "));
}

Navigation navigationOf(const QKeyEvent *event, bool inView)
{
    const QKeySequence pressed(
        QKeyCombination(event->modifiers() & ~Qt::KeypadModifier, Qt::Key(event->key())));
    for (const Command &c : commands())
        if (c.navigation != Navigation::None &&
            (c.keys.contains(pressed) || (inView && c.viewKeys.contains(pressed))))
            return c.navigation;
    return Navigation::None;
}

namespace {

// The texts of a command's action in the current language.
void setCommandTexts(QAction *action, const Command &c)
{
    action->setText(translated(c.text));
    action->setToolTip(translated(c.help));
    if (c.navigation != Navigation::None) // shown in the menu, bound by the timeline's keyboard handling
        action->setText(action->text() + QLatin1Char('\t') + commandKeysText(c));
}

} // namespace

void retranslateCommandActions(const QObject *root)
{
    const auto all = root->findChildren<QAction *>();
    for (QAction *action : all) {
        const QByteArray id = action->objectName().toLatin1();
        const auto found = std::find_if(commands().begin(), commands().end(),
                                        [&id](const Command &c) { return id == c.id; });
        if (found != commands().end())
            setCommandTexts(action, *found);
    }
}

QAction *makeCommandAction(const char *id, QWidget *owner, Qt::ShortcutContext context)
{
    const Command &c = command(id);
    auto *action = new QAction(owner);
    action->setObjectName(QString::fromLatin1(c.id));
    setCommandTexts(action, c);
    if (c.navigation == Navigation::None) { // navigation keys are bound by the timeline, not as shortcuts
        action->setShortcuts(commandKeys(c));
        action->setShortcutContext(context);
    }
    return action;
}

QString commandsMarkdownTable()
{
    QString out = QStringLiteral("| Keys | Action |\n|---|---|\n");
    for (const Command &c : commands()) {
        if (commandKeys(c).isEmpty() && !c.input)
            continue;
        QStringList keys;
        if (c.input)
            keys << QString::fromUtf8(c.input);
        if (c.standardKey != QKeySequence::UnknownKey)
            keys << QStringLiteral("*%1*").arg(standardKeyName(c.standardKey));
        for (const QKeySequence &k : c.keys)
            keys << QStringLiteral("**%1**").arg(k.toString(QKeySequence::PortableText));
        for (const QKeySequence &k : c.viewKeys)
            keys << QStringLiteral("**%1** (timeline focused)").arg(k.toString(QKeySequence::PortableText));
        out +=
            QStringLiteral("| %1 | %2 |\n").arg(keys.join(QStringLiteral(", ")), QString::fromUtf8(c.help));
    }
    return out;
}

} // namespace at
