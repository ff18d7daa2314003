"""`manage.py muster hits`: one combat from JSON worked out on stdout, exit 0; a combat the
source does not allow is refused on stderr naming the field and its allowed values, exit 2."""

import json

import pytest
from django.core.management import call_command

KNIGHTS_ON_SERJEANTS = {
    "ruleset": "feudal-2017",
    "phase": "melee",
    "attacker": {"type": "knights"},
    "target": {"type": "serjeants"},
    "modifiers": ["uphill_or_obstacle"],
    "die": 5,
    "target_hits": 13,
}


def run_hits(tmp_path, capsys, combat):
    path = tmp_path / "combat.json"
    path.write_text(json.dumps(combat) if not isinstance(combat, str) else combat)
    with pytest.raises(SystemExit) as exited:
        call_command("muster", "hits", str(path))
        raise SystemExit(0)
    out, err = capsys.readouterr()
    return exited.value.code, out, err


def test_a_combat_prints_its_hits_step_by_step_with_sections_and_exits_0(tmp_path, capsys):
    code, out, err = run_hits(tmp_path, capsys, KNIGHTS_ON_SERJEANTS)
    assert (code, err) == (0, "")
    result = json.loads(out)
    # 5 + 2 = 7, uphill and armoured: 7/4 = 1 3/4 -> 2 (3.2e-f); 13 + 2 = 15: removed (3.4)
    assert result["hits"] == 2 and result["total"] == 15
    assert result["verdict"]["outcome"] == "removed" and result["verdict"]["when"] == "now"
    assert {s["section"] for s in result["steps"]} == {"3.2 Resolving Mêlée"}
    assert [r["code"] for r in result["rulings"]] == ["C1", "C2"]


def test_a_modifier_the_source_does_not_allow_is_refused_with_the_allowed_ones(tmp_path, capsys):
    combat = {**KNIGHTS_ON_SERJEANTS, "modifiers": ["woods_charged"]}
    code, out, err = run_hits(tmp_path, capsys, combat)
    assert (code, out) == (2, "")
    assert "woods_charged not allowed" in err
    assert "allowed: uphill_or_obstacle, flank, rear" in err


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"ruleset": "chess"}, "ruleset: 'chess' is not a rule set whose combat"),
        ({"phase": "lunch"}, "phase: 'lunch' is not a phase of this rule set; allowed: shoot, "
                             "move, melee, rally"),
        ({"die": 9}, "9 is not a face of the D6; allowed: 1, 2, 3, 4, 5, 6"),
        ({"attacker": {"type": "knight"}}, "attacker.type: 'knight' is not one of knights"),
        ({"target_hits": -1}, "target_hits: must be a whole number from 0"),
        ({"colour": "red"}, "colour: unknown key; allowed keys: ruleset, phase"),
    ],
)  # fmt: skip
def test_refusals_name_the_field_and_what_is_allowed(tmp_path, capsys, change, words):
    code, out, err = run_hits(tmp_path, capsys, {**KNIGHTS_ON_SERJEANTS, **change})
    assert code == 2 and out == ""
    assert words in err


def test_a_file_that_is_not_json_exits_2(tmp_path, capsys):
    code, _, err = run_hits(tmp_path, capsys, "{not json")
    assert code == 2 and err.startswith("error:")
