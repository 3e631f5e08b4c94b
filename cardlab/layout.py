"""Declared position layouts (issue S, item 3): a game names the fields of
its position once, and both sides use the names.

- :class:`Layout` names the fields of the State's key tuple: the State reads
  ``k[L.stage]`` and writes ``L.replace(k, stage=PLACE, mover=0)`` instead of
  slicing a tuple by position; :meth:`Layout.named` gives the fields by name
  (for ``to_dict``, for a core's ``encode``).
- :class:`Bits` packs named small whole numbers into one int and back, for a
  compact core's position (:meth:`Bits.pack`, :meth:`Bits.unpack`,
  :meth:`Bits.get`); the widths come from the game's options, so a core
  builds its ``Bits`` when it is made.

>>> L = Layout("stage", "mover", "hands")
>>> k = L.make(stage="deal", mover=0, hands=((1, 2), (3,)))
>>> k[L.mover], L.replace(k, mover=1, stage="turn")
(0, ('turn', 1, ((1, 2), (3,))))
>>> L.named(k)["hands"]
((1, 2), (3,))
>>> B = Bits(("stage", 4), ("mover", 1), ("deck", 6))
>>> pos = B.pack(stage=3, mover=1, deck=40)
>>> B.unpack(pos), B.get(pos, "deck"), B.width
({'stage': 3, 'mover': 1, 'deck': 40}, 40, 11)
"""

from __future__ import annotations

from typing import Any

__all__ = ["Layout", "Bits"]


class Layout:
    """The names of a position tuple's fields, in order; ``layout.<name>``
    is that field's index."""

    __slots__ = ("names", "index")

    def __init__(self, *names: str) -> None:
        if len(set(names)) != len(names):
            raise ValueError(f"a layout names each field once: {names}")
        object.__setattr__(self, "names", tuple(names))
        object.__setattr__(self, "index", {n: i for i, n in enumerate(names)})

    def __getattr__(self, name: str) -> int:
        try:
            return self.index[name]
        except KeyError:
            raise AttributeError(f"no field {name!r} in the layout; the fields: {', '.join(self.names)}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Layout is fixed once declared")

    def __len__(self) -> int:
        return len(self.names)

    def make(self, **values: Any) -> tuple:
        """A key with every field given by name."""
        missing = [n for n in self.names if n not in values]
        extra = sorted(set(values) - set(self.names))
        if missing or extra:
            raise ValueError(f"fields missing: {missing}; unknown: {extra}")
        return tuple(values[n] for n in self.names)

    def replace(self, key: tuple, **changes: Any) -> tuple:
        """``key`` with the named fields changed."""
        k = list(key)
        index = self.index
        for name, value in changes.items():
            k[index[name]] = value
        return tuple(k)

    def named(self, key: tuple) -> dict[str, Any]:
        """The fields of ``key`` by name."""
        return dict(zip(self.names, key))

    def __repr__(self) -> str:
        return f"Layout{self.names!r}"


class Bits:
    """Named fields of whole numbers packed into one int, low bits first:
    ``Bits(("stage", 4), ("mover", 1))`` puts ``stage`` in bits 0-3 and
    ``mover`` in bit 4.  ``shift[name]`` and ``mask[name]`` serve hot loops
    that read a field inline."""

    __slots__ = ("fields", "shift", "mask", "width")

    def __init__(self, *fields: tuple[str, int]) -> None:
        shift: dict[str, int] = {}
        mask: dict[str, int] = {}
        at = 0
        for name, width in fields:
            if name in shift or width < 0:
                raise ValueError(f"field {name!r}: each field once, with a width of 0 bits or more")
            shift[name], mask[name] = at, (1 << width) - 1
            at += width
        self.fields = tuple(fields)
        self.shift, self.mask, self.width = shift, mask, at

    def fits(self, **values: int) -> bool:
        """Whether every value fits its field."""
        return all(0 <= v <= self.mask[n] for n, v in values.items())

    def pack(self, **values: int) -> int:
        """The int holding ``values`` (fields left out are 0); a value that does
        not fit its field is refused."""
        pos = 0
        for name, v in values.items():
            if not 0 <= v <= self.mask[name]:
                raise ValueError(f"{name}={v} does not fit in {self.mask[name].bit_length()} bits")
            pos |= v << self.shift[name]
        return pos

    def get(self, pos: int, name: str) -> int:
        """One field of ``pos``."""
        return (pos >> self.shift[name]) & self.mask[name]

    def unpack(self, pos: int) -> dict[str, int]:
        """Every field of ``pos`` by name."""
        return {n: (pos >> self.shift[n]) & self.mask[n] for n, _w in self.fields}
