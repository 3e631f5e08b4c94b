"""Issue W item 9: how many pupils one laptop serves.  The class app is
served as ``make play`` serves it, and every pupil is a real headless
browser page playing moves on its room's link.  Prints a markdown table.

    .venv/bin/python benchmarks/class_load.py [--pupils 30,60] [--moves 10] [--game koinobori]

For each number of pupils N: Voila serves ``notebooks/play.ipynb`` with the
Makefile's ``play`` settings (its kernel culling flags and their default
times; a temporary rooms database in ``CARDLAB_ROOMS``; 127.0.0.1 and a
free port, no token, as ``make play``), N/2 two-pupil rooms of one game
are made through the store (:meth:`cardlab.rooms.RoomStore.pairings`,
seeded), and one Debian chromium (headless, one browser context: N tabs
of one browser) opens every pupil's link at once, as a class arriving.

A recorder in every page (``RECORDER_JS``, installed before the page's own
scripts) notes, with the page's clock (``Date.now()``, one clock for every
tab), when the board first shows, each click, and each change of the
board's move count ("move log (N moves)").  Then every room plays
``--moves`` pupils' moves (fewer when its game ends first): the pupil to
move, once their page has caught up with the room and offers buttons,
clicks one of them (seeded), a real mouse click; a grid's card and square
are two clicks.  The driver goes round the rooms as fast as it can, so a
pupil answers as soon as the page lets them: more load than a class that
thinks.

- *first board*: from the page's request to its board (seconds).
- *move latency*: from the mover's last click to the opponent's page
  showing the move (ms): the mover's kernel stores it, the opponent's
  kernel reads the store (every 0.5 s: ``RoomBoard``'s poll) and redraws.
- *memory*: the Voila server with all its kernels (one a page), RSS summed
  (shared pages counted in every process) and PSS (shared pages split
  between processes: what the processes really take together), highest
  seen while the pupils played; per pupil is that divided by N; chromium's
  processes apart.
- *kernels*: the server's kernels alive at the end of play.
- *errors*: an uncaught error in a page, a page that crashed, a board
  that did not show in ``--timeout`` s, "Error displaying widget", a move
  not stored or not shown on the opponent's page in ``--move-timeout`` s.
- *load*: the 1-minute load average at the start and the end of the run,
  and the machine's cores (a loaded machine says little about a quiet one).

Everything started here (the server, its kernels, chromium) is stopped at
the end, also on Ctrl-C, SIGTERM or an error: gracefully first, then by
process id whatever is left.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser_support import BIN, _port_closed, ensure_chromium, free_port  # noqa: E402

from cardlab.rooms import RoomStore  # noqa: E402

#: in every page before its own scripts: the times (the page's Date.now()) of
#: the board's first showing (its move log), of each click, and of each change of the move count
RECORDER_JS = """(() => {
    const rec = window.__classLoad = {board: null, clicks: [], counts: [], mutated: 0};
    const count = () => {
        for (const s of document.querySelectorAll('details > summary')) {
            const m = /move log \\((\\d+) moves?\\)/.exec(s.textContent);
            if (m) return +m[1];
        }
        return null;
    };
    let last = null;
    new MutationObserver(() => {
        const now = Date.now(), n = count();
        rec.mutated = now;
        if (n === null) return;
        if (rec.board === null) rec.board = now;
        if (n !== last) { last = n; rec.counts.push([now, n]); }
    }).observe(document, {subtree: true, childList: true, characterData: true});
    document.addEventListener('click', () => rec.clicks.push(Date.now()), true);
})();"""

#: what the driver reads of a page: its move count, how many buttons it offers,
#: when it last changed, and whether a widget failed to show
_STATE_JS = """() => {
    const rec = window.__classLoad;
    if (!rec) return null;
    const offers = [...document.querySelectorAll('button.cardlab-offer')].filter(b => !b.disabled).length;
    const c = rec.counts;
    return {count: c.length ? c[c.length - 1][1] : null, offers, mutated: rec.mutated, now: Date.now(),
            widgetError: document.body ? document.body.textContent.includes('Error displaying widget') : false};
}"""

#: a pick (a grid's card before its square) counts as shown once the page has been still this long
QUIET_MS = 250


# -- processes: who is ours, what they take -----------------------------------------------------------
def _processes() -> dict[int, tuple[int, str, str]]:
    """pid -> (parent pid, start time, command line) of every process now
    (not the zombies: ended, their exit not yet collected)."""
    out = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # a process that just ended
        if stat[0] != "Z":
            out[int(entry.name)] = (int(stat[1]), stat[19], cmd)
    return out


def descendants(root: int, procs: dict[int, tuple[int, str, str]] | None = None) -> dict[int, tuple[int, str, str]]:
    """The processes below ``root`` (children, their children, ...)."""
    procs = _processes() if procs is None else procs
    below, found = {root}, {}
    grew = True
    while grew:
        grew = False
        for pid, info in procs.items():
            if info[0] in below and pid not in below:
                below.add(pid)
                found[pid] = info
                grew = True
    return found


def memory_mb(pids) -> tuple[float, float]:
    """(RSS, PSS) of ``pids`` together, in MB (a process that ended counts nothing)."""
    rss = pss = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Rss:"):
                    rss += int(line.split()[1])
                elif line.startswith("Pss:"):
                    pss += int(line.split()[1])
        except (OSError, ValueError):
            continue
    return rss / 1024, pss / 1024


class Owned:
    """The processes this run started (by pid and start time, so that a pid
    used again by another process is never touched): whatever is left of
    them at the end is killed by its pid."""

    def __init__(self) -> None:
        self.seen: dict[int, str] = {}

    def note(self, root: int, word: str = "") -> dict[int, tuple[int, str, str]]:
        """Note the processes below ``root`` (those whose command line has
        ``word``); they are returned."""
        procs = {pid: info for pid, info in descendants(root).items() if word in info[2]}
        self.seen.update({pid: info[1] for pid, info in procs.items()})
        return procs

    def reap(self) -> list[int]:
        """SIGKILL every noted process still alive; the pids killed."""
        now, killed = _processes(), []
        for pid, started in self.seen.items():
            if pid in now and now[pid][1] == started:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
        return killed


# -- the server, as make play serves it -------------------------------------------------------------
def play_flags(makefile: Path = ROOT / "Makefile", **times: float) -> list[str]:
    """The kernels' flags of ``make play`` (the Makefile's ``PLAY_KERNELS``:
    culling, how long Voila waits for a page's output), with the Makefile's
    default times (``PLAY_CULL_IDLE ?= ...``) or those given
    (``PLAY_CULL_IDLE=6``: a test's short ones)."""
    text = makefile.read_text("utf-8")
    m = re.search(r"^PLAY_KERNELS\s*:=\s*((?:.*\\\n)*.*)$", text, re.M)
    if m is None:
        raise RuntimeError(f"{makefile} has no PLAY_KERNELS (the play target's kernels' flags)")
    values = dict(re.findall(r"^(\w+)\s*\?=\s*(\S*)\s*$", text, re.M), **{k: str(v) for k, v in times.items()})
    flags = m.group(1).replace("\\\n", " ").split()
    return [re.sub(r"\$\((\w+)\)", lambda v: values[v.group(1)], f) for f in flags]


def kernels(server: int) -> list[int]:
    """The process ids of the kernels the Voila server ``server`` started (its ipykernel children)."""
    return [pid for pid, (parent, _start, cmd) in _processes().items() if parent == server and "ipykernel" in cmd]


def _wait_port(port: int, server: subprocess.Popen, log: Path, seconds: float = 90) -> None:
    """Wait until the server listens (without asking for the app's page:
    that would start a kernel no page uses)."""
    end = time.monotonic() + seconds
    while _port_closed(port):
        if server.poll() is not None:
            raise RuntimeError(f"the server exited ({server.returncode}):\n{log.read_text()[-3000:]}")
        if time.monotonic() > end:
            raise RuntimeError(f"the server does not listen on {port} after {seconds} s:\n{log.read_text()[-3000:]}")
        time.sleep(0.3)


@contextlib.contextmanager
def serve(work: Path, db: Path) -> Iterator[tuple[str, subprocess.Popen]]:
    """Voila serving the class app on 127.0.0.1 and a free port with the rooms
    of ``db``; yields (the app's address, the server's process).  Stopped at
    the end by its pid (SIGTERM, then SIGKILL), then any kernel left by pid.
    The server has a session of its own: a Ctrl-C in the terminal reaches
    only this script, which stops it in order."""
    port = free_port()
    env = dict(os.environ, CARDLAB_ROOMS=str(db), JUPYTER_RUNTIME_DIR=str(work / "runtime"), LANGUAGE="en")
    cmd = [str(BIN / "voila"), str(ROOT / "notebooks" / "play.ipynb"), "--no-browser", f"--port={port}",
           "--Voila.ip=127.0.0.1", *play_flags()]
    url = f"http://127.0.0.1:{port}/"
    log = work / "voila.log"
    with open(log, "wb") as out:
        server = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        _wait_port(port, server, log)
        yield url, server
    finally:
        owned = Owned()
        owned.note(server.pid)
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)
        time.sleep(0.5)  # the kernels the server shut down have gone
        owned.reap()


@contextlib.contextmanager
def chromium(pw) -> Iterator[Any]:
    """Debian's chromium, headless; closed at the end, and whatever is left
    of its processes (below this script: its playwright driver's) killed by pid."""
    browser = pw.chromium.launch(executable_path=ensure_chromium(), headless=True)
    owned = Owned()
    try:
        owned.note(os.getpid(), "chromium")
        yield browser
    finally:
        owned.note(os.getpid(), "chromium")
        try:
            browser.close()
        except Exception as exc:  # noqa: BLE001 - the driver may be gone (Ctrl-C): reaped below
            print(f"closing chromium: {exc}", file=sys.stderr)
        owned.reap()


def make_rooms(db: Path, pupils: int, game: str, seed: int) -> tuple[RoomStore, list[tuple[str, list[str]]]]:
    """``pupils // 2`` two-pupil rooms of ``game`` (seeds ``seed``, ``seed + 1``, ...);
    the store and, per room, its id and its two links."""
    if pupils < 2 or pupils % 2:
        raise SystemExit(f"--pupils: an even number of at least 2 (two pupils a room), not {pupils}")
    store = RoomStore(db)
    rooms = store.pairings(game, [f"P{i + 1}" for i in range(pupils)], seed=seed)
    return store, [(r.id, store.links(r.id)) for r in rooms]


# -- the pupils' pages -------------------------------------------------------------------------------
def open_pages(context, url: str, links: list[str], timeout: float) -> tuple[list[Any], list[float], list[str]]:
    """A tab for every link, opened one after another without waiting for
    their boards; the pages, when each was asked for (ms, the clock of
    ``Date.now()``) and a list the pages' errors are added to as they happen."""
    pages, asked, errors = [], [], []
    for i, link in enumerate(links):
        page = context.new_page()
        page.on("pageerror", lambda exc, i=i: errors.append(f"pupil {i + 1}: error in the page: {exc}"))
        page.on("crash", lambda _page, i=i: errors.append(f"pupil {i + 1}: the page crashed"))
        page.console = []  # its console's last lines: said for a page whose board never shows
        page.on("console", lambda msg, page=page: page.console.__setitem__(
            slice(None), [*page.console[-4:], f"{msg.type}: {msg.text[:200]}"]))
        asked.append(time.time() * 1000)
        page.goto(f"{url}{link}&lang=en", wait_until="commit", timeout=timeout * 1000)
        pages.append(page)
    return pages, asked, errors


#: seconds a page may take to answer one question (a page that stopped answering costs this, not the run)
ASK_SECONDS = 20.0


def ask(page, js: str, seconds: float = ASK_SECONDS) -> Any:
    """``page.evaluate(js)`` with a deadline: Playwright's evaluate has none,
    so one page that stopped answering would hold the whole run (session 16's
    60-pupil run waited so, idle, for 14 minutes).  ``wait_for_function``
    has one; the answer is wrapped in a list, so it is always truthy.  None
    when the page did not answer in ``seconds`` (or crashed, or closed)."""
    try:
        handle = page.wait_for_function(f"() => [({js})()]", timeout=seconds * 1000, polling=100)
        try:
            return handle.json_value()[0]
        finally:
            handle.dispose()
    except Exception as exc:  # noqa: BLE001 - a timeout, a crash, a closed page: no answer
        if _STOPPED:
            raise
        page.console = [*getattr(page, "console", [])[-4:], f"(no answer: {type(exc).__name__})"]
        return None


def progress(what: str) -> None:
    """A line on stderr, so a long run says where it is."""
    print(f"{time.strftime('%H:%M:%S')} {what}", file=sys.stderr, flush=True)


def records(page) -> dict[str, Any]:
    return ask(page, "() => window.__classLoad || {}") or {}


def wait_boards(pages: list[Any], asked: list[float], timeout: float) -> tuple[list[float | None], list[str]]:
    """Wait (at most ``timeout`` s from the first request) until every page
    shows its board; per page the seconds to its first board (None: no
    board), and the errors (no board, a widget that failed to show)."""
    end = asked[0] / 1000 + timeout
    first: list[float | None] = [None] * len(pages)
    said = time.time()
    while time.time() < end and None in first:
        for i, page in enumerate(pages):
            if first[i] is None:
                shown = ask(page, "() => window.__classLoad ? window.__classLoad.board : null")
                first[i] = None if shown is None else (shown - asked[i]) / 1000
        if time.time() - said >= 30:
            said = time.time()
            progress(f"{len(pages) - first.count(None)} of {len(pages)} boards shown")
        time.sleep(0.5)
    errors = [f"pupil {i + 1}: no board after {timeout:.0f} s ({_how(pages[i])})"
              for i, t in enumerate(first) if t is None]
    errors += [f"pupil {i + 1}: Error displaying widget" for i, page in enumerate(pages)
               if (ask(page, _STATE_JS) or {}).get("widgetError")]
    return first, errors


def _how(page) -> str:
    """What a page without its board shows: its loading state, its text's
    start and its console's last lines (why it stopped, if it says)."""
    seen = ask(page, "() => [document.readyState, (document.body ? document.body.innerText : '')"
                     ".replace(/\\s+/g, ' ').slice(0, 160)]")
    if seen is None:
        return f"the page does not answer; console: {' | '.join(page.console) or 'nothing'}"
    return f"document {seen[0]}, text {seen[1]!r}, console: {' | '.join(page.console) or 'nothing'}"


_OFFERED = "button.cardlab-offer:enabled"


def _offers_seen(page) -> str:
    """The buttons a page offers now, as one text (a pick changes them)."""
    return ask(page, f"() => [...document.querySelectorAll({_OFFERED!r})]"
                     ".map(b => (b.title || '') + ':' + b.textContent.trim()).join('|')") or ""


def _step(store: RoomStore, room: dict[str, Any], rng: random.Random, moves: int, move_timeout: float,
          played: list[dict[str, Any]]) -> str | None:
    """One look at a room: note its move once stored, or click for the pupil
    to move when their page has caught up and offers buttons.  "done" when
    the room has played its moves (or its game ended), an error's text when
    it is stuck, else None."""
    rid, now = room["id"], time.monotonic()
    seq, state = store.seq(rid), store.state(rid)
    pending = room["pending"]
    if pending is not None and seq > pending["seq"]:
        played.append({"room": rid, "seat": pending["seat"], "seq": pending["seq"], "stored": seq,
                       "clicks": pending["clicks"]})
        room["done"] += 1
        room["pending"] = pending = None
        room["since"] = now
    if pending is None and (state.is_terminal() or room["done"] >= moves):
        return "done"
    if now - room["since"] > move_timeout:
        return (f"room {rid}: nothing for {move_timeout:.0f} s at move {seq} "
                f"({'a click not stored' if pending else 'no button to click'})")
    me = state.current_player
    if me < 0:
        return None  # chance: the mover's kernel draws it in the store
    page = room["pages"][me]
    seen = ask(page, _STATE_JS)
    if seen is None or seen["count"] != seq or not seen["offers"]:
        return None  # the page has not caught up yet
    # clicked: only a pick shown since (the page still, the buttons changed) asks again
    if pending is not None and seen["now"] - seen["mutated"] < QUIET_MS:
        return None
    offers = _offers_seen(page)
    if pending is not None and offers == pending["offers"]:
        return None
    page.locator(_OFFERED).nth(rng.randrange(seen["offers"])).click(timeout=move_timeout * 1000)
    if pending is None:
        room["pending"] = pending = {"seq": seq, "seat": me, "clicks": 0}
        room["since"] = now
    pending["offers"] = offers
    pending["clicks"] += 1
    return None


def play(store: RoomStore, rooms: list[dict[str, Any]], rng: random.Random, moves: int, move_timeout: float,
         sample) -> tuple[list[dict[str, Any]], list[str]]:
    """Every room plays until it has ``moves`` pupils' moves (or its game
    ends, or it is stuck); ``sample()`` every two seconds.  The moves stored
    (room, seat, the room's move count before and after) and the errors."""
    played: list[dict[str, Any]] = []
    errors: list[str] = []
    todo = list(rooms)
    for room in todo:
        room.update(done=0, pending=None, since=time.monotonic())
    sampled = 0.0
    while todo:
        if time.monotonic() - sampled >= 2:
            sample()
            sampled = time.monotonic()
        for room in list(todo):
            said = _step(store, room, rng, moves, move_timeout, played)
            if said is not None:
                todo.remove(room)
                if said != "done":
                    errors.append(said)
        time.sleep(0.02)
    sample()
    return played, errors


def latencies(store: RoomStore, rooms: list[dict[str, Any]], played: list[dict[str, Any]],
              move_timeout: float) -> tuple[list[float], list[str]]:
    """Per move, ms from the mover's last click to the opponent's page
    showing the move (the pages' own records, read once each page has
    caught up with its room or ``move_timeout`` s have passed); the errors:
    a move the opponent's page never showed."""
    end = time.monotonic() + move_timeout
    for room in rooms:
        want = store.seq(room["id"])
        for page in room["pages"]:
            while time.monotonic() < end and (ask(page, _STATE_JS) or {}).get("count") != want:
                time.sleep(0.2)
    seen = {(room["id"], seat): records(page) for room in rooms for seat, page in enumerate(room["pages"])}
    times, errors = [], []
    for m in played:
        mover, other = seen[(m["room"], m["seat"])], seen[(m["room"], 1 - m["seat"])]
        shown = next((t for t, n in other.get("counts", []) if n > m["seq"]), None)
        clicked = max((t for t in mover.get("clicks", []) if shown is None or t <= shown), default=None)
        if shown is None or clicked is None:
            errors.append(f"room {m['room']}: move {m['seq'] + 1} (seat {m['seat']}) never showed on the other page")
        else:
            times.append(shown - clicked)
    return times, errors


# -- one run -----------------------------------------------------------------------------------------
class Memory:
    """The highest memory seen: the server with its kernels, and chromium."""

    def __init__(self, server: int) -> None:
        self.server = server
        self.seen: dict[int, str] = {server: _processes()[server][1]}  # pid -> start time: every process seen
        self.base = self.now()["server"]  # the server alone, before any page
        self.peak: dict[str, Any] = {"server": (0.0, 0.0), "chromium": (0.0, 0.0), "kernels": 0}

    def now(self) -> dict[str, Any]:
        procs = _processes()
        below = descendants(self.server, procs)
        mine = descendants(os.getpid(), procs)
        browser = [pid for pid, info in mine.items() if "chromium" in info[2] and pid not in below]
        self.seen.update({pid: procs[pid][1] for pid in [*below, *browser]})
        return {"server": memory_mb([self.server, *below]), "chromium": memory_mb(browser),
                "kernels": sum("ipykernel" in info[2] for info in below.values())}

    def sample(self) -> None:
        seen = self.now()
        for key in ("server", "chromium"):
            if seen[key][1] > self.peak[key][1]:
                self.peak[key] = seen[key]
        self.peak["kernels"] = max(self.peak["kernels"], seen["kernels"])


def quantiles(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"p50": None, "p95": None, "max": None}
    p95 = statistics.quantiles(values, n=20, method="inclusive")[18] if len(values) > 1 else values[0]
    return {"p50": statistics.median(values), "p95": p95, "max": max(values)}


def run(pw, pupils: int, moves: int, game: str, seed: int, timeout: float, move_timeout: float) -> dict[str, Any]:
    """One measurement with ``pupils`` pages (see the module's docstring)."""
    load = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory(prefix="class-load-") as tmp:
        work = Path(tmp)
        store, made = make_rooms(work / "class-rooms.db", pupils, game, seed)
        with serve(work, work / "class-rooms.db") as (url, server), chromium(pw) as browser:
            memory = Memory(server.pid)
            context = browser.new_context()
            context.add_init_script(RECORDER_JS)
            pages, asked, errors = open_pages(context, url, [link for _, links in made for link in links], timeout)
            progress(f"{pupils} pages asked for; waiting for their boards")
            first, missing = wait_boards(pages, asked, timeout)
            memory.sample()
            progress(f"{pupils - first.count(None)} of {pupils} boards shown; the pupils play")
            rooms = [{"id": rid, "pages": pages[2 * i:2 * i + 2]} for i, (rid, _) in enumerate(made)]
            played, stuck = play(store, rooms, random.Random(seed), moves, move_timeout, memory.sample)
            progress(f"{len(played)} moves played; reading the pages' records")
            times, unseen = latencies(store, rooms, played, move_timeout)
            kernels = memory.now()["kernels"]
            errors = [*missing, *stuck, *unseen, *errors]  # the pages' own errors, as they happened
            context.close()
        store.close()
    load.append(os.getloadavg()[0])
    server_rss, server_pss = memory.peak["server"]
    return {"pupils": pupils, "game": game, "boards": sum(t is not None for t in first),
            "first_board_s": quantiles([t for t in first if t is not None]), "moves": len(played),
            "latency_ms": quantiles(times), "latencies_ms": times, "played": played,
            "server_mb": {"rss": server_rss, "pss": server_pss, "alone_rss": memory.base[0],
                          "alone_pss": memory.base[1]},
            "chromium_mb": {"rss": memory.peak["chromium"][0], "pss": memory.peak["chromium"][1]},
            "kernels": kernels, "errors": errors, "load": load, "cores": os.cpu_count(),
            "processes": sorted(memory.seen.items())}


# -- the table ---------------------------------------------------------------------------------------
def _three(q: dict[str, float | None], scale: float = 1, digits: int = 0) -> str:
    if q["p50"] is None:
        return "–"
    return " / ".join(f"{scale * q[k]:.{digits}f}" for k in ("p50", "p95", "max"))  # type: ignore[operator]


def table(rows: list[dict[str, Any]]) -> str:
    out = ["| pupils | boards | first board s p50 / p95 / max | moves | move latency ms p50 / p95 / max "
           "| server + kernels MB RSS (PSS) | per pupil MB RSS (PSS) | chromium MB RSS (PSS) | kernels "
           "| errors | load 1 min start → end |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        s, c, n = r["server_mb"], r["chromium_mb"], r["pupils"]
        out.append(f"| {n} | {r['boards']} | {_three(r['first_board_s'], digits=1)} | {r['moves']} "
                   f"| {_three(r['latency_ms'])} | {s['rss']:.0f} ({s['pss']:.0f}) "
                   f"| {s['rss'] / n:.0f} ({s['pss'] / n:.0f}) | {c['rss']:.0f} ({c['pss']:.0f}) | {r['kernels']} "
                   f"| {len(r['errors'])} | {r['load'][0]:.1f} → {r['load'][1]:.1f} |")
    return "\n".join(out)


def notes(rows: list[dict[str, Any]]) -> str:
    """The server alone, a kernel's share (the server's growth per page), and the errors."""
    lines = []
    for r in rows:
        s, n = r["server_mb"], r["pupils"]
        lines.append(f"- {n} pupils ({r['game']}): the server alone {s['alone_rss']:.0f} MB RSS "
                     f"({s['alone_pss']:.0f} PSS); each page's kernel added {(s['rss'] - s['alone_rss']) / n:.0f} MB "
                     f"RSS ({(s['pss'] - s['alone_pss']) / n:.0f} PSS)")
        lines += [f"  - error: {e}" for e in r["errors"][:20]]
        if len(r["errors"]) > 20:
            lines.append(f"  - ... and {len(r['errors']) - 20} more")
    return "\n".join(lines)


#: the signals that stopped the run (Ctrl-C, SIGTERM)
_STOPPED: list[int] = []


def _stop(signum, _frame) -> None:
    """Ctrl-C or SIGTERM: stop, cleaning up on the way out (the ``finally``
    blocks of :func:`serve` and :func:`chromium`).  Ctrl-C also reaches the
    playwright driver, which closes chromium: the page's call that fails
    then is the way out."""
    _STOPPED.append(signum)
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pupils", default="30,60", help="pupils (pages) per run, even numbers, comma-separated")
    ap.add_argument("--moves", type=int, default=10, help="pupils' moves per room (fewer when its game ends)")
    ap.add_argument("--game", default="koinobori", help="the rooms' game (every room the same game)")
    ap.add_argument("--seed", type=int, default=1, help="the first room's seed (the next room seed + 1, ...) "
                    "and the pupils' clicks' seed")
    ap.add_argument("--timeout", type=float, default=600, help="seconds for every page to show its board")
    ap.add_argument("--move-timeout", type=float, default=120, help="seconds a room may go without a move")
    ap.add_argument("--json", type=Path, help="also write every figure (each move's latency, the errors) here")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, _stop)
    rows = []
    try:
        with sync_playwright() as pw:
            for n in (int(x) for x in args.pupils.split(",") if x.strip()):
                rows.append(run(pw, n, args.moves, args.game, args.seed, args.timeout, args.move_timeout))
                print(f"{n} pupils: {rows[-1]['moves']} moves, {len(rows[-1]['errors'])} errors", file=sys.stderr)
    except BaseException as exc:
        if not _STOPPED:
            raise
        print(f"stopped ({signal.Signals(_STOPPED[0]).name}, then {type(exc).__name__}); the server, its kernels "
              f"and chromium are stopped", file=sys.stderr)
        return 128 + _STOPPED[0]
    print(f"{args.game}, up to {args.moves} pupils' moves a room, {os.cpu_count()} cores; every pupil a "
          f"chromium tab, every tab a Voila kernel\n")
    print(table(rows))
    print()
    print(notes(rows))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 1 if any(r["errors"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
