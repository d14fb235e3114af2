"""Typed scenario expectations: each game declares the keys its scenarios may expect as a pydantic model.

A scenario's ``expect`` entries were free dictionaries, and a key no game read
(``winnr`` for ``winner``) passed silently. Now each game plugin names a
subclass of :class:`Expectation` (closed: an unknown key is an error) whose
fields type the values and mark the ids they hold (:data:`PlayerId`,
:data:`CardId`, :data:`TerretaId`, :data:`RuleId`, :data:`StepText`).
:func:`scenario_problems` checks every scenario of a file against it, and parses
its steps, before anything runs: ``validate`` and ``check`` report the same
problems, each at its JSON pointer.
"""

from __future__ import annotations

import difflib
import re
import typing
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, fields, is_dataclass
from functools import cache
from itertools import chain
from typing import Annotated, Any, ClassVar, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

from ..loading.jsonfile import pointer_escape
from ..loading.schema_errors import schema_problems
from ..models.base import Model
from ..problems import Problem


@dataclass(frozen=True)
class Ref:
    """Marks a text value (or a dictionary key) as the id of something the scenario's game must have."""

    kind: str
    """``player``, ``card``, ``terreta``, ``rule``, a game's own kind (``colour``…), or ``step`` (an action
    in the game's notation, parsed rather than looked up)."""


PlayerId = Annotated[str, Ref("player")]
"""A player or seat of the scenario's setup (``p1``…)."""
CardId = Annotated[str, Ref("card")]
"""A card design of the game (or of its packs, or of the setup's ``example_cards``)."""
TerretaId = Annotated[str, Ref("terreta")]
"""A space of the game's boards."""
RuleId = Annotated[str, Ref("rule")]
"""A rule the game's engine names when it refuses an action."""
StepText = Annotated[str, Ref("step")]
"""An action in the game's notation; a card without ``#n`` stands for any instance of its design."""

class Expectation(Model):
    """What a scenario expects; the keys below work in every game, each game adds its own (a subclass).

    A game's subclass sets :attr:`rules` (the rule ids its engine refuses actions by),
    :attr:`card_instances` (whether steps name card instances, ``design#n``) and :meth:`known`.
    """

    model_config = ConfigDict(defer_build=True)  # built when a scenario is first checked, not by every command

    after: Annotated[int, Field(ge=0)] | str | None = None
    """Check this expectation after step N (0: the starting position), or after the step with this text (its
    first occurrence), instead of at the end."""
    illegal: StepText | None = None
    """An action that must be refused now (``"p1 sell conill"``)."""
    rule: RuleId | None = None
    """With ``illegal``: the rule that must refuse it."""
    observe: PlayerId | None = None
    """A player whose observation is checked (with ``sees``)."""
    sees: dict[str, Any] | None = None
    """With ``observe``: dotted path into what that player is shown (``battle.attack``, ``hand_sizes.2``) →
    the exact value; a card written without ``#n`` matches any instance."""
    legal: list[StepText] | None = None
    """Exactly these actions are legal now."""
    legal_includes: list[StepText] | None = None
    """Each of these actions is legal now."""
    legal_excludes: list[StepText] | None = None
    """None of these actions is legal now."""

    rules: ClassVar[frozenset[str]] = frozenset()
    """Every rule id the game's engine may name when it refuses an action."""
    observed: ClassVar[frozenset[str]] = frozenset()
    """The top-level keys of what ``rules.observe`` shows a player: the first part of each ``sees`` path must be one
    (empty: not checked)."""
    card_instances: ClassVar[bool] = False
    """True when actions name card instances (``conill#5``): a bare design in a step stands for any copy."""

    observed_types: ClassVar[dict[str, Any]] = {}
    """The type of what ``observe`` shows under some top-level keys (``{"deck_size": int, "hand_sizes": list[int]}``):
    a ``sees`` value at a path under one of them must have that type, strictly (``3.0`` and ``false`` are no
    integers); a path under another key is compared, as strictly, when the scenario runs."""

    nullable: ClassVar[frozenset[str]] = frozenset()
    """The keys whose ``null`` means something (no winner, nobody deciding); any other key given ``null`` is an
    error, never a check skipped."""

    @field_validator("*", mode="before")
    @classmethod
    def _not_null(cls, value: Any, info: ValidationInfo) -> Any:
        if value is None and info.field_name not in cls.nullable:
            raise ValueError(f"{info.field_name!r} expects a value; leave the key out to check nothing")
        return value

    @model_validator(mode="after")
    def _pairs(self) -> "Expectation":
        if self.rule is not None and self.illegal is None:
            raise ValueError("'rule' says which rule refuses the 'illegal' action; give 'illegal' too")
        if self.sees is not None and self.observe is None:
            raise ValueError("'sees' is what the 'observe' player sees; give 'observe' too")
        return self

    @classmethod
    def known(cls, db: Any, setup: dict[str, Any]) -> dict[str, frozenset[str]]:
        """The ids a scenario with this ``setup`` may name, by kind (``player``, ``card``, ``terreta``); a kind
        left out is not checked (the game has none). ``rule`` comes from :attr:`rules`."""
        return {}

    @classmethod
    def more_refs(cls, data: dict[str, Any], at: str) -> Iterator[tuple[str, str, str]]:
        """(pointer, kind, id) of ids that no annotation can mark (a part of a key); none by default."""
        return iter(())

    @classmethod
    def setup_refs(cls, setup: dict[str, Any], at: str) -> Iterator[tuple[str, str, str]]:
        """(pointer, kind, id) of each id a scenario's ``setup`` names, ``at`` being the setup's pointer: checked
        against :meth:`known` as the expectations' ids are, so a misspelt card fails ``validate``, not the run.
        None by default (a game whose setups name no ids)."""
        return iter(())

    @classmethod
    def generic_keys(cls) -> tuple[str, ...]:
        """The keys the runner reads itself, for every game."""
        return tuple(Expectation.model_fields)

    @classmethod
    def own_keys(cls) -> dict[str, Any]:
        """The game's own keys (with their fields), which its ``rules.expectation`` reads."""
        return {name: field for name, field in cls.model_fields.items() if name not in Expectation.model_fields}


def players(count: Any, *extra: str) -> frozenset[str]:
    """``p1`` … ``pN`` (and ``extra`` seats) when ``count`` is a player count; empty when it is not one."""
    if type(count) is not int or count < 1:
        return frozenset(extra)
    return frozenset(f"p{n}" for n in range(1, count + 1)) | frozenset(extra)


# ---- checking scenarios ------------------------------------------------------------------------------------------

_CODES = {"unknown-field": "unknown-expectation"}
"""pydantic's codes as scenario expectations name them; any other is a value of the wrong type or form."""

_DESIGN = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_PLAYER = re.compile(r"^p\d+$")


def scenario_problems(plugin: Any, db: Any, display: str, scenarios: list[Any]) -> list[Problem]:
    """Every problem of ``scenarios`` (a file's, shown as ``display``) against ``plugin.expectations``: unknown or
    mistyped keys, ids the game does not have, steps that do not parse, ``after`` naming no step."""
    model: type[Expectation] = plugin.expectations
    problems: list[Problem] = []
    for i, scenario in enumerate(scenarios):
        here = f"/scenarios/{i}"
        try:
            known = dict(model.known(db, scenario.setup))
        except (ValueError, KeyError, TypeError) as exc:
            problems.append(Problem(display, f"{here}/setup", "bad-setup", f"the ids this setup allows: {exc}"))
            known = {}
        known["rule"] = model.rules
        if model.observed:
            known["zone"] = model.observed
        problems.extend(_unknown_ids(display, known, model.setup_refs(scenario.setup, f"{here}/setup")))
        texts = [" ".join(step.split()) for step in scenario.steps]
        for j, step in enumerate(scenario.steps):
            problems.extend(_step_problems(plugin, model, known, display, f"{here}/steps/{j}", step))
        for j, raw in enumerate(scenario.expect):
            at = f"{here}/expect/{j}"
            try:
                model.model_validate(raw)
            except ValidationError as exc:
                problems.extend(_typing_problems(model, exc, raw, display, at))
            for pointer, kind, value in chain(_refs(model, raw, at), model.more_refs(raw, at), _seen(raw, at)):
                if kind == "step":
                    # an action expected to be refused for a named rule may name a player the game lacks: that
                    # refusal is what it checks, and the rule pins the reason, so a typo cannot pass for it
                    strangers = pointer == f"{at}/illegal" and bool(raw.get("rule"))
                    problems.extend(_step_problems(plugin, model, known, display, pointer, value, strangers))
                else:
                    problems.extend(_unknown_ids(display, known, [(pointer, kind, value)]))
            problems.extend(_after_problems(display, at, raw.get("after"), texts))
            problems.extend(_sees_type_problems(model, display, at, raw.get("sees")))
    return problems


def _unknown_ids(display: str, known: dict[str, frozenset[str]],
                 refs: Iterable[tuple[str, str, str]]) -> list[Problem]:
    """An ``unknown-<kind>`` problem for each id of a kind the scenario knows that is not among its ids."""
    return [Problem(display, pointer, f"unknown-{kind}", f"{value!r} is no {kind} of this scenario ({_hint(value, known[kind])})")
            for pointer, kind, value in refs if kind in known and value not in known[kind]]


def _sees_type_problems(model: type[Expectation], display: str, at: str, sees: Any) -> list[Problem]:
    """A ``sees`` value of another type than what is shown at its path (:attr:`Expectation.observed_types`)."""
    from pydantic import TypeAdapter

    if not isinstance(sees, dict) or not model.observed_types:
        return []
    found = []
    for path, value in sees.items():
        parts = path.split(".") if isinstance(path, str) else []
        annotation = model.observed_types.get(parts[0]) if parts else None
        for part in parts[1:]:
            if annotation is None:
                break
            origin, args = get_origin(annotation), get_args(annotation)
            annotation = (args[0] if origin is list and part.isdigit() else
                          args[1] if origin is dict else None)
        if annotation is None:
            continue
        try:
            TypeAdapter(annotation).validate_python(value, strict=True)
        except ValidationError:
            shown = type(value).__name__ if value is not None else "null"
            found.append(Problem(display, f"{at}/sees/{pointer_escape(path)}", "expectation-type",
                                 f"{path!r} shows {_type_name(annotation)}, not {shown} {value!r}"))
    return found


def _type_name(annotation: Any) -> str:
    if annotation is int:
        return "an integer"
    if get_origin(annotation) is list:
        return f"a list of {_type_name(get_args(annotation)[0]).removeprefix('an ').removeprefix('a ')}s"
    return getattr(annotation, "__name__", str(annotation))


def _typing_problems(model: type[Expectation], error: ValidationError, raw: dict[str, Any], display: str,
                     at: str) -> list[Problem]:
    """pydantic's complaints about one expectation, located in the file, an unknown key named with those it may be."""
    found = []
    for p in schema_problems(error, raw, display):
        code = _CODES.get(p.code, "expectation-type")
        message = p.message
        if code == "unknown-expectation":
            message = (f"{p.location.rsplit('/', 1)[-1]!r} is no expectation this game reads; "
                       f"it reads {', '.join(sorted(model.model_fields))}")
        found.append(Problem(display, at + p.location, code, message))
    return found


def _seen(data: dict[str, Any], at: str) -> Iterator[tuple[str, str, str]]:
    """The observation zone each ``sees`` path starts with (``battle`` of ``battle.attack``)."""
    for path in data.get("sees") or {}:
        yield f"{at}/sees/{pointer_escape(path)}", "zone", path.split(".")[0]


def _hint(value: str, known: frozenset[str]) -> str:
    close = difflib.get_close_matches(value, sorted(known), n=3)
    if close:
        return f"did you mean {' or '.join(close)}?"
    shown = sorted(known)
    return f"known: {', '.join(shown[:12])}{' …' if len(shown) > 12 else ''}" if shown else "it has none"


def _after_problems(display: str, at: str, where: Any, texts: list[str]) -> list[Problem]:
    if isinstance(where, str) and " ".join(where.split()) not in texts:
        return [Problem(display, f"{at}/after", "unknown-step",
                        f"the expectation is set after the step {where!r}, which the script does not have")]
    if isinstance(where, int) and where > len(texts):
        return [Problem(display, f"{at}/after", "unknown-step",
                        f"the expectation is set after step {where}; the script has steps 0 to {len(texts)}")]
    return []


def parse_step(plugin: Any, model: type[Expectation], known: dict[str, frozenset[str]], step: str) -> Any:
    """The action ``step`` writes; a bare card design gets an instance number first when actions name instances.
    Raises ValueError when it does not parse."""
    words = step.split()
    if model.card_instances:
        designs = known.get("card", frozenset())
        words = [f"{w}#0" if w in designs and _DESIGN.match(w) else w for w in words]
    return plugin.parse_action(" ".join(words))


def _step_problems(plugin: Any, model: type[Expectation], known: dict[str, frozenset[str]], display: str,
                   pointer: str, step: str, strangers: bool = False) -> list[Problem]:
    try:
        action = parse_step(plugin, model, known, step)
    except (ValueError, KeyError, IndexError) as exc:
        stranger = _unknown_design(plugin, model, known, step)
        if stranger:
            return [Problem(display, pointer, "unknown-card",
                            f"{step!r} names {stranger!r}, which is no card of this scenario")]
        return [Problem(display, pointer, "unparsable-step", f"the step does not parse: {exc}")]
    problems = []
    if "player" in known and not strangers:  # every game writes its players ``p1``… (``core.player``)
        words = getattr(action, "notation", lambda: "")().split()
        problems += [Problem(display, pointer, "unknown-player", f"{step!r} names {word!r}, who does not play here")
                     for word in sorted(set(words)) if _PLAYER.match(word) and word not in known["player"]]
    if "card" in known:
        problems += [Problem(display, pointer, "unknown-card",
                             f"{step!r} names {design!r}, which is no card of this scenario")
                     for design in sorted(set(_designs(action))) if design not in known["card"]]
    return problems


def _unknown_design(plugin: Any, model: type[Expectation], known: dict[str, frozenset[str]], step: str) -> str | None:
    """The word of a step that does not parse which would make it parse as a card: a misspelt design."""
    if not model.card_instances:
        return None
    words = step.split()
    for n, word in enumerate(words):
        if _DESIGN.match(word) and word not in known.get("card", ()):
            try:
                parse_step(plugin, model, known, " ".join(words[:n] + [f"{word}#0"] + words[n + 1:]))
            except (ValueError, KeyError, IndexError):
                continue
            return word
    return None


def _designs(action: Any) -> Iterator[str]:
    """The card designs an action names (a dataclass field holding an object with a ``design``)."""
    if not is_dataclass(action):
        return
    for f in fields(action):
        value = getattr(action, f.name)
        design = getattr(value, "design", None)
        if isinstance(design, str):
            yield design
        elif is_dataclass(value):
            yield from _designs(value)


def _refs(model: type[BaseModel], data: dict[str, Any], at: str) -> Iterator[tuple[str, str, str]]:
    """(pointer, kind, id) of each id in ``data``, a valid instance of ``model``, as its annotations mark them."""
    hints = _hints(model)
    for name, field in model.model_fields.items():
        key = field.alias or name
        if key in data:
            yield from _walk(hints[name], data[key], f"{at}/{pointer_escape(key)}")
    extra = hints.get("__pydantic_extra__")
    if extra is not None:
        for key, value in data.items():
            if key not in model.model_fields:
                yield from _walk_pair(extra, key, value, f"{at}/{pointer_escape(key)}")


@cache
def _hints(model: type[BaseModel]) -> dict[str, Any]:
    """A model's annotations with their ``Annotated`` marks (resolving them costs ~7 ms, so once per model)."""
    return typing.get_type_hints(model, include_extras=True)


def _walk(annotation: Any, value: Any, at: str) -> Iterator[tuple[str, str, str]]:
    origin = get_origin(annotation)
    if origin is Annotated:
        base, *meta = get_args(annotation)
        refs = [m for m in meta if isinstance(m, Ref)]
        if refs and isinstance(value, str):
            yield at, refs[0].kind, value
        yield from _walk(base, value, at)
    elif origin is Union or type(annotation).__name__ == "UnionType":
        options = get_args(annotation)
        if any(get_origin(o) is Literal and value in get_args(o) for o in options):
            return  # a word the key allows besides the ids (``start``, ``null``)
        for option in options:
            yield from _walk(option, value, at)
    elif origin is list and isinstance(value, list):
        (item,) = get_args(annotation)
        for n, element in enumerate(value):
            yield from _walk(item, element, f"{at}/{n}")
    elif origin is dict and isinstance(value, dict):
        yield from _walk_pair(annotation, None, value, at)
    elif isinstance(annotation, type) and issubclass(annotation, BaseModel) and isinstance(value, dict):
        yield from _refs(annotation, value, at)


def _walk_pair(annotation: Any, key: Any, value: Any, at: str) -> Iterator[tuple[str, str, str]]:
    """A dictionary's ids: ``key`` (None: every key of ``value``) checked against the key type, values against
    the value type."""
    key_type, value_type = get_args(annotation)
    pairs = value.items() if key is None else [(key, value)]
    for k, v in pairs:
        here = f"{at}/{pointer_escape(k)}" if key is None else at
        for _, kind, ident in _walk(key_type, k, here):
            yield here, kind, ident
        yield from _walk(value_type, v, here)


def scenario_file_model(model: type[Expectation]) -> type[BaseModel]:
    """The scenario file model of a game whose expectations are ``model``: the generic one with ``expect`` typed
    (``schema/<game>/scenarios.schema.json`` is generated from it, so an editor completes and checks the keys)."""
    from pydantic import create_model

    from ..models.scenarios import Scenario, ScenarioFile

    game = model.__name__.removesuffix("Expectation")
    about = "Expectations checked after the steps (or after the step ``after`` names), in the game's vocabulary."
    scenario = create_model(f"{game}Scenario", __base__=Scenario, __doc__=Scenario.__doc__,
                            expect=(list[model], Field(default_factory=list, description=about)))
    return create_model(f"{game}ScenarioFile", __base__=ScenarioFile, __doc__=ScenarioFile.__doc__,
                        scenarios=(list[scenario], Field(default_factory=list)))
