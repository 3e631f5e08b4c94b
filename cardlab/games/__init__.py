"""The built-in games; importing this package registers each of them.

One module per game, each reading top to bottom: card data, the Game (options
and spec), the State (rules), registration with :func:`cardlab.core.register`.

``cardlab.games`` is both this package (``cardlab.games.koinobori``) and the
function the API promises: ``cardlab.games()`` lists the registered names.
"""

import sys
import types

from .. import core as _core
from . import koinobori  # noqa: F401
from . import mipig  # noqa: F401
from . import mazemon  # noqa: F401
from . import monster_cards  # noqa: F401
from . import toritsuki  # noqa: F401


class _CallableModule(types.ModuleType):
    def __call__(self) -> list[str]:
        """The names of the registered games, sorted."""
        return _core.games()


sys.modules[__name__].__class__ = _CallableModule
