#pragma once

#include <QString>
#include <QStringList>

namespace at {

// The user interface's language. "en" is the source text; "zh_CN" the bundled translation
// (resources/translations, compiled into :/i18n). An empty language follows the system locale.
QStringList uiLanguages();
// Installs the translators for `language` (ours and Qt's own dialogs' strings) into the application,
// replacing the ones installed before. Widgets made afterwards show the language (existing ones get a
// LanguageChange event). False when there is no such translation: the source text (English) is used.
bool setUiLanguage(const QString &language);
// The language installed last ("en" when none).
QString uiLanguage();

} // namespace at
