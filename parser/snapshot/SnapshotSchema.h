#pragma once

// The machinery of the snapshot's field layout (SnapshotLayout.h is the table itself): a record type's
// fields in order, each with its kind, drive the writer, the reader and the validator alike, so that a
// new model field is one line in the table. Kinds are types with static members (no virtual call per
// value): minBytes (the least a value takes in the file, what element counts are checked against
// before anything is allocated), write, read (from untrusted bytes: a bad value fails the reader) and
// valid (the index and range checks the viewer relies on).

#include "TraceModel.h"
#include "snapshot/SnapshotBytes.h"
#include "snapshot/SnapshotColumns.h"

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace at::snapshot::schema {

// What the validator checks a decoded model's indices against.
struct Bounds
{
    std::size_t strings = 0, groups = 0, processes = 0, threads = 0, counters = 0, flows = 0, sources = 0;
    const std::vector<ThreadInfo> *threadList = nullptr;
    // The innermost record that failed its checks (for the reason), set once.
    mutable const char *failed = nullptr;

    bool ref(SliceRef r) const
    {
        return r.thread >= 0 && static_cast<std::size_t>(r.thread) < threads &&
               r.index < (*threadList)[static_cast<std::size_t>(r.thread)].slices.size();
    }
    bool refOrNone(SliceRef r) const { return r.thread == -1 || ref(r); }
    // The loader keeps every time within ±2^62 ns, so sums of two (start + duration, origin + t)
    // cannot overflow; a snapshot must not bring larger ones in.
    static bool time(TimeNs t) { return t > -kTimeLimit && t < kTimeLimit; }
    static constexpr TimeNs kTimeLimit = TimeNs(1) << 62;
};

// Where a section is read from: its bytes, and the column stream its columns are claimed from.
struct Input
{
    ByteReader &r;
    ColumnClaims *columns = nullptr;
};

// A field of a record: its kind and how to reach it (a member pointer, or a function returning a
// reference to it). The writer reaches fields through the same accessors and only reads them.
template <typename K, typename Get> struct Field
{
    using Kind = K;
    Get get;
};
template <typename K, typename Get> constexpr Field<K, Get> field(Get get)
{
    return {get};
}
template <typename F> using KindOf = typename std::decay_t<F>::Kind;

// Specialised per record type (SnapshotLayout.h): `static constexpr const char *name` and
// `static constexpr auto fields = std::tuple{field<Kind>(&T::member), ...}`; optionally
// `static bool check(const Bounds &, const T &)` for checks across fields.
template <typename T> struct Schema;

template <typename T, typename Fn> void forEachField(Fn &&fn)
{
    std::apply([&](const auto &...f) { (fn(f), ...); }, Schema<T>::fields);
}

template <typename F, typename T> decltype(auto) valueOf(const F &f, T &x)
{
    return std::invoke(f.get, x);
}
template <typename F, typename T> decltype(auto) valueOf(const F &f, const T &x)
{
    return std::invoke(f.get, const_cast<T &>(x)); // read only: the writer's access through the same getter
}

template <typename T> constexpr std::size_t recordMinBytes()
{
    return std::apply([](const auto &...f) { return (std::size_t(0) + ... + KindOf<decltype(f)>::minBytes); },
                      Schema<T>::fields);
}

template <typename T> void writeRecord(ByteWriter &w, const T &x)
{
    forEachField<T>([&](const auto &f) { KindOf<decltype(f)>::write(w, valueOf(f, x)); });
}

template <typename T> void readRecord(Input &in, T &x)
{
    forEachField<T>([&](const auto &f) { KindOf<decltype(f)>::read(in, valueOf(f, x)); });
}

template <typename T> bool validRecord(const Bounds &b, const T &x)
{
    bool ok = true;
    forEachField<T>([&](const auto &f) { ok = ok && KindOf<decltype(f)>::valid(b, valueOf(f, x)); });
    if constexpr (requires { Schema<T>::check(b, x); })
        ok = ok && Schema<T>::check(b, x);
    if (!ok && !b.failed)
        b.failed = Schema<T>::name;
    return ok;
}

// ---------------------------------------------------------------- kinds

struct Unchecked
{
    template <typename T> static bool valid(const Bounds &, const T &) { return true; }
};

// A fixed-width little-endian number (Wire: its type in the file).
template <typename Wire> struct Scalar : Unchecked
{
    static constexpr std::size_t minBytes = sizeof(Wire), width = sizeof(Wire);
    static constexpr bool delta = false;
    template <typename T> static void write(ByteWriter &w, const T &v)
    {
        if constexpr (std::is_same_v<Wire, double>)
            w.f64(v);
        else if constexpr (sizeof(Wire) == 1)
            w.u8(static_cast<std::uint8_t>(v));
        else if constexpr (sizeof(Wire) == 4)
            w.u32(static_cast<std::uint32_t>(static_cast<Wire>(v)));
        else
            w.u64(static_cast<std::uint64_t>(static_cast<Wire>(v)));
    }
    template <typename T> static void read(Input &in, T &v)
    {
        if constexpr (std::is_same_v<Wire, double>)
            v = in.r.f64();
        else if constexpr (sizeof(Wire) == 1)
            v = static_cast<T>(in.r.u8());
        else if constexpr (sizeof(Wire) == 4)
            v = static_cast<T>(static_cast<Wire>(in.r.u32()));
        else
            v = static_cast<T>(static_cast<Wire>(in.r.u64()));
    }
    // The value of a field stored field after field (Columnar), from its `width` bytes.
    template <typename T> static T fromBits(std::uint64_t bits)
    {
        return static_cast<T>(static_cast<Wire>(bits));
    }
};
using U8 = Scalar<std::uint8_t>;
using I32 = Scalar<std::int32_t>;
using U32 = Scalar<std::uint32_t>;
using I64 = Scalar<std::int64_t>;
using U64 = Scalar<std::uint64_t>;
using F64 = Scalar<double>;

struct Finite : F64
{
    static bool valid(const Bounds &, double v) { return std::isfinite(v); }
};
// A time or duration relative to the model origin.
struct Time : I64
{
    static bool valid(const Bounds &, TimeNs t) { return Bounds::time(t); }
};
// A 64-bit field stored as the difference to the previous element's (Columnar only).
template <typename Base> struct Delta : Base
{
    static constexpr bool delta = true;
};
struct Id : U32 // a StringId
{
    static bool valid(const Bounds &b, StringId id) { return id < b.strings; }
};
// An index into one of the model's tables.
template <std::size_t Bounds::*Count> struct IndexInto : I32
{
    static bool valid(const Bounds &b, int i) { return i >= 0 && static_cast<std::size_t>(i) < b.*Count; }
};
using GroupIndex = IndexInto<&Bounds::groups>;
using ProcessIndex = IndexInto<&Bounds::processes>;
using ThreadIndex = IndexInto<&Bounds::threads>;
using CounterIndex = IndexInto<&Bounds::counters>;
struct FlowNumber : U32
{
    static bool valid(const Bounds &b, std::uint32_t flow) { return flow < b.flows; }
};

struct Bool : Unchecked
{
    static constexpr std::size_t minBytes = 1;
    static void write(ByteWriter &w, bool v) { w.u8(v ? 1 : 0); }
    static void read(Input &in, bool &v)
    {
        const std::uint8_t b = in.r.u8();
        if (b > 1)
            in.r.fail();
        v = b == 1;
    }
};
// An enum stored as a u8, up to its last value Max.
template <auto Max> struct Enum : Unchecked
{
    using E = decltype(Max);
    static constexpr std::size_t minBytes = 1;
    static void write(ByteWriter &w, E v) { w.u8(static_cast<std::uint8_t>(v)); }
    static void read(Input &in, E &v)
    {
        const std::uint8_t b = in.r.u8();
        if (b > static_cast<std::uint8_t>(Max))
            in.r.fail();
        v = static_cast<E>(b);
    }
};
struct Text : Unchecked
{
    static constexpr std::size_t minBytes = 8;
    static void write(ByteWriter &w, const QString &v) { w.string(v); }
    static void read(Input &in, QString &v) { v = in.r.string(); }
};
struct Texts : Unchecked
{
    static constexpr std::size_t minBytes = 8;
    static void write(ByteWriter &w, const QStringList &v) { w.strings(v); }
    static void read(Input &in, QStringList &v) { v = in.r.strings(); }
};
struct TextPairs : Unchecked
{
    static constexpr std::size_t minBytes = 8;
    static void write(ByteWriter &w, const QList<QPair<QString, QString>> &v)
    {
        w.u64(static_cast<std::uint64_t>(v.size()));
        for (const auto &p : v) {
            w.string(p.first);
            w.string(p.second);
        }
    }
    static void read(Input &in, QList<QPair<QString, QString>> &v)
    {
        v.clear();
        const std::size_t n = in.r.count(16);
        for (std::size_t i = 0; i < n && in.r.ok(); ++i) {
            QString key = in.r.string();
            QString value = in.r.string();
            v.append({key, value});
        }
    }
};
struct OptionalI64 : Unchecked
{
    static constexpr std::size_t minBytes = 9;
    static void write(ByteWriter &w, const std::optional<std::int64_t> &v)
    {
        w.u8(v ? 1 : 0);
        w.i64(v.value_or(0));
    }
    static void read(Input &in, std::optional<std::int64_t> &v)
    {
        const std::uint8_t has = in.r.u8();
        const std::int64_t value = in.r.i64();
        if (has > 1)
            in.r.fail();
        v = has ? std::optional<std::int64_t>(value) : std::nullopt;
    }
};
struct Key // a LaneKey
{
    static constexpr std::size_t minBytes = 12;
    static void write(ByteWriter &w, const LaneKey &k)
    {
        w.i64(k.number);
        w.u32(k.text);
    }
    static void read(Input &in, LaneKey &k)
    {
        k.number = in.r.i64();
        k.text = in.r.u32();
    }
    static bool valid(const Bounds &b, const LaneKey &k) { return k.text < b.strings; }
};
struct Ref // a SliceRef that must name a slice
{
    static constexpr std::size_t minBytes = 8;
    static void write(ByteWriter &w, SliceRef r)
    {
        w.i32(r.thread);
        w.u32(r.index);
    }
    static void read(Input &in, SliceRef &r)
    {
        r.thread = in.r.i32();
        r.index = in.r.u32();
    }
    static bool valid(const Bounds &b, SliceRef r) { return b.ref(r); }
};
struct RefOrNone : Ref
{
    static bool valid(const Bounds &b, SliceRef r) { return b.refOrNone(r); }
};

// A nested record (its own Schema).
template <typename T> struct Record
{
    static constexpr std::size_t minBytes = recordMinBytes<T>();
    static void write(ByteWriter &w, const T &x) { writeRecord(w, x); }
    static void read(Input &in, T &x) { readRecord(in, x); }
    static bool valid(const Bounds &b, const T &x) { return validRecord(b, x); }
};

// A count, then the elements one after the other. Elements are read in place (claims may point
// into them) into a vector reserved once from the checked count.
template <typename Element> struct List
{
    static constexpr std::size_t minBytes = 8;
    template <typename V> static void write(ByteWriter &w, const V &v)
    {
        w.u64(v.size());
        for (const auto &x : v)
            Element::write(w, x);
    }
    template <typename V> static void read(Input &in, V &v)
    {
        const std::size_t n = in.r.count(Element::minBytes);
        v.clear();
        v.reserve(n);
        for (std::size_t i = 0; i < n && in.r.ok(); ++i)
            Element::read(in, v.emplace_back());
    }
    template <typename V> static bool valid(const Bounds &b, const V &v)
    {
        for (const auto &x : v)
            if (!Element::valid(b, x))
                return false;
        return true;
    }
};

// A column of doubles: the count, then the values read with one length check.
struct Doubles : Unchecked
{
    static constexpr std::size_t minBytes = 8;
    static void write(ByteWriter &w, const std::vector<double> &v)
    {
        w.u64(v.size());
        for (double x : v)
            w.f64(x);
    }
    static void read(Input &in, std::vector<double> &v) { in.r.column<8>(v, in.r.count(8)); }
};

// Records stored field after field, not record after record: like values side by side compress (and
// decompress) several times better, the sorted ones even more as differences (Delta fields). Read in
// one pass building whole records (a pass per field would miss the cache on every one).
template <typename T> struct Columnar
{
    static constexpr std::size_t kFields = std::tuple_size_v<std::decay_t<decltype(Schema<T>::fields)>>;
    template <std::size_t I>
    using KindAt = KindOf<std::tuple_element_t<I, std::decay_t<decltype(Schema<T>::fields)>>>;
    static constexpr std::size_t rowBytes =
        std::apply([](const auto &...f) { return (std::size_t(0) + ... + KindOf<decltype(f)>::width); },
                   Schema<T>::fields);
    static constexpr std::size_t minBytes = 8;

    static void write(ByteWriter &w, const std::vector<T> &v)
    {
        w.u64(v.size());
        forEachField<T>([&](const auto &f) {
            using K = KindOf<decltype(f)>;
            std::uint64_t previous = 0;
            for (const T &x : v) {
                const auto &value = valueOf(f, x);
                if constexpr (K::delta) {
                    const auto bits = static_cast<std::uint64_t>(value);
                    w.u64(bits - previous);
                    previous = bits;
                } else {
                    K::write(w, value);
                }
            }
        });
    }
    static void read(Input &in, std::vector<T> &v)
    {
        const std::size_t n = in.r.count(rowBytes);
        std::array<const unsigned char *, kFields> columns{};
        [&]<std::size_t... I>(std::index_sequence<I...>)
        {
            ((columns[I] = take(in.r, n, KindAt<I>::width)), ...);
        }
        (std::make_index_sequence<kFields>{});
        v.clear();
        if (!in.r.ok())
            return;
        v.reserve(n);
        std::array<std::uint64_t, kFields> sums{};
        for (std::size_t i = 0; i < n; ++i) {
            T &x = v.emplace_back();
            [&]<std::size_t... I>(std::index_sequence<I...>)
            {
                (load<I>(x, columns[I], i, sums[I]), ...);
            }
            (std::make_index_sequence<kFields>{});
        }
    }
    static bool valid(const Bounds &b, const std::vector<T> &v)
    {
        for (const T &x : v)
            if (!validRecord(b, x))
                return false;
        return true;
    }

private:
    // One field's n values, checked once; null (and r failed) when they are not all there.
    static const unsigned char *take(ByteReader &r, std::size_t n, std::size_t width)
    {
        if (n > r.remaining() / width) {
            r.fail();
            return nullptr;
        }
        return reinterpret_cast<const unsigned char *>(r.raw(n * width).data());
    }
    template <std::size_t I>
    static void load(T &x, const unsigned char *column, std::size_t i, std::uint64_t &sum)
    {
        using K = KindAt<I>;
        auto &value = valueOf(std::get<I>(Schema<T>::fields), x);
        using V = std::decay_t<decltype(value)>;
        const std::uint64_t bits = readLittleEndian<K::width>(column + i * K::width);
        if constexpr (K::delta) {
            sum += bits;
            value = static_cast<V>(sum);
        } else {
            value = K::template fromBits<V>(bits);
        }
    }
};

// One section of the payload: its tag, its name in reasons, and its fields (on the TraceModel).
template <typename Fields> struct Section
{
    std::uint32_t tag;
    const char *name;
    bool claimsColumns; // read on the second core, before the column stream is filled
    Fields fields;
};
template <typename... F>
constexpr auto section(std::uint32_t tag, const char *name, bool claimsColumns, F... fields)
{
    return Section<std::tuple<F...>>{tag, name, claimsColumns, std::tuple<F...>{fields...}};
}

template <typename S> void writeSection(ByteWriter &w, const S &s, const TraceModel &m)
{
    std::apply([&](const auto &...f) { (KindOf<decltype(f)>::write(w, valueOf(f, m)), ...); }, s.fields);
}
template <typename S> void readSection(Input &in, const S &s, TraceModel &m)
{
    std::apply([&](const auto &...f) { (KindOf<decltype(f)>::read(in, valueOf(f, m)), ...); }, s.fields);
}
template <typename S> bool validSection(const Bounds &b, const S &s, const TraceModel &m)
{
    bool ok = true;
    std::apply([&](const auto &...f) { ((ok = ok && KindOf<decltype(f)>::valid(b, valueOf(f, m))), ...); },
               s.fields);
    return ok;
}

// Section tags ("STRS" etc. as little-endian u32s).
constexpr std::uint32_t tag(const char (&t)[5])
{
    return static_cast<std::uint32_t>(static_cast<unsigned char>(t[0])) |
           static_cast<std::uint32_t>(static_cast<unsigned char>(t[1])) << 8 |
           static_cast<std::uint32_t>(static_cast<unsigned char>(t[2])) << 16 |
           static_cast<std::uint32_t>(static_cast<unsigned char>(t[3])) << 24;
}

} // namespace at::snapshot::schema
