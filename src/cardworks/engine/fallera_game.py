"""Old import path of ``cardworks.games.fallera.game``, kept working for code written before games became packages."""

import sys

from ..games.fallera import game as _moved

sys.modules[__name__] = _moved
