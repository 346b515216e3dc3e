// The normalization library (CANN lib/normalization): RmsNorm, LayerNorm (the [B, S, H] form with
// LayerNormTiling and the [A, R] form with LayerNormPara), BatchNorm, DeepNorm, GroupNorm and
// Normalize, with CANN 8.1's overloads. Shapes come from the tiling structs (or the para), as in
// CANN; each statistic and output is computed exactly (double) from the inputs and rounded once to
// its type (docs/api.md). The temporary-space minimum is the sim's model in hl_rules.h, the same
// figure the host's Get<Api>MaxMinTmpSize gives (hl_tiling_lib.h).
#ifndef OPKG_SIM_HL_NORM_H
#define OPKG_SIM_HL_NORM_H

#include <vector>
#include "opkg_sim/adv_api/hlapi.h"
#include "lib/normalization/rmsnorm_tilingdata.h"
#include "lib/normalization/layernorm_tilingdata.h"
#include "lib/normalization/batchnorm_tilingdata.h"
#include "lib/normalization/deepnorm_tilingdata.h"
#include "lib/normalization/groupnorm_tilingdata.h"
#include "lib/normalization/layernorm_grad_tilingdata.h"
#include "lib/normalization/layernorm_grad_beta_tilingdata.h"

namespace AscendC {

using RmsNormTiling = optiling::RmsNormTiling;
using LayerNormTiling = optiling::LayerNormTiling;
using LayerNormSeparateTiling = optiling::LayerNormSeparateTiling;
using BatchNormTiling = optiling::BatchNormTiling;
using DeepNormTiling = optiling::DeepNormTiling;
using GroupNormTiling = optiling::GroupNormTiling;
using LayerNormGradTiling = optiling::LayerNormGradTiling;
using LayerNormGradBetaTiling = optiling::LayerNormGradBetaTiling;

struct LayerNormGradShapeInfo {
    DataFormat dataFormat = DataFormat::ND;   // the sim emulates ND
};

struct LayerNormPara {
    uint32_t aLength;
    uint32_t rLength;
    uint32_t rLengthWithPadding;
};

struct LayerNormConfig {
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
};
constexpr LayerNormConfig GetLayerNormNormalConfig() { return {false, false, false}; }
constexpr LayerNormConfig LNCFG_NORM = GetLayerNormNormalConfig();

enum class ReducePattern : uint32_t { AR = 0, RA = 1 };

struct WelfordUpdateParam {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t abComputeLength;
    float nRec;
};

struct WelfordUpdateConfig {
    constexpr WelfordUpdateConfig(const bool isInplaceIn) : isInplace(isInplaceIn) {}
    bool isInplace = false;
};
constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};

struct WelfordFinalizePara {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t headCount;
    uint32_t headCountLength;
    uint32_t tailCount;
    uint32_t tailCountLength;
    float abRec;
    float rRec;
};

struct NormalizePara {
    uint32_t aLength;
    uint32_t rLength;
    uint32_t rLengthWithPadding;
};

struct NormalizeConfig {
    ReducePattern reducePattern = ReducePattern::AR;
    int32_t aLength = -1;
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
};
constexpr NormalizeConfig GetNormalizeConfig(bool isNoBeta, bool isNoGamma) {
    return {ReducePattern::AR, -1, isNoBeta, isNoGamma, false};
}
constexpr NormalizeConfig NLCFG_NORM = GetNormalizeConfig(false, false);

}  // namespace AscendC

namespace opkg_sim {

template <class T> inline void norm_dtype() {
    static_assert(is_half_or_float<T>::value, "the normalization APIs take half or float");
}

// Reads n elements of t at `at` as doubles (definedness checked as the API's read).
template <class T>
inline std::vector<double> read_row(const AscendC::LocalTensor<T>& t, uint64_t at, uint64_t n, const char* op,
                                    const char* role, SrcLoc loc) {
    check_read(t.ptr_ + at, n * sizeof(T), op, role, loc);
    std::vector<double> v(n);
    for (uint64_t i = 0; i < n; ++i) v[i] = widen(t.ptr_[at + i]);
    return v;
}

inline void mean_var(const std::vector<double>& x, double& mean, double& var) {
    double s = 0;
    for (double v : x) s += v;
    mean = x.empty() ? 0 : s / double(x.size());
    double q = 0;
    for (double v : x) q += (v - mean) * (v - mean);
    var = x.empty() ? 0 : q / double(x.size());
}

// [rows, H] with `valid` of each row's H elements normalized: y = (x - mean) * rstd * gamma + beta
// (rms: y = x * rstd * gamma with rstd from the mean square). Statistics per row into mean/var.
// gamma/beta null: one / zero. deep: x = alpha * src + gx first.
template <class T, class G, class M>
inline void norm_rows(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<M>* mean_out,
                      const AscendC::LocalTensor<M>* var_out, bool var_is_rstd, const AscendC::LocalTensor<T>& src,
                      const AscendC::LocalTensor<T>* gx, double alpha, const AscendC::LocalTensor<G>* gamma,
                      const AscendC::LocalTensor<G>* beta, uint64_t rows, uint64_t H, uint64_t valid, double eps,
                      bool rms, const AscendC::LocalTensor<uint8_t>* tmp, const char* op, SrcLoc loc,
                      bool reuse = false) {
    note(loc);
    if (!rows || !H || !valid || valid > H) {
        fail(loc, format("%s: shape of %llu rows of %llu elements, %llu valid: every length must be non-zero and the "
                         "valid length at most the row's (check the tiling)", op, (unsigned long long)rows,
                         (unsigned long long)H, (unsigned long long)valid));
    }
    const RowRule& rule = rms ? rules::RmsNorm : (gx ? rules::DeepNorm : rules::LayerNorm);
    check_tmp(tmp, unit_tmp_bytes(rule, sizeof(T), reuse, H * 4), op, loc);
    check_count(src, rows * H, op, "src", loc);
    check_count(dst, rows * H, op, "dst", loc);
    if (gx) check_count(*gx, rows * H, op, "gx", loc);
    if (gamma) check_count(*gamma, valid, op, "gamma", loc);
    if (beta) check_count(*beta, valid, op, "beta", loc);
    if (mean_out) check_count(*mean_out, rows, op, "mean", loc);
    if (var_out) check_count(*var_out, rows, op, var_is_rstd ? "rstd" : "variance", loc);
    const std::vector<double> g = gamma ? read_row(*gamma, 0, valid, op, "gamma", loc) : std::vector<double>(valid, 1.0);
    const std::vector<double> b = beta ? read_row(*beta, 0, valid, op, "beta", loc) : std::vector<double>(valid, 0.0);
    count_vec_of<T>(op, int64_t(rows * H));
    std::vector<double> means(rows), vars(rows);
    for (uint64_t r = 0; r < rows; ++r) {
        std::vector<double> x = read_row(src, r * H, valid, op, "src", loc);
        if (gx) {
            const std::vector<double> y = read_row(*gx, r * H, valid, op, "gx", loc);
            for (uint64_t i = 0; i < valid; ++i) x[i] = alpha * x[i] + y[i];
        }
        double m = 0, v = 0;
        if (rms) {
            for (double e : x) v += e * e;
            v /= double(valid);
        } else {
            mean_var(x, m, v);
        }
        const double rstd = 1.0 / std::sqrt(v + eps);
        for (uint64_t i = 0; i < valid; ++i) dst.ptr_[r * H + i] = round_to<T>((x[i] - m) * rstd * g[i] + b[i]);
        mark_written(dst.ptr_ + r * H, valid * sizeof(T));
        means[r] = m;
        vars[r] = var_is_rstd ? rstd : v;
    }
    if (mean_out) {
        for (uint64_t r = 0; r < rows; ++r) mean_out->ptr_[r] = round_to<M>(means[r]);
        mark_written(mean_out->ptr_, rows * sizeof(M));
    }
    if (var_out) {
        for (uint64_t r = 0; r < rows; ++r) var_out->ptr_[r] = round_to<M>(vars[r]);
        mark_written(var_out->ptr_, rows * sizeof(M));
    }
}

// BatchNorm: x [B, S*H]; mean/variance per column over B; gamma/beta per b.
template <class T>
inline void batch_norm(const AscendC::LocalTensor<T>& out, const AscendC::LocalTensor<T>& mean_out,
                       const AscendC::LocalTensor<T>& var_out, const AscendC::LocalTensor<T>& x,
                       const AscendC::LocalTensor<T>& gamma, const AscendC::LocalTensor<T>& beta, double eps,
                       uint64_t B, uint64_t SH, const AscendC::LocalTensor<uint8_t>* tmp, SrcLoc loc,
                       bool reuse = false) {
    const char* op = "BatchNorm";
    note(loc);
    if (!B || !SH) {
        fail(loc, format("%s: originalBLength %llu and meanVarSize (S * H) %llu must be non-zero (check the tiling)",
                         op, (unsigned long long)B, (unsigned long long)SH));
    }
    check_tmp(tmp, batchnorm_tmp_bytes(sizeof(T), reuse, B, SH, false), op, loc);
    check_count(x, B * SH, op, "inputX", loc);
    check_count(out, B * SH, op, "output", loc);
    check_count(mean_out, SH, op, "outputMean", loc);
    check_count(var_out, SH, op, "outputVariance", loc);
    const std::vector<double> g = read_row(gamma, 0, B, op, "gamm", loc);
    const std::vector<double> b = read_row(beta, 0, B, op, "beta", loc);
    const std::vector<double> v = read_row(x, 0, B * SH, op, "inputX", loc);
    count_vec_of<T>(op, int64_t(B * SH));
    for (uint64_t c = 0; c < SH; ++c) {
        std::vector<double> col(B);
        for (uint64_t i = 0; i < B; ++i) col[i] = v[i * SH + c];
        double m, var;
        mean_var(col, m, var);
        const double rstd = 1.0 / std::sqrt(var + eps);
        for (uint64_t i = 0; i < B; ++i) out.ptr_[i * SH + c] = round_to<T>((col[i] - m) * rstd * g[i] + b[i]);
        mean_out.ptr_[c] = round_to<T>(m);
        var_out.ptr_[c] = round_to<T>(var);
    }
    mark_written(out.ptr_, B * SH * sizeof(T));
    mark_written(mean_out.ptr_, SH * sizeof(T));
    mark_written(var_out.ptr_, SH * sizeof(T));
}

// GroupNorm: x [N, C, HW]; statistics per (n, group of d = C / g channels); gamma/beta per channel.
template <class T>
inline void group_norm(const AscendC::LocalTensor<T>& out, const AscendC::LocalTensor<T>& mean_out,
                       const AscendC::LocalTensor<T>& var_out, const AscendC::LocalTensor<T>& x,
                       const AscendC::LocalTensor<T>& gamma, const AscendC::LocalTensor<T>& beta, double eps,
                       uint64_t N, uint64_t C, uint64_t HW, uint64_t G, const AscendC::LocalTensor<uint8_t>* tmp,
                       SrcLoc loc, bool reuse = false) {
    const char* op = "GroupNorm";
    note(loc);
    if (!N || !C || !HW || !G || C % G) {
        fail(loc, format("%s: n %llu, c %llu, hw %llu, g %llu: every length must be non-zero and g divide c (check "
                         "the tiling)", op, (unsigned long long)N, (unsigned long long)C, (unsigned long long)HW,
                         (unsigned long long)G));
    }
    check_tmp(tmp, unit_tmp_bytes(rules::GroupNorm, sizeof(T), reuse, C / G * HW * 4), op, loc);
    check_count(x, N * C * HW, op, "inputX", loc);
    check_count(out, N * C * HW, op, "output", loc);
    check_count(mean_out, N * G, op, "outputMean", loc);
    check_count(var_out, N * G, op, "outputVariance", loc);
    const std::vector<double> g = read_row(gamma, 0, C, op, "gamma", loc);
    const std::vector<double> b = read_row(beta, 0, C, op, "beta", loc);
    const std::vector<double> v = read_row(x, 0, N * C * HW, op, "inputX", loc);
    count_vec_of<T>(op, int64_t(N * C * HW));
    const uint64_t d = C / G, len = d * HW;
    for (uint64_t n = 0; n < N; ++n) {
        for (uint64_t k = 0; k < G; ++k) {
            const uint64_t base = (n * C + k * d) * HW;
            std::vector<double> grp(v.begin() + long(base), v.begin() + long(base + len));
            double m, var;
            mean_var(grp, m, var);
            const double rstd = 1.0 / std::sqrt(var + eps);
            for (uint64_t i = 0; i < len; ++i) {
                const uint64_t ch = k * d + i / HW;
                out.ptr_[base + i] = round_to<T>((grp[i] - m) * rstd * g[ch] + b[ch]);
            }
            mean_out.ptr_[n * G + k] = round_to<T>(m);
            var_out.ptr_[n * G + k] = round_to<T>(var);
        }
    }
    mark_written(out.ptr_, N * C * HW * sizeof(T));
    mark_written(mean_out.ptr_, N * G * sizeof(T));
    mark_written(var_out.ptr_, N * G * sizeof(T));
}

// WelfordUpdate over the first abComputeLength elements (rnLength 1): the float steps CANN's kernel
// issues, each rounded to float: d = x - mean, mean' = mean + d * nRec, var' = var + d * (x - mean').
// isInplace copies the inputs' tail [abLength - AlignUp(abLength - abComputeLength), abLength) to
// the outputs, as CANN does.
template <class T, class U>
inline void welford_update(const AscendC::LocalTensor<U>& out_mean, const AscendC::LocalTensor<U>& out_var,
                           const AscendC::LocalTensor<U>& in_mean, const AscendC::LocalTensor<U>& in_var,
                           const AscendC::LocalTensor<T>& x, const AscendC::LocalTensor<uint8_t>* tmp,
                           const AscendC::WelfordUpdateParam& p, bool inplace, SrcLoc loc, bool reuse = false) {
    static_assert(is_half_or_float<T>::value && std::is_same<U, float>::value,
                  "WelfordUpdate: half or float input, float mean and variance");
    const char* op = "WelfordUpdate";
    note(loc);
    if (p.rnLength != 1 || !p.abComputeLength || p.abComputeLength > p.abLength || (uint64_t(p.abLength) * sizeof(T)) % 32) {
        fail(loc, format("%s: WelfordUpdateParam {rnLength %u, abLength %u, abComputeLength %u}: rnLength must be 1, "
                         "abComputeLength in [1, abLength] and abLength a whole number of 32-byte blocks of %s", op,
                         p.rnLength, p.abLength, p.abComputeLength, type_name<T>()));
    }
    check_tmp(tmp, tmp_min_bytes(rules::WelfordUpdate, sizeof(T), reuse), op, loc);
    const uint64_t n = p.abComputeLength, L = p.abLength;
    check_count(x, n, op, "inputX", loc);
    for (const auto* t : {&out_mean, &out_var, &in_mean, &in_var}) check_count(*t, n, op, "a mean or variance", loc);
    check_read(x.ptr_, n * sizeof(T), op, "inputX", loc);
    check_read(in_mean.ptr_, n * 4, op, "inputMean", loc);
    check_read(in_var.ptr_, n * 4, op, "inputVariance", loc);
    count_vec_of<float>(op, int64_t(n));
    std::vector<float> m(n), v(n);
    for (uint64_t i = 0; i < n; ++i) {
        const float xv = static_cast<float>(x.ptr_[i]);
        const float d = xv - in_mean.ptr_[i];
        const float mean = d * p.nRec + in_mean.ptr_[i];
        const float e = xv - mean;
        m[i] = mean;
        v[i] = d * e + in_var.ptr_[i];
    }
    std::memcpy(out_mean.ptr_, m.data(), n * 4);
    std::memcpy(out_var.ptr_, v.data(), n * 4);
    mark_written(out_mean.ptr_, n * 4);
    mark_written(out_var.ptr_, n * 4);
    if (inplace && n < L) {
        const uint64_t len = (L - n + 7) / 8 * 8, from = L - len;
        for (const auto* t : {&out_mean, &out_var, &in_mean, &in_var}) check_count(*t, L, op, "a mean or variance", loc);
        check_read(in_mean.ptr_ + from, len * 4, op, "inputMean", loc);
        check_read(in_var.ptr_ + from, len * 4, op, "inputVariance", loc);
        std::memmove(out_mean.ptr_ + from, in_mean.ptr_ + from, len * 4);
        std::memmove(out_var.ptr_ + from, in_var.ptr_ + from, len * 4);
        mark_written(out_mean.ptr_ + from, len * 4);
        mark_written(out_var.ptr_ + from, len * 4);
    }
}

// WelfordFinalize: the abLength partial means and M2s of WelfordUpdate merged into one mean and
// variance (CANN's welfordfinalize_common_impl.h, 8.1). With counts, slot j weighs counts[j];
// without, the first headCountLength slots weigh headCount and the next tailCountLength tailCount,
// or (no tail: tailCount or tailCountLength 0) every slot rnLength with the mean taken as
// sum(mean_j) * abRec. mean = sum(mean_j * w_j) * rRec; variance = sum(var_j + w_j * (mean_j -
// mean)^2) * rRec, each evaluated exactly and rounded once to float. Each output is 8 floats: the
// value, then seven zeros (CANN clears the rest of the 32-byte block).
inline void welford_finalize(const AscendC::LocalTensor<float>& out_mean, const AscendC::LocalTensor<float>& out_var,
                             const AscendC::LocalTensor<float>& in_mean, const AscendC::LocalTensor<float>& in_var,
                             const AscendC::LocalTensor<int32_t>* counts, const AscendC::LocalTensor<uint8_t>* tmp,
                             const AscendC::WelfordFinalizePara& p, SrcLoc loc, bool reuse = false) {
    const char* op = "WelfordFinalize";
    note(loc);
    const uint64_t L = p.abLength;
    if (!L || (!counts && p.tailCountLength && p.headCountLength + p.tailCountLength != L)) {
        fail(loc, format("%s: WelfordFinalizePara {abLength %u, headCountLength %u, tailCountLength %u}: abLength must be "
                         "non-zero and, with a tail, headCountLength + tailCountLength", op, p.abLength,
                         p.headCountLength, p.tailCountLength));
    }
    check_tmp(tmp, tmp_min_bytes(rules::WelfordFinalize, 4, reuse), op, loc);
    check_count(out_mean, 8, op, "outputMean (8 floats)", loc);
    check_count(out_var, 8, op, "outputVariance (8 floats)", loc);
    const std::vector<double> m = read_row(in_mean, 0, L, op, "inputMean", loc);
    const std::vector<double> v = read_row(in_var, 0, L, op, "inputVariance", loc);
    std::vector<double> w(L);
    const bool tail = !counts && p.tailCountLength && p.tailCount;
    if (counts) {
        const std::vector<double> c = read_row(*counts, 0, L, op, "counts", loc);
        w = c;
    } else {
        for (uint64_t j = 0; j < L; ++j) w[j] = tail ? (j < p.headCountLength ? p.headCount : p.tailCount) : p.rnLength;
    }
    double mean = 0.0;
    for (uint64_t j = 0; j < L; ++j) mean += m[j] * (counts || tail ? w[j] * double(p.rRec) : double(p.abRec));
    double var = 0.0;
    for (uint64_t j = 0; j < L; ++j) var += (v[j] + w[j] * (m[j] - mean) * (m[j] - mean)) * double(p.rRec);
    count_vec_of<float>(op, int64_t(L) * 6);
    float mo[8] = {static_cast<float>(mean)}, vo[8] = {static_cast<float>(var)};
    std::memcpy(out_mean.ptr_, mo, sizeof mo);
    std::memcpy(out_var.ptr_, vo, sizeof vo);
    mark_written(out_mean.ptr_, sizeof mo);
    mark_written(out_var.ptr_, sizeof vo);
}

// Normalize: the given mean/variance per row; y = (x - mean) * rstd * gamma + beta, rstd out.
template <class U, class T>
inline void normalize(const AscendC::LocalTensor<T>& out, const AscendC::LocalTensor<float>& rstd_out,
                      const AscendC::LocalTensor<float>& mean, const AscendC::LocalTensor<float>& var,
                      const AscendC::LocalTensor<T>& x, const AscendC::LocalTensor<U>* gamma,
                      const AscendC::LocalTensor<U>* beta, double eps, const AscendC::NormalizePara& p,
                      bool only_output, const AscendC::LocalTensor<uint8_t>* tmp, SrcLoc loc, bool reuse = false) {
    const char* op = "Normalize";
    note(loc);
    if (!p.aLength || !p.rLength || p.rLength > p.rLengthWithPadding) {
        fail(loc, format("%s: NormalizePara {aLength %u, rLength %u, rLengthWithPadding %u}: lengths must be non-zero "
                         "and rLength at most rLengthWithPadding", op, p.aLength, p.rLength, p.rLengthWithPadding));
    }
    check_tmp(tmp, unit_tmp_bytes(rules::Normalize, sizeof(T), reuse, uint64_t(p.rLengthWithPadding) * 4), op, loc);
    const uint64_t A = p.aLength, R = p.rLength, RP = p.rLengthWithPadding;
    check_count(x, A * RP, op, "inputX", loc);
    check_count(out, A * RP, op, "output", loc);
    if (!only_output) check_count(rstd_out, A, op, "outputRstd", loc);
    const std::vector<double> m = read_row(mean, 0, A, op, "inputMean", loc);
    const std::vector<double> v = read_row(var, 0, A, op, "inputVariance", loc);
    const std::vector<double> g = gamma ? read_row(*gamma, 0, R, op, "gamma", loc) : std::vector<double>(R, 1.0);
    const std::vector<double> b = beta ? read_row(*beta, 0, R, op, "beta", loc) : std::vector<double>(R, 0.0);
    count_vec_of<T>(op, int64_t(A * R));
    for (uint64_t a = 0; a < A; ++a) {
        const std::vector<double> row = read_row(x, a * RP, R, op, "inputX", loc);
        const double rstd = 1.0 / std::sqrt(v[a] + eps);
        for (uint64_t i = 0; i < R; ++i) out.ptr_[a * RP + i] = round_to<T>((row[i] - m[a]) * rstd * g[i] + b[i]);
        mark_written(out.ptr_ + a * RP, R * sizeof(T));
        if (!only_output) rstd_out.ptr_[a] = float(rstd);
    }
    if (!only_output) mark_written(rstd_out.ptr_, A * sizeof(float));
}


// LayerNormGrad over [rows, H] (valid of H): with x1 = dy * gamma, x2 = x - mean, r = var + eps,
// pd_var = sum(-0.5 * x1 * x2 * r^-1.5), pd_mean = sum(-x1 * r^-0.5) + pd_var * mean(-2 * x2),
// pd_x = x1 * r^-0.5 + pd_var * 2 / H * x2 + pd_mean / H, and resForGamma = x2 * r^-0.5 (the
// formulas CANN's header documents); mean and variance given per row.
template <class T>
inline void layer_norm_grad(const AscendC::LocalTensor<T>& pd_x, const AscendC::LocalTensor<T>& res_gamma,
                            const AscendC::LocalTensor<T>& dy, const AscendC::LocalTensor<T>& x,
                            const AscendC::LocalTensor<T>& var, const AscendC::LocalTensor<T>& mean,
                            const AscendC::LocalTensor<T>& gamma, double eps, uint64_t rows, uint64_t H,
                            uint64_t valid, const AscendC::LocalTensor<uint8_t>* tmp, SrcLoc loc, bool reuse = false) {
    const char* op = "LayerNormGrad";
    note(loc);
    if (!rows || !H || !valid || valid > H) {
        fail(loc, format("%s: %llu rows of %llu elements, %llu valid: lengths must be non-zero and the valid length "
                         "at most the row's (check the tiling)", op, (unsigned long long)rows, (unsigned long long)H,
                         (unsigned long long)valid));
    }
    check_tmp(tmp, unit_tmp_bytes(rules::LayerNormGrad, sizeof(T), reuse, H * 4), op, loc);
    for (const auto* t : {&pd_x, &res_gamma, &dy, &x}) check_count(*t, rows * H, op, "a [B, S, H] operand", loc);
    check_count(var, rows, op, "inputVariance", loc);
    check_count(mean, rows, op, "inputMean", loc);
    const std::vector<double> g = read_row(gamma, 0, valid, op, "inputGamma", loc);
    const std::vector<double> v = read_row(var, 0, rows, op, "inputVariance", loc);
    const std::vector<double> m = read_row(mean, 0, rows, op, "inputMean", loc);
    count_vec_of<T>(op, int64_t(rows * H));
    for (uint64_t r = 0; r < rows; ++r) {
        const std::vector<double> d = read_row(dy, r * H, valid, op, "inputDy", loc);
        const std::vector<double> xs = read_row(x, r * H, valid, op, "inputX", loc);
        const double rr = v[r] + eps, rs = 1.0 / std::sqrt(rr);
        double pd_var = 0, s1 = 0, s2 = 0;
        for (uint64_t i = 0; i < valid; ++i) {
            const double x1 = d[i] * g[i], x2 = xs[i] - m[r];
            pd_var += -0.5 * x1 * x2 * rs / rr;
            s1 += -x1 * rs;
            s2 += -2.0 * x2;
        }
        const double n = double(valid);
        const double pd_mean = s1 + pd_var * s2 / n;
        for (uint64_t i = 0; i < valid; ++i) {
            const double x1 = d[i] * g[i], x2 = xs[i] - m[r];
            pd_x.ptr_[r * H + i] = round_to<T>(x1 * rs + pd_var * 2.0 / n * x2 + pd_mean / n);
            res_gamma.ptr_[r * H + i] = round_to<T>(x2 * rs);
        }
        mark_written(pd_x.ptr_ + r * H, valid * sizeof(T));
        mark_written(res_gamma.ptr_ + r * H, valid * sizeof(T));
    }
}

// LayerNormGradBeta: pdGamma[h] = sum over rows of dy * resForGamma, pdBeta[h] = sum of dy.
template <class T>
inline void layer_norm_grad_beta(const AscendC::LocalTensor<T>& pd_gamma, const AscendC::LocalTensor<T>& pd_beta,
                                 const AscendC::LocalTensor<T>& res_gamma, const AscendC::LocalTensor<T>& dy,
                                 uint64_t rows, uint64_t H, uint64_t valid, const AscendC::LocalTensor<uint8_t>* tmp,
                                 SrcLoc loc, bool reuse = false) {
    const char* op = "LayerNormGradBeta";
    note(loc);
    if (!rows || !H || !valid || valid > H) {
        fail(loc, format("%s: %llu rows of %llu elements, %llu valid: lengths must be non-zero and the valid length "
                         "at most the row's (check the tiling)", op, (unsigned long long)rows, (unsigned long long)H,
                         (unsigned long long)valid));
    }
    check_tmp(tmp, unit_tmp_bytes(rules::LayerNormGradBeta, sizeof(T), reuse, H * 4), op, loc);
    check_count(res_gamma, rows * H, op, "resForGamma", loc);
    check_count(dy, rows * H, op, "inputDy", loc);
    check_count(pd_gamma, valid, op, "outputPdGamma", loc);
    check_count(pd_beta, valid, op, "outputPdBeta", loc);
    std::vector<double> sg(valid, 0.0), sb(valid, 0.0);
    count_vec_of<T>(op, int64_t(rows * H));
    for (uint64_t r = 0; r < rows; ++r) {
        const std::vector<double> d = read_row(dy, r * H, valid, op, "inputDy", loc);
        const std::vector<double> rg = read_row(res_gamma, r * H, valid, op, "resForGamma", loc);
        for (uint64_t i = 0; i < valid; ++i) {
            sg[i] += d[i] * rg[i];
            sb[i] += d[i];
        }
    }
    for (uint64_t i = 0; i < valid; ++i) {
        pd_gamma.ptr_[i] = round_to<T>(sg[i]);
        pd_beta.ptr_[i] = round_to<T>(sb[i]);
    }
    mark_written(pd_gamma.ptr_, valid * sizeof(T));
    mark_written(pd_beta.ptr_, valid * sizeof(T));
}

}  // namespace opkg_sim

namespace AscendC {

#define OPKG_HL_LOC opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()

// ---- RmsNorm: [B, S, H], originalHLength valid; y = x / sqrt(mean(x^2) + eps) * gamma ----
template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, const RmsNormTiling& tiling,
                    OPKG_HL_LOC) {
    opkg_sim::norm_dtype<T>();
    opkg_sim::norm_rows<T, T, T>(dstLocal, nullptr, nullptr, false, srcLocal, nullptr, 1.0, &gammaLocal, nullptr,
                                 uint64_t(OPKG_TF(tiling, bLength)) * OPKG_TF(tiling, sLength), OPKG_TF(tiling, hLength),
                                 OPKG_TF(tiling, originalHLength), opkg_sim::widen(epsilon), true, &sharedTmpBuffer,
                                 "RmsNorm", loc);
}
template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
                    const T epsilon, const RmsNormTiling& tiling, OPKG_HL_LOC) {
    opkg_sim::norm_dtype<T>();
    opkg_sim::norm_rows<T, T, T>(dstLocal, nullptr, nullptr, false, srcLocal, nullptr, 1.0, &gammaLocal, nullptr,
                                 uint64_t(OPKG_TF(tiling, bLength)) * OPKG_TF(tiling, sLength), OPKG_TF(tiling, hLength),
                                 OPKG_TF(tiling, originalHLength), opkg_sim::widen(epsilon), true, nullptr, "RmsNorm",
                                 loc);
}

// ---- LayerNorm [B, S, H]: mean and variance [B, S] ----
template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                      const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX, const LocalTensor<T>& gamma,
                      const LocalTensor<T>& beta, const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon,
                      LayerNormTiling& tiling, OPKG_HL_LOC) {
    opkg_sim::norm_dtype<T>();
    opkg_sim::norm_rows<T, T, T>(output, &outputMean, &outputVariance, false, inputX, nullptr, 1.0, &gamma, &beta,
                                 uint64_t(OPKG_TF(tiling, bLength)) * OPKG_TF(tiling, sLength), OPKG_TF(tiling, hLength),
                                 OPKG_TF(tiling, originalHLength), opkg_sim::widen(epsilon), false, &sharedTmpBuffer,
                                 "LayerNorm", loc, isReuseSource);
}
template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                      const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX, const LocalTensor<T>& gamma,
                      const LocalTensor<T>& beta, const T epsilon, LayerNormTiling& tiling, OPKG_HL_LOC) {
    opkg_sim::norm_dtype<T>();
    opkg_sim::norm_rows<T, T, T>(output, &outputMean, &outputVariance, false, inputX, nullptr, 1.0, &gamma, &beta,
                                 uint64_t(OPKG_TF(tiling, bLength)) * OPKG_TF(tiling, sLength), OPKG_TF(tiling, hLength),
                                 OPKG_TF(tiling, originalHLength), opkg_sim::widen(epsilon), false, nullptr, "LayerNorm",
                                 loc, isReuseSource);
}
// ---- LayerNorm [A, R]: float mean and rstd [A]; gamma/beta of U (config: no beta/gamma, output only) ----
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                      const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
                      const LocalTensor<U>& beta, const float epsilon, const LocalTensor<uint8_t>& sharedTmpBuffer,
                      const LayerNormPara& para, const LayerNormSeparateTiling& tiling, OPKG_HL_LOC) {
    (void)tiling;
    opkg_sim::norm_dtype<T>();
    opkg_sim::norm_rows<T, U, float>(output, config.isOnlyOutput ? nullptr : &outputMean,
                                     config.isOnlyOutput ? nullptr : &outputRstd, true, inputX, nullptr, 1.0,
                                     config.isNoGamma ? nullptr : &gamma, config.isNoBeta ? nullptr : &beta,
                                     para.aLength, para.rLengthWithPadding, para.rLength, epsilon, false,
                                     &sharedTmpBuffer, "LayerNorm", loc, isReuseSource);
}
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                      const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
                      const LocalTensor<U>& beta, const float epsilon, const LayerNormPara& para,
                      const LayerNormSeparateTiling& tiling, OPKG_HL_LOC) {
    (void)tiling;
    opkg_sim::norm_dtype<T>();
    opkg_sim::norm_rows<T, U, float>(output, config.isOnlyOutput ? nullptr : &outputMean,
                                     config.isOnlyOutput ? nullptr : &outputRstd, true, inputX, nullptr, 1.0,
                                     config.isNoGamma ? nullptr : &gamma, config.isNoBeta ? nullptr : &beta,
                                     para.aLength, para.rLengthWithPadding, para.rLength, epsilon, false, nullptr,
                                     "LayerNorm", loc, isReuseSource);
}

// ---- DeepNorm: LayerNorm(alpha * src + gx); mean and variance (rstdLocal holds the variance, as
// CANN's kernel stores it) [B, S] ----
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal, const LocalTensor<T>& rstdLocal,
                     const LocalTensor<T>& srcLocal, const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                     const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& sharedTmpBuffer, const T alpha,
                     const T epsilon, DeepNormTiling& tiling, OPKG_HL_LOC) {
    opkg_sim::norm_dtype<T>();
    opkg_sim::norm_rows<T, T, T>(dstLocal, &meanLocal, &rstdLocal, false, srcLocal, &gxLocal, opkg_sim::widen(alpha),
                                 &gammaLocal, &betaLocal, uint64_t(OPKG_TF(tiling, bLength)) * OPKG_TF(tiling, sLength),
                                 OPKG_TF(tiling, hLength), OPKG_TF(tiling, originalHLength), opkg_sim::widen(epsilon),
                                 false, &sharedTmpBuffer, "DeepNorm", loc, isReuseSrc);
}
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal, const LocalTensor<T>& rstdLocal,
                     const LocalTensor<T>& srcLocal, const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                     const LocalTensor<T>& gammaLocal, const T alpha, const T epsilon, DeepNormTiling& tiling,
                     OPKG_HL_LOC) {
    opkg_sim::norm_dtype<T>();
    opkg_sim::norm_rows<T, T, T>(dstLocal, &meanLocal, &rstdLocal, false, srcLocal, &gxLocal, opkg_sim::widen(alpha),
                                 &gammaLocal, &betaLocal, uint64_t(OPKG_TF(tiling, bLength)) * OPKG_TF(tiling, sLength),
                                 OPKG_TF(tiling, hLength), OPKG_TF(tiling, originalHLength), opkg_sim::widen(epsilon),
                                 false, nullptr, "DeepNorm", loc, isReuseSrc);
}

// ---- BatchNorm: x [B, S, H] (S * H = meanVarSize), statistics over B ----
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void BatchNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                      const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX, const LocalTensor<T>& gamm,
                      const LocalTensor<T>& beta, const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon,
                      BatchNormTiling& tiling, OPKG_HL_LOC) {
    opkg_sim::norm_dtype<T>();
    opkg_sim::batch_norm(output, outputMean, outputVariance, inputX, gamm, beta, opkg_sim::widen(epsilon),
                         OPKG_TF(tiling, originalBLength), OPKG_TF(tiling, meanVarSize), &sharedTmpBuffer, loc,
                         isReuseSource);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void BatchNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                      const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX, const LocalTensor<T>& gamm,
                      const LocalTensor<T>& beta, const T epsilon, BatchNormTiling& tiling, OPKG_HL_LOC) {
    opkg_sim::norm_dtype<T>();
    opkg_sim::batch_norm(output, outputMean, outputVariance, inputX, gamm, beta, opkg_sim::widen(epsilon),
                         OPKG_TF(tiling, originalBLength), OPKG_TF(tiling, meanVarSize), nullptr, loc, isReuseSource);
}

// ---- GroupNorm: x [N, C, H, W]; statistics [N, G] ----
template <typename T, bool isReuseSource = false>
inline void GroupNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                      const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX, const LocalTensor<T>& gamma,
                      const LocalTensor<T>& beta, const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon,
                      GroupNormTiling& tiling, OPKG_HL_LOC) {
    opkg_sim::norm_dtype<T>();
    opkg_sim::group_norm(output, outputMean, outputVariance, inputX, gamma, beta, opkg_sim::widen(epsilon),
                         OPKG_TF(tiling, n), OPKG_TF(tiling, c), OPKG_TF(tiling, hw), OPKG_TF(tiling, g),
                         &sharedTmpBuffer, loc, isReuseSource);
}
template <typename T, bool isReuseSource = false>
inline void GroupNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                      const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX, const LocalTensor<T>& gamma,
                      const LocalTensor<T>& beta, const T epsilon, GroupNormTiling& tiling, OPKG_HL_LOC) {
    opkg_sim::norm_dtype<T>();
    opkg_sim::group_norm(output, outputMean, outputVariance, inputX, gamma, beta, opkg_sim::widen(epsilon),
                         OPKG_TF(tiling, n), OPKG_TF(tiling, c), OPKG_TF(tiling, hw), OPKG_TF(tiling, g), nullptr, loc, isReuseSource);
}

// ---- Normalize: [A, R] with the given float mean/variance; float rstd [A] out ----
template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                      const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                      const LocalTensor<uint8_t>& sharedTmpBuffer, const float epsilon, const NormalizePara& para,
                      OPKG_HL_LOC) {
    opkg_sim::norm_dtype<T>();
    opkg_sim::normalize<U, T>(output, outputRstd, inputMean, inputVariance, inputX, config.isNoGamma ? nullptr : &gamma,
                              config.isNoBeta ? nullptr : &beta, epsilon, para, config.isOnlyOutput, &sharedTmpBuffer,
                              loc, isReuseSource);
}
template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                      const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                      const float epsilon, const NormalizePara& para, OPKG_HL_LOC) {
    opkg_sim::norm_dtype<T>();
    opkg_sim::normalize<U, T>(output, outputRstd, inputMean, inputVariance, inputX, config.isNoGamma ? nullptr : &gamma,
                              config.isNoBeta ? nullptr : &beta, epsilon, para, config.isOnlyOutput, nullptr, loc, isReuseSource);
}

// ---- LayerNormGrad / LayerNormGradBeta ([B, S, H], originalHLength valid, from the tiling) ----
template <typename T, bool isReuseSource = false>
inline void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
                          const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                          const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                          const LocalTensor<T>& inputGamma, LocalTensor<uint8_t>& sharedTmpBuffer, T epsilon,
                          LayerNormGradTiling& tiling, const LayerNormGradShapeInfo& shapeInfo = {}, OPKG_HL_LOC) {
    (void)shapeInfo;
    opkg_sim::norm_dtype<T>();
    opkg_sim::layer_norm_grad(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean, inputGamma,
                              opkg_sim::widen(epsilon), uint64_t(OPKG_TF(tiling, bLength)) * OPKG_TF(tiling, sLength),
                              OPKG_TF(tiling, hLength), OPKG_TF(tiling, originalHLength), &sharedTmpBuffer, loc, isReuseSource);
}
template <typename T, bool isReuseSource = false>
inline void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
                          const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                          const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                          const LocalTensor<T>& inputGamma, T epsilon, LayerNormGradTiling& tiling,
                          const LayerNormGradShapeInfo& shapeInfo = {}, OPKG_HL_LOC) {
    (void)shapeInfo;
    opkg_sim::norm_dtype<T>();
    opkg_sim::layer_norm_grad(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean, inputGamma,
                              opkg_sim::widen(epsilon), uint64_t(OPKG_TF(tiling, bLength)) * OPKG_TF(tiling, sLength),
                              OPKG_TF(tiling, hLength), OPKG_TF(tiling, originalHLength), nullptr, loc, isReuseSource);
}
template <typename T, bool isReuseSource = false>
inline void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                              const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const LayerNormGradBetaTiling& tiling,
                              OPKG_HL_LOC) {
    opkg_sim::norm_dtype<T>();
    opkg_sim::layer_norm_grad_beta(outputPdGamma, outputPdBeta, resForGamma, inputDy,
                                   uint64_t(OPKG_TF(tiling, bLength)) * OPKG_TF(tiling, sLength),
                                   OPKG_TF(tiling, hLength), OPKG_TF(tiling, originalHLength), &sharedTmpBuffer, loc, isReuseSource);
}
template <typename T, bool isReuseSource = false>
inline void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                              const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                              LayerNormGradBetaTiling& tiling, OPKG_HL_LOC) {
    opkg_sim::norm_dtype<T>();
    opkg_sim::layer_norm_grad_beta(outputPdGamma, outputPdBeta, resForGamma, inputDy,
                                   uint64_t(OPKG_TF(tiling, bLength)) * OPKG_TF(tiling, sLength),
                                   OPKG_TF(tiling, hLength), OPKG_TF(tiling, originalHLength), nullptr, loc, isReuseSource);
}
// ---- WelfordUpdate ----
template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                          const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                          const LocalTensor<T>& inputX, const WelfordUpdateParam& para, OPKG_HL_LOC) {
    opkg_sim::welford_update(outputMean, outputVariance, inputMean, inputVariance, inputX, nullptr, para,
                             config.isInplace, loc, isReuseSource);
}
template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                          const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                          const LocalTensor<T>& inputX, const LocalTensor<uint8_t>& sharedTmpBuffer,
                          const WelfordUpdateParam& para, OPKG_HL_LOC) {
    opkg_sim::welford_update(outputMean, outputVariance, inputMean, inputVariance, inputX, &sharedTmpBuffer, para,
                             config.isInplace, loc, isReuseSource);
}
// ---- WelfordFinalize ----
template <bool isReuseSource = false>
inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                            const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, WelfordFinalizePara& para, OPKG_HL_LOC) {
    opkg_sim::welford_finalize(outputMean, outputVariance, inputMean, inputVariance, nullptr, &sharedTmpBuffer, para,
                               loc, isReuseSource);
}
template <bool isReuseSource = false>
inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                            const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                            const LocalTensor<int32_t>& counts, const LocalTensor<uint8_t>& sharedTmpBuffer,
                            WelfordFinalizePara& para, OPKG_HL_LOC) {
    opkg_sim::welford_finalize(outputMean, outputVariance, inputMean, inputVariance, &counts, &sharedTmpBuffer, para,
                               loc, isReuseSource);
}
template <bool isReuseSource = false>
inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                            const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                            WelfordFinalizePara& para, OPKG_HL_LOC) {
    opkg_sim::welford_finalize(outputMean, outputVariance, inputMean, inputVariance, nullptr, nullptr, para, loc,
                               isReuseSource);
}
template <bool isReuseSource = false>
inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                            const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                            const LocalTensor<int32_t>& counts, WelfordFinalizePara& para, OPKG_HL_LOC) {
    opkg_sim::welford_finalize(outputMean, outputVariance, inputMean, inputVariance, &counts, nullptr, para, loc,
                               isReuseSource);
}
#undef OPKG_HL_LOC

}  // namespace AscendC
#endif
