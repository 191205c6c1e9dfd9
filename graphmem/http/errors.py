"""The library's named errors as HTTP answers: the status each deserves, and the JSON body the tools
give a model (``graphmem.tools.tool_error``: ``error``, ``message``, and ``field``/``allowed``/
``errors`` or ``candidates``)."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from .. import errors as e
from ..tools import tool_error
from ..types import validation_error
from .auth import GROUP_ARGUMENTS

log = logging.getLogger("graphmem.http")

# The first class in an error's MRO found here gives its status.
STATUS: dict[type[Exception], int] = {
    e.ValidationError: 422,
    e.ImportFormatError: 422,
    e.NotFoundError: 404,
    e.AmbiguousMatchError: 409,  # NoMatchError too: the candidates say what to describe instead
    e.ConsolidationLockedError: 409,
    e.SchemaMismatchError: 409,
    e.UnauthorizedError: 401,
    e.ForbiddenError: 403,
    e.Neo4jUnavailableError: 503,  # the auth, permission, missing-database and unknown-outcome kinds too
    e.ServerError: 503,
    e.ExtractionError: 502,
    e.MissingExtraError: 501,
    e.ConfigError: 500,
    e.GraphmemError: 500,
}
RETRY_AFTER_S = "5"  # sent with a 503: the database may be back by then


def status_of(exc: BaseException) -> int:
    for kind in type(exc).__mro__:
        if kind in STATUS:
            return STATUS[kind]
    return 500


def error_response(exc: BaseException) -> JSONResponse:
    status = status_of(exc)
    body = tool_error(exc)
    headers = {"Retry-After": RETRY_AFTER_S} if status == 503 else {}
    if status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    return JSONResponse(body, status_code=status, headers=headers)


def _request_problem(exc: RequestValidationError) -> e.ValidationError:
    """FastAPI's validation failure as the library's ValidationError (the field named without the
    "body" part), or the refusal of a group chosen in the body."""
    problems: list[dict[str, Any]] = []
    for err in exc.errors():
        loc = list(err.get("loc") or ())
        if loc and loc[0] in ("body", "query", "path", "header"):
            loc = loc[1:]
        if err.get("type") == "extra_forbidden" and loc and str(loc[-1]).casefold() in GROUP_ARGUMENTS:
            field = str(loc[-1])
            return e.ValidationError(
                f"{field}: the group is fixed by your token or the server's configuration, not by the "
                "request body; send the request without it",
                field=field,
            )
        problems.append({**err, "loc": loc, "msg": str(err.get("msg", ""))})
    if not problems:
        return e.ValidationError("the request is not valid", field=None)
    return validation_error(problems)


def install(app: FastAPI) -> None:
    async def graphmem_error(request: Request, exc: Exception) -> JSONResponse:
        return error_response(exc)

    async def invalid_request(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return error_response(_request_problem(exc))

    async def http_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, HTTPException)
        name = {404: "NotFoundError", 405: "MethodNotAllowed"}.get(exc.status_code, "HTTPError")
        message = f"{exc.detail}: {request.method} {request.url.path}; the endpoints are listed at /docs"
        return JSONResponse({"success": False, "error": name, "message": message}, status_code=exc.status_code)

    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("HTTP %s %s failed", request.method, request.url.path)
        return JSONResponse(tool_error(exc), status_code=500)

    app.add_exception_handler(e.GraphmemError, graphmem_error)
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(Exception, unexpected)
