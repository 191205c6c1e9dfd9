"""`graphmem search` without building the whole typer app, and without importing typer: its
arguments read straight from the command's own signature (declared with graphmem/cli/options.py),
then the command function called as typer would call it.

Importing typer and building the app (every command module, its parameters, pydantic adapters for
each value) costs more CPU than a search sent to a running `graphmem serve`; this path skips both.
Anything it does not read exactly as typer would (--help, an unknown option, a number out of range,
a missing query) is left to typer, which answers as always. tests/test_http_cli.py holds the two
readings equal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .options import ArgumentInfo, OptionInfo

FAST_COMMANDS = ("search",)


def _spec(command: Callable) -> tuple[list[str], dict[str, tuple[str, str, Any]], dict[str, Any]]:
    """(positional names, option name -> (parameter, kind, flag value), defaults) of a command
    declared with options.Argument / options.Option."""
    positional: list[str] = []
    options: dict[str, tuple[str, str, Any]] = {}
    defaults: dict[str, Any] = {}
    code = command.__code__  # read without inspect (which alone costs a new process ~10 ms)
    names = code.co_varnames[: code.co_argcount]
    declared = command.__defaults__ or ()
    for name, info in zip(names, declared if len(declared) == len(names) else [None] * len(names)):
        if not isinstance(info, (ArgumentInfo, OptionInfo)):
            raise TypeError(f"{command.__name__}({name}) is not declared with graphmem.cli.options")
        annotation = str(command.__annotations__.get(name, ""))
        defaults[name] = info.default if info.default is not ... else None
        if isinstance(info, ArgumentInfo):
            positional.append(name)
            continue
        kind = "list" if "list[" in annotation else "int" if annotation.startswith("int") else "str"
        for decl in info.decls:
            if "/" in decl:
                on, off = decl.split("/")
                options[on], options[off] = (name, "flag", True), (name, "flag", False)
            elif annotation.startswith("bool"):
                options[decl] = (name, "flag", True)
            else:
                options[decl] = (name, kind, (info.min, info.max))
    return positional, options, defaults


def read_arguments(command: Callable, args: list[str]) -> dict[str, Any] | None:
    """The keyword arguments typer would call ``command`` with for ``args``, or None when they
    need typer (help, an error, anything unusual)."""
    positional, options, defaults = _spec(command)
    kwargs = dict(defaults)
    given: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--" or arg in ("--help", "-h"):
            return None
        if arg.startswith("-") and arg != "-":
            name, eq, inline = arg.partition("=")
            if name not in options:
                return None
            param, kind, extra = options[name]
            if kind == "flag":
                if eq:
                    return None
                kwargs[param] = extra
            else:
                if not eq:
                    i += 1
                    if i >= len(args):
                        return None
                    inline = args[i]
                if kind == "int":
                    try:
                        number = int(inline)
                    except ValueError:
                        return None
                    low, high = extra
                    if (low is not None and number < low) or (high is not None and number > high):
                        return None
                    kwargs[param] = number
                elif kind == "list":
                    kwargs[param] = [*(kwargs[param] or []), inline]
                else:
                    kwargs[param] = inline
        else:
            given.append(arg)
        i += 1
    if len(given) != len(positional):
        return None
    kwargs.update(zip(positional, given))
    return kwargs


def answered(argv: list[str]) -> bool:
    """Run ``graphmem search ...`` here when its arguments are plain; False: let the typer app run."""
    if not argv or argv[0] not in FAST_COMMANDS:
        return False
    from .search_cmd import search

    kwargs = read_arguments(search, argv[1:])
    if kwargs is None:
        return False
    from ._plain import run_command

    run_command(search, kwargs)
    return True
