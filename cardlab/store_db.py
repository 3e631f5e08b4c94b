"""The database under the class's room store (issue W, item 10): a SQLite
file (the default: one class, one server) or a PostgreSQL server
(``postgresql://USER:PASSWORD@HOST:PORT/DATABASE``: a school, several app
servers or a JupyterHub sharing their classes' rooms).

:mod:`cardlab.rooms` and the stores built on it write their SQL once, in
what both understand (``?`` placeholders, ``INSERT ... ON CONFLICT``,
``RETURNING id``); a :class:`Database` holds the few differences:

- placeholders: ``?`` for sqlite3, ``%s`` for psycopg (:meth:`PostgreSQL.sql`);
- types: a table's ``INTEGER PRIMARY KEY`` numbers its rows in SQLite; in
  PostgreSQL it is an identity column, an ``INTEGER`` a ``BIGINT`` and a
  ``REAL`` (single precision there) a ``DOUBLE PRECISION``;
- a write (:meth:`Database.write`): SQLite's ``BEGIN IMMEDIATE`` takes the
  file's one write lock; PostgreSQL's ``BEGIN`` takes an advisory lock of the
  transaction: the room's for the moves of a room (two app servers storing
  move 7 of room R1 at once: one after the other, so the check of the number
  and the insert are one step), the class's for anything else;
- a column added to an older store; the errors (:func:`errors`).

psycopg (3) is imported only when a ``postgresql://`` store is opened, so
``import cardlab`` never needs it.

>>> PostgreSQL.sql("SELECT name FROM rooms WHERE id=? AND name LIKE '50%?'")
"SELECT name FROM rooms WHERE id=%s AND name LIKE '50%%?'"
>>> shown("postgresql://teacher:s3cret@db.school.example/cards")
'postgresql://teacher:***@db.school.example/cards'
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
import sys
import threading
from pathlib import Path
from typing import Any, Sequence
from urllib.parse import urlsplit, urlunsplit

from .errors import CardlabError
from .i18n import N_, _

__all__ = ["StoreError", "Database", "SQLite", "PostgreSQL", "open_database", "is_url", "shown", "errors",
           "ACCEPTED"]

#: what a class's store may be, as an error message says it
ACCEPTED = N_("a SQLite file (class-rooms.db) or postgresql://USER:PASSWORD@HOST:PORT/DATABASE")


class StoreError(CardlabError, RuntimeError):
    """A class's store that cannot be opened: a malformed address, a server
    that does not answer, a driver that is not installed."""


def is_url(target: str | Path) -> bool:
    """Whether ``target`` is a PostgreSQL address (else: a SQLite file)."""
    return isinstance(target, str) and target.split("://", 1)[0].lower() in ("postgresql", "postgres") \
        and "://" in target


def shown(target: str | Path) -> str:
    """``target`` as a message or a page shows it: a PostgreSQL address without its password."""
    if not is_url(target):
        return str(target)
    try:
        parts = urlsplit(str(target))
        if parts.password is None:
            return str(target)
        user = parts.username or ""
        netloc = f"{user}:***@" + parts.netloc.rsplit("@", 1)[1]
        return urlunsplit(parts._replace(netloc=netloc))
    except ValueError:
        return str(target).split("://", 1)[0] + "://…"


def errors() -> tuple[type[BaseException], ...]:
    """The errors a store's database may raise (a busy file, a server gone):
    sqlite3's, and psycopg's once it is loaded: ``except (CardlabError, *errors())``."""
    loaded = sys.modules.get("psycopg")
    return (sqlite3.Error,) + ((loaded.Error,) if loaded is not None else ())


def open_database(target: str | Path, timeout: float = 10.0) -> Database:
    """The database of the store ``target``: :class:`PostgreSQL` for a
    ``postgresql://`` address, else :class:`SQLite` (the file, made when missing)."""
    return PostgreSQL(str(target), timeout) if is_url(target) else SQLite(target, timeout)


class Database:
    """One store's database, one connection a thread (a page's poll and its
    agents run in threads of their own: a transaction is never shared)."""

    #: where the teacher's page writes its exports and hand-outs
    folder: Path

    def __init__(self, target: str | Path, timeout: float) -> None:
        self.target, self.timeout = str(target), timeout
        self._local = threading.local()
        self._connections: list[Any] = []
        self._lock = threading.Lock()

    def connect(self) -> Any:
        raise NotImplementedError

    def alive(self, db: Any) -> bool:
        return True

    @property
    def db(self) -> Any:
        """This thread's connection (made at its first use, again after it broke)."""
        db = getattr(self._local, "db", None)
        if db is None or not self.alive(db):
            if db is not None:
                self.close_thread()
            db = self._local.db = self.connect()
            with self._lock:
                self._connections.append(db)
        return db

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """``sql`` (``?`` placeholders) on this thread's connection; its cursor."""
        return self.db.execute(sql, tuple(params))

    def write(self, lock: str = "class") -> _Write:
        """A write transaction (``with database.write(): ...``), locked as
        the module says (``lock``: ``"room:R1"`` for a room's moves)."""
        return _Write(self, lock)

    def begin(self, db: Any, lock: str) -> None:
        db.execute("BEGIN IMMEDIATE")

    def create(self, script: str) -> None:
        """Make the tables of ``script`` (``;`` between the statements) that are missing."""
        raise NotImplementedError

    def add_column(self, table: str, column: str, kind: str) -> None:
        """Give an older store's ``table`` the ``column`` it lacks (two servers may both try: one does)."""
        raise NotImplementedError

    def close_thread(self) -> None:
        """Close this thread's connection (a thread that ends, like an agent's move)."""
        db = getattr(self._local, "db", None)
        if db is not None:
            with self._lock:
                if db in self._connections:
                    self._connections.remove(db)
            db.close()
            self._local.db = None

    def close(self) -> None:
        with self._lock:
            for db in self._connections:
                db.close()
            self._connections.clear()
        self._local = threading.local()


class _Write:
    def __init__(self, database: Database, lock: str) -> None:
        self.database, self.lock = database, lock

    def __enter__(self) -> None:
        self.db = self.database.db
        try:
            self.database.begin(self.db, self.lock)
        except BaseException:  # the lock not had in time: no transaction left open (PostgreSQL's is begun)
            self._rollback()
            raise

    def __exit__(self, kind, value, tb) -> bool:
        if kind is None:
            self.db.execute("COMMIT")
        else:
            self._rollback()
        return False

    def _rollback(self) -> None:
        try:
            self.db.execute("ROLLBACK")
        except errors():  # none begun, or the connection itself broke: the error in hand says more
            pass


class SQLite(Database):
    """A store in a SQLite file (the standard library's sqlite3, WAL mode:
    readers never wait for a writer)."""

    def __init__(self, target: str | Path, timeout: float) -> None:
        super().__init__(target, timeout)
        self.folder = Path(target).parent

    def connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.target, timeout=self.timeout, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA synchronous=NORMAL")
        return db

    def create(self, script: str) -> None:
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.executescript(script)

    def add_column(self, table: str, column: str, kind: str) -> None:
        if column not in [row[1] for row in self.db.execute(f"PRAGMA table_info({table})")]:
            try:
                self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
            except sqlite3.OperationalError as exc:
                if "duplicate column" not in str(exc):
                    raise


#: PostgreSQL's types for the SQLite ones of a table (an identity column numbers the rows)
_TYPES = (("INTEGER PRIMARY KEY", "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
          ("INTEGER", "BIGINT"), ("REAL", "DOUBLE PRECISION"))


class PostgreSQL(Database):
    """A store in a PostgreSQL database (psycopg 3; its tables are made at
    the first open).  Exports and hand-outs go to the working folder."""

    def __init__(self, target: str, timeout: float) -> None:
        super().__init__(target, timeout)
        self.folder = Path.cwd()
        self._psycopg = _driver(target)
        self._check(target)
        self.execute("SELECT 1")  # the first connection: an unreachable server is said now, not at the first move

    @staticmethod
    def _check(target: str) -> None:
        """Refuse a malformed address (what is wrong, and what is accepted)."""
        from psycopg import conninfo

        try:
            parts = urlsplit(target)
            parts.port  # noqa: B018 -- a port that is not a number raises
            conninfo.conninfo_to_dict(target)
        except Exception as exc:  # ValueError, psycopg.ProgrammingError
            raise StoreError(_("{target}: not a PostgreSQL address ({reason}); a class's store is {accepted}")
                             .format(target=shown(target), reason=_reason(exc), accepted=_(ACCEPTED))) from None

    def connect(self) -> Any:
        """A connection in autocommit (a write is :meth:`write`'s ``BEGIN``); a
        lock waited for longer than ``timeout`` is an error, as SQLite's busy file."""
        try:
            db = self._psycopg.connect(self.target, autocommit=True, connect_timeout=max(1, int(self.timeout)))
            db.execute("SELECT set_config('lock_timeout', %s, false)", (f"{int(self.timeout * 1000)}ms",))
            return db
        except self._psycopg.Error as exc:
            raise StoreError(_("{target}: cannot open the class's rooms on the PostgreSQL server ({reason}); a "
                               "class's store is {accepted}").format(target=shown(self.target), reason=_reason(exc),
                                                                     accepted=_(ACCEPTED))) from None

    def alive(self, db: Any) -> bool:
        return not (db.closed or db.broken)

    @staticmethod
    def sql(text: str) -> str:
        """``text`` for psycopg: ``?`` (outside quotes) becomes ``%s``, a ``%`` ``%%``."""
        return re.sub(r"'[^']*'|\?|%", lambda m: "%s" if m[0] == "?" else m[0].replace("%", "%%"), text)

    @staticmethod
    def ddl(text: str) -> str:
        """A table's SQLite types as PostgreSQL's (:data:`_TYPES`)."""
        for sqlite_type, pg_type in _TYPES:
            text = re.sub(rf"\b{sqlite_type}\b", pg_type, text)
        return text

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        if sql.lstrip()[:6].upper() in ("CREATE", "ALTER "):
            sql = self.ddl(sql)
        return self.db.execute(self.sql(sql), tuple(params))

    def begin(self, db: Any, lock: str) -> None:
        db.execute("BEGIN")
        digest = hashlib.blake2b(f"cardlab:{lock}".encode(), digest_size=8).digest()
        db.execute("SELECT pg_advisory_xact_lock(%s)", (int.from_bytes(digest, "big", signed=True),))

    def create(self, script: str) -> None:
        with self.write():  # two servers opening a new database at once: one makes the tables
            for statement in filter(str.strip, script.split(";")):
                self.execute(statement)

    def add_column(self, table: str, column: str, kind: str) -> None:
        has = "SELECT 1 FROM information_schema.columns WHERE table_schema=current_schema() AND table_name=? " \
              "AND column_name=?"
        if not self.execute(has, (table, column)).fetchone():
            with self.write():
                self.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {kind}")


def _driver(target: str) -> Any:
    """psycopg, imported now (a store on PostgreSQL needs the ``school`` extra)."""
    try:
        import psycopg
    except ImportError:
        raise StoreError(_("{target}: a class's store on PostgreSQL needs psycopg: pip install 'cardlab[school]' "
                           "(or keep the store in a SQLite file, the default)").format(target=shown(target))) \
            from None
    return psycopg


def _reason(exc: BaseException) -> str:
    """An error's message on one line (psycopg's run over several)."""
    return " ".join(str(exc).split()) or type(exc).__name__
