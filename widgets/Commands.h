#pragma once

#include <QKeySequence>
#include <QList>
#include <QString>

#include <vector>

class QAction;
class QKeyEvent;
class QWidget;

namespace at {

// Where a command is offered: a menu of the main window (File, View, View ▸ Panels, Help), a panel's
// own keys, the compare window's menu, or only listed (mouse gestures and the find bar's keys, which
// widgets handle themselves).
enum class CommandScope
{
    File,
    View,
    Panels,
    Appearance, // View ▸ Theme and View ▸ Language (checkable choices)
    Help,
    Timeline, // timeline keys without a menu entry (Esc)
    Panel,
    Compare,
    Listed
};

// Timeline navigation a key can ask for. Navigation keys are not QAction shortcuts: the timeline's
// keyboard binding (TimelineKeyboard.h) runs them, so a held w/s/a/d sees its auto-repeat and
// release events and advances by elapsed time.
enum class Navigation
{
    None,
    ZoomIn,
    ZoomOut,
    PanLeft,
    PanRight,
    ShowAll,
    FitSelection,
    UndoZoom,
    ClearRange,
    PreviousLane, // the lane above (a thread's slice track), selecting its slice at the same time
    NextLane,
    PreviousSlice, // the previous slice of the same depth on the lane
    NextSlice,
    PreviousOccurrence, // the previous slice of the same name, any lane
    NextOccurrence
};

// One command of the application. The table in Commands.cpp is the only place keys are named:
// menus, shortcuts, the timeline's keys, the help dialog and README's key table all read it.
struct Command
{
    const char *id; // stable name, e.g. "view.zoomIn"; handlers are bound by it
    CommandScope scope;
    const char *text; // menu text (context "Commands"), & marks the mnemonic
    QList<QKeySequence> keys;
    const char *help;            // what it does (README, help dialog tooltip)
    const char *input = nullptr; // for listed commands: the gesture or keys, e.g. "Ctrl+Wheel"
    Navigation navigation = Navigation::None;
    // A platform standard key (Open, Save, …), bound before keys; UnknownKey when none.
    QKeySequence::StandardKey standardKey = QKeySequence::UnknownKey;
    // Keys that act only while the timeline has the focus (arrows, Esc), so that item views keep
    // their arrow keys.
    QList<QKeySequence> viewKeys = {};
};

const std::vector<Command> &commands();
// The command with this id (a missing id is a programming error: asserted, then the first entry).
const Command &command(const char *id);
// Translated text without mnemonic and ellipsis ("Open Folder").
QString commandTitle(const Command &c);
// The standard key's binding on this platform, then keys and view keys.
QList<QKeySequence> commandKeys(const Command &c);
// "W, Up" (or the listed gesture), in the given key format.
QString commandKeysText(const Command &c, QKeySequence::SequenceFormat format = QKeySequence::NativeText);
// The navigation a key press or release asks for (keypad modifier ignored); view keys count only
// when the key went to the timeline itself (inView).
Navigation navigationOf(const QKeyEvent *event, bool inView);
// A QAction for the command, owned by owner: text, keys (as shortcuts in the given context; for
// navigation commands shown in the menu only), object name = id. The caller connects triggered.
QAction *makeCommandAction(const char *id, QWidget *owner, Qt::ShortcutContext context = Qt::WindowShortcut);
// Sets the texts of every command action under root (object name = command id) again in the current
// language (QEvent::LanguageChange).
void retranslateCommandActions(const QObject *root);
// README's "Keyboard and mouse" table: one row per command with keys or a gesture.
QString commandsMarkdownTable();

} // namespace at
