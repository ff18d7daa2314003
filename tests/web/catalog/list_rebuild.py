"""Rebuild a shipped list from an empty one through the list editor's own form posts: the
posts a player's browser makes, field by field, button by button.

Each item is named by its position here and posted by its id, as the page's forms post it. A post the list
refuses for now (a maximum below the minimum still there, two columns naming one type for
a moment) is tried again once the others are in. A Dark Ages list's numbers are set last:
each one is refused alone (the six-unit total) with "Then ..." steps offered, and the
step taken is the one that moves another number towards the shipped list's.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.test import Client

from armybuilder.catalog.models import ArmyList
from rules.list_shape import ListShape, Section
from rules.rulesets.feudal_2017.lists import COLUMN_LABELS
from tests.web.catalog.list_items import by_id

HX = {"HX-Request": "true"}
THEN = re.compile(
    r'name="then" value="(\d+)"><input type="hidden" name="then_text" value="([^"]+)"'
)
STEP = re.compile(r"(raise|lower) (.+?)’s (How many|Units to pick) from (\d+) to (\d+)")
NUMBERS = {"required": "count", "choices": "pick"}  # a Dark Ages list's six units
NO_NEARER = 0  # a "then" step that brings no count nearer the list being rebuilt


class Rebuild:
    def __init__(self, client: Client, made: ArmyList, shape: ListShape) -> None:
        self.client, self.made, self.shape = client, made, shape
        self.url = f"/rulesets/{made.ruleset}/lists/{made.slug}/edit/"
        self.later: list[dict[str, Any]] = []
        self.posts = 0
        self.target: dict[str, Any] = {}

    def post(self, form: dict[str, Any]) -> Any:
        self.posts += 1
        return self.client.post(self.url, by_id(self.made, form), headers=HX)

    def data(self) -> dict[str, Any]:
        self.made.refresh_from_db()
        return self.made.data

    def send(self, form: dict[str, Any]) -> None:
        """Post one change; when refused with "Then ..." steps, take the one that gives
        another field its shipped value (else the first); a plain refusal is tried again
        later."""
        response = self.post(form)
        if response.status_code == 200:
            return
        steps = THEN.findall(response.content.decode())
        if not steps:
            self.later.append(form)
            return
        choice, text = max(steps, key=lambda step: self.wanted(step[1]))
        assert self.post({**form, "then": choice, "then_text": text}).status_code == 200

    def wanted(self, text: str) -> bool:
        """Whether a "Then ..." step gives a Feudal column its shipped type."""
        columns = self.target.get("columns") or {}
        return any(
            f"{label} becomes {str(columns.get(column)).capitalize()}." in text
            for column, label in COLUMN_LABELS.items()
        )

    def with_first_step(self, form: dict[str, Any]) -> None:
        """Post a change that may break a Dark Ages list's total: take the first step."""
        response = self.post(form)
        if response.status_code == 200:
            return
        page = response.content.decode()
        steps = THEN.findall(page)
        assert steps, re.findall(r'class="refusal".*?</p>', page, re.S) or page[:2000]
        choice, text = steps[0]
        assert self.post({**form, "then": choice, "then_text": text}).status_code == 200

    # -- the content ------------------------------------------------------------------

    def fields(self, section: Section, index: str | None, target: dict[str, Any]) -> None:
        base = {"op": "set", "section": section.key}
        if index is not None:
            base["index"] = index
        deferred = NUMBERS.get(section.key) or ("max" if section.within else None)
        for f in section.fields:
            if f.name == deferred and "required" in self.target:
                continue  # the numbers come last
            value = target.get(f.name)
            if f.kind == "boolean":
                if f.name in target:
                    self.send({**base, "field": f.name, "value": "true" if value else "false"})
                continue
            if value is None:
                posted = ""
            elif f.kind == "choice":
                posted = json.dumps(value)
            elif f.kind == "lines":
                posted = "\n".join(value)
            else:
                posted = str(value)
            self.send({**base, "field": f.name, "value": posted})
        if not section.values_key:
            return
        match = target.get(section.values_key, {})
        names = [v.name for v in section.values]
        for name in sorted(names, key=lambda n: n not in match):  # the new ones first
            values = [json.dumps(v) for v in match.get(name, [])]
            self.send({**base, "op": "values", "field": name, "value": values})

    def section(self, section: Section, target: dict[str, Any]) -> None:
        if section.single:
            self.fields(section, None, target if not section.key else target[section.key])
            return
        wanted = target.get(section.key, [])
        inner = next((s for s in self.shape.sections if s.within == section.key), None)
        for n, item in enumerate(wanted):
            if n >= len(self.data().get(section.key, [])):
                self.with_first_step({"op": "add", "section": section.key})
            self.fields(section, str(n), item)
            if inner is not None:
                self.nested(inner, n, item.get(inner.key, []))
        while len(self.data().get(section.key, [])) > len(wanted):
            last = str(len(self.data()[section.key]) - 1)
            self.with_first_step({"op": "remove", "section": section.key, "index": last})

    def nested(self, section: Section, holder: int, wanted: list[dict[str, Any]]) -> None:
        def have() -> list[Any]:
            return self.data()[section.within][holder].get(section.key, [])

        for n, item in enumerate(wanted):
            if n >= len(have()):
                assert (
                    self.post(
                        {"op": "add", "section": section.key, "index": str(holder)}
                    ).status_code
                    == 200
                )
            self.fields(section, f"{holder}.{n}", item)
        while len(have()) > len(wanted):
            last = f"{holder}.{len(have()) - 1}"
            assert (
                self.post({"op": "remove", "section": section.key, "index": last}).status_code
                == 200
            )

    def numbers(self, target: dict[str, Any]) -> None:
        """Each Dark Ages number set to the shipped one, each with the step that moves
        another number towards its own."""
        wanted = {
            item["key"]: (key, n, item[number])
            for key, number in NUMBERS.items()
            for n, item in enumerate(target[key])
        }
        by_name = {item["name"]: item["key"] for key in NUMBERS for item in target[key]}
        for _ in range(4 * len(wanted)):
            data = self.data()
            off = [
                (key, n, number, wanted[item["key"]][2])
                for key, number in NUMBERS.items()
                for n, item in enumerate(data[key])
                if item[number] != wanted[item["key"]][2]
            ]
            if not off:
                return
            key, n, number, value = off[0]
            form = {"op": "set", "section": key, "index": str(n), "field": number,
                    "value": str(value)}  # fmt: skip
            response = self.post(form)
            if response.status_code == 200:
                continue
            page = response.content.decode()
            steps = THEN.findall(page)
            assert steps, re.findall(r'class="refusal".*?</p>', page, re.S) or page[:2000]
            current = {i["key"]: i[nb] for k, nb in NUMBERS.items() for i in data[k]}

            def towards(step: tuple[str, str], current: dict[str, int] = current) -> int:
                found = STEP.search(step[1].replace("&#x27;", "'"))
                if found is None:
                    return NO_NEARER
                name_key = by_name.get(found[2])
                if name_key is None:
                    return NO_NEARER
                goal = wanted[name_key][2]
                return abs(current[name_key] - goal) - abs(int(found[5]) - goal)

            choice, text = max(steps, key=towards)
            assert self.post({**form, "then": choice, "then_text": text}).status_code == 200
        raise AssertionError("the numbers never settled")

    def run(self, shipped: ArmyList) -> None:
        self.target = shipped.data
        for name in ("name", "period", "source_note"):
            self.send({"op": "meta", "field": name, "value": getattr(shipped, name)})
        for section in self.shape.sections:
            if not section.within:
                self.section(section, shipped.data)
        if "required" in shipped.data:  # a Dark Ages list
            self.numbers(shipped.data)
            for g, group in enumerate(shipped.data["choices"]):
                for o, option in enumerate(group["options"]):
                    self.send({"op": "set", "section": "options", "index": f"{g}.{o}",
                               "field": "max", "value": str(option["max"])})  # fmt: skip
        for _ in range(3):  # what was refused for a moment, now that the rest is in
            waiting, self.later = self.later, []
            for form in waiting:
                self.send(form)
        assert not self.later, self.later
