"""STFT (cann-ops src/math/stft): the short-time Fourier transform of x ([len] or [batch, len],
no centre padding: the caller pads), frames f = 0 .. (len - n_fft) / hop_length taken hop_length
apart, each multiplied by the window zero-padded to n_fft (centred) and transformed:
y[b, k, f] = s * sum_t x[b, f * hop + t] w[t] exp(-2 pi i k t / n_fft), k < n_fft / 2 + 1 when
onesided, s = 1/sqrt(n_fft) when normalized; with return_complex false as (Re, Im) pairs,
y [batch, bins, frames, 2]. Like Rfft1D the kernel takes its DFT matrix as an input: `plan` and
the padded `window` are built by CANN's aclnn layer (op_host/acl_stft.cpp), not by a user, and
each case gives them as that layer lays them out, built here from the mathematics: per bin k a
row of cos(2 pi k t / n_fft) then a row of -sin(2 pi k t / n_fft), t < n_fft, each row zero-padded
to nfftAlign (n_fft rounded up to 128 bytes, 32 floats), shape [2, bins, nfftAlign] as the layer
allocates it; the window (ones of win_length when none is given) zero-padded to nfftAlign with
(n_fft - win_length) / 2 zeros in front. Float32 cases on the generalized path (tiling key 1): the
aclnn example (x [5], n_fft 4, hop 2, window of four ones), a batch of two with a Hann window
shorter than n_fft (normalized), and a two-sided batch of three without a window (ones). The
n_fft 400 / hop 160 path (tiling key 0) needs a [201, 2, 400] plan, more values than a case may
list, and is not measured."""
import numpy as np

PATH = "src/math/stft"
SOCS = ["Ascend910B1"]
ALIGN = 32     # floats in the 128 bytes the aclnn layer aligns n_fft to (float32 input)


def aligned(n_fft: int) -> int:
    return (n_fft + ALIGN - 1) // ALIGN * ALIGN


def plan_layout(n_fft: int, onesided: bool) -> np.ndarray:
    bins = n_fft // 2 + 1 if onesided else n_fft
    angle = 2.0 * np.pi * np.outer(np.arange(bins), np.arange(n_fft)) / n_fft
    rows = np.zeros((bins, 2, aligned(n_fft)))
    rows[:, 0, :n_fft] = np.cos(angle)
    rows[:, 1, :n_fft] = -np.sin(angle)
    return rows.astype(np.float32).reshape(2, bins, aligned(n_fft))


def window_layout(n_fft: int, win_length: int, window=None) -> np.ndarray:
    w = np.ones(win_length) if window is None else np.asarray(window, np.float64)
    out = np.zeros(aligned(n_fft))
    left = (n_fft - win_length) // 2
    out[left:left + win_length] = w
    return out.astype(np.float32)


def case(name, x_shape, n_fft, hop, win_length, *, window=None, normalized=False, onesided=True):
    plan = plan_layout(n_fft, onesided)
    win = window_layout(n_fft, win_length, window)
    bins = plan.shape[1]
    frames = (x_shape[-1] - n_fft) // hop + 1
    return {"name": name, "shapes": {"x": x_shape, "plan": list(plan.shape), "window": list(win.shape)},
            "attrs": {"hop_length": hop, "win_length": win_length, "normalized": normalized,
                      "onesided": onesided, "return_complex": False, "n_fft": n_fft},
            "ranges": {"x": [-10.0, 10.0]},
            "values": {"plan": [float(v) for v in plan.reshape(-1)],
                       "window": [float(v) for v in win]},
            "output_shapes": {"y": x_shape[:-1] + [bins, frames, 2]}}


HANN12 = 0.5 - 0.5 * np.cos(2.0 * np.pi * np.arange(12) / 12)     # periodic Hann, as torch's
CASES = [case("example_n4_hop2", [5], 4, 2, 4, window=[1, 1, 1, 1]),
         case("batch2_hann12_n16_normalized", [2, 64], 16, 4, 12, window=HANN12, normalized=True),
         case("twosided_n10_hop3_no_window", [3, 50], 10, 3, 10, onesided=False)]


def golden(x, plan, window, *, hop_length=1, win_length=1, normalized=False, onesided=True,
           return_complex=False, n_fft=1):
    """From x and the window as the kernel gets it (its first n_fft values: the user's window,
    centred and zero-padded to n_fft); the plan is the DFT matrix, recomputed here."""
    signal = x.astype(np.complex128 if np.iscomplexobj(x) else np.float64)
    frames = (signal.shape[-1] - n_fft) // hop_length + 1
    starts = np.arange(frames) * hop_length
    segments = signal[..., starts[:, None] + np.arange(n_fft)] * window[:n_fft]   # [..., f, t]
    spectrum = np.fft.fft(segments, axis=-1)
    if onesided:
        spectrum = spectrum[..., :n_fft // 2 + 1]
    if normalized:
        spectrum = spectrum / np.sqrt(n_fft)
    spectrum = np.swapaxes(spectrum, -1, -2)                                     # [..., k, f]
    return np.stack([spectrum.real, spectrum.imag], axis=-1).astype(np.float32)


OUT_OF_SCOPE = None
