"""The game's rule digest folded on a page (the class app and the game rooms
both show it), from ``docs/rules/<game>.md`` of a clone of the repository."""

from __future__ import annotations

import html
from pathlib import Path

import ipywidgets as widgets

from ..core import Game
from ..i18n import _

__all__ = ["rules_panel", "RULES_DIR"]

#: the rule digests of a clone of the repository (an installed wheel has none)
RULES_DIR = Path(__file__).resolve().parents[2] / "docs" / "rules"


def rules_panel(game: Game) -> widgets.Widget:
    """The game's rule digest (``docs/rules/<game>.md``), folded, to read
    on the page itself: a link to a file outside the notebook folder opens
    neither in Voila nor in JupyterLab's output.  Where the digest is not
    at hand (cardlab installed without its repository), where to find it."""
    path = RULES_DIR / game.rules
    if not path.is_file():
        return widgets.HTML(_("Rules, rule by rule: {file} in the cardlab repository.").format(
            file=f"<code>docs/rules/{html.escape(game.rules)}</code>"))
    from IPython.display import Markdown

    out = widgets.Output()
    out.append_display_data(Markdown(path.read_text("utf-8")))
    panel = widgets.Accordion(children=[out])
    panel.set_title(0, _("Rules, rule by rule ({file})").format(file=f"docs/rules/{game.rules}"))
    panel.selected_index = None
    panel.add_class("cardlab-play-rules")
    return panel
