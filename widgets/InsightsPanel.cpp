#include "InsightsPanel.h"

#include "FindingText.h"
#include "InsightChecks.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace at {

namespace {

constexpr int kFindingRole = Qt::UserRole;        // index into findings(), on every row
constexpr int kOccurrenceRole = Qt::UserRole + 1; // index into occurrences, -1 on a finding row

} // namespace

InsightsPanel::InsightsPanel(QWidget *parent)
    : QWidget(parent), m_status(new QLabel), m_tree(new QTreeWidget), m_text(new QTextBrowser),
      m_showAll(new QPushButton)
{
    m_tree->setColumnCount(4);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int c = 1; c < 4; ++c)
        m_tree->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_tree->setUniformRowHeights(true);
    m_text->setOpenLinks(false);
    m_showAll->setEnabled(false);
    retranslateUi();

    auto *split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_tree);
    split->addWidget(m_text);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_status, 1);
    bar->addWidget(m_showAll);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(split, 1);
    layout->addLayout(bar);

    connect(&m_watcher, &QFutureWatcher<std::vector<Finding>>::finished, this, [this] {
        if (m_watcher.isCanceled() || !m_model)
            return;
        m_findings = m_watcher.result();
        m_done = true;
        showFindings();
        Q_EMIT findingsReady();
    });
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        showCurrent();
        if (!item)
            return;
        const int f = item->data(0, kFindingRole).toInt();
        const int o = item->data(0, kOccurrenceRole).toInt();
        if (f < 0 || o < 0 || f >= static_cast<int>(m_findings.size()))
            return;
        const FindingOccurrence &occurrence =
            m_findings[static_cast<std::size_t>(f)].occurrences[static_cast<std::size_t>(o)];
        if (occurrence.slice.isValid())
            Q_EMIT occurrenceActivated(occurrence.slice);
    });
    connect(m_showAll, &QPushButton::clicked, this, [this] {
        const int f = currentFinding();
        if (f < 0)
            return;
        std::vector<SliceRef> slices;
        for (const FindingOccurrence &o : m_findings[static_cast<std::size_t>(f)].occurrences) {
            if (o.slice.isValid())
                slices.push_back(o.slice);
        }
        if (slices.empty())
            return;
        Q_EMIT occurrencesRequested(slices);
        Q_EMIT occurrenceActivated(slices.front());
    });
    setModel(nullptr);
}

InsightsPanel::~InsightsPanel()
{
    setModel(nullptr);
}

void InsightsPanel::setModel(const TraceModel *model)
{
    start(model, nullptr);
}

void InsightsPanel::setCluster(std::shared_ptr<const cluster::ClusterModel> cluster)
{
    start(cluster ? m_noTimeline.get() : nullptr, cluster);
}

void InsightsPanel::start(const TraceModel *model, std::shared_ptr<const cluster::ClusterModel> cluster)
{
    if (m_cancel)
        m_cancel->store(true);
    m_watcher.waitForFinished(); // the worker reads the model: it must be done before the model goes
    m_model = model;
    m_cluster = std::move(cluster);
    m_done = false;
    m_findings.clear();
    m_tree->clear();
    m_text->clear();
    m_showAll->setEnabled(false);
    showStatus();
    if (!model)
        return;
    auto cancel = std::make_shared<std::atomic_bool>(false);
    m_cancel = cancel;
    m_watcher.setFuture(QtConcurrent::run([model, cancel, fixed = m_cluster, reader = m_clusterReader] {
        // The cluster page's data, else the model folder's communication data (read here, off the GUI
        // thread).
        const std::shared_ptr<const cluster::ClusterModel> data =
            fixed ? fixed : (reader && !cancel->load() ? reader(*model) : nullptr);
        return runInsightChecks(*model, cancel.get(), data.get());
    }));
}

void InsightsPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
        // The findings' texts come translated from core: make them again, once for a burst of events
        // (installing a language removes and installs several translators).
        if (m_model && !m_rerunPending) {
            m_rerunPending = true;
            QTimer::singleShot(0, this, [this] {
                m_rerunPending = false;
                if (m_model)
                    start(m_model, m_cluster);
            });
        }
    }
    QWidget::changeEvent(event);
}

void InsightsPanel::retranslateUi()
{
    m_tree->setHeaderLabels({tr("Finding / occurrence"), tr("Severity / rank"),
                             tr("Time at stake / duration"), tr("% of step / start")});
    m_showAll->setText(tr("Show all"));
    m_showAll->setToolTip(tr("Highlight every occurrence of the finding on the timeline"));
    showStatus();
}

void InsightsPanel::showStatus()
{
    if (!m_model)
        m_status->setText(tr("Open a profile to check it for performance problems."));
    else if (!m_done)
        m_status->setText(tr("Checking the profile for performance problems…"));
    else if (m_findings.empty())
        m_status->setText(tr("No performance problems found by the %n check(s).", nullptr,
                             static_cast<int>(insightChecks().size())));
    else
        m_status->setText(tr("%n finding(s), ranked by the time they explain.", nullptr,
                             static_cast<int>(m_findings.size())));
}

void InsightsPanel::showFindings()
{
    m_tree->clear();
    showStatus();
    const InsightContext context(*m_model);
    for (std::size_t f = 0; f < m_findings.size(); ++f) {
        const Finding &finding = m_findings[f];
        auto *item =
            new QTreeWidgetItem(m_tree, {finding.title, severityText(finding.severity),
                                         finding.timeAtStake > 0 ? formatDuration(finding.timeAtStake)
                                                                 : tr("none (informational)"),
                                         QStringLiteral("%1 %").arg(finding.stepPercent, 0, 'f', 1)});
        item->setData(0, kFindingRole, static_cast<int>(f));
        item->setData(0, kOccurrenceRole, -1);
        item->setToolTip(0, finding.title);
        // Which rank and part of its step the time explains, and the shares (the % column is of that step).
        for (int c = 2; c < 4; ++c)
            item->setToolTip(c, timeAtStakeText(finding));
        for (int c = 2; c < 4; ++c)
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        for (std::size_t o = 0; o < finding.occurrences.size(); ++o) {
            const FindingOccurrence &occurrence = finding.occurrences[o];
            auto *child =
                new QTreeWidgetItem(item, {occurrence.name, tr("rank %1").arg(context.rankOf(occurrence)),
                                           formatDuration(occurrence.duration),
                                           // cluster-only occurrences (a rank, no slice) have no time
                                           occurrence.rank >= 0 && !occurrence.slice.isValid()
                                               ? QString()
                                               : tr("at %1").arg(formatDuration(occurrence.start))});
            child->setData(0, kFindingRole, static_cast<int>(f));
            child->setData(0, kOccurrenceRole, static_cast<int>(o));
            child->setToolTip(0, occurrence.name);
            for (int c = 2; c < 4; ++c)
                child->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        }
    }
}

int InsightsPanel::currentFinding() const
{
    const QTreeWidgetItem *item = m_tree->currentItem();
    return item ? item->data(0, kFindingRole).toInt() : -1;
}

void InsightsPanel::showCurrent()
{
    const int f = currentFinding();
    m_showAll->setEnabled(f >= 0);
    if (f < 0 || f >= static_cast<int>(m_findings.size())) {
        m_text->clear();
        return;
    }
    const Finding &finding = m_findings[static_cast<std::size_t>(f)];
    m_text->setHtml(
        QStringLiteral("<p><b>%1</b></p><p>%2</p><p><b>%3</b> %4</p><p>%5</p>")
            .arg(finding.title.toHtmlEscaped(), finding.explanation.toHtmlEscaped(), tr("Fix:"),
                 finding.fix.toHtmlEscaped(),
                 tr("Check: %1 · %n occurrence(s)", nullptr, static_cast<int>(finding.occurrences.size()))
                     .arg(finding.check)
                     .toHtmlEscaped()));
}

} // namespace at
