#include "StartPage.h"

#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace at {

StartPage::StartPage(QWidget *parent)
    : QWidget(parent), m_recent(new QListWidget), m_title(new QLabel), m_openFile(new QPushButton),
      m_openFolder(new QPushButton), m_openSample(new QPushButton), m_recentTitle(new QLabel)
{
    m_title->setWordWrap(true);
    connect(m_openFile, &QPushButton::clicked, this, &StartPage::openFileRequested);
    connect(m_openFolder, &QPushButton::clicked, this, &StartPage::openFolderRequested);
    connect(m_openSample, &QPushButton::clicked, this, &StartPage::openSampleRequested);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_openFile);
    buttons->addWidget(m_openFolder);
    buttons->addWidget(m_openSample);
    buttons->addStretch(1);
    connect(m_recent, &QListWidget::itemActivated, this,
            [this](QListWidgetItem *item) { Q_EMIT openPathRequested(item->data(Qt::UserRole).toString()); });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(40, 30, 40, 30);
    layout->addWidget(m_title);
    layout->addLayout(buttons);
    layout->addSpacing(16);
    layout->addWidget(m_recentTitle);
    layout->addWidget(m_recent, 1);
    retranslateUi();
}

void StartPage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void StartPage::retranslateUi()
{
    m_title->setText(tr("<h2>Ascend Timeline</h2>Open a profiling result folder (PROF_*, *_ascend_pt, a "
                        "folder of ranks), a trace file or a profiler database, or drop it here."));
    m_openFile->setText(tr("Open File…"));
    m_openFolder->setText(tr("Open Folder…"));
    m_openSample->setText(tr("Open the Bundled Sample"));
    m_recentTitle->setText(tr("<b>Recent</b> (double-click or Enter to open)"));
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
