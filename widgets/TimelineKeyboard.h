#pragma once

#include <QObject>
#include <QPointer>

#include <functional>

class QKeyEvent;
class QWidget;

namespace at {

class TimelineView;

// Runs a navigation key (Commands.h: w/s/a/d/arrows held or pressed, 0, f, Backspace, Esc) on the
// view: a press starts a held motion or runs the command, auto-repeat continues the motion by
// elapsed time, the release ends it. false when the registry binds nothing to the key. inView: the
// key went to the view itself (arrows and Esc act only then).
bool handleNavigationKey(TimelineView *view, const QKeyEvent *event, bool inView);

// Sends the navigation keys pressed anywhere in one window to a timeline (the focused panel need not
// be the timeline), except while a text field has the focus. Installed on the application, since
// key events go to the focused widget and an item view would otherwise keep the letters.
class NavigationKeyFilter : public QObject
{
    Q_OBJECT
public:
    // target: the view to drive at the time of the key (e.g. the compare window's focused pane).
    NavigationKeyFilter(QWidget *window, std::function<TimelineView *()> target);
    ~NavigationKeyFilter() override;

    // Text fields (line edits, cell editors, spin boxes, text edits) keep their letters.
    static bool takesText(const QWidget *widget);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    bool inWindow(const QWidget *widget) const;

    QPointer<QWidget> m_window;
    std::function<TimelineView *()> m_target;
};

} // namespace at
