"""What a rolled character is: plain, frozen data (stats, saves, attacks, skills, spells, kit)
that sheets, cards and the JSON export all read. `printshop.roll.characters` rolls it."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

@dataclass(frozen=True)
class Skill:
    name: str
    stat: str


@dataclass(frozen=True)
class Spell:
    name: str
    summary: str


@dataclass(frozen=True)
class ThiefSkill:
    name: str
    stat: str
    edge: str | None  # "advantage", "disadvantage" or None


@dataclass(frozen=True)
class AbilityNote:
    name: str
    reminder: str
    tracker_uses: int = 0
    tracker_resets: str | None = None  # "day", "adventure" or "never"
    steps: tuple[str, ...] = ()


@dataclass(frozen=True)
class Weapon:
    name: str
    size: str
    use: str
    note: str | None
    deals_damage: bool


@dataclass(frozen=True)
class Item:
    name: str
    quantity: int
    kind: str  # weapon, ammo, armour, shield, light, gear


@dataclass(frozen=True)
class Armour:
    name: str
    type: str
    bonus: int


@dataclass(frozen=True)
class Shield:
    name: str
    bonus: int


@dataclass(frozen=True)
class Rolls:
    class_dice: tuple[int, ...]     # the faces of the (last) class roll
    follow_up: int | None           # the human's d4 (a `then:` roll), else None
    stats: tuple[int, ...]          # the six 3d6 totals, in roll order


@dataclass(frozen=True)
class Character:
    pack_seed: str
    index: int
    class_id: str
    class_name: str
    role: str
    rolls: Rolls
    stats: dict[str, int]
    mods: dict[str, int]
    prime_stats: tuple[str, ...]
    level: int
    tier: int
    xp: int
    xp_next: int
    hit_die: str
    hp: int
    ac: int
    armour: Armour | None
    shield: Shield | None
    attack_rank: str
    attack_bonus: int
    attack_dice: int
    melee_attack: int
    melee_damage: int
    missile_attack: int
    movement: int
    saves: dict[str, int]
    save_qualities: dict[str, str]
    save_stats: dict[str, str | None]
    alignment: str
    skills: tuple[Skill, ...]
    languages: tuple[str, ...]
    spells: tuple[Spell, ...]
    spell_list: str | None          # "Magic-User" or "Cleric": the list the spells come from
    spell_failure: int | None       # % chance in the armour worn, for classes that risk it
    bailiwick: str | None
    failing: str | None
    class_thief_skills: tuple[ThiefSkill, ...]
    abilities: tuple[AbilityNote, ...]
    weapons: tuple[Weapon, ...]
    equipment: tuple[Item, ...]
    background: str
    personality: str
    appearance: str
    gear_limits: str = ""
    extra_attack_dice_at: tuple[int, ...] = field(default_factory=tuple)

    @property
    def id(self) -> str:
        """What the sheet prints: `--seed SEED` re-rolls character `#index`."""
        return f"{self.pack_seed} #{self.index}"

    @property
    def damage_die(self) -> str:
        return self.hit_die

    def to_json(self) -> dict:
        """The export format documented in the README (keys are a public interface)."""
        follow = self.rolls.follow_up
        return {
            "id": self.id,
            "index": self.index,
            "class": self.class_id,
            "class_name": self.class_name,
            "rolls": {"class": list(self.rolls.class_dice), "human": follow,
                      "stats": list(self.rolls.stats)},
            "stats": dict(self.stats),
            "mods": dict(self.mods),
            "prime_stats": list(self.prime_stats),
            "level": self.level,
            "tier": self.tier,
            "xp": self.xp,
            "xp_next": self.xp_next,
            "hit_die": self.hit_die,
            "hp": self.hp,
            "ac": self.ac,
            "armour": asdict(self.armour) if self.armour else None,
            "shield": asdict(self.shield) if self.shield else None,
            "attack_rank": self.attack_rank,
            "attack_dice": self.attack_dice,
            "melee_attack": self.melee_attack,
            "melee_damage": self.melee_damage,
            "missile_attack": self.missile_attack,
            "damage_die": self.damage_die,
            "movement": self.movement,
            "saves": dict(self.saves),
            "save_qualities": dict(self.save_qualities),
            "alignment": self.alignment,
            "skills": [asdict(s) for s in self.skills],
            "languages": list(self.languages),
            "spells": [s.name for s in self.spells],
            "spell_failure": self.spell_failure,
            "thief_skills": ({"bailiwick": self.bailiwick, "failing": self.failing}
                             if self.bailiwick else None),
            "abilities": [{"name": a.name, "reminder": a.reminder,
                           "uses": a.tracker_uses or None, "resets": a.tracker_resets}
                          for a in self.abilities],
            "weapons": [w.name for w in self.weapons],
            "equipment": [{"name": i.name, "quantity": i.quantity, "kind": i.kind}
                          for i in self.equipment],
            "background": self.background,
            "personality": self.personality,
            "appearance": self.appearance,
        }


# --- the steps ---------------------------------------------------------------------------
