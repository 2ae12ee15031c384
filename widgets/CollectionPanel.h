#pragma once

#include "TraceModel.h"

#include <QTreeWidget>

namespace at {

// How each loaded source was collected: layout and files, metric group and metrics, ACL_PROF_*
// switches, device/chip/frequencies/versions, and warnings where the data may mislead.
class CollectionPanel : public QTreeWidget
{
    Q_OBJECT
public:
    explicit CollectionPanel(QWidget *parent = nullptr);
    // The panels' setModel(const TraceModel *) that PanelRegistry calls. It hides QTreeWidget's own
    // setModel, which is private there and so never reachable through a CollectionPanel anyway: clang's
    // -Woverloaded-virtual (clang-tidy, the sanitizer build) is off for this line only (NOLINT does
    // not reach compiler warnings in clang-tidy 14).
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Woverloaded-virtual"
#endif
    void setModel(const TraceModel *model);
#ifdef __clang__
#pragma clang diagnostic pop
#endif
    // All text of the panel, one "field: value" line per item (tests, copy).
    QString text() const;

protected:
    // QEvent::LanguageChange: the headers and item names in the new language.
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void retranslateUi();
    void fitColumns(); // the item names at most half the width, the values the rest

    const TraceModel *m_model = nullptr;
};

} // namespace at
