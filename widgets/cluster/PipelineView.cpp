#include "cluster/PipelineView.h"

#include "ChartScale.h"
#include "NumberFormat.h"
#include "cluster/ClusterHeatMap.h"
#include "cluster/ClusterModel.h"

#include <QEvent>
#include <QHelpEvent>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QToolTip>

#include <algorithm>

namespace at {

using namespace at::cluster;

namespace {
constexpr int kMargin = 8;
constexpr int kMaxRowHeight = 64;
constexpr int kSwatch = 12;
} // namespace

QColor pipelineForwardColor()
{
    return QColor(0x3b, 0x82, 0xd6); // blue
}

QColor pipelineBackwardColor()
{
    return QColor(0xe8, 0x8a, 0x1a); // orange
}

PipelineView::PipelineView(QWidget *parent)
    : QWidget(parent), m_load(new QPushButton(this)), m_message(new QLabel(this))
{
    setMouseTracking(true);
    setMinimumSize(360, 200);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(m_load, &QPushButton::clicked, this, &PipelineView::requestLoad);
    retranslateUi();
}

void PipelineView::requestLoad()
{
    QList<int> ranks;
    for (const auto &stageRank : m_choice.stageRanks)
        ranks << stageRank.second;
    if (!ranks.isEmpty() && !m_loading)
        Q_EMIT loadRequested(ranks);
}

void PipelineView::setCluster(const ClusterModel *model)
{
    // The page rebuilds for the same cluster too (a language change): its schedule stays.
    if (model != m_cluster) {
        m_schedule = {};
        m_loading = false;
    }
    m_cluster = model;
    m_choice = model ? choosePipelineRanks(*model) : PipelineRankChoice{};
    updateMessage();
}

void PipelineView::setSchedule(PipelineSchedule schedule)
{
    m_schedule = std::move(schedule);
    m_loading = false;
    updateMessage();
}

void PipelineView::clearSchedule()
{
    if (!m_schedule.isValid() && m_schedule.reason.isEmpty())
        return;
    m_schedule = {};
    updateMessage();
}

void PipelineView::setLoading(bool loading)
{
    m_loading = loading;
    updateMessage();
}

void PipelineView::retranslateUi()
{
    m_load->setText(tr("Load Stage Timelines"));
    updateMessage();
}

void PipelineView::updateMessage()
{
    QStringList ranks;
    for (const auto &stageRank : m_choice.stageRanks)
        ranks << tr("stage %1: rank %2").arg(stageRank.first).arg(stageRank.second);
    QString text;
    if (!m_cluster)
        text = QString();
    else if (!m_choice.reason.isEmpty())
        text = tr("No pipeline view: %1.").arg(m_choice.reason);
    else if (m_loading)
        text = tr("Loading the stage timelines (%1)…").arg(ranks.join(QStringLiteral(", ")));
    else if (m_schedule.isValid())
        text =
            tr("%n micro-batch(es); blocks from the pipeline send/receive ops and the gradient kernels "
               "(docs/CLUSTER.md). Hover a block for its times, click it to open the rank's timeline there.",
               nullptr, m_schedule.microBatches);
    else if (!m_schedule.reason.isEmpty())
        text = tr("No pipeline view from the loaded timelines: %1.").arg(m_schedule.reason);
    else
        text = tr("The pipeline view reads one timeline per stage (%1). Load them to draw the forward and "
                  "backward blocks and the bubbles.")
                   .arg(ranks.join(QStringLiteral(", ")));
    if (!m_schedule.notes.isEmpty())
        text += QLatin1Char(' ') + m_schedule.notes.join(QStringLiteral("; "));
    m_message->setText(text);
    m_load->setVisible(m_cluster && m_choice.reason.isEmpty() && !m_schedule.isValid() && !m_loading);
    m_load->setEnabled(!m_loading);
    resizeEvent(nullptr);
    update();
}

void PipelineView::resizeEvent(QResizeEvent *)
{
    int x = kMargin;
    const int top = kMargin;
    if (m_load->isVisible()) {
        m_load->adjustSize();
        m_load->move(x, top);
        x += m_load->width() + kMargin;
    }
    const int width = std::max(100, this->width() - x - kMargin);
    m_message->setGeometry(x, top, width, m_message->heightForWidth(width));
}

void PipelineView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        update();
    QWidget::changeEvent(event);
}

QString PipelineView::stageLabel(const PipelineStage &stage) const
{
    return tr("Stage %1 · rank %2").arg(stage.stage).arg(stage.rank);
}

QString PipelineView::bubbleLabel(const PipelineStage &stage) const
{
    const TimeNs span = m_schedule.spanEnd - m_schedule.spanStart;
    const double percent =
        span > 0 ? 100.0 * static_cast<double>(stage.bubbleTotal) / static_cast<double>(span) : 0;
    return tr("bubble %1 (%2)").arg(formatDurationNs(stage.bubbleTotal), formatPercent(percent));
}

PipelineView::Layout PipelineView::layout() const
{
    Layout l;
    const QFontMetrics fm(font());
    for (const PipelineStage &s : m_schedule.stages)
        l.labelWidth = std::max(
            {l.labelWidth, fm.horizontalAdvance(stageLabel(s)), fm.horizontalAdvance(bubbleLabel(s))});
    l.labelWidth += 2 * kMargin;
    const int headerBottom =
        std::max(m_message->geometry().bottom(), m_load->isVisible() ? m_load->geometry().bottom() : 0);
    l.legendTop = headerBottom + kMargin;
    const int plotTop = l.legendTop + fm.height() + kMargin;
    const int axisHeight = 2 * fm.height() + 3 * kMargin;
    const int rows = std::max<int>(1, static_cast<int>(m_schedule.stages.size()));
    const int available = std::max(rows * 2 * fm.height(), height() - plotTop - axisHeight);
    l.rowHeight = std::min(kMaxRowHeight, std::max(2 * fm.height() + 4, available / rows));
    l.plot =
        QRect(l.labelWidth, plotTop, std::max(50, width() - l.labelWidth - 2 * kMargin), l.rowHeight * rows);
    return l;
}

int PipelineView::xOf(const Layout &l, TimeNs t) const
{
    const double span = static_cast<double>(std::max<TimeNs>(1, m_schedule.spanEnd - m_schedule.spanStart));
    return l.plot.left() + static_cast<int>(std::lround(static_cast<double>(t - m_schedule.spanStart) / span *
                                                        l.plot.width()));
}

QRect PipelineView::rowRect(const Layout &l, std::size_t row) const
{
    return QRect(l.plot.left(), l.plot.top() + static_cast<int>(row) * l.rowHeight, l.plot.width(),
                 l.rowHeight);
}

QRect PipelineView::blockRect(std::size_t row, std::size_t block) const
{
    if (row >= m_schedule.stages.size() || block >= m_schedule.stages[row].blocks.size())
        return {};
    const Layout l = layout();
    const QRect r = rowRect(l, row).adjusted(0, 4, 0, -4);
    const PipelineBlock &b = m_schedule.stages[row].blocks[block];
    const int left = xOf(l, b.start);
    return QRect(left, r.top(), std::max(2, xOf(l, b.end) - left), r.height());
}

PipelineView::Hit PipelineView::hitAt(QPoint point) const
{
    Hit hit;
    if (!m_schedule.isValid())
        return hit;
    const Layout l = layout();
    for (std::size_t row = 0; row < m_schedule.stages.size(); ++row) {
        if (!rowRect(l, row).contains(point))
            continue;
        hit.row = static_cast<int>(row);
        const PipelineStage &s = m_schedule.stages[row];
        for (std::size_t b = 0; b < s.blocks.size(); ++b)
            if (blockRect(row, b).adjusted(-1, 0, 1, 0).contains(point))
                hit.block = static_cast<int>(b);
        for (std::size_t g = 0; hit.block < 0 && g < s.bubbles.size(); ++g)
            if (point.x() >= xOf(l, s.bubbles[g].start) && point.x() <= xOf(l, s.bubbles[g].end))
                hit.bubble = static_cast<int>(g);
    }
    return hit;
}

QString PipelineView::toolTipAt(QPoint point) const
{
    const Hit hit = hitAt(point);
    if (hit.row < 0 || (hit.block < 0 && hit.bubble < 0))
        return {};
    const PipelineStage &s = m_schedule.stages[static_cast<std::size_t>(hit.row)];
    if (hit.block >= 0) {
        const PipelineBlock &b = s.blocks[static_cast<std::size_t>(hit.block)];
        const QString pass = b.pass == PipelinePass::Forward ? tr("Forward") : tr("Backward");
        return tr("%1, micro-batch %2\nStage %3, rank %4\nStart %5 after the pipeline's first "
                  "block\nDuration %6 "
                  "(%n kernel(s))",
                  nullptr, b.kernels)
            .arg(pass)
            .arg(b.microBatch + 1)
            .arg(s.stage)
            .arg(s.rank)
            .arg(formatDurationNs(b.start - m_schedule.spanStart), formatDurationNs(b.duration()));
    }
    const PipelineInterval &g = s.bubbles[static_cast<std::size_t>(hit.bubble)];
    return tr("Bubble: stage %1 idle for %2\nStage's bubbles in all: %3")
        .arg(s.stage)
        .arg(formatDurationNs(g.duration()), formatDurationNs(s.bubbleTotal));
}

bool PipelineView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

void PipelineView::mouseMoveEvent(QMouseEvent *event)
{
    const Hit hit = hitAt(event->position().toPoint());
    setCursor(hit.block >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
    QWidget::mouseMoveEvent(event);
}

void PipelineView::mouseReleaseEvent(QMouseEvent *event)
{
    const Hit hit = hitAt(event->position().toPoint());
    if (event->button() == Qt::LeftButton && hit.block >= 0) {
        const PipelineStage &s = m_schedule.stages[static_cast<std::size_t>(hit.row)];
        const PipelineBlock &b = s.blocks[static_cast<std::size_t>(hit.block)];
        Q_EMIT blockOpenRequested(s.group, b.first, b.start, b.end);
    }
    QWidget::mouseReleaseEvent(event);
}

void PipelineView::paintLegend(QPainter &p, const Layout &l) const
{
    const QFontMetrics fm(font());
    int x = l.plot.left();
    const int y = l.legendTop;
    const auto entry = [&](const QBrush &brush, const QString &text) {
        const QRect swatch(x, y + (fm.height() - kSwatch) / 2, kSwatch, kSwatch);
        p.fillRect(swatch, palette().base());
        p.fillRect(swatch, brush);
        p.setPen(palette().color(QPalette::Mid));
        p.drawRect(swatch);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(x + kSwatch + 4, y, fm.horizontalAdvance(text) + 2, fm.height()), Qt::AlignVCenter,
                   text);
        x += kSwatch + 4 + fm.horizontalAdvance(text) + 3 * kMargin;
    };
    entry(pipelineForwardColor(), tr("Forward (F)"));
    entry(pipelineBackwardColor(), tr("Backward (B)"));
    entry(QBrush(palette().color(QPalette::WindowText), Qt::BDiagPattern), tr("Bubble (stage idle)"));
}

void PipelineView::paintAxis(QPainter &p, const Layout &l) const
{
    const QFontMetrics fm(font());
    const TimeNs span = m_schedule.spanEnd - m_schedule.spanStart;
    const DisplayUnit unit = durationUnitFor(span);
    const double spanInUnit = static_cast<double>(span) / unit.basePerUnit;
    const int intervals =
        std::max(2, l.plot.width() / (fm.horizontalAdvance(QStringLiteral("0000.0 ms")) + 2 * kMargin));
    const NiceScale scale = niceScale(0, spanInUnit, intervals);
    const int axisY = l.plot.bottom() + 1;
    p.setPen(palette().color(QPalette::WindowText));
    p.drawLine(l.plot.left(), axisY, l.plot.right(), axisY);
    const QLocale locale;
    for (int i = 0; i <= scale.intervals(); ++i) {
        const double value = scale.min + i * scale.step;
        if (value > spanInUnit + scale.step * 1e-6)
            break;
        const int x =
            xOf(l, m_schedule.spanStart + static_cast<TimeNs>(std::llround(value * unit.basePerUnit)));
        p.drawLine(x, axisY, x, axisY + 4);
        const QString label = locale.toString(value, 'f', scale.decimals()) + QLatin1Char(' ') + unit.symbol;
        const int w = fm.horizontalAdvance(label);
        const int left = std::clamp(x - w / 2, l.plot.left() - kMargin, width() - w - 2);
        p.drawText(QRect(left, axisY + 5, w + 2, fm.height()), Qt::AlignCenter, label);
    }
    const QString title = tr("Time from the pipeline's first block (%1)").arg(unit.symbol);
    p.drawText(QRect(l.plot.left(), axisY + 6 + fm.height(), l.plot.width(), fm.height() + 2),
               Qt::AlignHCenter, title);
}

void PipelineView::paintRow(QPainter &p, const Layout &l, std::size_t row) const
{
    const PipelineStage &s = m_schedule.stages[row];
    const QRect r = rowRect(l, row);
    const QFontMetrics fm(font());
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRect(kMargin, r.top(), l.labelWidth - 2 * kMargin, r.height() / 2),
               Qt::AlignRight | Qt::AlignBottom, stageLabel(s));
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(QRect(kMargin, r.center().y(), l.labelWidth - 2 * kMargin, r.height() / 2),
               Qt::AlignRight | Qt::AlignTop, bubbleLabel(s));
    const QRect lane = r.adjusted(0, 4, 0, -4);
    const QBrush hatch(palette().color(QPalette::Mid), Qt::BDiagPattern);
    for (const PipelineInterval &g : s.bubbles)
        p.fillRect(QRect(xOf(l, g.start), lane.top(), xOf(l, g.end) - xOf(l, g.start), lane.height()), hatch);
    for (std::size_t b = 0; b < s.blocks.size(); ++b) {
        const PipelineBlock &block = s.blocks[b];
        const QRect box = blockRect(row, b);
        const QColor fill =
            block.pass == PipelinePass::Forward ? pipelineForwardColor() : pipelineBackwardColor();
        p.fillRect(box, fill);
        p.setPen(fill.darker(140));
        p.drawRect(box.adjusted(0, 0, -1, -1));
        const QString text =
            (block.pass == PipelinePass::Forward ? QStringLiteral("F") : QStringLiteral("B")) +
            QString::number(block.microBatch + 1);
        if (fm.horizontalAdvance(text) + 4 <= box.width()) {
            p.setPen(ClusterHeatMap::textColorOn(fill));
            p.drawText(box, Qt::AlignCenter, text);
        }
    }
    p.setPen(palette().color(QPalette::Mid));
    p.drawLine(r.left(), r.bottom(), r.right(), r.bottom());
}

void PipelineView::paintEvent(QPaintEvent *)
{
    if (!m_schedule.isValid())
        return;
    QPainter p(this);
    const Layout l = layout();
    paintLegend(p, l);
    for (std::size_t row = 0; row < m_schedule.stages.size(); ++row)
        paintRow(p, l, row);
    paintAxis(p, l);
}

} // namespace at
