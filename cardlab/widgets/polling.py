"""A page that looks at the class's store again and again: the teacher's
page, a pupil's tournament seat, the puzzle of the lesson.  One loop for
them all, on the kernel's event loop (Voila, JupyterLab); in plain Python
(tests, scripts) nothing runs by itself: call the page's ``sync()``."""

from __future__ import annotations

import asyncio
from typing import Callable

from ..errors import CardlabError
from ..store_db import errors


async def _every(seconds: float, look: Callable[[], object]) -> None:
    while True:
        await asyncio.sleep(seconds)
        try:
            look()
        except (CardlabError, *errors()):  # the store busy, moved or its server gone: the next look tries again
            pass


def start(seconds: float | None, look: Callable[[], object]) -> asyncio.Task | None:
    """Call ``look()`` every ``seconds`` on the running loop; ``None`` (and
    nothing started) without ``seconds`` or outside a kernel."""
    if not seconds:
        return None
    try:
        return asyncio.get_running_loop().create_task(_every(seconds, look))
    except RuntimeError:  # plain Python: call sync() yourself
        return None


def stop(task: asyncio.Task | None) -> None:
    """Stop a loop :func:`start` made (``None``: nothing to stop)."""
    if task is not None:
        task.cancel()
