#include "csv/CsvSlices.h"

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

} // namespace at
