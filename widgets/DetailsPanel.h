#pragma once

#include "TraceModel.h"

#include <QFontMetrics>
#include <QTreeWidget>

namespace at {

// Shows everything about the selected slice: name, category, start (relative and raw absolute),
// duration, self time, depth, process/thread, every args key/value, and its flows. Clicking a
// flow emits jumpTo for the slice at its other end.
class DetailsPanel : public QTreeWidget
{
    Q_OBJECT
public:
    explicit DetailsPanel(QWidget *parent = nullptr);

    // The panels' setModel(const TraceModel *) that PanelRegistry calls. It hides QTreeWidget's own
    // setModel, which is private there and so never reachable through a DetailsPanel anyway: clang's
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
    void showSlice(at::SliceRef ref);
    // Value shown for a top-level field ("Name", "Duration", ...), for tests and copy.
    QString fieldValue(const QString &field) const;
    QTreeWidgetItem *flowItem(int index) const;
    // What a raw value reads as: "n/a" for the profilers' "no value" markers (4294967295, …).
    static QString displayValue(const QString &raw);
    // How a cell's text is wrapped to `width` pixels: at spaces and after the separators of names
    // ("_", "/", ".", ...), never inside a word unless that word alone is wider than the line.
    static QStringList wrappedLines(const QString &text, const QFontMetrics &metrics, int width);

Q_SIGNALS:
    void jumpTo(at::SliceRef ref);

protected:
    void resizeEvent(QResizeEvent *event) override;
    // QEvent::LanguageChange: the headers and the shown slice's field names in the new language.
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void fitFieldColumn();
    QTreeWidgetItem *addField(const QString &field, const QString &value);
    QTreeWidgetItem *addChild(QTreeWidgetItem *parent, const QString &field, const QString &raw);
    void addKernelMetrics(SliceRef ref);
    void addFlows(const QString &title, const std::vector<std::uint32_t> &flows, bool outgoing);

    const TraceModel *m_model = nullptr;
    SliceRef m_shown; // the slice shown, for retranslateUi()
};

} // namespace at
