"""Old import path of ``cardworks.games.fallera.state``, kept working for code written before games became packages."""

import sys

from ..games.fallera import state as _moved

sys.modules[__name__] = _moved
