#include "TimelineGeometry.h"

#include <algorithm>

namespace at {

QRectF TimelineGeometry::sliceRect(SliceRef ref) const
{
    if (!model || !ref.isValid())
        return {};
    const int row = layout->rowOfThread(ref.thread);
    if (row < 0)
        return {};
    const LaneRow &r = layout->rows()[static_cast<std::size_t>(row)];
    if (r.kind != LaneRow::Kind::Thread)
        return {};
    const SliceTable &t = model->threads()[static_cast<std::size_t>(ref.thread)].slices;
    const TimeAxis own = axisOfGroup(groupOfThread(ref.thread));
    const double x0 = kLabelWidth + own.toPixel(t.start(ref.index));
    const double x1 = kLabelWidth + own.toPixel(t.end(ref.index));
    const int y = viewportY(LaneLayout::sliceTop(r, t.depthOf(ref.index)));
    return QRectF(x0, y, std::max(1.0, x1 - x0), LaneLayout::kSliceHeight - 1);
}

SliceRef TimelineGeometry::sliceAt(QPoint pos) const
{
    if (!model || pos.x() < kLabelWidth || pos.y() < sticky().bottom)
        return {};
    const int row = layout->rowAt(contentY(pos.y()));
    if (row < 0)
        return {};
    const LaneRow &r = layout->rows()[static_cast<std::size_t>(row)];
    if (r.kind != LaneRow::Kind::Thread)
        return {};
    const int depth = (contentY(pos.y()) - r.y - LaneLayout::kTrackPadding) / LaneLayout::kSliceHeight;
    const SliceTable &t = model->threads()[static_cast<std::size_t>(r.index)].slices;
    if (depth < 0 || depth >= t.depthCount())
        return {};
    const TimeNs at = axisOfGroup(groupOfThread(r.index)).toTime(pos.x() - kLabelWidth);
    std::int64_t hit = t.sliceAt(depth, at);
    if (hit < 0) {
        // Tiny slices are hard to hit: accept the nearest one within two pixels.
        const auto tolerance = static_cast<TimeNs>(2 * axis.nsPerPixel());
        const auto last = t.depthRange(depth).second;
        TimeNs bestDistance = tolerance + 1;
        for (auto i = t.firstEndingAtOrAfter(depth, at - tolerance); i < last && t.start(i) <= at + tolerance;
             ++i) {
            const TimeNs distance = at < t.start(i) ? t.start(i) - at : at - t.end(i);
            if (distance < bestDistance) {
                bestDistance = distance;
                hit = i;
            }
        }
    }
    return hit < 0 ? SliceRef{} : SliceRef{r.index, static_cast<std::uint32_t>(hit)};
}

TimelineGeometry::Sticky TimelineGeometry::sticky() const
{
    Sticky s;
    if (!layout || layout->rows().empty())
        return s;
    const auto &rows = layout->rows();
    // The headers name the lanes just below them, not the row hidden under them: a header is sticky when
    // the first lane row visible beneath it belongs to it and its own row has scrolled above.
    const auto headersBelow = [this](int y) {
        return layout->headersOf(layout->rowAt(std::min(y, layout->totalHeight() - 1)));
    };
    int covered = scroll; // content y hidden under what is sticky so far
    const int group = headersBelow(scroll + LaneLayout::kGroupHeaderHeight).group;
    if (group >= 0 && rows[static_cast<std::size_t>(group)].y < covered) {
        s.groupRow = group;
        covered += rows[static_cast<std::size_t>(group)].height;
        s.bottom += rows[static_cast<std::size_t>(group)].height;
    }
    const int process = headersBelow(covered + LaneLayout::kHeaderHeight).process;
    if (process >= 0 && rows[static_cast<std::size_t>(process)].y < covered) {
        s.processRow = process;
        s.bottom += LaneLayout::kHeaderHeight;
    }
    return s;
}

int TimelineGeometry::rowAtViewportY(int y) const
{
    if (!layout || y < kRulerHeight)
        return -1;
    const Sticky s = sticky();
    if (y < s.bottom) {
        const int groupBottom =
            kRulerHeight +
            (s.groupRow >= 0 ? layout->rows()[static_cast<std::size_t>(s.groupRow)].height : 0);
        return s.groupRow >= 0 && y < groupBottom ? s.groupRow : s.processRow;
    }
    return layout->rowAt(contentY(y));
}

int TimelineGeometry::groupOfProcess(int process) const
{
    if (!model || process < 0 || static_cast<std::size_t>(process) >= model->processes().size())
        return -1;
    return model->processes()[static_cast<std::size_t>(process)].group;
}

int TimelineGeometry::groupOfThread(int thread) const
{
    if (!model || thread < 0 || static_cast<std::size_t>(thread) >= model->threads().size())
        return -1;
    return groupOfProcess(model->threads()[static_cast<std::size_t>(thread)].process);
}

int TimelineGeometry::groupOfRow(const LaneRow &row) const
{
    return row.kind == LaneRow::Kind::GroupHeader ? row.process : groupOfProcess(row.process);
}

QPointF TimelineGeometry::flowEndpoint(SliceRef ref, TimeNs t) const
{
    const double x = kLabelWidth + axisOfGroup(groupOfThread(ref.thread)).toPixel(t);
    const QRectF r = sliceRect(ref);
    if (!r.isNull())
        return {x, r.center().y()};
    // Collapsed group: point at its header.
    const int row = layout->rowOfThread(ref.thread);
    if (row < 0)
        return {x, -1};
    const LaneRow &lane = layout->rows()[static_cast<std::size_t>(row)];
    const int headerMiddle = viewportY(lane.y) + lane.height / 2; // a whole pixel, as the header is drawn
    return {x, static_cast<double>(headerMiddle)};
}

} // namespace at
