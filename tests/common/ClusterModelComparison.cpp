#include "ClusterModelComparison.h"

#include <QJsonArray>
#include <QTest>

#include <algorithm>
#include <vector>

namespace at::test {

using namespace at::cluster;

std::map<CommOpKey, const CommOp *> opsByKey(const Rank &rank, bool totals)
{
    std::map<CommOpKey, const CommOp *> ops;
    for (const CommOp &op : rank.ops)
        if (op.total == totals)
            ops[{op.step, op.name, op.group}] = &op;
    return ops;
}

std::map<MatrixLinkKey, const MatrixLink *> linksByKey(const Rank &rank)
{
    std::map<MatrixLinkKey, const MatrixLink *> links;
    for (const MatrixLink &l : rank.links)
        links[{l.step, l.opKey, l.group, l.src, l.dst}] = &l;
    return links;
}

namespace {

void compareSteps(const Rank &got, const Rank &want, BreakdownSource source)
{
    QCOMPARE(got.steps.size(), want.steps.size());
    for (std::size_t s = 0; s < got.steps.size(); ++s) {
        const RankStep &a = got.steps[s], &b = want.steps[s];
        QCOMPARE(a.source, source);
        QCOMPARE(a.step, b.step);
        QCOMPARE(a.computing, b.computing);
        QCOMPARE(a.communicationNotOverlapped, b.communicationNotOverlapped);
        QCOMPARE(a.overlapped, b.overlapped);
        QCOMPARE(a.communication, b.communication);
        QCOMPARE(a.free, b.free);
        QCOMPARE(a.stage, b.stage);
        QCOMPARE(a.bubble, b.bubble);
        QCOMPARE(a.communicationNotOverlappedExcludeReceive, b.communicationNotOverlappedExcludeReceive);
        QCOMPARE(a.preparing, b.preparing);
        QCOMPARE(a.hasPreparing, b.hasPreparing);
    }
}

void compareTransport(const TransportBandwidth &got, const TransportBandwidth &want,
                      RankComparison::Transports how)
{
    QCOMPARE(got.sizeMb, want.sizeMb);
    QCOMPARE(got.time, want.time);
    QCOMPARE(got.largePacketRatio, want.largePacketRatio);
    if (how == RankComparison::Transports::AsListed) {
        QCOMPARE(got.bandwidthGbps, want.bandwidthGbps);
        QCOMPARE(got.sizes.size(), want.sizes.size());
        for (std::size_t k = 0; k < want.sizes.size(); ++k) {
            QCOMPARE(got.sizes[k].count, want.sizes[k].count);
            QCOMPARE(got.sizes[k].time, want.sizes[k].time);
        }
        return;
    }
    QCOMPARE(got.effectiveBandwidth(), want.effectiveBandwidth());
    auto sizes = got.sizes, wanted = want.sizes;
    const auto bySize = [](const PacketBucket &x, const PacketBucket &y) { return x.sizeMb < y.sizeMb; };
    std::sort(sizes.begin(), sizes.end(), bySize);
    std::sort(wanted.begin(), wanted.end(), bySize);
    QCOMPARE(sizes.size(), wanted.size());
    for (std::size_t k = 0; k < sizes.size(); ++k) {
        QCOMPARE(sizes[k].sizeMb, wanted[k].sizeMb);
        QCOMPARE(sizes[k].count, wanted[k].count);
        QCOMPARE(sizes[k].time, wanted[k].time);
    }
}

void compareOps(const Rank &got, const Rank &want, RankComparison::Transports how)
{
    const auto gotOps = opsByKey(got, false), wantOps = opsByKey(want, false);
    QCOMPARE(gotOps.size(), wantOps.size());
    QVERIFY(gotOps.size() > 10);
    for (const auto &[key, w] : wantOps) {
        QVERIFY2(gotOps.count(key), qPrintable(std::get<1>(key)));
        const CommOp &a = *gotOps.at(key);
        QCOMPARE(a.p2p, w->p2p);
        QCOMPARE(a.startAbsolute, w->startAbsolute);
        QCOMPARE(a.elapse, w->elapse);
        QCOMPARE(a.transit, w->transit);
        QCOMPARE(a.wait, w->wait);
        QCOMPARE(a.synchronization, w->synchronization);
        QCOMPARE(a.idle, w->idle);
        QCOMPARE(a.waitRatio, w->waitRatio);
        QCOMPARE(a.synchronizationRatio, w->synchronizationRatio);
        QCOMPARE(a.bandwidth.size(), w->bandwidth.size());
        for (const TransportBandwidth &t : w->bandwidth) {
            const TransportBandwidth *b = a.transport(t.transport);
            QVERIFY2(b, qPrintable(t.transport));
            compareTransport(*b, t, how);
            if (QTest::currentTestFailed())
                return;
        }
    }
}

void compareLinks(const Rank &got, const Rank &want)
{
    const auto gotLinks = linksByKey(got), wantLinks = linksByKey(want);
    QCOMPARE(gotLinks.size(), wantLinks.size());
    for (const auto &[key, w] : wantLinks) {
        QVERIFY(gotLinks.count(key));
        const MatrixLink &a = *gotLinks.at(key);
        QCOMPARE(a.srcLocal, w->srcLocal);
        QCOMPARE(a.dstLocal, w->dstLocal);
        QCOMPARE(a.transport, w->transport);
        QCOMPARE(a.sizeMb, w->sizeMb);
        QCOMPARE(a.time, w->time);
        QCOMPARE(a.bandwidthGbps, w->bandwidthGbps);
        QCOMPARE(a.opName, w->opName);
    }
}

} // namespace

void compareRankContents(const Rank &got, const Rank &want, const RankComparison &how)
{
    compareSteps(got, want, how.stepSource);
    if (QTest::currentTestFailed())
        return;
    compareOps(got, want, how.transports);
    if (QTest::currentTestFailed())
        return;
    compareLinks(got, want);
}

QJsonObject withoutSourceFields(QJsonObject json, const QStringList &moreRankFields)
{
    json.remove(QLatin1String("root"));
    QJsonArray ranks = json[QLatin1String("ranks")].toArray();
    for (qsizetype i = 0; i < ranks.size(); ++i) {
        QJsonObject r = ranks[i].toObject();
        for (const char *key :
             {"folder", "has_timeline", "peak_memory_mb", "peak_memory_component", "peak_memory_time_us"})
            r.remove(QLatin1String(key));
        for (const QString &key : moreRankFields)
            r.remove(key);
        QJsonArray steps = r[QLatin1String("steps")].toArray();
        for (qsizetype s = 0; s < steps.size(); ++s) {
            QJsonObject step = steps[s].toObject();
            step.remove(QLatin1String("source"));
            steps[s] = step;
        }
        r[QLatin1String("steps")] = steps;
        ranks[i] = r;
    }
    json[QLatin1String("ranks")] = ranks;
    return json;
}

} // namespace at::test
