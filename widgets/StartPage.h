#pragma once

#include <QWidget>

class QListWidget;
class QPushButton;

namespace at {

// What the window shows when nothing is open: the recent files and folders (click to open) and
// buttons to open a file, a folder or the bundled sample.
class StartPage : public QWidget
{
    Q_OBJECT
public:
    explicit StartPage(QWidget *parent = nullptr);
    void setRecentPaths(const QStringList &paths);
    QListWidget *recentList() const { return m_recent; }

Q_SIGNALS:
    void openPathRequested(const QString &path);
    void openFileRequested();
    void openFolderRequested();
    void openSampleRequested();

private:
    QListWidget *m_recent;
};

} // namespace at
