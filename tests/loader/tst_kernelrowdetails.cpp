// Selecting a device task drawn from a kernel_details.csv row (a Qwen3 rank without trace_view.json) shows
// its AI Core metrics and the row's columns in the Details panel, as a task of a JSON timeline does.
#include "DetailsPanel.h"
#include "TestSupport.h"

#include <QTest>
#include <QTreeWidgetItem>

#include <functional>

using namespace at;

class TestKernelRowDetails : public QObject
{
    Q_OBJECT

private slots:
    void selectedRowShowsItsMetricsAndColumns()
    {
        qputenv("AT_NO_SNAPSHOT", "1");
        const auto model = test::loadOrFail(test::samplePath(
            QStringLiteral("msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2/rank_0_ascend_pt")));
        QVERIFY(model);
        // The first MatMul row: a compute kernel with PMU metrics.
        const KernelTable &table = model->kernels();
        std::size_t row = table.size();
        for (std::size_t r = 0; r < table.size() && row == table.size(); ++r)
            if (model->strings().qstring(table.rows()[r].name).contains(QStringLiteral("MatMul")))
                row = r;
        QVERIFY(row < table.size());
        const KernelRecord &k = table.rows()[row];
        QVERIFY(k.joined());

        DetailsPanel panel;
        panel.resize(420, 900);
        panel.setModel(model.get());
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.showSlice({k.thread, k.slice});
        QCOMPARE(panel.fieldValue(QStringLiteral("AI Core metrics")), QStringLiteral("PipeUtilization"));
        QStringList texts;
        std::function<void(QTreeWidgetItem *)> walk = [&](QTreeWidgetItem *item) {
            texts << item->text(0) + QLatin1Char('=') + item->text(1);
            for (int c = 0; c < item->childCount(); ++c)
                walk(item->child(c));
        };
        for (int i = 0; i < panel.topLevelItemCount(); ++i)
            walk(panel.topLevelItem(i));
        const QString all = texts.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QStringLiteral("Stream ID=%1").arg(k.streamId)), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("Task ID=%1").arg(k.taskId)), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("Accelerator Core=")), qPrintable(all));
        if (qEnvironmentVariableIsSet("AT_TEST_GRAB"))
            panel.grab().save(qEnvironmentVariable("AT_TEST_GRAB"));
    }
};

QTEST_MAIN(TestKernelRowDetails)
#include "tst_kernelrowdetails.moc"
