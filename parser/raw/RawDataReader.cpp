#include "InputReader.h"

#include "folder/NamePatterns.h"
#include "raw/RawProfileReader.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace at {

namespace {

// Raw PROF_*/{host,device_N}/data slices (FORMATS.md §5), decoded by readRawProfile (parser/raw): a
// raw-only result, or any result under --source raw.
class RawDataReader : public InputReader
{
public:
    const InputReaderDescriptor &descriptor() const override
    {
        // Args stay in memory (RawArgs): such models are not cached.
        static const InputReaderDescriptor d{QStringLiteral("raw"), QStringLiteral("raw PROF data"),
                                             TimelineExport::RawData, 0, true};
        return d;
    }
    SniffAnswer sniffFile(const FileSniff &file, DataSource &source) const override;
    std::uint64_t bytesToRead(const DataSource &source) const override;
    ReadStatus read(SourceReading &reading) const override;
};

// The first few problems, then how many more (a folder of a thousand unreadable slices stays readable).
QString decodeProblemsText(const QStringList &problems)
{
    constexpr qsizetype kShown = 4;
    QString text = problems.mid(0, kShown).join(QStringLiteral("; "));
    if (problems.size() > kShown)
        text += QCoreApplication::translate("Parser", "; and %1 more").arg(problems.size() - kShown);
    return text;
}

} // namespace

// The data folders a PROF_* layout found: host/data and device_<id>/data (FORMATS.md §5).
SniffAnswer RawDataReader::sniffFile(const FileSniff &file, DataSource &) const
{
    if (!file.isFolder || file.name != QStringLiteral("data"))
        return {};
    const QString parent = QFileInfo(QFileInfo(file.path).absolutePath()).fileName();
    const bool mine =
        parent == QStringLiteral("host") || profile_names::deviceIdFromDirName(parent).has_value();
    return {mine ? SniffVerdict::Mine : SniffVerdict::NotMine, {}};
}

std::uint64_t RawDataReader::bytesToRead(const DataSource &source) const
{
    return rawDataBytes(source);
}

ReadStatus RawDataReader::read(SourceReading &reading) const
{
    const DataSource &source = reading.source;
    LoadControl &control = reading.control;
    RawReadInfo info;
    const std::size_t slices =
        readRawProfile(source, reading.builder, &info, &control.stopReading, &control.bytesDone);
    // Includes the slice files readRawProfile did not stream (dictionaries).
    control.bytesDone = std::min(reading.progressBase + reading.readerBytes, control.bytesTotal.load());
    if (control.cancel)
        return ReadStatus::Cancelled;
    if (control.stopReading) {
        reading.warnMemoryStop(source.profPath, QCoreApplication::translate("Parser", "in the middle"),
                               QCoreApplication::translate("Parser", "%1 slices").arg(slices));
        // Which record streams were read to their end, which were cut and where, which were not read.
        if (const QString kept = rawStopSummary(info, QFileInfo(source.profPath).fileName()); !kept.isEmpty())
            reading.builder.addWarning(
                QCoreApplication::translate("Parser", "%1: raw record streams when reading stopped: %2")
                    .arg(source.profPath, kept));
        return ReadStatus::Stopped;
    }
    if (slices == 0 && info.pmuRows == 0) {
        // Why: the file and the value that stopped the decode (a device's info.json.N, an unreadable slice).
        QString message =
            info.decodeProblems.isEmpty()
                ? QCoreApplication::translate("Parser", "%1: no raw record could be decoded")
                      .arg(source.profPath)
                : QCoreApplication::translate("Parser", "%1: no raw record could be decoded: %2")
                      .arg(source.profPath, decodeProblemsText(info.decodeProblems));
        for (const QString &m : reading.rawDataOnlyMessages)
            message = QStringLiteral("%1 (%2)").arg(m, message);
        reading.builder.addWarning(message);
        reading.failure = message;
    }
    return ReadStatus::Done;
}

const InputReader &rawDataReader()
{
    static const RawDataReader reader;
    return reader;
}

} // namespace at
