#include "snapshot/SnapshotArgs.h"

#include "common/Decompress.h"
#include "common/MappedFile.h"
#include "sqlite/DbArgsReader.h"
#include "json/JsonArgsReader.h"

#include <mutex>

namespace at::snapshot {

namespace {

// Maps (decompressing .zst/.gz first, as the cold load does) the trace on the first request.
class LazyJsonArgsReader : public EventArgsReader
{
public:
    explicit LazyJsonArgsReader(QString path) : m_path(std::move(path)) {}

    std::vector<std::pair<QString, QString>> readArgs(std::uint64_t offset) const override
    {
        std::call_once(m_opened, [this] { open(); });
        return m_reader ? m_reader->readArgs(offset) : std::vector<std::pair<QString, QString>>{};
    }

private:
    void open() const
    {
        std::unique_ptr<QTemporaryFile> temporary;
        const Compression compression = detectCompression(m_path);
        QString error;
        if (compression != Compression::None) {
            temporary = decompressToTemporaryFile(m_path, compression, DecompressControl{}, &error);
            if (!temporary)
                return;
        }
        std::unique_ptr<MappedFile> mapped =
            MappedFile::open(temporary ? temporary->fileName() : m_path, &error);
        if (mapped)
            m_reader = std::make_unique<JsonArgsReader>(std::move(mapped), std::move(temporary));
    }

    QString m_path;
    mutable std::once_flag m_opened;
    mutable std::unique_ptr<JsonArgsReader> m_reader;
};

} // namespace

std::optional<ArgsKind> argsKindOf(const EventArgsReader *reader)
{
    if (!reader)
        return ArgsKind::None;
    if (dynamic_cast<const JsonArgsReader *>(reader) || dynamic_cast<const LazyJsonArgsReader *>(reader))
        return ArgsKind::Json;
    if (dynamic_cast<const DbArgsReader *>(reader))
        return ArgsKind::Database;
    return std::nullopt;
}

std::shared_ptr<const EventArgsReader> makeArgsReader(ArgsKind kind, const QString &path)
{
    switch (kind) {
    case ArgsKind::Json:
        return std::make_shared<LazyJsonArgsReader>(path);
    case ArgsKind::Database:
        return std::make_shared<DbArgsReader>(path);
    case ArgsKind::None:
        break;
    }
    return nullptr;
}

} // namespace at::snapshot
