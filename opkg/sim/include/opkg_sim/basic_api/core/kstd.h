// AscendC::Std: the devkit's freestanding subset of the C++ standard library (include/utils/std/:
// algorithm, cmath, type_traits, tuple, utility), usable in kernels and in host code. The sim
// compiles with the host's standard library, so most names are the std ones; where the devkit's
// definition differs from std's, it is written out (is_floating_point counts half, min/max take
// two types, is_integral holds for integral_constant).
#ifndef OPKG_SIM_KSTD_H
#define OPKG_SIM_KSTD_H

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

namespace AscendC {
namespace Std {

// <algorithm>: two operand types, the result of `?:` (the devkit's definition)
template <typename T, typename U>
inline constexpr auto min(const T& src0, const U& src1) { return (src0 < src1) ? src0 : src1; }
template <typename T, typename U>
inline constexpr auto max(const T& src0, const U& src1) { return (src0 > src1) ? src0 : src1; }

// <cmath>
template <typename T, typename U>
inline constexpr auto ceil_division(const T& num1, const U& num2) { return (num1 + num2 - 1) / num2; }
template <typename T, typename U>
inline constexpr auto ceil_align(const T& num1, const U& num2) { return ceil_division(num1, num2) * num2; }
template <typename T, typename U>
inline constexpr auto divide(const T& num1, const U& num2) { return num1 / num2; }
template <typename T> inline T sqrt(const T src) { return static_cast<T>(std::sqrt(static_cast<float>(src))); }
template <typename T> inline T abs(const T src) { return src < T(0) ? T(-src) : src; }

// <type_traits>
using std::integral_constant;
using std::bool_constant;
using std::true_type;
using std::false_type;
using std::enable_if;
using std::enable_if_t;
using std::conditional;
using std::conditional_t;
using std::is_same;
using std::is_same_v;
using std::is_base_of;
using std::is_base_of_v;
using std::is_convertible;
using std::is_convertible_v;
using std::is_array;
using std::is_array_v;
using std::is_class;
using std::is_class_v;
using std::is_const;
using std::is_const_v;
using std::is_function;
using std::is_function_v;
using std::is_pointer;
using std::is_pointer_v;
using std::is_reference;
using std::is_reference_v;
using std::is_lvalue_reference;
using std::is_lvalue_reference_v;
using std::is_rvalue_reference;
using std::is_rvalue_reference_v;
using std::is_union;
using std::is_union_v;
using std::is_void;
using std::is_void_v;
using std::add_const;
using std::add_const_t;
using std::add_cv;
using std::add_cv_t;
using std::add_volatile;
using std::add_volatile_t;
using std::add_pointer;
using std::add_pointer_t;
using std::add_lvalue_reference;
using std::add_lvalue_reference_t;
using std::add_rvalue_reference;
using std::add_rvalue_reference_t;
using std::decay;
using std::decay_t;
using std::remove_const;
using std::remove_const_t;
using std::remove_cv;
using std::remove_cv_t;
using std::remove_volatile;
using std::remove_volatile_t;
using std::remove_reference;
using std::remove_reference_t;
using std::remove_pointer;
using std::remove_pointer_t;
using std::remove_extent;
using std::remove_extent_t;
template <typename T> struct remove_cvref { using type = std::remove_cv_t<std::remove_reference_t<T>>; };
template <typename T> using remove_cvref_t = typename remove_cvref<T>::type;

template <typename T, typename... Ts>
struct is_one_of : bool_constant<(std::is_same_v<T, Ts> || ...)> {};
template <typename T, typename... Ts>
inline constexpr bool is_one_of_v = is_one_of<T, Ts...>::value;
template <typename T, auto Value, auto... Candidates>
struct is_one_of_value : bool_constant<((Value == Candidates) || ...)> {};
template <typename T, auto... Values>
inline constexpr bool is_one_of_value_v = is_one_of_value<T, Values...>::value;
template <typename T, typename U>
struct is_same_uncvref : std::is_same<remove_cvref_t<T>, remove_cvref_t<U>> {};

template <auto n, typename T> struct is_constant : false_type {};
template <auto n, typename T> struct is_constant<n, T const> : is_constant<n, T> {};
template <auto n, typename T> struct is_constant<n, T const&> : is_constant<n, T> {};
template <auto n, typename T> struct is_constant<n, T&> : is_constant<n, T> {};
template <auto n, typename T> struct is_constant<n, T&&> : is_constant<n, T> {};
template <auto n, typename T, T v> struct is_constant<n, integral_constant<T, v>> : bool_constant<v == n> {};

// half is _Float16 in the sim (opkg_sim/basic_api/core/ktypes.h)
template <typename T>
struct is_floating_point : bool_constant<is_one_of_v<remove_cv_t<T>, float, double, long double, _Float16>> {};
template <typename T> inline constexpr bool is_floating_point_v = is_floating_point<T>::value;

template <typename T>
struct is_integral : bool_constant<is_one_of_v<remove_cv_t<T>, bool, unsigned long long, long long, unsigned long,
                                               long, unsigned int, int, unsigned short, short, unsigned char,
                                               signed char, char>> {};
template <typename T, T v> struct is_integral<integral_constant<T, v>> : true_type {};
template <typename T> inline constexpr bool is_integral_v = is_integral<T>::value;

// <tuple>
using std::tuple;
using std::make_tuple;
using std::tie;
using std::get;
using std::ignore;
using std::tuple_size;
using std::tuple_size_v;
using std::tuple_element;
using std::tuple_element_t;
template <typename T, typename = void> struct is_tuple : false_type {};
template <typename T> struct is_tuple<T, std::void_t<decltype(std::tuple_size<T>::value)>> : true_type {};
template <typename T> inline constexpr bool is_tuple_v = is_tuple<T>::value;

// <utility>
using std::forward;
using std::move;
using std::declval;
using std::integer_sequence;
using std::index_sequence;
using std::make_index_sequence;
using std::make_integer_sequence;

}  // namespace Std
}  // namespace AscendC

#endif
