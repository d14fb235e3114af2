"""Old import path of ``cardworks.games.diables.scoring``, kept working for code written before games became packages."""

import sys

from ..games.diables import scoring as _moved

sys.modules[__name__] = _moved
