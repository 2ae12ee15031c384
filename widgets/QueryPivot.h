#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QPushButton;

namespace at {

// What the pivot groups and computes.
struct PivotSpec
{
    enum class Aggregate
    {
        Count,
        Sum,
        Mean,
        Min,
        Max,
        P50,
        P90,
        P99
    };
    QString source;      // a table name ("slice", "kernel"), or a query whose result is pivoted
    QStringList groupBy; // one or two columns
    Aggregate aggregate = Aggregate::Count;
    QString value; // the column aggregated (ignored for Count)
};

// The SQL of a pivot: "select g1, g2, agg(value) as … from source group by g1, g2 order by 3 desc".
// A source that is not a plain table name is wrapped as a subquery. Identifiers are quoted.
QString pivotSql(const PivotSpec &spec);

// The Query dock's Pivot tab: source, one or two group-by columns, an aggregate and its column; "Build and
// Run" asks the dock to show the SQL in its editor and run it.
class QueryPivot : public QWidget
{
    Q_OBJECT
public:
    explicit QueryPivot(QWidget *parent = nullptr);

    // The tables offered (name → columns) and the numeric columns of each; the current result as a source
    // when resultSql is not empty.
    struct Source
    {
        QString label;
        QString source; // table name or SQL
        QStringList columns;
        QStringList numericColumns;
    };
    void setSources(std::vector<Source> sources);
    PivotSpec spec() const;
    // For tests and the context menu: choose by text.
    bool choose(const QString &source, const QStringList &groupBy, PivotSpec::Aggregate aggregate,
                const QString &value);

Q_SIGNALS:
    void runRequested(const QString &sql);

protected:
    void changeEvent(QEvent *event) override;

private:
    void sourceChanged();
    void retranslate();

    std::vector<Source> m_sources;
    QComboBox *m_source, *m_group1, *m_group2, *m_aggregate, *m_value;
    QLabel *m_sourceLabel, *m_groupLabel, *m_aggregateLabel, *m_ofLabel;
    QPushButton *m_run;
};

} // namespace at
