"""``cardworks validate`` for Diables: each tile's scoring condition is one of Diables' operations."""

from __future__ import annotations

from typing import Any

from ...engine.validation import check_own_models
from .models import MODELS


def validate(index: Any, out: Any) -> None:
    """Diables' components read with its own models (the generic model leaves ``scoring`` open)."""
    check_own_models(index.db, MODELS, out)
