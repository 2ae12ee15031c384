#include "AppearanceMenus.h"

#include "Commands.h"

#include "MessageBar.h"
#include "Theme.h"
#include "Translations.h"

#include <QAbstractItemView>
#include <QActionGroup>
#include <QCoreApplication>
#include <QMenu>
#include <QSettings>
#include <QWidget>

namespace at {

namespace {

struct Appearance
{
    Q_DECLARE_TR_FUNCTIONS(Appearance)
};

const char *const kThemeKey = "ui/theme";
const char *const kLanguageKey = "ui/language";

// A checkable registry command in an exclusive group.
QAction *addChoice(QMenu *menu, QActionGroup *group, const char *id, bool checked)
{
    QAction *action = makeCommandAction(id, menu);
    action->setCheckable(true);
    action->setChecked(checked);
    group->addAction(action);
    menu->addAction(action);
    return action;
}

} // namespace

void addAppearanceMenus(QMenu *view, MessageBar *messages)
{
    QMenu *theme = view->addMenu(Appearance::tr("T&heme"));
    theme->setObjectName(QStringLiteral("menu.theme"));
    auto *themes = new QActionGroup(theme);
    for (const auto &[choice, id] :
         {std::pair{UiTheme::System, "theme.system"}, std::pair{UiTheme::Light, "theme.light"},
          std::pair{UiTheme::Dark, "theme.dark"}}) {
        QAction *action = addChoice(theme, themes, id, currentUiTheme() == choice);
        const UiTheme chosen = choice; // clang 14 cannot capture a structured binding
        QObject::connect(action, &QAction::triggered, theme, [chosen] {
            applyUiTheme(chosen);
            QSettings().setValue(QLatin1String(kThemeKey), uiThemeName(chosen));
        });
    }
    // In both languages and without a mnemonic (every letter of "Language" is taken in View), so the
    // menu is found whatever the current language.
    QMenu *language = view->addMenu(QStringLiteral("Language / 语言"));
    auto *languages = new QActionGroup(language);
    const QString saved = QSettings().value(QLatin1String(kLanguageKey)).toString();
    // Language names in their own language, so whoever cannot read the current one finds theirs.
    for (const auto &[code, id] :
         {std::pair{QString(), "language.system"}, std::pair{QStringLiteral("en"), "language.en"},
          std::pair{QStringLiteral("zh_CN"), "language.zh_CN"}}) {
        QAction *action = addChoice(language, languages, id, saved == code);
        const QString chosen = code; // clang 14 cannot capture a structured binding
        QObject::connect(action, &QAction::triggered, language, [chosen, messages] {
            QSettings().setValue(QLatin1String(kLanguageKey), chosen);
            setUiLanguage(chosen);
            if (messages)
                messages->showMessage(
                    MessageBar::Kind::Info,
                    Appearance::tr("The window is shown in the chosen language; the choice is "
                                   "kept for the next start."));
        });
    }
}

void retranslateAppearanceMenus(const QWidget *window)
{
    if (auto *theme = window->findChild<QMenu *>(QStringLiteral("menu.theme")))
        theme->setTitle(Appearance::tr("T&heme"));
}

bool applyAppearance(const QString &theme, const QString &language, QString *error)
{
    const QSettings settings;
    const QString themeName = theme.isEmpty() ? settings.value(QLatin1String(kThemeKey)).toString() : theme;
    const std::optional<UiTheme> chosen =
        parseUiTheme(themeName.isEmpty() ? QStringLiteral("system") : themeName);
    if (!chosen) {
        *error = Appearance::tr("--theme must be 'system', 'light' or 'dark', not '%1'").arg(themeName);
        return false;
    }
    const QString languageName =
        language.isEmpty() ? settings.value(QLatin1String(kLanguageKey)).toString() : language;
    if (!languageName.isEmpty() && !uiLanguages().contains(languageName)) {
        *error = Appearance::tr("--lang must be one of %1, not '%2'")
                     .arg(uiLanguages().join(QStringLiteral(", ")), languageName);
        return false;
    }
    applyUiTheme(*chosen);
    setUiLanguage(languageName);
    return true;
}

void retranslateTableHeaders(const QWidget *window)
{
    const auto tables = window->findChildren<QAbstractItemView *>();
    for (QAbstractItemView *view : tables) {
        QAbstractItemModel *model = view->model();
        if (model && model->columnCount() > 0)
            Q_EMIT model->headerDataChanged(Qt::Horizontal, 0, model->columnCount() - 1);
    }
}

} // namespace at
