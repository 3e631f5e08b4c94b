"""Serve the built site (``make lite-serve``; the browser test uses it too):
a static file server on 127.0.0.1 that names the types a browser insists on
(ES modules ``.mjs``, WebAssembly ``.wasm``).  Any static host does the same.

Usage: ``python lite/serve.py [--port 8000] [--dir _site]``.
"""

from __future__ import annotations

import argparse
import functools
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".json": "application/json", ".ipynb": "application/json", ".whl": "application/zip"}


class Handler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def log_message(self, format, *args):  # quiet: one line per error only
        if args and str(args[1])[:1] in "45":
            super().log_message(format, *args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--dir", type=Path, default=Path(__file__).resolve().parent.parent / "_site")
    args = parser.parse_args()
    handler = functools.partial(Handler, directory=str(args.dir))
    with ThreadingHTTPServer(("127.0.0.1", args.port), handler) as server:
        print(f"serving {args.dir} on http://127.0.0.1:{args.port}/ (Ctrl-C stops)", flush=True)
        server.serve_forever()


if __name__ == "__main__":
    main()
