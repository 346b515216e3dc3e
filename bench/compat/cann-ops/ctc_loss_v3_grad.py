"""CTCLossV3Grad (cann-ops src/loss/ctc_loss_v3_grad): the CTC loss gradient w.r.t. log_probs (T x B x C), given the forward's neg_log_likelihood and log_alpha (B x T x 2L+1) as inputs (aten _ctc_loss_backward). Per batch b, with the blank-extended target l' of length S = 2 target_lengths[b] + 1: log_beta by the backward recursion over t < input_lengths[b]; for each t the log-sum over positions s of log_alpha[b, t, s] + log_beta[t, s] per class c = l'(s) gives r_c; grad[t, b, c] = (exp(lp) - exp(r_c + nll[b] - lp)) * grad_out[b]; rows t >= input_lengths[b] are 0; zero_infinity zeroes batches with an infinite nll. reduction is handled by the caller (aclnn), not the kernel. Cases after examples gen_data.py (T 12, B 20, L 10, C 10000 -> here C 1000; log_probs in [-2, -1], log_alpha in [0, 1), full target lengths, input lengths in [1, 12])."""
import numpy as np
PATH = "src/loss/ctc_loss_v3_grad"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_T12_B20_C1000", "shapes": {"grad_out": [20], "log_probs": [12, 20, 1000], "targets": [20, 10], "input_lengths": [20],
                                            "target_lengths": [20], "neg_log_likelihood": [20], "log_alpha": [20, 12, 21]},
     "attrs": {"blank": 0}, "ranges": {"grad_out": [0.0, 1.0], "log_probs": [-2.0, -1.0], "targets": [1, 999], "input_lengths": [12, 12],
                                       "target_lengths": [10, 10], "neg_log_likelihood": [0.0, 1.0], "log_alpha": [0.0, 1.0]}},
    {"name": "short_inputs", "shapes": {"grad_out": [4], "log_probs": [30, 4, 50], "targets": [4, 5], "input_lengths": [4],
                                       "target_lengths": [4], "neg_log_likelihood": [4], "log_alpha": [4, 30, 11]},
     "attrs": {"blank": 0}, "ranges": {"grad_out": [0.0, 1.0], "log_probs": [-5.0, -1.0], "targets": [1, 49], "input_lengths": [11, 30],
                                       "target_lengths": [1, 5], "neg_log_likelihood": [0.0, 1.0], "log_alpha": [-3.0, 0.0]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def _lse(*a):
    m = np.maximum.reduce(a)
    fin = np.isfinite(m)
    safe = np.where(fin, m, 0.0)
    return np.where(fin, safe + np.log(sum(np.exp(x - safe) for x in a)), m)


def golden(grad_out, log_probs, targets, input_lengths, target_lengths, neg_log_likelihood, log_alpha, *,
           blank=0, reduction="mean", zero_infinity=False):
    lp_all = log_probs.astype(np.float64)
    big_t, nb, nc = lp_all.shape
    grad = np.zeros_like(lp_all)
    for b in range(nb):
        t_len, l_len = int(input_lengths[b]), int(target_lengths[b])
        nll = float(neg_log_likelihood[b])
        if zero_infinity and np.isinf(nll):
            continue
        tg = targets[b, :l_len].astype(np.int64) if targets.ndim == 2 else None
        ext = np.full(2 * l_len + 1, blank, dtype=np.int64)
        ext[1::2] = tg
        s_len = ext.size
        lp = lp_all[:, b, :]
        beta = np.full((t_len, s_len), -np.inf)
        beta[t_len - 1, s_len - 1] = lp[t_len - 1, blank]
        if l_len > 0:
            beta[t_len - 1, s_len - 2] = lp[t_len - 1, ext[s_len - 2]]
        skip = np.zeros(s_len, dtype=bool)   # s may jump to s + 2 (distinct labels, not blank)
        skip[:-2] = (ext[:-2] != blank) & (ext[:-2] != ext[2:])
        for t in range(t_len - 2, -1, -1):
            nxt = beta[t + 1]
            a1 = np.concatenate([nxt[1:], [-np.inf]])
            a2 = np.where(skip, np.concatenate([nxt[2:], [-np.inf, -np.inf]]), -np.inf)
            beta[t] = _lse(nxt, a1, a2) + lp[t, ext]
        la = log_alpha[b, :t_len, :s_len].astype(np.float64)
        ab = la + beta
        for t in range(t_len):
            r = np.full(nc, -np.inf)
            np.logaddexp.at(r, ext, ab[t])
            grad[t, b] = (np.exp(lp[t]) - np.exp(r + nll - lp[t])) * float(grad_out[b])
    return grad


OUT_OF_SCOPE = None
