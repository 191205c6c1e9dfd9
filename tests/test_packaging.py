"""graphmem as a user gets it from pip: a wheel installed into a fresh virtualenv, run from a
directory where the checkout is not importable; and a module graph without import cycles."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "graphmem"


def _run(args: list, **kwargs) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=600, **kwargs)
    assert proc.returncode == 0, f"{args}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    return proc


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """A wheel of graphmem built outside the checkout, from a copy of the sources (so the checkout
    gets no build/ or egg-info)."""
    work = tmp_path_factory.mktemp("wheel")
    src = work / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    shutil.copytree(PACKAGE, src / "graphmem", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            str(src),
            "-w",
            work / "dist",
        ],
        cwd=work,
    )
    (built,) = (work / "dist").glob("graphmem-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A virtualenv outside the checkout with graphmem installed from the wheel.

    The dependencies come from the running environment's site-packages through a .pth file,
    added after the venv's own site-packages, so the wheel's graphmem is the one imported."""
    venv = tmp_path_factory.mktemp("venv") / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", venv])
    py = venv / "bin" / "python"
    site = Path(_run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())
    (site / "zz_graphmem_test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    _run([sys.executable, "-m", "pip", "--python", py, "install", "-q", "--no-deps", wheel], cwd=venv.parent)
    return venv


@pytest.mark.system
def test_the_wheel_ships_the_library_and_no_benchmark_runner(wheel, installed, tmp_path):
    import zipfile

    names = zipfile.ZipFile(wheel).namelist()
    assert "graphmem/py.typed" in names and "graphmem/cypher/memory_write.cypher" in names
    # graphmem/bench holds what measures a user's own deployment (write, search, faults): no runner
    bench = sorted(n.rsplit("/", 1)[1] for n in names if n.startswith("graphmem/bench/"))
    assert bench == ["__init__.py", "cpu.py", "faults.py", "http.py", "search.py", "write.py"]
    assert [n for n in names if n.startswith("graphmem_bench") or DATASET_NAMES.search(n)] == []
    assert [n for n in names if "bench" in n and n.endswith(".cypher")] == ["graphmem/cypher/bench.cypher"]
    # the command runs from the wheel alone, in a directory where the checkout is not importable
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    helped = _run([installed / "bin" / "graphmem", "--help"], env=env, cwd=tmp_path).stdout
    assert "bench" in helped and "search" in helped
    bench = _run([installed / "bin" / "graphmem", "bench", "--help"], env=env, cwd=tmp_path).stdout
    assert all(c in bench for c in ("write", "search", "faults"))


def _env(neo4j_settings, home: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GRAPHMEM_", "NEO4J_")) and k not in ("PYTHONPATH", "VIRTUAL_ENV")
    }
    n = neo4j_settings.neo4j
    env.update(
        NEO4J_URI=n.uri,
        NEO4J_USER=n.user,
        NEO4J_PASSWORD=n.password or "",
        NEO4J_DATABASE=n.database,
        GRAPHMEM_CONFIG=str(home / "graphmem.toml"),
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
    )
    return env


@pytest.mark.system
def test_wheel_installed_elsewhere_inits_writes_and_searches(installed, neo4j_settings, group_id, tmp_path):
    home = tmp_path / "user"
    home.mkdir()
    (home / "graphmem.toml").write_text("# empty: only the environment\n")
    env = _env(neo4j_settings, home)
    py, cli = installed / "bin" / "python", installed / "bin" / "graphmem"

    where = _run([py, "-c", "import graphmem; print(graphmem.__file__)"], env=env, cwd=home).stdout.strip()
    assert Path(where).is_relative_to(installed), f"imported {where}, not the installed wheel"
    shipped = _run(
        [py, "-c", "from graphmem.store.cypher import queries; print(len(queries()))"], env=env, cwd=home
    ).stdout
    assert int(shipped) > 20

    init = json.loads(_run([cli, "init", "--json"], env=env, cwd=home).stdout)
    assert init
    added = json.loads(
        _run(
            [
                cli,
                "add",
                "-g",
                group_id,
                "-s",
                "我",
                "-t",
                "事件",
                "--topic",
                "吃饭",
                "-o",
                "白米饭",
                "--attr",
                "时间=昨天",
                "--time-ref",
                "2025-11-05T10:00:00+08:00",
                "--json-output",
            ],
            env=env,
            cwd=home,
        ).stdout
    )
    assert added["status"] and added["memory_id"]
    found = json.loads(_run([cli, "search", "-g", group_id, "我昨天吃了什么", "--json"], env=env, cwd=home).stdout)
    assert [r["memory_id"] for r in found["results"]][:1] == [added["memory_id"]]
    assert "白米饭" in found["results"][0]["text"]


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base[: len(base) - node.level + (1 if is_package else 0)]
    return ".".join(base + ([node.module] if node.module else []))


def _all_imports(path: Path, module: str) -> set[str]:
    """Every module named by an import anywhere in the file, functions included."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            prefix = _absolute(node, module, path.name == "__init__.py")
            found.add(prefix)
            found.update(f"{prefix}.{a.name}" for a in node.names)
    return found


def _top_level_imports(path: Path, module: str) -> set[str]:
    """graphmem modules imported when ``module`` is imported: module-level statements only (not
    inside functions, classes' methods or ``if TYPE_CHECKING:``)."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                prefix = _absolute(node, module, is_package)
                found.add(prefix)
                found.update(f"{prefix}.{a.name}" for a in node.names)
            elif isinstance(node, ast.If):
                test = ast.unparse(node.test)
                if "TYPE_CHECKING" not in test:
                    visit(node.body)
                visit(node.orelse)
            elif isinstance(node, (ast.Try, ast.With)):
                visit(node.body)
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)
                visit(getattr(node, "orelse", []))
                visit(getattr(node, "finalbody", []))
            elif isinstance(node, ast.ClassDef):
                visit(node.body)

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return found


def module_graph() -> dict[str, set[str]]:
    """graphmem module -> the graphmem modules it imports at module level. Importing ``a.b.c``
    also imports the packages ``a`` and ``a.b``, so those count as edges too."""
    files = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        edges: set[str] = set()
        for target in _top_level_imports(path, name):
            parts = target.split(".")
            for i in range(1, len(parts) + 1):
                candidate = ".".join(parts[:i])
                if candidate in files and candidate != name and not name.startswith(candidate + "."):
                    edges.add(candidate)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def dfs(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state and (cycle := dfs(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (cycle := dfs(start)):
            return cycle
    return None


def test_the_cycle_finder_sees_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_graphmem_modules_import_each_other_without_a_cycle():
    graph = module_graph()
    assert "graphmem.store.driver" in graph["graphmem.graph"]  # the parser sees real imports
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph))


def test_the_layers_below_the_facade_never_import_it():
    """builder, retriever, ingest, lifecycle, store and the shared modules are called by graph.py
    (and the tools and CLI over it); none of them reaches back up, not even inside a function."""
    facade = {"graphmem.graph", "graphmem.tools", "graphmem.cli", "graphmem.demo"}
    below = (
        "graphmem.builder",
        "graphmem.retriever",
        "graphmem.ingest",
        "graphmem.lifecycle",
        "graphmem.store",
        "graphmem.timeparse",
        "graphmem.lang",
        "graphmem.types",
        "graphmem.config",
        "graphmem.embed",
    )
    allowed = {"graphmem.ingest.llm": {"graphmem.tools"}}  # it offers the LLM the tools' schemas
    reaching_up = {}
    for path in PACKAGE.rglob("*.py"):
        name = _module_name(path)
        if not name.startswith(below):
            continue
        up = {t for t in _all_imports(path, name) for f in facade if (t == f or t.startswith(f + "."))}
        up = {t for t in up if not any(t == a or t.startswith(a + ".") for a in allowed.get(name, ()))}
        if up:
            reaching_up[name] = sorted(up)
    assert reaching_up == {}


# --- the library knows no benchmark ---------------------------------------------------------------
# The benchmark datasets, their speakers (every speaker of /work/shared/bench's dev sets: LoCoMo's
# six, MADial-Bench's user; LongMemEval's turns are "user" and "assistant") and lines of theirs
# that found their way into library code before. Listed here because CI has no copy of the data.
DATASETS = ("LoCoMo", "LongMemEval", "MADial")
DATASET_NAMES = re.compile("|".join(DATASETS), re.IGNORECASE)
SPEAKERS = ("Caroline", "Melanie", "Jon", "John", "Maria", "Gina", "Bart")
LINES = (
    "support group yesterday and it was so powerful",
    "LGBTQ support group",
    "creating a safe, inviting place",
    "Last week was wild",
    "daughter Sara's birthday",
    "road trip we took",
    "signed up for a pottery class",
    "Congrats on following your dreams",
    "seeing their eyes light up",
    "I had Domino's",
    "我最喜欢春天了",
)


def benchmark_traces(text: str) -> list[str]:
    """What in ``text`` names a benchmark: its runners' package, a dataset, a speaker, a line."""
    found = [f"imports the runners ({m.group(0)})" for m in re.finditer(r"graphmem_bench\S*", text)]
    found += [f"names {m.group(0)}" for m in DATASET_NAMES.finditer(text)]
    found += [f"names the speaker {m.group(0)}" for m in re.finditer(rf"\b(?:{'|'.join(SPEAKERS)})\b", text)]
    low = text.lower()
    found += [f"quotes {line!r}" for line in LINES if line.lower() in low]
    return found


def test_the_benchmark_finder_sees_names_speakers_lines_and_imports():
    assert benchmark_traces("Melanie: That's awesome, Caroline! Congrats on following your dreams.") == [
        "names the speaker Melanie",
        "names the speaker Caroline",
        "quotes 'Congrats on following your dreams'",
    ]
    assert benchmark_traces("from graphmem_bench.locomo import run") == [
        "imports the runners (graphmem_bench.locomo)",
        "names locomo",
    ]
    assert benchmark_traces("# tuned on longmemeval_s") == ["names longmemeval"]
    assert benchmark_traces("小明说：我最喜欢春天了，你呢？") == ["quotes '我最喜欢春天了'"]
    # words that merely contain a speaker's name are not one
    assert benchmark_traces("Johnson, Jonas and Bartholomew; json; MariaDB") == []


def test_the_library_knows_no_benchmark():
    """No library module (graphmem/**/*.py, graphmem/**/*.cypher) imports the runners or names a
    benchmark's dataset, speakers or lines: in code, prompts, comments or rule lists."""
    hits = []
    for path in sorted([*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.cypher")]):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            hits += [f"{path.relative_to(ROOT)}:{n}: {what}" for what in benchmark_traces(line)]
    assert hits == [], "\n".join(hits)


def _pypi_reachable() -> bool:
    import urllib.request

    try:
        urllib.request.urlopen("https://pypi.org/simple/neo4j/", timeout=10).close()
        return True
    except OSError:
        return False


@pytest.mark.slow
def test_the_dependencies_resolve_at_once_with_the_newest_driver_the_bounds_allow(tmp_path):
    """pip resolves pyproject's dependencies without backtracking ("pip is looking at multiple
    versions of ..."), and takes the newest neo4j driver the bounds allow, neomodel's included.
    Resolves against PyPI (metadata only: --dry-run installs nothing) as `pip install .` does in a
    new virtualenv: with the pip that `python -m venv` brings (an older pip backtracks where a newer
    one looks ahead), and with build isolation (zhconv, published only as source, has its metadata
    built by the backend pip fetches, whatever this virtualenv holds)."""
    import tomllib

    from packaging.requirements import Requirement
    from packaging.version import Version

    if not _pypi_reachable():
        pytest.skip("PyPI is not reachable from here")
    report = tmp_path / "report.json"
    _run([sys.executable, "-m", "venv", tmp_path / "venv"], cwd=tmp_path)
    proc = _run(
        [
            tmp_path / "venv" / "bin" / "python",
            "-m",
            "pip",
            "install",
            "--dry-run",
            "--ignore-installed",
            "--report",
            report,
            ROOT,
        ],
        cwd=tmp_path,
    )
    said = proc.stdout + proc.stderr
    assert "looking at multiple versions" not in said and "taking longer than usual" not in said, said
    chosen = {
        i["metadata"]["name"].lower(): Version(i["metadata"]["version"])
        for i in json.loads(report.read_text())["install"]
    }
    bounds = {
        (r := Requirement(line)).name.lower(): r.specifier
        for line in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    }
    index = _run([sys.executable, "-m", "pip", "index", "versions", "neo4j"], cwd=tmp_path).stdout
    published = [Version(v) for v in index.split("Available versions:", 1)[1].splitlines()[0].split(",")]
    newest = max(v for v in published if v in bounds["neo4j"] and not v.is_prerelease)
    assert chosen["neo4j"] == newest
    assert chosen["neo4j-rust-ext"].release[:3] == chosen["neo4j"].release  # the extension matches the driver
    assert "neomodel" in chosen and chosen["neomodel"] in bounds["neomodel"]
