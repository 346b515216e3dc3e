"""`opkg report`: one self-contained HTML page of what builds wrote, for people and as a CI
artifact. `data` reads the reports, saved arrays and package graph back; `figures` draws them
with plotly (the optional `report` extra, imported only here); `page` lays them out.
"""

from __future__ import annotations

EXTRA_HINT = "install the report extra: pip install 'ascend-opkg[report]' (or: pip install plotly)"


def require_plotly() -> None:
    """plotly is optional: without it, an error that says how to get it, before any work."""
    from opkg.core.errors import UsageError

    try:
        import plotly  # noqa: F401
    except ImportError:
        raise UsageError("opkg report draws its figures with plotly, which is not installed",
                         hint=EXTRA_HINT) from None
