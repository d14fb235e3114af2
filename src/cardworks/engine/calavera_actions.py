"""Old import path of ``cardworks.games.calavera.actions``, kept working for code written before games became packages."""

import sys

from ..games.calavera import actions as _moved

sys.modules[__name__] = _moved
