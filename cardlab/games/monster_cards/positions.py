"""What a saved MONSTER CARDS position must be (issue J): every position
:meth:`~cardlab.core.Game.state_from_dict` loads is one the rules can reach.

:func:`state_from_dict` checks a position field by field (types, card counts
against the decks, MC-1, MC-7), what the counts tell of the past
(:func:`check_history`, :func:`check_turns`), the damage still to come
(:func:`check_pending`), the end exactly when one player is left (MC-19),
and that play stops there (the game's :meth:`settled` factory).
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from ...core import check_keys
from ...errors import PositionError
from ...i18n import _
from .cards import _short
from .key import ACT, DRAW, END, GONE, GRAVE, HAND, KEY, MILL, PHASE_CODES, PHASE_NAMES, PLAYERS, REST, TOP
from .rules import HAND_TARGET

__all__ = ["state_from_dict", "check_history", "check_turns", "check_pending"]


def state_from_dict(game: Any, d: Mapping[str, Any]) -> Any:
    """Check a position field by field (J): types, card counts against the
    decks (MC-1, MC-7), what each phase needs (a pending damage as a move
    leaves it, MC-3, MC-10, MC-11, MC-18), the end exactly when one player
    is left (MC-19), and that play stops there."""
    check_keys(d, ["phase", "turn", "attack", "gamechanger", "pending", "players"], "monster_cards")
    _check_options(game, d)
    n = game.options["players"]
    phase = PHASE_CODES.get(d["phase"]) if isinstance(d["phase"], str) else None
    if phase is None:
        raise PositionError(_("monster_cards: phase {phase} unknown; one of {phases}").format(
            phase=_short(d["phase"]), phases=list(PHASE_CODES)))
    turn = d["turn"]
    if type(turn) is not int or not 0 <= turn < n:
        raise PositionError(_("monster_cards: turn must be a player 0-{last}, got {value}").format(
            last=n - 1, value=_short(turn)))
    attack = _zone(game, d["attack"], "attack")
    gc = _zone(game, d["gamechanger"], "gamechanger")
    if gc and not game.is_gc[gc[1]]:
        raise PositionError(_("monster_cards: gamechanger {card} has no GameChanger skill").format(
            card=repr(game.cards[gc[1]].name)))
    players = d["players"]
    if not isinstance(players, list) or len(players) != n:
        raise PositionError(_("monster_cards: players must be a list of {n} player dicts").format(n=n))
    ps = [_player(game, i, p, attack, gc) for i, p in enumerate(players)]
    alive = [0 if p["out"] else 1 for p in players]
    _check_end(phase, turn, alive)
    check_history(game, phase, turn, alive, ps)
    pend_t = _pending(game, d["pending"], phase, turn, attack, gc, ps)
    check_turns(game, phase, turn, attack, pend_t, alive, ps)
    return _settled(game, d, KEY.make(phase=phase, turn=turn, attack=attack, gamechanger=gc, pending=pend_t,
                                      alive=tuple(alive), players=tuple(tuple(z) for z in ps)))


def _check_options(game: Any, d: Mapping[str, Any]) -> None:
    saved = game.saved_options
    opts = d.get("options", saved)  # a hand-written position may leave them out
    if not isinstance(opts, Mapping) or json.dumps(opts, sort_keys=True) != json.dumps(saved, sort_keys=True):
        raise PositionError(_("monster_cards: options: the position was saved with options {saved}; "
                              "this game has {options}: load it with those options").format(
            saved=_short(opts, 80), options=_short(saved, 80)))


def _card_id(game: Any, name: Any, what: str) -> int:
    c = game.card_id.get(name) if isinstance(name, str) else None
    if c is None:
        raise PositionError(_("monster_cards: {field}: {value} is not a card of this game").format(
            field=what, value=_short(name)))
    return c


def _zone(game: Any, z: Any, what: str) -> tuple:
    """The attack or GameChanger zone: ``()`` or ``(owner, card id)`` (MC-7)."""
    n = game.options["players"]
    if z is None:
        return ()
    if not isinstance(z, Mapping) or set(z) != {"owner", "card"}:
        raise PositionError(_("monster_cards: {field} must be null or {{'owner': p, 'card': name}}, "
                              "got {value}").format(field=what, value=_short(z)))
    if type(z["owner"]) is not int or not 0 <= z["owner"] < n:
        raise PositionError(_("monster_cards: {field}.owner must be a player 0-{last}, got {value}").format(
            field=what, last=n - 1, value=_short(z["owner"])))
    return (z["owner"], _card_id(game, z["card"], f"{what}.card"))


def _player(game: Any, i: int, p: Any, attack: tuple, gc: tuple) -> list:
    """Player ``i``'s zones (MC-8; ``gone`` once out, MC-19), their cards
    counted against their deck (MC-1, MC-7)."""
    fields = {"out", "hand", "deck_top", "deck", "graveyard"}
    if not isinstance(p, Mapping) or not fields <= set(p) <= fields | {"gone"}:
        raise PositionError(_("monster_cards: players[{i}] must have exactly the fields "
                              "out, hand, deck_top, deck, graveyard (and gone, once out)").format(i=i))
    if not isinstance(p["out"], bool):
        raise PositionError(_("monster_cards: players[{i}].out must be true or false, got {value}").format(
            i=i, value=_short(p["out"])))
    if "gone" in p and not p["out"]:
        raise PositionError(_("monster_cards: players[{i}].gone: only a player who is out has cards "
                              "that left the game").format(i=i))
    zones = []
    card_id = game.card_id
    for f in ("hand", "deck_top", "deck", "graveyard") + (("gone",) if "gone" in p else ()):
        names = p[f]
        if not isinstance(names, list):
            raise PositionError(_("monster_cards: players[{i}].{field} must be a list of card names").format(
                i=i, field=f))
        try:
            ids = [card_id[x] for x in names]
        except (KeyError, TypeError):
            ids = [_card_id(game, x, f"players[{i}].{f}") for x in names]
        zones.append(tuple(sorted(ids)) if f in ("hand", "deck", "gone") else tuple(ids))
    if p["out"] and any(zones[:4]):
        raise PositionError(_("monster_cards: players[{i}] is out: hand, deck and graveyard must be empty").format(
            i=i))
    left = list(game.deck_vectors[i])
    for c in [c for z in zones for c in z] + [z[1] for z in (attack, gc) if z and z[0] == i]:
        left[c] -= 1
    for c, m in enumerate(left):
        if m < 0:
            raise PositionError(_("monster_cards: players[{i}] holds {n} {card}; their deck has {deck}").format(
                i=i, n=game.deck_vectors[i][c] - m, card=repr(game.cards[c].name), deck=game.deck_vectors[i][c]))
    if p["out"] and "gone" not in p:  # a hand-written position: none of their cards in the ruins
        zones.append(tuple(c for c, m in enumerate(left) for _ in range(m)))
    if not p["out"] and not zones[TOP] and not zones[REST] and game.options["out_by_drawing"]:
        raise PositionError(_("monster_cards: players[{i}] has an empty deck but is not out (MC-19, MC-Q7)").format(
            i=i))
    return zones


def _check_end(phase: str, turn: int, alive: list) -> None:
    """MC-19: the end exactly when one player is left, the turn naming the winner."""
    living = sum(alive)
    if phase == END and living != 1:
        raise PositionError(_("monster_cards: phase 'end' needs exactly one player not out (MC-19)"))
    if phase == END and not alive[turn]:
        raise PositionError(_("monster_cards: turn: in the phase 'end' it names the winner, player "
                              "{winner} (the one player not out), not player {turn} (MC-19)").format(
            winner=alive.index(1), turn=turn))
    if phase != END and living < 2:
        raise PositionError(_("monster_cards: with fewer than two players left the phase must be 'end'"))
    if phase != END and not alive[turn]:
        raise PositionError(_("monster_cards: the turn player {turn} is out").format(turn=turn))


def _pending(game: Any, pend: Any, phase: str, turn: int, attack: tuple, gc: tuple, ps: list) -> tuple:
    """The damage still to come: ``(target, damage, then)`` in the phase mill, else ``()``."""
    n = game.options["players"]
    if phase != MILL:
        if pend is not None:
            raise PositionError(_("monster_cards: pending must be null outside the phase 'mill'"))
        return ()
    if (not isinstance(pend, Mapping) or set(pend) != {"target", "damage", "then"}
            or type(pend["target"]) is not int or not 0 <= pend["target"] < n
            or type(pend["damage"]) is not int or pend["damage"] < 1 or pend["then"] not in ("action", "end")):
        shape = "{'target': p, 'damage': n ≥ 1, 'then': 'action' " + _("or") + " 'end'}"
        raise PositionError(_("monster_cards: phase 'mill' needs pending = {shape}").format(shape=shape))
    pend_t = (pend["target"], pend["damage"], ACT if pend["then"] == "action" else END)
    check_pending(game, pend_t, turn, attack, gc, ps[turn][HAND])
    return pend_t


def _settled(game: Any, d: Mapping[str, Any], key: tuple) -> Any:
    """The state of ``key``, refused unless play stops there (what is certain happens at once)."""
    state = game.settled(**KEY.named(key))
    k = state.key
    if k != key:
        raise PositionError(_(
            "monster_cards: the position is not where play stops (phase {phase}): "
            "a draw or damage that is already certain (a known deck top, a draw or damage taking the whole deck, "
            "a full hand) happens at once, or the game is over; settled, it is the phase {settled} "
            "of player {player}, with {hands} cards in hand and {decks} in the decks").format(
            phase=repr(d["phase"]), settled=repr(PHASE_NAMES[k[KEY.phase]]), player=k[KEY.turn],
            hands=[len(z[HAND]) for z in k[PLAYERS]], decks=[len(z[TOP]) + len(z[REST]) for z in k[PLAYERS]]))
    return state


def check_history(game: Any, phase: str, turn: int, alive: list, ps: list) -> None:
    """What the counts tell of the past (J).  A player's cards out of their
    deck and graveyard were all drawn (cards leave a deck only by drawing
    or damage, MC-3, MC-9): none before their first turn, and at least 3 (or
    the whole deck) once their first draw is over (MC-9).  Nothing hurts or
    heals a player before they draw (damage falls on the defending player
    or the attack-zone card's owner, MC-18, MC-10).  In the first round the
    players before the turn player have drawn and those after have not:
    turns go in seat order (MC-Q8)."""
    fresh = []
    for q, z in enumerate(ps):
        if not alive[q]:
            continue
        size = len(game.deck_ids[q])
        drawn = size - len(z[TOP]) - len(z[REST]) - len(z[GRAVE])
        if drawn == 0:
            fresh.append(q)
            if z[GRAVE] or z[TOP]:
                raise PositionError(_("monster_cards: players[{i}]: has drawn no card yet, so no damage or "
                                      "healing has come to them: graveyard and deck_top must be empty "
                                      "(MC-3, MC-8)").format(i=q))
        elif drawn < min(HAND_TARGET, size) and not (q == turn and phase == DRAW):
            raise PositionError(_("monster_cards: players[{i}]: only {drawn} of their cards are out of the deck "
                                  "and graveyard, but their first turn drew {first} (MC-9)").format(
                i=q, drawn=drawn, first=min(HAND_TARGET, size)))
    if phase == END or not fresh:
        return
    for q in range(len(ps)):  # the first round
        if q < turn and q in fresh:
            raise PositionError(_("monster_cards: players[{i}]: has drawn no card, but their first turn comes "
                                  "before player {turn}'s (seat order, MC-Q8)").format(i=q, turn=turn))
        if q > turn and q not in fresh:
            raise PositionError(_("monster_cards: players[{i}]: has drawn or is out while player {fresh} has "
                                  "not drawn yet: in the first round nobody after player {turn} has had a turn "
                                  "(seat order, MC-Q8)").format(i=q, fresh=fresh[-1], turn=turn))


def check_turns(game: Any, phase: str, turn: int, attack: tuple, pend: tuple, alive: list, ps: list) -> None:
    """Hand sizes and the cards out of each hand against the turns (J).  A
    hand is refilled up to 3 only at its owner's turn start (MC-9) and
    nothing else adds to it, so it never holds more than 3, and at most 2
    once its owner has played (MC-11).  A card leaves a hand by the one
    play of each turn (MC-11), or by a Discard skill or a GameChanger
    (MC-10), at most two a turn (the hand keeps a card to play).  Turns go
    round in seat order skipping players who are out (MC-Q8), so a player
    not out has played B + 1 times if seated before the turn player (or
    is the turn player after the play), else B times, for one B.
    A player who is out played no more than that (they stopped at some
    turn; MC-19), and their cards that left the hands (the ruins, and
    their attacker or GameChanger: all but ``gone``) need as many plays
    as any other player's.  At the end (MC-19) the turn names the winner:
    a player who is out has played at most once more than the winner if
    seated before the winner, else at most as often."""
    mid = phase == ACT or (phase == MILL and pend[2] == ACT)  # the turn player has not played yet
    lo, hi = 0, 10 ** 9
    plays = []  # the least and most plays each player's counts allow
    for q, z in enumerate(ps):
        h = len(z[HAND])
        now = q == turn and mid and phase != END
        if alive[q] and h > HAND_TARGET:
            raise PositionError(_("monster_cards: players[{i}].hand holds {n} cards, more than 3: a hand "
                                  "is only refilled up to 3 (MC-9)").format(i=q, n=h))
        if alive[q] and h == HAND_TARGET and not now and phase != END:
            raise PositionError(_("monster_cards: players[{i}].hand holds 3 cards, but player {i} has played "
                                  "since the draw or is still to draw: at most 2 (MC-9, MC-11)").format(i=q))
        left = list(game.deck_vectors[q])
        for c in z[HAND] + z[TOP] + z[REST] + z[GRAVE] + (() if alive[q] else z[GONE]):
            left[c] -= 1
        if attack and attack[0] == q:  # played, not discarded
            left[attack[1]] -= 1
        extra_ok = sum(m for c, m in enumerate(left) if game.discard_skill[c] or game.is_gc[c])
        out_of_hand = sum(left) + int(bool(attack) and attack[0] == q)
        # plays P with out_of_hand - extra_ok <= P <= out_of_hand and out_of_hand <= 3P + 2·now
        plays.append((max(out_of_hand - extra_ok, -(-(out_of_hand - 2 * now) // 3)), out_of_hand))
    if phase == END:
        for q, (least, _most) in enumerate(plays):
            if not alive[q] and least > plays[turn][1] + int(q < turn):
                raise PositionError(_(
                    "monster_cards: players[{i}]: the ruins need {least} plays (MC-11; Discard or GameChanger "
                    "cards aside, at most two a turn, MC-10), but the winner {turn} played at most "
                    "{most} times (turns in seat order, MC-Q8, MC-19)").format(
                    i=q, least=least, turn=turn, most=plays[turn][1]))
        return
    # plays P = B + e for a player not out, P <= B + e for one who is out (MC-19)
    for q in sorted(range(len(ps)), key=lambda q: not alive[q]):
        least, most = plays[q]
        e = int(q < turn or (q == turn and phase == MILL and pend[2] == END))
        lo = max(lo, least - e)
        if alive[q]:
            hi = min(hi, most - e)
        if lo > hi:
            if not alive[q]:
                raise PositionError(_(
                    "monster_cards: players[{i}]: the ruins need {least} plays (MC-11; Discard or GameChanger "
                    "cards aside, at most two a turn, MC-10), more than the turns before going out "
                    "(MC-19, MC-Q8)").format(i=q, least=least))
            raise PositionError(_(
                "monster_cards: players[{i}]: {most} cards have left the hands, which the turns cannot "
                "give: one play a turn (MC-11), turns in seat order (MC-Q8), and only Discard or GameChanger "
                "cards leave otherwise, at most two a turn (MC-10)").format(i=q, most=most))


def check_pending(game: Any, pend: tuple, turn: int, attack: tuple, gc: tuple, hand: tuple) -> None:
    """The damage still to come in the phase 'mill' is one a move leaves (J):
    after a play (then 'end') it falls on the turn player, a failed defence
    (MC-18) or a replacement (MC-11), and is at most an attack's power
    (MC-3); after an Ambush discard (then 'action', MC-10) it falls on the
    attack-zone card's owner, another player, is at most an Ambush's size,
    and the turn player still holds a card to play (MC-11)."""
    target, damage, then = pend
    if not attack:
        raise PositionError(_("monster_cards: pending: damage comes from the card in the attack zone (a failed "
                              "defence, a replacement or an Ambush on its owner), but the attack zone is empty"))
    gc_id = gc[1] if gc else -1
    if then == END:
        if target != turn:
            raise PositionError(_("monster_cards: pending.target: damage after a play falls on the turn player "
                                  "{turn} (a failed defence, MC-18, or a replacement, MC-11), not {target}").format(
                turn=turn, target=target))
        if attack[0] != turn:  # a failed defence against this attacker
            cap = game.attack_power(attack[1], gc_id)
        elif game.options["replacing"] == "free" and game.options["own_attacker"] == "no_attack":
            raise PositionError(_("monster_cards: pending: the turn player's own attacker deals them no damage "
                                  "(MC-Q6) and a replacement is free here (option replacing='free')"))
        else:  # a replacement: the attack of whichever card was pushed away
            cap = max(game.attack_power(c, gc_id) for c in range(len(game.cards)))
        why = _("the attack's power (MC-3)")
    else:
        if target == turn or target != attack[0]:
            raise PositionError(_("monster_cards: pending.target: damage after an Ambush falls on the "
                                  "attack-zone card's owner, another player (MC-10), not player {target}").format(
                target=target))
        if not hand:
            raise PositionError(_("monster_cards: pending: after an Ambush (then 'action') the turn player plays "
                                  "on, but player {turn} holds no card (MC-11)").format(turn=turn))
        cap = max([c.amount for c in game.cards if c.skill == "ambush"] + [0])
        why = _("an Ambush's size (MC-10)")
    if damage > cap:
        raise PositionError(_("monster_cards: pending.damage: {damage} is more than is left to deal here: "
                              "at most {cap}, {why}").format(damage=damage, cap=cap, why=why))
