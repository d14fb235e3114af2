"""WeasyPrint's text layouts made from a Pango context and font description kept per font configuration.

WeasyPrint sets up a Pango layout for every try at breaking a line and again for every line it draws (about
200,000 in a build), and each time made a new Pango context (font map, base direction, language) and a new
font description (family, style, stretch, weight, size, variant) from the box's style: 7 of the 10 µs a layout
took, about 4 % of laying out and drawing a rulebook. The values are the same for every box of one language,
direction and font, and Pango copies the description into each layout and only reads the context, so both are
made once and kept on the font configuration (a context per thread: Pango objects are not shared between
threads). :func:`_setup` is WeasyPrint's ``Layout.setup`` with those two lookups; every other step is as it
was, so every document prints the same bytes (tests/render/test_text_layouts.py).

Installed only when WeasyPrint's ``Layout.setup`` is the one this was written against (:data:`COPIED_SETUP`):
another version sets layouts up as before and the test fails.
"""

from __future__ import annotations

import hashlib
import inspect
import threading
from typing import Any

COPIED_SETUP = "fb227a55094f41d42fbd57f180d8b7a9a1e741969ec8ddb3fd5cd80920257442"
"""SHA-256 of the source of WeasyPrint's ``Layout.setup`` that :func:`_setup` reproduces (WeasyPrint 70.0)."""

_ATTRIBUTE = "_cardworks_text_layouts"
"""Where a font configuration keeps its Pango contexts and font descriptions."""

_INSTALLED: list[bool] = []


_REPLACED: list[Any] = []
"""WeasyPrint's own ``Layout.setup``, once :func:`install` has put :func:`_setup` in its place."""


def installable() -> bool:
    """True when the installed WeasyPrint's ``Layout.setup`` (its own, also once replaced) is the one
    :func:`_setup` reproduces."""
    from weasyprint.text.line_break import Layout

    own = _REPLACED[0] if _REPLACED else Layout.setup
    return hashlib.sha256(inspect.getsource(own).encode()).hexdigest() == COPIED_SETUP


def install() -> bool:
    """Set WeasyPrint's text layouts up from kept contexts and font descriptions (once; later calls do nothing).
    Returns whether it is so: False when WeasyPrint's ``Layout.setup`` is not the one reproduced."""
    if not _INSTALLED:
        _INSTALLED.append(installable())
        if _INSTALLED[0]:
            from weasyprint.text.line_break import Layout

            _REPLACED.append(Layout.setup)
            Layout.setup = _setup
    return _INSTALLED[0]


def _kept(style: Any) -> tuple[dict[Any, Any], dict[Any, Any]]:
    """This thread's contexts (by direction and language) and the font descriptions (by font) of the style's
    font configuration."""
    kept = style.font_config.__dict__.setdefault(_ATTRIBUTE, {})
    thread = threading.get_ident()
    if thread not in kept:
        kept[thread] = ({}, {})
    return kept[thread]


def _context(style: Any, contexts: dict[Any, Any]) -> tuple[Any, Any, bool]:
    """The Pango context of the style's direction and language, its language, and whether the language was set
    on it (the three outcomes of WeasyPrint's own steps, made once)."""
    from weasyprint.text.constants import LST_TO_ISO, PANGO_DIRECTION
    from weasyprint.text.ffi import ffi, gobject, pango, unicode_to_char_p

    if style['font_language_override'] != 'normal':
        tag = LST_TO_ISO.get(style['font_language_override'].lower(), style['font_language_override'])
    elif style['lang']:
        tag = style['lang']
    else:
        tag = None
    key = (style['direction'], tag)
    found = contexts.get(key)
    if found is None:
        pango_context = ffi.gc(pango.pango_font_map_create_context(style.font_config.font_map), gobject.g_object_unref)
        pango.pango_context_set_round_glyph_positions(pango_context, False)
        pango.pango_context_set_base_dir(pango_context, PANGO_DIRECTION[style['direction']])
        language, chosen = None, False
        if tag is None:
            language, chosen = pango.pango_language_get_default(), True
        else:
            lang_p, lang = unicode_to_char_p(tag)
            if lang:
                language, chosen = pango.pango_language_from_string(lang_p), True
                pango.pango_context_set_language(pango_context, language)
        found = contexts[key] = (pango_context, language, chosen)
    return found


def _font_description(style: Any, descriptions: dict[Any, Any]) -> Any:
    from weasyprint.text.ffi import TO_UNITS
    from weasyprint.text.fonts import get_font_description

    variations = style['font_variation_settings']
    key = (tuple(style['font_family']), style['font_style'], style['font_stretch'], style['font_weight'],
           int(style['font_size'] * TO_UNITS), style['font_variant_caps'],
           variations if variations == 'normal' else tuple(map(tuple, variations)))
    found = descriptions.get(key)
    if found is None:
        found = descriptions[key] = get_font_description(style)
    return found


def _setup(self: Any, style: Any) -> None:
    """WeasyPrint's ``Layout.setup`` (70.0), the context and font description kept (see the module's docstring)."""
    from weasyprint.text.ffi import FROM_UNITS, ffi, gobject, pango
    from weasyprint.text.fonts import font_features

    self.style = style
    self.first_line_direction = 0

    contexts, descriptions = _kept(style)
    pango_context, language, chosen = _context(style, contexts)
    if chosen:
        self.language = language

    assert not isinstance(style['font_family'], str), (
        'font_family should be a list')
    font_description = _font_description(style, descriptions)
    self.layout = ffi.gc(
        pango.pango_layout_new(pango_context),
        gobject.g_object_unref)
    pango.pango_layout_set_auto_dir(self.layout, False)
    pango.pango_layout_set_font_description(self.layout, font_description)

    text_decoration = style['text_decoration_line']
    if text_decoration != 'none':
        metrics = ffi.gc(
            pango.pango_context_get_metrics(
                pango_context, font_description, self.language),
            pango.pango_font_metrics_unref)
        self.ascent = FROM_UNITS * (
            pango.pango_font_metrics_get_ascent(metrics))
        self.underline_position = FROM_UNITS * (
            pango.pango_font_metrics_get_underline_position(metrics))
        self.strikethrough_position = FROM_UNITS * (
            pango.pango_font_metrics_get_strikethrough_position(metrics))
        self.underline_thickness = FROM_UNITS * (
            pango.pango_font_metrics_get_underline_thickness(metrics))
        self.strikethrough_thickness = FROM_UNITS * (
            pango.pango_font_metrics_get_strikethrough_thickness(metrics))
    else:
        self.ascent = None
        self.underline_position = None
        self.strikethrough_position = None

    features = font_features(
        style['font_kerning'], style['font_variant_ligatures'],
        style['font_variant_position'], style['font_variant_caps'],
        style['font_variant_numeric'], style['font_variant_alternates'],
        style['font_variant_east_asian'], style['font_feature_settings'])
    if features:
        features = ','.join(
            f'{key} {value}' for key, value in features.items()).encode()
        attr = style.font_config.font_features.get(features)
        if attr is None:  # WeasyPrint's setdefault made (and leaked) a new attribute every time
            attr = style.font_config.font_features[features] = pango.pango_attr_font_features_new(features)
        attr_list = pango.pango_attr_list_new()
        pango.pango_attr_list_insert(attr_list, attr)
        pango.pango_layout_set_attributes(self.layout, attr_list)
