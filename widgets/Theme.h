#pragma once

#include <QColor>
#include <QPalette>
#include <QString>

#include <optional>

namespace at {

// The window theme: the system's (its style and palette, dark when the desktop is dark), or a light or
// dark Fusion palette chosen in View ▸ Theme / with --theme. Every view draws with palette roles, so a
// theme is one palette.
enum class UiTheme
{
    System,
    Light,
    Dark
};

std::optional<UiTheme> parseUiTheme(const QString &name); // "system", "light", "dark"
QString uiThemeName(UiTheme theme);
QPalette lightPalette();
QPalette darkPalette();
// Sets the application's style and palette (System restores what the application started with).
void applyUiTheme(UiTheme theme);
UiTheme currentUiTheme();
// Whether a palette is a dark one (light text on a dark window), e.g. to pick a chart theme.
bool isDark(const QPalette &palette);

// The colours of chart series: one fixed list (Tableau 10), the same in the light and the dark theme (a
// chart's colours mean the same thing whichever theme draws it), each readable on both backgrounds and
// distinct from the others. index wraps around after seriesColorCount().
int seriesColorCount();
QColor seriesColor(int index);

} // namespace at
