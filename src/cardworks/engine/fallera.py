"""Old import path of ``cardworks.games.fallera.rules``, kept working for code written before games became packages."""

import sys

from ..games.fallera import rules as _moved

sys.modules[__name__] = _moved
