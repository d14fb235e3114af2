"""Old import path of ``cardworks.games.fallera.cards``, kept working for code written before games became packages."""

import sys

from ..games.fallera import cards as _moved

sys.modules[__name__] = _moved
