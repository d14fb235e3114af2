"""The public API is what ``__all__`` says, sorted."""

import cardworks
import cardworks.models


def test_all_is_sorted_and_complete() -> None:
    for module in (cardworks, cardworks.models):
        public = {name for name in vars(module) if not name.startswith("_") and not isinstance(getattr(module, name), type(cardworks))}
        assert module.__all__ == sorted(module.__all__)
        assert set(module.__all__) == public, module.__name__
