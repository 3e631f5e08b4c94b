"""Game-specific renderers: small pure functions of a state and a perspective.

Importing this package registers them with :mod:`cardlab.render`
(``render.html`` imports it lazily).  A game with no module here still gets
the generic text and observation renderings.
"""

from . import koinobori  # noqa: F401
from . import mipig  # noqa: F401
from . import mazemon  # noqa: F401
from . import monster_cards  # noqa: F401
from . import toritsuki  # noqa: F401

__all__ = ["koinobori"]
