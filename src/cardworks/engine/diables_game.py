"""Old import path of ``cardworks.games.diables.game``, kept working for code written before games became packages."""

import sys

from ..games.diables import game as _moved

sys.modules[__name__] = _moved
