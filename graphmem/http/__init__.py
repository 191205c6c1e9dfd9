"""``graphmem serve``: the memory as an HTTP API (FastAPI, OpenAPI at /openapi.json, docs at /docs).

- ``app``: the ASGI app over one MemoryGraph;
- ``auth``: which group a request acts on (its token, or the server's configuration);
- ``errors``: the library's named errors as HTTP statuses and JSON;
- ``schemas`` and ``routes``: the request bodies and the endpoints, one MemoryGraph call each;
- ``runtime`` and ``client``: how the CLI finds a running server and sends it a command (standard
  library only: importing this package imports neither FastAPI nor pydantic).
"""
