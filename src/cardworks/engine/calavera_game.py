"""Old import path of ``cardworks.games.calavera.game``, kept working for code written before games became packages."""

import sys

from ..games.calavera import game as _moved

sys.modules[__name__] = _moved
