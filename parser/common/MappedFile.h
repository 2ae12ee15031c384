#pragma once

#include <QFile>
#include <QString>

#include <cstddef>
#include <memory>

namespace at {

// A read-only memory map of a whole file. The file is opened read-only, so the user's data folder
// is never modified. Empty files map to an empty view.
class MappedFile
{
public:
    static std::unique_ptr<MappedFile> open(const QString &path, QString *error);
    ~MappedFile();

    const char *data() const { return m_data; }
    std::size_t size() const { return m_size; }
    QString path() const { return m_file.fileName(); }

private:
    MappedFile() = default;
    QFile m_file;
    const char *m_data = nullptr;
    std::size_t m_size = 0;
};

} // namespace at
