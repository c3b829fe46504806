"""Score card renderers (ICF law XIX): a MatchReport in, text out. No file I/O here."""

from rules.render.csv import render_csv
from rules.render.html import render_html
from rules.render.json import render_json

RENDERERS = {"json": render_json, "csv": render_csv, "html": render_html}

__all__ = ["RENDERERS", "render_csv", "render_html", "render_json"]
