"""One coherent world per seed (issue 11, items 1 and 9): every seeded library service draws from
one cast, the cross-service invariants hold, and the dependency graph joins services only where
the roles of a value fit a business hand-off."""

from __future__ import annotations

import random

import pytest

from compoworld.services.cast import AMOUNTS, HANDOFFS, cast, fits, role_of
from compoworld.services.fake import OUR_DOMAIN
from compoworld.services.registry import library_services
from compoworld.services.service import Context
from compoworld.services.semantics import NON_JOINING
from compoworld.services.world_check import violation_kinds, world_violations
from compoworld.tasks.explore import profile
from compoworld.tasks.factory import generated_state
from compoworld.tasks.graph import build_graph, edge_records
from compoworld.tasks.quality import graph_density

CLASSES = library_services()
SEEDS = range(6)


def _state(seed: int) -> dict:
    return {name: generated_state(cls, seed) for name, cls in sorted(CLASSES.items())}


@pytest.fixture(scope="module")
def worlds() -> dict[int, dict]:
    return {seed: _state(seed) for seed in SEEDS}


def _rows(state: dict, service: str, coll: str) -> list[dict]:
    return list(state[service][coll].values())


def test_every_seeded_world_satisfies_the_cross_service_invariants() -> None:
    for seed in range(32):  # every world a default task run draws (`TaskConfig.world_seeds`)
        found = world_violations(_state(seed), Context(seed).clock.today())
        assert found == [], (seed, violation_kinds(found), found[:5])


def test_the_same_email_is_the_same_person_in_every_service(worlds) -> None:
    """Sampled substance behind the zero: people recur across services under one name."""
    state = worlds[0]
    hr = {r["email"]: r["name"] for r in _rows(state, "hr", "employees") if r["status"] == "active"}
    chat = {r["email"]: r["name"] for r in _rows(state, "chat", "users") if r["role"] != "guest" and r["status"] == "active"}
    agents = {r["email"]: r["name"] for r in _rows(state, "helpdesk", "agents")}
    payroll = {r["employee_email"]: r["employee_name"] for r in _rows(state, "payroll", "salaries")}
    assert set(chat) == set(hr) and all(chat[e] == hr[e] for e in chat)
    assert agents and all(hr[e] == n for e, n in agents.items())
    assert payroll and all(hr[e] == n for e, n in payroll.items())
    crm = {r["email"]: r["name"] for r in _rows(state, "crm", "contacts")}
    invoicing = {r["billing_email"]: r["contact_name"] for r in _rows(state, "invoicing", "customers")}
    shared = set(crm) & set(invoicing)
    assert shared and all(crm[e] == invoicing[e] for e in shared)


def test_employees_customers_vendors_and_candidates_are_different_people(worlds) -> None:
    for seed, state in worlds.items():
        employees = {r["email"] for r in _rows(state, "hr", "employees")}
        vendor_contacts = {r["contact_email"] for r in _rows(state, "procurement", "vendors")}
        candidates = {r["email"] for r in _rows(state, "recruiting", "candidates")}
        contacts = {r["email"] for r in _rows(state, "crm", "contacts")}
        assert all(e.endswith("@" + OUR_DOMAIN) for e in employees)
        assert not (employees & vendor_contacts) and not (employees & candidates) and not (employees & contacts)
        assert not (candidates & contacts) and not (vendor_contacts & contacts)
        assignees = {r["assignee_email"] for r in _rows(state, "helpdesk", "tickets") if r["assignee_email"]}
        assert assignees <= {r["email"] for r in _rows(state, "helpdesk", "agents")}, seed
        c = cast(seed)
        assert {p.email for p in c.vendor_contacts} >= {e for e in vendor_contacts if e.split("@")[0] not in ("sales", "info")}


def test_past_events_never_lie_after_today(worlds) -> None:
    for seed, state in worlds.items():
        now = Context(seed).clock.now()
        for t in _rows(state, "helpdesk", "tickets"):
            for f in ("created_at", "updated_at", "first_response_at", "resolved_at"):
                assert t[f] is None or t[f] <= now, (seed, t["id"], f)
        for run in _rows(state, "payroll", "pay_runs"):
            assert run["created_at"] <= now


def test_amounts_lie_in_their_kinds_ranges(worlds) -> None:
    kinds = {("payroll", "salaries", "annual_salary"): "salary", ("inventory", "products", "unit_price"): "price",
             ("expenses", "items", "amount"): "expense", ("crm", "deals", "amount"): "deal",
             ("projects", "projects", "budget"): "budget", ("procurement", "orders", "total"): "purchase",
             ("invoicing", "invoices", "total"): "invoice"}
    for state in worlds.values():
        for (svc, coll, fld), kind in kinds.items():
            lo, hi = AMOUNTS[kind]
            values = [r[fld] for r in _rows(state, svc, coll)]
            assert values and all(lo <= v <= hi for v in values), (svc, coll, fld, min(values), max(values))
            assert all(round(v, 2) == v for v in values)


def test_the_checker_catches_the_incoherences_the_issue_names() -> None:
    state = _state(0)
    today = Context(0).clock.today()
    owner = next(r for r in _rows(state, "chat", "users") if r["role"] == "owner")
    vendor = next(iter(state["procurement"]["vendors"]))
    bad = {**state, "procurement": {**state["procurement"], "vendors": {
        **state["procurement"]["vendors"], vendor: {**state["procurement"]["vendors"][vendor], "contact_email": owner["email"]}}}}
    kinds = violation_kinds(world_violations(bad, today))
    assert kinds.get("role_conflict") == 1 and kinds.get("role_domain") == 1, kinds  # a vendor contact that is the chat owner

    ticket = next(k for k, t in state["helpdesk"]["tickets"].items() if t["assignee_email"])
    vendor_address = next(iter(state["procurement"]["vendors"].values()))["contact_email"]
    bad = {**state, "helpdesk": {**state["helpdesk"], "tickets": {
        **state["helpdesk"]["tickets"], ticket: {**state["helpdesk"]["tickets"][ticket], "assignee_email": vendor_address}}}}
    found = world_violations(bad, today)
    assert any(v.startswith("role_domain") and "a vendor's address" in v and ticket in v for v in found), found


def test_cast_draws_people_of_each_role() -> None:
    c = cast(3)
    rng = random.Random(0)
    assert c.person(rng, "employee").email.endswith("@" + OUR_DOMAIN)
    assert c.person(rng, "vendor_contact").company in {v.name for v in c.world.vendors}
    assert c.person(rng, "customer_contact").company in {co.name for co in c.world.companies}
    cand = c.person(rng, "candidate")
    assert not cand.email.endswith("@" + OUR_DOMAIN) and cand.name not in {p.name for p in c.world.employees}
    for kind, (lo, hi) in AMOUNTS.items():
        assert all(lo <= c.amount(rng, kind) <= hi for _ in range(50))
    with pytest.raises(ValueError):
        c.people("manager")


def test_every_joinable_person_field_of_the_library_has_a_role() -> None:
    for name, cls in CLASSES.items():
        for coll, fields in profile(cls).field_sems.items():
            for fld, sem in fields.items():
                if sem in ("email", "person_name", "company_name") and sem not in NON_JOINING:
                    assert role_of(cls, coll, fld, sem), (name, coll, fld)


def test_roles_fit_only_plausible_handoffs() -> None:
    assert fits("employee", "employee") and fits("candidate", "employee", "person_name")
    assert not fits("candidate", "employee", "email")  # a new hire keeps the name, not the private address
    assert not fits("customer_contact", "employee") and not fits("vendor_contact", "employee")
    assert not fits("employee", "vendor_contact") and not fits("record_time", "record_time")
    assert fits("vendor_contact", "correspondent") and fits("", "employee") and fits("deal_amount", "invoice_amount")
    assert all(a != b for a, b in HANDOFFS)
    leave = role_of(library_services()["hr"], "leave_requests", "start_date", "date")
    assert leave == "absence" and fits(leave, "schedule")  # a leave goes on the calendar
    assert not fits("deadline", leave)  # a purchase request's needed-by day is no one's leave


def test_graph_edges_carry_fitting_roles_and_density_falls() -> None:
    g = build_graph(CLASSES.values())
    rows = edge_records(g)
    assert rows and all(fits(r["source_role"], r["target_role"], r["semantic_type"]) for r in rows)
    pairs = {(r["source_role"], r["target_role"]) for r in rows if r["semantic_type"] == "email"}
    assert ("customer_contact", "employee") not in pairs and ("vendor_contact", "employee") not in pairs
    n = g.number_of_nodes()
    assert 0 < graph_density(g) < 1.0 and g.number_of_edges() < n * (n - 1)
    # The crm -> expenses hand-off the issue names (a contact's email as an expense report's employee) is gone.
    assert not any(r["source_service"] == "crm" and r["target_service"] == "expenses" and r["target_role"] == "employee"
                   and r["source_role"] == "customer_contact" for r in rows)


# -- compiled services: records shaped by their family, people from the same world (issue 12 item 4)

def _record(fields: list[tuple[str, str | None]], entity: str, collection: str, service: str, n: int = 0) -> dict:
    from datetime import datetime

    from compoworld.services.fake import world
    from compoworld.synthesis.world import ValueContext, value_for

    ctx = ValueContext.of(world(0), datetime(2026, 1, 5), entity, collection, "")
    rng = random.Random(f"{service}/{n}")
    return {f: value_for(f, sem, {"type": "string"}, rng, ctx, n) for f, sem in fields}


def test_families_are_chosen_from_the_entitys_names() -> None:
    from compoworld.synthesis.world import entity_family, family_for

    assert family_for(["commit commits"]) == "repo" and family_for(["transcriptions"]) == "media"
    assert family_for(["file files"]) == "file" and family_for(["gizmo gizmos"]) == ""
    assert family_for(["widget widgets"]) == "component"  # a UI widget is a component (name, import path, example)
    assert entity_family("problem", "problems", "result") == ""  # a catch-all topic says nothing
    assert entity_family("forecast", "forecasts", "weather") == "weather"
    # words that end in s are not read as a shorter word: news is no "new", a series no "serie"
    assert entity_family("news", "newses", "news") == "news" and family_for(["headlines"]) == "news"
    assert entity_family("oil", "oils", "series") == "series" and family_for(["processes"]) == "process"
    assert family_for(["branches"]) == "repo" and family_for(["metrics metricses"]) == "metric"


def test_a_file_record_agrees_with_its_path_and_a_person_with_their_email() -> None:
    from compoworld.services.fake import WORDS, world

    rec = _record([("name", None), ("path", None), ("directory", None), ("extension", None), ("owner_email", "email"),
                   ("owner_name", "person_name")], "file", "files", "drive_like")
    assert rec["path"].endswith("/" + rec["name"]) and rec["path"] == f"{rec['directory']}/{rec['name']}"
    assert rec["name"].endswith("." + rec["extension"])
    people = {p.email: p.name for p in world(0).employees}
    assert people.get(rec["owner_email"]) == rec["owner_name"]  # one employee, the owner, in both fields

    contact = _record([("first_name", None), ("last_name", None), ("email", "email"), ("company", None)], "contact", "contacts", "crm_like")
    person = next(p for p in world(0).contacts if p.email == contact["email"])
    assert (contact["first_name"], contact["last_name"], contact["company"]) == (person.first, person.last, person.company)

    commit = _record([("message", None), ("diff", None), ("author", None)], "commit", "commits", "git_like")
    assert commit["diff"].startswith("diff --git") and not set(commit["message"].lower().split()) & set(WORDS)
    assert commit["author"] in {p.name for p in world(0).employees}


def test_compiled_dates_of_past_events_lie_before_today() -> None:
    for n in range(20):
        rec = _record([("published_at", "datetime"), ("observed_at", "datetime"), ("created_at", "date"), ("due_date", "date")],
                      "article", "articles", "news_like", n)
        assert rec["published_at"] < "2026-01-05" and rec["observed_at"] < "2026-01-05" and rec["created_at"] < "2026-01-05"
        assert rec["due_date"] > "2026-01-05"


def test_records_of_no_known_family_get_no_filler_from_another_domain() -> None:
    from compoworld.services.fake import WORDS

    rec = _record([("name", None), ("description", "text")], "fruit", "fruits", "fruit_data", n=2)
    assert rec["name"] == "Fruit 3" and not set(rec["description"].lower().replace(",", "").split()) & set(WORDS)


def test_sampled_arguments_take_people_of_the_parameters_role() -> None:
    """`agent_email` is an employee's: the sampler draws it from employees, not from the ticket
    requesters (customers) that share the service's `email` values."""
    from compoworld.services.environment import Environment
    from compoworld.services.sampling import sample_arguments, service_values

    env = Environment([CLASSES["helpdesk"]], seed=0)
    pool = service_values(env.services["helpdesk"])
    assert any(not e.endswith("@" + OUR_DOMAIN) for e in pool["helpdesk:email"])  # customers are there too
    spec = env.tool_specs()["helpdesk__assign_ticket"]
    rng = random.Random(0)
    emails = {sample_arguments(spec, env, rng, pool, service="helpdesk")["agent_email"] for _ in range(40)}
    assert emails and all(e.endswith("@" + OUR_DOMAIN) for e in emails)


def test_a_record_with_a_list_valued_type_keeps_its_role() -> None:
    # Compiled records may hold lists where library records hold words ("type": ["a", "b"]): the
    # guest rule reads only words, and never fails on a list (it once did, failing a third of a run's tasks).
    from compoworld.services.cast import record_role

    assert record_role("employee", {"type": ["guest", "x"]}) == "employee"
    assert record_role("employee", {"role": "guest"}) == "customer_contact"
    assert record_role("vendor_contact", {"kind": {"a": 1}}) == "vendor_contact"


def test_a_field_naming_an_id_holds_an_id_not_its_familys_prose() -> None:
    """An e-signature template's `template_id` held a prompt's whole text ("Review this diff for bugs
    ..."), because its record is of the prompt family and the field's words name a template."""
    rows = [_record([("template_id", None), ("template", None)], "template", "templates", "esignatures", n) for n in range(4)]
    assert all(" " not in r["template_id"] for r in rows), rows
    assert all(" " in r["template"] for r in rows)  # the template itself is still a prompt's text
