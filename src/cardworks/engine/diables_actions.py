"""Old import path of ``cardworks.games.diables.actions``, kept working for code written before games became packages."""

import sys

from ..games.diables import actions as _moved

sys.modules[__name__] = _moved
