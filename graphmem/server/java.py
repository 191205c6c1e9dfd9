"""Find a Java runtime good enough for a given Neo4j version.

Neo4j 5.x runs on Java 17 (or 21); the calendar-versioned releases (2025.x, 2026.x) need
Java 21+. Candidates, in order: the ``server.java_home`` setting (if set it must be valid:
no silent fallback), ``$JAVA_HOME``, ``java`` on ``$PATH``, then every JDK under
``/usr/lib/jvm`` (lowest qualifying major first).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .errors import MissingToolError

JVM_SEARCH_DIRS: tuple[Path, ...] = (Path("/usr/lib/jvm"),)


@dataclass(frozen=True)
class Java:
    """A usable ``java`` executable, its home and major version."""

    executable: Path
    home: Path
    major: int


def required_java_major(neo4j_version: str) -> int:
    """17 for Neo4j 4.x/5.x, 21 for calendar versions (2025.01 and later)."""
    try:
        first = int(neo4j_version.split(".")[0])
    except ValueError:
        return 17
    return 21 if first >= 2025 else 17


def _parse_major(version: str) -> int | None:
    m = re.match(r"(\d+)(?:\.(\d+))?", version.strip())
    if not m:
        return None
    major = int(m.group(1))
    if major == 1 and m.group(2):  # 1.8.0 -> 8
        major = int(m.group(2))
    return major


def java_major(home: Path) -> int | None:
    """The major version of the JDK/JRE at ``home`` (``release`` file, else ``java -version``)."""
    release = home / "release"
    if release.is_file():
        m = re.search(r'^JAVA_VERSION="([^"]+)"', release.read_text(errors="replace"), re.M)
        if m:
            return _parse_major(m.group(1))
    exe = home / "bin" / "java"
    if not exe.is_file():
        return None
    try:
        out = subprocess.run([str(exe), "-version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r'version "([^"]+)"', out.stderr + out.stdout)
    return _parse_major(m.group(1)) if m else None


def _java_at(home: Path) -> Java | None:
    exe = home / "bin" / "java"
    if not (exe.is_file() and os.access(exe, os.X_OK)):
        return None
    major = java_major(home)
    return Java(exe, home, major) if major else None


def _not_found(min_major: int) -> str:
    pkg = f"openjdk-{min_major}-jre-headless"
    return (
        f"Java {min_major}+ not found: install OpenJDK {min_major} (apt-get install {pkg}) "
        f"or set GRAPHMEM_SERVER__JAVA_HOME"
    )


def find_java(
    java_home: Path | str | None = None,
    min_major: int = 17,
    *,
    environ: dict[str, str] | None = None,
    search_dirs: tuple[Path, ...] | list[Path] | None = None,
) -> Java:
    """Return the first Java runtime with major version >= ``min_major``.

    Raises MissingToolError (a ServerError) with a one-line message saying what to install.
    """
    environ = dict(os.environ if environ is None else environ)
    if java_home is not None:
        home = Path(java_home).expanduser()
        java = _java_at(home)
        if java is None:
            raise MissingToolError(
                f"server.java_home {home} has no bin/java: point "
                f"GRAPHMEM_SERVER__JAVA_HOME at a Java {min_major}+ install "
                f"(e.g. /usr/lib/jvm/java-{min_major}-openjdk-amd64) or unset it"
            )
        if java.major < min_major:
            raise MissingToolError(
                f"server.java_home {home} is Java {java.major}, but this Neo4j "
                f"version needs Java {min_major}+: set GRAPHMEM_SERVER__JAVA_HOME "
                f"to a newer JDK"
            )
        return java

    seen: set[Path] = set()
    candidates: list[Path] = []

    def add(home: Path) -> None:
        try:
            real = home.resolve()
        except OSError:
            return
        if real not in seen:
            seen.add(real)
            candidates.append(real)

    if environ.get("JAVA_HOME"):
        add(Path(environ["JAVA_HOME"]))
    on_path = shutil.which("java", path=environ.get("PATH", ""))
    if on_path:
        add(Path(on_path).resolve().parent.parent)
    for java in filter(None, map(_java_at, candidates)):
        if java.major >= min_major:
            return java

    scanned: list[Java] = []
    for base in JVM_SEARCH_DIRS if search_dirs is None else search_dirs:
        if not Path(base).is_dir():
            continue
        for child in sorted(Path(base).iterdir()):
            real = child.resolve()
            if real in seen:
                continue
            seen.add(real)
            java = _java_at(real)
            if java is not None and java.major >= min_major:
                scanned.append(java)
    if scanned:
        return min(scanned, key=lambda j: j.major)
    raise MissingToolError(_not_found(min_major))
