#include "StartPage.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace at {

StartPage::StartPage(QWidget *parent) : QWidget(parent), m_recent(new QListWidget)
{
    auto *title =
        new QLabel(tr("<h2>Ascend Timeline</h2>Open a profiling result folder (PROF_*, *_ascend_pt, a "
                      "folder of ranks), a trace file or a profiler database, or drop it here."));
    title->setWordWrap(true);
    auto *openFile = new QPushButton(tr("Open File…"));
    auto *openFolder = new QPushButton(tr("Open Folder…"));
    auto *sample = new QPushButton(tr("Open the Bundled Sample"));
    connect(openFile, &QPushButton::clicked, this, &StartPage::openFileRequested);
    connect(openFolder, &QPushButton::clicked, this, &StartPage::openFolderRequested);
    connect(sample, &QPushButton::clicked, this, &StartPage::openSampleRequested);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(openFile);
    buttons->addWidget(openFolder);
    buttons->addWidget(sample);
    buttons->addStretch(1);
    connect(m_recent, &QListWidget::itemActivated, this,
            [this](QListWidgetItem *item) { Q_EMIT openPathRequested(item->data(Qt::UserRole).toString()); });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(40, 30, 40, 30);
    layout->addWidget(title);
    layout->addLayout(buttons);
    layout->addSpacing(16);
    layout->addWidget(new QLabel(tr("<b>Recent</b> (double-click or Enter to open)")));
    layout->addWidget(m_recent, 1);
}

void StartPage::setRecentPaths(const QStringList &paths)
{
    m_recent->clear();
    for (const QString &path : paths) {
        const QFileInfo info(path);
        auto *item = new QListWidgetItem(QStringLiteral("%1 — %2").arg(info.fileName(), info.absolutePath()));
        item->setData(Qt::UserRole, path);
        item->setToolTip(path);
        if (!info.exists())
            item->setFlags(item->flags() & ~Qt::ItemIsEnabled); // moved or deleted since
        m_recent->addItem(item);
    }
}

} // namespace at
