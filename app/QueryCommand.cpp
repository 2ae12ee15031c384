// `--query SQL PATH`, `--query-file F.sql PATH`, `--sql-shell PATH` and `--export-sqlite OUT.db PATH` (the
// modes' rows: app/CommandLine.cpp): SQL over the loaded profile through core/query (docs/QUERY.md).
#include "CommandLine.h"

#include "QueryEngine.h"
#include "cluster/ClusterModel.h"
#include "common/MessageText.h"
#include "common/OutputPath.h"

#include <QFile>
#include <QFileInfo>
#include <QTextStream>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

#include <unistd.h>

namespace at {

namespace {

using query::QueryValue;

enum class ResultFormat
{
    Text,
    Csv,
    Json
};

// Bytes to stdout (buffered) or collected for a file written at the end.
class Output
{
public:
    explicit Output(bool toStdout) : m_stdout(toStdout) {}
    void write(const QByteArray &bytes)
    {
        m_buffer += bytes;
        if (m_stdout && m_buffer.size() >= 1 << 16)
            flush();
    }
    bool flush()
    {
        if (!m_stdout)
            return true;
        const bool ok = m_buffer.isEmpty() ||
                        std::fwrite(m_buffer.constData(), 1, static_cast<std::size_t>(m_buffer.size()),
                                    stdout) == static_cast<std::size_t>(m_buffer.size());
        m_buffer.clear();
        m_failed = m_failed || !ok;
        return ok && std::fflush(stdout) == 0;
    }
    bool failed() const { return m_failed; }
    const QByteArray &collected() const { return m_buffer; }

private:
    bool m_stdout;
    bool m_failed = false;
    QByteArray m_buffer;
};

// Shortest text that reads back as the same double.
QByteArray realText(double v)
{
    if (!std::isfinite(v))
        return std::isnan(v) ? QByteArray() : (v > 0 ? QByteArray("inf") : QByteArray("-inf"));
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
    return QByteArray(buffer, static_cast<qsizetype>(result.ptr - buffer));
}

QByteArray plainText(const QueryValue &v)
{
    switch (v.type) {
    case QueryValue::Type::Null:
        return QByteArray();
    case QueryValue::Type::Integer:
        return QByteArray::number(static_cast<qlonglong>(v.integer));
    case QueryValue::Type::Real:
        return realText(v.real);
    case QueryValue::Type::Text:
        return v.bytes;
    case QueryValue::Type::Blob:
        return "x'" + v.bytes.toHex() + "'";
    }
    return QByteArray();
}

QByteArray csvCell(const QByteArray &text)
{
    if (!text.contains(',') && !text.contains('"') && !text.contains('\n') && !text.contains('\r'))
        return text;
    QByteArray quoted = text;
    quoted.replace("\"", "\"\"");
    return '"' + quoted + '"';
}

QByteArray jsonString(const QByteArray &utf8)
{
    QByteArray out;
    out.reserve(utf8.size() + 2);
    out += '"';
    for (const char ch : utf8) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += ch;
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c < 0x20) {
            char escape[8];
            std::snprintf(escape, sizeof escape, "\\u%04x", c);
            out += escape;
        } else {
            out += ch;
        }
    }
    out += '"';
    return out;
}

QByteArray jsonValue(const QueryValue &v)
{
    switch (v.type) {
    case QueryValue::Type::Null:
        return "null";
    case QueryValue::Type::Integer:
        return QByteArray::number(static_cast<qlonglong>(v.integer)); // exact: never through a double
    case QueryValue::Type::Real:
        return std::isfinite(v.real) ? realText(v.real) : QByteArray("null");
    case QueryValue::Type::Text:
        return jsonString(v.bytes);
    case QueryValue::Type::Blob:
        return jsonString(v.bytes.toHex());
    }
    return "null";
}

// Prints each result as it arrives: CSV and JSON row by row; the text table measures its columns on the
// first kMeasuredRows rows and streams the rest with those widths (a wider cell just pushes its line out).
class PrintingSink : public query::QueryResultSink
{
public:
    PrintingSink(ResultFormat format, Output &out) : m_format(format), m_out(out) {}

    bool begin(const QStringList &columns) override
    {
        m_rowsInResult = 0;
        if (m_format == ResultFormat::Csv) {
            QByteArray line;
            for (qsizetype i = 0; i < columns.size(); ++i)
                line += (i ? "," : "") + csvCell(columns[i].toUtf8());
            m_out.write(line + '\n');
        } else if (m_format == ResultFormat::Json) {
            QByteArray line = m_results++ ? "\n{\"columns\": [" : "{\"columns\": [";
            for (qsizetype i = 0; i < columns.size(); ++i)
                line += (i ? ", " : "") + jsonString(columns[i].toUtf8());
            m_out.write(line + "], \"rows\": [");
        } else {
            if (m_results++)
                m_out.write("\n");
            m_header.clear();
            for (const QString &c : columns)
                m_header.push_back(c.toUtf8());
            m_pending.clear();
            m_widths.assign(static_cast<std::size_t>(columns.size()), 0);
            for (qsizetype i = 0; i < columns.size(); ++i)
                m_widths[static_cast<std::size_t>(i)] = static_cast<int>(columns[i].size());
            m_measuring = true;
        }
        return !m_out.failed();
    }

    bool row(const std::vector<QueryValue> &values) override
    {
        ++m_rowsInResult;
        if (m_format == ResultFormat::Csv) {
            QByteArray line;
            for (std::size_t i = 0; i < values.size(); ++i)
                line += (i ? "," : "") + csvCell(plainText(values[i]));
            m_out.write(line + '\n');
        } else if (m_format == ResultFormat::Json) {
            QByteArray line = m_rowsInResult > 1 ? ",\n  [" : "\n  [";
            for (std::size_t i = 0; i < values.size(); ++i)
                line += (i ? ", " : "") + jsonValue(values[i]);
            m_out.write(line + ']');
        } else {
            std::vector<QByteArray> cells;
            std::vector<bool> numeric;
            for (const QueryValue &v : values) {
                cells.push_back(v.type == QueryValue::Type::Null ? QByteArray("NULL") : plainText(v));
                numeric.push_back(v.type == QueryValue::Type::Integer || v.type == QueryValue::Type::Real);
            }
            if (m_measuring) {
                for (std::size_t i = 0; i < cells.size(); ++i)
                    m_widths[i] = std::max(m_widths[i], static_cast<int>(QString::fromUtf8(cells[i]).size()));
                m_pending.push_back({std::move(cells), std::move(numeric)});
                if (m_pending.size() >= kMeasuredRows)
                    flushPending();
            } else {
                printLine(cells, numeric);
            }
        }
        return !m_out.failed();
    }

    void end() override
    {
        if (m_format == ResultFormat::Json)
            m_out.write(m_rowsInResult ? "\n]}\n" : "]}\n");
        else if (m_format == ResultFormat::Text) {
            if (m_measuring)
                flushPending();
            m_out.write(QByteArray::number(static_cast<qlonglong>(m_rowsInResult)) +
                        (m_rowsInResult == 1 ? " row\n" : " rows\n"));
        }
    }

private:
    static constexpr std::size_t kMeasuredRows = 1000;
    struct PendingRow
    {
        std::vector<QByteArray> cells;
        std::vector<bool> numeric;
    };

    void flushPending()
    {
        m_measuring = false;
        printLine(m_header, std::vector<bool>(m_header.size(), false));
        QByteArray rule;
        for (std::size_t i = 0; i < m_widths.size(); ++i)
            rule += (i ? "  " : "") + QByteArray(m_widths[i], '-');
        m_out.write(rule + '\n');
        for (const PendingRow &row : m_pending)
            printLine(row.cells, row.numeric);
        m_pending.clear();
    }

    void printLine(const std::vector<QByteArray> &cells, const std::vector<bool> &numeric)
    {
        QByteArray line;
        for (std::size_t i = 0; i < cells.size(); ++i) {
            const int pad = std::max(0, m_widths[i] - static_cast<int>(QString::fromUtf8(cells[i]).size()));
            const bool last = i + 1 == cells.size();
            if (i)
                line += "  ";
            if (numeric[i])
                line += QByteArray(pad, ' ') + cells[i];
            else
                line += cells[i] + (last ? QByteArray() : QByteArray(pad, ' '));
        }
        m_out.write(line + '\n');
    }

    ResultFormat m_format;
    Output &m_out;
    std::int64_t m_rowsInResult = 0;
    int m_results = 0;
    bool m_measuring = false;
    std::vector<QByteArray> m_header;
    std::vector<int> m_widths;
    std::vector<PendingRow> m_pending;
};

// "line 1, column 15: near "form": syntax error" with the line of the SQL and a caret under the column.
void printQueryError(const QString &sql, const query::QueryOutcome &outcome, QTextStream &err)
{
    if (outcome.line <= 0) {
        err << "ascend-timeline: query failed: " << outcome.message << "\n";
        return;
    }
    err << "ascend-timeline: query failed at line " << outcome.line << ", column " << outcome.column << ": "
        << outcome.message << "\n";
    const QString line = sql.split(QLatin1Char('\n')).value(outcome.line - 1);
    err << "  " << line << "\n  " << QString(outcome.column - 1, QLatin1Char(' ')) << "^\n";
}

struct LoadedInput
{
    AnalysisInput input;
    std::unique_ptr<query::QueryEngine> engine;
};

// Loads PATH (a timeline, a result folder or a cluster folder, as --advise does) and sets up the engine.
bool loadQueryInput(const char *mode, const CommandLineOptions &options, QTextStream &err,
                    LoadedInput &loaded)
{
    if (options.paths.size() != 1) {
        err << "ascend-timeline: --" << mode << " needs exactly one PATH\n";
        return false;
    }
    if (!loadAnalysisInput(options.paths.first(), options, err, loaded.input))
        return false;
    for (const QString &warning : loaded.input.model->warnings())
        err << "warning: " << warning << "\n";
    if (loaded.input.cluster)
        for (const QString &warning : loaded.input.cluster->warnings)
            err << "warning: " << warning << "\n";
    loaded.engine = std::make_unique<query::QueryEngine>(*loaded.input.model, loaded.input.cluster);
    if (!loaded.engine->isReady()) {
        err << "ascend-timeline: the query engine could not start: " << loaded.engine->error() << "\n";
        return false;
    }
    return true;
}

} // namespace

int runQuery(const CommandLineOptions &options)
{
    QTextStream err(stderr);
    const char *mode = options.queryFile.isEmpty() ? "query" : "query-file";
    QString sql = options.query;
    if (!options.queryFile.isEmpty()) {
        QFile file(options.queryFile);
        if (!file.open(QIODevice::ReadOnly)) {
            err << "ascend-timeline: cannot read " << options.queryFile << ": " << file.errorString() << "\n";
            return 1;
        }
        sql = QString::fromUtf8(file.readAll());
    }
    if (sql.trimmed().isEmpty()) {
        err << "ascend-timeline: --" << mode << " has no SQL to run\n";
        return 2;
    }
    const bool csv = !options.csvOut.isEmpty();
    if (csv && options.json) {
        err << "ascend-timeline: give --csv or --json, not both\n";
        return 2;
    }
    const bool toFile = csv && options.csvOut != QStringLiteral("-");
    if (toFile && options.paths.size() == 1 &&
        !outsideDataFolders(QStringLiteral("--csv"), options.csvOut, options.paths, err))
        return 2;
    LoadedInput loaded;
    if (!loadQueryInput(mode, options, err, loaded))
        return options.paths.size() != 1 ? 2 : 1;

    Output out(!toFile);
    PrintingSink sink(csv ? ResultFormat::Csv : options.json ? ResultFormat::Json : ResultFormat::Text, out);
    const query::QueryOutcome outcome = loaded.engine->run(sql, sink);
    out.flush();
    if (!outcome.ok) {
        printQueryError(sql, outcome, err);
        return 1;
    }
    if (out.failed()) {
        err << "ascend-timeline: cannot write to the standard output\n";
        return 1;
    }
    if (toFile) {
        if (!writeFileAtomically(options.csvOut, out.collected(), err,
                                 inputFilesOf(*loaded.input.model) << options.paths.first()))
            return 1;
        err << "wrote " << outcome.rows << " rows to " << options.csvOut << "\n";
    }
    return 0;
}

namespace {

void printTables(const query::QueryEngine &engine, QTextStream &out)
{
    QStringList names;
    for (const query::QueryTableInfo &table : engine.tables())
        names << table.name;
    out << names.join(QLatin1Char(' ')) << "\n";
}

void printSchema(const query::QueryEngine &engine, const QString &name, QTextStream &out)
{
    bool any = false;
    for (const query::QueryTableInfo &table : engine.tables()) {
        if (!name.isEmpty() && table.name.compare(name, Qt::CaseInsensitive) != 0)
            continue;
        QString statement = table.createStatement();
        if (table.view)
            statement.replace(QStringLiteral("CREATE TABLE"), QStringLiteral("CREATE VIEW"));
        out << statement << ";\n";
        any = true;
    }
    if (!any)
        out << "no table named " << name << "\n";
}

const char *const kShellHelp = ".tables             the tables and views\n"
                               ".schema [TABLE]     their columns\n"
                               ".mode text|csv|json how results are printed\n"
                               ".history            the statements run so far\n"
                               ".quit               leave (also .exit or end of input)\n"
                               "SQL statements end with ';' and may span lines.\n";

} // namespace

int runSqlShell(const CommandLineOptions &options)
{
    QTextStream err(stderr);
    QTextStream out(stdout);
    LoadedInput loaded;
    if (!loadQueryInput("sql-shell", options, err, loaded))
        return options.paths.size() != 1 ? 2 : 1;
    const bool interactive = isatty(STDIN_FILENO) != 0;
    if (interactive)
        out << "ascend-timeline SQL shell on " << options.paths.first() << " (.help for help)\n";
    ResultFormat format = ResultFormat::Text;
    QStringList history;
    QString pending;
    int failures = 0;
    std::string line;
    while (true) {
        if (interactive) {
            out << (pending.isEmpty() ? "sql> " : "...> ");
            out.flush();
        }
        if (!std::getline(std::cin, line))
            break;
        const QString text = QString::fromStdString(line);
        const QString trimmed = text.trimmed();
        if (pending.isEmpty() && trimmed.startsWith(QLatin1Char('.'))) {
            const QStringList words = trimmed.split(QLatin1Char(' '), Qt::SkipEmptyParts);
            const QString command = words.first();
            if (command == QStringLiteral(".quit") || command == QStringLiteral(".exit"))
                break;
            if (command == QStringLiteral(".tables"))
                printTables(*loaded.engine, out);
            else if (command == QStringLiteral(".schema"))
                printSchema(*loaded.engine, words.value(1), out);
            else if (command == QStringLiteral(".history"))
                for (qsizetype i = 0; i < history.size(); ++i)
                    out << (i + 1) << "  " << history[i] << "\n";
            else if (command == QStringLiteral(".mode") && words.size() == 2 &&
                     (words[1] == QStringLiteral("text") || words[1] == QStringLiteral("csv") ||
                      words[1] == QStringLiteral("json")))
                format = words[1] == QStringLiteral("csv")    ? ResultFormat::Csv
                         : words[1] == QStringLiteral("json") ? ResultFormat::Json
                                                              : ResultFormat::Text;
            else if (command == QStringLiteral(".help"))
                out << kShellHelp;
            else
                out << "unknown command " << printableText(command) << " (.help lists them)\n";
            out.flush();
            continue;
        }
        pending += (pending.isEmpty() ? QString() : QStringLiteral("\n")) + text;
        if (!query::QueryEngine::isCompleteStatement(pending))
            continue;
        const QString sql = pending;
        pending.clear();
        history << sql.simplified();
        out.flush();
        Output output(true);
        PrintingSink sink(format, output);
        const query::QueryOutcome outcome = loaded.engine->run(sql, sink);
        output.flush();
        if (!outcome.ok) {
            ++failures;
            QTextStream errors(stdout); // in the session's flow, where the user reads the results
            printQueryError(sql, outcome, errors);
        }
    }
    if (!pending.trimmed().isEmpty())
        err << "ascend-timeline: the input ended inside a statement (missing ';'): " << pending.simplified()
            << "\n";
    if (interactive)
        out << "\n";
    return stdoutWritten(out, err) ? (failures || !pending.trimmed().isEmpty() ? 1 : 0) : 1;
}

int runExportSqlite(const CommandLineOptions &options)
{
    QTextStream err(stderr);
    if (options.paths.size() != 1) {
        err << "ascend-timeline: --export-sqlite needs exactly one PATH\n";
        return 2;
    }
    if (!outsideDataFolders(QStringLiteral("--export-sqlite"), options.exportSqlite, options.paths, err))
        return 2;
    LoadedInput loaded;
    if (!loadQueryInput("export-sqlite", options, err, loaded))
        return 1;
    QString error;
    const std::optional<QByteArray> bytes = loaded.engine->exportDatabase(&error);
    if (!bytes) {
        err << "ascend-timeline: cannot export " << options.paths.first() << ": " << error << "\n";
        return 1;
    }
    if (!writeFileAtomically(options.exportSqlite, *bytes, err,
                             inputFilesOf(*loaded.input.model) << options.paths.first()))
        return 1;
    err << "wrote " << loaded.engine->tables().size() << " tables (" << bytes->size() << " bytes) to "
        << options.exportSqlite << "\n";
    return 0;
}

} // namespace at
