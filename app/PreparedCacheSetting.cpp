#include "PreparedCacheSetting.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

namespace at {

namespace {

struct PreparedCache
{
    Q_DECLARE_TR_FUNCTIONS(PreparedCache)
};

const char *const kFolderKey = "cache/preparedFolder";

std::function<QString()> &chooserForTesting()
{
    static std::function<QString()> chooser;
    return chooser;
}

} // namespace

QString savedPreparedCacheFolder()
{
    return QSettings().value(QLatin1String(kFolderKey)).toString();
}

void setSavedPreparedCacheFolder(const QString &folder)
{
    if (folder.trimmed().isEmpty()) {
        QSettings().remove(QLatin1String(kFolderKey));
        return;
    }
    const QFileInfo info(folder);
    QSettings().setValue(QLatin1String(kFolderKey),
                         info.exists() ? info.canonicalFilePath() : QDir::cleanPath(info.absoluteFilePath()));
}

QString choosePreparedCacheFolder(QWidget *parent)
{
    if (chooserForTesting())
        return chooserForTesting()();
    return QFileDialog::getExistingDirectory(
        parent, PreparedCache::tr("Folder of a prepared cluster (--prepare RANK_DIR --cache DIR)"),
        savedPreparedCacheFolder());
}

void setPreparedCacheChooserForTesting(std::function<QString()> chooser)
{
    chooserForTesting() = std::move(chooser);
}

} // namespace at
