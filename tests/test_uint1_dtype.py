"""uint1 (ge::DT_UINT1, ops-nn's relu_v2 mask) as a manifest dtype: the dtype table, the OpDef text
reader, seeded inputs of 0 and 1, the GM image (eight values a byte, the first in bit 0), and the
ttk golden's side, which takes and returns such a tensor as its bytes (relu_grad_v2's golden reads
the mask bit by bit, relu_v2's returns np.packbits(..., bitorder="little"))."""

from __future__ import annotations

import numpy as np

from opkg.core.model import DTYPES, OpSpec, TensorSpec, int_limits
from opkg.importers.opdef import parse_opdef_text
from opkg.sim import packed
from opkg.verify.inputs import make_input
from opkg.verify.runner import _call_golden, _in_shape
from tests.test_int4_dtype import OPDEF as INT4_OPDEF

# int4's OpDef text with a one-bit output
OPDEF = (INT4_OPDEF.replace("{ge::DT_INT8, ge::DT_INT4}", "{ge::DT_FLOAT, ge::DT_FLOAT16}")
         .replace("{ge::DT_INT32, ge::DT_INT32}", "{ge::DT_UINT1, ge::DT_UINT1}"))


def test_the_dtype_table_has_one_bit_uint1():
    d = DTYPES["uint1"]
    assert (d.ge, d.ge_value, d.c_type, d.kind, d.per_byte) == ("DT_UINT1", 30, "uint8_t", "uint", 8)
    assert int_limits("uint1") == (0, 1)


def test_an_opdef_listing_dt_uint1_is_read(tmp_path):
    assert "DT_UINT1" in OPDEF
    src = tmp_path / "mask_op.cpp"
    src.write_text(OPDEF)
    ops, why = parse_opdef_text([src])
    assert why == []
    assert ops[0]["outputs"][0]["dtypes"] == ["uint1", "uint1"]


def test_seeded_inputs_are_bits():
    m = make_input(0, "case", "mask", (4, 64), "uint1", (-1.0, 1.0))
    assert m.dtype == np.uint8 and set(np.unique(m).tolist()) == {0, 1}


def test_gm_image_packs_eight_values_a_byte_first_in_bit_0():
    m = np.array([1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1], np.uint8)
    np.testing.assert_array_equal(packed.gm_image(m, "uint1", "mask"), np.array([0x01, 0x86], np.uint8))
    back = np.full_like(m, 7)
    packed.from_gm(packed.gm_image(m, "uint1", "mask"), back, "uint1")
    np.testing.assert_array_equal(back, m)
    assert packed.gm_nbytes(m, "uint1") == 2
    assert "multiple of 8" in packed.whole_bytes_problem(12, "uint1", "mask")


def test_a_ttk_golden_takes_and_returns_one_bit_tensors_as_bytes():
    op = OpSpec("MaskSel", (TensorSpec("x", ("float32",)), TensorSpec("m", ("uint1",))),
                (TensorSpec("y", ("float32",)), TensorSpec("n", ("uint1",))), ())
    variant = op.variant("float32_uint1")
    seen = {}

    def golden(x, m, **kwargs):
        seen["m"] = m
        bits = np.unpackbits(m, bitorder="little")[:x.size].reshape(x.shape)    # as relu_grad_v2's
        return np.where(bits == 1, x, 0), np.packbits(x > 0, bitorder="little")  # as relu_v2's

    x = np.linspace(-1, 1, 16, dtype=np.float32).reshape(2, 8)
    m = (np.arange(16) % 3 == 0).astype(np.uint8).reshape(2, 8)
    expected = _call_golden(golden, op, {"x": x, "m": m}, {}, variant, extra={"testcase_name": "t"})
    assert seen["m"].tolist() == packed.gm_image(m, "uint1", "m").tolist()
    np.testing.assert_array_equal(expected["y"], np.where(m == 1, x, 0))
    assert expected["n"].shape == (16,)       # flat, until the output's shape is known
    shaped = _in_shape(op, variant, expected, {"n": (2, 8), "y": (2, 1, 8)})
    np.testing.assert_array_equal(shaped["n"], (x > 0).astype(np.uint8))
    # any output whose shape alone differs is taken in the output's (rms_norm_grad's golden
    # returns dx [2, 16] for an InferShape of [2, 1, 16]); another element count stays
    assert shaped["y"].shape == (2, 1, 8)
    assert _in_shape(op, variant, expected, {"y": (3, 8)})["y"].shape == (2, 8)
