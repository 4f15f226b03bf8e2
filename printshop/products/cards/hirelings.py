"""Hireling cards: rolled hirelings as cards of a hireling deck (`deal: hirelings`), for a
card product and for `printshop roll hirelings`, which writes a pack of them as a PDF, PNGs
or JSON with a manifest product's card settings."""

from __future__ import annotations

import json
from pathlib import Path

from printshop.errors import PrintshopError, Problem, Problems
from printshop.output import BuildOutput
from printshop.products import BuildContext, Product
from printshop.products.cards.compose import check_templates
from printshop.products.cards.render import build_cards
from printshop.products.cards.settings import (
    CardsOptions,
    DeckGroup,
    group_size,
    impose_groups,
    resolve_settings,
)
from printshop.source.decks import Card, Deck, load_deck


def hireling_cards(deck: Deck, tables, seed: str, per_tier: dict | None = None,
                   count: int | None = None, tier: int | None = None) -> list[Card]:
    """Rolled hireling cards (by tier when `per_tier`), then the deck's rules cards."""
    from printshop.roll.hirelings import roll_hirelings

    if per_tier is not None:
        hirelings = [h for t in sorted(per_tier) for h in
                     roll_hirelings(tables, seed, per_tier[t], tier=t)]
    else:
        hirelings = roll_hirelings(tables, seed, count or 0, tier=tier)
    template = deck.spec.template or "cards/hireling.html.j2"
    cards = [hireling_card(deck, tables, h, template, n + 1) for n, h in enumerate(hirelings)]
    return cards + [c for c in deck.cards if c.data.get("kind") == "rules"]


def hireling_card(deck: Deck, tables, hireling, template: str, number: int) -> Card:
    data = {"kind": "hireling", **hireling.as_data(), "id": f"{deck.spec.code} · {hireling.id}",
            "number": number}
    tier = "" if hireling.forced_tier is None else f"-t{hireling.forced_tier}"
    return Card(number=number, id=data["id"], template=template, data=data,
                file_stem=f"{deck.spec.code}-{hireling.seed}{tier}-{hireling.index:03d}",
                path=tables.professions.path, line=hireling.profession_line,
                label=f"{hireling.name}, {hireling.profession}; quirk from "
                      f"tables/{tables.quirks.path.name}:{hireling.quirk_line}")


def hirelings_json(hirelings) -> str:
    return json.dumps([h.as_data() for h in hirelings], indent=2, ensure_ascii=False) + "\n"


# --- printshop roll hirelings ----------------------------------------------------------------

class _RollProduct(Product):
    """Lets `roll hirelings` share the card settings of a manifest product."""

    kind = "cards"
    Options = CardsOptions


def roll_hireling_pack(source: Path, seed: str, count: int, tier: int | None, fmt: str,
                       out: Path | None, paper: str | None, card_options: dict,
                       deck_id: str = "hirelings", jobs: int | None = None, progress=None,
                       strict: bool = False, first: int = 1,
                       out_dir: Path = Path("build")
                       ) -> tuple[list[Path], list, list[Problem]]:
    """Roll `count` hirelings and write them as a PDF, JSON or a folder of PNGs.

    Returns the written paths, the hirelings and any warnings. Nothing is written unless
    everything succeeded.
    """
    from printshop.output import write_atomic
    from printshop.project import Project
    from printshop.render.renderer import Renderer, lost_words_fail_after
    from printshop.roll.hirelings import hireling_tables, roll_hirelings

    project = Project.load(source)
    deck = load_deck(project, deck_id, where=("--deck", None))
    if deck.spec.deal != "hirelings":
        raise PrintshopError.at("--deck", f"deck '{deck_id}' is not a hireling deck (its "
                                "deal is not hirelings)")
    assert deck.spec.hirelings is not None    # (a hireling deck's settings)
    tables = hireling_tables(project.tables, deck.spec.hirelings, deck.path)
    if tier is not None and tier not in tables.tier_numbers:
        raise PrintshopError.at("--tier", f"no tier {tier} in "
                                f"tables/{tables.tiers_table.path.name} (tiers: "
                                f"{', '.join(map(str, tables.tier_numbers))})")
    hirelings = roll_hirelings(tables, seed, count, tier, first)
    stem = f"hirelings-{seed}" + (f"-tier{tier}" if tier is not None else "") + \
        (f"-{first}" if first != 1 else "")
    if fmt == "json":
        target = out or out_dir / f"{stem}.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        return [write_atomic(target, hirelings_json(hirelings).encode("utf-8"))], hirelings, []
    options = CardsOptions.model_validate({"kind": "cards", "decks": [deck_id], "seed": seed,
                                           "count": count, "formats": [fmt]})
    product = _RollProduct(project, stem, options)
    ctx = BuildContext(project=project, paper=paper, strict=strict, progress=progress,
                       card_options={k: v for k, v in card_options.items() if k != "formats"})
    problems = Problems()
    settings = resolve_settings(product, ctx, problems)
    template = deck.spec.template or "cards/hireling.html.j2"
    cards = [hireling_card(deck, tables, h, template, n + 1) for n, h in enumerate(hirelings)]
    size, where = group_size(deck, settings)
    groups = [DeckGroup(deck, cards, size, where)]
    problems.raise_if_any()
    impose_groups(groups, settings, problems)
    problems.raise_if_any()
    check_templates(project, groups)
    output = BuildOutput(Path("."))
    from printshop.products import markup

    with Renderer(processes=jobs) as renderer, lost_words_fail_after(), \
            markup.collecting(ctx.warn, project.manifest_path or project.root):
        ctx.renderer = renderer
        build_cards(ctx, output, stem, f"{deck.spec.title} (seed {seed})", groups, settings,
                    project)
    if strict and ctx.warnings:
        raise PrintshopError([Problem(w.path, f"{w.message} (--strict: warnings are errors)",
                                      w.line, w.column) for w in ctx.warnings])
    written = []
    if fmt == "pdf":
        target = out or out_dir / f"{stem}.pdf"
        target.parent.mkdir(parents=True, exist_ok=True)
        written.append(write_atomic(target, output.files[f"{stem}.pdf"]))
    else:
        folder = out or out_dir / stem
        images = BuildOutput(folder)
        for name, data in output.files.items():
            images.add(name.split("/", 1)[1], data)
        written = images.commit()
    return written, hirelings, ctx.warnings
