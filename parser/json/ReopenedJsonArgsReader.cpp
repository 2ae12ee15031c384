#include "json/ReopenedJsonArgsReader.h"

#include "common/Decompress.h"
#include "common/MappedFile.h"
#include "json/JsonArgsReader.h"

#include <QThreadPool>

#include <atomic>
#include <future>

namespace at {

namespace {

// The reader of a reopened JSON source. Its file is mapped (and a .zst/.gz decompressed, as the cold load
// does) on Qt's global thread pool from the moment the model is reopened, so the first click on a slice
// waits only for what is left of that instead of decompressing on the GUI thread. Whoever comes first
// opens: a read before the pool started the task opens on the reading thread (so a busy pool never
// blocks it). Destroying the reader stops an open still running (the state is shared with the task).
class BackgroundJsonArgsReader : public ReopenableArgsReader
{
public:
    explicit BackgroundJsonArgsReader(const QString &path) : m_state(std::make_shared<State>(path))
    {
        QThreadPool::globalInstance()->start([state = m_state] { state->openOnce(); });
    }
    ~BackgroundJsonArgsReader() override { m_state->stop = true; }

    std::vector<std::pair<QString, QString>> readArgs(std::uint64_t offset) const override
    {
        const std::shared_ptr<const JsonArgsReader> reader = m_state->reader();
        return reader ? reader->readArgs(offset) : std::vector<std::pair<QString, QString>>{};
    }
    std::optional<TaskIds> taskIds(std::uint64_t offset) const override
    {
        const std::shared_ptr<const JsonArgsReader> reader = m_state->reader();
        return reader ? reader->taskIds(offset) : std::nullopt;
    }
    std::uint8_t snapshotKind() const override { return snapshot_args_kind::kJson; }

private:
    struct State
    {
        explicit State(QString p) : path(std::move(p)), opened(promise.get_future().share()) {}

        void openOnce()
        {
            if (!claimed.exchange(true))
                promise.set_value(open());
        }
        std::shared_ptr<const JsonArgsReader> reader()
        {
            openOnce();
            return opened.get();
        }
        std::shared_ptr<const JsonArgsReader> open() const
        {
            std::unique_ptr<QTemporaryFile> temporary;
            const Compression compression = detectCompression(path);
            QString error;
            if (compression != Compression::None) {
                temporary =
                    decompressToTemporaryFile(path, compression, DecompressControl{&stop, nullptr}, &error);
                if (!temporary)
                    return nullptr;
            }
            std::unique_ptr<MappedFile> mapped =
                MappedFile::open(temporary ? temporary->fileName() : path, &error);
            return mapped ? std::make_shared<JsonArgsReader>(std::move(mapped), std::move(temporary))
                          : nullptr;
        }

        const QString path;
        std::atomic<bool> stop{false};
        std::atomic<bool> claimed{false};
        std::promise<std::shared_ptr<const JsonArgsReader>> promise;
        const std::shared_future<std::shared_ptr<const JsonArgsReader>> opened;
    };

    std::shared_ptr<State> m_state;
};

} // namespace

std::shared_ptr<const ReopenableArgsReader> reopenJsonArgs(const QString &path)
{
    return std::make_shared<BackgroundJsonArgsReader>(path);
}

} // namespace at
