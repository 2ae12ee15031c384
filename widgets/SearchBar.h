#pragma once

#include "TraceModel.h"
#include "TraceQueries.h"

#include <QTimer>
#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QToolButton;

namespace at {

class TimelineState;

// Ctrl+F: finds slices whose name contains the text; matchesChanged hands every match to the timeline
// to highlight, the status reads "n of N"; Enter / Shift+Enter step through the matches in time order
// and emit matchActivated so the timeline selects and centres them.
class SearchBar : public QWidget
{
    Q_OBJECT
public:
    explicit SearchBar(QWidget *parent = nullptr);

    void setModel(const TraceModel *model);
    QLineEdit *lineEdit() const { return m_edit; }
    QCheckBox *caseSensitive() const { return m_case; }
    const std::vector<SliceRef> &matches() const { return m_matches; }
    int currentIndex() const { return m_current; }
    QString statusText() const;
    // The timeline's rank offsets: the matches are stepped through in the order they are drawn (a rank's
    // time + its offset); the current match stays current.
    void setGroupOffsets(at::GroupOffsets offsets);
    // Takes the timeline's rank offsets as they change.
    void followTimeline(const TimelineState *state);

public Q_SLOTS:
    void activate(); // show, focus and select the text
    void runSearch();
    void next();
    void previous();

Q_SIGNALS:
    void matchActivated(at::SliceRef ref);
    // After each search (empty when the text is empty or nothing matches).
    void matchesChanged(const std::vector<at::SliceRef> &matches);
    void closed();

protected:
    void keyPressEvent(QKeyEvent *event) override;
    // QEvent::LanguageChange: label, placeholder, tool tips and status in the new language.
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void retranslateUi(); // every fixed text; the constructor sets them through it too
    void step(int delta);
    void updateStatus();

    const TraceModel *m_model = nullptr;
    QLabel *m_label;
    QLineEdit *m_edit;
    QCheckBox *m_case;
    QLabel *m_status;
    QToolButton *m_previous;
    QToolButton *m_next;
    QToolButton *m_close;
    QTimer m_debounce;
    std::vector<SliceRef> m_matches;
    int m_current = -1;
    QString m_searchedText;
    bool m_searchedCase = false;
    GroupOffsets m_offsets;
};

} // namespace at
