"""Run a real Neo4j Community server as a detached Java process, without Docker.

Layout under ``server.home`` (data survives stop/start)::

    conf/neo4j.conf     rewritten at each start from the settings (conf/extra.conf appended)
    data/               databases, transactions, dbms/auth.ini
    logs/               neo4j.log, debug.log, console.log (the JVM's stdout/stderr)
    neo4j.pid           pid of the running server
    password            the neo4j user's password (0600), generated on first start
    *.jsa.part          while no class archive exists: the classes the JVM writes at its exit,
                        moved to <server.cache_dir>/<version>/cds/ by a clean stop

Usage::

    info = LocalNeo4j(settings).start()     # idempotent; -> ConnectionInfo(uri, user, password, ...)
    LocalNeo4j(settings).status()           # -> ServerStatus
    LocalNeo4j(settings).stop()             # SIGTERM, wait, SIGKILL after the timeout
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import time
import zipfile
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from neo4j.exceptions import (
    AuthError,
    ClientError,
    DatabaseUnavailable,
    ServiceUnavailable,
    SessionExpired,
    TransientError,
)

from ..config import Settings, load_settings
from ..errors import ConfigError, Neo4jUnavailableError, ServerError
from .errors import PortInUseError
from .fetch import fetch_jars, file_lock
from .java import Java, find_java, required_java_major
from .probe import check_connection, query_components

ENTRY_POINT = "org.neo4j.server.CommunityEntryPoint"  # 5.x; 2025+ use org.neo4j.server.Neo4jCommunity
ENTRY_POINTS = {ENTRY_POINT, "org.neo4j.server.Neo4jCommunity"}
ADMIN_TOOL = "org.neo4j.cli.AdminTool"
HOST = "127.0.0.1"
# bounded transaction logs (with server.tx_log_retention): one log file at most this large, and a
# checkpoint, where logs beyond the retention are pruned, at least this often; a line of
# conf/extra.conf for db.tx_log.rotation.size or db.checkpoint.interval.time replaces them
TX_LOG_ROTATION = "64M"
CHECKPOINT_INTERVAL = "5m"
# A stop without Bolt's idle waits: Neo4j 5 waits 5 s for connections and 5 s more for its network
# threads to fall quiet after the databases have stopped (a stop took 11 s, now about 1). By then
# every transaction has ended or been waited for (db.shutdown_transaction_end_timeout), so nothing
# is cut short. Internal settings of Neo4j 5; a line of conf/extra.conf replaces any of them.
QUICK_STOP = (
    "internal.server.bolt.connection_shutdown_wait_time=0s",
    "internal.server.bolt.thread_pool_shutdown_wait_time=1s",
    "internal.dbms.bolt.netty_server_shutdown_quiet_period=0",
    "internal.dbms.bolt.netty_server_shutdown_timeout=2",
)

# Class data sharing (AppCDS): a server's first clean stop writes the classes it loaded to an archive
# in the jar cache (<server.cache_dir>/<version>/cds/, about 110 MB for each JDK), and every later JVM
# of that version (servers and neo4j-admin) maps them from it instead of loading and verifying them
# again: a start took 13.0 s of CPU and takes 7.5 (2-core AMD EPYC). A JVM that cannot use the archive
# (another JDK build, a changed jar) says so on its console and runs without it.
CLASS_ARCHIVE_DIR = "cds"
CLASS_DUMP_SUFFIX = ".jsa.part"  # in the server's home: the dump of a server still running, or killed

# JVM flags for a server that lives minutes (a test's, a bench's throw-away server; as lines of its
# conf/extra.conf, SHORT_LIVED_CONF): the JIT's first tier alone (C1), with the code cache the second
# would have had. Such a server spends most of its CPU planning queries it runs a few times each, and
# on a cold server the JIT's compiler threads took 48 % of it, compiling (C2) a planner the server did
# not live long enough to profit from. C1 alone gets a 48 MB code cache by default, which that code
# fills: its sweeper then ran for 11 s of CPU in a 5-minute test run, so it keeps the default 240 MB.
SHORT_LIVED_JVM = ("-XX:TieredStopAtLevel=1", "-XX:ReservedCodeCacheSize=240m")
SHORT_LIVED_CONF = "".join(f"server.jvm.additional={flag}\n" for flag in SHORT_LIVED_JVM)

# Popen handles of servers started by this process, so that stop() can reap them.
_CHILDREN: dict[int, subprocess.Popen] = {}

_SIZE_RE = re.compile(r"^\d+[kKmMgG]?$")


@dataclass(frozen=True)
class ConnectionInfo:
    """How to reach a started server."""

    uri: str
    user: str
    password: str
    password_file: Path
    database: str = "neo4j"
    pid: int | None = None
    version: str | None = None
    edition: str | None = None
    already_running: bool = False

    @property
    def auth(self) -> tuple[str, str]:
        return (self.user, self.password)


@dataclass
class ServerStatus:
    running: bool
    pid: int | None
    uri: str
    user: str
    home: Path
    data_dir: Path
    password_file: Path
    store_bytes: int
    neo4j_log: Path
    console_log: Path
    version: str | None = None
    edition: str | None = None
    error: str | None = None
    tx_log_bytes: int = 0  # of store_bytes, the transaction logs (data/transactions)
    extra: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        data = asdict(self)
        for key, value in data.items():
            if isinstance(value, Path):
                data[key] = str(value)
        data["store_size"] = human_size(self.store_bytes)
        data["tx_log_size"] = human_size(self.tx_log_bytes)
        data.pop("extra")
        data.update(self.extra)
        return data


def human_size(n: int) -> str:
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} B"


def disk_usage(path: Path) -> int:
    """Bytes on disk under ``path`` (like ``du -s``); 0 if it does not exist."""
    total = 0
    for root, _dirs, files in os.walk(path):
        for name in files:
            try:
                st = os.lstat(os.path.join(root, name))
            except OSError:
                continue
            total += st.st_blocks * 512
    return total


def port_is_free(port: int, host: str = HOST) -> bool:
    """True if nothing listens on ``host:port`` (a bind test, like the server will do)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def port_is_open(port: int, host: str = HOST, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def free_port(host: str = HOST) -> int:
    """A port that is free right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def _alive(pid: int) -> bool:
    proc = _CHILDREN.get(pid)
    if proc is not None:
        if proc.poll() is None:
            return True
        _CHILDREN.pop(pid, None)
        return False
    try:
        os.waitpid(pid, os.WNOHANG)  # reap if it is our (zombie) child
    except ChildProcessError:
        pass
    except OSError:
        pass
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    state = stat.rsplit(")", 1)[-1].split()[0]
    return state not in ("Z", "X")


def _cmdline(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return []


def entry_point(lib: Path, version: str) -> str:
    """The server's main class, as the neo4j jar declares it (it changed in 2025.x)."""
    jar = lib / f"neo4j-{version}.jar"
    try:
        with zipfile.ZipFile(jar) as zf:
            names = zf.read("META-INF/services/org.neo4j.server.startup.EntryPoint").decode().split()
    except (OSError, KeyError, zipfile.BadZipFile):
        return ENTRY_POINT
    names = [n for n in names if not n.startswith("#")]
    community = [n for n in names if "Community" in n]
    return (community or names or [ENTRY_POINT])[0]


def _write_secret(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, (text + "\n").encode())
    finally:
        os.close(fd)


def _generate_password() -> str:
    while True:
        pw = secrets.token_urlsafe(24)
        if not pw.startswith("-"):  # would look like an option to neo4j-admin
            return pw


def _one_line(text: str, limit: int = 240) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= limit else text[: limit - 3] + "..."


def tail(path: Path, n: int) -> list[str]:
    """The last ``n`` lines of a text file ([] if missing)."""
    if n <= 0 or not path.is_file():
        return []
    with open(path, "rb") as fh:
        fh.seek(0, os.SEEK_END)
        size = fh.tell()
        block, data = 65536, b""
        while size > 0 and data.count(b"\n") <= n:
            step = min(block, size)
            size -= step
            fh.seek(size)
            data = fh.read(step) + data
    return [ln for ln in data.decode(errors="replace").splitlines()][-n:]


class LocalNeo4j:
    """One local Neo4j Community server, identified by its home directory.

    ``home``, ``port`` and ``version`` override ``settings.server`` (the settings object is
    copied, never modified). ``progress`` receives human-readable progress lines.
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        home: str | Path | None = None,
        port: int | None = None,
        version: str | None = None,
        progress: Callable[[str], None] | None = None,
    ):
        settings = (settings or load_settings()).model_copy(deep=True)
        if home is not None:
            settings.server.home = Path(home)
        if port is not None:
            settings.server.bolt_port = port
        if version is not None:
            settings.server.version = version
        settings.server.home = Path(settings.server.home).expanduser().resolve()
        settings.server.cache_dir = Path(settings.server.cache_dir).expanduser()
        for name in ("heap", "pagecache"):
            if not _SIZE_RE.match(getattr(settings.server, name)):
                raise ConfigError(
                    f"invalid setting server.{name}: {getattr(settings.server, name)!r}, "
                    f"expected a size such as 512m or 2g"
                )
        self.settings = settings
        self.progress = progress

    # ---- paths and identity -------------------------------------------------------
    @property
    def server(self):
        return self.settings.server

    @property
    def home(self) -> Path:
        return self.server.home

    @property
    def version(self) -> str:
        return self.server.version

    @property
    def conf_dir(self) -> Path:
        return self.home / "conf"

    @property
    def conf_file(self) -> Path:
        return self.conf_dir / "neo4j.conf"

    @property
    def data_dir(self) -> Path:
        return self.home / "data"

    @property
    def logs_dir(self) -> Path:
        return self.home / "logs"

    @property
    def neo4j_log(self) -> Path:
        return self.logs_dir / "neo4j.log"

    @property
    def console_log(self) -> Path:
        return self.logs_dir / "console.log"

    @property
    def pid_file(self) -> Path:
        return self.home / "neo4j.pid"

    @property
    def password_file(self) -> Path:
        return self.settings.password_file

    @property
    def user(self) -> str:
        return self.settings.neo4j.user

    @property
    def port(self) -> int:
        """The Bolt port: the running server's (from its conf), else the configured one."""
        if self.pid() is not None:
            running = self._conf_port()
            if running:
                return running
        return self.server.bolt_port

    @property
    def uri(self) -> str:
        return f"neo4j://{HOST}:{self.port}"

    def _conf_port(self) -> int | None:
        try:
            m = re.search(r"^server\.bolt\.listen_address=.*:(\d+)\s*$", self.conf_file.read_text(), re.M)
        except OSError:
            return None
        return int(m.group(1)) if m else None

    def _say(self, msg: str) -> None:
        if self.progress:
            self.progress(msg)

    # ---- process ------------------------------------------------------------------
    def _is_ours(self, pid: int) -> bool:
        args = _cmdline(pid)
        return f"--home-dir={self.home}" in args and any(a in ENTRY_POINTS for a in args)

    def pid(self) -> int | None:
        """The running server's pid (pid file, else a scan of /proc), or None."""
        try:
            pid = int(self.pid_file.read_text().strip())
        except (OSError, ValueError):
            pid = None
        if pid and _alive(pid) and self._is_ours(pid):
            return pid
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit() and self._is_ours(int(entry.name)) and _alive(int(entry.name)):
                return int(entry.name)
        return None

    def is_running(self) -> bool:
        return self.pid() is not None

    def password(self) -> str | None:
        """The password clients should use: configured, else the stored one."""
        if self.settings.neo4j.password:
            return self.settings.neo4j.password
        try:
            return self.password_file.read_text().strip() or None
        except OSError:
            return None

    def connection_info(
        self, *, already_running: bool = False, version: str | None = None, edition: str | None = None
    ) -> ConnectionInfo:
        return ConnectionInfo(
            uri=self.uri,
            user=self.user,
            password=self.password() or "",
            password_file=self.password_file,
            database=self.settings.neo4j.database,
            pid=self.pid(),
            version=version,
            edition=edition,
            already_running=already_running,
        )

    # ---- start --------------------------------------------------------------------
    def find_java(self) -> Java:
        return find_java(self.server.java_home, required_java_major(self.version))

    def _write_conf(self, port: int) -> None:
        s = self.server
        lines = [
            "# Generated by graphmem at each start; change graphmem's server.* settings instead.",
            "# Lines in conf/extra.conf, if present, are appended below.",
            f"server.default_listen_address={HOST}",
            f"server.default_advertised_address={HOST}",
            "server.bolt.enabled=true",
            f"server.bolt.listen_address={HOST}:{port}",
            f"server.bolt.advertised_address={HOST}:{port}",
            "server.http.enabled=false",
            "server.https.enabled=false",
            f"server.directories.data={self.data_dir}",
            f"server.directories.logs={self.logs_dir}",
            "dbms.security.auth_enabled=true",
            f"server.memory.heap.initial_size={s.heap}",
            f"server.memory.heap.max_size={s.heap}",
            f"server.memory.pagecache.size={s.pagecache}",
            # bounded transaction logs: kept up to server.tx_log_retention beyond recovery's need,
            # pruned at each checkpoint (at least every CHECKPOINT_INTERVAL)
            f"db.tx_log.rotation.retention_policy={s.tx_log_retention}",
            f"db.tx_log.rotation.size={TX_LOG_ROTATION}",
            f"db.checkpoint.interval.time={CHECKPOINT_INTERVAL}",
        ]
        if self.version.startswith("5."):
            lines += ["dbms.usage_report.enabled=false", *QUICK_STOP]
        extra = self.conf_dir / "extra.conf"
        if extra.is_file():
            # a setting in extra.conf replaces graphmem's own (Neo4j refuses one declared twice)
            theirs = {name for name, _ in self._extra_settings()}
            lines = [ln for ln in lines if ln.split("=", 1)[0] not in theirs]
            lines += ["", "# --- conf/extra.conf ---", extra.read_text()]
        self.conf_dir.mkdir(parents=True, exist_ok=True)
        self.conf_file.write_text("\n".join(lines) + "\n")

    def _env(self, java: Java) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("NEO4J_PASSWORD", "NEO4J_AUTH")}
        env.update(NEO4J_HOME=str(self.home), NEO4J_CONF=str(self.conf_dir), JAVA_HOME=str(java.home))
        return env

    def _jvm_options(self, java: Java) -> list[str]:
        heap = self.server.heap
        opts = [
            f"-Xms{heap}",
            f"-Xmx{heap}",
            "-XX:+UseG1GC",
            "-XX:-OmitStackTraceInFastThrow",
            "-XX:+DisableExplicitGC",
            "-XX:+ExitOnOutOfMemoryError",
            "-Djdk.nio.maxCachedBufferSize=1024",
            "-Dio.netty.tryReflectionSetAccessible=true",
            "-Dlog4j2.disable.jmx=true",
            "-Dfile.encoding=UTF-8",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
        ]
        if java.major >= 21:
            opts.append("--enable-native-access=ALL-UNNAMED")
        if java.major >= 23:
            opts.append("--sun-misc-unsafe-memory-access=allow")
        return opts + self._class_sharing(java, dump=True) + self._jvm_additional()

    def class_archive(self, java: Java) -> Path:
        """The class archive of this Neo4j version for ``java`` (it may not exist yet): one per JDK
        build, named after the executable and its ``release`` file, since a JVM refuses another's."""
        try:
            build = (java.home / "release").read_text(errors="replace")
        except OSError:
            build = str(java.executable.stat().st_mtime_ns)
        key = hashlib.sha256(f"{java.executable.resolve()}\n{build}".encode()).hexdigest()[:12]
        return self._archive_dir / f"java{java.major}-{key}.jsa"

    @property
    def _archive_dir(self) -> Path:
        return Path(self.server.cache_dir) / self.version / CLASS_ARCHIVE_DIR

    def _class_sharing(self, java: Java, *, dump: bool = False) -> list[str]:
        """The JVM flag that maps the class archive; without one, and for a server (``dump``), the
        flag that writes it when the JVM exits (adopted into the cache by a clean ``stop``)."""
        if dump:
            for old in self.home.glob("*" + CLASS_DUMP_SUFFIX):  # a killed server's, perhaps cut short
                old.unlink(missing_ok=True)
        archive = self.class_archive(java)
        if archive.is_file():
            return [f"-XX:SharedArchiveFile={archive}"]
        if not dump:
            return []
        return [f"-XX:ArchiveClassesAtExit={self.home / (archive.stem + CLASS_DUMP_SUFFIX)}"]

    def _adopt_class_dump(self) -> None:
        """Move the dump a cleanly stopped server wrote into the cache, unless an archive is there."""
        for dump in self.home.glob("*" + CLASS_DUMP_SUFFIX):
            archive = self._archive_dir / (dump.name.removesuffix(CLASS_DUMP_SUFFIX) + ".jsa")
            try:
                if not archive.is_file():
                    archive.parent.mkdir(parents=True, exist_ok=True)
                    part = archive.with_name(f"{archive.name}.{os.getpid()}.tmp")
                    shutil.move(dump, part)  # a copy when the home is on another file system
                    os.replace(part, archive)
            except OSError:
                pass  # a read-only cache: the next clean stop tries again
            finally:
                dump.unlink(missing_ok=True)

    def _jvm_additional(self) -> list[str]:
        """The JVM flags of ``server.jvm.additional`` lines in conf/extra.conf (one flag a line, as
        Neo4j's own launcher reads them from neo4j.conf): after graphmem's, so that they win."""
        return [value for name, value in self._extra_settings() if name == "server.jvm.additional" and value]

    def _extra_settings(self) -> list[tuple[str, str]]:
        """The ``name=value`` lines of conf/extra.conf, stripped, in order (comments left out)."""
        extra = self.conf_dir / "extra.conf"
        if not extra.is_file():
            return []
        pairs = (ln.partition("=") for ln in extra.read_text().splitlines() if not ln.lstrip().startswith("#"))
        return [(name.strip(), value.strip()) for name, sep, value in pairs if sep]

    def _ensure_password(self, java: Java, lib: Path) -> str:
        """Set the initial password before the first start; return the password to use."""
        system_db = self.data_dir / "databases" / "system"
        configured = self.settings.neo4j.password
        stored = None
        if self.password_file.is_file():
            stored = self.password_file.read_text().strip() or None
        if system_db.exists():
            pw = configured or stored
            if not pw:
                raise ServerError(
                    f"the server in {self.home} was initialised before but its password is "
                    f"unknown ({self.password_file} is missing): set NEO4J_PASSWORD, "
                    f"or remove {self.data_dir} to start over"
                )
            return pw
        pw = configured or stored or _generate_password()
        cmd = [
            str(java.executable),
            "-Xmx256m",
            *self._class_sharing(java),
            "-cp",
            f"{lib}/*",
            ADMIN_TOOL,
            "dbms",
            "set-initial-password",
            pw,
        ]
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, env=self._env(java), cwd=self.home, timeout=180)
        except subprocess.TimeoutExpired:
            raise ServerError("neo4j-admin dbms set-initial-password took longer than 180 s") from None
        if out.returncode != 0 or not (self.data_dir / "dbms" / "auth.ini").is_file():
            msg = _one_line((out.stderr or out.stdout).replace(pw, "***")) or f"exit {out.returncode}"
            raise ServerError(f"could not set the initial Neo4j password: {msg}")
        _write_secret(self.password_file, pw)
        return pw

    def _failure_hint(self) -> str:
        """The most telling error line of the logs, for one-line startup errors."""
        for path in (self.console_log, self.neo4j_log):
            lines = tail(path, 400)
            for pattern in (r"Caused by: (.*)", r"\bERROR\b(.*)", r"(\w+(?:Exception|Error)\b.*)"):
                hits = [m.group(1) for ln in lines if (m := re.search(pattern, ln))]
                if hits:
                    return _one_line(hits[-1], 200)
        return ""

    def _terminate(self, pid: int, timeout: float) -> bool:
        """SIGTERM, then SIGKILL after ``timeout`` s; True when the process ended on SIGTERM."""
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            return False
        deadline = time.monotonic() + timeout
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        clean = not _alive(pid)
        if not clean:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            deadline = time.monotonic() + 15
            while _alive(pid) and time.monotonic() < deadline:
                time.sleep(0.1)
        proc = _CHILDREN.pop(pid, None)
        if proc is not None:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        return clean

    def _wait_ready(self, proc: subprocess.Popen, port: int, password: str) -> tuple[str, str]:
        timeout = self.server.start_timeout_s
        deadline = time.monotonic() + timeout
        uri = f"neo4j://{HOST}:{port}"
        while True:
            rc = proc.poll()
            if rc is not None:
                _CHILDREN.pop(proc.pid, None)
                self.pid_file.unlink(missing_ok=True)
                hint = self._failure_hint()
                raise ServerError(
                    f"Neo4j exited during startup (exit code {rc})"
                    f"{': ' + hint if hint else ''}; see {self.console_log} and {self.neo4j_log}"
                )
            if port_is_open(port):
                try:
                    return query_components(uri, self.user, password, "system", timeout=5)
                except AuthError as exc:
                    raise Neo4jUnavailableError(
                        f"Neo4j started at {uri} but refused the credentials for user '{self.user}': "
                        f"check NEO4J_PASSWORD (the local server's password is in {self.password_file})"
                    ) from exc
                except (ServiceUnavailable, SessionExpired, DatabaseUnavailable, TransientError, ClientError, OSError):
                    pass
            if time.monotonic() > deadline:
                self._terminate(proc.pid, 30)
                self.pid_file.unlink(missing_ok=True)
                raise ServerError(
                    f"Neo4j did not answer on {HOST}:{port} within {timeout:.0f} s and was "
                    f"stopped; see {self.neo4j_log} and {self.console_log} "
                    f"(or raise GRAPHMEM_SERVER__START_TIMEOUT_S)"
                )
            time.sleep(0.5)

    def _wait_database(self, port: int, password: str) -> None:
        """Wait until the default database answers too (it starts after the system one)."""
        deadline = time.monotonic() + max(30.0, self.server.start_timeout_s / 2)
        uri = f"neo4j://{HOST}:{port}"
        while True:
            try:
                query_components(uri, self.user, password, self.settings.neo4j.database, timeout=5)
                return
            except (ServiceUnavailable, SessionExpired, DatabaseUnavailable, TransientError):
                if time.monotonic() > deadline:
                    return  # the server is up; database errors surface on first use
                time.sleep(0.5)
            except ClientError:
                return  # e.g. a database name that does not exist: reported by check_connection

    def start(self) -> ConnectionInfo:
        """Start the server unless it already runs; wait until Bolt answers.

        Returns the ConnectionInfo (``already_running`` tells whether this call started it).
        Raises MissingToolError (no Java/Maven), PortInUseError, ServerError (died, timed out).
        """
        self.home.mkdir(parents=True, exist_ok=True)
        with file_lock(self.home / ".lock"):
            if self.is_running():
                version = edition = None
                try:
                    version, edition = query_components(self.uri, self.user, self.password(), "system", timeout=5)
                except Exception:  # noqa: BLE001 - informative only
                    pass
                return self.connection_info(already_running=True, version=version, edition=edition)
            self.pid_file.unlink(missing_ok=True)
            java = self.find_java()
            lib = fetch_jars(self.server.cache_dir, self.version, java, progress=self.progress)
            port = self.server.bolt_port
            if not port_is_free(port):
                raise PortInUseError(
                    f"port {port} on {HOST} is already in use by another process: "
                    f"pick another with `graphmem neo4j start --port N` "
                    f"(or set GRAPHMEM_SERVER__BOLT_PORT)"
                )
            for d in (self.data_dir, self.logs_dir):
                d.mkdir(parents=True, exist_ok=True)
            self._write_conf(port)
            password = self._ensure_password(java, lib)
            self._say(f"Starting Neo4j {self.version} on {HOST}:{port} (Java {java.major}, home {self.home})...")
            cmd = [
                str(java.executable),
                *self._jvm_options(java),
                "-cp",
                f"{lib}/*",
                entry_point(lib, self.version),
                f"--home-dir={self.home}",
                f"--config-dir={self.conf_dir}",
            ]
            with open(self.console_log, "ab") as log:
                stamp = datetime.now(UTC).isoformat(timespec="seconds")
                log.write(f"--- graphmem: starting Neo4j {self.version} at {stamp} ---\n".encode())
                log.flush()
                try:
                    proc = subprocess.Popen(
                        cmd,
                        cwd=self.home,
                        env=self._env(java),
                        stdin=subprocess.DEVNULL,
                        stdout=log,
                        stderr=subprocess.STDOUT,
                        start_new_session=True,
                    )
                except OSError as exc:
                    raise ServerError(f"could not run {java.executable}: {exc}") from exc
            _CHILDREN[proc.pid] = proc
            self.pid_file.write_text(f"{proc.pid}\n")
            version, edition = self._wait_ready(proc, port, password)
            self._wait_database(port, password)
            return ConnectionInfo(
                uri=f"neo4j://{HOST}:{port}",
                user=self.user,
                password=password,
                password_file=self.password_file,
                database=self.settings.neo4j.database,
                pid=proc.pid,
                version=version,
                edition=edition,
            )

    # ---- stop / status / logs -----------------------------------------------------
    def stop(self, timeout: float = 60.0) -> bool:
        """Stop the server (SIGTERM, then SIGKILL after ``timeout`` s). False if it was not running."""
        if not self.home.is_dir():
            return False
        with file_lock(self.home / ".lock"):
            pid = self.pid()
            if pid is None:
                self.pid_file.unlink(missing_ok=True)
                return False
            clean = self._terminate(pid, timeout)
            if _alive(pid):
                raise ServerError(f"Neo4j (pid {pid}) did not stop even after SIGKILL")
            self.pid_file.unlink(missing_ok=True)
            if clean:
                self._adopt_class_dump()
            return True

    def status(self, *, probe: bool = True) -> ServerStatus:
        """Running or not, pid, URI, store size, and (if running) version and edition."""
        pid = self.pid()
        st = ServerStatus(
            running=pid is not None,
            pid=pid,
            uri=self.uri,
            user=self.user,
            home=self.home,
            data_dir=self.data_dir,
            password_file=self.password_file,
            store_bytes=disk_usage(self.data_dir),
            neo4j_log=self.neo4j_log,
            console_log=self.console_log,
            tx_log_bytes=disk_usage(self.data_dir / "transactions"),
        )
        if pid is not None and probe:
            try:
                st.version, st.edition = check_connection(
                    self.uri, self.user, self.password(), "system", password_file=self.password_file, timeout=5
                )
            except Neo4jUnavailableError as exc:
                st.error = str(exc)
        return st

    def log_files(self) -> list[Path]:
        return [self.neo4j_log, self.console_log]

    def logs(self, n: int = 50) -> dict[Path, list[str]]:
        """The last ``n`` lines of neo4j.log and console.log."""
        return {path: tail(path, n) for path in self.log_files()}


__all__ = [
    "LocalNeo4j",
    "ConnectionInfo",
    "ServerStatus",
    "free_port",
    "port_is_free",
    "tail",
    "human_size",
    "disk_usage",
]
