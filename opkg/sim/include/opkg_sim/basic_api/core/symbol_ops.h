// LocalTensor operator overloads as CANN declares them: `dst = a * b` runs Mul over
// dst.GetSize() elements (+ - * / | & likewise), and `mask = a < b` runs Compare over
// a.GetSize() elements (< > <= >= == !=). The operators build an expression object that holds the
// operands and the call site; LocalTensor's operator= for such objects (tensor.h) runs it.
#ifndef OPKG_SIM_SYMBOL_OPS_H
#define OPKG_SIM_SYMBOL_OPS_H

#include "opkg_sim/basic_api/vector/vector.h"

namespace opkg_sim {

// The right-hand operand, converted implicitly so that its default argument records the line
// of the user's expression (a binary operator cannot take a location parameter itself).
template <class T> struct SymOperand {
    const AscendC::LocalTensor<T>& t;
    SrcLoc loc;
    SymOperand(const AscendC::LocalTensor<T>& tensor, SrcLoc l = SrcLoc::current()) : t(tensor), loc(l) {}
};

enum class SymKind { ADD, SUB, MUL, DIV, OR, AND };

template <class T, SymKind K> struct SymBinary {
    using opkg_symbol_op = void;
    const AscendC::LocalTensor<T>& a;
    const AscendC::LocalTensor<T>& b;
    SrcLoc loc;
    void Process(const AscendC::LocalTensor<T>& out) const {
        AscendC::LocalTensor<T> dst = out;   // a handle; a non-const dst is the form that takes a location
        const int32_t n = int32_t(dst.GetSize());
        if constexpr (K == SymKind::ADD) AscendC::Add(dst, a, b, n, loc);
        else if constexpr (K == SymKind::SUB) AscendC::Sub(dst, a, b, n, loc);
        else if constexpr (K == SymKind::MUL) AscendC::Mul(dst, a, b, n, loc);
        else if constexpr (K == SymKind::DIV) AscendC::Div(dst, a, b, n, loc);
        else if constexpr (K == SymKind::OR) AscendC::Or(dst, a, b, n, loc);
        else AscendC::And(dst, a, b, n, loc);
    }
};

template <class T> struct SymCompare {
    using opkg_symbol_op = void;
    const AscendC::LocalTensor<T>& a;
    const AscendC::LocalTensor<T>& b;
    AscendC::CMPMODE mode;
    SrcLoc loc;
    template <class U> void Process(const AscendC::LocalTensor<U>& dst) const {
        AscendC::Compare(dst, a, b, mode, a.GetSize(), loc);
    }
};

}  // namespace opkg_sim

namespace AscendC {

#define OPKG_SIM_SYMBOL(OP, KIND)                                                                              \
    template <class T>                                                                                       \
    inline opkg_sim::SymBinary<T, opkg_sim::SymKind::KIND> operator OP(                                      \
        const LocalTensor<T>& a, const typename opkg_sim::identity<opkg_sim::SymOperand<T>>::type& b) {      \
        return {a, b.t, b.loc};                                                                              \
    }
OPKG_SIM_SYMBOL(+, ADD)
OPKG_SIM_SYMBOL(-, SUB)
OPKG_SIM_SYMBOL(*, MUL)
OPKG_SIM_SYMBOL(/, DIV)
OPKG_SIM_SYMBOL(|, OR)
OPKG_SIM_SYMBOL(&, AND)
#undef OPKG_SIM_SYMBOL

#define OPKG_SIM_SYMBOL_CMP(OP, MODE)                                                                          \
    template <class T>                                                                                       \
    inline opkg_sim::SymCompare<T> operator OP(                                                              \
        const LocalTensor<T>& a, const typename opkg_sim::identity<opkg_sim::SymOperand<T>>::type& b) {      \
        return {a, b.t, CMPMODE::MODE, b.loc};                                                               \
    }
OPKG_SIM_SYMBOL_CMP(<, LT)
OPKG_SIM_SYMBOL_CMP(>, GT)
OPKG_SIM_SYMBOL_CMP(<=, LE)
OPKG_SIM_SYMBOL_CMP(>=, GE)
OPKG_SIM_SYMBOL_CMP(==, EQ)
OPKG_SIM_SYMBOL_CMP(!=, NE)
#undef OPKG_SIM_SYMBOL_CMP

}  // namespace AscendC
#endif
