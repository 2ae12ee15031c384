#include "csv/CsvSlices.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>

namespace at {

int csvSliceIndex(const QString &path)
{
    static const QRegularExpression re(QStringLiteral("_slice_(\\d+)_[^/\\\\]*\\.csv$"),
                                       QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = re.match(QFileInfo(path).fileName());
    if (!m.hasMatch())
        return -1;
    bool ok = false;
    const int k = m.captured(1).toInt(&ok);
    return ok ? k : -1;
}

QStringList sortCsvSlices(QStringList paths)
{
    std::stable_sort(paths.begin(), paths.end(),
                     [](const QString &a, const QString &b) { return csvSliceIndex(a) < csvSliceIndex(b); });
    return paths;
}

CsvTable readCsvSlices(const QStringList &paths, const CsvReader &reader)
{
    CsvTable result;
    for (const QString &path : sortCsvSlices(paths))
        result.append(reader.readFile(path));
    return result;
}

// The rules of CsvTable::append: the first file with a header (or rows) gives the joined header.
void CsvSliceJoin::takeHeader(const CsvTable &file)
{
    if (m_headerTaken)
        return;
    m_headerTaken = true;
    if (m_joined.header().empty() && m_rows == 0)
        CsvTableBuilder(m_joined).setHeader(file.header());
    m_sameHeader = file.header() == m_joined.header();
}

const CsvTable &CsvSliceJoin::rows(const CsvTable &fileBlock)
{
    takeHeader(fileBlock);
    m_fileRows += fileBlock.rowCount();
    m_rows += fileBlock.rowCount();
    if (m_sameHeader)
        return fileBlock;
    m_remapped = CsvTable(); // rare (a slice with another header): a fresh table per block
    CsvTableBuilder b(m_remapped);
    b.setHeader(m_joined.header());
    for (const QString &source : fileBlock.sources())
        b.addSource(source);
    b.appendRowsByName(fileBlock, 0);
    return m_remapped;
}

void CsvSliceJoin::endFile(const CsvTable &rest)
{
    takeHeader(rest);
    CsvTableBuilder b(m_joined);
    for (const QString &source : rest.sources())
        b.addSource(source);
    for (const CsvIssue &issue : rest.issues())
        b.addIssue(issue);
    if (m_sameHeader) {
        b.addRagged(rest.raggedRowCount());
    } else {
        CsvIssue issue;
        issue.kind = CsvIssue::Kind::HeaderMismatch;
        issue.file = rest.sources().empty() ? QString() : rest.sources().front();
        issue.line = 1;
        issue.message = QCoreApplication::translate(
                            "Parser", "header differs from the first file; %1 rows remapped by column name")
                            .arg(m_fileRows);
        b.addIssue(issue);
    }
    m_headerTaken = false;
    m_sameHeader = true;
    m_fileRows = 0;
    m_remapped = CsvTable();
}

CsvTable readCsvSlicesInBlocks(const QStringList &paths, const CsvReader &reader, std::size_t blockRows,
                               const CsvBlockSink &sink)
{
    CsvSliceJoin join;
    for (const QString &path : sortCsvSlices(paths))
        join.endFile(
            reader.readFileInBlocks(path, blockRows, [&](const CsvTable &block) { sink(join.rows(block)); }));
    return join.table();
}

} // namespace at
