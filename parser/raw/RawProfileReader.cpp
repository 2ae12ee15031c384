#include "RawProfileReader.h"

#include "DeviceDecoder.h"
#include "HostAssociation.h"
#include "PmuKernelRows.h"
#include "RawFolderFiles.h"
#include "RawModelOutput.h"
#include "folder/ProfileLayout.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QRegularExpression>

namespace at {

using namespace raw;

std::uint64_t rawDataBytes(const DataSource &source)
{
    std::uint64_t bytes = 0;
    for (const QString &dir : source.rawDataDirs)
        for (const SliceStreamFiles &s : listSliceStreams(dir))
            for (const QString &f : s.files)
                bytes += static_cast<std::uint64_t>(QFileInfo(f).size());
    return bytes;
}

QString rawStopSummary(const RawReadInfo &info, const QString &folder)
{
    if (info.streamsCut.isEmpty() && info.streamsNotRead.isEmpty())
        return {};
    const QString none = QCoreApplication::translate("Parser", "none");
    const QString prefix = folder.isEmpty() ? QString() : folder + QLatin1Char('/');
    auto listed = [&](QStringList l) {
        for (QString &name : l)
            if (!prefix.isEmpty() && name.startsWith(prefix))
                name.remove(0, prefix.size());
        return l.isEmpty() ? none : l.join(QStringLiteral(", "));
    };
    return QCoreApplication::translate("Parser", "read completely: %1; cut: %2; not read: %3")
        .arg(listed(info.streamsComplete), listed(info.streamsCut), listed(info.streamsNotRead));
}

// The host data first (every host family is read and associated before any device task looks up its
// submission, FORMATS.md §5.3), then each device folder on its own.
std::size_t readRawProfile(const DataSource &source, TraceBuilder &builder, RawReadInfo *info,
                           const std::atomic<bool> *cancel, std::atomic<std::uint64_t> *bytesDone)
{
    RawReadInfo local;
    RawReadInfo &i = info ? *info : local;
    const StreamControl control(cancel, bytesDone);
    RawModelOutput out(source, builder, i);
    QString hostDir;
    QList<QPair<int, QString>> deviceDirs;
    static const QRegularExpression deviceRe(QStringLiteral("device_(\\d+)/data/?$"));
    for (const QString &dir : source.rawDataDirs) {
        if (const auto m = deviceRe.match(dir); m.hasMatch())
            deviceDirs.append({m.captured(1).toInt(), dir});
        else
            hostDir = dir;
    }
    const SliceListing listing(source.rawDataDirs);
    HostAssociation host(out, control, listing);
    host.read(hostDir, source.rawDataDirs);
    PmuKernelRows rows(out, host, control);
    for (const auto &[device, dir] : deviceDirs)
        DeviceDecoder(out, host, rows, control, listing, device, dir, hostDir).run();
    out.finish();
    if (!i.notDecoded.isEmpty())
        builder.addWarning(QCoreApplication::translate("Parser", "Raw data not decoded yet (%1): %2")
                               .arg(i.notDecoded.size())
                               .arg(i.notDecoded.join(QStringLiteral("; "))));
    return out.slices();
}

} // namespace at
