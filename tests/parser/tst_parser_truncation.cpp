// A file cut off while it was written (FORMATS.md §2.1 "Truncation", §2.11 item 3): copies of the
// level1 rank0 trace cut at ten byte offsets inside events (and at event boundaries) must keep every
// complete event before the cut and warn with the file name and the byte offset of the cut event.
//
// Expected numbers from python3: the byte span of each top-level event was found with
// json.JSONDecoder().raw_decode over the file decoded as latin-1 (1 char = 1 byte), then for a cut at
// byte c: complete = [e for e in spans if e.end <= c], counted by ph; the cut event starts at the
// first span with end > c.

#include "ParserTestUtil.h"

#include <QTest>

using at::TimeNs;

class TestParserTruncation : public QObject
{
    Q_OBJECT

    QTemporaryDir tmp;
    QByteArray full;

private slots:
    void initTestCase()
    {
        QVERIFY(tmp.isValid());
        full = pt::readFile(pt::samplePath(pt::kLevel1Rank0));
        QCOMPARE(full.size(), qsizetype(2218825));
    }

    void cutInsideEvent_data()
    {
        QTest::addColumn<qsizetype>("cut"); // bytes kept
        QTest::addColumn<int>("total");     // complete events before the cut
        QTest::addColumn<int>("x");
        QTest::addColumn<int>("c");
        QTest::addColumn<int>("s");
        QTest::addColumn<int>("f");
        QTest::addColumn<int>("m");
        QTest::addColumn<qsizetype>("eventStart"); // offset of the '{' of the cut event
        // name: where inside the event the cut falls
        QTest::newRow("just the opening brace")
            << qsizetype(65203) << 40 << 40 << 0 << 0 << 0 << 0 << qsizetype(65202);
        QTest::newRow("after a backslash in a string")
            << qsizetype(220216) << 109 << 109 << 0 << 0 << 0 << 0 << qsizetype(220005);
        QTest::newRow("inside the ts digits")
            << qsizetype(443748) << 646 << 646 << 0 << 0 << 0 << 0 << qsizetype(443668);
        QTest::newRow("inside a numeric dur")
            << qsizetype(688031) << 1380 << 1120 << 0 << 159 << 101 << 0 << qsizetype(687910);
        QTest::newRow("inside a key")
            << qsizetype(931744) << 2533 << 2152 << 0 << 186 << 186 << 9 << qsizetype(931729);
        QTest::newRow("after a colon")
            << qsizetype(1109361) << 3713 << 2461 << 800 << 186 << 186 << 80 << qsizetype(1109298);
        QTest::newRow("inside args") << qsizetype(1353794) << 5131 << 3013 << 1488 << 278 << 272 << 80
                                     << qsizetype(1353666);
        QTest::newRow("after an opening quote")
            << qsizetype(1597600) << 6360 << 3747 << 1760 << 395 << 378 << 80 << qsizetype(1597489);
        QTest::newRow("middle of the args object")
            << qsizetype(1841626) << 7660 << 4114 << 2686 << 396 << 384 << 80 << qsizetype(1841447);
        QTest::newRow("all but the closing brace")
            << qsizetype(2152356) << 9682 << 4384 << 4421 << 396 << 401 << 80 << qsizetype(2152224);
    }

    void cutInsideEvent()
    {
        QFETCH(qsizetype, cut);
        QFETCH(int, total);
        QFETCH(int, x);
        QFETCH(int, c);
        QFETCH(int, s);
        QFETCH(int, f);
        QFETCH(int, m);
        QFETCH(qsizetype, eventStart);
        const QString name = QStringLiteral("cut_%1.json").arg(cut);
        const QString path = pt::writeFile(tmp, name, full.left(cut));
        const at::LoadResult r = pt::load(path);
        QVERIFY2(r.model, qPrintable(r.error));
        const auto &counts = r.model->eventCounts();
        QCOMPARE(counts.total(), std::size_t(total));
        QCOMPARE(counts.complete, std::size_t(x));
        QCOMPARE(counts.counter, std::size_t(c));
        QCOMPARE(counts.flowStart, std::size_t(s));
        QCOMPARE(counts.flowEnd, std::size_t(f));
        QCOMPARE(counts.metadata, std::size_t(m));
        QCOMPARE(r.model->sliceCount(), std::size_t(x));
        QVERIFY2(pt::hasWarning(*r.model, {path, QStringLiteral("byte %1").arg(eventStart)}),
                 qPrintable(pt::warningsText(*r.model)));
        // Once the first counter sample (the file's first C event, "1736408883573887.920", its
        // earliest moment) is in, the origin is the full file's.
        if (c > 0)
            QCOMPARE(r.model->origin(), TimeNs(1736408883573887920));
    }

    void cutAtEventBoundary_data()
    {
        QTest::addColumn<qsizetype>("cut");
        QTest::addColumn<int>("total");
        // python: spans[5000].end == 1322421 (5001 events end at or before it); +1 keeps the ','.
        QTest::newRow("after a closing brace") << qsizetype(1322421) << 5001;
        QTest::newRow("after the comma") << qsizetype(1322422) << 5001;
        // Only the final ']' missing: every event is there.
        QTest::newRow("no closing bracket") << qsizetype(2218824) << 10112;
    }

    void cutAtEventBoundary()
    {
        QFETCH(qsizetype, cut);
        QFETCH(int, total);
        const QString path = pt::writeFile(tmp, QStringLiteral("boundary_%1.json").arg(cut), full.left(cut));
        const at::LoadResult r = pt::load(path);
        QVERIFY2(r.model, qPrintable(r.error));
        QCOMPARE(r.model->eventCounts().total(), std::size_t(total));
        QVERIFY2(pt::hasWarning(*r.model, {path, QStringLiteral("not closed")}),
                 qPrintable(pt::warningsText(*r.model)));
    }

    // A cut copy gives the same slices as the full file for the events it kept.
    void keptEventsIdentical()
    {
        const auto whole = pt::loadOk(pt::samplePath(pt::kLevel1Rank0));
        const QString path = pt::writeFile(tmp, QStringLiteral("keep.json"), full.left(1109361));
        const auto part = pt::loadOk(path);
        QVERIFY(whole && part);
        QCOMPARE(part->origin(), whole->origin());
        // Every slice of the part exists in the whole at the same absolute time (per thread key).
        std::size_t checked = 0;
        for (std::size_t t = 0; t < part->threads().size(); ++t) {
            const auto &info = part->threads()[t];
            const auto &pinfo = part->processes()[static_cast<std::size_t>(info.process)];
            const int wp = pt::processWithPid(*whole, pinfo.pid.number);
            const int wt = pt::threadWithTid(*whole, wp, info.tid.number);
            QVERIFY(wt >= 0);
            for (std::uint32_t i = 0; i < info.slices.size(); ++i) {
                const QString name = part->sliceName({static_cast<std::int32_t>(t), i});
                const at::SliceRef w =
                    pt::sliceAtAbsolute(*whole, wt, name, part->origin() + info.slices.start(i));
                QVERIFY2(w.isValid(), qPrintable(name));
                QCOMPARE(pt::table(*whole, w).duration(w.index), info.slices.duration(i));
                ++checked;
            }
        }
        QVERIFY(checked > 2000);
    }
};

QTEST_GUILESS_MAIN(TestParserTruncation)
#include "tst_parser_truncation.moc"
