#include "sqlite/DbCounterReader.h"

#include <QHash>

namespace at {

namespace {

constexpr double kBytesPerMB = 1e6; // bandwidth columns are bytes/s (FORMATS.md §6.1), the JSON shows MB/s
constexpr double kBytesPerKB = 1024.0;

} // namespace

DbCounterReader::DbCounterReader(DbContext &context) : m_c(context) {}

int DbCounterReader::counterProcess(const QString &name, qint64 deviceId)
{
    const QByteArray utf8 = name.toUtf8();
    const LaneKey key{deviceId,
                      m_c.builder.textKey(std::string_view(utf8.constData(), std::size_t(utf8.size()))).text};
    const int process = m_c.builder.process(key);
    m_c.builder.setProcessName(process, m_c.intern(name));
    return process;
}

void DbCounterReader::sample(int process, const QString &counter, const QString &series, TimeNs ts,
                             double value)
{
    m_c.builder.addCounterSample(process, m_c.intern(counter), m_c.intern(series), ts, value);
    ++m_c.builder.counts().counter;
    ++m_samples;
}

void DbCounterReader::read()
{
    DbSchema &schema = m_c.schema;
    auto table = [&](const QString &name, const QStringList &columns,
                     const std::function<void(QSqlQuery &)> &fn) {
        if (schema.hasTable(name))
            schema.forEachRow(name, schema.select(name, columns), fn);
    };
    auto device = [](QSqlQuery &q, int column) {
        return q.value(column).isNull() ? 0 : q.value(column).toLongLong();
    };
    const QString ts = QStringLiteral("timestampNs:int");
    const QString dev = QStringLiteral("deviceId?");

    table(QStringLiteral("AICORE_FREQ"), {ts, dev, QStringLiteral("freq")}, [&](QSqlQuery &q) {
        sample(counterProcess(QStringLiteral("AI Core Freq"), device(q, 1)), QStringLiteral("AI Core Freq"),
               QStringLiteral("MHz"), q.value(0).toLongLong(), q.value(2).toDouble());
    });
    // HBM.type / LLC.mode are string ids ("read", "write").
    table(QStringLiteral("HBM"),
          {ts, dev, QStringLiteral("hbmId"), QStringLiteral("type"), QStringLiteral("bandwidth")},
          [&](QSqlQuery &q) {
              const QString direction = m_c.strings.text(q.value(3)).toLower() == QStringLiteral("write")
                                            ? QStringLiteral("Write")
                                            : QStringLiteral("Read");
              sample(counterProcess(QStringLiteral("HBM"), device(q, 1)),
                     QStringLiteral("HBM %1/%2").arg(q.value(2).toLongLong()).arg(direction),
                     direction + QStringLiteral("(MB/s)"), q.value(0).toLongLong(),
                     q.value(4).toDouble() / kBytesPerMB);
          });
    table(QStringLiteral("LLC"),
          {ts, dev, QStringLiteral("llcId"), QStringLiteral("mode"), QStringLiteral("hitRate"),
           QStringLiteral("throughput")},
          [&](QSqlQuery &q) {
              const QString mode = m_c.strings.text(q.value(3)).toLower() == QStringLiteral("write")
                                       ? QStringLiteral("Write")
                                       : QStringLiteral("Read");
              const int process = counterProcess(QStringLiteral("LLC"), device(q, 1));
              const QString prefix = QStringLiteral("LLC %1 %2/").arg(q.value(2).toLongLong()).arg(mode);
              sample(process, prefix + QStringLiteral("Hit Rate"), QStringLiteral("Hit Rate(%)"),
                     q.value(0).toLongLong(), q.value(4).toDouble());
              sample(process, prefix + QStringLiteral("Throughput"), QStringLiteral("Throughput(MB/s)"),
                     q.value(0).toLongLong(), q.value(5).toDouble() / kBytesPerMB);
          });
    table(QStringLiteral("DDR"), {ts, dev, QStringLiteral("read"), QStringLiteral("write")},
          [&](QSqlQuery &q) {
              const int process = counterProcess(QStringLiteral("DDR"), device(q, 1));
              sample(process, QStringLiteral("DDR/Read"), QStringLiteral("Read(MB/s)"),
                     q.value(0).toLongLong(), q.value(2).toDouble() / kBytesPerMB);
              sample(process, QStringLiteral("DDR/Write"), QStringLiteral("Write(MB/s)"),
                     q.value(0).toLongLong(), q.value(3).toDouble() / kBytesPerMB);
          });
    // NPU_MEM.type is a string id ("app", "device"); memory is bytes, the JSON shows KB.
    table(QStringLiteral("NPU_MEM"),
          {ts, dev, QStringLiteral("type"), QStringLiteral("ddr"), QStringLiteral("hbm")}, [&](QSqlQuery &q) {
              const QString type = m_c.strings.text(q.value(2));
              const QString owner = type.toLower() == QStringLiteral("app")      ? QStringLiteral("APP")
                                    : type.toLower() == QStringLiteral("device") ? QStringLiteral("Device")
                                                                                 : type;
              const int process = counterProcess(QStringLiteral("NPU MEM"), device(q, 1));
              const double ddr = q.value(3).toDouble() / kBytesPerKB;
              const double hbm = q.value(4).toDouble() / kBytesPerKB;
              const TimeNs t = q.value(0).toLongLong();
              sample(process, owner + QStringLiteral("/DDR"), QStringLiteral("KB"), t, ddr);
              sample(process, owner + QStringLiteral("/HBM"), QStringLiteral("KB"), t, hbm);
              sample(process, owner + QStringLiteral("/Memory"), QStringLiteral("KB"), t, ddr + hbm);
          });
    table(QStringLiteral("ACC_PMU"),
          {ts, dev, QStringLiteral("accId"), QStringLiteral("readBwLevel"), QStringLiteral("writeBwLevel"),
           QStringLiteral("readOstLevel"), QStringLiteral("writeOstLevel")},
          [&](QSqlQuery &q) {
              const int process = counterProcess(QStringLiteral("Acc PMU"), device(q, 1));
              const QString series = QStringLiteral("value acc_id %1").arg(q.value(2).toLongLong());
              const TimeNs t = q.value(0).toLongLong();
              sample(process, QStringLiteral("read_bandwidth"), series, t, q.value(3).toDouble());
              sample(process, QStringLiteral("write_band_width"), series, t, q.value(4).toDouble());
              sample(process, QStringLiteral("read_ost"), series, t, q.value(5).toDouble());
              sample(process, QStringLiteral("write_ost"), series, t, q.value(6).toDouble());
          });
    // Counter tables whose columns differ by chip and version (QoS, network, links): every numeric
    // column besides the time and the ids becomes a series of the table's counter process.
    for (const char *name : {"QOS", "NIC", "ROCE", "HCCS", "PCIE"}) {
        const QString tableName = QString::fromLatin1(name);
        const QStringList all = schema.columns(tableName);
        if (!all.contains(QStringLiteral("timestampNs")))
            continue;
        QStringList values;
        for (const QString &c : all)
            if (c != QStringLiteral("timestampNs") && c != QStringLiteral("deviceId") &&
                c != QStringLiteral("id") && !c.endsWith(QStringLiteral("Id")) &&
                !c.endsWith(QStringLiteral("Name")))
                values << c;
        table(tableName, QStringList{ts, dev} + values, [&](QSqlQuery &q) {
            const int process = counterProcess(tableName, device(q, 1));
            for (int i = 0; i < values.size(); ++i)
                if (!q.value(2 + i).isNull())
                    sample(process, tableName + QLatin1Char('/') + values[i], values[i],
                           q.value(0).toLongLong(), q.value(2 + i).toDouble());
        });
    }
    table(QStringLiteral("SOC_BANDWIDTH_LEVEL"),
          {ts, dev, QStringLiteral("l2BufferBwLevel"), QStringLiteral("mataBwLevel")}, [&](QSqlQuery &q) {
              const int process = counterProcess(QStringLiteral("Stars Soc Info"), device(q, 1));
              sample(process, QStringLiteral("L2 Buffer Bw Level"), QStringLiteral("L2 Buffer Bw Level"),
                     q.value(0).toLongLong(), q.value(2).toDouble());
              sample(process, QStringLiteral("Mata Bw Level"), QStringLiteral("Mata Bw Level"),
                     q.value(0).toLongLong(), q.value(3).toDouble());
          });
}

} // namespace at
