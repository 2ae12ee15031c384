#include "TimelineToolTip.h"

#include "NumberFormat.h"
#include "TimelineRulerPass.h"

#include <algorithm>
#include <cmath>

namespace at {

namespace {

TimeNs magnitude(TimeNs t)
{
    return t < 0 ? -t : t;
}

QString line(const QString &label, const QString &value)
{
    return QStringLiteral("<br>%1 %2").arg(label.toHtmlEscaped(), value.toHtmlEscaped());
}

QString cut(const QString &text, int chars)
{
    return text.size() <= chars ? text : text.left(chars - 1) + QStringLiteral("…");
}

} // namespace

QString TimelineToolTip::exactTime(TimeNs time, TimeNs origin)
{
    const TimeNs t = time - origin;
    return formatRulerTick(t, 1, rulerUnit(magnitude(t)));
}

QString TimelineToolTip::cursorLabel(const TimeAxis &axis, TimeNs time, TimeNs origin)
{
    // The power of ten at or below one pixel's width: every digit shown means something.
    TimeNs resolution = 1;
    while (resolution * 10 <= static_cast<TimeNs>(axis.nsPerPixel()))
        resolution *= 10;
    const TimeNs t = time - origin;
    const TimeNs rounded = (t >= 0 ? t + resolution / 2 : t - resolution / 2) / resolution * resolution;
    return formatRulerTick(rounded, resolution, rulerUnit(std::max(magnitude(rounded), resolution)));
}

QString TimelineToolTip::sliceText(const TraceModel &model, SliceRef ref, TimeNs origin, TimeNs offset)
{
    const SliceTable &t = model.threads()[static_cast<std::size_t>(ref.thread)].slices;
    QString text = QStringLiteral("<b>%1</b>").arg(cut(model.sliceName(ref), 200).toHtmlEscaped());
    // Where it is drawn (what the ruler reads); an aligned rank's own clock too, as Details shows it.
    text += line(tr("Start:"), exactTime(t.start(ref.index) + offset, origin));
    if (offset != 0)
        //: A slice's start on its rank's own clock, when the rank is drawn shifted by an offset (+12.345 µs)
        text += line(tr("Rank's own start:"),
                     tr("%1 (offset %2%3 µs)")
                         .arg(exactTime(t.start(ref.index), origin),
                              offset > 0 ? QStringLiteral("+") : QString(), formatAbsoluteMicros(offset)));
    text += line(tr("Duration:"), formatDurationNs(t.duration(ref.index)));
    text += line(tr("Self time:"), formatDurationNs(model.selfTime(ref)));
    text += line(tr("Lane:"), model.threadDisplayName(ref.thread));
    const auto args = model.sliceArgs(ref);
    const int shown = std::min(static_cast<int>(args.size()), kMaxArgs);
    for (int i = 0; i < shown; ++i) {
        const auto &arg = args[static_cast<std::size_t>(i)];
        text += line(arg.first + QLatin1Char(':'), cut(arg.second, kMaxValueChars));
    }
    if (static_cast<int>(args.size()) > shown)
        text += QStringLiteral("<br><i>%1</i>")
                    .arg(tr("%n more argument(s) in Details", nullptr, static_cast<int>(args.size()) - shown)
                             .toHtmlEscaped());
    return text;
}

QString TimelineToolTip::counterText(const TraceModel &model, int counter, TimeNs time, TimeNs origin,
                                     TimeNs offset)
{
    const CounterSeries &series = model.counters()[static_cast<std::size_t>(counter)];
    // A value holds from its sample until the next one.
    const auto it = std::upper_bound(series.times.begin(), series.times.end(), time);
    if (it == series.times.begin())
        return {};
    const auto i = static_cast<std::size_t>(it - series.times.begin()) - 1;
    QString text = QStringLiteral("<b>%1</b>").arg(model.counterDisplayName(counter).toHtmlEscaped());
    text += line(tr("Value:"), formatNumber(series.values[i]));
    text += line(tr("Since:"), exactTime(series.times[i] + offset, origin));
    text += line(tr("Maximum:"), formatNumber(series.maxValue));
    return text;
}

QString TimelineToolTip::text(const TimelineGeometry &g, QPoint pos, TimeNs origin, QRect *area)
{
    if (area)
        *area = QRect(pos - QPoint(2, 2), QSize(5, 5));
    if (!g.model || pos.x() < TimelineGeometry::kLabelWidth || pos.y() < TimelineGeometry::kRulerHeight)
        return {};
    if (const SliceRef ref = g.sliceAt(pos); ref.isValid()) {
        if (area)
            *area = area->united(g.sliceRect(ref).toAlignedRect());
        return sliceText(*g.model, ref, origin, g.groupOffset(g.groupOfThread(ref.thread)));
    }
    const int row = g.layout->rowAt(g.contentY(pos.y()));
    if (row < 0)
        return {};
    const LaneRow &lane = g.layout->rows()[static_cast<std::size_t>(row)];
    if (lane.kind != LaneRow::Kind::Counter)
        return {};
    const int group = g.groupOfRow(lane);
    return counterText(*g.model, lane.index,
                       g.axisOfGroup(group).toTime(pos.x() - TimelineGeometry::kLabelWidth), origin,
                       g.groupOffset(group));
}

} // namespace at
