"""``python -m cardworks``: the same as the ``cardworks`` command."""

from .cli.main import main

main()
