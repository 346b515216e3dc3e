"""CANN / driver version parsing, ordering and specifiers (opkg.core.versions)."""

import pytest
from hypothesis import given, settings, strategies as st

from opkg.core.errors import VersionError
from opkg.core.versions import (CannVersion, DriverVersion, Specifier, cann_spec, driver_spec,
                                parse_cann, parse_driver)

SEEN_CANN = ["7.0.T10", "8.0.RC2.alpha003", "8.0.RC3", "8.0.0", "8.1.RC1", "8.5.0",
             "9.0.0-beta.1"]
SEEN_DRIVER = ["23.0.3", "24.1.rc1", "25.0.rc1.1"]


@pytest.mark.parametrize("text", SEEN_CANN + ["8.0.RC2.1", "8.0.0.1", "8.5.0.alpha001",
                                              "9.0.0-alpha.2"])
def test_cann_prints_back_unchanged(text):
    assert str(parse_cann(text)) == text


@pytest.mark.parametrize("text", SEEN_DRIVER + ["24.1.0", "24.1.0.1"])
def test_driver_prints_back_unchanged(text):
    assert str(parse_driver(text)) == text


def test_cann_order_within_and_across_releases():
    ordered = ["7.0.T10", "7.0.RC1", "7.0.0", "8.0.T3", "8.0.RC1", "8.0.RC2.alpha001",
               "8.0.RC2.alpha003", "8.0.RC2", "8.0.RC2.1", "8.0.RC3", "8.0.0", "8.0.0.1",
               "8.1.RC1", "8.5.0.alpha001", "8.5.0", "9.0.0-beta.1", "9.0.0"]
    versions = [parse_cann(t) for t in ordered]
    assert sorted(reversed(versions)) == versions
    for a, b in zip(versions, versions[1:]):
        assert a < b, (a, b)


def test_issue_examples():
    assert parse_cann("8.0.RC3") < parse_cann("8.0.0") < parse_cann("8.1.RC1")
    assert parse_cann("8.0.RC2.alpha003") < parse_cann("8.0.RC2") < parse_cann("8.0.RC3")
    assert parse_driver("24.1.rc1") < parse_driver("24.1.rc2") < parse_driver("24.1.0")
    assert parse_driver("25.0.rc1") < parse_driver("25.0.rc1.1") < parse_driver("25.0.rc2")
    assert parse_driver("23.0.3") < parse_driver("24.1.rc1")


def test_equal_builds_spelt_differently():
    a, b = parse_cann("8.5.0.alpha001"), parse_cann("8.5.0-alpha.1")
    assert a == b and hash(a) == hash(b) and str(b) == "8.5.0-alpha.1"
    with pytest.raises(VersionError, match="malformed driver") as info:
        parse_driver("24.1.RC1")
    assert "did you mean '24.1.rc1'?" in info.value.hint


def test_wrong_kind_or_case_gets_a_pointed_hint():
    with pytest.raises(VersionError) as info:
        parse_cann("24.1.rc1")
    assert "looks like a driver version" in info.value.hint
    with pytest.raises(VersionError) as info:
        parse_cann("8.1.rc1")
    assert "did you mean '8.1.RC1'?" in info.value.hint
    with pytest.raises(VersionError) as info:
        parse_driver("8.0.RC2")
    assert "looks like a CANN version" in info.value.hint


def test_cann_and_driver_do_not_compare():
    with pytest.raises(TypeError):
        parse_cann("8.0.0") < parse_driver("24.1.0")
    assert parse_cann("8.0.0") != parse_driver("8.0.0")


@pytest.mark.parametrize("text", ["", "8", "8.0", "8.0.RC", "8.0.RC2.beta1", "v8.0.0",
                                  "8.0.RC2-alpha003", "8.0.T", "8.0.0-gamma.1", "8.0.0.x",
                                  "24.1.rc1", "8.0.RC2 extra"])
def test_malformed_cann_lists_accepted_forms(text):
    with pytest.raises(VersionError) as info:
        parse_cann(text)
    assert info.value.exit_code == 2
    assert "8.0.RC2.alpha003" in info.value.hint and "9.0.0-beta.1" in info.value.hint


@pytest.mark.parametrize("text", ["24", "24.1", "24.1.RC", "24.1.rc1.x", "8.0.RC2", "24.1.T1"])
def test_malformed_driver(text):
    with pytest.raises(VersionError) as info:
        parse_driver(text)
    assert "25.0.rc1.1" in info.value.hint


def test_non_string_version_says_quote_it():
    with pytest.raises(VersionError, match="must be a string") as info:
        parse_cann(8.0, field="toolchain.cann")
    assert "quote" in info.value.hint and info.value.field == "toolchain.cann"


@pytest.mark.parametrize("spec, inside, outside", [
    (">=8.0.RC2,<8.2", ["8.0.RC2", "8.0.RC3", "8.0.0", "8.1.RC1", "8.1.0"],
     ["8.0.RC1", "8.0.RC2.alpha003", "8.2.RC1", "8.2.0", "7.0.0"]),
    ("==8.0.RC2", ["8.0.RC2"], ["8.0.RC2.1", "8.0.RC3", "8.0.RC2.alpha003"]),
    ("8.0.RC2", ["8.0.RC2"], ["8.0.RC3"]),
    ("!=8.1.RC1", ["8.0.0", "8.1.RC2"], ["8.1.RC1"]),
    ("~=8.0.RC2", ["8.0.RC2", "8.0.RC3", "8.0.0", "8.0.5"], ["8.1.RC1", "8.0.RC1"]),
    # PEP 440: ~=8.0 is >=8.0,==8.*, and 8.0's RCs come before 8.0.
    ("~=8.0", ["8.1.RC1", "8.5.0", "8.0.0"], ["9.0.0", "7.0.0", "8.0.RC1"]),
    ("==8.0.*", ["8.0.T1", "8.0.RC1", "8.0.0", "8.0.3"], ["8.1.RC1"]),
    (">8.0.0, <= 8.1.RC1", ["8.0.1", "8.1.RC1"], ["8.0.0", "8.1.0"]),
    (">=9.0.0-beta.1", ["9.0.0-beta.2", "9.0.0"], ["9.0.0-alpha.3", "8.5.0"]),
])
def test_cann_specifiers(spec, inside, outside):
    s = cann_spec(spec)
    for v in inside:
        assert s.contains(v), (spec, v)
    for v in outside:
        assert not s.contains(parse_cann(v)), (spec, v)
    assert str(s) == spec.strip()


def test_driver_specifiers():
    s = driver_spec(">=24.1.rc2")
    assert s.contains("24.1.rc2") and s.contains("24.1.0") and s.contains("25.0.rc1.1")
    assert not s.contains("24.1.rc1") and not s.contains("23.0.3")
    assert driver_spec("<25").contains("24.1.rc2.3") and not driver_spec("<25").contains("25.0.rc1")


def test_driver_specifier_partial_release():
    s = driver_spec(">=24.1,<25")
    assert s.contains("24.1.0") and not s.contains("24.1.rc2") and not s.contains("25.0.rc1")


def test_specifier_equality_and_filter():
    assert cann_spec(">=8.0.RC2, <8.2") == cann_spec(">=8.0.RC2,<8.2.0")
    assert cann_spec(">=8.0.RC2").filter(["8.0.RC1", "8.0.RC2", "8.1.RC1"]) == ["8.0.RC2", "8.1.RC1"]


@pytest.mark.parametrize("spec", ["", " ", ">=", ">=8.0.RC2,", "=>8.0.RC2", ">=8.0.RC2.*",
                                  ">=8.0.*", "===8.0.0", "~=8", ">=8.0.RC2;<8.2", ">=24.1.rc1"])
def test_malformed_specifiers(spec):
    with pytest.raises(VersionError) as info:
        cann_spec(spec, field="toolchain.cann")
    assert ">=8.0.RC2,<8.2" in info.value.hint
    assert info.value.field == "toolchain.cann"


def test_specifier_clause_named_in_message():
    with pytest.raises(VersionError, match="8.0.XX"):
        cann_spec(">=8.0.RC2,<8.0.XX")


# --- properties -------------------------------------------------------------------------

_n = st.integers(min_value=0, max_value=30)
_num = _n.map(str)
# leading zeros, as in alpha003, must not change the order
_padded = st.builds(lambda n, w: str(n).zfill(w), _n, st.integers(1, 3))


@st.composite
def cann_text(draw):
    mm = f"{draw(_num)}.{draw(_num)}."
    form = draw(st.sampled_from(["T", "RC", "RCa", "RCf", "F", "Fa", "Fpre", "Ffix"]))
    if form == "T":
        return mm + "T" + draw(_num)
    if form.startswith("RC"):
        rc = mm + "RC" + draw(_num)
        if form == "RCa":
            return rc + ".alpha" + draw(_padded)
        if form == "RCf":
            return rc + "." + draw(_num)
        return rc
    final = mm + draw(_num)
    if form == "Fa":
        return final + ".alpha" + draw(_padded)
    if form == "Fpre":
        return final + "-" + draw(st.sampled_from(["alpha", "beta"])) + "." + draw(_num)
    if form == "Ffix":
        return final + "." + draw(_num)
    return final


@st.composite
def driver_text(draw):
    mm = f"{draw(_num)}.{draw(_num)}."
    if draw(st.booleans()):
        rc = mm + "rc" + draw(_num)
        return rc + ("." + draw(_num) if draw(st.booleans()) else "")
    return mm + draw(_num) + ("." + draw(_num) if draw(st.booleans()) else "")


@settings(max_examples=300)
@given(cann_text())
def test_prop_cann_round_trip(text):
    v = parse_cann(text)
    assert str(v) == text and parse_cann(str(v)) == v


@settings(max_examples=300)
@given(driver_text())
def test_prop_driver_round_trip(text):
    v = parse_driver(text)
    assert str(v) == text and parse_driver(str(v)) == v


@settings(max_examples=300)
@given(cann_text(), cann_text(), cann_text())
def test_prop_cann_order_total_and_transitive(a, b, c):
    a, b, c = parse_cann(a), parse_cann(b), parse_cann(c)
    assert [a < b, a == b, a > b].count(True) == 1
    assert (a <= b) == (not a > b)
    if a == b:
        assert hash(a) == hash(b)
    if a <= b and b <= c:
        assert a <= c
    assert sorted([a, b, c]) == sorted([c, b, a])


@settings(max_examples=300)
@given(cann_text(), cann_text())
def test_prop_cann_order_follows_release_then_stage(a, b):
    va, vb = parse_cann(a), parse_cann(b)
    # A different major.minor decides the order regardless of stage.
    if va.major_minor != vb.major_minor:
        assert (va < vb) == (va.major_minor < vb.major_minor)


@settings(max_examples=300)
@given(driver_text(), driver_text())
def test_prop_driver_order_total(a, b):
    a, b = parse_driver(a), parse_driver(b)
    assert [a < b, a == b, a > b].count(True) == 1


@settings(max_examples=200)
@given(cann_text(), cann_text())
def test_prop_specifier_agrees_with_order(a, b):
    va, vb = parse_cann(a), parse_cann(b)
    assert cann_spec(f">={a}").contains(vb) == (vb >= va)
    assert cann_spec(f"=={a}").contains(vb) == (vb == va)
    assert cann_spec(f"!={a}").contains(vb) == (vb != va)
    assert cann_spec(f"<={a}").contains(vb) == (vb <= va)


def test_manifest_validator_entry_points():
    from opkg.core import versions
    assert versions.parse_cann_spec(">=8.0.RC2").contains("8.0.RC3")
    with pytest.raises(VersionError):
        versions.parse_driver_spec(">=8.0.RC2")


def test_specifier_keeps_the_versions_own_hint():
    with pytest.raises(VersionError) as info:
        cann_spec(">=24.1.rc2")
    assert "looks like a driver version" in info.value.hint
    assert ">=8.0.RC2,<8.2" in info.value.hint


@settings(max_examples=200)
@given(driver_text(), driver_text())
def test_prop_driver_specifier_agrees_with_order(a, b):
    va, vb = parse_driver(a), parse_driver(b)
    assert driver_spec(f">={a}").contains(vb) == (vb >= va)
    assert driver_spec(f"<{a}").contains(vb) == (vb < va) or (
        # PEP 440: <V excludes V's pre-releases (24.1.rc1 is not <24.1.0)
        vb.key.is_prerelease and vb.key.release[:3] == va.key.release[:3])
