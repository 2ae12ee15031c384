#include "Translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

#include <memory>

namespace at {

namespace {

struct Installed
{
    std::unique_ptr<QTranslator> ours;
    std::unique_ptr<QTranslator> qt;
    QString language = QStringLiteral("en");
};

Installed &installed()
{
    static Installed state;
    return state;
}

void remove(std::unique_ptr<QTranslator> &translator)
{
    if (translator)
        QCoreApplication::removeTranslator(translator.get());
    translator.reset();
}

} // namespace

QStringList uiLanguages()
{
    return {QStringLiteral("en"), QStringLiteral("zh_CN")};
}

bool setUiLanguage(const QString &language)
{
    Installed &state = installed();
    remove(state.ours);
    remove(state.qt);
    state.language = QStringLiteral("en");
    const QLocale locale = language.isEmpty() ? QLocale::system() : QLocale(language);
    if (language == QLatin1String("en") || locale.language() == QLocale::English)
        return true;
    auto ours = std::make_unique<QTranslator>();
    if (!ours->load(locale, QStringLiteral("ascend-timeline"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        return language.isEmpty(); // an untranslated system language is not an error
    QCoreApplication::installTranslator(ours.get());
    state.ours = std::move(ours);
    // Qt's own strings (file dialogs, standard buttons), from the system's Qt translations.
    auto qt = std::make_unique<QTranslator>();
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt.get());
        state.qt = std::move(qt);
    }
    state.language = locale.name();
    return true;
}

QString uiLanguage()
{
    return installed().language;
}

} // namespace at
