"""Old import path of ``cardworks.games.diables.rules``, kept working for code written before games became packages."""

import sys

from ..games.diables import rules as _moved

sys.modules[__name__] = _moved
