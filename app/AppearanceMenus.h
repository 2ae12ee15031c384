#pragma once

class QMenu;
class QString;
class QWidget;

namespace at {

class MessageBar;

// View ▸ Theme (system, light, dark) and View ▸ Language (system, English, 简体中文). Choices are kept in
// QSettings ("ui/theme", "ui/language") and applied at the next start by applySavedAppearance().
void addAppearanceMenus(QMenu *view, MessageBar *messages);
// The Theme menu's title in the current language (the Language menu is bilingual).
void retranslateAppearanceMenus(const QWidget *window);
// Every table header under window in the current language: the models translate in headerData(), their
// views only have to ask again.
void retranslateTableHeaders(const QWidget *window);
// At start-up: the command line's --theme / --lang when given, else the saved choice, else the system's.
// False (with a message in *error) when a given name is unknown.
bool applyAppearance(const QString &theme, const QString &language, QString *error);

} // namespace at
