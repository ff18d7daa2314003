"""Test armies that raise every check code of every rule set, for the tests that compare the
documented codes with the raised ones and check every issue's citation.

``CORPUS[slug][code]`` is a list of army documents, each raising ``code`` (a code with several
ways to break it, or several citations, has one army per way).
"""

import copy
from typing import Any

from tests.rules.dark_ages import test_dark_ages_2015, test_dark_ages_d5
from tests.rules.into_the_dark.test_into_the_dark_lists import LEGAL, OVER_LIMIT, STRANGERS
from tests.support import army, example

Doc = dict[str, Any]

# -- Into the Dark ---------------------------------------------------------------------------

ITD_UNIT = {"name": "Huscarls", "figures": 12, "quality": "elite", "density": "close",
            "armour": "mailed", "training": "melee"}  # fmt: skip
ITD_MIXED = {"figures": 4, "density": "loose", "armour": "unarmoured", "mounted": False}


def _itd(*changes: dict[str, Any], **top: Any) -> Doc:
    return army("into-the-dark", [dict(ITD_UNIT, **c) for c in changes], **top)


def _itd_list(slug: str, units: list[dict[str, Any]]) -> Doc:
    return army("into-the-dark", copy.deepcopy(units), army_list=slug)


_swiss = LEGAL["swiss"]
_over_name, _over_change = next(iter(OVER_LIMIT.values()))
_over_slug = next(iter(OVER_LIMIT))
_GENERAL = {"name": "Harold", "rating": "good", "commanding": True}

ITD: dict[str, list[Doc]] = {
    "champion-figures": [_itd({"figures": 3, "champion": True, "density": "open"})],
    "missing-missile-weapon": [_itd({"training": "missile"})],
    "melee-with-missile-weapon": [_itd({"missile_weapon": "javelin"})],
    "swat-not-cross-trained": [
        _itd({"training": "cross_trained", "missile_weapon": "longbow"}),
        _itd({"training": "cross_trained", "missile_weapon": "javelin", "melee_weapon": "pike"}),
    ],
    "weapon-wrong-arm": [
        _itd({"mounted": True, "training": "missile", "missile_weapon": "foot_bow"}),
        _itd({"training": "missile", "missile_weapon": "mounted_bow"}),
        _itd({"mounted": True, "melee_weapon": "pike"}),
    ],
    "shieldwall-not-close-foot": [
        _itd({"density": "loose", "shieldwall": True}),
        _itd({"training": "missile", "missile_weapon": "foot_bow", "shieldwall": True}),
    ],
    "peasant-swat": [_itd({"quality": "peasant", "melee_weapon": "polearm"})],
    "warband-mounted": [_itd({"mounted": True, "warband": True})],
    "skirmishers-not-open-missile": [_itd({"skirmishers": True})],
    "champion-not-open": [_itd({"figures": 1, "champion": True})],
    "too-few-figures": [_itd({"figures": 1}), _itd({"figures": 3})],
    "mixed-unit": [
        _itd({"figures": 4, "mixed": ITD_MIXED}),
        _itd({"mixed": dict(ITD_MIXED, density="close", armour="mailed")}),
        _itd({"figures": 1, "champion": True, "density": "open", "mixed": ITD_MIXED}),
        _itd({"figures": 390, "mixed": dict(ITD_MIXED, figures=20)}),
    ],
    "over-points-limit": [_itd({}, points_limit=10)],
    "no-commanding-general": [  # every unit in a division, but no general commands
        _itd(
            {"division": "Harold"},
            options={"command_and_control": True},
            generals=[dict(_GENERAL, commanding=False)],
        ),
    ],
    "unknown-division": [_itd({"division": "Nobody"})],
    "unassigned-unit": [
        _itd({}, options={"command_and_control": True}, generals=[_GENERAL]),
    ],
    "division-size": [_itd({"division": "Harold"}, generals=[_GENERAL])],
    "not-in-army-list": [_itd_list("swiss", [*_swiss, STRANGERS["swiss"]])],
    "army-list-min": [  # no halberdiers: another pike unit instead
        _itd_list(
            "swiss",
            [
                dict(u, name="Pike 5", melee_weapon="pike") if u["name"] == "Halberdiers" else u
                for u in _swiss
            ],
        ),
    ],  # fmt: skip
    "army-list-max": [_itd_list("swiss", [*_swiss, *[copy.deepcopy(_swiss[0])] * 12])],
    "army-list-limit": [
        _itd_list(
            _over_slug,
            [dict(u, **_over_change) if u["name"] == _over_name else u for u in LEGAL[_over_slug]],
        ),
    ],  # fmt: skip
}

# -- Dewitt ------------------------------------------------------------------------------------


def _dewitt(*changes: dict[str, Any], **top: Any) -> Doc:
    base = {"name": "Unit", "arm": "foot", "class": "light", "stands": 4}
    return army("dewitt-medieval", [dict(base, **c) for c in changes], **top)


DEWITT: dict[str, list[Doc]] = {
    "weapon-wrong-arm": [
        _dewitt({"weapons": ["lance"]}),
        _dewitt({"arm": "cavalry", "weapons": ["pike"]}),
    ],  # fmt: skip
    "unit-size": [_dewitt({"stands": 1}), _dewitt({"stands": 7})],
    "over-points-limit": [_dewitt({}, points_limit=1)],
    "c-in-c-count": [_dewitt({"command": "c_in_c"}, {"command": "c_in_c"}), _dewitt({})],
    # against a player's list (the source has none): LISTS below
    "not-in-army-list": [_dewitt({"weapons": ["bow"]}, {"class": "medium"}, army_list="bows")],
    "army-list-min": [_dewitt({"class": "heavy"}, army_list="bows")],
    "army-list-max": [_dewitt(*({"weapons": ["bow"]},) * 3, army_list="bows")],
}
_BOWS = {"key": "bows", "name": "Bows", "match": {"class": ["light"], "weapons": ["bow"]}}
_CHIEF = {"key": "chief", "name": "Chief", "match": {"class": ["heavy"]}, "max": 1}

# Players' lists the corpus armies are checked against, with the fixtures' own lists.
LISTS: dict[str, dict[str, dict[str, Any]]] = {
    "dewitt-medieval": {"bows": {"entries": [{**_BOWS, "min": 1, "max": 2}, _CHIEF]}},
}

# -- Feudal --------------------------------------------------------------------------------------


def _feudal(**by_index: dict[str, Any]) -> Doc:
    doc = copy.deepcopy(example("feudal-2017-roll-4.json"))
    for key, fields in by_index.items():
        if key == "options":
            doc["options"] = fields
        else:
            doc["units"][int(key[1:])].update(fields)
    return doc


_short = _feudal(u0={"banner": False})
_short["units"] = _short["units"][:5]

FEUDAL: dict[str, list[Doc]] = {
    "matrix-mismatch": [_feudal(u5={"type": "cavalry"})],
    "army-size": [_short],
    "crossbow-balance": [
        _feudal(u4={"mercenary_crossbows": True}),
        _feudal(u1={"balance": "mounted_serjeants"}),
        _feudal(u5={"mercenary_crossbows": True}),
        _feudal(u4={"mercenary_crossbows": True}, u5={"balance": "mounted_serjeants"}),
        _feudal(
            u4={"mercenary_crossbows": True},
            u1={"balance": "mounted_serjeants"},
            u5={"balance": "unwilling_levy"},
        ),
    ],  # fmt: skip
    "too-many-personalities": [_feudal(u1={"personality": "constable"})],
    "banner-unit": [
        _feudal(
            u4={"personality": "bow_marshal", "banner": True},
            u0={"banner": False, "personality": None},
        ),
        _feudal(u1={"banner": True}, u0={"banner": False}),
    ],  # fmt: skip
    "horse-marshal-unit": [_feudal(u4={"personality": "horse_marshal"}, u0={"banner": False})],
    "bow-marshal-unit": [_feudal(u1={"personality": "bow_marshal"}, u0={"banner": False})],
    "advantage-limit": [
        _feudal(
            u1={"advantage": "determined"},
            u2={"advantage": "impetuous"},
            u5={"disadvantage": "unenthusiastic"},
        ),
        _feudal(u1={"disadvantage": "unenthusiastic"}, u2={"disadvantage": "melee_minus"}),
        _feudal(u1={"advantage": "woods"}, u5={"disadvantage": "unenthusiastic"}),
    ],  # fmt: skip
    "advantage-unbalanced": [_feudal(u5={"advantage": "determined"})],
    "one-modification-per-unit": [
        _feudal(
            u4={"mercenary_crossbows": True, "advantage": "extra_missiles"},
            u1={"balance": "mounted_serjeants"},
            u5={"disadvantage": "melee_minus"},
        ),
    ],  # fmt: skip
    "modifier-cap": [
        _feudal(u1={"advantage": "melee_plus"}, u5={"disadvantage": "melee_minus"}),
    ],
    "modifications-cancel": [
        _feudal(u5={"advantage": "determined", "disadvantage": "unenthusiastic"}),
        _feudal(u4={"advantage": "shoot_plus", "disadvantage": "shoot_minus"}),
    ],
    "trained-disabled": [_feudal(u1={"trained": True})],
    "dismounted-not-serjeants": [_feudal(u1={"dismounted": True})],
    "modification-not-applicable": [
        _feudal(u1={"disadvantage": "runs_out_5_6"}),
        _feudal(u4={"disadvantage": "three_shots"}),
        _feudal(
            u4={"advantage": "extra_missiles"},
            u5={"disadvantage": "unenthusiastic"},
            options={"missile_supply": "four_shots"},
        ),
    ],  # fmt: skip
}

# -- the Dark Ages rule sets: their own test modules' cases ------------------------------------


def _cases(slug: str, cases: dict[str, tuple[list[dict[str, Any]], dict[str, Any]]]):
    return {
        code: [army(slug, copy.deepcopy(units), **copy.deepcopy(top))]
        for code, (units, top) in cases.items()
    }


CORPUS: dict[str, dict[str, list[Doc]]] = {
    "into-the-dark": ITD,
    "dewitt-medieval": DEWITT,
    "feudal-2017": FEUDAL,
    "dark-ages-2015": _cases("dark-ages-2015", test_dark_ages_2015.CASES),
    "dark-ages-d5": _cases("dark-ages-d5", test_dark_ages_d5.CASES),
}


def _da(slug: str, *units: dict[str, Any], **top: Any) -> Doc:
    return army(slug, [dict(u) for u in units], **top)


def _inf(n: int, **fields: Any) -> list[dict[str, Any]]:
    return [{"name": f"Spears {i + 1}", "type": "infantry", **fields} for i in range(n)]


_FLAG = {"name": "Flag", "type": "infantry", "banner": True}
_ALLY = {"type": "infantry", "ally": "strathclyde-welsh"}
# The Dark Ages cases above come from their own test modules, built to raise a code; where
# one also broke a second rule, one army here makes the one mistake alone.
CORPUS["dark-ages-2015"].update({
    "banner-needs-hero-or-leader": [_da("dark-ages-2015", *_inf(5), _FLAG)],
    "missing-required-unit": [
        _da("dark-ages-2015", *_inf(3), {"name": "Gesiths", "type": "warband"},
            {"name": "Bows", "type": "skirmishers", "missile": "bow"}, army_list="anglo-saxon"),
    ],
    "variant-type-mismatch": [
        _da("dark-ages-2015", *_inf(5), {"name": "Militia", "type": "warband",
                                         "variant": "roman_militia"}),
    ],
})  # fmt: skip
CORPUS["dark-ages-d5"].update({
    "banner-needs-hero-or-leader": [_da("dark-ages-d5", *_inf(5), _FLAG)],
    "ally-count": [
        _da("dark-ages-d5", *_inf(2), *({"name": f"Ally {i}", **_ALLY} for i in range(3)),
            {"name": "Teulu", "type": "cavalry", "ally": "strathclyde-welsh"}),
    ],
    "ally-personality": [
        _da("dark-ages-d5", *_inf(4), {"name": "Ally 1", **_ALLY, "personality": "hero"},
            {"name": "Ally 2", **_ALLY}),
    ],
    "attack-modifier-cap": [
        _da("dark-ages-d5", *_inf(5, change=None)[:4], {"name": "Levy", "type": "infantry",
            "change": "levy"}, {"name": "Knights", "type": "cavalry", "missile": "javelin",
            "variant": "roundtable_knights", "change": "household"}),
    ],
    "missing-required-unit": [
        _da("dark-ages-d5", *_inf(3), {"name": "Gesiths", "type": "warriors"},
            {"name": "Bows", "type": "skirmishers", "missile": "bow"}, army_list="anglo-saxon"),
    ],
    "quality-conflicts-change": [
        _da("dark-ages-d5", {"name": "Guard", "type": "infantry", "quality": "elite",
            "change": "reluctant"}, {"name": "Levy", "type": "infantry", "quality": "levy"},
            {"name": "Hearth", "type": "infantry", "change": "household"}, *_inf(3),
            options={"variable_quality": True}),
    ],
})  # fmt: skip
# one mistake: cavalry, which the Anglo-Saxon list does not offer (the shared case also
# fields a fifth infantry unit, a second mistake since the list allows four)
CORPUS["dark-ages-d5"]["choice-not-allowed"] = [
    army("dark-ages-d5", [*({"name": f"Fyrd {i}", "type": "infantry"} for i in range(4)),
                          {"name": "Gesiths", "type": "warriors"},
                          {"name": "Horse", "type": "cavalry"}], army_list="anglo-saxon"),
]  # fmt: skip
