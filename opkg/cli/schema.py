"""`opkg schema`: where the JSON Schemas of opkg.yaml and opkg-workspace.yaml are installed."""

from __future__ import annotations

import json
from pathlib import Path

import click

SCHEMAS = {"manifest": ("opkg.schema.json", "**/opkg.yaml"),
           "workspace": ("opkg-workspace.schema.json", "**/opkg-workspace.yaml")}


def schema_path(kind: str) -> Path:
    from importlib.resources import files

    return Path(str(files("opkg").joinpath("schema", SCHEMAS[kind][0]))).resolve()


@click.command()
@click.argument("kind", required=False, type=click.Choice(list(SCHEMAS)))
@click.option("--vscode", is_flag=True,
              help="Print the `yaml.schemas` setting of VS Code's YAML extension for both.")
def schema(kind, vscode):
    """Print the path of the JSON Schema of opkg.yaml (manifest) or opkg-workspace.yaml
    (workspace), or of both, for an editor's YAML language server.

    \b
    Examples:
      opkg schema                 both, one per line
      opkg schema manifest        the path alone (for scripts)
      opkg schema --vscode        "yaml.schemas": {...} for .vscode/settings.json
    """
    if vscode:
        mapping = {str(schema_path(k)): glob for k, (_, glob) in SCHEMAS.items()}
        click.echo(json.dumps({"yaml.schemas": mapping}, indent=2))
    elif kind:
        click.echo(schema_path(kind))
    else:
        for k in SCHEMAS:
            click.echo(f"{k:<10} {schema_path(k)}")
