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
    // The panels' setModel(const TraceModel *) that PanelRegistry calls; QTreeWidget's own setModel,
    // hidden by it, is private there and so never reachable through a CollectionPanel anyway.
    void setModel(const TraceModel *model); // NOLINT(clang-diagnostic-overloaded-virtual)
    // All text of the panel, one "field: value" line per item (tests, copy).
    QString text() const;

protected:
    // QEvent::LanguageChange: the headers and item names in the new language.
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();

    const TraceModel *m_model = nullptr;
};

} // namespace at
