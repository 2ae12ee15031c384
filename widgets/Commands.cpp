#include "Commands.h"

#include <QAction>
#include <QCoreApplication>
#include <QKeyEvent>
#include <QWidget>

namespace at {

namespace {

using S = CommandScope;
using N = Navigation;
#define T(text) QT_TRANSLATE_NOOP("Commands", text)

QKeySequence key(QKeyCombination combination)
{
    return QKeySequence(combination);
}

std::vector<Command> buildTable()
{
    const auto ctrl = Qt::ControlModifier;
    const auto ctrlShift = Qt::ControlModifier | Qt::ShiftModifier;
    return {
        {"file.open", S::File, T("&Open…"), {}, T("open a trace file"), nullptr, N::None, QKeySequence::Open},
        {"file.openFolder",
         S::File,
         T("Open &Folder…"),
         {key(ctrlShift | Qt::Key_O)},
         T("open a profiling result folder")},
        {"file.openInNewWindow",
         S::File,
         T("Open in &New Window…"),
         {key(ctrlShift | Qt::Key_N)},
         T("open a trace in another window (e.g. to compare steps)")},
        {"file.openSample", S::File, T("Open &Bundled Sample"), {}, T("open the bundled AlexNet sample")},
        {"file.reloadOtherSource",
         S::File,
         T("Re&load from Other Source (Database ↔ Text)"),
         {},
         T("reload the result from its other export")},
        {"file.reloadRaw",
         S::File,
         T("Reload from Raw &Data (PROF_* slices)"),
         {},
         T("reload the result decoding its raw PROF_* data")},
        {"file.exportPng", S::File, T("&Export View as PNG…"), {}, T("save the timeline as shown")},
        {"file.exportPngWhole",
         S::File,
         T("Export &Whole Trace Height as PNG…"),
         {},
         T("save the timeline with every lane, also those scrolled out of sight")},
        {"file.exportSvg", S::File, T("Export View as S&VG…"), {}, T("save the timeline as vector graphics")},
        {"file.openSession", S::File, T("Open Sess&ion…"), {}, T("open a saved session and its data")},
        {"file.saveSession",
         S::File,
         T("&Save Session…"),
         {},
         T("save the session (view, lanes, markers, colour rules, comparison)"),
         nullptr,
         N::None,
         QKeySequence::Save},
        {"file.close",
         S::File,
         T("&Close"),
         {},
         T("close the trace (back to the start page)"),
         nullptr,
         N::None,
         QKeySequence::Close},
        {"file.quit", S::File, T("&Quit"), {}, T("quit"), nullptr, N::None, QKeySequence::Quit},
        {"view.find",
         S::View,
         T("&Find…"),
         {},
         T("find slices by name (Enter / Shift+Enter step through matches in time order)"),
         nullptr,
         N::None,
         QKeySequence::Find},
        {"view.zoomIn",
         S::View,
         T("Zoom &In"),
         {key(Qt::Key_W)},
         T("zoom in by 1.25× (centred on the mouse when it is over the timeline); held: by the time held"),
         nullptr,
         N::ZoomIn,
         QKeySequence::UnknownKey,
         {key(Qt::Key_Up)}},
        {"view.zoomOut",
         S::View,
         T("Zoom &Out"),
         {key(Qt::Key_S)},
         T("zoom out by 1.25×; held: by the time held"),
         nullptr,
         N::ZoomOut,
         QKeySequence::UnknownKey,
         {key(Qt::Key_Down)}},
        {"view.panLeft",
         S::View,
         T("Pan &Left"),
         {key(Qt::Key_A)},
         T("pan left by 10 % of the visible width; held: by the time held"),
         nullptr,
         N::PanLeft,
         QKeySequence::UnknownKey,
         {key(Qt::Key_Left)}},
        {"view.panRight",
         S::View,
         T("Pan &Right"),
         {key(Qt::Key_D)},
         T("pan right by 10 % of the visible width; held: by the time held"),
         nullptr,
         N::PanRight,
         QKeySequence::UnknownKey,
         {key(Qt::Key_Right)}},
        {"view.showAll",
         S::View,
         T("Show &Everything"),
         {key(Qt::Key_0), key(ctrl | Qt::Key_0)},
         T("show everything (far outliers such as stray ts=0 events are not fitted)"),
         nullptr,
         N::ShowAll},
        {"view.fitSelection",
         S::View,
         T("Fi&t Selection"),
         {key(Qt::Key_F)},
         T("fit the selected slice (or the selected range)"),
         nullptr,
         N::FitSelection},
        {"view.undoZoom",
         S::View,
         T("&Undo Zoom"),
         {key(Qt::Key_Backspace)},
         T("undo the last zoom (a burst of w/s presses counts as one)"),
         nullptr,
         N::UndoZoom},
        {"view.clearRange",
         S::Timeline,
         T("Clear Range Selection"),
         {},
         T("clear the range selection (in the find bar: close it)"),
         nullptr,
         N::ClearRange,
         QKeySequence::UnknownKey,
         {key(Qt::Key_Escape)}},
        {"view.markSelection",
         S::View,
         T("&Mark Selection"),
         {key(Qt::Key_M)},
         T("mark the range selection, else the selected slice, as a named range (Markers dock)")},
        {"view.dropFlag",
         S::View,
         T("Drop a Fla&g"),
         {key(Qt::Key_K)},
         T("drop a flag at the time under the mouse (else the view's centre)")},
        {"view.colorRules",
         S::View,
         T("Colour Rule&s…"),
         {},
         T("colour slices whose name matches a pattern")},
        {"view.previousStep",
         S::View,
         T("&Previous Step"),
         {key(Qt::Key_BracketLeft)},
         T("previous step, fitted (of the selected slice's rank, else the first)")},
        {"view.nextStep", S::View, T("&Next Step"), {key(Qt::Key_BracketRight)}, T("next step, fitted")},
        {"view.compareSteps",
         S::View,
         T("&Compare Steps…"),
         {key(ctrlShift | Qt::Key_C)},
         T("compare two steps side by side")},
        {"panel.details", S::Panels, T("Details"), {}, T("show or hide the Details dock")},
        {"panel.statistics",
         S::Panels,
         T("Range statistics"),
         {},
         T("show or hide the Range statistics dock")},
        {"panel.kernels", S::Panels, T("Kernels"), {}, T("show or hide the Kernels dock")},
        {"panel.tables", S::Panels, T("Tables"), {}, T("show or hide the Tables dock")},
        {"panel.charts", S::Panels, T("Charts"), {}, T("show or hide the Charts dock")},
        {"panel.steps", S::Panels, T("Steps"), {}, T("show or hide the Steps dock")},
        {"panel.markers", S::Panels, T("Markers"), {}, T("show or hide the Markers dock")},
        {"panel.collection", S::Panels, T("Collection"), {}, T("show or hide the Collection dock")},
        {"help.shortcuts", S::Help, T("&Keyboard Shortcuts"), {}, T("list every command and its keys")},
        {"help.about", S::Help, T("&About"), {}, T("the version")},
        {"statistics.copy",
         S::Panel,
         T("Copy"),
         {},
         T("in Range statistics: copy the selected rows as TSV"),
         nullptr,
         N::None,
         QKeySequence::Copy},
        {"markers.delete",
         S::Panel,
         T("Delete Marker"),
         {},
         T("in Markers: delete the selected marker"),
         nullptr,
         N::None,
         QKeySequence::Delete},
        {"table.exportCsv",
         S::Panel,
         T("Export Table as CSV…"),
         {},
         T("any table's context menu: the rows as shown, as CSV")},
        {"compare.exportByName",
         S::Compare,
         T("Export Diff by &Name as CSV…"),
         {},
         T("compare window: the diff by kernel name as CSV")},
        {"compare.exportPerKernel",
         S::Compare,
         T("Export Diff per &Kernel as CSV…"),
         {},
         T("compare window: the diff per kernel pair as CSV")},
        {"compare.close",
         S::Compare,
         T("&Close"),
         {},
         T("close the compare window"),
         nullptr,
         N::None,
         QKeySequence::Close},
        {"find.next",
         S::Listed,
         T("Next Match"),
         {},
         T("in the find bar: the next match in time"),
         T("Enter")},
        {"find.previous",
         S::Listed,
         T("Previous Match"),
         {},
         T("in the find bar: the previous match in time"),
         T("Shift+Enter")},
        {"mouse.zoom", S::Listed, T("Zoom at the Mouse"), {}, T("zoom at the mouse"), T("Ctrl+Wheel")},
        {"mouse.scroll", S::Listed, T("Scroll Lanes"), {}, T("scroll lanes; Shift+Wheel pans"), T("Wheel")},
        {"mouse.pan", S::Listed, T("Pan"), {}, T("pan"), T("Middle drag, Shift+drag")},
        {"mouse.select",
         S::Listed,
         T("Select a Slice"),
         {},
         T("select a slice: its details and flow arrows (click a flow in Details to jump)"),
         T("Click")},
        {"mouse.range",
         S::Listed,
         T("Select a Range"),
         {},
         T("select a time range: statistics by name (sortable; Ctrl+C copies as TSV)"),
         T("Drag across the timeline")},
        {"mouse.collapse",
         S::Listed,
         T("Collapse a Group"),
         {},
         T("collapse / expand the process group"),
         T("Click a group header")},
        {"mouse.laneMenu",
         S::Listed,
         T("Lane Menu"),
         {},
         T("pin its process to the top / unpin, hide the process or the thread lane, show hidden lanes"),
         T("Right-click a lane")},
        {"mouse.reorder",
         S::Listed,
         T("Reorder Processes"),
         {},
         T("reorder the processes of a rank (kept in sessions)"),
         T("Drag a process header up or down")},
    };
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

QAction *makeCommandAction(const char *id, QWidget *owner, Qt::ShortcutContext context)
{
    const Command &c = command(id);
    auto *action = new QAction(translated(c.text), owner);
    action->setObjectName(QString::fromLatin1(c.id));
    action->setToolTip(translated(c.help));
    if (c.navigation != Navigation::None) {
        // Shown in the menu, bound by the timeline's keyboard handling (see Navigation).
        action->setText(action->text() + QLatin1Char('\t') + commandKeysText(c));
    } else {
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
