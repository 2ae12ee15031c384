// The step breakdown of a profiler database without OVERLAP_ANALYSIS, recomputed with the FORMATS.md §9.2
// definitions (computing = union of compute-kernel tasks, communication = union of communication ops), must
// equal what the table said (analysis.db StepTraceTime of the same run).
#include "ClusterTestSupport.h"
#include "Steps.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace at;

class TstClusterDbBreakdown : public QObject
{
    Q_OBJECT

    static QString copyWithout(const QTemporaryDir &dir, const QString &table)
    {
        const QString copy = dir.filePath(QStringLiteral("rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/"
                                                         "ascend_pytorch_profiler_0.db"));
        QDir().mkpath(QFileInfo(copy).absolutePath());
        if (!QFile::copy(test::level1Rank0Database(), copy))
            return {};
        QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
        if (table.isEmpty())
            return copy;
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("drop"));
            db.setDatabaseName(copy);
            if (!db.open())
                return {};
            QSqlQuery q(db);
            if (!q.exec(QStringLiteral("DROP TABLE %1").arg(table)))
                return {};
        }
        QSqlDatabase::removeDatabase(QStringLiteral("drop"));
        return copy;
    }

private slots:
    void withoutOverlapAnalysisEqualsTheTable()
    {
        QTemporaryDir dir;
        const QString copy = copyWithout(dir, QStringLiteral("OVERLAP_ANALYSIS"));
        QVERIFY(!copy.isEmpty());
        auto model = test::loadOrFail(copy);
        QVERIFY(model);
        QCOMPARE(model->steps().size(), std::size_t(1));
        const StepBreakdown &b = model->steps().front().breakdown;
        QVERIFY(!b.fromOverlapAnalysis);
        // analysis.db StepTraceTime of this run (rounded there to 0.01 µs... written with 3 decimals).
        const std::pair<TimeNs, TimeNs> expected[] = {{b.computing, 8'903'431},
                                                      {b.communication, 102'108'100},
                                                      {b.communicationNotOverlapped, 98'071'947},
                                                      {b.free, 25'258'144}};
        const char *names[] = {"computing", "communication", "not overlapped", "free"};
        for (int i = 0; i < 4; ++i)
            QVERIFY2(std::abs(expected[i].first - expected[i].second) <= 10,
                     qPrintable(QStringLiteral("%1: %2 vs %3")
                                    .arg(QLatin1String(names[i]))
                                    .arg(expected[i].first)
                                    .arg(expected[i].second)));
    }

    // With the table the breakdown is the table's (the same numbers).
    void withOverlapAnalysis()
    {
        auto model = test::loadOrFail(test::level1Rank0Database());
        QVERIFY(model);
        QCOMPARE(model->steps().size(), std::size_t(1));
        const StepBreakdown &b = model->steps().front().breakdown;
        QVERIFY(b.fromOverlapAnalysis);
        QVERIFY2(std::abs(b.computing - 8'903'431) <= 10, qPrintable(QString::number(b.computing)));
        QVERIFY2(std::abs(b.communicationNotOverlapped - 98'071'947) <= 10,
                 qPrintable(QString::number(b.communicationNotOverlapped)));
    }
};

QTEST_GUILESS_MAIN(TstClusterDbBreakdown)
#include "tst_cluster_db_breakdown.moc"
