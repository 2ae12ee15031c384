#include "InsightsPanel.h"

#include "FindingText.h"
#include "InsightChecks.h"
#include "NumberFormat.h"

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
    m_status->setWordWrap(true); // the "also checked" line may be long
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

    connect(&m_watcher, &QFutureWatcher<std::shared_ptr<const InsightsResult>>::finished, this, [this] {
        if (m_watcher.isCanceled() || !m_model)
            return;
        m_result = m_watcher.result();
        if (!m_result || m_result->model != m_model)
            return; // a cancelled run of a model that is gone
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
        if (f < 0 || o < 0 || f >= static_cast<int>(findings().size()))
            return;
        const FindingOccurrence &occurrence =
            findings()[static_cast<std::size_t>(f)].occurrences[static_cast<std::size_t>(o)];
        if (occurrence.slice.isValid())
            Q_EMIT occurrenceActivated(occurrence.slice);
    });
    connect(m_showAll, &QPushButton::clicked, this, [this] {
        const int f = currentFinding();
        if (f < 0)
            return;
        std::vector<SliceRef> slices;
        for (const FindingOccurrence &o : findings()[static_cast<std::size_t>(f)].occurrences) {
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

const std::vector<Finding> &InsightsPanel::findings() const
{
    static const std::vector<Finding> none;
    return m_result ? *m_result->findings : none;
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
    m_result.reset();
    m_tree->clear();
    m_text->clear();
    m_showAll->setEnabled(false);
    showStatus();
    if (!model)
        return;
    auto cancel = std::make_shared<std::atomic_bool>(false);
    m_cancel = cancel;
    ++m_runs;
    m_watcher.setFuture(QtConcurrent::run([model, cancel, fixed = m_cluster, reader = m_clusterReader] {
        auto result = std::make_shared<InsightsResult>();
        result->model = model;
        result->clusterPage = fixed != nullptr;
        // The cluster page's data, else the model folder's communication data (read here, off the GUI
        // thread).
        result->cluster = fixed ? fixed : (reader && !cancel->load() ? reader(*model) : nullptr);
        result->findings = std::make_shared<const std::vector<Finding>>(
            runInsightChecks(*model, cancel.get(), result->cluster.get(), &result->withoutTime));
        return std::shared_ptr<const InsightsResult>(std::move(result));
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
    else if (findings().empty())
        m_status->setText(tr("No performance problems found by the %n check(s).", nullptr,
                             static_cast<int>(insightChecks().size())));
    else
        m_status->setText(tr("%n finding(s), ranked by the time they explain.", nullptr,
                             static_cast<int>(findings().size())));
    // The checks that measured a time another finding counts (or that lies outside its part): named, not
    // listed as findings.
    const QString also = m_done && m_result ? alsoCheckedText(m_result->withoutTime) : QString();
    if (!also.isEmpty())
        m_status->setText(m_status->text() + QLatin1Char(' ') + also);
    m_status->setToolTip(also);
}

QString InsightsPanel::noTime()
{
    return QStringLiteral("—");
}

QString InsightsPanel::noTimeToolTip()
{
    return tr("This check counts occurrences; it measures no time.");
}

void InsightsPanel::showFindings()
{
    m_tree->clear();
    showStatus();
    const InsightContext context(*m_model);
    const std::vector<Finding> &all = findings();
    for (std::size_t f = 0; f < all.size(); ++f) {
        const Finding &finding = all[f];
        auto *item =
            // Findings split per rank read apart by the rank they explain ("high · rank 1").
            new QTreeWidgetItem(m_tree,
                                {finding.title,
                                 finding.rank >= 0 ? severityText(finding.severity) + QStringLiteral(" · ") +
                                                         tr("rank %1").arg(finding.rank)
                                                   : severityText(finding.severity),
                                 finding.timeAtStake > 0 ? formatDurationNs(finding.timeAtStake) : noTime(),
                                 finding.timeAtStake > 0 ? formatPercent(finding.stepPercent) : noTime()});
        item->setData(0, kFindingRole, static_cast<int>(f));
        item->setData(0, kOccurrenceRole, -1);
        item->setToolTip(0, finding.title);
        // Which rank and part of its step the time explains, and the shares (the % column is of that step).
        for (int c = 2; c < 4; ++c)
            item->setToolTip(c, finding.timeAtStake > 0 ? timeAtStakeText(finding) : noTimeToolTip());
        for (int c = 2; c < 4; ++c)
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        for (std::size_t o = 0; o < finding.occurrences.size(); ++o) {
            const FindingOccurrence &occurrence = finding.occurrences[o];
            auto *child = new QTreeWidgetItem(
                item, {occurrence.name, tr("rank %1").arg(context.rankOf(occurrence)),
                       occurrence.duration > 0 ? formatDurationNs(occurrence.duration) : noTime(),
                       // cluster-only occurrences (a rank, no slice) have no time
                       occurrence.rank >= 0 && !occurrence.slice.isValid()
                           ? QString()
                           : tr("at %1").arg(formatTimePointNs(occurrence.start))});
            child->setData(0, kFindingRole, static_cast<int>(f));
            child->setData(0, kOccurrenceRole, static_cast<int>(o));
            child->setToolTip(0, occurrence.name);
            if (occurrence.duration <= 0)
                child->setToolTip(2, noTimeToolTip());
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
    if (f < 0 || f >= static_cast<int>(findings().size())) {
        m_text->clear();
        return;
    }
    const Finding &finding = findings()[static_cast<std::size_t>(f)];
    m_text->setHtml(
        QStringLiteral("<p><b>%1</b></p><p>%2</p><p><b>%3</b> %4</p><p>%5</p>")
            .arg(finding.title.toHtmlEscaped(), finding.explanation.toHtmlEscaped(), tr("Fix:"),
                 finding.fix.toHtmlEscaped(),
                 tr("Check: %1 · %n occurrence(s)", nullptr, static_cast<int>(finding.occurrences.size()))
                     .arg(finding.check)
                     .toHtmlEscaped()));
}

} // namespace at
