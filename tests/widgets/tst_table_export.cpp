#include "MarkersPanel.h"
#include "StatisticsPanel.h"
#include "StepsPanel.h"
#include "SummaryTablesPanel.h"
#include "TableExport.h"
#include "TestSupport.h"

#include <QAction>
#include <QFile>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace at;

// Every table dock exports what it shows as CSV (context menu ▸ Export Table as CSV…).
class TestTableExport : public QObject
{
    Q_OBJECT
    std::unique_ptr<TraceModel> m_model;
    QTemporaryDir m_dir;

    static QList<QByteArray> lines(const QAbstractItemView *view)
    {
        return modelToCsv(*view->model()).trimmed().split('\n');
    }
    static bool hasExportAction(const QWidget *view)
    {
        const auto *a = view->findChild<QAction *>(QStringLiteral("exportCsv"));
        return a && view->actions().contains(const_cast<QAction *>(a)) &&
               view->contextMenuPolicy() == Qt::ActionsContextMenu;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_model = test::loadOrFail(
            test::samplePath(QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1")));
        QVERIFY(m_model);
    }

    void stepsInViewOrder()
    {
        StepsPanel panel;
        panel.setModel(m_model.get());
        QVERIFY(hasExportAction(panel.table()));
        panel.table()->sortByColumn(3, Qt::DescendingOrder); // longest step first
        const QList<QByteArray> csv = lines(panel.table());
        QCOMPARE(csv.size(), 3); // header + the step of each rank
        QVERIFY(csv[0].startsWith("Source,Step,Start,Duration,Host,Device stage,Computing"));
        const Step &longest = m_model->steps()[0].duration() >= m_model->steps()[1].duration()
                                  ? m_model->steps()[0]
                                  : m_model->steps()[1];
        QVERIFY(csv[1].contains(formatDuration(longest.duration()).toUtf8()));
        const QString path = m_dir.filePath(QStringLiteral("steps.csv"));
        QString error;
        QVERIFY(writeModelCsv(*panel.table()->model(), path, &error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), modelToCsv(*panel.table()->model()));
        QVERIFY(!writeModelCsv(*panel.table()->model(), m_dir.filePath(QStringLiteral("no/such/dir/x.csv")),
                               &error));
        QVERIFY(error.contains(QStringLiteral("no/such/dir/x.csv")));
    }

    void statisticsSummaryTablesAndMarkers()
    {
        StatisticsPanel statistics;
        statistics.setModel(m_model.get());
        statistics.showRange({m_model->dataBegin(), m_model->dataEnd()});
        QVERIFY(hasExportAction(statistics.table()));
        QCOMPARE(lines(statistics.table()).size(), statistics.table()->model()->rowCount() + 1);
        QVERIFY(lines(statistics.table()).size() > 100);

        SummaryTablesPanel tables;
        tables.setModel(m_model.get());
        QVERIFY(hasExportAction(tables.table()));
        QVERIFY(tables.table()->model()->rowCount() > 0);
        QCOMPARE(lines(tables.table()).size(), tables.table()->model()->rowCount() + 1);

        MarkerList markers;
        markers.add({QStringLiteral("a, quoted \"name\""), 0, 1000, 0xE6550D});
        MarkersPanel panel(&markers);
        QVERIFY(hasExportAction(panel.table()));
        const QList<QByteArray> csv = lines(panel.table());
        QCOMPARE(csv.size(), 2);
        QVERIFY(csv[1].startsWith("\"a, quoted \"\"name\"\"\",0 ns,1.000 µs"));
    }
};

QTEST_MAIN(TestTableExport)
#include "tst_table_export.moc"
