"""Packaging hook: a wheel carries the shipped templates, card database and sheet layouts as package data.

They live at the top of the checkout (``templates/``, ``cards/``) where designers
and translators edit them; building a wheel copies them into
``cardworks/data/``, where :mod:`cardworks.resources` finds them through
``importlib.resources``. It also compiles Fallera's rollout loop (``_rollouts.c``, the Python API only: the
interpreter's headers and a C compiler, nothing from a registry); searches use it where it is built. Everything
else is declared in ``pyproject.toml``.
"""

import hashlib
import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
SHIPPED = ("templates", "cards", "layouts")


class build_py_with_data(build_py):
    """``build_py`` plus the shipped folders, copied into the built package."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install reads the checkout's folders directly
            return
        for name in SHIPPED:
            source = HERE / name
            if source.is_dir():
                target = Path(self.build_lib) / "cardworks" / "data" / name
                shutil.rmtree(target, ignore_errors=True)
                shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


class build_ext_without_machine_paths(build_ext):
    """``build_ext`` without the interpreter's run path: some interpreters' link command (pyenv's) carries
    ``-Wl,-rpath,<its lib folder>``, which the module does not need (it links no library) and which would name
    the build machine's folders in it (``tests/test_no_machine_paths.py``)."""

    def build_extensions(self) -> None:
        linker = getattr(self.compiler, "linker_so", None)
        if isinstance(linker, list):
            self.compiler.linker_so = [arg for arg in linker if not arg.startswith("-Wl,-rpath")]
        super().build_extensions()


ROLLOUTS_C = "src/cardworks/games/fallera/_rollouts.c"
ROLLOUTS = Extension("cardworks.games.fallera._rollouts", [ROLLOUTS_C],
                     define_macros=[("SOURCE_SHA256", '"%s"' % hashlib.sha256((HERE / ROLLOUTS_C).read_bytes()).hexdigest())],
                     extra_compile_args=["-ffp-contract=off", "-g0"], optional=True)  # floats rounded as Python rounds them (no fused a*b+c); no debug
# information, which would name the build machine's folders in the module
"""``rollouts.Rollouts.random_steps`` compiled; the Python loop stays, and tests compare both with the rules. The
module carries its source's digest: ``rollouts`` refuses one built from another ``_rollouts.c`` than the one
beside it. Optional: where no C compiler or Python headers are found, pip says the build failed and installs the
rest, searches then run the Python loop (about 0.65x as many iterations a second), and
``tests/simulate/test_random_steps.py::test_the_compiled_loop_is_built`` fails."""

setup(cmdclass={"build_py": build_py_with_data, "build_ext": build_ext_without_machine_paths}, ext_modules=[ROLLOUTS])
