#pragma once

#include <QComboBox>

namespace at {

class TimelineView;

// "Colour kernels: by name / by duration percentile / by <metric>" on the window's toolbar: its choices
// follow the timeline's model (the metric columns of its kernel table), the chosen one colours the timeline.
class KernelColorChooser : public QComboBox
{
    Q_OBJECT
public:
    explicit KernelColorChooser(TimelineView *timeline, QWidget *parent = nullptr);
    // The choices of the timeline's current model, "by name" chosen.
    void fill();
    // The texts in the current language; the choices keep their data (and the current one).
    void retranslate();

private:
    void apply();

    TimelineView *m_timeline;
};

} // namespace at
