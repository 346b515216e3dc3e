"""Sub-byte tensors at the GM boundary: NumPy holds an int4 tensor one value a byte (ml_dtypes'
int4, so goldens compute on it as on any integer array), the device two values a byte, the
first element in the low nibble (asc-devkit kernel_tensor_impl.h); a uint1 tensor one value a
byte, the device eight, the first element in bit 0. The sim packs an array into that image when
it places the tensor in GM (and hands it to tiling) and unpacks what the kernel left there;
every other dtype's image is the array's own bytes.

Holding the values unpacked in NumPy (rather than handing callers the packed bytes) keeps a
golden's arithmetic, the comparison and the saved inputs in element terms, as for every other
dtype; only the GM image, which the kernel and host code see, is packed."""

from __future__ import annotations

import numpy as np

from opkg.core.model import DTYPES


def packs(dtype: str) -> bool:
    return DTYPES[dtype].per_byte > 1


def whole_bytes_problem(count: int, dtype: str, name: str) -> str | None:
    """Why `count` elements of `dtype` do not fill whole bytes (None when they do)."""
    per = DTYPES[dtype].per_byte
    if count % per == 0:
        return None
    return (f"{name} is a {dtype} tensor of {count} elements: the device packs {per} {dtype} "
            f"values a byte, so the sim needs a multiple of {per} elements"
            + (" (CANN's int4 operators require an even inner dimension)" if per == 2 else ""))


def gm_image(arr: np.ndarray, dtype: str, name: str) -> np.ndarray:
    """The bytes the device holds for `arr` (a view of the array itself where nothing packs)."""
    if not packs(dtype):
        return arr
    problem = whole_bytes_problem(arr.size, dtype, name)
    if problem:
        raise ValueError(problem)
    if DTYPES[dtype].per_byte == 8:
        return bits_image(arr)
    nibbles = arr.reshape(-1).view(np.uint8) & 0x0F    # ml_dtypes' int4: one value a byte, two's complement
    return np.ascontiguousarray(nibbles[0::2] | (nibbles[1::2] << 4))


def bits_image(arr: np.ndarray) -> np.ndarray:
    """The bytes of a one-bit tensor held one value a byte: eight a byte, the first in bit 0."""
    return np.packbits(np.asarray(arr).reshape(-1).astype(np.uint8) & 1, bitorder="little")


def gm_nbytes(arr: np.ndarray, dtype: str) -> int:
    return arr.size // DTYPES[dtype].per_byte if packs(dtype) else arr.nbytes


def from_gm(raw: np.ndarray, into: np.ndarray, dtype: str) -> None:
    """Stores the GM bytes `raw` (gm_nbytes(into) of them) into the array `into`, unpacking."""
    flat = into.reshape(-1)
    if not packs(dtype):
        flat.view(np.uint8)[:] = raw
        return
    if DTYPES[dtype].per_byte == 8:
        flat.view(np.uint8)[:] = np.unpackbits(np.asarray(raw, np.uint8), bitorder="little")[:flat.size]
        return
    low, high = raw & 0x0F, raw >> 4
    nibbles = np.empty(flat.size, np.uint8)
    nibbles[0::2], nibbles[1::2] = low, high
    # sign-extend the 4-bit two's complement into ml_dtypes' one-byte form
    flat.view(np.uint8)[:] = np.where(nibbles & 0x08, nibbles | 0xF0, nibbles)


def written_elements(shadow: np.ndarray, arr: np.ndarray, dtype: str) -> np.ndarray:
    """Per element of `arr`, whether every GM byte behind it was stored (shadow: one flag a byte).
    A packed element counts as written when its byte is: the device stores whole bytes."""
    flags = shadow.view(bool)
    if packs(dtype):
        return np.repeat(flags, DTYPES[dtype].per_byte)[:arr.size].reshape(arr.shape)
    return flags.reshape(-1, arr.itemsize).all(axis=1).reshape(arr.shape)
