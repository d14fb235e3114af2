"""Old import path of ``cardworks.games.fallera.actions``, kept working for code written before games became packages."""

import sys

from ..games.fallera import actions as _moved

sys.modules[__name__] = _moved
