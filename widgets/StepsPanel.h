#pragma once

#include "Steps.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace at {

// The step list: every step of the loaded profile with its duration and computing /
// communication / free time. Double-click (or Enter) fits the timeline to a step; with two rows
// selected "Compare" opens them side by side.
class StepsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit StepsPanel(QWidget *parent = nullptr);

    void setModel(const TraceModel *model);
    QTableWidget *table() const { return m_table; }
    QPushButton *compareButton() const { return m_compare; }
    // Indices into model->steps() of the selected rows, in row order.
    std::vector<int> selectedSteps() const;
    void selectStep(int step);

Q_SIGNALS:
    void stepActivated(int step);
    // Two steps of this profile, or one (to be compared with a step of another open profile).
    void compareRequested(std::vector<int> steps);

protected:
    // QEvent::LanguageChange: headers, button and hint in the new language.
    void changeEvent(QEvent *event) override;

private:
    // Where the step's boundaries came from, in the user's language (stepSourceName is the CLI's English).
    static QString sourceText(StepSource source);
    void retranslateUi(); // every fixed text; the constructor sets them through it too
    void updateButtons();

    const TraceModel *m_model = nullptr;
    QTableWidget *m_table;
    QPushButton *m_compare;
    QLabel *m_hint;
};

} // namespace at
