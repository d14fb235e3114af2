"""The public API is what ``__all__`` says, sorted."""

import types

import cardworks
import cardworks.models


def test_all_is_sorted_and_complete() -> None:
    for module in (cardworks, cardworks.models):
        public = {name for name in dir(module) if not name.startswith("_") and not isinstance(getattr(module, name), types.ModuleType)}
        assert module.__all__ == sorted(module.__all__)
        assert set(module.__all__) == public, module.__name__


def test_the_package_names_come_on_first_use() -> None:
    """``import cardworks`` loads no models (``cardworks --help`` starts with it); each name is there when asked,
    and ``cardworks.validate`` stays the function although ``cardworks/validate/`` is a subpackage too."""
    import subprocess
    import sys

    code = ("import sys, cardworks; assert 'cardworks.models' not in sys.modules and 'pydantic' not in sys.modules; "
            "import cardworks.validate.runner; from cardworks import validate, Report; "
            "assert callable(validate) and cardworks.validate is validate and Report.__name__ == 'Report'")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    try:
        cardworks.validate = len
    except AttributeError:
        pass
    else:
        raise AssertionError("cardworks.validate was rebound")
    assert cardworks.validate.__module__ == "cardworks.validate.runner"
    assert sorted(cardworks._WHERE) == cardworks.__all__  # every public name says where it comes from
