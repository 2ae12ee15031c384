#include "QueryPivot.h"

#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>

namespace at {

namespace {

QString quoted(const QString &identifier)
{
    return QLatin1Char('"') + QString(identifier).replace(QLatin1Char('"'), QLatin1String("\"\"")) +
           QLatin1Char('"');
}

const char *const kAggregateNames[] = {"count", "sum", "mean", "min", "max", "p50", "p90", "p99"};
// The SQL function of each aggregate, in the order of PivotSpec::Aggregate.
const char *const kAggregateFunctions[] = {"count", "sum", "avg", "min", "max", "p50", "p90", "p99"};

QString aggregateSql(PivotSpec::Aggregate a, const QString &column)
{
    if (a == PivotSpec::Aggregate::Count)
        return QStringLiteral("count(*)");
    return QStringLiteral("%1(%2)").arg(QLatin1String(kAggregateFunctions[static_cast<int>(a)]),
                                        quoted(column));
}

// The result column's name: "count", "sum_dur", "p90_dur".
QString aggregateAlias(PivotSpec::Aggregate a, const QString &column)
{
    const QString name = QString::fromLatin1(kAggregateNames[static_cast<int>(a)]);
    if (a == PivotSpec::Aggregate::Count)
        return name;
    QString c = column;
    c.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_]")), QStringLiteral("_"));
    return name + QLatin1Char('_') + c;
}

} // namespace

QString pivotSql(const PivotSpec &spec)
{
    static const QRegularExpression plainName(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    const QString from = plainName.match(spec.source).hasMatch()
                             ? spec.source
                             : QStringLiteral("(%1)").arg(
                                   QString(spec.source).remove(QRegularExpression(QStringLiteral(";\\s*$"))));
    QStringList groups;
    for (const QString &g : spec.groupBy)
        if (!g.isEmpty() && !groups.contains(quoted(g)))
            groups << quoted(g);
    const QString aggregate = aggregateSql(spec.aggregate, spec.value);
    const QString alias = aggregateAlias(spec.aggregate, spec.value);
    if (groups.isEmpty())
        return QStringLiteral("select %1 as %2\nfrom %3;").arg(aggregate, alias, from);
    return QStringLiteral("select %1, %2 as %3\nfrom %4\ngroup by %1\norder by %5 desc;")
        .arg(groups.join(QStringLiteral(", ")), aggregate, alias, from)
        .arg(groups.size() + 1);
}

QueryPivot::QueryPivot(QWidget *parent)
    : QWidget(parent), m_source(new QComboBox), m_group1(new QComboBox), m_group2(new QComboBox),
      m_aggregate(new QComboBox), m_value(new QComboBox), m_sourceLabel(new QLabel), m_groupLabel(new QLabel),
      m_aggregateLabel(new QLabel), m_ofLabel(new QLabel), m_run(new QPushButton)
{
    m_source->setObjectName(QStringLiteral("pivotSource"));
    m_group1->setObjectName(QStringLiteral("pivotGroup1"));
    m_group2->setObjectName(QStringLiteral("pivotGroup2"));
    m_aggregate->setObjectName(QStringLiteral("pivotAggregate"));
    m_value->setObjectName(QStringLiteral("pivotValue"));
    m_run->setObjectName(QStringLiteral("pivotRun"));
    for (const char *name : kAggregateNames)
        m_aggregate->addItem(QString::fromLatin1(name));
    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(4, 4, 4, 4);
    grid->addWidget(m_sourceLabel, 0, 0);
    grid->addWidget(m_source, 0, 1, 1, 2);
    grid->addWidget(m_groupLabel, 1, 0);
    grid->addWidget(m_group1, 1, 1);
    grid->addWidget(m_group2, 1, 2);
    grid->addWidget(m_aggregateLabel, 2, 0);
    grid->addWidget(m_aggregate, 2, 1);
    auto *of = new QHBoxLayout;
    of->addWidget(m_ofLabel);
    of->addWidget(m_value, 1);
    grid->addLayout(of, 2, 2);
    grid->addWidget(m_run, 3, 1, 1, 2, Qt::AlignLeft);
    grid->setColumnStretch(1, 1);
    grid->setColumnStretch(2, 1);
    grid->setRowStretch(4, 1);
    connect(m_source, &QComboBox::currentIndexChanged, this, &QueryPivot::sourceChanged);
    connect(m_aggregate, &QComboBox::currentIndexChanged, this,
            [this](int i) { m_value->setEnabled(i != static_cast<int>(PivotSpec::Aggregate::Count)); });
    connect(m_run, &QPushButton::clicked, this, [this] {
        if (m_source->currentIndex() >= 0)
            Q_EMIT runRequested(pivotSql(spec()));
    });
    m_value->setEnabled(false);
    retranslate();
}

void QueryPivot::setSources(std::vector<Source> sources)
{
    const QString current = m_source->currentText();
    m_sources = std::move(sources);
    const QSignalBlocker block(m_source);
    m_source->clear();
    for (const Source &s : m_sources)
        m_source->addItem(s.label);
    const int keep = m_source->findText(current);
    m_source->setCurrentIndex(keep >= 0 ? keep : 0);
    sourceChanged();
}

void QueryPivot::sourceChanged()
{
    const int i = m_source->currentIndex();
    const QString g1 = m_group1->currentText(), g2 = m_group2->currentText(), v = m_value->currentText();
    m_group1->clear();
    m_group2->clear();
    m_value->clear();
    m_run->setEnabled(i >= 0);
    if (i < 0 || i >= static_cast<int>(m_sources.size()))
        return;
    const Source &s = m_sources[static_cast<std::size_t>(i)];
    m_group1->addItems(s.columns);
    m_group2->addItem(tr("(none)"));
    m_group2->addItems(s.columns);
    m_value->addItems(s.numericColumns);
    const auto pick = [](QComboBox *box, const QString &text, const QString &fallback) {
        const int at = box->findText(text);
        const int other = box->findText(fallback);
        box->setCurrentIndex(at >= 0 ? at : other >= 0 ? other : 0);
    };
    pick(m_group1, g1, QStringLiteral("name"));
    pick(m_group2, g2, tr("(none)"));
    pick(m_value, v, QStringLiteral("dur"));
}

PivotSpec QueryPivot::spec() const
{
    PivotSpec spec;
    const int i = m_source->currentIndex();
    if (i >= 0 && i < static_cast<int>(m_sources.size()))
        spec.source = m_sources[static_cast<std::size_t>(i)].source;
    spec.groupBy << m_group1->currentText();
    if (m_group2->currentIndex() > 0)
        spec.groupBy << m_group2->currentText();
    spec.aggregate = static_cast<PivotSpec::Aggregate>(m_aggregate->currentIndex());
    spec.value = m_value->currentText();
    return spec;
}

bool QueryPivot::choose(const QString &source, const QStringList &groupBy, PivotSpec::Aggregate aggregate,
                        const QString &value)
{
    const int s = m_source->findText(source);
    if (s < 0)
        return false;
    m_source->setCurrentIndex(s);
    const int g1 = m_group1->findText(groupBy.value(0));
    const int g2 = groupBy.size() > 1 ? m_group2->findText(groupBy[1]) : 0;
    const int v = m_value->findText(value);
    if (g1 < 0 || g2 < 0 || (aggregate != PivotSpec::Aggregate::Count && v < 0))
        return false;
    m_group1->setCurrentIndex(g1);
    m_group2->setCurrentIndex(g2);
    m_aggregate->setCurrentIndex(static_cast<int>(aggregate));
    if (v >= 0)
        m_value->setCurrentIndex(v);
    return true;
}

void QueryPivot::retranslate()
{
    m_sourceLabel->setText(tr("Rows of"));
    m_source->setToolTip(tr("The table to group, or the result of the last query"));
    m_groupLabel->setText(tr("Group by"));
    m_aggregateLabel->setText(tr("Compute"));
    m_ofLabel->setText(tr("of"));
    m_run->setText(tr("Build and Run"));
    m_run->setToolTip(tr("Writes the SQL into the editor (edit it there) and runs it"));
    if (m_group2->count() > 0)
        m_group2->setItemText(0, tr("(none)"));
}

void QueryPivot::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

} // namespace at
