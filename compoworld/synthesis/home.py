"""Home automation of compiled services: a service whose tools are a Home Assistant's (`get_entity`,
`entity_action`, `list_entities`, `domain_summary_tool`, `call_service_tool`, `get_history`...) holds
one home of devices, and its tools read and switch them as Home Assistant does.

Before this, Hass-MCP's tools compiled to records of no kind ("Entity 3, as recorded.") and
`entity_action(entity_id, action)`, which switches a light, was a read that changed nothing.

The home is the same for the same seed: lights, switches, a fan, sensors that only report, a lock,
a garage door, a thermostat, a TV and two automations. An entity is `domain.object_id`; its state is
what Home Assistant reports ("on", "off", "locked", "21.5"); switching it changes its state and its
`last_changed` (on the service's clock) and adds to its history. A sensor cannot be switched, an
action its domain does not have is refused, and a refused call changes nothing.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from compoworld.canonical import format_timestamp
from compoworld.services.service import Record
from compoworld.services.tool import NotFoundError, ToolError
from compoworld.synthesis.naming import snake
from compoworld.synthesis.plan import EntityPlan, FieldPlan, ToolPlan

HOME_ENTITIES = "home_entities"
HOME_ENTITY_SEM = "home_entity_id"  # what a parameter naming a device takes: samplers pass the home's entity ids

# command -> whether it only reads
COMMANDS: dict[str, bool] = {"get_entity": True, "entity_action": False, "list_entities": True, "search_entities": True,
                             "domain_summary": True, "system_overview": True, "list_automations": True, "call_service": False,
                             "get_history": True}
HOME_WORDS = frozenset({"hass", "homeassistant"})

# (entity id, friendly name, state, attributes)
DEVICES: list[tuple[str, str, str, dict[str, Any]]] = [
    ("light.living_room", "Living Room Light", "on", {"brightness": 180, "color_mode": "brightness"}),
    ("light.kitchen", "Kitchen Light", "off", {"color_mode": "onoff"}),
    ("light.bedroom", "Bedroom Light", "off", {"color_mode": "brightness"}),
    ("light.porch", "Porch Light", "on", {"brightness": 120, "color_mode": "brightness"}),
    ("switch.coffee_maker", "Coffee Maker", "off", {}),
    ("switch.garden_pump", "Garden Pump", "on", {}),
    ("fan.bedroom", "Bedroom Fan", "off", {"percentage": 0}),
    ("sensor.living_room_temperature", "Living Room Temperature", "21.5", {"unit_of_measurement": "°C", "device_class": "temperature"}),
    ("sensor.outdoor_humidity", "Outdoor Humidity", "64", {"unit_of_measurement": "%", "device_class": "humidity"}),
    ("binary_sensor.front_door", "Front Door", "off", {"device_class": "door"}),
    ("lock.front_door", "Front Door Lock", "locked", {}),
    ("cover.garage_door", "Garage Door", "closed", {"device_class": "garage"}),
    ("climate.thermostat", "Thermostat", "heat", {"temperature": 21, "current_temperature": 20.5, "hvac_modes": ["off", "heat", "cool"]}),
    ("media_player.living_room_tv", "Living Room TV", "off", {}),
    ("automation.morning_lights", "Morning lights", "on", {"last_triggered": None}),
    ("automation.away_mode", "Away mode", "off", {"last_triggered": None}),
]
# what an action does to an entity of a domain: action -> new state ("toggle" flips between the two)
ACTIONS: dict[str, dict[str, str]] = {
    "light": {"on": "on", "off": "off"}, "switch": {"on": "on", "off": "off"}, "fan": {"on": "on", "off": "off"},
    "media_player": {"on": "on", "off": "off"}, "automation": {"on": "on", "off": "off"}, "input_boolean": {"on": "on", "off": "off"},
    "lock": {"lock": "locked", "unlock": "unlocked"}, "cover": {"open": "open", "close": "closed"},
}
# Home Assistant's service names for the actions (`light.turn_on`, `lock.unlock`, `cover.open_cover`)
SERVICES = {"turn_on": "on", "turn_off": "off", "toggle": "toggle", "lock": "lock", "unlock": "unlock", "open_cover": "open",
            "close_cover": "close", "on": "on", "off": "off", "open": "open", "close": "close"}


def home_command(tool_name: str) -> str | None:
    """The command a tool of a Home Assistant server runs (`search_entities_tool` -> search_entities), or None."""
    s = snake(tool_name).removesuffix("_tool").removeprefix("hass_").removeprefix("ha_")
    return s if s in COMMANDS else None


def is_home(server_words: set[str], tool_names: list[str]) -> bool:
    """Whether a service is a Home Assistant: it says so, and four or more of its tools are its commands."""
    said = bool(server_words & HOME_WORDS) or {"home", "assistant"} <= server_words
    return said and len({c for n in tool_names if (c := home_command(n))}) >= 4


def entity_param(props: dict[str, Any]) -> str | None:
    return next((p for p in props if snake(p) == "entity_id"), None)


def home_entity() -> EntityPlan:
    """The home's entities: each its id, domain, friendly name, state, attributes, last change and history."""
    return EntityPlan(collection=HOME_ENTITIES, entity="home_entity", prefix="ent", size=0, topic="home", fields=[
        FieldPlan(name="id", shape={"type": "string"}, role="id"),
        FieldPlan(name="entity_id", shape={"type": "string"}, sem=HOME_ENTITY_SEM, role="key"),
        FieldPlan(name="domain", shape={"type": "string"}),
        FieldPlan(name="friendly_name", shape={"type": "string"}, sem="title"),
        FieldPlan(name="state", shape={"type": "string"}),
        FieldPlan(name="attributes", shape={"type": "object"}),
        FieldPlan(name="last_changed", shape={"type": "string"}, sem="datetime"),
        FieldPlan(name="history", shape={"type": "array"}),
    ])


def home_output(t: ToolPlan) -> dict[str, Any]:
    return {"type": "array", "items": {"type": "object"}} if t.home == "list_automations" else {"type": "object"}  # as Hass-MCP answers


def seed_entities(rng: random.Random, now: datetime) -> list[Record]:
    """The home, the same for the same seed: when each entity last changed and its states before."""
    rows = []
    for i, (eid, name, state, attrs) in enumerate(DEVICES):
        changed = now - timedelta(minutes=rng.randint(5, 600))
        before = _other(eid.split(".", 1)[0], state)
        history = ([{"state": before, "last_changed": format_timestamp(changed - timedelta(hours=rng.randint(1, 20)))}] if before else []) \
            + [{"state": state, "last_changed": format_timestamp(changed)}]
        rows.append({"id": f"ent_{i + 1:04d}", "entity_id": eid, "domain": eid.split(".", 1)[0], "friendly_name": name, "state": state,
                     "attributes": {"friendly_name": name, **attrs}, "last_changed": format_timestamp(changed), "history": history})
    return rows


def examples(rows: list[Record], rng: random.Random) -> list[str]:
    return sorted(r["entity_id"] for r in rows)


def _other(domain: str, state: str) -> str | None:
    states = sorted(set(ACTIONS.get(domain, {}).values()))
    return next((s for s in states if s != state), None) if len(states) == 2 else None


# -- running a command ---------------------------------------------------------------------------

def run_home(svc: Any, t: ToolPlan, args: dict[str, Any]) -> Any:
    """One command on the service's home (its `home_entities` table). Nothing changes unless it succeeds."""
    table = svc.db[HOME_ENTITIES]
    props = t.input_schema.get("properties") or {}

    def arg(*names: str, default: Any = None) -> Any:
        return next((args[p] for p in props if snake(p) in names and args.get(p) is not None), default)

    def entity(eid: Any) -> Record:
        row = next((r for r in table if r["entity_id"] == eid), None)
        if row is None:
            raise NotFoundError(f"no entity {eid!r}; entity ids look like 'light.living_room' (list_entities names them)")
        return row

    def shown(row: Record) -> dict[str, Any]:
        """The entity as asked: every field, the `fields` named (`attr.brightness` is an attribute), or
        its id and state when `fields` names none."""
        fields, detailed = arg("fields"), bool(arg("detailed", default=False))
        full = {"entity_id": row["entity_id"], "state": row["state"], "attributes": row["attributes"], "last_changed": row["last_changed"]}
        if detailed or fields is None:
            return full
        if not isinstance(fields, list) or not fields:
            return {k: full[k] for k in ("entity_id", "state")}
        out: dict[str, Any] = {"entity_id": row["entity_id"]}
        for f in fields:
            if isinstance(f, str) and f.startswith("attr."):
                out[f] = row["attributes"].get(f[5:])
            elif f in full:
                out[f] = full[f]
        return out

    cmd = t.home or ""
    if cmd == "get_entity":
        row = entity(arg("entity_id"))
        return shown(row)
    if cmd in ("list_entities", "search_entities"):
        domain, query = arg("domain"), arg("search_query", "query")
        limit = arg("limit", default=100)
        rows = [r for r in table if (domain is None or r["domain"] == domain)
                and (not query or str(query).lower() in f"{r['entity_id']} {r['friendly_name']}".lower())]
        if cmd == "search_entities" and not str(query or "").strip():
            raise ToolError("give a query: a word of an entity's id or name (list_entities lists them all)")
        cut = rows[: max(0, int(limit))] if isinstance(limit, (int, float)) else rows
        return {"count": len(rows), "entities": [shown(r) for r in cut]}
    if cmd == "domain_summary":
        domain = arg("domain")
        rows = [r for r in table if r["domain"] == domain]
        if not rows:
            raise NotFoundError(f"no entities in domain {domain!r}; domains here: {', '.join(sorted({r['domain'] for r in table}))}")
        limit = arg("example_limit", default=3)
        states: dict[str, list[str]] = {}
        for r in rows:
            states.setdefault(r["state"], []).append(r["entity_id"])
        return {"domain": domain, "total_count": len(rows), "state_distribution": {s: len(v) for s, v in sorted(states.items())},
                "examples": {s: v[: int(limit)] for s, v in sorted(states.items())}}
    if cmd == "system_overview":
        domains: dict[str, dict[str, Any]] = {}
        for r in table:
            d = domains.setdefault(r["domain"], {"count": 0, "states": {}})
            d["count"] += 1
            d["states"][r["state"]] = d["states"].get(r["state"], 0) + 1
        return {"total_entities": len(list(table)), "domains": dict(sorted(domains.items()))}
    if cmd == "list_automations":
        return [{"id": r["entity_id"].split(".", 1)[1], "entity_id": r["entity_id"], "state": r["state"], "alias": r["friendly_name"]}
                for r in table if r["domain"] == "automation"]
    if cmd == "get_history":
        row = entity(arg("entity_id"))
        hours = arg("hours", default=24)
        now = datetime.fromisoformat(svc.now().replace("Z", "+00:00"))
        since = format_timestamp(now - timedelta(hours=float(hours))) if isinstance(hours, (int, float)) else ""
        states = [h for h in row["history"] if h["last_changed"] >= since]
        return {"entity_id": row["entity_id"], "states": states, "count": len(states)}
    if cmd == "entity_action":
        return _switch(svc, table, entity(arg("entity_id")), str(arg("action", default="")))
    if cmd == "call_service":
        data = arg("data", default={}) or {}
        eid = data.get("entity_id") if isinstance(data, dict) else None
        domain, service = arg("domain"), str(arg("service", default=""))
        if eid is None:
            raise ToolError("give data.entity_id: the entity the service acts on (e.g. {'entity_id': 'light.kitchen'})")
        row = entity(eid)
        if domain is not None and row["domain"] != domain:
            raise ToolError(f"{eid} is a {row['domain']}, not a {domain}")
        if service not in SERVICES:
            raise ToolError(f"unknown service {domain}.{service}; services: {', '.join(sorted(SERVICES))}")
        return _switch(svc, table, row, SERVICES[service])
    raise ToolError(f"unsupported command {cmd}")


def _switch(svc: Any, table: Any, row: Record, action: str) -> dict[str, Any]:
    """Switch an entity as its domain allows ("toggle" flips it); a sensor reports and cannot be switched."""
    domain = row["domain"]
    allowed = ACTIONS.get(domain)
    if not allowed:
        raise ToolError(f"{row['entity_id']} is a {domain.replace('_', ' ')}: it reports its state and cannot be switched")
    act = SERVICES.get(action.strip().lower(), action.strip().lower())
    if act == "toggle":
        new = _other(domain, row["state"]) or row["state"]
    elif act in allowed:
        new = allowed[act]
    else:
        raise ToolError(f"a {domain.replace('_', ' ')} takes {', '.join([*allowed, 'toggle'])}, not {action!r}")
    now = svc.now()
    changed = {"state": new, "last_changed": now if new != row["state"] else row["last_changed"],
               "history": row["history"] + ([{"state": new, "last_changed": now}] if new != row["state"] else [])}
    if domain == "light" and "brightness" in row["attributes"] or domain == "light" and new == "on":
        changed["attributes"] = {**row["attributes"], "brightness": 255 if new == "on" and not row["attributes"].get("brightness")
                                 else row["attributes"].get("brightness") if new == "on" else None}
    updated = table.update(row["id"], **changed)
    return {"entity_id": updated["entity_id"], "state": updated["state"], "previous_state": row["state"],
            "last_changed": updated["last_changed"]}
