// Helpers of the chunk kernels (ChunkKernel.h) and the run-time choice between them. Compiled for
// the default target only.
#include "ChunkKernel.h"

#include "Time.h"

#include <QByteArrayView>
#include <QString>
#include <QStringDecoder>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <string>

namespace at::jsonkernel {

namespace generic {
const Kernel &get();
}
#if defined(AT_HAVE_HASWELL_KERNEL)
namespace haswell {
const Kernel &get();
}
#endif

void ChunkResult::clear()
{
    events.clear();
    samples.clear();
    arena.clear();
    stringBegin.assign(1, 0);
    if (table.empty()) {
        table.assign(4096, 0);
        tableMask = 4095;
    } else {
        std::fill(table.begin(), table.end(), 0);
    }
    eventsRead = badEvents = firstBadOffset = badTimes = argsProblems = 0;
    repairedEvents = firstRepairedOffset = saturatedDurations = firstSaturatedOffset = 0;
    firstBadProblem = nullptr;
    cancelled = false;
}

namespace {

std::size_t hashText(std::string_view text)
{
    return std::hash<std::string_view>()(text);
}

void growTable(ChunkResult &out)
{
    const std::size_t size = out.table.size() * 2;
    out.table.assign(size, 0);
    out.tableMask = static_cast<std::uint32_t>(size - 1);
    for (std::uint32_t local = 1; local <= out.stringCount(); ++local) {
        std::size_t slot = hashText(out.string(local)) & out.tableMask;
        while (out.table[slot] != 0)
            slot = (slot + 1) & out.tableMask;
        out.table[slot] = local;
    }
}

} // namespace

std::uint32_t internLocal(ChunkResult &out, std::string_view text)
{
    std::size_t slot = hashText(text) & out.tableMask;
    while (std::uint32_t local = out.table[slot]) {
        if (out.string(local) == text)
            return local;
        slot = (slot + 1) & out.tableMask;
    }
    out.arena.insert(out.arena.end(), text.begin(), text.end());
    out.stringBegin.push_back(static_cast<std::uint32_t>(out.arena.size()));
    const auto local = static_cast<std::uint32_t>(out.stringCount());
    out.table[slot] = local;
    if (out.stringCount() * 2 > out.table.size())
        growTable(out);
    return local;
}

ParsedEvent &appendEvent(ChunkResult &out)
{
    return out.events.emplace_back();
}

void truncate(ChunkResult &out, std::size_t events, std::size_t samples)
{
    out.events.resize(events);
    out.samples.resize(samples);
}

namespace {

// The common shapes, exactly: up to 16 integer digits (epoch microseconds have 16) that fit int64
// ns, optionally '.' and 1 to 3 fraction digits (a whole number of ns, so truncating and rounding
// agree). Anything else goes to the full parser.
bool fastMicros(std::string_view text, std::int64_t *ns)
{
    std::size_t i = 0;
    std::int64_t whole = 0;
    while (i < text.size() && i < 16 && text[i] >= '0' && text[i] <= '9')
        whole = whole * 10 + (text[i++] - '0');
    if (i == 0 || whole > (std::numeric_limits<std::int64_t>::max() - 999) / 1000)
        return false;
    std::int64_t fraction = 0;
    if (i < text.size()) {
        if (text[i] != '.' || text.size() - i < 2 || text.size() - i > 4)
            return false;
        std::int64_t scale = 100;
        for (++i; i < text.size(); ++i, scale /= 10) {
            if (text[i] < '0' || text[i] > '9')
                return false;
            fraction += (text[i] - '0') * scale;
        }
    }
    *ns = whole * 1000 + fraction;
    return true;
}

} // namespace

bool parseTimeNs(std::string_view text, bool roundHalfUp, std::int64_t *ns)
{
    if (fastMicros(text, ns))
        return true;
    const auto value =
        parseMicrosToNs(text, roundHalfUp ? FractionRounding::HalfUp : FractionRounding::Truncate);
    if (!value)
        return false;
    *ns = *value;
    return true;
}

bool parseInteger(std::string_view text, std::int64_t *value)
{
    // Plain non-negative integers of up to 18 digits (pids, tids) without the general parser.
    if (!text.empty() && text.size() <= 18) {
        std::int64_t v = 0;
        std::size_t i = 0;
        for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i)
            v = v * 10 + (text[i] - '0');
        if (i == text.size()) {
            *value = v;
            return true;
        }
    }
    const auto parsed = parseInt64(text);
    *value = parsed.value_or(0);
    return parsed.has_value();
}

void appendCounterArg(std::vector<CounterArg> &args, std::string_view key, double value)
{
    args.push_back({key, value});
}

void appendCounterSamples(ChunkResult &out, ParsedEvent &event, const std::vector<CounterArg> &args,
                          std::string_view accId)
{
    event.firstSample = static_cast<std::uint32_t>(out.samples.size());
    event.sampleCount = static_cast<std::uint32_t>(args.size());
    thread_local std::string seriesKeyText;
    for (const CounterArg &arg : args) {
        std::uint32_t key;
        if (accId.empty()) {
            key = internLocal(out, arg.key);
        } else {
            seriesKeyText.assign(arg.key);
            seriesKeyText += " acc_id ";
            seriesKeyText += accId;
            key = internLocal(out, seriesKeyText);
        }
        out.samples.push_back({key, arg.value});
    }
}

void recordBadEvent(ChunkResult &out, std::size_t offset, const char *problem)
{
    if (out.badEvents++ == 0) {
        out.firstBadOffset = offset;
        out.firstBadProblem = problem;
    }
}

namespace {

// True when every byte of the file decodes as GB18030 (a file written in a Chinese ANSI code page).
// Streams the file in pieces and discards the text: memory stays small even for a large file.
bool decodesAsGb18030(const char *data, std::size_t size)
{
    if (!data)
        return false;
    QStringDecoder decoder("GB18030");
    if (!decoder.isValid())
        return false;
    constexpr std::size_t kPiece = 1 << 20;
    for (std::size_t at = 0; at < size && !decoder.hasError(); at += kPiece) {
        const QString piece =
            decoder.decode(QByteArrayView(data + at, static_cast<qsizetype>(std::min(kPiece, size - at))));
        (void)piece;
    }
    return !decoder.hasError();
}

int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// The code unit of the \uXXXX escape at text[i] ('\'), or -1.
int escapedUnit(const std::string &text, std::size_t i)
{
    if (i + 6 > text.size() || text[i] != '\\' || text[i + 1] != 'u')
        return -1;
    int unit = 0;
    for (std::size_t k = i + 2; k < i + 6; ++k) {
        const int digit = hexDigit(text[k]);
        if (digit < 0)
            return -1;
        unit = unit * 16 + digit;
    }
    return unit;
}

// Replaces \uD800-\uDFFF escapes that are not a high + low pair by \uFFFD (same length); true if any.
bool replaceLoneSurrogates(std::string &text)
{
    bool changed = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\\')
            continue;
        const int unit = escapedUnit(text, i);
        if (unit < 0) {
            ++i; // an escape of another kind (\\, \"): skip the escaped character
            continue;
        }
        const bool high = unit >= 0xD800 && unit <= 0xDBFF;
        const bool low = unit >= 0xDC00 && unit <= 0xDFFF;
        if (high) {
            const int next = escapedUnit(text, i + 6);
            if (next >= 0xDC00 && next <= 0xDFFF) {
                i += 11; // a valid pair
                continue;
            }
        }
        if (high || low) {
            text.replace(i + 2, 4, "FFFD");
            changed = true;
        }
        i += 5;
    }
    return changed;
}

} // namespace

bool repairEventText(TextRepair &repair, std::string_view event, std::vector<char> &out)
{
    const QByteArrayView bytes(event.data(), static_cast<qsizetype>(event.size()));
    std::string text;
    bool changed = false;
    if (bytes.isValidUtf8()) {
        text.assign(event);
    } else {
        std::call_once(repair.decided,
                       [&repair] { repair.gb18030 = decodesAsGb18030(repair.file, repair.fileSize); });
        QString decoded;
        if (repair.gb18030) {
            QStringDecoder gb("GB18030");
            decoded = gb.decode(bytes);
        } else {
            decoded = QString::fromUtf8(bytes); // each invalid sequence becomes U+FFFD
        }
        text = decoded.toStdString();
        changed = true;
    }
    changed |= replaceLoneSurrogates(text);
    if (!changed)
        return false;
    out.assign(text.begin(), text.end());
    return true;
}

void reserveBuffer(std::vector<char> &buffer, std::size_t size)
{
    buffer.resize(size);
}

const Kernel &genericKernel()
{
    return generic::get();
}

const Kernel *haswellKernel()
{
#if defined(AT_HAVE_HASWELL_KERNEL)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("pclmul") &&
        __builtin_cpu_supports("popcnt"))
        return &haswell::get();
#endif
    return nullptr;
}

bool genericForced()
{
    const char *forced = std::getenv("AT_JSON_KERNEL");
    return forced && std::strcmp(forced, "generic") == 0;
}

const Kernel &kernel()
{
    static const Kernel *chosen = [] {
        if (genericForced())
            return &genericKernel();
        const Kernel *fast = haswellKernel();
        return fast ? fast : &genericKernel();
    }();
    return *chosen;
}

} // namespace at::jsonkernel
