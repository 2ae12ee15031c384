#include "Theme.h"

#include <QApplication>
#include <QStyle>
#include <QStyleFactory>

#include <memory>

namespace at {

namespace {

struct Startup
{
    QString style;
    QPalette palette;
    UiTheme current = UiTheme::System;
};

Startup &startup()
{
    static Startup state{QApplication::style() ? QApplication::style()->name() : QString(),
                         QApplication::palette(), UiTheme::System};
    return state;
}

} // namespace

std::optional<UiTheme> parseUiTheme(const QString &name)
{
    const QString n = name.trimmed().toLower();
    if (n == QLatin1String("system"))
        return UiTheme::System;
    if (n == QLatin1String("light"))
        return UiTheme::Light;
    if (n == QLatin1String("dark"))
        return UiTheme::Dark;
    return std::nullopt;
}

QString uiThemeName(UiTheme theme)
{
    switch (theme) {
    case UiTheme::Light:
        return QStringLiteral("light");
    case UiTheme::Dark:
        return QStringLiteral("dark");
    case UiTheme::System:
        break;
    }
    return QStringLiteral("system");
}

QPalette lightPalette()
{
    const std::unique_ptr<QStyle> fusion(QStyleFactory::create(QStringLiteral("Fusion")));
    return fusion->standardPalette();
}

QPalette darkPalette()
{
    QPalette p;
    const QColor window(45, 45, 48), base(30, 30, 32), text(230, 230, 230), disabled(128, 128, 128);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(40, 40, 44));
    p.setColor(QPalette::ToolTipBase, QColor(60, 60, 64));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(160, 160, 160));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(255, 255, 255));
    p.setColor(QPalette::Light, QColor(200, 200, 200)); // text on the darkest headers
    p.setColor(QPalette::Midlight, QColor(70, 70, 74));
    p.setColor(QPalette::Mid, QColor(90, 90, 95));
    p.setColor(QPalette::Dark, QColor(18, 18, 20));
    p.setColor(QPalette::Shadow, QColor(0, 0, 0));
    p.setColor(QPalette::Highlight, QColor(61, 142, 201));
    p.setColor(QPalette::HighlightedText, QColor(255, 255, 255));
    p.setColor(QPalette::Link, QColor(110, 170, 240));
    p.setColor(QPalette::LinkVisited, QColor(170, 140, 230));
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

void applyUiTheme(UiTheme theme)
{
    Startup &state = startup();
    state.current = theme;
    if (theme == UiTheme::System) {
        if (!state.style.isEmpty())
            QApplication::setStyle(state.style);
        QApplication::setPalette(state.palette);
        return;
    }
    QApplication::setStyle(QStringLiteral("Fusion"));
    QApplication::setPalette(theme == UiTheme::Dark ? darkPalette() : lightPalette());
}

UiTheme currentUiTheme()
{
    return startup().current;
}

int seriesColorCount()
{
    return 10;
}

QColor seriesColor(int index)
{
    static constexpr QRgb kColors[] = {0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f,
                                       0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac};
    const int n = seriesColorCount();
    return QColor(kColors[((index % n) + n) % n]);
}

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightness() < palette.color(QPalette::WindowText).lightness();
}

} // namespace at
