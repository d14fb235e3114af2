"""Old import path of ``cardworks.games.calavera.sheet``, kept working for code written before games became packages."""

import sys

from ..games.calavera import sheet as _moved

sys.modules[__name__] = _moved
