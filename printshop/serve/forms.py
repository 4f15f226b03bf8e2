"""serve's form page (/make): "Roll a pack" and "Build a kit" from a browser, for organisers
who never open YAML.

Only this page's own forms are accepted: each field known, each once (but the include
boxes), counts within bounds, the form's token present. The files go into the output
folder, named from the seed (checked) and nowhere else. What another site's page could
forge is refused before this (serve/http.py: Host, Origin).
"""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qs

from printshop.products.characters.kit import KitRequest

MAX_BODY = 16_384
MAX_PACK = 500            # characters in a pack from the form
MAX_KIT_CHARACTERS = 1000  # tables × seats × characters per seat
BOUNDS = {"count": (1, MAX_PACK), "tables": (1, 50), "seats": (1, 12), "per_seat": (1, 10)}
PACK_FIELDS = {"token", "count", "seed", "classes", "paper", "backs"}
KIT_FIELDS = {"token", "tables", "seats", "per_seat", "seed", "classes", "paper", "include",
              "backs"}
SEED = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$")


class FormError(Exception):
    """A request this page's forms could not have sent: 400, nothing done."""


def parse(body: bytes, fields: set[str], repeatable=("include",)) -> dict[str, list[str]]:
    try:
        values = parse_qs(body.decode("utf-8"), keep_blank_values=True, strict_parsing=True,
                          max_num_fields=64)
    except (UnicodeDecodeError, ValueError):
        raise FormError("not a form this page sends") from None
    unknown = sorted(set(values) - fields)
    if unknown:
        raise FormError(f"unexpected field '{unknown[0]}'")
    for name, given in values.items():
        if len(given) > 1 and name not in repeatable:
            raise FormError(f"field '{name}' given {len(given)} times")
        if any(len(value) > 300 for value in given):
            raise FormError(f"field '{name}' is too long")
    return values


def _one(values: dict, name: str, default: str = "") -> str:
    return (values.get(name) or [default])[0].strip()


def _count(values: dict, name: str, default: int) -> int:
    low, high = BOUNDS[name]
    text = _one(values, name, str(default))
    if not re.fullmatch(r"\d{1,6}", text):
        raise FormError(f"{name}: a whole number from {low} to {high}")
    number = int(text)
    if not low <= number <= high:
        raise FormError(f"{name}: a whole number from {low} to {high}, not {number}")
    return number


def _seed(values: dict) -> str | None:
    seed = _one(values, "seed")
    if seed and not SEED.match(seed):
        raise FormError("seed: up to 32 letters, digits, '.', '_' and '-'")
    return seed or None


def _paper(values: dict) -> str | None:
    paper = _one(values, "paper").lower()
    if paper not in ("", "letter", "a4"):
        raise FormError("paper: letter or a4")
    return paper or None


def _classes(values: dict, known: list[str]) -> str | None:
    text = _one(values, "classes")
    if not text:
        return None
    if not re.fullmatch(r"[A-Za-z0-9 ,'-]+", text):
        raise FormError("classes: class names separated by commas")
    return text


def pack_request(values: dict) -> dict:
    """The pack form's fields as roll_characters_to_bytes' arguments."""
    return {"count": _count(values, "count", 12), "seed": _seed(values),
            "classes": _classes(values, []), "paper": _paper(values),
            "backs": _one(values, "backs") == "on"}


def kit_request(values: dict, includes: list[str]) -> KitRequest:
    from printshop.products.characters.kit import split_list

    tables, seats = _count(values, "tables", 2), _count(values, "seats", 5)
    per_seat = _count(values, "per_seat", 3)
    if tables * seats * per_seat > MAX_KIT_CHARACTERS:
        raise FormError(f"{tables * seats * per_seat} characters: a kit from this page has "
                        f"at most {MAX_KIT_CHARACTERS} (build bigger ones with printshop kit)")
    chosen = values.get("include", [])
    for name in chosen:
        if name not in includes:
            raise FormError(f"include: '{name}' is not offered")
    return KitRequest(tables=tables, seats=seats, per_seat=per_seat, seed=_seed(values),
                      paper=_paper(values), classes=split_list(_classes(values, [])),
                      include=list(dict.fromkeys(chosen)), backs=_one(values, "backs") == "on")


def offers(project) -> tuple[list[str], list[str]]:
    """(class names, what an envelope may include): the game's card and reference
    products and its sheet layouts."""
    try:
        classes = [c.name for c in project.classes.classes] if project.classes else []
    except Exception:   # noqa: BLE001 - a broken classes file: the forms say what is wrong
        classes = []
    kinds = {"cards", "reference"}
    products = [name for name, entry in project.manifest.products.items()
                if isinstance(entry, dict) and entry.get("kind") in kinds]
    sheets = sorted(p.stem for p in (project.root / "sheets").glob("*.yaml"))
    return classes, products + [s for s in sheets if s not in products]


def page(token: str, classes: list[str], includes: list[str], why_not: str | None) -> str:
    """The two forms. `why_not`: why this game cannot roll characters (no classes …)."""
    e = html.escape
    token_field = f'<input type="hidden" name="token" value="{e(token)}">'
    datalist = "".join(f'<option value="{e(c)}">' for c in classes)
    disabled = " disabled" if why_not else ""
    boxes = "".join(f'<label class="check"><input type="checkbox" name="include" '
                    f'value="{e(name)}"> {e(name)}</label>' for name in includes)
    paper = ('<label>Paper <select name="paper"><option value="">the game\'s</option>'
             '<option value="letter">Letter</option><option value="a4">A4</option>'
             '</select></label>')
    seed = ('<label>Seed <input name="seed" maxlength="32" pattern="[A-Za-z0-9][A-Za-z0-9._-]*"'
            ' placeholder="a new one"></label>')
    classes_field = ('<label>Classes <input name="classes" list="classes" '
                     'placeholder="all (or e.g. fighter, thief)"></label>')
    note = f'<p class="why-not" role="alert">{e(why_not)}</p>' if why_not else ""
    return f"""{note}<datalist id="classes">{datalist}</datalist>
<section><h2>Roll a pack</h2>
<form method="post" action="/make/pack" id="pack">{token_field}
<fieldset{disabled}>
<label>Characters <input name="count" type="number" min="1" max="{MAX_PACK}" value="12"
 required></label>
{seed} {classes_field} {paper}
<label class="check"><input type="checkbox" name="backs" checked> tombstone backs</label>
<button type="submit">Roll a pack</button></fieldset></form></section>
<section><h2>Build a kit</h2>
<form method="post" action="/make/kit" id="kit">{token_field}
<fieldset{disabled}>
<label>Tables <input name="tables" type="number" min="1" max="{BOUNDS['tables'][1]}"
 value="2" required></label>
<label>Seats a table <input name="seats" type="number" min="1" max="12" value="5"
 required></label>
<label>Characters a seat <input name="per_seat" type="number" min="1" max="10" value="3"
 required></label>
{seed} {classes_field} {paper}
<div class="includes">In every envelope: {boxes or "nothing more to include"}</div>
<label class="check"><input type="checkbox" name="backs" checked> tombstone backs</label>
<button type="submit">Build a kit</button></fieldset></form></section>
<section><h2>Made here</h2><ol id="jobs"></ol></section>"""
