"""The layer rules: what may import what (function-level imports included), and no cycle
between packages. A module may import its own layer and the layers below it, never one
above; the packages (each folder of printshop/, each module at its top) import each other
without a cycle, so each can be read, tested and changed from the bottom up."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import printshop

ROOT = Path(printshop.__file__).resolve().parent

# Top to bottom. Each entry: a module or a package (with everything under it).
LAYERS = (
    ("the command line", ("printshop.launch", "printshop.__main__", "printshop.cli")),
    ("serve", ("printshop.serve",)),
    ("the build", ("printshop.builder", "printshop.product_threads", "printshop.scaffold",
                   "printshop.bundle", "printshop.reference_docs")),
    ("products", ("printshop.products",)),
    ("preflight", ("printshop.preflight",)),
    ("render", ("printshop.render",)),
    ("rollers", ("printshop.roll",)),
    ("the project", ("printshop.project", "printshop.profiles", "printshop.cover_geometry")),
    ("source", ("printshop.source",)),
    ("core", ("printshop.errors", "printshop.deps", "printshop.cache", "printshop.output",
              "printshop.safepath", "printshop.resources", "printshop.user_cache",
              "printshop.processes", "printshop.dice", "printshop.system_check",
              "printshop")),
)
# Rules inside a layer: these never import those (the process pool knows nothing of
# rendering; the rollers are "tables in, plain data out")
NEVER = {
    "printshop.render.pool": ("printshop.render.job", "printshop.render.renderer",
                              "printshop.render.weasy", "printshop.render.pdf"),
}


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imported_modules(source: str, module: str, package: bool = False) -> set[str]:
    """Every module an `import` or `from … import` names, anywhere in the file (function
    bodies too), relative imports resolved against `module` (a dotted name; `package`: the
    module is a package's __init__)."""
    found = set()
    here = module if package else module.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")
                base = base[:len(base) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            found.add(name)
            found.update(f"{name}.{alias.name}" for alias in node.names)
    return found


def imports() -> dict[str, set[str]]:
    """printshop's modules, each with the printshop modules it imports."""
    known = modules()

    def resolve(name: str) -> str | None:   # `from printshop.x import name`: x, or x.name
        while name not in known and "." in name:
            name = name.rsplit(".", 1)[0]
        return name if name in known else None

    graph = {}
    for module, path in known.items():
        names = imported_modules(path.read_text(encoding="utf-8"), module,
                                 path.name == "__init__.py")
        graph[module] = {target for name in names if name.startswith("printshop")
                         and (target := resolve(name)) not in (None, module)}
    return graph


def within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def layer_of(module: str) -> int:
    """The layer holding `module`: its longest matching entry."""
    matches = [(len(prefix), number) for number, (_, prefixes) in enumerate(LAYERS)
               for prefix in prefixes if within(module, prefix)]
    assert matches, f"{module} is in no layer: add it to LAYERS"
    return max(matches)[1]


def package_of(module: str) -> str:
    """The folder a module is in (a package's __init__: that package); a module at the top of
    printshop/ is a package of its own."""
    path = modules()[module]
    if path.name == "__init__.py" or module.count(".") == 1:
        return module
    return module.rsplit(".", 1)[0]


def package_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The cycles between packages (strongly connected groups of more than one), each with
    the imports that make it."""
    edges: dict[str, dict[str, list[str]]] = {}
    for module, targets in graph.items():
        for target in targets:
            a, b = package_of(module), package_of(target)
            if a != b and b != "printshop":   # the package's own __init__: a version string
                edges.setdefault(a, {}).setdefault(b, []).append(f"{module} -> {target}")
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in edges.get(node, {}):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(f"{a} -> {b}: {edges[a][b][0]}" for a in group
                                     for b in group if b in edges.get(a, {})))

    for node in sorted(set(edges) | {b for targets in edges.values() for b in targets}):
        if node not in index:
            visit(node)
    return groups


def test_the_checker_sees_every_form_of_import():
    source = ("import printshop.render.job\n"
              "def f():\n    from printshop.products import BuildContext\n"
              "from ..render import merge\n"
              "from printshop import products\n")
    assert imported_modules(source, "printshop.roll.x") == {
        "printshop", "printshop.products", "printshop.products.BuildContext",
        "printshop.render", "printshop.render.job", "printshop.render.merge"}
    assert "printshop.render.pool" in imported_modules("from . import pool",
                                                       "printshop.render", package=True)


def test_the_checker_finds_a_cycle_hidden_in_a_function():
    graph = {"printshop.render.pool.pool": {"printshop.render.job"},
             "printshop.render.job": set(),
             "printshop.render.weasy.fit": {"printshop.render.pool.pool"}}
    assert package_cycles(graph) == []
    graph["printshop.render.job"] = {"printshop.render.weasy.fit"}
    cycle, = package_cycles(graph)
    assert cycle == [
        "printshop.render -> printshop.render.weasy: "
        "printshop.render.job -> printshop.render.weasy.fit",
        "printshop.render.pool -> printshop.render: "
        "printshop.render.pool.pool -> printshop.render.job",
        "printshop.render.weasy -> printshop.render.pool: "
        "printshop.render.weasy.fit -> printshop.render.pool.pool"]


def test_no_module_imports_a_layer_above_its_own():
    graph = imports()
    assert len(graph) > 100
    upward = sorted(f"{module} ({LAYERS[layer_of(module)][0]}) imports {target} "
                    f"({LAYERS[layer_of(target)][0]})"
                    for module, targets in graph.items() for target in targets
                    if layer_of(target) < layer_of(module))
    assert upward == []


def test_the_rules_inside_a_layer_hold():
    graph = imports()
    broken = sorted(f"{module} imports {target}" for module, targets in graph.items()
                    for prefix, forbidden in NEVER.items() if within(module, prefix)
                    for target in targets if any(within(target, f) for f in forbidden))
    assert broken == []


def test_no_cycle_between_packages():
    assert package_cycles(imports()) == []


def test_importing_the_rollers_loads_neither_products_nor_render():
    """Not even indirectly, through a module they import."""
    rollers = [".".join(("printshop", "roll") + p.relative_to(ROOT / "roll").with_suffix("")
                        .parts).removesuffix(".__init__")
               for p in sorted((ROOT / "roll").rglob("*.py"))]   # the recipe package too
    assert "printshop.roll.recipe.roll" in rollers
    code = ("import sys, importlib\n"
            f"for m in {rollers!r}: importlib.import_module(m)\n"
            "print(sorted(m for m in sys.modules if m.startswith(('printshop.products', "
            "'printshop.render'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"
