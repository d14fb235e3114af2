"""Measure how many planted rules bugs ``cardworks check`` catches: a mutation score per game.

Run: nice -n 15 python bench/mutants.py [--game fallera] [--count 200] [--seed 1] [--jobs 1] [--timeout S]
                                        [--with-pack DIR ...] [--equivalents FILE] [--only FILE] [--list]

A small AST mutator, no dependency: it lists every place in a game's rules modules where one small
bug can be planted (a comparison negated or its boundary moved, an integer constant moved by one,
``and``/``or`` swapped, a ``not`` dropped, a returned or assigned boolean flipped, ``+``/``-`` swapped,
a ``break``/``continue`` swapped), draws a fixed, seeded sample of them, and plants each one alone in a
temporary copy of ``src/`` (the work tree is never edited). Each mutant runs
``cardworks check --game G --playouts 20 --seed 1`` with ``PYTHONPATH`` on the copy; a non-zero exit
kills it, a run past the timeout counts as killed by timeout (shown apart). Prints ``killed of counted``
per game and every survivor by its identity, ``src/<file> <function> `<code of its line>` #<n>: <mutation>``
(its line number beside it). The sample is the ``count`` mutants whose ``sha256(f"{seed}:{identity}")`` is
smallest: code added in one place changes it only by the mutants that code adds. Goals (issue 25): at least 90% of at least
200 mutants for fallera, 85% for diables and calavera.

Equivalent mutants (no check can tell them from the original: a cache size, a bound that only skips work)
are declared with their reason in ``bench/equivalent-mutants.json``, as the bench prints them. Both figures
are printed, ``killed of counted`` and ``killed of (counted - declared equivalent)``; the goal is judged on
the second. Declarations name mutants by identity, not by line. A declaration that matches no mutant of the
sources (the code it names changed), or whose mutant is killed, is stale: the bench stops (exit 1) rather than count it. ``--with-pack`` plays packs with the
game (``check --pack``); the figures then name that command, and are not those of the plain ``check``: each
mutant is then also run under the plain ``check``, and that figure is printed beside (``plain: …``).
``--thorough-too`` runs each mutant under the same command with ``--thorough`` as well (every playout step
checked in full, where ``check`` by default checks a seeded sample of steps in full: ``playouts.Schedule``)
and prints that figure beside instead (``thorough: …``), naming each mutant only one of the two kills.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tokenize
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GAMES = Path("cardworks") / "games"
RULES_MODULES = {
    "fallera": ("actions", "battles", "cards", "deal", "facts", "game", "interpreter", "kingdom", "legality",
                "responses", "rules", "state", "triggers", "turns", "verbs", "victory", "views", "windows"),
    "diables": ("actions", "game", "rules", "scoring"),
    "calavera": ("actions", "game", "rules", "sheet"),
}
"""The modules that carry each game's rules (effect models, heuristics, validation and scenario
expectation code are not rules)."""
GOALS = {"fallera": 0.90, "diables": 0.85, "calavera": 0.85}
EQUIVALENTS = REPO / "bench" / "equivalent-mutants.json"
"""The declared equivalent mutants: ``{game: [{"mutant": identity, "reason": "…"}]}`` (``Mutant.identity``)."""

NEGATED = {ast.Lt: ast.GtE, ast.GtE: ast.Lt, ast.Gt: ast.LtE, ast.LtE: ast.Gt, ast.Eq: ast.NotEq,
           ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
BOUNDARY = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt}
SYMBOL = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
          ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not", ast.And: "and", ast.Or: "or",
          ast.Add: "+", ast.Sub: "-"}


@dataclass(frozen=True)
class Mutant:
    """One planted bug: the node at ``index`` in ``ast.walk`` order of ``path``, changed as ``kind`` says.

    ``identity`` names it by what it changes, not by where: the file, the enclosing function, the code of
    its line and the mutation (``nth`` tells apart the same mutation of the same code in the same function).
    Lines added above it, or anywhere in another file, leave it unchanged; so the sample (hashed from it)
    and the declarations (keyed by it) survive edits elsewhere, and a declaration goes stale only when the
    code it names changes."""
    path: str  # relative to src/
    line: int
    index: int
    kind: str
    text: str
    scope: str = ""  # the enclosing function or class (dotted), "" at module level
    code: str = ""  # the code of the node's first line, stripped, its comment left out
    nth: int = 0

    def __str__(self) -> str:
        return f"src/{self.path}:{self.line}: {self.text}"

    @property
    def identity(self) -> str:
        scope = f" {self.scope}" if self.scope else ""
        return f"src/{self.path}{scope} `{self.code}` #{self.nth}: {self.text}"


def _skipped(tree: ast.AST) -> set[int]:
    """Nodes never mutated: annotations, docstrings and the insides of f-string format specs."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        for sub in [getattr(node, "annotation", None), getattr(node, "returns", None)]:
            if sub is not None:
                skip.update(id(n) for n in ast.walk(sub))
        if isinstance(node, ast.JoinedStr):
            skip.update(id(n) for n in ast.walk(node))
    return skip


def _sites(node: ast.AST) -> list[tuple[str, str]]:
    """(kind, description) of each mutation this node offers."""
    out = []
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        op = type(node.ops[0])
        if op in NEGATED:
            out.append(("negate", f"{SYMBOL[op]} -> {SYMBOL[NEGATED[op]]}"))
        if op in BOUNDARY:
            out.append(("boundary", f"{SYMBOL[op]} -> {SYMBOL[BOUNDARY[op]]}"))
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        out += [("plus", f"{node.value} -> {node.value + 1}"), ("minus", f"{node.value} -> {node.value - 1}")]
    elif isinstance(node, ast.BoolOp):
        out.append(("boolop", f"{SYMBOL[type(node.op)]} -> {'or' if isinstance(node.op, ast.And) else 'and'}"))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        out.append(("drop-not", "not dropped"))
    elif isinstance(node, (ast.Return, ast.Assign)) and isinstance(node.value, ast.Constant) \
            and type(node.value.value) is bool:
        word = "return" if isinstance(node, ast.Return) else "assigned"
        out.append(("flip-bool", f"{word} {node.value.value} -> {not node.value.value}"))
    elif isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in (ast.Add, ast.Sub) \
            and not _text(node):
        other = ast.Sub if isinstance(node.op, ast.Add) else ast.Add
        out.append(("arith", f"{SYMBOL[type(node.op)]} -> {SYMBOL[other]}"))
    elif isinstance(node, ast.Break):
        out.append(("loop", "break -> continue"))
    elif isinstance(node, ast.Continue):
        out.append(("loop", "continue -> break"))
    return out


def _text(node: ast.BinOp | ast.AugAssign) -> bool:
    """Whether ``+`` visibly joins text or lists (``-`` there would only raise a TypeError)."""
    sides = [node.value] if isinstance(node, ast.AugAssign) else [node.left, node.right]
    return any(isinstance(s, (ast.JoinedStr, ast.List, ast.ListComp, ast.Tuple))
               or (isinstance(s, ast.Constant) and isinstance(s.value, str)) for s in sides)


def find_mutants(src: Path, game: str, modules: tuple[str, ...] | None = None) -> list[Mutant]:
    """Every mutation site of the game's rules modules (``modules``, default ``RULES_MODULES[game]``), in a
    fixed order (file, then walk order)."""
    found = []
    for module in modules or RULES_MODULES[game]:
        rel = GAMES / game / f"{module}.py"
        found += mutants_of(rel.as_posix(), (src / rel).read_text(encoding="utf-8"))
    return found


def mutants_of(path: str, source: str) -> list[Mutant]:
    """Every mutation site of one module's ``source``, in walk order, each with its identity."""
    tree = ast.parse(source)
    skip, scopes, lines = _skipped(tree), _scopes(tree), _code_lines(source)
    seen: Counter[tuple[str, str, str]] = Counter()
    found = []
    for index, node in enumerate(ast.walk(tree)):
        if id(node) in skip:
            continue
        for kind, text in _sites(node):
            scope = next((name for first, last, name in scopes if first <= node.lineno <= last), "")
            key = (scope, lines[node.lineno - 1], text)
            found.append(Mutant(path, node.lineno, index, kind, text, scope, key[1], seen[key]))
            seen[key] += 1
    return found


def _scopes(tree: ast.AST) -> list[tuple[int, int, str]]:
    """(first line, last line, dotted name) of each function and class, innermost first."""
    out = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.append((child.lineno, child.end_lineno, prefix + child.name))
                visit(child, prefix + child.name + ".")
            else:
                visit(child, prefix)

    visit(tree, "")
    return sorted(out, key=lambda scope: -scope[0])


def _code_lines(source: str) -> list[str]:
    """Each line of ``source`` stripped, its comment left out (a comment edited is no code change)."""
    lines = source.splitlines()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            row, col = token.start
            lines[row - 1] = lines[row - 1][:col]
    return [line.strip() for line in lines]


def mutated_source(source: str, mutant: Mutant) -> str:
    """``source`` with ``mutant`` planted (unparsed from the changed tree)."""
    tree = ast.parse(source)
    node = list(ast.walk(tree))[mutant.index]
    if mutant.kind == "negate":
        node.ops[0] = NEGATED[type(node.ops[0])]()
    elif mutant.kind == "boundary":
        node.ops[0] = BOUNDARY[type(node.ops[0])]()
    elif mutant.kind in ("plus", "minus"):
        node.value += 1 if mutant.kind == "plus" else -1
    elif mutant.kind == "boolop":
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif mutant.kind == "drop-not":
        return _replace(tree, node, node.operand)
    elif mutant.kind == "flip-bool":
        node.value.value = not node.value.value
    elif mutant.kind == "arith":
        node.op = ast.Sub() if isinstance(node.op, ast.Add) else ast.Add()
    elif mutant.kind == "loop":
        return _replace(tree, node, ast.Continue() if isinstance(node, ast.Break) else ast.Break())
    else:
        raise ValueError(f"unknown mutation kind {mutant.kind!r}")
    return ast.unparse(tree)


def _replace(tree: ast.AST, old: ast.AST, new: ast.AST) -> str:
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, field, new)
                return ast.unparse(tree)
            if isinstance(value, list) and any(v is old for v in value):
                value[[i for i, v in enumerate(value) if v is old][0]] = new
                return ast.unparse(tree)
    raise ValueError("node has no parent")


def sample(mutants: list[Mutant], count: int, seed: int) -> list[Mutant]:
    """A fixed sample, in source order: the ``count`` mutants whose ``sha256(f"{seed}:{identity}")`` is
    smallest. Each mutant's draw depends on it alone, so code added anywhere changes the sample only by the
    mutants it adds (which may push out as many others), never reshuffles it."""
    def draw(mutant: Mutant) -> str:
        return hashlib.sha256(f"{seed}:{mutant.identity}".encode()).hexdigest()

    chosen = sorted(mutants, key=draw)[:count]
    return sorted(chosen, key=lambda m: (m.path, m.line, m.index, m.kind))


def check_command(game: str, packs: tuple[Path, ...] = ()) -> list[str]:
    """The ``cardworks check`` each mutant runs (``--pack`` for each of ``packs``), without the interpreter."""
    command = ["-m", "cardworks", "check", "--game", game, "--playouts", "20", "--seed", "1"]
    for pack in packs:
        command += ["--pack", str(pack.resolve())]
    return command


def _frozen_packs(command: list[str], into: Path) -> list[str]:
    """``command`` with each ``--pack`` folder copied into ``into`` and named there: every mutant is checked
    against the packs as they were when the run began (a pack edited during an hour's run once made every
    mutant fail validation, a void run)."""
    frozen = list(command)
    for k, word in enumerate(command[:-1]):
        if word == "--pack":
            copy = into / f"{k}-{Path(command[k + 1]).name}"
            shutil.copytree(command[k + 1], copy)
            frozen[k + 1] = str(copy)
    return frozen


def shown(command: list[str]) -> str:
    """``command`` as the figures name it (packs relative to the work tree when inside it)."""
    words = []
    for word in command[2:]:
        path = Path(word)
        words.append(path.relative_to(REPO).as_posix() if path.is_absolute() and path.is_relative_to(REPO) else word)
    return " ".join(["cardworks", *words])


def load_equivalents(path: Path, game: str) -> dict[str, str]:
    """The mutants of ``game`` that ``path`` declares equivalent, with their reasons; a malformed file or
    entry stops the bench."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SystemExit(f"{path.name}: [unreadable-equivalents] {exc}") from None
    declared: dict[str, str] = {}
    entries = data.get(game, []) if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise SystemExit(f"{path.name}:/{game}: [bad-equivalents] expected a list of {{mutant, reason}}")
    for k, entry in enumerate(entries):
        where = f"{path.name}:/{game}/{k}"
        if not isinstance(entry, dict) or set(entry) != {"mutant", "reason"} \
                or not all(isinstance(v, str) and v.strip() for v in entry.values()):
            raise SystemExit(f"{where}: [bad-equivalents] an entry is {{\"mutant\": …, \"reason\": …}}, both text")
        if entry["mutant"] in declared:
            raise SystemExit(f"{where}: [duplicate-equivalent] {entry['mutant']} is declared twice")
        declared[entry["mutant"]] = entry["reason"]
    return declared


def stale_declarations(declared: dict[str, str], sites: list[Mutant]) -> list[str]:
    """The declared equivalents that match none of ``sites`` (every mutant the sources offer: a declaration
    outside a smaller ``--count`` is not stale, one whose code, function or mutation changed is; one whose
    line only moved is not)."""
    names = {m.identity for m in sites}
    return [name for name in declared if name not in names]


def _copy_tree(into: Path, repo: Path = REPO) -> Path:
    """A copy of ``src/`` (the sources) with the shipped ``cards/`` and ``templates/`` linked beside it."""
    shutil.copytree(repo / "src", into / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("cards", "templates"):
        if (repo / name).exists():
            (into / name).symlink_to(repo / name)
    return into / "src"


_RUNNING: set[subprocess.Popen] = set()
"""The checks under way, so an interrupted bench can stop them."""


def _run_check(src: Path, command: list[str], timeout: float, core: int | None,
               stopped: Callable[[], bool] = lambda: False) -> tuple[str, float]:
    """('passed' | 'failed' | 'timeout' | 'skipped', seconds) of one ``command`` (a ``cardworks check``) on the
    tree ``src``; 'skipped' when ``stopped()`` (the bench was interrupted): a check stopped by Ctrl-C has no
    verdict, and none starts after it."""
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONDONTWRITEBYTECODE": "1"}
    pin = (lambda: os.sched_setaffinity(0, {core})) if core is not None else None
    start = time.perf_counter()
    if stopped():
        return "skipped", 0.0
    with subprocess.Popen([sys.executable, *command], cwd=src.parent, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, preexec_fn=pin, start_new_session=True) as process:
        _RUNNING.add(process)
        if stopped():  # interrupted as it started: the interrupt may have looked at _RUNNING before it was in
            _stop(process)
            _RUNNING.discard(process)
            return "skipped", 0.0
        try:
            returncode = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            _stop(process)
            return "timeout", time.perf_counter() - start
        except BaseException:  # interrupted: the check is in a session of its own, so stop it here
            _stop(process)
            raise
        finally:
            _RUNNING.discard(process)
    if stopped():  # ended by the interrupt's kill, not by its own verdict
        return "skipped", time.perf_counter() - start
    return ("passed" if returncode == 0 else "failed"), time.perf_counter() - start


def _stop(process: subprocess.Popen) -> None:
    """Stop a check and the workers it started (its own process group)."""
    try:
        os.killpg(process.pid, 9)
    except ProcessLookupError:
        pass
    process.wait()


def _cores() -> list[int]:
    try:
        return sorted(os.sched_getaffinity(0))
    except AttributeError:
        return []


@dataclass
class Result:
    """One game's run: the mutants run, the verdict of each, and what the figures need."""
    game: str
    command: list[str]
    mutants: list[Mutant]
    verdicts: list[str]
    declared: dict[str, str]
    seconds: float
    plain_command: list[str] | None = None
    plain_verdicts: list[str] | None = None
    """With packs, each mutant's verdict under the plain ``check`` too (the figure printed beside)."""
    beside: str = "plain"
    """What the command beside is: ``plain`` (``check`` without the packs) or ``thorough`` (``--thorough``)."""

    @property
    def killed(self) -> list[Mutant]:
        return [m for m, v in zip(self.mutants, self.verdicts) if v != "passed"]

    @property
    def survivors(self) -> list[Mutant]:
        """Survivors not declared equivalent (the gaps)."""
        return [m for m, v in zip(self.mutants, self.verdicts) if v == "passed" and m.identity not in self.declared]

    @property
    def equivalent(self) -> list[Mutant]:
        """Run mutants declared equivalent (each survived, or ``stale_kills`` names it)."""
        return [m for m in self.mutants if m.identity in self.declared]

    @property
    def stale_kills(self) -> list[Mutant]:
        """Mutants declared equivalent that a check (with packs or plain) killed: the declaration is wrong."""
        plain = self.plain_verdicts or ["passed"] * len(self.mutants)
        return [m for m, v, p in zip(self.mutants, self.verdicts, plain)
                if (v != "passed" or p != "passed") and m.identity in self.declared]

    def plain_figures(self) -> tuple[int, int, int, int] | None:
        """``figures`` of the plain ``check`` (None when no packs were played: the figures are the plain ones)."""
        if self.plain_verdicts is None:
            return None
        killed = sum(v != "passed" for v in self.plain_verdicts)
        counted = len(self.mutants)
        return killed, counted, counted - len(self.equivalent), self.plain_verdicts.count("timeout")

    def figures(self) -> tuple[int, int, int, int]:
        """(killed, counted, counted less the declared equivalents, killed by timeout)."""
        counted = len(self.mutants)
        return len(self.killed), counted, counted - len(self.equivalent), self.verdicts.count("timeout")

    def score(self) -> float:
        """Killed over the mutants not declared equivalent: what the goal is judged on."""
        killed, _, fair, _ = self.figures()
        return killed / fair if fair else 0.0


def run_mutants(game: str, sites_of: Callable[[Path], list[Mutant]], pick: Callable[[list[Mutant]], list[Mutant]],
                command: list[str], jobs: int, timeout: float | None, declared: dict[str, str],
                only: set[str] | None = None, repo: Path = REPO, plain: list[str] | None = None,
                beside: str = "plain") -> Result:
    """Run each mutant ``pick`` draws from the sites ``sites_of`` lists for a copy of the sources (those
    written in ``only``, when given) under ``command``, and under ``plain`` too when given (the plain
    ``check`` beside a command with packs); each job has its own copy. Stops (exit 1) before running
    anything when a declared equivalent matches no site, or when the unmutated sources fail."""
    cores = _cores()
    with tempfile.TemporaryDirectory(prefix="cardworks-mutants-") as tmp:
        copies = [_copy_tree(Path(tmp) / f"job{j}", repo) for j in range(jobs)]
        sites = sites_of(copies[0])
        stale = stale_declarations(declared, sites)
        if stale:
            raise SystemExit(f"{game}: declared equivalent but no such mutant in the sources (stale: the code it "
                             "names changed; fix bench/equivalent-mutants.json):\n" + "\n".join(f"  {s}" for s in stale))
        mutants = [m for m in pick(sites) if only is None or m.identity in only]
        frozen = _frozen_packs(command, Path(tmp) / "packs")  # an edit to a pack while this runs changes nothing
        limits = []
        for run in [frozen] + ([plain] if plain else []):
            verdict, base_seconds = _run_check(copies[0], run, 600, cores[0] if cores else None)
            if verdict != "passed":
                raise SystemExit(f"{game}: {shown(run)} fails on the unmutated sources; fix that first")
            limits.append(timeout or max(30.0, 5 * base_seconds))
        start = time.perf_counter()
        free = list(range(jobs))
        interrupted: list[bool] = []
        finished: list[str] = []
        """The mutants given a verdict (printed), for the report of an interrupted run."""

        def one(mutant: Mutant) -> tuple[str, str]:
            if interrupted:
                return "skipped", "skipped"
            job = free.pop()
            try:
                path = copies[job] / mutant.path
                original = path.read_text(encoding="utf-8")
                path.write_text(mutated_source(original, mutant), encoding="utf-8")
                try:
                    core = cores[job % len(cores)] if cores else None
                    stopped = lambda: bool(interrupted)  # noqa: E731
                    verdict = _run_check(copies[job], frozen, limits[0], core, stopped)[0]
                    alone = _run_check(copies[job], plain, limits[1], core, stopped)[0] if plain else ""
                    if interrupted:  # Ctrl-C during this mutant: no plain check after it, no verdict printed
                        return "skipped", "skipped"
                    shown_plain = f" ({beside}: {alone})" if plain else ""
                    print(f"{verdict:7} {mutant.identity}  (line {mutant.line}){shown_plain}", file=sys.stderr,
                          flush=True)
                    finished.append(mutant.identity)
                    return verdict, alone
                finally:
                    path.write_text(original, encoding="utf-8")
            finally:
                free.append(job)

        with ThreadPoolExecutor(jobs) as pool:
            try:
                both = list(pool.map(one, mutants))
            except KeyboardInterrupt:  # Ctrl-C: stop the checks under way, start none (not even the plain check
                interrupted.append(True)  # of the mutant under way), report how far it got and no figures
                for process in list(_RUNNING):
                    _stop(process)
                pool.shutdown(wait=True, cancel_futures=True)
                raise SystemExit(f"{game}: interrupted after {len(finished)} of {len(mutants)} mutants; no figures "
                                 "(the verdicts above are those given)") from None
        return Result(game, command, mutants, [v for v, _ in both], declared, time.perf_counter() - start,
                      plain, [p for _, p in both] if plain else None, beside)


def run_game(game: str, count: int, seed: int, jobs: int, timeout: float | None, only: set[str] | None = None,
             packs: tuple[Path, ...] = (), equivalents: Path = EQUIVALENTS, thorough_too: bool = False) -> Result:
    """One game's seeded sample of ``count`` mutants run under ``check`` (with ``packs``), and beside it under
    the plain ``check`` (with packs) or under the same command with ``--thorough`` (``thorough_too``)."""
    declared = load_equivalents(equivalents, game)
    command = check_command(game, packs)
    beside = [*command, "--thorough"] if thorough_too else check_command(game) if packs else None
    return run_mutants(game, lambda src: find_mutants(src, game), lambda sites: sample(sites, count, seed),
                       command, jobs, timeout, declared, only, plain=beside,
                       beside="thorough" if thorough_too else "plain")


def report(result: Result) -> bool:
    """Print one game's figures, survivors and declared equivalents; True when it meets its goal and no
    declaration is stale."""
    killed, counted, fair, timeouts = result.figures()
    goal = GOALS[result.game]
    raw = killed / counted if counted else 0.0
    print(f"{result.game}: {shown(result.command)}")
    print(f"  {killed} of {counted} killed ({raw:.1%}; {timeouts} by timeout); "
          f"{killed} of {fair} not declared equivalent ({result.score():.1%}), goal {goal:.0%}; {result.seconds:.0f} s")
    plain = result.plain_figures()
    if plain is not None:
        alone, _, _, alone_timeouts = plain
        print(f"  {result.beside}: {shown(result.plain_command)}: {alone} of {counted} killed ({alone / counted:.1%}; "
              f"{alone_timeouts} by timeout); {alone} of {fair} not declared equivalent "
              f"({alone / fair if fair else 0.0:.1%}), not judged")
        either = sum(v != "passed" or a != "passed" for v, a in zip(result.verdicts, result.plain_verdicts))
        print(f"  either: {either} of {counted} killed by one command or both; {either} of {fair} not declared "
              f"equivalent ({either / fair if fair else 0.0:.1%}), not judged")
        for mutant, verdict, alone in zip(result.mutants, result.verdicts, result.plain_verdicts):
            if (verdict == "passed") != (alone == "passed"):
                print(f"  killed only {'beside, by ' + result.beside if verdict == 'passed' else 'by the first command'}:"
                      f" {mutant.identity}  (line {mutant.line})")
    for mutant in result.survivors:
        print(f"  survived {mutant.identity}  (line {mutant.line})")
    for mutant in result.equivalent:
        if mutant not in result.stale_kills:
            print(f"  equivalent {mutant.identity}  (line {mutant.line}; {result.declared[mutant.identity]})")
    for mutant in result.stale_kills:
        print(f"  STALE: declared equivalent but killed: {mutant.identity}  (line {mutant.line})")
    sys.stdout.flush()
    return result.score() >= goal and not result.stale_kills


def _only(path: Path) -> set[str]:
    """The mutants a file names, one a line, as a report prints them (``survived …``, ``equivalent …``)."""
    names = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        for word in ("survived ", "equivalent "):
            line = line.removeprefix(word)
        if line.startswith("src/"):
            names.add(re.sub(r"  \(line \d+[;)].*$", "", line).strip())
    return names


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=sorted(RULES_MODULES), action="append",
                        help="a game to mutate (repeatable; default: all three)")
    parser.add_argument("--count", type=int, default=200, help="mutants sampled per game")
    parser.add_argument("--seed", type=int, default=1, help="seed of the sample")
    parser.add_argument("--jobs", type=int, default=1, help="mutants checked at once")
    parser.add_argument("--timeout", type=float, help="seconds per mutant (default: 5x the unmutated run, >= 30)")
    parser.add_argument("--list", action="store_true", help="print the sample without running it")
    parser.add_argument("--only", type=Path, help="run only the sampled mutants this file names (as a report "
                        "prints them: a survivors list from an earlier run)")
    parser.add_argument("--with-pack", type=Path, action="append", default=[], metavar="DIR",
                        help="play this pack with the game (check --pack DIR; repeatable): the figures are then "
                        "those of that command")
    parser.add_argument("--thorough-too", action="store_true",
                        help="run each mutant under the same command with --thorough too (every playout step checked "
                        "in full), print that figure beside and name the mutants only one of them kills")
    parser.add_argument("--equivalents", type=Path, default=EQUIVALENTS,
                        help="the declared equivalent mutants (default bench/equivalent-mutants.json)")
    args = parser.parse_args(argv)
    met = True
    only = _only(args.only) if args.only else None
    for game in args.game or sorted(RULES_MODULES):
        declared = load_equivalents(args.equivalents, game)
        if args.list:
            sites = find_mutants(REPO / "src", game)
            stale = stale_declarations(declared, sites)
            for mutant in sample(sites, args.count, args.seed):
                shown_as = f"{mutant.identity}  (line {mutant.line}"
                print(f"{shown_as}; declared equivalent)" if mutant.identity in declared else f"{shown_as})")
            for name in stale:
                print(f"STALE: declared equivalent but no such mutant in the sources: {name}")
            met &= not stale
            continue
        met &= report(run_game(game, args.count, args.seed, args.jobs, args.timeout, only, tuple(args.with_pack),
                               args.equivalents, args.thorough_too))
    raise SystemExit(0 if met else 1)


if __name__ == "__main__":
    main()
