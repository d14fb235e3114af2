"""Old import path of ``cardworks.games.calavera.rules``, kept working for code written before games became packages."""

import sys

from ..games.calavera import rules as _moved

sys.modules[__name__] = _moved
