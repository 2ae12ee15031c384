// app/ChartExport: every named chart of the level1 rank0 alexnet folder rendered to PNG offscreen.

#include "ChartExport.h"
#include "ChartsPanel.h"
#include "ChartsTestData.h"

#include <QChart>
#include <QFileInfo>
#include <QImage>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace at;

namespace {

int distinctColours(const QImage &image, int limit = 1000)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2) {
            colours.insert(image.pixel(x, y));
            if (colours.size() >= limit)
                return limit;
        }
    return static_cast<int>(colours.size());
}

int pixelsOf(const QImage &image, QColor colour)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            n += image.pixelColor(x, y).rgb() == colour.rgb() ? 1 : 0;
    return n;
}

} // namespace

class TestChartsExport : public QObject
{
    Q_OBJECT
    std::unique_ptr<TraceModel> m_model;
    QTemporaryDir m_dir;

    QImage render(const QString &name, QSize size = {900, 600})
    {
        const QString out = m_dir.filePath(QString(name).replace(QLatin1Char(':'), QLatin1Char('_')) +
                                           QStringLiteral(".png"));
        QString error;
        if (!renderChartPng(*m_model, name, out, size, &error)) {
            qWarning("renderChartPng(%s) failed: %s", qPrintable(name), qPrintable(error));
            return {};
        }
        if (QFileInfo(out).size() <= 0)
            return {};
        return QImage(out, "png");
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_model = test::loadLevel1Rank0();
        QVERIFY(m_model);
        QCOMPARE(chartNames(), (QStringList{QStringLiteral("top-kernels"), QStringLiteral("kernel-metrics"),
                                            QStringLiteral("time-by-type"), QStringLiteral("scatter")}));
    }

    void everyChartRendersAPicture_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QColor>("colour"); // a colour the chart must contain
        QTest::newRow("top-kernels") << QStringLiteral("top-kernels")
                                     << taskCategoryColor(TaskCategory::Communication);
        QTest::newRow("top-kernels:3")
            << QStringLiteral("top-kernels:3") << taskCategoryColor(TaskCategory::Communication);
        QTest::newRow("kernel-metrics") << QStringLiteral("kernel-metrics") << QColor(0xe15759); // mte2
        QTest::newRow("kernel-metrics:Conv2D1")
            << QStringLiteral("kernel-metrics:Conv2D1") << QColor(0x4e79a7); // mac
        QTest::newRow("time-by-type")
            << QStringLiteral("time-by-type") << taskCategoryColor(TaskCategory::Communication);
        QTest::newRow("scatter") << QStringLiteral("scatter") << taskCategoryColor(TaskCategory::AiVector);
        QTest::newRow("scatter:aiv_vec_ratio")
            << QStringLiteral("scatter:aiv_vec_ratio") << taskCategoryColor(TaskCategory::AiVector);
    }

    void everyChartRendersAPicture()
    {
        QFETCH(QString, name);
        QFETCH(QColor, colour);
        const QImage image = render(name);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(900, 600));
        // Not one colour: axes, labels, bars or points were drawn.
        QVERIFY2(distinctColours(image) > 20, qPrintable(QString::number(distinctColours(image))));
        QVERIFY2(pixelsOf(image, colour) > 20, qPrintable(name + QLatin1Char(' ') + colour.name()));
    }

    void sizeIsHonoured()
    {
        const QImage image = render(QStringLiteral("time-by-type"), {400, 300});
        QCOMPARE(image.size(), QSize(400, 300));
    }

    void badRequestsFailWithAMessage()
    {
        QString error;
        const QString out = m_dir.filePath(QStringLiteral("bad.png"));
        QVERIFY(!renderChartPng(*m_model, QStringLiteral("histogram"), out, {800, 600}, &error));
        QVERIFY(error.contains(QStringLiteral("unknown chart")));
        QVERIFY(error.contains(QStringLiteral("top-kernels, kernel-metrics, time-by-type, scatter")));
        QVERIFY(!renderChartPng(*m_model, QStringLiteral("kernel-metrics:NoSuchKernel"), out, {800, 600},
                                &error));
        QVERIFY(error.contains(QStringLiteral("NoSuchKernel")));
        QVERIFY(!renderChartPng(*m_model, QStringLiteral("scatter:no_metric"), out, {800, 600}, &error));
        QVERIFY(error.contains(QStringLiteral("no_metric")));
        QVERIFY(!renderChartPng(*m_model, QStringLiteral("top-kernels:0"), out, {800, 600}, &error));
        QVERIFY(!renderChartPng(*m_model, QStringLiteral("top-kernels"), out, {0, 600}, &error));
        QVERIFY(!QFileInfo::exists(out));
        QVERIFY(!renderChartPng(*m_model, QStringLiteral("top-kernels"),
                                m_dir.filePath(QStringLiteral("missing/dir/x.png")), {800, 600}, &error));
        QVERIFY(error.contains(QStringLiteral("x.png")));
    }

    void chartStaysOwnedByTheCaller()
    {
        std::unique_ptr<QChart> chart(buildNamedChart(*m_model, QStringLiteral("top-kernels")));
        QVERIFY(chart);
        const QImage first = renderChartImage(chart.get(), {600, 400});
        const QImage second = renderChartImage(chart.get(), {600, 400}); // still alive and drawable
        QVERIFY(distinctColours(first) > 20);
        QCOMPARE(first, second);
    }
};

QTEST_MAIN(TestChartsExport)
#include "tst_charts_export.moc"
