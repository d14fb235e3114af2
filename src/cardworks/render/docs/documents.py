"""Rulebook and FAQ index documents: HTML from templates, then PDF with bookmarks and page references."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from markupsafe import Markup

from ...errors import DataError
from ...fileio import read_text_limited
from ...i18n.collation import collation_key
from ...i18n.plurals import counted
from ...loading.database import Database, display_path
from ...loading.records import Index
from ...models.sheets import PAPERS
from ...problems import Problem
from ..fetcher import fetch_key, refusal_error, safe_fetcher
from ..fonts import font_face_css, font_folders, shared_font_config
from ..jinja import environment, templates_dir
from ..typography import database_names, typeset
from .cover import cover_of
from .generated import Generator
from .markdown import render_markdown
from .texts import DocTexts, Labels, icon_urls


@dataclass
class Section:
    id: str
    title: str
    html: Markup
    locale: str
    headings: list[tuple[int, str, str]]
    new_page: bool = False


def _check(texts: DocTexts, what: str) -> None:
    if texts.missing:
        problems = [Problem(what, "", "missing-translation", f"{item} has no {texts.locale} text") for item in texts.missing]
        raise DataError(f"{what}: {len(texts.missing)} missing translation(s); build with --allow-fallback to use "
                        f"{' → '.join(texts.chain[1:])} instead", problems)


def _selection_sets(db: Database, index: Index, texts: DocTexts, selection: str) -> tuple[list[str], str | Markup]:
    """The sets of a deck selection and how a reader names it: the selection's localized name, else its sets'
    localized names joined by " + " (nothing when the game has a single set); never an id."""
    game = db.game_doc
    for choice in game.selections:
        if choice.id == selection:
            return list(choice.sets), texts.text(game.id, f"selections/{choice.id}/name", choice.name)
    sets = {r.id: r for r in index.of_kind("set")}
    chosen = list(sets) if selection == "all" else selection.split("+")
    if len(sets) <= 1 and set(chosen) <= set(sets):
        return chosen, ""
    return chosen, Markup(" + ").join(texts.text(s, "name", sets[s].model.name) if s in sets else s for s in chosen)


def rulebook_html(db: Database, locale: str, selection: str, allow_fallback: bool = False, proof: bool = False,
                  asked_by: dict[str, str] | None = None, fell_back: list[str] | None = None, paper: str = "a4") -> str:
    """The rulebook of ``selection`` in ``locale``: cover, contents, sections (some generated).

    ``asked_by``, when given, receives each image a section asks for (see ``fetcher.fetch_key``) with the
    section file and line, for :func:`render_pdf` to name them when the image is refused. ``fell_back``, when
    given, receives the strings and sections taken from another locale (``DocTexts.fallbacks``). ``paper``:
    the page size (``--paper``).
    """
    index = Index(db)
    game = db.game_doc
    texts = DocTexts(db, locale, allow_fallback, proof)
    set_ids, selection_label = _selection_sets(db, index, texts, selection)
    icons = icon_urls(index, texts)
    generate = Generator(index, texts, set_ids, icons)
    needs = {name: sets for _, doc in db.docs("rule-sections") for name, sets in doc.sections.items()}
    new_pages = {name for _, doc in db.docs("rule-sections") for name in doc.new_page}
    names = sorted(p.stem for p in (db.game.root / "rules" / game.source_locale).glob("*.md"))
    sections = []
    for name in names:
        if not set(needs.get(name, [])) <= set(set_ids):
            continue
        found = texts.section_file(name)
        if found is None:
            continue
        path, used = found
        images: list[tuple[str, int]] = []
        try:
            html, headings = render_markdown(read_text_limited(path), name, icons, generate, images)
        except DataError as exc:
            raise DataError(f"{display_path(path)}: {exc}", [Problem(display_path(path), "", "rules-directive", str(exc))]) \
                from None
        if asked_by is not None:
            for src, line in images:
                asked_by.setdefault(fetch_key(urljoin(_base_url(), src)), f"{display_path(path)}:{line}")
        title = next((text for level, _, text in headings if level == 1), name)
        sections.append(Section(name, title, html, used, headings, new_page=name in new_pages))
    context = {"lang": locale, "game": texts.text(game.id, "name", game.name), "selection": selection_label,
               "cover": cover_of(db, icons),
               "t": generate.labels, "sections": sections, "marked": proof and bool(texts.fallbacks),
               "page_size": page_size(paper)}
    html = _page(context, "docs/rulebook.html.j2", db)
    _check(texts, f"{game.id} {locale} rulebook")
    if fell_back is not None:
        fell_back += texts.fallbacks
    return html


@dataclass
class FaqSection:
    """One topic of the FAQ as printed: its heading in the locale and its rulings, numbered."""

    id: str
    name: str | Markup
    rulings: list[dict[str, Any]]


def faq_html(db: Database, locale: str, allow_fallback: bool = False, proof: bool = False,
             fell_back: list[str] | None = None, paper: str = "a4") -> str:
    """Every ruling once, numbered, under its topic; then an index of topics and one of card names, each
    giving ruling numbers (so the FAQ needs no page numbers and is laid out once). ``fell_back``, when
    given, receives the strings taken from another locale.
    """
    made = _faq_context(db, locale, allow_fallback, proof)
    made[0]["page_size"] = page_size(paper)
    html = _faq_page(db, made)
    if fell_back is not None:  # a label asked for by every ruling is one string
        fell_back += list(dict.fromkeys(made[1].fallbacks))
    return html


def _faq_page(db: Database, made: tuple[dict[str, Any], DocTexts]) -> str:
    """The FAQ's HTML from its context (:func:`_faq_context`)."""
    context, texts = made
    html = _page(context, "docs/faq.html.j2", db)
    _check(texts, f"{db.game_doc.id} {texts.locale} faq")
    return html


def _faq_context(db: Database, locale: str, allow_fallback: bool, proof: bool) -> tuple[dict[str, Any], DocTexts]:
    """What the FAQ prints: topics in the game's order, their rulings numbered from 1 in file order, and the
    two indexes. A ruling without a topic (a game that declares none) goes under the FAQ's own heading."""
    index = Index(db)
    game = db.game_doc
    texts = DocTexts(db, locale, allow_fallback, proof)
    icons = icon_urls(index, texts)
    documents = {d.id: d for d in game.documents}
    pieces = {r.id: r for r in index.records if r.kind in {"card", "component", "board"}}
    from ...engine.scenarios import run_scenarios
    from ...engine.plugins import registered
    from ..jinja import markup_html

    verdicts = {r.id: r.passed for r in run_scenarios(db)} if proof and game.id in registered() else {}
    topics = {t.id: FaqSection(t.id, texts.text(game.id, f"faq_topics/{t.id}/name", t.name), []) for t in game.faq_topics}
    untitled = FaqSection("", texts.label("faq"), [])
    for record in index.of_kind("ruling"):
        ruling, topic = record.model, record.model.topic
        if topic is not None and topic not in topics:
            raise DataError(f"{record.where}: unknown FAQ topic {topic!r}",
                            [Problem(record.file.display, f"{record.pointer}/topic", "dangling-ref",
                                     f"unknown FAQ topic {topic!r}")])
        source = ruling.source
        (topics[topic] if topic else untitled).rulings.append({
            "id": ruling.id, "cards": [c for c in ruling.cards if c in pieces],
            "question": markup_html(texts.text(ruling.id, "question", ruling.question), icons),
            "answer": markup_html(texts.text(ruling.id, "answer", ruling.answer), icons),
            "source": _citation(texts, game.id, documents.get(source.doc), source, proof),
            # most answers are stated; the FAQ's note says that only the others are marked
            "certainty": None if source.certainty == "stated" else texts.label(f"certainty_{source.certainty}"),
            "scenarios": [{"id": s, "passed": verdicts.get(s)} for s in ruling.scenarios],
        })
    shown = [t for t in [*topics.values(), untitled] if t.rulings]
    number = 0
    for topic in shown:
        for ruling in topic.rulings:
            number += 1
            ruling["number"] = number
    context = {"lang": locale, "game": texts.text(game.id, "name", game.name), "t": Labels(texts),
               "cover": cover_of(db, icons),
               "topics": shown, "topic_index": _topic_index(shown, locale),
               "index": _card_index(shown, pieces, texts, locale), "proof": proof,
               "marked": proof and bool(texts.fallbacks)}
    return context, texts


def _topic_index(topics: list[FaqSection], locale: str) -> list[tuple[str | Markup, str, list[str]]]:
    """(name, anchor id, ruling numbers) of each topic, in the locale's alphabetical order."""
    entries = [(t.name, t.id, number_ranges([r["number"] for r in t.rulings])) for t in topics if t.id]
    return sorted(entries, key=lambda e: collation_key(_plain(e[0]), locale))


def _card_index(topics: list[FaqSection], pieces: dict[str, Any], texts: DocTexts,
                locale: str) -> list[tuple[str | Markup, list[str]]]:
    """(name, ruling numbers) of every card, component or board a ruling names, and of their other names.

    One entry per name as a reader sees it: two pieces with one name in this locale, or an other name that
    differs from the name only in case, share an entry with the numbers of both."""
    numbers: dict[str, list[int]] = {}
    for topic in topics:
        for ruling in topic.rulings:
            for card_id in ruling["cards"]:
                numbers.setdefault(card_id, []).append(ruling["number"])
    merged: dict[str, tuple[str | Markup, set[int]]] = {}
    names = [(card_id, texts.text(card_id, "name", pieces[card_id].model.name)) for card_id in numbers]
    names += [(card_id, texts.text(card_id, f"alt_names/{i}", alt)) for card_id in numbers
              for i, alt in enumerate(getattr(pieces[card_id].model, "alt_names", []))]
    for card_id, name in names:
        key = " ".join(_plain(name).casefold().split())
        merged.setdefault(key, (name, set()))[1].update(numbers[card_id])
    entries = [(name, number_ranges(sorted(found))) for name, found in merged.values()]
    return sorted(entries, key=lambda e: collation_key(_plain(e[0]), locale))


def number_ranges(numbers: list[int]) -> list[str]:
    """Ascending numbers as a reader scans them: ``[1, 2, 3, 7, 9, 10]`` → ``["1–3", "7", "9", "10"]`` (a run
    of three or more becomes a range; the template keeps each part on one line)."""
    parts: list[str] = []
    run: list[int] = []
    for n in [*numbers, None]:
        if run and (n is None or n != run[-1] + 1):
            parts += [f"{run[0]}\u2013{run[-1]}"] if len(run) > 2 else [str(x) for x in run]
            run = []
        if n is not None:
            run.append(n)
    return parts


def _citation(texts: DocTexts, game_id: str, document: Any, source: Any, proof: bool = False) -> Markup:
    """Where a ruling comes from, as a printed FAQ says it: the document's title and the section's name (both
    translated in the game's ``documents``, so each locale names its own rulebook); the source file's line
    numbers only in the proof (the developers' view). A section the document does not list has no translation,
    so a localized FAQ reports it missing instead of printing the source's words."""
    if document is None:
        parts = [source.doc]
    else:
        parts = [texts.text(game_id, f"documents/{document.id}/title", document.title)]
    if source.section:
        if document is not None and source.section in document.sections:
            number = document.sections.index(source.section)
            section = texts.text(game_id, f"documents/{document.id}/sections/{number}", source.section)
        else:
            section = texts.text(game_id, f"documents/{source.doc}/sections/{source.section}", source.section)
        parts.append(Markup('"') + section + Markup('"'))  # the typesetter gives it the locale's quotes
    if source.lines and proof:
        parts.append(counted(texts.label, "line", source.lines))
    return Markup(", ").join(parts)  # escapes plain parts; a proof fallback keeps its span


def _plain(text: str | Markup) -> str:
    """The words of a text, without a proof fallback's span (for sorting)."""
    return Markup(text).striptags() if isinstance(text, Markup) else text


def page_size(paper: str) -> str:
    """The CSS page size of a document on ``paper`` (a name of ``PAPERS``); empty for A4, the stylesheet's own
    size, so an A4 document's HTML (and so its key and bytes) is what it was before ``--paper`` reached it."""
    if paper == "a4":
        return ""
    width, height = PAPERS[paper]
    return f"{width:g}mm {height:g}mm"


def _page(context: dict[str, Any], template: str, db: Database) -> str:
    """The document's HTML, typeset: curly quotes of its locale, the database's names kept whole."""
    css = (templates_dir() / "docs" / "docs.css").as_uri()
    html = environment().get_template(template).render(font_css=Markup(font_face_css()), css_url=css, **context)
    return typeset(html, context["lang"], database_names(db, context["lang"]))


def _base_url() -> str:
    """Relative URLs in documents resolve against the shipped templates."""
    return templates_dir().as_uri() + "/"


def _layout(html: str, game_root: Path, asked_by: dict[str, str] | None = None,
            what: str = "a rulebook or FAQ index") -> Any:
    from .columns import two_columns
    from .useragent import lay_out_scoped

    roots = [templates_dir(), game_root, *font_folders()]
    fetcher = safe_fetcher(roots)
    fonts = shared_font_config()
    chosen: list[type] = []

    def render(html_type: type, text: str = html) -> Any:
        chosen[:] = [html_type]
        return html_type(string=text, base_url=_base_url(), url_fetcher=fetcher).render(font_config=fonts)

    laid_out = lay_out_scoped(html, roots, render)
    document = two_columns(laid_out, html, lambda text: render(chosen[0], text))  # the frame: the same stylesheet
    if fetcher.refused:
        raise refusal_error(fetcher.refused, what, asked_by)
    return document


def render_pdf(html: str, game_root: Path, asked_by: dict[str, str] | None = None,
               what: str = "a rulebook or FAQ index") -> bytes:
    """PDF bytes of the document ``what``; WeasyPrint reads only the templates, fonts and the game folder. A
    refused file that ``asked_by`` knows (see :func:`rulebook_html`) is reported at the section line that asked for it."""
    out = io.BytesIO()
    _layout(html, game_root, asked_by, what).write_pdf(out)
    return out.getvalue()


def faq_pdf(db: Database, locale: str, allow_fallback: bool = False, proof: bool = False,
            fell_back: list[str] | None = None) -> bytes:
    """The FAQ as a PDF. Its indexes give ruling numbers, not pages, so one layout is enough."""
    html = faq_html(db, locale, allow_fallback, proof, fell_back)
    return render_pdf(html, db.game.root, what=f"the {db.game_doc.id} {locale} FAQ index")
