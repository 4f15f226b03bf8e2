"""The rollers stay "tables in, plain data out": nothing under printshop/roll/ imports the
products or the renderer (the glue behind `printshop roll …` lives beside the products)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import printshop

ROLL = Path(printshop.__file__).resolve().parent / "roll"
FORBIDDEN = ("printshop.products", "printshop.render")


def imported_modules(source: str, module: str) -> set[str]:
    """Every module an `import` or `from … import` names, anywhere in the file (function
    bodies too), relative imports resolved against `module` (a dotted name)."""
    found = set()
    package = module.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            found.add(name)
            found.update(f"{name}.{alias.name}" for alias in node.names)
    return found


def forbidden(names: set[str]) -> list[str]:
    return sorted(n for n in names
                  if any(n == f or n.startswith(f + ".") for f in FORBIDDEN))


def _module(path: Path) -> str:
    """printshop/roll/recipe/expr.py → printshop.roll.recipe.expr (a package: its name)."""
    parts = ("printshop", "roll") + path.relative_to(ROLL).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_the_checker_sees_every_form_of_import():
    source = ("import printshop.render.job\n"
              "def f():\n    from printshop.products import BuildContext\n"
              "from ..render import merge\n"
              "from printshop import products\n")
    assert forbidden(imported_modules(source, "printshop.roll.x")) == [
        "printshop.products", "printshop.products.BuildContext", "printshop.render",
        "printshop.render.job", "printshop.render.merge"]


def test_no_roll_module_imports_products_or_render():
    files = sorted(ROLL.rglob("*.py"))
    assert len(files) >= 10
    bad = {}
    for path in files:
        module = _module(path)
        names = forbidden(imported_modules(path.read_text(encoding="utf-8"), module))
        if names:
            bad[path.name] = names
    assert bad == {}, f"roll/ must not import products/ or render/: {bad}"


def test_importing_the_rollers_loads_neither_products_nor_render():
    """Not even indirectly, through a module they import."""
    modules = [_module(p) for p in sorted(ROLL.rglob("*.py"))]
    code = ("import sys, importlib\n"
            f"for m in {modules!r}: importlib.import_module(m)\n"
            f"print(sorted(m for m in sys.modules if m.startswith({FORBIDDEN!r})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"
