"""Old import path of ``cardworks.games.diables.expect``, kept working for code written before games became packages."""

import sys

from ..games.diables import expect as _moved

sys.modules[__name__] = _moved
