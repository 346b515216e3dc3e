"""int4 (ge::DT_INT4) as a manifest dtype outside the sim's kernel run: the dtype table, the OpDef
text reader and msopgen's JSON spelling, seeded inputs, and the golden's results, which must lie in
int4's range (ml_dtypes' cast would wrap them silently). The GM packing and the kernel side:
tests/sim/test_sim_int4.py."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from opkg.core.model import DTYPES, numpy_dtype
from opkg.importers.opdef import parse_opdef_text
from opkg.verify.inputs import exact_input, make_input
from opkg.verify.runner import _expected_array, _int_poison

OPDEF = """\
#include "register/op_def_registry.h"
namespace ops {
class QuantOp : public OpDef {
public:
    explicit QuantOp(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_INT8, ge::DT_INT4});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT32, ge::DT_INT32});
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(QuantOp);
}
"""


def test_the_dtype_table_has_packed_int4():
    d = DTYPES["int4"]
    assert (d.ge, d.ge_value, d.c_type, d.kind, d.per_byte) == ("DT_INT4", 29, "int4b_t", "int", 2)
    assert numpy_dtype("int4") == np.dtype(ml_dtypes.int4)


def test_an_opdef_listing_dt_int4_is_read(tmp_path):
    src = tmp_path / "quant_op.cpp"
    src.write_text(OPDEF)
    ops, why = parse_opdef_text([src])
    assert why == []
    assert ops[0]["inputs"][0]["dtypes"] == ["int8", "int4"]


def test_msopgen_json_spells_int4():
    from opkg.importers.prototype_json import _MSOPGEN_DTYPES

    assert _MSOPGEN_DTYPES["int4"] == "int4"


def test_seeded_inputs_stay_in_int4s_range():
    x = make_input(0, "case", "x", (4, 64), "int4", (-100.0, 100.0))
    assert x.dtype == np.dtype(ml_dtypes.int4)
    wide = x.astype(np.int32)
    assert wide.min() == -8 and wide.max() == 7        # the range clipped to int4's, both ends drawn


def test_an_exact_value_outside_int4_is_refused():
    assert exact_input([-8, 7], (2,), "int4").astype(np.int8).tolist() == [-8, 7]
    with pytest.raises(ValueError, match="not exact in int4"):
        exact_input([8], (1,), "int4")


def test_a_golden_value_outside_int4_is_an_error_not_a_wrapped_result():
    dtype = numpy_dtype("int4")
    ok = _expected_array(np.array([-8, 0, 7], np.int32), dtype, "y")
    assert ok.dtype == dtype and ok.astype(np.int8).tolist() == [-8, 0, 7]
    with pytest.raises(ValueError, match=r"returned 9 \(element 1\) for the int4 output 'y', outside"):
        _expected_array(np.array([1, 9], np.int32), dtype, "y")


def test_unwritten_int4_outputs_are_poisoned_with_its_minimum():
    assert int(_int_poison(numpy_dtype("int4"))) == -8
