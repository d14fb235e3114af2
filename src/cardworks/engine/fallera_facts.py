"""Old import path of ``cardworks.games.fallera.facts``, kept working for code written before games became packages."""

import sys

from ..games.fallera import facts as _moved

sys.modules[__name__] = _moved
