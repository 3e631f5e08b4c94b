"""Deprecated: each game's pictures now live in its own package,
``cardlab.games.<game>.render`` (``from cardlab.games.mipig.render import
card_svg``).  ``cardlab.renderers.<game>`` still gives that module, with a
:class:`DeprecationWarning`.
"""

import sys
import warnings

from . import games

warnings.warn("cardlab.renderers is deprecated: use cardlab.games.<game>.render "
              "(for example: from cardlab.games.mipig.render import card_svg)", DeprecationWarning, stacklevel=2)

for _name, _package in games.CATALOGUE.items():
    globals()[_name] = _package.render
    sys.modules[f"{__name__}.{_name}"] = _package.render

__all__ = sorted(games.CATALOGUE)
