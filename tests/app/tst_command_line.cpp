#include "CommandLine.h"
#include "TestPaths.h"

#include "TestSupport.h"

#include <QFile>
#include <QProcess>
#include <QTest>

using namespace at;

// The command line as a table of modes (app/CommandLine.cpp): the parser, --help, the README's usage block
// and the choice of QCoreApplication / QApplication all come from it; errors come back, never exit.
class TestCommandLine : public QObject
{
    Q_OBJECT

    static ParsedCommandLine parse(const QStringList &arguments)
    {
        return parseCommandLine(QStringList{QStringLiteral("ascend-timeline")} + arguments);
    }

    static QString flag(const char *name) { return QStringLiteral("--") + QLatin1String(name); }

    // The arguments that give `mode` with a plausible value (and the options it requires).
    static QStringList modeArguments(const CommandLineMode &mode)
    {
        QStringList arguments{flag(mode.flag.name)};
        if (mode.flag.valueName)
            arguments << QStringLiteral("1,2");
        return arguments;
    }

private Q_SLOTS:
    void helpIsTheTable()
    {
        const ParsedCommandLine help = parse({QStringLiteral("--help")});
        QCOMPARE(help.exitCode.value_or(-1), 0);
        QVERIFY(help.error.isEmpty());
        QCOMPARE(help.output, commandLineHelp());
        QVERIFY(help.output.endsWith(commandLineUsage()));
        // Every mode has its usage entry, with each option it takes; every global option has its entry.
        for (const CommandLineMode &mode : commandLineModes()) {
            const QString head = QStringLiteral("\nascend-timeline ") + flag(mode.flag.name);
            const qsizetype at = help.output.indexOf(head);
            QVERIFY2(at >= 0, mode.flag.name);
            // (A long synopsis wraps: the entry runs to the next "ascend-timeline".)
            const qsizetype next = help.output.indexOf(QStringLiteral("\nascend-timeline "), at + 1);
            const QString entry = help.output.mid(at + 1, next - at - 1);
            for (const ModeOption &option : mode.options)
                QVERIFY2(entry.contains(flag(option.name)), qPrintable(entry));
        }
        for (const CommandLineOption &option : globalCommandLineOptions())
            QVERIFY2(help.output.contains(QStringLiteral("\nascend-timeline ") + flag(option.name)),
                     option.name);
        // Every mode option is taken by some mode (else it could never be given).
        for (const CommandLineOption &option : modeCommandLineOptions()) {
            bool taken = false;
            for (const CommandLineMode &mode : commandLineModes())
                for (const ModeOption &o : mode.options)
                    taken = taken || QLatin1String(o.name) == QLatin1String(option.name);
            QVERIFY2(taken, option.name);
        }
        // The binary prints exactly this.
        QProcess process;
        process.start(at::test::appBinary(), {QStringLiteral("--help")});
        QVERIFY(process.waitForFinished(30000));
        QCOMPARE(process.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(process.readAllStandardOutput()), commandLineHelp());
        QVERIFY(process.readAllStandardError().isEmpty());
    }

    void readmeUsageIsTheTable()
    {
        QFile readme((at::test::sourceDir() + QStringLiteral("/README.md")));
        QVERIFY(readme.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(readme.readAll());
        const QString begin = QStringLiteral(
            "<!-- usage: generated from app/CommandLine.cpp (ascend-timeline --help prints it) -->\n```\n");
        const QString end = QStringLiteral("```\n<!-- end of usage -->");
        const qsizetype from = text.indexOf(begin), to = text.indexOf(end);
        QVERIFY(from >= 0 && to > from);
        const QString block = text.mid(from + begin.size(), to - from - begin.size());
        if (block != commandLineUsage())
            qWarning().noquote() << "README.md's usage block should be:\n" << commandLineUsage();
        QCOMPARE(block, commandLineUsage());
    }

    // Two modes together are an error naming both, for every pair but the one the table allows
    // (--screenshot takes --compare-steps: the compare window).
    void twoModesAreAnError()
    {
        const std::vector<CommandLineMode> &modes = commandLineModes();
        int pairs = 0;
        for (const CommandLineMode &a : modes) {
            for (const CommandLineMode &b : modes) {
                if (&a == &b)
                    continue;
                const ParsedCommandLine r =
                    parse(modeArguments(a) + modeArguments(b) + QStringList{QStringLiteral("trace.json")});
                const auto takes = [](const CommandLineMode &mode, const CommandLineMode &other) {
                    bool taken = false;
                    for (const ModeOption &o : mode.options)
                        taken = taken || QLatin1String(o.name) == QLatin1String(other.flag.name);
                    return taken;
                };
                if (takes(a, b) || takes(b, a)) {
                    QVERIFY2(!r.exitCode, qPrintable(r.error));
                    QCOMPARE(r.mode, takes(a, b) ? &a : &b);
                    continue;
                }
                ++pairs;
                QCOMPARE(r.exitCode.value_or(-1), 2);
                QVERIFY2(r.error.contains(flag(a.flag.name)) && r.error.contains(flag(b.flag.name)),
                         qPrintable(r.error));
                QVERIFY(!r.mode);
                // main() then runs headless: the message needs no display.
                QCOMPARE(commandLineRuntime(QStringList{QStringLiteral("x")} + modeArguments(a) +
                                            modeArguments(b)),
                         CommandLineRuntime::Headless);
            }
        }
        QVERIFY(pairs >= 100);
        const ParsedCommandLine compare = parse(
            {QStringLiteral("--screenshot"), QStringLiteral("out.png"), QStringLiteral("--compare-steps"),
             QStringLiteral("2,3"), QStringLiteral("--against"), QStringLiteral("b"), QStringLiteral("a")});
        QVERIFY(!compare.exitCode);
        QCOMPARE(QLatin1String(compare.mode->flag.name), QLatin1String("screenshot"));
        QCOMPARE(compare.options.compareSteps, QStringLiteral("2,3"));
        QCOMPARE(compare.options.against, QStringLiteral("b"));
        QCOMPARE(compare.options.paths, QStringList{QStringLiteral("a")});
    }

    // Bad values come back as errors (this process would be gone if the parser exited).
    void parseErrorsReturn_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        const auto s = [](const char *text) { return QString::fromUtf8(text); };
        QTest::newRow("size") << QStringList{s("--screenshot"), s("o.png"), s("--size"), s("9x99999")} << 2
                              << s("--size must be WIDTHxHEIGHT with each side from 1 to 8192 pixels "
                                   "(e.g. 1600x1000), not '9x99999'");
        QTest::newRow("source") << QStringList{s("--summary"), s("--source"), s("xml"), s("p")} << 2
                                << s("--source must be 'db', 'text' or 'raw', not 'xml'");
        QTest::newRow("memory-limit") << QStringList{s("--memory-limit"), s("lots")} << 2
                                      << s("--memory-limit must be a size such as 8G or 512M, not 'lots'");
        QTest::newRow("tiny memory-limit")
            << QStringList{s("--summary"), s("--memory-limit"), s("1K"), s("p")} << 2
            << s("--memory-limit must be at least 4 MiB (the viewer itself needs that much), not '1K'");
        QTest::newRow("cache and no-cache") << QStringList{s("--cache"), s("/tmp/c"), s("--no-cache")} << 2
                                            << s("--cache and --no-cache contradict each other");
        QTest::newRow("empty cache") << QStringList{s("--cluster"), s("--cache"), s(" "), s("p")} << 2
                                     << s("--cache needs a folder");
        QTest::newRow("empty steps")
            << QStringList{s("--compare-steps"), QString(), s("p")} << 2
            << s("--compare-steps needs two steps A,B (each N or GROUP:N, e.g. 2,3)");
        QTest::newRow("ops alone") << QStringList{s("--ops"), s("p")} << 2 << s("--ops needs --cluster");
        QTest::newRow("json alone") << QStringList{s("--json"), s("p")} << 2
                                    << s("--json needs --summary, --advise, --overview, --memory, --cluster, "
                                         "--query, --query-file or --diff");
        QTest::newRow("option of another mode") << QStringList{s("--summary"), s("--csv"), s("o.csv"), s("p")}
                                                << 2 << s("--summary does not take --csv");
        QTest::newRow("unknown option")
            << QStringList{s("--sumary"), s("p")} << 1 << s("Unknown option 'sumary'.");
        QTest::newRow("missing value")
            << QStringList{s("p"), s("--export-json")} << 1 << s("Missing value after '--export-json'.");
    }
    void parseErrorsReturn()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const ParsedCommandLine r = parse(arguments);
        QCOMPARE(r.exitCode.value_or(-1), exitCode);
        QCOMPARE(r.error, message);
        QVERIFY(r.output.isEmpty());
    }

    void valuesReachTheOptions()
    {
        const ParsedCommandLine r =
            parse({QStringLiteral("--chart"), QStringLiteral("top-kernels"), QStringLiteral("--out=c.png"),
                   QStringLiteral("--size"), QStringLiteral("800x500"), QStringLiteral("--source"),
                   QStringLiteral("DB"), QStringLiteral("--no-cache"), QStringLiteral("p")});
        QVERIFY2(!r.exitCode, qPrintable(r.error));
        QCOMPARE(QLatin1String(r.mode->flag.name), QLatin1String("chart"));
        QVERIFY(r.mode->needsWidgets);
        QCOMPARE(r.options.chart, QStringLiteral("top-kernels"));
        QCOMPARE(r.options.out, QStringLiteral("c.png"));
        QCOMPARE(r.options.size, QSize(800, 500));
        QCOMPARE(r.options.load.preferredSource, PreferredSource::Database);
        QVERIFY(r.options.noCache && !r.options.load.useSnapshotCache);
        QCOMPARE(r.options.paths, QStringList{QStringLiteral("p")});
        const ParsedCommandLine window = parse({QStringLiteral("--theme"), QStringLiteral("dark"),
                                                QStringLiteral("a.json"), QStringLiteral("b.json")});
        QVERIFY(!window.exitCode);
        QVERIFY(!window.mode);
        QCOMPARE(window.options.theme, QStringLiteral("dark"));
        QCOMPARE(window.options.paths.size(), 2);
        const ParsedCommandLine version = parse({QStringLiteral("-v")});
        QCOMPARE(version.exitCode.value_or(-1), 0);
        QVERIFY(version.output.startsWith(QCoreApplication::applicationName() + QLatin1Char(' ')));
    }

    // main() picks QCoreApplication / offscreen QApplication / the window from the raw arguments.
    void runtimeComesFromTheTable()
    {
        const auto runtime = [](const QStringList &arguments) {
            return commandLineRuntime(QStringList{QStringLiteral("ascend-timeline")} + arguments);
        };
        for (const CommandLineMode &mode : commandLineModes())
            QCOMPARE(runtime(modeArguments(mode)),
                     mode.needsWidgets ? CommandLineRuntime::Offscreen : CommandLineRuntime::Headless);
        QCOMPARE(runtime({}), CommandLineRuntime::Window);
        // A mode's option without a mode is refused: that message needs no display either.
        QCOMPARE(runtime({QStringLiteral("--ops"), QStringLiteral("p")}), CommandLineRuntime::Headless);
        QCOMPARE(runtime({QStringLiteral("--memory-limit"), QStringLiteral("8G"), QStringLiteral("t.json")}),
                 CommandLineRuntime::Window); // not --memory
        QCOMPARE(runtime({QStringLiteral("--help"), QStringLiteral("--screenshot"), QStringLiteral("o.png")}),
                 CommandLineRuntime::Headless);
        QCOMPARE(runtime({QStringLiteral("--screenshot=o.png"), QStringLiteral("--compare-steps"),
                          QStringLiteral("2,3")}),
                 CommandLineRuntime::Offscreen);
        // An option's value is not a mode, as the parser reads it.
        QCOMPARE(runtime({QStringLiteral("--theme"), QStringLiteral("--summary")}),
                 CommandLineRuntime::Window);
        const ParsedCommandLine theme = parse({QStringLiteral("--theme"), QStringLiteral("--summary")});
        QVERIFY(!theme.exitCode && !theme.mode);
        QCOMPARE(theme.options.theme, QStringLiteral("--summary"));
    }
};

QTEST_GUILESS_MAIN(TestCommandLine)
#include "tst_command_line.moc"
