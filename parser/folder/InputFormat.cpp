#include "folder/InputFormat.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

namespace at {

namespace {

// The first reader that claims the path; the first refusal when none does.
const InputFormat *firstClaim(const InputFormats &formats, const FileSniff &file, DataSource &source,
                              QString *refusal, const InputFormat **refusedBy)
{
    for (const InputFormat *format : formats) {
        DataSource claimed;
        const SniffAnswer answer = format->sniffFile(file, claimed);
        if (answer.verdict == SniffVerdict::Mine) {
            source = std::move(claimed);
            return format;
        }
        if (answer.verdict == SniffVerdict::Refused && refusal && !*refusedBy) {
            *refusal = answer.reason;
            *refusedBy = format;
        }
    }
    return nullptr;
}

QString claimOf(const InputFormats &formats, const QString &path, bool isFolder)
{
    DataSource ignored;
    const InputFormat *format = firstClaim(formats, {path, QFileInfo(path).fileName(), isFolder, false, {}},
                                           ignored, nullptr, nullptr);
    return format ? format->formatId() : QString();
}

} // namespace

QString formatOfFile(const InputFormats &formats, const QString &path)
{
    return claimOf(formats, path, false);
}

QString formatOfDataFolder(const InputFormats &formats, const QString &path)
{
    return claimOf(formats, path, true);
}

FileClaim sniffSingleFile(const InputFormats &formats, const QString &path)
{
    FileClaim claim;
    FileSniff file{QFileInfo(path).absoluteFilePath(), QFileInfo(path).fileName(), false, false, {}};
    claim.format = firstClaim(formats, file, claim.source, &claim.refusal, &claim.refusedBy);
    if (claim.format)
        return claim;
    if (claim.refusedBy) {
        claim.refusedByName = true;
        return claim;
    }
    QFile opened(path);
    // A FIFO or device is never opened (a FIFO would block); Qt resources are files here.
    if (!QFileInfo(path).isFile() || !opened.open(QIODevice::ReadOnly)) {
        claim.unreadable = true;
        return claim;
    }
    file.headRead = true;
    file.head = opened.read(1 << 20);
    claim.format = firstClaim(formats, file, claim.source, &claim.refusal, &claim.refusedBy);
    if (!claim.format && !claim.refusedBy)
        claim.refusal =
            QCoreApplication::translate("Parser", "no reader recognises its name or its contents.");
    return claim;
}

} // namespace at
