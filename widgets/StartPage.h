#pragma once

#include <QWidget>

class QLabel;
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

protected:
    // QEvent::LanguageChange: the page's texts in the new language.
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi(); // every text; the constructor sets them through it too

    QListWidget *m_recent;
    QLabel *m_title;
    QPushButton *m_openFile;
    QPushButton *m_openFolder;
    QPushButton *m_openSample;
    QLabel *m_recentTitle;
};

} // namespace at
