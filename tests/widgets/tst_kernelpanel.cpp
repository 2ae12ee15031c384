#include "KernelTablePanel.h"
#include "TableExport.h"
#include "TestSupport.h"
#include "TimelineView.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace at;

// The Kernels panel and colour-by-metric on the real level1 rank0 folder (191 kernels,
// PipeUtilization). Expected counts come from python's csv module on kernel_details.csv.
class TestKernelPanel : public QObject
{
    Q_OBJECT
    std::unique_ptr<TraceModel> m_model;
    std::unique_ptr<KernelTablePanel> m_panel;

    int shown() const { return m_panel->proxy()->rowCount(); }

private Q_SLOTS:
    void initTestCase()
    {
        m_model = test::loadOrFail(test::samplePath(
            QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt")));
        QVERIFY(m_model);
        QCOMPARE(m_model->kernels().size(), std::size_t(191));
    }

    void init()
    {
        m_panel = std::make_unique<KernelTablePanel>();
        m_panel->setModel(m_model.get());
    }

    void modelsPassTheModelTester()
    {
        QAbstractItemModelTester sourceTester(m_panel->kernelModel(),
                                              QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(m_panel->proxy(),
                                             QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(m_panel->kernelModel()->rowCount(), 191);
        QCOMPARE(m_panel->kernelModel()->columnCount(),
                 KernelTableModel::FixedColumns + static_cast<int>(m_model->kernels().columns().size()));
        m_panel->nameFilter()->setText(QStringLiteral("conv"));
        m_panel->nameFilter()->clear();
    }

    void headersNameEveryColumn()
    {
        // Fixed columns, then every metric column by its CSV header (the UBSan run found the fixed names
        // one short, shifting the last labels and reading past the array).
        const KernelTableModel *model = m_panel->kernelModel();
        const QStringList fixed{"Source",      "Name",     "Type",  "Core",      "Stream",
                                "Start",       "Duration", "Wait",  "Block dim", "Input shapes",
                                "Input types", "Bound",    "Joined"};
        QCOMPARE(static_cast<int>(KernelTableModel::FixedColumns), static_cast<int>(fixed.size()));
        for (int c = 0; c < fixed.size(); ++c)
            QCOMPARE(model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString(), fixed[c]);
        // Shown without its raw unit (the cells carry the unit they read in), exported as the CSV wrote it.
        const KernelMetricColumn &first = m_model->kernels().columns().front();
        QCOMPARE(first.header, QStringLiteral("aicore_time(us)"));
        QCOMPARE(
            model->headerData(KernelTableModel::FixedColumns, Qt::Horizontal, Qt::DisplayRole).toString(),
            QStringLiteral("aicore_time"));
        QCOMPARE(
            model->headerData(KernelTableModel::FixedColumns, Qt::Horizontal, kExportTextRole).toString(),
            first.header);
    }

    void filtersByNameRegexCoreAndDuration()
    {
        QCOMPARE(shown(), 191);
        m_panel->nameFilter()->setText(QStringLiteral("conv")); // case-insensitive substring
        QCOMPARE(shown(), 19);
        m_panel->nameFilter()->setText(QStringLiteral("^trans_TransData_\\d+$"));
        QCOMPARE(shown(), 0); // as a substring it matches nothing
        m_panel->regexFilter()->setChecked(true);
        QCOMPARE(shown(), 42);
        m_panel->regexFilter()->setChecked(false);
        m_panel->nameFilter()->clear();
        m_panel->coreFilter()->setCurrentText(QStringLiteral("AI_VECTOR_CORE"));
        QCOMPARE(shown(), 149);
        m_panel->coreFilter()->setCurrentText(QStringLiteral("HCCL"));
        QCOMPARE(shown(), 4);
        m_panel->coreFilter()->setCurrentIndex(0);
        m_panel->minDurationFilter()->setValue(10);
        m_panel->maxDurationFilter()->setValue(100);
        QCOMPARE(shown(), 114);
        QVERIFY(m_panel->summaryText().startsWith(QStringLiteral("114 shown of 191 kernels")));
    }

    void boundColumnAndFilter()
    {
        // Rule of README "Bound classification", applied in python to the same rows:
        // memory 115, scalar 58, cube 7, latency 3, vector 2, no ratios 6.
        const std::pair<const char *, int> expected[] = {
            {"memory (MTE)", 115}, {"scalar", 58}, {"cube", 7}, {"latency", 3}, {"vector", 2}};
        for (const auto &[name, count] : expected) {
            m_panel->boundFilter()->setCurrentText(QString::fromLatin1(name));
            QCOMPARE(shown(), count);
        }
        m_panel->boundFilter()->setCurrentIndex(0);
        // Conv2D3 (aic_mac_ratio 0.842) is cube-bound.
        m_panel->nameFilter()->setText(QStringLiteral("Conv2D3"));
        QCOMPARE(shown(), 1);
        QCOMPARE(m_panel->proxy()->index(0, KernelTableModel::Bound).data().toString(),
                 QStringLiteral("cube"));
    }

    void groupsByNameAndShape()
    {
        // python: 82 distinct names, 160 (name, input shapes) pairs; the largest total is the one
        // hcom_allReduce__586_0_1 (79,089,520 ns).
        QAbstractItemModelTester tester(m_panel->groupModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        m_panel->grouping()->setCurrentIndex(1);
        QCOMPARE(m_panel->groupModel()->rowCount(), 82);
        const QAbstractItemModel *shown = m_panel->table()->model();
        QCOMPARE(shown->index(0, KernelGroupModel::Name).data().toString(),
                 QStringLiteral("hcom_allReduce__586_0_1"));
        QCOMPARE(shown->index(0, KernelGroupModel::Total).data(KernelGroupModel::kSortRole).toLongLong(),
                 79089520LL);
        std::size_t kernels = 0;
        for (const KernelAggregate &g : m_panel->groupModel()->groups())
            kernels += g.count;
        QCOMPARE(kernels, std::size_t(191));
        m_panel->grouping()->setCurrentIndex(2);
        QCOMPARE(m_panel->groupModel()->rowCount(), 160);
        // Grouping follows the filter.
        m_panel->grouping()->setCurrentIndex(1);
        m_panel->nameFilter()->setText(QStringLiteral("conv"));
        QCOMPARE(m_panel->groupModel()->rowCount(), 12);
        m_panel->nameFilter()->setText(QStringLiteral("no such kernel"));
        QCOMPARE(m_panel->groupModel()->rowCount(), 0);
        m_panel->grouping()->setCurrentIndex(0);
        QCOMPARE(m_panel->table()->model(), static_cast<QAbstractItemModel *>(m_panel->proxy()));
    }

    void timeSelectionFilter()
    {
        const KernelRecord &first = m_model->kernels().rows().front();
        m_panel->setTimeSelection({first.start, first.start + first.duration});
        m_panel->rangeFilter()->setChecked(true);
        QVERIFY(shown() >= 1);
        QVERIFY(shown() < 5);
        m_panel->rangeFilter()->setChecked(false);
        QCOMPARE(shown(), 191);
    }

    void exportsTheVisibleRows()
    {
        m_panel->nameFilter()->setText(QStringLiteral("conv"));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("k.csv"));
        QString error;
        QVERIFY2(m_panel->exportCsv(path, &error), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 1 + 19);
        QVERIFY(lines[0].startsWith("Source,Name,Type,Core,Stream,Start,Duration"));
        QVERIFY(lines[0].endsWith("cube_utilization(%)"));
    }

    void colourByMetricRecoloursAKnownKernel()
    {
        TimelineView view;
        view.resize(1400, 900);
        view.setModel(m_model.get());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        // Conv2D1: aic_mac_ratio 0.519; the column's range over all kernels is 0 .. 0.85.
        std::size_t row = 0;
        while (m_model->strings().qstring(m_model->kernels().rows()[row].name) != QStringLiteral("Conv2D1"))
            ++row;
        const KernelRecord &k = m_model->kernels().rows()[row];
        QVERIFY(k.joined());
        view.zoom()->fit({k.start, k.start + k.duration});
        const QRectF rect = view.sliceRect({k.thread, k.slice});
        QVERIFY(rect.width() > 100);
        view.verticalScrollBar()->setValue(0);
        auto pixel = [&] {
            const QRectF r = view.sliceRect({k.thread, k.slice});
            return QColor(view.viewport()->grab().toImage().pixel(
                              QPoint(int(r.left() + 4), int(r.bottom() - 2))))
                .rgb();
        };
        if (!view.viewport()->rect().contains(rect.center().toPoint())) {
            // Scroll the stream lane into view.
            view.selectSlice({k.thread, k.slice}, true);
        }
        const QRgb byName = pixel();
        QCOMPARE(byName, view.sliceColor({k.thread, k.slice}).rgb());
        const int column = m_model->kernels().columnIndex(QStringLiteral("aic_mac_ratio"));
        view.coloring().setByMetric(column);
        view.refreshColors();
        const QRgb byMetric = pixel();
        QCOMPARE(byMetric, viridis(0.519 / 0.85).rgb());
        QVERIFY(byMetric != byName);
        QCOMPARE(view.coloring().legendTitle(), QStringLiteral("aic_mac_ratio"));
        QCOMPARE(view.coloring().legendMaximum(), QStringLiteral("0.85"));
        // Host slices keep their name colours.
        const SliceRef step = test::uniqueSlice(*m_model, QStringLiteral("ProfilerStep#50"));
        QVERIFY(!view.coloring().colorFor(step.thread, step.index).has_value());
    }
};

QTEST_MAIN(TestKernelPanel)
#include "tst_kernelpanel.moc"
