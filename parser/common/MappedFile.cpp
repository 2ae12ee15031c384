#include "MappedFile.h"

namespace at {

std::unique_ptr<MappedFile> MappedFile::open(const QString &path, QString *error)
{
    std::unique_ptr<MappedFile> mapped(new MappedFile);
    mapped->m_file.setFileName(path);
    if (!mapped->m_file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("%1: cannot open: %2").arg(path, mapped->m_file.errorString());
        return nullptr;
    }
    const qint64 size = mapped->m_file.size();
    if (size <= 0)
        return mapped;
    uchar *data = mapped->m_file.map(0, size);
    if (!data) {
        if (error)
            *error = QStringLiteral("%1: cannot map the file into memory: %2")
                         .arg(path, mapped->m_file.errorString());
        return nullptr;
    }
    mapped->m_data = reinterpret_cast<const char *>(data);
    mapped->m_size = static_cast<std::size_t>(size);
    return mapped;
}

MappedFile::~MappedFile()
{
    if (m_data)
        m_file.unmap(reinterpret_cast<uchar *>(const_cast<char *>(m_data)));
}

} // namespace at
