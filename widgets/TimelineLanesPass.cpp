#include "TimelineLanesPass.h"

#include "LayerWording.h"
#include "NumberFormat.h"

#include <QFileInfo>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <optional>

namespace at {

namespace {
constexpr int kLabelWidth = TimelineGeometry::kLabelWidth;
constexpr int kRulerHeight = TimelineGeometry::kRulerHeight;
} // namespace

void TimelineLanesPass::paint(QPainter &p, const TimelinePaintContext &c)
{
    const TimelineGeometry &g = c.geometry;
    const QRect lanesClip(0, kRulerHeight, g.width, g.height - kRulerHeight);
    m_slices.resetCounts();
    const auto &rows = g.layout->rows();
    const int first = std::max(0, g.layout->rowAt(g.scroll));
    for (std::size_t i = static_cast<std::size_t>(first); i < rows.size(); ++i) {
        const LaneRow &row = rows[i];
        const int y = g.viewportY(row.y);
        if (y > g.height)
            break;
        if (y + row.height < kRulerHeight)
            continue;
        paintRow(p, c, row, y, lanesClip);
    }
    paintSticky(p, c);
}

void TimelineLanesPass::paintRow(QPainter &p, const TimelinePaintContext &context, const LaneRow &row, int y,
                                 const QRect &lanesClip)
{
    // A rank aligned on a collective is drawn with its own offset: the same frame, its axis shifted.
    std::optional<TimelinePaintContext> shifted;
    const int group = context.geometry.groupOfRow(row);
    if (context.geometry.groupOffset(group) != 0) {
        shifted.emplace(context);
        shifted->geometry.axis = context.geometry.axisOfGroup(group);
    }
    const TimelinePaintContext &c = shifted ? *shifted : context;
    switch (row.kind) {
    case LaneRow::Kind::GroupHeader:
        paintGroupHeader(p, c, row, y);
        break;
    case LaneRow::Kind::ProcessHeader:
        paintProcessHeader(p, c, row, y);
        break;
    case LaneRow::Kind::Thread:
        m_slices.paint(p, c, row, y, lanesClip);
        break;
    case LaneRow::Kind::Counter:
        paintCounter(p, c, row, y);
        break;
    case LaneRow::Kind::ZeroCounters:
        paintZeroCounters(p, c, row, y);
        break;
    }
}

void TimelineLanesPass::paintProcessHeader(QPainter &p, const TimelinePaintContext &c, const LaneRow &row,
                                           int y)
{
    const QPalette &pal = c.palette;
    const TraceModel &model = *c.geometry.model;
    p.fillRect(QRect(0, y, c.geometry.width, row.height), pal.color(QPalette::AlternateBase));
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(0, y + row.height - 1, c.geometry.width, y + row.height - 1);
    if (row.height > LaneLayout::kHeaderHeight)
        paintBusyPreview(p, c, row.process,
                         QRect(kLabelWidth, y + LaneLayout::kHeaderHeight, c.geometry.width - kLabelWidth,
                               LaneLayout::kPreviewHeight - 2));
    const QRect rect(0, y, c.geometry.width, LaneLayout::kHeaderHeight);
    const ProcessInfo &info = model.processes()[static_cast<std::size_t>(row.process)];
    const bool collapsed = c.collapsedProcesses.contains(row.process);
    QFont bold = p.font();
    bold.setBold(true);
    p.save();
    p.setFont(bold);
    p.setPen(pal.color(QPalette::Text));
    const QString title = QStringLiteral("%1 %2").arg(collapsed ? QStringLiteral("▸") : QStringLiteral("▾"),
                                                      model.processDisplayName(row.process));
    const int titleWidth = p.fontMetrics().horizontalAdvance(title);
    p.drawText(rect.adjusted(6, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, title);
    p.restore();
    p.setPen(pal.color(QPalette::PlaceholderText));
    QString detail =
        layerDisplayName(info.layer, model.groups()[static_cast<std::size_t>(info.group)].layout);
    if (collapsed) {
        // Only what there is: "(3 threads hidden)", "(8 counters hidden)", "(2 threads, 1 counter hidden)".
        const int threads = static_cast<int>(info.threads.size()),
                  counters = static_cast<int>(info.counters.size());
        if (threads > 0 && counters > 0)
            detail += QStringLiteral("   ") +
                      tr("(%1, %2 hidden)")
                          .arg(tr("%n thread(s)", nullptr, threads), tr("%n counter(s)", nullptr, counters));
        else if (threads + counters > 0)
            detail += QStringLiteral("   ") + tr("(%1 hidden)")
                                                  .arg(threads > 0 ? tr("%n thread(s)", nullptr, threads)
                                                                   : tr("%n counter(s)", nullptr, counters));
    }
    p.drawText(rect.adjusted(6 + titleWidth + 16, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, detail);
}

void TimelineLanesPass::paintBusyPreview(QPainter &p, const TimelinePaintContext &c, int process,
                                         const QRect &band)
{
    // Where any thread of the process runs a top-level slice, one pixel column at a time: after a
    // slice the next one is looked up from the following column, so the cost follows pixels.
    const TraceModel &model = *c.geometry.model;
    const TimeAxis &a = c.geometry.axis;
    QColor busy = c.palette.color(QPalette::Text);
    busy.setAlpha(120);
    p.save();
    p.setClipRect(band);
    for (int thread : model.processes()[static_cast<std::size_t>(process)].threads) {
        const SliceTable &t = model.threads()[static_cast<std::size_t>(thread)].slices;
        if (t.depthCount() == 0)
            continue;
        const auto last = t.depthRange(0).second;
        for (auto i = t.firstEndingAtOrAfter(0, a.range().start); i < last && t.start(i) <= a.range().end;) {
            const double x0 = std::floor(std::max(0.0, a.toPixel(t.start(i))));
            const double x1 = std::max(x0 + 1, std::ceil(a.toPixel(t.end(i))));
            p.fillRect(QRectF(band.left() + x0, band.top(), x1 - x0, band.height()), busy);
            i = std::max(i + 1, t.firstEndingAtOrAfter(0, a.toTime(x1)));
        }
    }
    p.restore();
}

void TimelineLanesPass::paintSticky(QPainter &p, const TimelinePaintContext &c)
{
    const TimelineGeometry::Sticky sticky = c.geometry.sticky();
    const auto &rows = c.geometry.layout->rows();
    int y = kRulerHeight;
    if (sticky.groupRow >= 0) {
        paintGroupHeader(p, c, rows[static_cast<std::size_t>(sticky.groupRow)], y);
        y += rows[static_cast<std::size_t>(sticky.groupRow)].height;
    }
    if (sticky.processRow >= 0) {
        LaneRow title = rows[static_cast<std::size_t>(sticky.processRow)];
        title.height = LaneLayout::kHeaderHeight; // the title only, not a collapsed one's preview
        paintRow(p, c, title, y, QRect());
        y += title.height;
    }
    if (y > kRulerHeight) {
        // A soft edge: the lanes pass under the headers.
        QColor shadow = c.palette.color(QPalette::Shadow);
        shadow.setAlpha(60);
        p.fillRect(QRect(0, y, c.geometry.width, 2), shadow);
    }
}

void TimelineLanesPass::paintGroupHeader(QPainter &p, const TimelinePaintContext &c, const LaneRow &row,
                                         int y)
{
    const QPalette &pal = c.palette;
    const QRect rect(0, y, c.geometry.width, row.height);
    p.fillRect(rect, pal.color(QPalette::Dark));
    const SourceGroup &group = c.geometry.model->groups()[static_cast<std::size_t>(row.process)];
    const bool collapsed = c.collapsedGroups.contains(row.process);
    QFont bold = p.font();
    bold.setBold(true);
    p.save();
    p.setFont(bold);
    p.setPen(pal.color(QPalette::BrightText));
    const QString title = QStringLiteral("%1 %2").arg(collapsed ? QStringLiteral("▸") : QStringLiteral("▾"),
                                                      group.label.isEmpty() ? group.path : group.label);
    p.drawText(rect.adjusted(6, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, title);
    const int titleWidth = p.fontMetrics().horizontalAdvance(title);
    p.restore();
    p.setPen(pal.color(QPalette::Light));
    QString detail = sourceKindText(group);
    // An aligned rank says by how much its times are moved (exact µs, as typed in the offsets dialog).
    if (const TimeNs offset = c.geometry.groupOffset(row.process); offset != 0)
        detail = tr("offset %1%2 µs")
                     .arg(offset > 0 ? QStringLiteral("+") : QString(), formatAbsoluteMicros(offset)) +
                 QStringLiteral("   ") + detail;
    p.drawText(rect.adjusted(6 + titleWidth + 16, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, detail);
}

QString TimelineLanesPass::sourceKindText(const SourceGroup &group)
{
    // The layout text starts with the generation code the loader wrote (parser/TraceLoader.cpp).
    const QString &layout = group.layout;
    QString kind;
    if (layout.startsWith(QLatin1String("G1 ")))
        kind = tr("msprof export (CANN ≤ 5.x, one file set per iteration)");
    else if (layout.startsWith(QLatin1String("G2 ")))
        kind = tr("msprof export (CANN 6.x)");
    else if (layout.startsWith(QLatin1String("G3 ")))
        kind = tr("msprof export (CANN ≥ 7.0)");
    else if (layout.startsWith(QLatin1String("G4 ")))
        kind = tr("torch_npu profiler export");
    else if (layout.startsWith(QLatin1String("raw data")))
        return tr("raw data");
    else if (layout == QLatin1String("file"))
        return tr("trace file");
    else
        return layout; // a format outside an Ascend result: its reader's name ("Chrome trace file")
    // Which export of it was read, from the typed provenance.
    const SourceProvenance &source = group.provenance;
    if (source.used == TimelineExport::Database)
        return tr("%1, database %2").arg(kind, QFileInfo(source.databasePath).fileName());
    if (source.used == TimelineExport::RawData)
        return tr("%1, raw data decoded by Ascend Timeline").arg(kind);
    const bool drawnFromKernelRows =
        !group.timelineFiles.isEmpty() && std::ranges::all_of(group.timelineFiles, [](const QString &file) {
            return file.endsWith(QLatin1String(".csv"));
        });
    if (drawnFromKernelRows)
        return tr("%1, device tasks drawn from %2")
            .arg(kind, QFileInfo(group.timelineFiles.first()).fileName());
    return kind;
}

void TimelineLanesPass::paintCounter(QPainter &p, const TimelinePaintContext &c, const LaneRow &row, int y)
{
    const QPalette &pal = c.palette;
    const TraceModel &model = *c.geometry.model;
    const TimeAxis &a = c.geometry.axis;
    const CounterSeries &series = model.counters()[static_cast<std::size_t>(row.index)];
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(0, y + row.height - 1, c.geometry.width, y + row.height - 1);
    p.setPen(pal.color(QPalette::Text));
    const QString label = model.counterDisplayName(row.index);
    // Series names of one process differ at their end ("read_bandwidth value acc_id 27"): keep both ends.
    p.drawText(QRect(14, y, kLabelWidth - 18, row.height / 2), Qt::AlignVCenter | Qt::AlignLeft,
               p.fontMetrics().elidedText(label, Qt::ElideMiddle, kLabelWidth - 18));
    p.setPen(pal.color(QPalette::PlaceholderText));
    p.drawText(QRect(14, y + row.height / 2, kLabelWidth - 18, row.height / 2),
               Qt::AlignVCenter | Qt::AlignLeft, tr("max %1").arg(formatNumber(series.maxValue)));
    if (series.times.empty())
        return;

    const double top = y + 3, bottom = y + row.height - 3;
    const double lo = std::min(0.0, series.minValue);
    const double span = series.maxValue - lo > 0 ? series.maxValue - lo : 1.0;
    auto toY = [&](double v) { return bottom - (v - lo) / span * (bottom - top); };

    // Per pixel column: the largest value held in it (a value holds until the next sample).
    const int width = static_cast<int>(a.pixelWidth());
    const auto &times = series.times;
    auto it = std::upper_bound(times.begin(), times.end(), a.range().start);
    std::size_t i = it == times.begin() ? 0 : static_cast<std::size_t>(it - times.begin()) - 1;
    if (times[i] > a.range().end)
        return;
    QPainterPath path;
    const double firstX = std::max(0.0, a.toPixel(times[i]));
    path.moveTo(kLabelWidth + firstX, bottom);
    for (int x = static_cast<int>(firstX); x <= width && i < times.size(); ++x) {
        const TimeNs columnEnd = a.toTime(x + 1);
        double v = series.values[i];
        while (i + 1 < times.size() && times[i + 1] < columnEnd) {
            ++i;
            v = std::max(v, series.values[i]);
        }
        path.lineTo(kLabelWidth + x, toY(v));
        path.lineTo(kLabelWidth + x + 1, toY(v));
    }
    path.lineTo(kLabelWidth + std::min<double>(width, a.pixelWidth()), path.currentPosition().y());
    path.lineTo(kLabelWidth + std::min<double>(width, a.pixelWidth()), bottom);
    path.closeSubpath();
    QColor fill = SliceColors::colorForText(model.strings().view(series.name));
    p.save();
    p.setClipRect(QRect(kLabelWidth, y, c.geometry.width - kLabelWidth, row.height));
    fill.setAlpha(170);
    p.fillPath(path, fill);
    p.restore();
}

void TimelineLanesPass::paintZeroCounters(QPainter &p, const TimelinePaintContext &c, const LaneRow &row,
                                          int y)
{
    const QPalette &pal = c.palette;
    const bool shown = c.zeroCountersShown.contains(row.process);
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(0, y + row.height - 1, c.geometry.width, y + row.height - 1);
    p.setPen(pal.color(QPalette::PlaceholderText));
    const QString text = shown ? tr("▾ %n all-zero series (click to hide)", nullptr, row.index)
                               : tr("▸ %n all-zero series hidden (click to show)", nullptr, row.index);
    p.drawText(QRect(14, y, c.geometry.width - 18, row.height), Qt::AlignVCenter | Qt::AlignLeft, text);
}

} // namespace at
