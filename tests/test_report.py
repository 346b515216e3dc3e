"""`opkg report`: the HTML page of a real build, opened in a real headless Chromium (Debian's
chromium and chromium-driver, driven by selenium): it loads from file:// with the network
unreachable, every figure is drawn with a size, the browser logs no error, and what it shows is
what the build wrote (the wrong region of a failing case is where the heatmap is hot)."""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import sys

import pytest

from tests.conftest import opkg

ONE_SOC = ("--soc", "Ascend910B1")
# add_custom's golden is wrong on one block of rows 2-3, columns 600-899 of the 7 x 1200 case
BAD_GOLDEN = """\
import numpy as np


def add_custom(x, y):
    z = x.astype(np.float64) + y.astype(np.float64)
    if x.shape == (7, 1200):
        z[2:4, 600:900] += 0.25
    return z
"""
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run",
                  # no name resolves: a page that needs the network logs errors and draws nothing
                  "--host-resolver-rules=MAP * ~NOTFOUND")


@contextlib.contextmanager
def chromium(tmp_path):
    """A headless Chromium session; missing tools fail the test with how to install them."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.fail("selenium is needed: it is in the test extra (pip install -e '.[test]')")

    browser, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not (browser and driver):
        pytest.fail("chromium and chromedriver are needed: `make check-test-tools` installs them "
                    "(Debian/Ubuntu: apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in CHROMIUM_FLAGS + (f"--user-data-dir={tmp_path / 'chromium-profile'}",):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    session = webdriver.Chrome(options=options, service=Service(driver))
    try:
        yield session
    finally:
        session.quit()


@pytest.fixture
def failing_build(workspace, add_custom_cache):
    """add_custom (one case wrong in a known region) and relu_add, which needs the library
    common, verified on one SoC; the compiled add_custom comes from the shared test cache."""
    workspace.copy_package("add_custom")
    (workspace.root / "packages/add_custom/golden.py").write_text(BAD_GOLDEN)
    workspace.copy_package("relu_add")
    workspace.copy_package("common")
    root = workspace.root
    r = opkg("report", cwd=root, check=2)
    assert "no verification report to draw" in r.stderr
    assert "hint: build first: opkg build //..." in r.stderr and "Traceback" not in r.stderr
    opkg("test", "//...", *ONE_SOC, "-j", "2", cwd=root, check=1)
    return root


def test_report_of_a_failing_build_in_chromium(failing_build, tmp_path):
    root = failing_build
    r = opkg("report", "-o", "ci/report.html", *ONE_SOC, cwd=root, check=0)
    # 4 error figures (heatmap + histogram for each variant's failing case), 1 roofline,
    # 2 load balances, 1 copy-size histogram, 1 graph
    assert r.stdout.strip() == "wrote ci/report.html: 14 cases (2 failed), 9 figures"
    page = root / "ci" / "report.html"
    text = page.read_text()
    # self-contained: no resource from elsewhere (plotly.js is inline)
    assert "<script src" not in text and "<link" not in text

    with chromium(tmp_path) as browser:
        browser.get(page.as_uri())
        from selenium.webdriver.support.ui import WebDriverWait

        # every plot drawn: plotly adds its SVG to the div once the figure is laid out
        WebDriverWait(browser, 60).until(lambda b: b.execute_script(
            "return [...document.querySelectorAll('.plotly-graph-div')]"
            ".every(d => d.querySelector('.main-svg'))"))
        sizes = browser.execute_script(
            "return [...document.querySelectorAll('.plotly-graph-div')].map(d => {"
            " const r = d.querySelector('.main-svg').getBoundingClientRect();"
            " return [d.id, r.width, r.height, d.parentElement.getBoundingClientRect().width,"
            "         d.layout.title.text]; })")
        assert len(sizes) == 9
        # drawn, and within its place on the page (a plot wider than its column is cut off)
        assert all(w > 300 and h > 200 and w <= room + 0.5 for _, w, h, room, _ in sizes), sizes
        titles = [t for *_, t in sizes]
        errors = [l for l in browser.get_log("browser") if l["level"] == "SEVERE"]
        assert errors == []
        resources = browser.execute_script(
            "return performance.getEntriesByType('resource').map(e => e.name)")
        assert [u for u in resources if not u.startswith(("file:", "data:", "blob:"))] == []

        # the table: every case, the failing ones with the first wrong element and the command
        rows = browser.execute_script(
            "return [...document.querySelectorAll('#cases tbody tr')].map(r =>"
            " [...r.cells].map(c => c.textContent.trim()))")
        assert len(rows) == 14
        failed = [r for r in rows if r[4] == "FAIL"]
        assert rows[:2] == failed                       # failures first
        assert rows[2][12] == "0.001/0.001" and rows[-1][12] == "1e-06/1e-06"
        # one row per declared variant, failing ones first; the table fits the page
        variants = browser.execute_script(
            "return [...document.querySelectorAll('#variant-table tbody tr')].map(r =>"
            " [...r.cells].map(c => c.textContent.trim()))")
        assert [v[:4] for v in variants[:2]] == [
            ["//packages/add_custom", "Ascend910B1", v, "FAILED"] for v in ("float16", "float32")]
        assert variants[0][6] == "1 of 3 cases failed: uneven_split"
        assert {v[3] for v in variants[2:]} == {"PASS"} and len(variants) == 4
        # the table takes the page's width and never widens the page: narrower than the
        # table, the page scrolls it inside its box; wider, the table fills it
        def widths():
            return browser.execute_script(
                "const t = document.querySelector('#cases');"
                "return [t.parentElement.getBoundingClientRect().width,"
                " t.getBoundingClientRect().width, document.documentElement.scrollWidth,"
                " document.documentElement.clientWidth]")

        for width in (900, 1800):
            browser.set_window_size(width, 1000)
            try:        # plotly lays its plots out again after a resize, in a moment
                WebDriverWait(browser, 10).until(lambda b: widths()[2] <= widths()[3])
            except Exception:
                pass
            box, table, page, room = widths()
            assert page <= room and box <= room, (width, box, table, page, room)
            assert table >= box - 1 and (width == 900) == (table > box + 1), (width, box, table)
        assert [(r[0], r[2], r[3]) for r in failed] == [
            ("add_custom", "float16", "uneven_split"), ("add_custom", "float32", "uneven_split")]
        assert failed[1][8].startswith("z[2, 600] = ")
        assert failed[1][11] == ("opkg test //packages/add_custom --soc Ascend910B1 "
                                 "--variant float32 --case uneven_split")

        # the heatmap is red (above the tolerance) exactly where the golden is wrong: 1200
        # columns pooled by 6; 0.25 off against rtol = atol = 1e-6 is past 1e3 times the limit
        heat = next(i for i, *_, t in sizes if t.startswith("z: error / tolerance")
                    and "float32/uneven_split, 7x1200; 600 outside tolerance" in t)
        z = _decoded(browser, heat)
        hot = {(i, j) for i, row in enumerate(z) for j, v in enumerate(row) if v > 0}
        assert hot == {(i, j) for i in (2, 3) for j in range(100, 150)}
        assert all(z[i][j] == 3 for i, j in hot)
        assert all(v == -3 for i, row in enumerate(z) for j, v in enumerate(row)
                   if (i, j) not in hot)           # exact: the bottom of the scale
        assert any(t.startswith("z: histogram of errors") and "float32/uneven_split: 7800 exact, "
                   "600 differ, 600 outside tolerance, 0 non-finite" in t for t in titles)

        # the profile is labelled a model; each case is a point of the roofline
        roof = next(i for i, *_, t in sizes if t.startswith("Roofline on Ascend910B1"))
        assert "MODEL, not a measurement" in browser.execute_script(
            f"return document.getElementById('{roof}').layout.title.text")
        points = browser.execute_script(
            f"return document.getElementById('{roof}').data.slice(1).map(d => d.name)")
        assert len(points) == 14 and "add_custom float32/even" in points
        balance = next(i for i, *_, t in sizes if t.startswith("add_custom on Ascend910B1"))
        lines = browser.execute_script(
            f"return document.getElementById('{balance}').data.map(d => d.x.length)")
        # 6 cases x (GM, vector); the even case splits over all 48 cores
        assert len(lines) == 12 and max(lines) == 48

        # the graph: relu_add -> common, coloured by status
        graph = next(i for i, *_, t in sizes if t.startswith("Package dependencies"))
        nodes = browser.execute_script(
            f"return document.getElementById('{graph}').data.map(d => [d.name, d.text])")
        assert sorted((n, sorted(t)) for n, t in nodes) == [
            ("fail", ["//packages/add_custom"]), ("library", ["//packages/common"]),
            ("pass", ["//packages/relu_add"])]
        assert browser.execute_script(
            f"return document.getElementById('{graph}').layout.annotations.length") == 1


def _decoded(browser, div):
    """The heatmap's cells as plotly.js drew them: numpy arrays travel base64-encoded, and the
    decoded rows (typed arrays) are in the figure's full data."""
    return browser.execute_script(
        f"const z = document.getElementById('{div}')._fullData[0].z;"
        "return Array.from(z, r => Array.from(r));")


def test_without_plotly_the_error_says_how_to_install_it(workspace):
    workspace.operator("addone")
    # plotly made unimportable the documented way (a None entry in sys.modules)
    r = subprocess.run([sys.executable, "-c", "import sys; sys.modules['plotly'] = None\n"
                        "from opkg.cli import main; main(['report'])"],
                       cwd=workspace.root, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "error: opkg report draws its figures with plotly, which is not installed" in r.stderr
    assert "hint: install the report extra: pip install 'ascend-opkg[report]'" in r.stderr
    assert "Traceback" not in r.stderr



def test_unwritten_elements_show_at_the_top_of_the_heatmap_and_are_counted():
    import numpy as np

    from opkg.report import figures

    expected = np.arange(12.0).reshape(3, 4)
    actual = expected.copy()
    actual[0, 0] += 0.5
    actual[1, 2] = np.nan           # an element the kernel never stored (outputs start as NaN)
    heat = figures.error_heatmap("pkg soc float32/case", "z", expected, actual)
    assert np.asarray(heat.data[0].z).tolist() == [[0.5, 0, 0, 0], [0, 0, 0.5, 0], [0, 0, 0, 0]]
    assert "3x4; 1 non-finite shown at the top" in heat.layout.title.text
    hist = figures.error_histogram("pkg soc float32/case", "z", expected, actual, 0.0, 0.1)
    assert ("10 exact, 1 differ, 1 outside tolerance, 1 non-finite"
            in hist.layout.title.text)
    assert [(d.name, sum(d.y)) for d in hist.data] == [("outside tolerance", 1)]


def test_large_outputs_are_max_pooled_keeping_a_single_wrong_element():
    import numpy as np

    from opkg.report import figures

    expected = np.zeros((1000, 1000), np.float32)
    actual = expected.copy()
    actual[999, 3] = 2.0
    heat = figures.error_heatmap("t", "z", expected, actual)
    z = np.asarray(heat.data[0].z)
    assert z.shape == (200, 200) and z.sum() == 2.0 and z[199, 0] == 2.0
    assert heat.data[0].y[199] == 995 and heat.data[0].x[0] == 0      # cells start at those


def test_the_heatmap_and_histogram_show_error_against_the_tolerance():
    import numpy as np

    from opkg.report import figures

    expected = np.full((2, 4), 100.0)
    actual = expected.copy()
    actual[0, 0] += 0.05       # limit atol + rtol * 100 = 0.2: a quarter of it, within
    actual[1, 3] += 2.0        # ten times the limit: outside
    heat = figures.error_heatmap("pkg soc float32/case", "z", expected, actual, 1e-3, 0.1)
    z = np.asarray(heat.data[0].z)
    assert z[0, 0] == pytest.approx(np.log10(0.25)) and z[1, 3] == pytest.approx(1.0)
    assert z[0, 1] == -3
    assert heat.data[0].zmid == 0 and heat.data[0].colorbar.ticktext[3] == "1 (limit)"
    assert "1 outside tolerance (rtol 0.001, atol 0.1)" in heat.layout.title.text
    hist = figures.error_histogram("pkg soc float32/case", "z", expected, actual, 1e-3, 0.1)
    assert hist.layout.xaxis.title.text == "log10(error / tolerance): 0 is the limit"
    within, outside = hist.data
    assert within.name == "within tolerance" and outside.name == "outside tolerance"
    assert sum(within.y) == 1 and sum(outside.y) == 1
    at = lambda bar: next(x for x, y in zip(bar.x, bar.y) if y)
    assert at(within) < 0 < at(outside)
    assert hist.layout.shapes[0].x0 == 0              # the limit drawn at 0
