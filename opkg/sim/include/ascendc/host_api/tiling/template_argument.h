// CANN's tiling-key templates (the devkit's include/utils/tiling/template_argument.h, installed
// as ascendc/host_api/tiling/ and tiling/): an operator declares its kernel's template
// parameters once (ASCENDC_TPL_ARGS_DECL: dtype, format, uint and bool parameters with their
// values), lists the combinations the kernel is compiled for (ASCENDC_TPL_SEL), and the tiling
// function encodes the chosen combination as the tiling key (GET_TPL_TILING_KEY).
//
// The key, as the devkit encodes it: the declared parameters in order, each in its bit width
// from bit 0 up (dtype and format 8 bits holding the value, bool 1 bit, uint `bw` bits holding
// the value's index in the declared list, ranges expanded); a uint value not declared, or more
// than 64 bits in all, gives INVALID_TILING_KEY with a message.
//
// On the device the op compiler instantiates the kernel template for every selected combination
// and picks one by the key. The sim does the same at compile time: in a kernel translation unit
// the declarations and selections are constexpr tables (opkg_sim::tpl), and the sim's kernel
// build adds the extern "C" entry that maps the launch's tiling key onto the instantiation
// (OPKG_SIM_TPL_KERNEL, written after the kernel source by opkg/sim/codegen.py).
#ifndef OPKG_SIM_TEMPLATE_ARGUMENT_H
#define OPKG_SIM_TEMPLATE_ARGUMENT_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <tuple>
#include <utility>

// The devkit's header declares its encoder in namespace AscendC, so a host tiling source that
// includes only this one may say `using namespace AscendC;` (ops-nn's swish_tiling_arch35.cpp).
namespace AscendC {}

#define ASCENDC_TPL_AIV_ONLY 0
#define ASCENDC_TPL_AIC_ONLY 1
#define ASCENDC_TPL_MIX_AIV_1_0 4
#define ASCENDC_TPL_MIX_AIC_1_0 5
#define ASCENDC_TPL_MIX_AIC_1_1 6
#define ASCENDC_TPL_MIX_AIC_1_2 7
#define ASCENDC_TPL_AICORE 8
#define ASCENDC_TPL_VECTORCORE 9
#define ASCENDC_TPL_MIX_AICORE 10
#define ASCENDC_TPL_MIX_VECTOR_CORE 11
#define ASCENDC_TPL_MAX 12

#define ASCENDC_TPL_1_BW 1
#define ASCENDC_TPL_2_BW 2
#define ASCENDC_TPL_4_BW 4
#define ASCENDC_TPL_8_BW 8

#define ASCENDC_TPL_DTYPE 0
#define ASCENDC_TPL_FORMAT 1
#define ASCENDC_TPL_UINT 2
#define ASCENDC_TPL_BOOL 3
constexpr uint32_t ASCENDC_TPL_KERNEL_TYPE = 4;
constexpr uint32_t ASCENDC_TPL_DETERMINISTIC = 5;
constexpr uint32_t ASCENDC_TPL_SHARED_KERNEL_TYPE = 6;

#define ASCENDC_TPL_INPUT_BIAS 100000000
#define ASCENDC_TPL_OUTPUT_BIAS 900000000
#define ASCENDC_TPL_INPUT(x) (ASCENDC_TPL_INPUT_BIAS + (x))
// The native DataType options of ASCENDC_TPL_DATATYPE_DECL/SEL as the devkit documents them
// (C_DT_FLOAT, ...): a parameter's value is the dtype's ge::DataType number, which
// TypeFromId maps back to the C++ type, so each is that number.
#ifndef C_DT_FLOAT
#define C_DT_FLOAT 0
#endif
#ifndef C_DT_FLOAT16
#define C_DT_FLOAT16 1
#endif
#ifndef C_DT_INT8
#define C_DT_INT8 2
#endif
#ifndef C_DT_INT32
#define C_DT_INT32 3
#endif
#ifndef C_DT_UINT8
#define C_DT_UINT8 4
#endif
#ifndef C_DT_INT16
#define C_DT_INT16 6
#endif
#ifndef C_DT_UINT16
#define C_DT_UINT16 7
#endif
#ifndef C_DT_UINT32
#define C_DT_UINT32 8
#endif
#ifndef C_DT_INT64
#define C_DT_INT64 9
#endif
#ifndef C_DT_UINT64
#define C_DT_UINT64 10
#endif
#ifndef C_DT_DOUBLE
#define C_DT_DOUBLE 11
#endif
#ifndef C_DT_BOOL
#define C_DT_BOOL 12
#endif
#ifndef C_DT_COMPLEX64
#define C_DT_COMPLEX64 16
#endif
#ifndef C_DT_BF16
#define C_DT_BF16 27
#endif
#ifndef C_DT_INT4
#define C_DT_INT4 29
#endif
#ifndef C_DT_UINT1
#define C_DT_UINT1 30
#endif
#ifndef C_DT_INT2
#define C_DT_INT2 31
#endif
#ifndef C_DT_COMPLEX32
#define C_DT_COMPLEX32 33
#endif
#ifndef C_DT_HIFLOAT8
#define C_DT_HIFLOAT8 34
#endif
#ifndef C_DT_FLOAT8_E5M2
#define C_DT_FLOAT8_E5M2 35
#endif
#ifndef C_DT_FLOAT8_E4M3FN
#define C_DT_FLOAT8_E4M3FN 36
#endif
#ifndef C_DT_FLOAT4_E2M1
#define C_DT_FLOAT4_E2M1 40
#endif
#ifndef C_DT_FLOAT4_E1M2
#define C_DT_FLOAT4_E1M2 41
#endif
#define ASCENDC_TPL_OUTPUT(x) (ASCENDC_TPL_OUTPUT_BIAS + (x))

// how a uint parameter's values are written: a list, ranges (count, then [lo, hi] pairs), or
// ranges followed by single values
#define ASCENDC_TPL_UI_RANGE 0
#define ASCENDC_TPL_UI_LIST 1
#define ASCENDC_TPL_UI_MIX 2

constexpr uint8_t MAX_BITS_NUM = 64;
constexpr uint64_t INVALID_TILING_KEY = 0XFFFFFFFFFFFFFFFF;

namespace opkg_sim {
namespace tpl {

// A parameter's values are kept as runs of consecutive values, as a uint range declares them
// (opbase's reduce_tiling_key_decl.h declares 0..100 three times), so a range costs one run
// whatever its length, as the devkit's expanded vector has no length limit either.
constexpr size_t kMaxItems = 256;   // items of one UINT selection's text (kind, count, values)
constexpr size_t kMaxRuns = 64;     // runs of one parameter (list values not adjacent to the last)
constexpr size_t kMaxParams = 24;   // parameters of one declaration or selection group (ops-nn's wqbmm v2: 20)
constexpr size_t kMaxGroups = 48;   // ASCENDC_TPL_ARGS_SEL groups of one ASCENDC_TPL_SEL

constexpr bool same_name(const char* a, const char* b) {
    while (*a && *a == *b) { ++a; ++b; }
    return *a == *b;
}

// A selection's values as CANN's op compiler reads them: it preprocesses the kernel (-E,
// ASCENDC_TPL_PRE) and parses each comma-separated item of the text as an integer expression
// (template_tiling.py's safe_parse_value); an item it cannot read, such as a name no header
// defines, is dropped with a log line (ops-nn's clipped_swiglu selects an undefined TPL_FLOOR).
// The sim's kernel build reads the stringized, macro-expanded list the same way.
struct TextValues {
    uint64_t v[kMaxItems] = {};
    size_t n = 0;
    constexpr explicit TextValues(const char* s) {
        while (*s) {
            const char* end = s;
            int depth = 0;
            while (*end && !(depth == 0 && *end == ',')) {
                depth += *end == '(' ? 1 : *end == ')' ? -1 : 0;
                ++end;
            }
            const char* at = s;
            bool ok = true;
            const int64_t x = expr(at, end, ok);
            skip(at, end);
            if (ok && at == end && x >= 0) {
                if (n == kMaxItems) throw "ASCENDC_TPL_UINT_SEL: more items than the sim's table holds (256)";
                v[n++] = uint64_t(x);
            }
            s = *end ? end + 1 : end;
        }
    }
    static constexpr void skip(const char*& p, const char* end) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\n')) ++p;
    }
    // Python's integer expressions over literals: | ^ & << >> + - * / // % unary - + ~ and parens
    static constexpr int64_t expr(const char*& p, const char* end, bool& ok) { return bor(p, end, ok); }
    static constexpr int64_t bor(const char*& p, const char* end, bool& ok) {
        int64_t x = bxor(p, end, ok);
        for (skip(p, end); ok && p < end && *p == '|'; skip(p, end)) { ++p; x |= bxor(p, end, ok); }
        return x;
    }
    static constexpr int64_t bxor(const char*& p, const char* end, bool& ok) {
        int64_t x = band(p, end, ok);
        for (skip(p, end); ok && p < end && *p == '^'; skip(p, end)) { ++p; x ^= band(p, end, ok); }
        return x;
    }
    static constexpr int64_t band(const char*& p, const char* end, bool& ok) {
        int64_t x = shift(p, end, ok);
        for (skip(p, end); ok && p < end && *p == '&'; skip(p, end)) { ++p; x &= shift(p, end, ok); }
        return x;
    }
    static constexpr int64_t shift(const char*& p, const char* end, bool& ok) {
        int64_t x = sum(p, end, ok);
        for (skip(p, end); ok && p + 1 < end && (p[0] == '<' || p[0] == '>') && p[1] == p[0]; skip(p, end)) {
            const bool left = *p == '<';
            p += 2;
            const int64_t y = sum(p, end, ok);
            if (y < 0 || y > 62) ok = false;
            else x = left ? x << y : x >> y;
        }
        return x;
    }
    static constexpr int64_t sum(const char*& p, const char* end, bool& ok) {
        int64_t x = term(p, end, ok);
        for (skip(p, end); ok && p < end && (*p == '+' || *p == '-'); skip(p, end)) {
            const bool plus = *p++ == '+';
            const int64_t y = term(p, end, ok);
            x = plus ? x + y : x - y;
        }
        return x;
    }
    static constexpr int64_t term(const char*& p, const char* end, bool& ok) {
        int64_t x = unary(p, end, ok);
        for (skip(p, end); ok && p < end && (*p == '*' || *p == '/' || *p == '%'); skip(p, end)) {
            const char op = *p++;
            if (op == '/' && p < end && *p == '/') ++p;   // the op compiler floors / and // alike
            const int64_t y = unary(p, end, ok);
            if (op != '*' && y == 0) {
                ok = false;
            } else if (op == '*') {
                x = x * y;
            } else {   // Python's floor division and its modulo, which takes the divisor's sign
                int64_t q = x / y, r = x % y;
                if (r != 0 && ((r < 0) != (y < 0))) { --q; r += y; }
                x = op == '/' ? q : r;
            }
        }
        return x;
    }
    static constexpr int64_t unary(const char*& p, const char* end, bool& ok) {
        skip(p, end);
        if (p < end && (*p == '-' || *p == '+' || *p == '~')) {
            const char op = *p++;
            const int64_t x = unary(p, end, ok);
            return op == '-' ? -x : op == '~' ? ~x : x;
        }
        if (p < end && *p == '(') {
            ++p;
            const int64_t x = expr(p, end, ok);
            skip(p, end);
            if (p < end && *p == ')') ++p;
            else ok = false;
            return x;
        }
        return literal(p, end, ok);
    }
    static constexpr int64_t literal(const char*& p, const char* end, bool& ok) {
        skip(p, end);
        int base = 10;
        if (p + 1 < end && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) { base = 16; p += 2; }
        else if (p + 1 < end && p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) { base = 2; p += 2; }
        else if (p + 1 < end && p[0] == '0' && (p[1] == 'o' || p[1] == 'O')) { base = 8; p += 2; }
        int64_t x = 0;
        int digits = 0;
        const bool lead_zero = base == 10 && p < end && *p == '0';
        for (; p < end; ++p) {
            const char c = *p;
            int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10 : c == '_' ? -2 : -1;
            if (d == -2) continue;
            if (d < 0 || d >= base) break;
            x = x * base + d;
            ++digits;
        }
        // a decimal literal with a leading zero (C's octal 010) is no Python integer either
        const bool word = p < end && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' ||
                                      (*p >= '0' && *p <= '9'));
        if (digits == 0 || word || (lead_zero && digits > 1)) ok = false;
        return x;
    }
};

// One ASCENDC_TPL_*_DECL or *_SEL entry: its values in the devkit's order (ranges expanded,
// then a MIX's single values), n of them.
struct Param {
    const char* name = "";
    uint32_t type = 0;
    uint8_t bw = 0;
    uint64_t lo[kMaxRuns] = {};
    uint64_t hi[kMaxRuns] = {};
    size_t runs = 0;
    size_t n = 0;

    constexpr Param() = default;
    constexpr Param(const char* nm, uint32_t ty, uint8_t width, std::initializer_list<uint64_t> raw)
        : name(nm), type(ty), bw(width) {
        expand(raw.begin(), raw.size());
    }
    constexpr Param(const char* nm, uint32_t ty, uint8_t width, const TextValues& raw)
        : name(nm), type(ty), bw(width) {
        expand(raw.v, raw.n);
    }
    constexpr void expand(const uint64_t* v, size_t count) {
        const uint32_t ty = type;
        if (ty != ASCENDC_TPL_UINT) {
            for (size_t i = 0; i < count; ++i) push(v[i], v[i]);
            return;
        }
        if (count == 0) throw "ASCENDC_TPL_UINT_*: no value kind (ASCENDC_TPL_UI_LIST, _RANGE or _MIX)";
        if (v[0] == ASCENDC_TPL_UI_LIST) {
            for (size_t i = 1; i < count; ++i) push(v[i], v[i]);
            return;
        }
        if (count < 2) throw "ASCENDC_TPL_UINT_*: a range needs its count";
        const size_t ranges = size_t(v[1]);
        if (2 + 2 * ranges > count) throw "ASCENDC_TPL_UINT_*: fewer [lo, hi] pairs than the range count says";
        for (size_t r = 0; r < ranges; ++r)
            if (v[2 + 2 * r] <= v[3 + 2 * r]) push(v[2 + 2 * r], v[3 + 2 * r]);
        if (v[0] == ASCENDC_TPL_UI_MIX)
            for (size_t i = 2 + 2 * ranges; i < count; ++i) push(v[i], v[i]);
    }
    // appends the values [a, b], extending the last run when they continue it
    constexpr void push(uint64_t a, uint64_t b) {
        n += size_t(b - a + 1);
        if (runs > 0 && hi[runs - 1] + 1 == a) {
            hi[runs - 1] = b;
            return;
        }
        if (runs == kMaxRuns)
            throw "ASCENDC_TPL_*: more separate values than the sim's table holds (64 runs of consecutive values)";
        lo[runs] = a;
        hi[runs] = b;
        ++runs;
    }
    // the i-th value (i < n)
    constexpr uint64_t at(size_t i) const {
        for (size_t r = 0; r < runs; ++r) {
            const size_t len = size_t(hi[r] - lo[r] + 1);
            if (i < len) return lo[r] + i;
            i -= len;
        }
        return 0;
    }
    // the position of the first value equal to x, -1 when none is
    constexpr long index_of(uint64_t x) const {
        size_t before = 0;
        for (size_t r = 0; r < runs; ++r) {
            if (lo[r] <= x && x <= hi[r]) return long(before + size_t(x - lo[r]));
            before += size_t(hi[r] - lo[r] + 1);
        }
        return -1;
    }
};

// An ASCENDC_TPL_ARGS_DECL, or one ASCENDC_TPL_ARGS_SEL group: its parameters in order.
struct Params {
    Param p[kMaxParams] = {};
    size_t n = 0;
    constexpr Params() = default;
    constexpr Params(std::initializer_list<Param> ps) {
        for (const Param& x : ps) {
            if (n == kMaxParams) throw "ASCENDC_TPL_ARGS_*: more parameters than the sim's table holds (24)";
            p[n++] = x;
        }
    }
    constexpr const Param* find(const char* name) const {
        for (size_t i = 0; i < n; ++i) if (same_name(p[i].name, name)) return &p[i];
        return nullptr;
    }
};

// An ASCENDC_TPL_SEL: its groups.
struct Selection {
    Params g[kMaxGroups] = {};
    size_t n = 0;
    constexpr Selection() = default;
    constexpr Selection(std::initializer_list<Params> gs) {
        for (const Params& x : gs) {
            if (n == kMaxGroups) throw "ASCENDC_TPL_SEL: more groups than the sim's table holds (48)";
            g[n++] = x;
        }
    }
};

// The tiling key of `args` (one value per declared parameter, in order), as the devkit encodes
// it; `why` gets the reason of an INVALID_TILING_KEY.
constexpr uint64_t encode(const Params& decl, const uint64_t* args, size_t count, const char** why = nullptr,
                          size_t* bad = nullptr) {
    uint64_t key = 0;
    unsigned bits = 0;
    const size_t n = count < decl.n ? count : decl.n;
    for (size_t i = 0; i < n; ++i) {
        const Param& p = decl.p[i];
        uint64_t v = args[i];
        if (p.type == ASCENDC_TPL_UINT) {
            const long at = p.index_of(v);
            if (at < 0) {
                if (why) *why = "is not among the values its ASCENDC_TPL_UINT_DECL declares";
                if (bad) *bad = i;
                return INVALID_TILING_KEY;
            }
            v = uint64_t(at);
        }
        if (bits < 64) key |= v << bits;
        bits += p.bw;
    }
    if (bits > MAX_BITS_NUM) {
        if (why) *why = "the declared parameters take more than 64 bits";
        return INVALID_TILING_KEY;
    }
    return key;
}

inline uint64_t encode_checked(const Params& decl, std::initializer_list<uint64_t> args) {
    const char* why = nullptr;
    size_t bad = 0;
    const uint64_t key = encode(decl, args.begin(), args.size(), &why, &bad);
    if (key == INVALID_TILING_KEY && why) {
        if (bad < decl.n && decl.p[bad].type == ASCENDC_TPL_UINT)
            std::fprintf(stderr, "[ERROR] GET_TPL_TILING_KEY: value %llu of %s %s\n",
                         (unsigned long long)args.begin()[bad], decl.p[bad].name, why);
        else
            std::fprintf(stderr, "[ERROR] GET_TPL_TILING_KEY: %s\n", why);
    }
    return key;
}

// -- the kernel side: the selected combinations, each with its key --------------------------

struct Combo {
    uint64_t key = 0;
    uint64_t v[kMaxParams] = {};
    long kernel_type = -1;   // the group's ASCENDC_TPL_KERNEL_TYPE_SEL, -1 when it has none
};

// The values of declared parameter `i` a selection group allows: the group's own entry of that
// name, else every declared value.
constexpr const Param& group_values(const Params& decl, const Params& group, size_t i) {
    const Param* p = group.find(decl.p[i].name);
    return p ? *p : decl.p[i];
}

constexpr size_t group_count(const Params& decl, const Params& group) {
    size_t total = 1;
    for (size_t i = 0; i < decl.n; ++i) total *= group_values(decl, group, i).n;
    return total;
}

constexpr size_t combo_count(const Params& decl, const Selection& sel) {
    size_t total = 0;
    for (size_t g = 0; g < sel.n; ++g) total += group_count(decl, sel.g[g]);
    return total;
}

template <size_t N>
struct ComboTable {
    Combo c[N == 0 ? 1 : N] = {};
};

template <size_t N>
constexpr ComboTable<N> combos(const Params& decl, const Selection& sel) {
    ComboTable<N> t{};
    size_t at = 0;
    for (size_t g = 0; g < sel.n; ++g) {
        const size_t count = group_count(decl, sel.g[g]);
        for (size_t k = 0; k < count; ++k) {
            size_t rest = k;
            Combo& c = t.c[at++];
            for (size_t i = decl.n; i-- > 0;) {   // the last parameter varies fastest
                const Param& vals = group_values(decl, sel.g[g], i);
                c.v[i] = vals.at(rest % vals.n);
                rest /= vals.n;
            }
            c.key = encode(decl, c.v, decl.n);
            if (const Param* kt = sel.g[g].find("@kernel_type"); kt && kt->n > 0) c.kernel_type = long(kt->at(0));
        }
    }
    return t;
}

template <const Params& Decl, const Selection& Sel>
struct Instances {
    static constexpr size_t count = combo_count(Decl, Sel);
    static constexpr ComboTable<count> table = combos<count>(Decl, Sel);
};

template <const Params& Decl, const Selection& Sel, size_t I, class F, size_t... J>
void call(F& f, std::index_sequence<J...>) {
    f(std::integral_constant<uint64_t, Instances<Decl, Sel>::table.c[I].v[J]>{}...);
}

template <const Params& Decl, const Selection& Sel, class F, size_t... I>
bool dispatch(uint64_t key, F& f, std::index_sequence<I...>) {
    return ((Instances<Decl, Sel>::table.c[I].key == key &&
             (call<Decl, Sel, I>(f, std::make_index_sequence<Decl.n>{}), true)) || ...);
}

// The ASCENDC_TPL_KERNEL_TYPE_SEL of the selected combination whose key is `key` (the core type
// CANN's op compiler builds that instance for), -1 when its group names none or no combination
// has the key.
template <const Params& Decl, const Selection& Sel>
constexpr long kernel_type_of(uint64_t key) {
    for (size_t i = 0; i < Instances<Decl, Sel>::count; ++i)
        if (Instances<Decl, Sel>::table.c[i].key == key) return Instances<Decl, Sel>::table.c[i].kernel_type;
    return -1;
}

// Runs f(integral_constant<uint64_t, v>...) with the values of the selected combination whose
// key is `key`; false when none has it (the device would have no kernel for this key).
template <const Params& Decl, const Selection& Sel, class F>
bool dispatch(uint64_t key, F f) {
    return dispatch<Decl, Sel>(key, f, std::make_index_sequence<Instances<Decl, Sel>::count>{});
}

}  // namespace tpl
}  // namespace opkg_sim

#define ASCENDC_TPL_DTYPE_DECL(x, ...) ::opkg_sim::tpl::Param{#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}}
#define ASCENDC_TPL_DATATYPE_DECL(x, ...) ::opkg_sim::tpl::Param{#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}}
#define ASCENDC_TPL_FORMAT_DECL(x, ...) ::opkg_sim::tpl::Param{#x, ASCENDC_TPL_FORMAT, ASCENDC_TPL_8_BW, {__VA_ARGS__}}
#define ASCENDC_TPL_UINT_DECL(x, bw, ...) ::opkg_sim::tpl::Param{#x, ASCENDC_TPL_UINT, bw, {__VA_ARGS__}}
#define ASCENDC_TPL_BOOL_DECL(x, ...) ::opkg_sim::tpl::Param{#x, ASCENDC_TPL_BOOL, ASCENDC_TPL_1_BW, {__VA_ARGS__}}
#define ASCENDC_TPL_KERNEL_TYPE_DECL(x, ...) \
    ::opkg_sim::tpl::Param{#x, ASCENDC_TPL_SHARED_KERNEL_TYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}}

#define ASCENDC_TPL_DTYPE_SEL(x, ...) ::opkg_sim::tpl::Param{#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}}
#define ASCENDC_TPL_DATATYPE_SEL(x, ...) ::opkg_sim::tpl::Param{#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}}
#define ASCENDC_TPL_FORMAT_SEL(x, ...) ::opkg_sim::tpl::Param{#x, ASCENDC_TPL_FORMAT, ASCENDC_TPL_8_BW, {__VA_ARGS__}}
#define OPKG_SIM_TPL_TEXT_(...) #__VA_ARGS__
#define OPKG_SIM_TPL_TEXT(...) OPKG_SIM_TPL_TEXT_(__VA_ARGS__)
#define ASCENDC_TPL_UINT_SEL(x, ...) \
    ::opkg_sim::tpl::Param{#x, ASCENDC_TPL_UINT, 0, ::opkg_sim::tpl::TextValues(OPKG_SIM_TPL_TEXT(__VA_ARGS__))}
#define ASCENDC_TPL_BOOL_SEL(x, ...) ::opkg_sim::tpl::Param{#x, ASCENDC_TPL_BOOL, ASCENDC_TPL_1_BW, {__VA_ARGS__}}
// not template parameters: how the op compiler builds each instance (core type, determinism,
// the tiling struct it reads), which the sim's one build per variant does not vary; the core
// type is kept (kernel_type_of): an AIC_ONLY instance runs as the cube body
#define ASCENDC_TPL_TILING_STRUCT_SEL(x, ...) ::opkg_sim::tpl::Param{"@tiling_struct", 0, 0, {}}
#define ASCENDC_TPL_KERNEL_TYPE_SEL(x) ::opkg_sim::tpl::Param{"@kernel_type", ASCENDC_TPL_KERNEL_TYPE, 0, {(x)}}
#define ASCENDC_TPL_DETERMINISTIC_SEL(...) ::opkg_sim::tpl::Param{"@deterministic", 0, 0, {}}
#define ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL(x, ...) ::opkg_sim::tpl::Param{"@shared_kernel_type", 0, 0, {}}

// One declaration per operator, in the namespace the operator writes it (found there by
// unqualified lookup, as the devkit's g_tilingDeclareParams).
#define ASCENDC_TPL_ARGS_DECL(x, ...) \
    [[maybe_unused]] static constexpr ::opkg_sim::tpl::Params opkg_sim_tpl_decl{__VA_ARGS__}
#define ASCENDC_TPL_ARGS_SEL(...) ::opkg_sim::tpl::Params{__VA_ARGS__}
#ifdef OPKG_SIM_KERNEL
// the kernel build instantiates the selected combinations (tpl_kernel.cpp.j2)
#define ASCENDC_TPL_SEL(...) \
    [[maybe_unused]] static constexpr ::opkg_sim::tpl::Selection opkg_sim_tpl_sel{__VA_ARGS__}
#else
// host code: nothing, as the devkit's template_argument.h outside ASCENDC_DEBUG, so a selection
// naming something the host never declares compiles there as on CANN (ops-nn's
// clipped_swiglu_tiling_key.h lists an undeclared TPL_FLOOR in its arch35 selection)
#define ASCENDC_TPL_SEL(...)
#endif

#define GET_TPL_TILING_KEY(...) ::opkg_sim::tpl::encode_checked(opkg_sim_tpl_decl, {__VA_ARGS__})
#define ASCENDC_TPL_SEL_PARAM(context, ...)                  \
    do {                                                     \
        uint64_t opkg_sim_key_ = GET_TPL_TILING_KEY(__VA_ARGS__); \
        (context)->SetTilingKey(opkg_sim_key_);              \
    } while (0)

#ifdef OPKG_SIM_KERNEL
#include "opkg_sim/basic_api/core/kcore.h"
#include "opkg_sim/basic_api/core/ktypes.h"

namespace opkg_sim {
namespace tpl {
// The launch's key names no compiled instance: on the device the kernel binary has no entry for
// it (a tiling that returned INVALID_TILING_KEY, or a combination ASCENDC_TPL_SEL leaves out).
[[noreturn]] inline void no_instance(const char* kernel, uint64_t key,
                                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    if (key == INVALID_TILING_KEY)
        opkg_sim::fail(loc, opkg_sim::format("the tiling set INVALID_TILING_KEY (GET_TPL_TILING_KEY was given a "
                                             "value its ASCENDC_TPL_ARGS_DECL does not declare): no instance of "
                                             "the template kernel %s runs", kernel));
    opkg_sim::fail(loc, opkg_sim::format("tiling key %llu (%#llx) selects no instance of the template kernel %s: "
                                         "no ASCENDC_TPL_SEL combination encodes to it, so CANN's op compiler "
                                         "builds no kernel for it", (unsigned long long)key,
                                         (unsigned long long)key, kernel));
}
}  // namespace tpl
}  // namespace opkg_sim
// The kernel-side type of a dtype parameter's value (a ge::DataType number, spelt by the C_DT_*
// numbers above: a kernel build has no ge::DataType names).
template <int dataTypeId> struct TypeFromId { using type = void; };
#define OPKG_SIM_TPL_TYPE(id, t) template <> struct TypeFromId<id> { using type = t; }
OPKG_SIM_TPL_TYPE(C_DT_FLOAT, float);
OPKG_SIM_TPL_TYPE(C_DT_FLOAT16, half);
OPKG_SIM_TPL_TYPE(C_DT_INT8, int8_t);
OPKG_SIM_TPL_TYPE(C_DT_INT32, int32_t);
OPKG_SIM_TPL_TYPE(C_DT_UINT8, uint8_t);
OPKG_SIM_TPL_TYPE(C_DT_INT16, int16_t);
OPKG_SIM_TPL_TYPE(C_DT_UINT16, uint16_t);
OPKG_SIM_TPL_TYPE(C_DT_INT64, int64_t);
OPKG_SIM_TPL_TYPE(C_DT_UINT32, uint32_t);
OPKG_SIM_TPL_TYPE(C_DT_UINT64, uint64_t);
OPKG_SIM_TPL_TYPE(C_DT_DOUBLE, double);
OPKG_SIM_TPL_TYPE(C_DT_BOOL, bool);
OPKG_SIM_TPL_TYPE(C_DT_BF16, bfloat16_t);
#undef OPKG_SIM_TPL_TYPE
#endif

#endif
