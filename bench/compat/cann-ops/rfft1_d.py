"""Rfft1D (cann-ops src/math/rfft1_d): the one-sided DFT of the last axis of x, y[..., k, :] =
(Re, Im) of scale * sum_t x[..., t] exp(-2 pi i k t / n) for k = 0 .. n/2, scale 1, 1/n or
1/sqrt(n) for norm 1 (backward), 2 (forward), 3 (ortho). The kernel does not compute the
twiddles: its second input `dft` (VIRTUAL in the OpDef) is the DFT matrix CANN's aclnn layer
(op_host/acl_rfft1d.cpp, not a user's input) builds on the host, and for n <= 4096 the kernel is
one Matmul x[batch, n] @ dft. So each case gives `dft` as that layer lays it out, built here from
the mathematics: rows t < n of [cos, sin] pairs per k, already scaled by the norm, in a buffer of
(n rounded up past a multiple of 8) x (n rounded up past a multiple of 16) floats; stored dense
(row stride 2(n/2+1)) when n % 16 is 1..8, otherwise as 8-column NZ fractals of the row-padded
matrix (the kernel's Matmul reads it as CubeFormat::NZ). x arrives with its last axis already
n long (the aclnn layer pads or cuts it). Cases: the README's [1, 1, 8] (n 8), a batch of odd
length n 5 (dense layout, ortho), n 12 over 3 rows (NZ layout, forward), n 32 over 5 rows and
n 100 over 7 rows (dense, past the kernel's 64-element small-tiling bound). Lengths above 4096
(Cooley-Tukey and Bluestein paths, whose twiddle matrices the layer also builds) are not
measured."""
import numpy as np

PATH = "src/math/rfft1_d"
SOCS = ["Ascend910B1"]
NORM_SCALE = {1: lambda n: 1.0, 2: lambda n: 1.0 / n, 3: lambda n: 1.0 / np.sqrt(n)}


def dft_layout(n: int, norm: int) -> np.ndarray:
    """The flat float32 `dft` input for signal length n <= 4096, as the aclnn layer passes it."""
    bins = n // 2 + 1
    cols, rows = n + 8 - n % 8, n + 16 - n % 16      # always padded, even when already aligned
    angle = -2.0 * np.pi * np.outer(np.arange(n), np.arange(bins)) / n
    pairs = np.stack([np.cos(angle), np.sin(angle)], axis=-1).reshape(n, 2 * bins)
    pairs = pairs * NORM_SCALE[norm](n)
    flat = np.zeros(rows * cols)
    if n % 16 and n % 16 <= 8:
        flat[:pairs.size] = pairs.reshape(-1)
    else:
        padded = np.zeros((rows, cols))
        padded[:n, :2 * bins] = pairs
        flat = padded.reshape(rows, cols // 8, 8).transpose(1, 0, 2).reshape(-1)
    return flat.astype(np.float32)


def case(name, x_shape, n, norm):
    dft = dft_layout(n, norm)
    return {"name": name, "shapes": {"x": x_shape, "dft": [dft.size]},
            "attrs": {"n": n, "norm": norm}, "ranges": {"x": [-10.0, 10.0]},
            "values": {"dft": [float(v) for v in dft]},
            "output_shapes": {"y": x_shape[:-1] + [n // 2 + 1, 2]}}


CASES = [case("readme_1x1x8", [1, 1, 8], 8, 1),
         case("odd_n5_ortho", [2, 5], 5, 3),
         case("nz_n12_forward", [3, 12], 12, 2),
         case("n32_rows5", [5, 32], 32, 1),
         case("n100_rows7", [7, 100], 100, 3)]


def golden(x, dft, *, n=1, norm=1):
    spectrum = np.fft.rfft(x.astype(np.float64), n=n, axis=-1) * NORM_SCALE[norm](n)
    return np.stack([spectrum.real, spectrum.imag], axis=-1).astype(np.float32)


OUT_OF_SCOPE = None
