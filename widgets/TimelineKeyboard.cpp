#include "TimelineKeyboard.h"

#include "Commands.h"
#include "TimelineView.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QDockWidget>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTextEdit>

#include <cmath>

namespace at {

namespace {

// A held a/d pans one step per this many ms (the usual ~30 Hz key repeat), however many repeat
// events arrive: a slow frame makes the next step bigger instead of queueing work.
constexpr double kRepeatStepMs = 33;
// After a stall, a held key moves at most as far as in this much time (eight pan steps).
constexpr double kMaxStallSeconds = 8 * kRepeatStepMs / 1000;

// How far (in log scale) a held zoom key has zoomed after t seconds: the rate grows evenly from
// kHeldZoomStartPerSecond to kHeldZoomMaxPerSecond over the first second, then stays there. A fixed
// per-repeat step compounds far too fast (1.25^60: thousands of times in two seconds).
double heldZoomLog(double t)
{
    const double start = std::log(TimelineView::kHeldZoomStartPerSecond);
    const double max = std::log(TimelineView::kHeldZoomMaxPerSecond);
    if (t <= 1)
        return start * t + (max - start) * t * t / 2;
    return (start + max) / 2 + max * (t - 1);
}

std::optional<TimelineView::HeldMotion> heldMotionOf(Navigation n)
{
    switch (n) {
    case Navigation::ZoomIn:
        return TimelineView::HeldMotion::ZoomIn;
    case Navigation::ZoomOut:
        return TimelineView::HeldMotion::ZoomOut;
    case Navigation::PanLeft:
        return TimelineView::HeldMotion::PanLeft;
    case Navigation::PanRight:
        return TimelineView::HeldMotion::PanRight;
    default:
        return std::nullopt;
    }
}

} // namespace

// --- the view's held motions -------------------------------------------------------------------

void TimelineView::startHeld(HeldMotion motion)
{
    m_heldMotion = motion;
    m_keyClock.restart();
    m_heldSeconds = 0;
    moveBySteps(motion, 1.0);
}

void TimelineView::continueHeld(HeldMotion motion)
{
    if (m_heldMotion != motion || !m_keyClock.isValid())
        return startHeld(motion); // a repeat without its press (focus came in while held)
    moveBySteps(motion, keySteps(motion));
}

void TimelineView::stopHeld()
{
    m_heldMotion.reset();
    m_keyClock.invalidate();
    m_heldSeconds = 0;
}

double TimelineView::keySteps(HeldMotion motion)
{
    // Auto-repeat advances by the time since the last step, so a burst of repeats delivered after a
    // slow frame adds up to the time held, not to one step per event. The range change only
    // schedules a paint (update()), so repeats never queue frames.
    const double now = static_cast<double>(m_keyClock.elapsed()) / 1000.0;
    const double from = std::max(m_heldSeconds, now - kMaxStallSeconds);
    m_heldSeconds = now;
    if (now <= from)
        return 0;
    if (motion == HeldMotion::PanLeft || motion == HeldMotion::PanRight)
        return (now - from) * 1000.0 / kRepeatStepMs;
    return (heldZoomLog(now) - heldZoomLog(from)) / std::log(ZoomController::kZoomStep);
}

void TimelineView::moveBySteps(HeldMotion motion, double steps)
{
    switch (motion) {
    case HeldMotion::ZoomIn:
        m_zoom.zoom(std::pow(ZoomController::kZoomStep, steps), zoomAnchor());
        break;
    case HeldMotion::ZoomOut:
        m_zoom.zoom(std::pow(ZoomController::kZoomStep, -steps), zoomAnchor());
        break;
    case HeldMotion::PanLeft:
        m_zoom.pan(-ZoomController::kPanFraction * steps);
        break;
    case HeldMotion::PanRight:
        m_zoom.pan(ZoomController::kPanFraction * steps);
        break;
    }
}

// --- key binding -------------------------------------------------------------------------------

bool handleNavigationKey(TimelineView *view, const QKeyEvent *event, bool inView)
{
    const Navigation navigation = navigationOf(event, inView);
    if (navigation == Navigation::None)
        return false;
    const auto held = heldMotionOf(navigation);
    if (event->type() == QEvent::KeyRelease) {
        // X11 reports auto-repeat as release + press pairs: only the real release ends the hold.
        if (held && !event->isAutoRepeat())
            view->stopHeld();
        return held.has_value();
    }
    if (held) {
        if (event->isAutoRepeat())
            view->continueHeld(*held);
        else
            view->startHeld(*held);
        return true;
    }
    switch (navigation) {
    case Navigation::ShowAll:
        view->showAll();
        break;
    case Navigation::FitSelection:
        view->fitSelection();
        break;
    case Navigation::UndoZoom:
        view->undoZoom();
        break;
    case Navigation::ClearRange:
        view->clearRangeSelection();
        break;
    case Navigation::PreviousLane:
        view->selectAdjacentLane(-1);
        break;
    case Navigation::NextLane:
        view->selectAdjacentLane(+1);
        break;
    case Navigation::PreviousSlice:
        view->selectAdjacentSlice(-1);
        break;
    case Navigation::NextSlice:
        view->selectAdjacentSlice(+1);
        break;
    case Navigation::PreviousOccurrence:
        view->selectOccurrence(-1);
        break;
    case Navigation::NextOccurrence:
        view->selectOccurrence(+1);
        break;
    default:
        break;
    }
    return true;
}

NavigationKeyFilter::NavigationKeyFilter(QWidget *window, std::function<TimelineView *()> target)
    : QObject(window), m_window(window), m_target(std::move(target))
{
    qApp->installEventFilter(this);
}

NavigationKeyFilter::~NavigationKeyFilter()
{
    qApp->removeEventFilter(this);
}

bool NavigationKeyFilter::takesText(const QWidget *widget)
{
    return qobject_cast<const QLineEdit *>(widget) || qobject_cast<const QAbstractSpinBox *>(widget) ||
           qobject_cast<const QTextEdit *>(widget) || qobject_cast<const QPlainTextEdit *>(widget);
}

bool NavigationKeyFilter::inWindow(const QWidget *widget) const
{
    // A floating dock is a window of its own but still part of ours (as for WindowShortcut).
    const QWidget *top = widget->window();
    while (top != m_window && qobject_cast<const QDockWidget *>(top) && top->parentWidget())
        top = top->parentWidget()->window();
    return top == m_window;
}

bool NavigationKeyFilter::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::KeyPress && event->type() != QEvent::KeyRelease)
        return false;
    const auto *widget = qobject_cast<QWidget *>(watched);
    if (!widget || !m_window || !inWindow(widget) || takesText(widget))
        return false;
    TimelineView *view = m_target();
    return view && handleNavigationKey(view, static_cast<QKeyEvent *>(event), widget == view);
}

} // namespace at
