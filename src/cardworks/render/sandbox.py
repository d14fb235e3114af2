"""The Jinja sandbox with a budget: a pack's template cannot hang, exhaust memory or recurse without end.

Jinja's own sandbox stops templates reaching Python internals but not runaway
work: nested ``range(100000)`` loops, ``lipsum(n=10**8)``, ``2.0 ** 100000``,
a string doubled until it fills memory, a macro or include that calls itself.
Here every loop step, call, attribute or item lookup, operator and filter
spends one step of a budget the caller sets (so the limit is the same on a fast
and a loaded machine), sizes are checked before anything large is allocated,
and every failure is a :class:`TemplateBudgetError` (a ``TemplateError``), which
the renderer reports at the template's file and line.

Limits: loop ranges at most :data:`MAX_RANGE` items; strings, lists and filter
results at most :data:`MAX_TEXT` items; ``**`` results at most
:data:`MAX_POWER_BITS` bits; ``lipsum`` at most :data:`MAX_LIPSUM` paragraphs;
the document's output at most ``output`` characters; at most ``steps`` steps.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from dataclasses import dataclass
from functools import wraps
from typing import Any

from jinja2 import nodes
from jinja2.exceptions import TemplateRuntimeError
from jinja2.sandbox import SandboxedEnvironment
from jinja2.utils import generate_lorem_ipsum

from ..errors import CardworksError

MAX_RANGE = 10_000
"""Items a ``range()`` may give; a card template loops over a few dozen things at most."""
MAX_TEXT = 1_000_000
"""Characters in a string (or items in a list) a template may build with ``*``, ``~``, ``+`` or a filter."""
MAX_POWER_BITS = 4_096
"""Size of an integer ``**`` may produce; floats overflow by themselves and are reported."""
MAX_LIPSUM = 20
"""Paragraphs ``lipsum`` may write (at most 1,000 words each)."""
STEPS_PER_FACE = 20_000
"""Steps a card face may spend; the shipped faces spend under 100."""
OUTPUT_PER_FACE = 1_000_000
"""Characters of HTML a card face may write; the shipped face writes about 5,000."""


class TemplateBudgetError(CardworksError, TemplateRuntimeError):
    """A template went over one of the sandbox's limits (steps, range, size, output)."""


@dataclass
class Budget:
    """What one render may still spend: ``steps`` left, and the most output it may write."""

    steps: int
    output: int


_BUDGET: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("template_budget", default=None)


def spend(steps: int = 1) -> None:
    """Spend ``steps`` of the current render's budget (nothing when no budget is set)."""
    budget = _BUDGET.get()
    if budget is None:
        return
    budget.steps -= steps
    if budget.steps < 0:
        raise TemplateBudgetError("the template runs too long (more steps than its budget of loops, calls and "
                                  "lookups allows; see docs/templates.md)")


def _sized(value: Any, what: str) -> Any:
    if isinstance(value, (str, bytes, list, tuple)) and len(value) > MAX_TEXT:
        raise TemplateBudgetError(f"{what} makes a value of {len(value):,} items; a template may make at most "
                                  f"{MAX_TEXT:,}")
    return value


def capped_range(*args: int) -> range:
    """``range`` for templates: at most :data:`MAX_RANGE` items."""
    spend()
    items = range(*args)
    if len(items) > MAX_RANGE:
        raise TemplateBudgetError(f"range of {len(items):,} items; a template may loop over at most {MAX_RANGE:,}")
    return items


def capped_lipsum(n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> str:
    """``lipsum`` for templates: at most :data:`MAX_LIPSUM` paragraphs of at most 1,000 words."""
    spend()
    if n > MAX_LIPSUM or max > 1000 or min > 1000:
        raise TemplateBudgetError(f"lipsum(n={n}, min={min}, max={max}); at most {MAX_LIPSUM} paragraphs of "
                                  "1,000 words")
    return generate_lorem_ipsum(n=n, html=html, min=min, max=max)


def _power(left: Any, right: Any) -> Any:
    if isinstance(left, int) and isinstance(right, int) and right > 0 and abs(left) > 1:
        if abs(left).bit_length() * right > MAX_POWER_BITS:
            raise TemplateBudgetError(f"{left} ** {right} is larger than {MAX_POWER_BITS:,} bits")
    try:
        return left ** right
    except OverflowError as exc:
        raise TemplateBudgetError(f"{left!r} ** {right!r} overflows: {exc}") from None


def _times(left: Any, right: Any) -> Any:
    for seq, count in ((left, right), (right, left)):
        if isinstance(seq, (str, bytes, list, tuple)) and isinstance(count, int) and len(seq) * count > MAX_TEXT:
            raise TemplateBudgetError(f"repeating {len(seq):,} items {count:,} times; a template may make at most "
                                      f"{MAX_TEXT:,}")
    return left * right


_BINOPS = {"**": _power, "*": _times}


class BudgetedSandbox(SandboxedEnvironment):
    """The sandbox with the limits of this module; each render's budget is set by :func:`render_budgeted`."""

    intercepted_binops = frozenset({"**", "*", "+"})

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.globals["range"] = capped_range
        self.globals["lipsum"] = capped_lipsum
        self.filters = {name: _guarded_filter(name, function) for name, function in self.filters.items()}

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        """Every ``for`` loop iterates through :meth:`budget_iter`, and every ``~`` through :meth:`budget_join`."""
        tree = super()._parse(source, name, filename)
        for loop in tree.find_all(nodes.For):
            loop.iter = nodes.Call(nodes.EnvironmentAttribute("budget_iter"), [loop.iter], [], None, None,
                                   lineno=loop.iter.lineno)
        for concat in list(tree.find_all(nodes.Concat)):
            guarded = nodes.Concat(concat.nodes, lineno=concat.lineno)
            concat.nodes = [nodes.Call(nodes.EnvironmentAttribute("budget_join"), [guarded], [], None, None,
                                       lineno=concat.lineno)]
        return tree

    def budget_iter(self, iterable: Any) -> Iterator[Any]:
        """Spend a step per item of a loop."""
        for item in iterable:
            spend()
            yield item

    def budget_join(self, joined: Any) -> Any:
        """A ``~`` result, held to :data:`MAX_TEXT` (checked at every join, so it cannot double its way to GBs)."""
        spend()
        return _sized(joined, "joining with ~")

    def call_binop(self, context: Any, operator_name: str, left: Any, right: Any) -> Any:
        spend()
        function = _BINOPS.get(operator_name)
        if function is not None:
            return function(left, right)
        return _sized(self.binop_table[operator_name](left, right), f"{operator_name!r}")

    def getattr(self, obj: Any, attribute: str) -> Any:
        spend()
        return super().getattr(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        spend()
        return super().getitem(obj, argument)

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        spend()
        if isinstance(getattr(__obj, "__self__", None), (str, bytes, list)):  # "x".ljust(10**10) and the like
            for value in (*args, *kwargs.values()):
                if isinstance(value, int) and value > MAX_TEXT:
                    raise TemplateBudgetError(f"{getattr(__obj, '__name__', 'a method')}({value:,}): a template "
                                              f"may make at most {MAX_TEXT:,} items")
        return _sized(super().call(__context, __obj, *args, **kwargs), "a call")


def _guarded_filter(name: str, function: Any) -> Any:
    """A filter that spends a step, refuses a width or count above :data:`MAX_TEXT`, and checks its result's size."""
    pass_arg = getattr(function, "jinja_pass_arg", None)

    @wraps(function)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        spend()
        for value in (*args[2 if pass_arg else 1:], *kwargs.values()):  # the arguments, not the value filtered
            if isinstance(value, int) and not isinstance(value, bool) and value > MAX_TEXT:
                raise TemplateBudgetError(f"filter {name} given {value:,}; a template may make at most {MAX_TEXT:,}")
        return _sized(function(*args, **kwargs), f"filter {name}")

    if pass_arg is not None:
        guarded.jinja_pass_arg = pass_arg  # type: ignore[attr-defined]
    return guarded


def render_budgeted(template: Any, faces: int, context: dict[str, Any]) -> str:
    """Render ``template`` with a budget of :data:`STEPS_PER_FACE` steps and :data:`OUTPUT_PER_FACE` characters
    per face (``faces`` of them, at least one) and ``context``; raises :class:`TemplateBudgetError` past either."""
    budget = Budget(STEPS_PER_FACE * max(1, faces), OUTPUT_PER_FACE * max(1, faces))
    token = _BUDGET.set(budget)
    try:
        parts, size = [], 0
        chunks = template.generate(context)
        for chunk in chunks:
            size += len(chunk)
            if size > budget.output:  # thrown into the template, so the error names the line that wrote too much
                chunks.throw(TemplateBudgetError(f"the template writes more than {budget.output:,} characters "
                                                 f"({OUTPUT_PER_FACE:,} per face)"))
            parts.append(chunk)
        return "".join(parts)
    finally:
        _BUDGET.reset(token)

