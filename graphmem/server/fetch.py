"""Fetch jars from Maven Central with the machine's ``mvn``: the Neo4j Community server's
(``fetch_jars``) and the embedding models that ship as jars (``fetch_artifacts``, graphmem/embed/jars.py).

The jars land in ``<server.cache_dir>/<version>/lib``; a marker file written last makes a
second call instant, and a file lock keeps concurrent callers from fetching twice.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

from ..errors import ServerError
from .errors import MissingToolError
from .java import Java

MARKER = ".complete"

_POM = """<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>graphmem.local</groupId>
  <artifactId>{name}</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
{dependencies}
  </dependencies>
</project>
"""
_DEPENDENCY = """    <dependency>
      <groupId>{}</groupId>
      <artifactId>{}</artifactId>
      <version>{}</version>
    </dependency>"""

_VERSION_RE = re.compile(r"^[0-9][0-9A-Za-z.\-]*$")


def lib_dir(cache_dir: Path, version: str) -> Path:
    return Path(cache_dir).expanduser() / version / "lib"


def is_fetched(cache_dir: Path, version: str) -> bool:
    return (Path(cache_dir).expanduser() / version / MARKER).is_file()


@contextmanager
def file_lock(path: Path):
    """An exclusive advisory lock on ``path`` (created if needed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _first_error(output: str) -> str:
    for line in output.splitlines():
        line = line.strip()
        if line.startswith("[ERROR]") and len(line) > len("[ERROR] "):
            return line[len("[ERROR] ") :][:300]
    lines = [ln.strip() for ln in output.splitlines() if ln.strip()]
    return lines[-1][:300] if lines else "no output"


def fetch_jars(
    cache_dir: Path,
    version: str,
    java: Java,
    *,
    progress: Callable[[str], None] | None = None,
    environ: dict[str, str] | None = None,
    timeout_s: float = 1800,
) -> Path:
    """Return the directory holding every runtime jar of Neo4j ``version``, fetching it once."""
    if not _VERSION_RE.match(version):
        raise ServerError(f"invalid Neo4j version {version!r}: expected e.g. 5.26.30 or 2026.08.1")
    return fetch_artifacts(
        Path(cache_dir).expanduser() / version,
        [f"org.neo4j:neo4j:{version}"],
        java,
        what=f"Neo4j {version}",
        size="~120 MB",
        progress=progress,
        environ=environ,
        timeout_s=timeout_s,
    )


def fetch_artifacts(
    root: Path,
    artifacts: list[str],
    java: Java,
    *,
    what: str,
    size: str,
    transitive: bool = True,
    progress: Callable[[str], None] | None = None,
    environ: dict[str, str] | None = None,
    timeout_s: float = 1800,
) -> Path:
    """Return ``root/lib`` holding the jars of ``artifacts`` ("group:artifact:version"; with
    ``transitive`` their runtime dependencies too), fetching them once. ``what`` and ``size``
    name the download in the progress line and the errors."""
    lib = root / "lib"
    if (root / MARKER).is_file():
        return lib
    environ = dict(os.environ if environ is None else environ)
    with file_lock(root.parent / f".{root.name}.lock"):
        if (root / MARKER).is_file():  # another process finished meanwhile
            return lib
        mvn = shutil.which("mvn", path=environ.get("PATH", ""))
        if mvn is None:
            raise MissingToolError(
                f"Maven (mvn) not found; it fetches {what} from Maven Central: "
                f"install it (apt-get install maven) or put the jars in {lib} and create {root / MARKER}"
            )
        if progress:
            progress(f"Fetching {what} from Maven Central into {lib} (once, {size})...")
        root.mkdir(parents=True, exist_ok=True)
        dependencies = "\n".join(_DEPENDENCY.format(*a.split(":")) for a in artifacts)
        (root / "pom.xml").write_text(_POM.format(name=re.sub(r"[^\w.-]", "-", root.name), dependencies=dependencies))
        tmp = Path(tempfile.mkdtemp(prefix="lib-", dir=root))
        env = {**environ, "JAVA_HOME": str(java.home)}
        cmd = [
            mvn,
            "-q",
            "-B",
            "-f",
            str(root / "pom.xml"),
            "dependency:copy-dependencies",
            f"-DoutputDirectory={tmp}",
            "-DincludeScope=runtime",
            f"-DexcludeTransitive={str(not transitive).lower()}",
        ]
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout_s)
        except subprocess.TimeoutExpired:
            shutil.rmtree(tmp, ignore_errors=True)
            raise ServerError(
                f"fetching {what} with mvn took longer than {timeout_s:.0f} s; "
                f"check network access to Maven Central and retry"
            ) from None
        jars = list(tmp.glob("*.jar"))
        wanted = {a.split(":")[1] for a in artifacts}
        if out.returncode != 0 or not all(any(j.name.startswith(f"{w}-") for j in jars) for w in wanted):
            shutil.rmtree(tmp, ignore_errors=True)
            raise ServerError(
                f"could not fetch {what} from Maven Central with mvn "
                f"(exit {out.returncode}): {_first_error(out.stdout + out.stderr)}"
            )
        if lib.exists():
            shutil.rmtree(lib)
        tmp.rename(lib)
        (root / MARKER).write_text(f"{len(jars)} jars\n")
        return lib
