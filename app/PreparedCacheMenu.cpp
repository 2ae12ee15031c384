#include "PreparedCacheMenu.h"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>
#include <QWidget>

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

// The entries' texts and states for the current folder and language.
void refresh(QMenu *menu)
{
    const QString folder = savedPreparedCacheFolder();
    menu->setTitle(PreparedCache::tr("Prepared &Cache"));
    if (auto *current = menu->findChild<QAction *>(QStringLiteral("preparedCache.current")))
        current->setText(folder.isEmpty() ? PreparedCache::tr("No prepared cache folder")
                                          : PreparedCache::tr("Folder: %1").arg(folder));
    if (auto *choose = menu->findChild<QAction *>(QStringLiteral("preparedCache.choose")))
        choose->setText(PreparedCache::tr("Choose &Folder…"));
    if (auto *clear = menu->findChild<QAction *>(QStringLiteral("preparedCache.clear"))) {
        clear->setText(PreparedCache::tr("&Stop Using the Folder"));
        clear->setEnabled(!folder.isEmpty());
    }
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

void addPreparedCacheMenu(QMenu *file, QWidget *window, const std::function<void()> &changed)
{
    auto *menu = new QMenu(PreparedCache::tr("Prepared &Cache"), file);
    menu->setObjectName(QStringLiteral("menu.preparedCache"));
    // Among the opening commands: before Close (the registry's file.close), else at the end.
    QAction *before = nullptr;
    for (QAction *action : file->actions())
        if (action->objectName() == QLatin1String("file.close"))
            before = action;
    file->insertMenu(before, menu);
    QAction *current = menu->addAction(QString());
    current->setObjectName(QStringLiteral("preparedCache.current"));
    current->setEnabled(false);
    QAction *choose = menu->addAction(QString());
    choose->setObjectName(QStringLiteral("preparedCache.choose"));
    QAction *clear = menu->addAction(QString());
    clear->setObjectName(QStringLiteral("preparedCache.clear"));
    refresh(menu);
    QObject::connect(menu, &QMenu::aboutToShow, menu, [menu] { refresh(menu); });
    QObject::connect(choose, &QAction::triggered, menu, [menu, window, changed] {
        const QString folder =
            chooserForTesting()
                ? chooserForTesting()()
                : QFileDialog::getExistingDirectory(
                      window,
                      PreparedCache::tr("Folder of a prepared cluster (--prepare RANK_DIR --cache DIR)"),
                      savedPreparedCacheFolder());
        if (folder.isEmpty())
            return;
        setSavedPreparedCacheFolder(folder);
        refresh(menu);
        changed();
    });
    QObject::connect(clear, &QAction::triggered, menu, [menu, changed] {
        setSavedPreparedCacheFolder({});
        refresh(menu);
        changed();
    });
}

void retranslatePreparedCacheMenu(const QWidget *window)
{
    if (auto *menu = window->findChild<QMenu *>(QStringLiteral("menu.preparedCache")))
        refresh(menu);
}

void setPreparedCacheChooserForTesting(std::function<QString()> chooser)
{
    chooserForTesting() = std::move(chooser);
}

} // namespace at
