// docs/FORMATS.md is the format reference the code cites ("FORMATS.md §5.2"): every section a comment,
// test or document of the repository cites must be a heading there, and nothing may name the copy outside
// the repository (../shared/docs) as the reference. Reads the checkout's own files, nothing else.
#include "TestPaths.h"
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

namespace {

// The checkout: at::test::testDataDir() is <checkout>/tests/data.
QString checkoutRoot()
{
    return QDir::cleanPath((at::test::testDataDir() + QStringLiteral("/../..")));
}

QString readText(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

// Section numbers of the "## 1. …" / "### 5.2 …" headings.
QSet<QString> headingNumbers(const QString &markdown)
{
    static const QRegularExpression heading(QStringLiteral(R"(^#{2,4}\s+(\d+(?:\.\d+)*)\.?\s)"),
                                            QRegularExpression::MultilineOption);
    QSet<QString> numbers;
    for (auto it = heading.globalMatch(markdown); it.hasNext();)
        numbers.insert(it.next().captured(1));
    return numbers;
}

struct Citation
{
    QString file;
    int line = 0;
    QString section;
};

// "§N.N" references in the text that follows each "FORMATS.md" / "FORMATS" up to the end of the
// parenthesis or sentence, across comment line breaks ("(FORMATS.md\n// §9.5)").
QList<Citation> citationsIn(const QString &relativePath, const QString &text)
{
    static const QRegularExpression name(QStringLiteral(R"(\bFORMATS(?:\.md)?\b)"));
    static const QRegularExpression commentBreak(QStringLiteral(R"(\n\s*(?://|#|\*)?\s*)"));
    static const QRegularExpression section(QStringLiteral(R"(§(\d+(?:\.\d+)*))"));
    QList<Citation> out;
    for (auto it = name.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        QString window = text.mid(m.capturedEnd(), 200);
        window.replace(commentBreak, QStringLiteral(" "));
        for (const QString &stop : {QStringLiteral(")"), QStringLiteral(". "), QStringLiteral(".md")}) {
            const qsizetype at = window.indexOf(stop);
            if (at >= 0)
                window.truncate(at);
        }
        const int line = int(text.left(m.capturedStart()).count(QLatin1Char('\n'))) + 1;
        for (auto s = section.globalMatch(window); s.hasNext();)
            out.append({relativePath, line, s.next().captured(1)});
    }
    return out;
}

// The repository's source, test, script and documentation files.
QStringList repositoryTextFiles()
{
    const QDir root(checkoutRoot());
    QStringList files{QStringLiteral("README.md")};
    const QStringList folders{
        QStringLiteral("core"),    QStringLiteral("parser"),    QStringLiteral("widgets"),
        QStringLiteral("app"),     QStringLiteral("tests"),     QStringLiteral("docs"),
        QStringLiteral("scripts"), QStringLiteral("packaging"), QStringLiteral(".ci")};
    const QStringList patterns{QStringLiteral("*.cpp"), QStringLiteral("*.h"),  QStringLiteral("*.md"),
                               QStringLiteral("*.txt"), QStringLiteral("*.sh"), QStringLiteral("*.py"),
                               QStringLiteral("run")};
    for (const QString &folder : folders) {
        QDirIterator it(root.filePath(folder), patterns, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            files.append(root.relativeFilePath(it.next()));
    }
    return files;
}

} // namespace

class TestDocsFormats : public QObject
{
    Q_OBJECT

private slots:
    void everyCitedSectionIsAHeading()
    {
        const QString formatsPath = QDir(checkoutRoot()).filePath(QStringLiteral("docs/FORMATS.md"));
        const QString formats = readText(formatsPath);
        QVERIFY2(!formats.isEmpty(), qPrintable(formatsPath + QStringLiteral(" is missing")));
        const QSet<QString> headings = headingNumbers(formats);
        for (int top = 1; top <= 11; ++top)
            QVERIFY2(headings.contains(QString::number(top)),
                     qPrintable(QStringLiteral("no section %1").arg(top)));

        QStringList missing;
        int cited = 0;
        for (const QString &file : repositoryTextFiles()) {
            const QString text = readText(QDir(checkoutRoot()).filePath(file));
            QList<Citation> citations = citationsIn(file, text);
            if (file == QLatin1String("docs/FORMATS.md")) {
                // Its own cross-references ("§2.3") must resolve too.
                static const QRegularExpression section(QStringLiteral(R"(§(\d+(?:\.\d+)*))"));
                for (auto it = section.globalMatch(text); it.hasNext();) {
                    const QRegularExpressionMatch m = it.next();
                    citations.append({file, int(text.left(m.capturedStart()).count(QLatin1Char('\n'))) + 1,
                                      m.captured(1)});
                }
            }
            for (const Citation &c : std::as_const(citations)) {
                ++cited;
                if (!headings.contains(c.section))
                    missing.append(QStringLiteral("%1:%2 cites §%3").arg(c.file).arg(c.line).arg(c.section));
            }
        }
        // The code cites the reference well over a hundred times: far fewer means the scan is broken.
        QVERIFY2(cited > 150, qPrintable(QStringLiteral("only %1 citations found").arg(cited)));
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("sections not in docs/FORMATS.md:\n") +
                                               missing.join(QLatin1Char('\n'))));
    }

    void nothingNamesTheCopyOutsideTheRepository()
    {
        // Built from parts so that this file does not name it either.
        const QString outside = QStringLiteral("shared/docs/") + QStringLiteral("FORMATS.md");
        QStringList naming;
        for (const QString &file : repositoryTextFiles())
            if (readText(QDir(checkoutRoot()).filePath(file)).contains(outside))
                naming.append(file);
        QVERIFY2(naming.isEmpty(),
                 qPrintable(QStringLiteral("name %1 as the reference (cite docs/FORMATS.md): %2")
                                .arg(outside, naming.join(QStringLiteral(", ")))));
    }
};

QTEST_GUILESS_MAIN(TestDocsFormats)
#include "tst_docs_formats.moc"
