#include "DetailsPanel.h"
#include "NumberFormat.h"
#include "TestSupport.h"

#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QRegularExpression>
#include <QTest>

#include <cmath>

using namespace at;

// Issue 17: the Details panel shows whole values at its default width, plain numbers with their unit,
// and "n/a" for the profiler's "no value" markers. Real level1 sample (kernel metrics, device args).
class TestDetailsPanel : public QObject
{
    Q_OBJECT
    std::unique_ptr<TraceModel> m_model;
    std::unique_ptr<DetailsPanel> m_panel;

    // Every item of the tree, depth first.
    QList<QTreeWidgetItem *> items() const
    {
        QList<QTreeWidgetItem *> all;
        std::function<void(QTreeWidgetItem *)> walk = [&](QTreeWidgetItem *item) {
            all << item;
            for (int c = 0; c < item->childCount(); ++c)
                walk(item->child(c));
        };
        for (int i = 0; i < m_panel->topLevelItemCount(); ++i)
            walk(m_panel->topLevelItem(i));
        return all;
    }

    // A device kernel with AI Core metrics, the one with the longest name.
    SliceRef kernelWithMetrics() const
    {
        const KernelTable &table = m_model->kernels();
        SliceRef best;
        qsizetype longest = 0;
        for (std::size_t r = 0; r < table.size(); ++r) {
            const KernelRecord &k = table.rows()[r];
            if (k.thread < 0 || table.columns().empty() || std::isnan(table.metric(r, 0)))
                continue;
            const SliceRef ref{k.thread, k.slice};
            if (m_model->sliceName(ref).size() > longest) {
                longest = m_model->sliceName(ref).size();
                best = ref;
            }
        }
        return best;
    }

private Q_SLOTS:
    void initTestCase()
    {
        // The rank folder: its kernel_details.csv joins the device tasks of trace_view.json.
        m_model = test::loadOrFail(QFileInfo(test::level1Rank0Trace()).dir().absolutePath() +
                                   QStringLiteral("/.."));
        QVERIFY(m_model);
    }

    void init()
    {
        m_panel = std::make_unique<DetailsPanel>();
        m_panel->resize(420, 900); // the main window's default dock width
        m_panel->setModel(m_model.get());
        m_panel->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
    }

    void metricsArePlainNumbersWithUnits()
    {
        const SliceRef kernel = kernelWithMetrics();
        QVERIFY(kernel.isValid());
        m_panel->showSlice(kernel);
        static const QRegularExpression exponent(QStringLiteral("[0-9]e[+-][0-9]"));
        int microseconds = 0;
        for (QTreeWidgetItem *item : items()) {
            QVERIFY2(!exponent.match(item->text(1)).hasMatch(),
                     qPrintable(item->text(0) + ": " + item->text(1)));
            QVERIFY2(!item->text(0).endsWith(QLatin1String("(us)")), qPrintable(item->text(0)));
            microseconds += item->text(1).endsWith(QStringLiteral(" µs")) ? 1 : 0;
        }
        QVERIFY(microseconds > 0);
        QCOMPARE(formatNumber(3238200.0), QStringLiteral("3,238,200"));
        QCOMPARE(formatNumber(12.5, QStringLiteral("us")), QStringLiteral("12.500 µs"));
        QCOMPARE(formatNumber(0.12345, QStringLiteral("%")), QStringLiteral("0.123%"));
        QCOMPARE(formatNumber(8873.756000000001, QStringLiteral("GB/s")), QStringLiteral("8,873.756 GB/s"));
    }

    void sentinelsReadAsNotAvailable()
    {
        // Device tasks of this sample carry "Model Id": "4294967295" in their args.
        const SliceRef kernel = kernelWithMetrics();
        QVERIFY(kernel.isValid());
        bool sawSentinel = false;
        for (const auto &[key, value] : m_model->sliceArgs(kernel))
            sawSentinel = sawSentinel || value == QLatin1String("4294967295");
        QVERIFY(sawSentinel);
        m_panel->showSlice(kernel);
        for (QTreeWidgetItem *item : items()) {
            QVERIFY2(item->text(1) != QLatin1String("4294967295"), qPrintable(item->text(0)));
            if (item->text(0) == QLatin1String("Model Id")) {
                QCOMPARE(item->text(1), QStringLiteral("n/a"));
                QVERIFY(item->toolTip(1).contains(QLatin1String("4294967295")));
            }
        }
    }

    void longValuesWrapInsteadOfBeingCut()
    {
        const SliceRef kernel = kernelWithMetrics();
        QVERIFY(kernel.isValid());
        m_panel->showSlice(kernel);
        QCoreApplication::processEvents();
        int checked = 0;
        for (QTreeWidgetItem *item : items()) {
            const QModelIndex index = m_panel->indexFromItem(item, 1);
            const QRect cell = m_panel->visualRect(index);
            if (cell.isEmpty())
                continue; // scrolled out of view
            const QString text = item->text(1);
            const QFontMetrics fm = m_panel->fontMetrics();
            // The lines the panel wraps the value into (between words, issue 28) all fit in the row.
            const int lines = static_cast<int>(DetailsPanel::wrappedLines(text, fm, cell.width() - 8).size());
            const QRect needed(0, 0, cell.width(), lines * fm.lineSpacing());
            QVERIFY2(cell.height() + 2 >= needed.height(),
                     qPrintable(QStringLiteral("%1: %2 (%3 px for %4 px)")
                                    .arg(item->text(0), text)
                                    .arg(cell.height())
                                    .arg(needed.height())));
            ++checked;
        }
        // The values get most of the width.
        QVERIFY(m_panel->header()->sectionSize(1) >= m_panel->viewport()->width() / 2);
        QVERIFY(checked > 10);
        // The slice's name is longer than the value column: it takes more than one line.
        QTreeWidgetItem *name = m_panel->topLevelItem(0);
        QCOMPARE(name->text(0), QStringLiteral("Name"));
        if (m_panel->fontMetrics().horizontalAdvance(name->text(1)) > m_panel->header()->sectionSize(1))
            QVERIFY(m_panel->visualRect(m_panel->indexFromItem(name, 1)).height() >
                    m_panel->fontMetrics().height() * 3 / 2);
    }
};

QTEST_MAIN(TestDetailsPanel)
#include "tst_details_panel.moc"
