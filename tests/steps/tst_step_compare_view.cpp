#include "ChangeColors.h"
#include "StepCompareView.h"
#include "TableExport.h"
#include "TestSupport.h"
#include "TiledModel.h"

#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

using namespace at;

// The compare view on two real steps (step 51 = step 50 with one kernel name twice as slow):
// synchronised panes, colours, partner highlight, the diff tables and alignment.
class TestStepCompareView : public QObject
{
    Q_OBJECT
    std::unique_ptr<TraceModel> m_level1;
    std::unique_ptr<TraceModel> m_model; // two steps
    QString m_slow;
    std::unique_ptr<StepCompareView> m_view;

    // Pane time at the left edge minus its alignment offset: equal in both panes when in sync.
    static TimeNs relativeStart(TimelineView *pane, TimeNs origin)
    {
        return pane->zoom()->range().start - origin;
    }

    std::size_t slowPair() const
    {
        const auto &kernels = m_view->comparison().kernels;
        for (std::size_t k = 0; k < kernels.size(); ++k)
            if (kernels[k].matched() && kernels[k].name == m_slow)
                return k;
        return kernels.size();
    }

    void checkInSync()
    {
        TimelineView *a = m_view->basePane(), *b = m_view->comparisonPane();
        QCOMPARE(a->zoom()->range().width(), b->zoom()->range().width());
        QCOMPARE(relativeStart(a, m_view->baseStep().begin()),
                 relativeStart(b, m_view->comparisonStep().begin()));
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_level1 = test::loadOrFail(test::samplePath(
            QStringLiteral("msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt")));
        QVERIFY(m_level1);
        // The longest compute kernel that occurs more than once.
        QHash<QString, int> count;
        TimeNs longest = 0;
        for (const KernelRecord &k : m_level1->kernels().rows())
            ++count[m_level1->strings().qstring(k.name)];
        for (const KernelRecord &k : m_level1->kernels().rows()) {
            const QString name = m_level1->strings().qstring(k.name);
            if (count[name] > 1 && k.joined() && k.duration > longest &&
                !name.startsWith(QLatin1String("hcom"))) {
                longest = k.duration;
                m_slow = name;
            }
        }
        QVERIFY(!m_slow.isEmpty());
        test::TileOptions options;
        options.copies = 2;
        options.duration = [this](int copy, SliceRef ref, TimeNs d) {
            return copy == 1 && m_level1->sliceName(ref) == m_slow ? 2 * d : d;
        };
        m_model = test::tileModel(*m_level1, options);
        QCOMPARE(m_model->steps().size(), std::size_t(2));
    }

    void init()
    {
        m_view = std::make_unique<StepCompareView>();
        m_view->resize(1400, 1000);
        m_view->setSteps(m_model.get(), 0, m_model.get(), 1, QStringLiteral("step 50"),
                         QStringLiteral("step 51"));
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
    }
    void cleanup() { m_view.reset(); }

    void panesStartAlignedOnStepStart()
    {
        checkInSync();
        QVERIFY(m_view->basePane()->zoom()->range().start <= m_view->baseStep().begin());
        QCOMPARE(m_view->basePane()->timeOrigin(), m_view->baseStep().begin());
        QCOMPARE(m_view->comparisonPane()->timeOrigin(), m_view->comparisonStep().begin());
        QVERIFY(m_view->summary()->text().contains(QStringLiteral("Computing")));
        // AT_SCREENSHOT_DIR=... saves what the view looks like (for docs and eyeballing).
        if (qEnvironmentVariableIsSet("AT_SCREENSHOT_DIR")) {
            m_view->showPair(slowPair());
            m_view->grab().save(qEnvironmentVariable("AT_SCREENSHOT_DIR") +
                                QStringLiteral("/compare-view.png"));
        }
        QVERIFY(m_view->summary()->text().contains(
            QStringLiteral("%1 matched, 0 only in base, 0 only in comparison")
                .arg(m_view->comparison().matched)));
    }

    void keysMoveBothPanes()
    {
        TimelineView *a = m_view->basePane(), *b = m_view->comparisonPane();
        const TimeNs width = a->zoom()->range().width();
        a->setFocus();
        QTest::keyClick(a, Qt::Key_W);
        QVERIFY(a->zoom()->range().width() < width);
        checkInSync();
        const TimeNs before = relativeStart(b, m_view->comparisonStep().begin());
        QTest::keyClick(a, Qt::Key_A);
        QVERIFY(relativeStart(b, m_view->comparisonStep().begin()) < before);
        checkInSync();
        // Keys in the lower pane drive the upper one the same way.
        b->setFocus();
        QTest::keyClick(b, Qt::Key_W);
        QTest::keyClick(b, Qt::Key_D);
        QTest::keyClick(b, Qt::Key_D);
        checkInSync();
        // Ctrl+wheel and a middle-button drag too.
        const QPoint at(TimelineView::kLabelWidth + 300, 200);
        QWheelEvent wheel(at, b->viewport()->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton,
                          Qt::ControlModifier, Qt::NoScrollPhase, false);
        const TimeNs w = a->zoom()->range().width();
        QApplication::sendEvent(b->viewport(), &wheel);
        QVERIFY(a->zoom()->range().width() < w);
        checkInSync();
        QTest::mousePress(a->viewport(), Qt::MiddleButton, {}, at);
        QTest::mouseMove(a->viewport(), at + QPoint(-150, 0));
        QTest::mouseRelease(a->viewport(), Qt::MiddleButton, {}, at + QPoint(-150, 0));
        checkInSync();
    }

    void kernelsColouredByChange()
    {
        const std::size_t pair = slowPair();
        QVERIFY(pair < m_view->comparison().kernels.size());
        const KernelPair &p = m_view->comparison().kernels[pair];
        QCOMPARE(p.comparisonDuration, 2 * p.baseDuration);
        m_view->showPair(pair);
        // Zoom until the kernel is wide enough to be drawn on its own, then read its pixels.
        TimelineView *b = m_view->comparisonPane();
        for (int i = 0; i < 60 && b->sliceRect(p.comparison).width() < 12; ++i) {
            b->zoom()->zoomIn(b->zoom()->range().center());
            m_view->showPair(pair);
        }
        const QRectF r = b->sliceRect(p.comparison);
        QVERIFY2(r.width() >= 12, "kernel too narrow");
        const QImage image = b->viewport()->grab().toImage();
        const QColor c = image.pixelColor(r.center().toPoint() + QPoint(0, 4));
        const QColor expected = durationChangeScale(1.0); // 2× slower: full red
        QVERIFY2(std::abs(c.red() - expected.red()) < 12 && std::abs(c.green() - expected.green()) < 12,
                 qPrintable(c.name()));
        // An unchanged matched kernel is neutral.
        const auto &kernels = m_view->comparison().kernels;
        for (const KernelPair &k : kernels)
            if (k.matched() && k.diff() == 0) {
                QCOMPARE(durationChangeColor(k), durationChangeScale(0));
                break;
            }
    }

    void selectingAKernelHighlightsItsPartner()
    {
        const std::size_t pair = slowPair();
        const KernelPair &p = m_view->comparison().kernels[pair];
        TimelineView *a = m_view->basePane(), *b = m_view->comparisonPane();
        m_view->showPair(pair);
        for (int i = 0; i < 60 && a->sliceRect(p.base).width() < 12; ++i) {
            a->zoom()->zoomIn(a->zoom()->range().center());
            m_view->showPair(pair);
        }
        a->selectSlice({}, false);
        b->setHighlightedSlice({});
        // Click the base kernel in the upper pane: the lower pane outlines its partner and the
        // per-kernel table selects the pair.
        const QPoint center = a->sliceRect(p.base).center().toPoint();
        QTest::mouseClick(a->viewport(), Qt::LeftButton, {}, center);
        QCOMPARE(a->selectedSlice(), p.base);
        QCOMPARE(b->highlightedSlice(), p.comparison);
        const QModelIndex current = m_view->kernelTable()->currentIndex();
        QVERIFY(current.isValid());
        auto *proxy = static_cast<QSortFilterProxyModel *>(m_view->kernelTable()->model());
        QCOMPARE(static_cast<std::size_t>(proxy->mapToSource(current).row()), pair);
        // With nothing selected, hovering a kernel outlines its partner and leaving it clears that.
        a->selectSlice({}, false);
        QCOMPARE(b->highlightedSlice(), SliceRef{});
        QTest::mouseMove(a->viewport(), QPoint(10, center.y()));
        QCOMPARE(b->highlightedSlice(), SliceRef{});
        QTest::mouseMove(a->viewport(), center);
        QCOMPARE(b->highlightedSlice(), p.comparison);
        QTest::mouseMove(a->viewport(), QPoint(10, center.y()));
        QCOMPARE(b->highlightedSlice(), SliceRef{});
    }

    void diffTableRowsShowThePair()
    {
        QTableView *names = m_view->nameTable();
        QCOMPARE(names->model()->rowCount(), static_cast<int>(m_view->comparison().byName.size()));
        // The slowed kernel has the largest |diff|: first row, ratio 2.
        QCOMPARE(names->model()->index(0, 0).data().toString(), m_slow);
        // A plain number as the one formatter writes it (trailing zeros dropped); the CSV keeps "2.000".
        QCOMPARE(names->model()->index(0, 7).data().toString(), QStringLiteral("2"));
        QCOMPARE(names->model()->index(0, 7).data(kExportTextRole).toString(), QStringLiteral("2.000"));
        names->setCurrentIndex(names->model()->index(0, 0));
        const KernelPair &p = m_view->comparison().kernels[slowPair()];
        QCOMPARE(m_view->basePane()->selectedSlice(), p.base);
        QCOMPARE(m_view->comparisonPane()->selectedSlice(), p.comparison);
        // Sorting by ratio (a number column) puts the 2.0 row last ascending.
        names->sortByColumn(7, Qt::AscendingOrder);
        QCOMPARE(names->model()->index(names->model()->rowCount() - 1, 0).data().toString(), m_slow);
    }

    void alignOnSelectedKernel()
    {
        // The last kernel of the slowed name is shifted in step 51 (earlier kernels got longer);
        // aligning on it puts both instances at the same screen x.
        const auto &kernels = m_view->comparison().kernels;
        std::size_t last = kernels.size();
        for (std::size_t k = 0; k < kernels.size(); ++k)
            if (kernels[k].matched() && kernels[k].name == m_slow)
                last = k;
        const KernelPair &p = kernels[last];
        m_view->setAlign(StepCompareView::Align::SelectedKernel);
        m_view->showPair(last);
        TimelineView *a = m_view->basePane(), *b = m_view->comparisonPane();
        const QRectF ra = a->sliceRect(p.base), rb = b->sliceRect(p.comparison);
        QVERIFY(!ra.isNull() && !rb.isNull());
        QVERIFY2(std::abs(ra.left() - rb.left()) <= 1.0,
                 qPrintable(QStringLiteral("%1 vs %2").arg(ra.left()).arg(rb.left())));
        // Back to step starts: the offsets differ again by the kernels' different offsets.
        m_view->setAlign(StepCompareView::Align::StepStart);
        checkInSync();
    }
};

QTEST_MAIN(TestStepCompareView)
#include "tst_step_compare_view.moc"
