// core/StringPool: interning, id stability, and views that stay valid while the pool grows.

#include "StringPool.h"

#include <QTest>

#include <random>
#include <string>
#include <vector>

using at::StringId;
using at::StringPool;

class TestCoreStringPool : public QObject
{
    Q_OBJECT

private slots:
    void emptyStringIsIdZero()
    {
        StringPool pool;
        QCOMPARE(pool.size(), std::size_t(1));
        QCOMPARE(pool.intern(""), StringId(0));
        QCOMPARE(pool.intern(std::string_view()), StringId(0));
        QCOMPARE(pool.view(0), std::string_view());
        QCOMPARE(pool.find(""), StringId(0));
        QCOMPARE(pool.size(), std::size_t(1));
    }

    void internIsIdempotent()
    {
        StringPool pool;
        const StringId a = pool.intern("aten::conv2d");
        const StringId b = pool.intern("Conv2D");
        QVERIFY(a != 0 && b != 0 && a != b);
        QCOMPARE(pool.intern("aten::conv2d"), a);
        QCOMPARE(pool.intern(std::string("Conv2D")), b);
        QCOMPARE(pool.find("Conv2D"), b);
        QCOMPARE(pool.find("conv2d"), StringPool::kNotFound); // case matters
        QCOMPARE(pool.size(), std::size_t(3));
        QCOMPARE(pool.view(a), std::string_view("aten::conv2d"));
    }

    void utf8AndEmbeddedNul()
    {
        StringPool pool;
        const StringId cn = pool.intern("算子执行");
        QCOMPARE(pool.qstring(cn), QStringLiteral("算子执行"));
        const std::string withNul("a\0b", 3);
        const StringId n = pool.intern(withNul);
        QVERIFY(n != pool.intern("a"));
        QCOMPARE(pool.view(n).size(), std::size_t(3));
        QCOMPARE(pool.find(withNul), n);
        // ";\r\n" separators are kept byte for byte.
        const StringId dims = pool.intern("1,3;\r\n64;\r\n");
        QCOMPARE(pool.qstring(dims), QStringLiteral("1,3;\r\n64;\r\n"));
    }

    // Views taken early must still be valid (and equal) after many more strings, including large
    // ones that get blocks of their own, were added.
    void viewsStayValid()
    {
        StringPool pool;
        std::mt19937 rng(7);
        std::vector<std::string> texts;
        std::vector<StringId> ids;
        std::vector<std::string_view> views;
        for (int i = 0; i < 60000; ++i) {
            std::string s;
            if (i % 5000 == 17)
                s.assign(100000 + static_cast<std::size_t>(i), static_cast<char>('a' + i % 26)); // > block/4
            else
                s = "name_" + std::to_string(i) + std::string(rng() % 40, 'x');
            texts.push_back(s);
            ids.push_back(pool.intern(s));
            views.push_back(pool.view(ids.back()));
        }
        QCOMPARE(pool.size(), texts.size() + 1);
        for (std::size_t i = 0; i < texts.size(); ++i) {
            QCOMPARE(views[i], std::string_view(texts[i])); // the early view still reads right
            QCOMPARE(pool.view(ids[i]), std::string_view(texts[i]));
            QCOMPARE(pool.find(texts[i]), ids[i]);
        }
        QVERIFY(pool.bytesUsed() > 1'000'000);
    }

    // append() (the snapshot reader's path) skips the lookup; intern() and find() still see the
    // appended texts afterwards, and interning after appends neither duplicates nor renumbers.
    void appendedTextsAreFoundLater()
    {
        StringPool pool;
        const StringId a = pool.append("Conv2D");
        const StringId b = pool.append("flow 18446744073709551615");
        QCOMPARE(a, StringId(1));
        QCOMPARE(b, StringId(2));
        QCOMPARE(pool.find("Conv2D"), a);
        const StringId c = pool.append("MatMul");
        QCOMPARE(pool.intern("MatMul"), c);
        QCOMPARE(pool.intern("flow 18446744073709551615"), b);
        const StringId d = pool.intern("Add");
        QCOMPARE(d, StringId(4));
        QCOMPARE(pool.size(), std::size_t(5));
        QCOMPARE(pool.find("Add"), d);
        QCOMPARE(pool.view(b), std::string_view("flow 18446744073709551615"));
    }
};

QTEST_GUILESS_MAIN(TestCoreStringPool)
#include "tst_core_stringpool.moc"
