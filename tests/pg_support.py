"""A real PostgreSQL server for the room store's tests (issue W, item 10),
and the ``db`` fixture that runs a store test on both backends.

The server is Debian's (``apt-get install postgresql`` as root when
``initdb``/``pg_ctl`` are missing, as :func:`browser_support.ensure_chromium`
installs chromium), made with ``initdb`` in a temporary folder and started
with ``pg_ctl`` on a free port of 127.0.0.1 (trust authentication, no
fsync: a test server), once per test process at its first use, and stopped
at the end of the session.  PostgreSQL refuses to run as root: as root it
runs as the ``postgres`` user (Debian's package makes it), else ``nobody``.

Each test gets a database of its own (``CREATE DATABASE``, a few
milliseconds).  A server that cannot be started fails the PostgreSQL tests,
saying why; ``CARDLAB_NO_POSTGRES=1`` skips them instead (not in CI).

Use: ``from pg_support import db, another_db  # noqa: F401`` in a test
module; ``db`` is ``tmp_path / "class.db"`` or a ``postgresql://`` URL (then
the working folder is ``tmp_path``, where the store's exports go).
"""

from __future__ import annotations

import atexit
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from browser_support import free_port

__all__ = ["Server", "server", "db", "another_db", "BACKENDS", "NO_POSTGRES"]

#: the two backends a store test runs on
BACKENDS = ("sqlite", "postgresql")
#: set to 1 to skip the PostgreSQL tests on a machine without a server (never in CI)
NO_POSTGRES = "CARDLAB_NO_POSTGRES"
#: the binaries a server needs
TOOLS = ("initdb", "pg_ctl", "postgres")


def tool(name: str) -> str | None:
    """The path of PostgreSQL's ``name``: on the PATH, else the newest in /usr/lib/postgresql/*/bin (Debian's)."""
    found = shutil.which(name)
    if found:
        return found
    debian = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda p: int(Path(p).parts[4]))
    return debian[-1] if debian else None


def ensure_postgres() -> dict[str, str]:
    """The paths of :data:`TOOLS`; installs Debian's ``postgresql`` when one is
    missing and we run as root (``.ci/run`` does); RuntimeError saying what to do."""
    if any(tool(t) is None for t in TOOLS) and shutil.which("apt-get") and os.geteuid() == 0:
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        for cmd in (["apt-get", "update"], ["apt-get", "install", "-y", "--no-install-recommends", "postgresql"]):
            done = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout[-3000:]}")
    paths = {t: tool(t) for t in TOOLS}
    missing = [t for t, p in paths.items() if p is None]
    if missing:
        raise RuntimeError(f"the PostgreSQL tests need {', '.join(missing)}: run `apt-get install -y postgresql` "
                           f"as root (or set {NO_POSTGRES}=1 to skip them on this machine)")
    return paths


def _server_user() -> str | None:
    """Who runs the server: ``None`` (ourselves) unless we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            pass
    raise RuntimeError("PostgreSQL refuses to run as root and this machine has no user 'postgres' or 'nobody'")


class Server:
    """A PostgreSQL server of the tests, in a temporary folder."""

    def __init__(self) -> None:
        self.tools = ensure_postgres()
        self.user = _server_user()
        self.folder = Path(tempfile.mkdtemp(prefix="cardlab-pg-"))
        self.data, self.log = self.folder / "data", self.folder / "server.log"
        self.port = free_port()
        self._names = itertools.count(1)
        self.running = False
        if self.user is not None:
            uid = pwd.getpwnam(self.user)
            os.chown(self.folder, uid.pw_uid, uid.pw_gid)

    def _run(self, *cmd: str) -> None:
        done = subprocess.run(cmd, user=self.user, cwd=self.folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=120)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{log}")

    def start(self) -> Server:
        self._run(self.tools["initdb"], "-D", str(self.data), "-U", "cardlab", "--auth=trust", "-E", "UTF8",
                  "--no-locale", "--no-sync")
        options = (f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.folder} "
                   "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        self._run(self.tools["pg_ctl"], "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "-o", options,
                  "start")
        self.running = True
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://cardlab@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """The URL of a new, empty database."""
        import psycopg

        name = f"class_{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        if self.running:
            self.running = False
            subprocess.run([self.tools["pg_ctl"], "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop"],
                           user=self.user, cwd=self.folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _attempt in range(3):  # a server process may still be leaving a file behind
            shutil.rmtree(self.folder, ignore_errors=True)
            if not self.folder.exists():
                break
            time.sleep(0.5)


def _start(tries: int = 3) -> Server:
    """A started server (another free port when one was taken meanwhile, as by another xdist worker)."""
    failed: RuntimeError | None = None
    for _attempt in range(tries):
        candidate = Server()
        try:
            return candidate.start()
        except RuntimeError as exc:
            candidate.stop()
            failed = exc
    raise failed


_server: Server | None = None
_failed: str | None = None


def server(config: pytest.Config | None = None) -> Server:
    """This test process's server, started at the first call (stopped at the
    end of the session); skips with ``CARDLAB_NO_POSTGRES=1`` outside CI, and
    fails the test, saying why, when it cannot be started."""
    global _server, _failed
    if os.environ.get(NO_POSTGRES) == "1" and not os.environ.get("CI"):
        pytest.skip(f"{NO_POSTGRES}=1: the room store's PostgreSQL tests are skipped on this machine")
    if _server is None and _failed is None:
        try:
            import psycopg  # noqa: F401 -- the school extra, which `make test` installs
            _server = _start()
        except Exception as exc:  # noqa: BLE001 -- whatever it was, the tests say it
            _failed = f"no PostgreSQL server for the store's tests: {exc}"
        else:
            if config is not None:
                config.add_cleanup(_server.stop)
            atexit.register(_server.stop)
    if _failed is not None:
        pytest.fail(_failed, pytrace=False)
    return _server


@pytest.fixture(params=BACKENDS)
def db(request, tmp_path, monkeypatch):
    """The class's store of a test: a SQLite file, or a new PostgreSQL database
    (the working folder then ``tmp_path``: the store's exports go there)."""
    if request.param == "sqlite":
        return tmp_path / "class.db"
    url = server(request.config).new_database()
    monkeypatch.chdir(tmp_path)
    return url


@pytest.fixture
def another_db(db, request, tmp_path):
    """A maker of further stores of ``db``'s kind (another class): ``another_db("b.db")``."""
    def make(name: str):
        return tmp_path / name if not isinstance(db, str) else server(request.config).new_database()
    return make
