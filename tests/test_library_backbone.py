"""The backbone services (email, chat, calendar, drive, sheets, projects, helpdesk, kb): business rules refuse bad
calls without touching the state, happy-path writes land in the state, and seeded data is deterministic."""

from __future__ import annotations

from typing import Any

import pytest

from compoworld.services import compose
from compoworld.services import environment as envmod
from compoworld.services.environment import Environment
from compoworld.services.fake import world
from compoworld.services.registry import get_service

BACKBONE = ["email", "chat", "calendar", "drive", "sheets", "projects", "helpdesk", "kb"]
SEED = 7


def ok(env: Environment, tool: str, **args: Any) -> Any:
    obs = env.step({"name": tool, "arguments": args})
    assert obs.ok, f"{tool} failed: {obs.error}"
    return obs.data


def refused(env: Environment, tool: str, kind: str = "business_rule", **args: Any) -> str:
    """The call fails with an error observation of this kind and leaves the joint state exactly as it was."""
    before = env.state_hash()
    obs = env.step({"name": tool, "arguments": args})
    assert not obs.ok, f"{tool} should have been refused"
    assert obs.error_kind == kind, (obs.error_kind, obs.error)
    assert env.state_hash() == before
    return obs.error or ""


@pytest.fixture
def env() -> Environment:
    return compose(BACKBONE, seed=SEED)


@pytest.fixture
def people():
    w = world(SEED)
    return w.employees, w.contacts


def rows(env: Environment, service: str, coll: str) -> dict[str, dict]:
    return env.state()[service][coll]


# -- generation ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", BACKBONE)
def test_generation_is_deterministic_and_seed_dependent(name: str) -> None:
    first = compose([name], seed=11).state_hash()
    envmod._INITIAL_CACHE.clear()  # force a second, independent generation
    again = compose([name], seed=11).state_hash()
    other = compose([name], seed=12).state_hash()
    assert first == again
    assert first != other


@pytest.mark.parametrize("name", BACKBONE)
def test_generated_state_fits_the_state_model_and_scales(name: str) -> None:
    small = compose([name], seed=3)
    state = small.state()
    assert sum(len(c) for c in state[name].values()) > 0
    small.reset(3, initial_state=state)
    assert small.state_hash() == compose([name], seed=3).state_hash()  # a given state is the state
    big = compose([name], seed=3, scale=10).state()[name]
    assert sum(len(c) for c in big.values()) > 3 * sum(len(c) for c in state[name].values())


@pytest.mark.parametrize("name", BACKBONE)
def test_tools_are_documented_and_annotated(name: str) -> None:
    specs = get_service(name).tool_specs()
    assert len(specs) >= 9
    assert any(s.read_only for s in specs.values()) and any(not s.read_only for s in specs.values())
    for spec in specs.values():
        assert spec.description
        for pname, prop in spec.input_schema["properties"].items():
            assert prop.get("description"), f"{name}.{spec.name}: {pname} has no Args doc"
        if spec.name.startswith("delete_"):
            assert spec.destructive


# -- email -----------------------------------------------------------------------------------------
def test_email_rules(env: Environment, people) -> None:
    employees, contacts = people
    refused(env, "email__reply_to_message", kind="not_found", message_id="msg_9999", body="hi")
    refused(env, "email__send_email", kind="invalid_arguments", to=["not-an-address"], subject="Hi", body="x")
    err = refused(env, "email__send_email", to=[contacts[0].email.replace("@", ".old@")], subject="Hi", body="x")
    assert "bounced" in err
    draft = next(m for m in rows(env, "email", "messages").values() if m["folder"] == "drafts")
    refused(env, "email__reply_to_message", message_id=draft["id"], body="hi")
    sent = next(m for m in rows(env, "email", "messages").values() if m["folder"] == "sent")
    refused(env, "email__update_draft", message_id=sent["id"], body="rewrite history")


def test_email_send_reply_and_draft(env: Environment, people) -> None:
    employees, contacts = people
    me, colleague = employees[0], employees[1]
    sent = ok(env, "email__send_email", to=[colleague.email], subject="Budget", body="See attached.")
    msgs = rows(env, "email", "messages")
    assert msgs[sent["id"]]["folder"] == "sent" and msgs[sent["id"]]["from_email"] == me.email
    inbox_copy = [m for m in msgs.values() if m["thread_id"] == sent["thread_id"] and m["folder"] == "inbox"]
    boxes = {b["id"]: b["address"] for b in rows(env, "email", "mailboxes").values()}
    assert [boxes[m["mailbox_id"]] for m in inbox_copy] == [colleague.email]

    inbound = next(m for m in msgs.values() if m["folder"] == "inbox" and m["from_email"] != me.email and m["mailbox_id"] == "mbx_0001")
    reply = ok(env, "email__reply_to_message", message_id=inbound["id"], body="Thanks!")
    after = rows(env, "email", "messages")[reply["id"]]
    assert after["to"] == [inbound["from_email"]] and after["thread_id"] == inbound["thread_id"]
    assert after["subject"].startswith("Re:") and after["in_reply_to"] == inbound["id"]

    draft = ok(env, "email__save_draft", subject="Quote", body="Draft text")
    refused(env, "email__send_draft", message_id=draft["id"])  # no recipients yet
    ok(env, "email__update_draft", message_id=draft["id"], to=[contacts[1].email])
    ok(env, "email__send_draft", message_id=draft["id"])
    final = rows(env, "email", "messages")[draft["id"]]
    assert final["folder"] == "sent" and final["sent_at"] is not None and final["to"] == [contacts[1].email]


# -- chat ------------------------------------------------------------------------------------------
def test_chat_private_channels_are_members_only(env: Environment, people) -> None:
    employees, _ = people
    owner, other = employees[0].email, employees[1].email
    ch = ok(env, "chat__create_channel", name="secret-plans", private=True, as_user=other)
    refused(env, "chat__post_message", channel_id=ch["id"], text="let me in")
    refused(env, "chat__add_member", channel_id=ch["id"], email=owner)  # the owner is not a member, so cannot add itself
    refused(env, "chat__create_channel", name="Has Spaces")
    refused(env, "chat__create_channel", name="secret-plans")
    ok(env, "chat__add_member", channel_id=ch["id"], email=owner, as_user=other)
    msg = ok(env, "chat__post_message", channel_id=ch["id"], text="thanks for the invite")
    assert rows(env, "chat", "messages")[msg["id"]]["author_email"] == owner


def test_chat_direct_message_opens_a_conversation(env: Environment, people) -> None:
    employees, _ = people
    target = employees[5].email
    dm = ok(env, "chat__send_direct_message", to=target, text="Quick question about the renewal")
    channel = rows(env, "chat", "channels")[dm["channel_id"]]
    assert channel["kind"] == "dm" and set(channel["members"]) == {employees[0].email, target}
    again = ok(env, "chat__send_direct_message", to=target, text="Never mind")
    assert again["channel_id"] == dm["channel_id"]
    refused(env, "chat__send_direct_message", to=employees[0].email, text="me")


# -- calendar --------------------------------------------------------------------------------------
def test_calendar_rules(env: Environment, people) -> None:
    employees, _ = people
    room = max(rows(env, "calendar", "rooms").values(), key=lambda r: r["capacity"])
    start, end = "2030-03-04T10:00:00Z", "2030-03-04T11:00:00Z"
    ok(env, "calendar__create_event", title="Planning", start=start, end=end, organizer=employees[0].email, room_id=room["id"])
    err = refused(env, "calendar__create_event", title="Clash", start="2030-03-04T10:30:00Z", end="2030-03-04T11:30:00Z",
                  organizer=employees[1].email, room_id=room["id"])
    assert "already booked" in err
    refused(env, "calendar__create_event", title="Backwards", start=end, end=start, organizer=employees[1].email)
    now = env.ctx.clock.now()
    past = next(e for e in rows(env, "calendar", "events").values() if e["status"] == "confirmed" and e["start"] < now)
    refused(env, "calendar__cancel_event", event_id=past["id"])


def test_calendar_cancel_frees_the_room(env: Environment, people) -> None:
    employees, contacts = people
    room = next(iter(rows(env, "calendar", "rooms").values()))
    ev = ok(env, "calendar__create_event", title="Review", start="2030-05-06T14:00", end="2030-05-06T14:30",
            organizer=employees[0].email, attendees=[contacts[0].email], room_id=room["id"])
    stored = rows(env, "calendar", "events")[ev["id"]]
    assert stored["start"] == "2030-05-06T14:00:00Z" and [a["email"] for a in stored["attendees"]] == [contacts[0].email]
    busy = ok(env, "calendar__check_room_availability", room_id=room["id"], start="2030-05-06T14:00:00Z", end="2030-05-06T15:00:00Z")
    assert not busy["available"]
    ok(env, "calendar__cancel_event", event_id=ev["id"])
    assert rows(env, "calendar", "events")[ev["id"]]["status"] == "cancelled"
    free = ok(env, "calendar__check_room_availability", room_id=room["id"], start="2030-05-06T14:00:00Z", end="2030-05-06T15:00:00Z")
    assert free["available"]
    slots = ok(env, "calendar__find_free_slots", attendees=[employees[0].email], date="2030-05-06", duration_minutes=60)
    assert slots and slots[0]["start"] == "2030-05-06T09:00:00Z"


# -- drive -----------------------------------------------------------------------------------------
def test_drive_rules(env: Environment, people) -> None:
    employees, contacts = people
    files = rows(env, "drive", "files")
    some = next(iter(files.values()))
    refused(env, "drive__create_file", name=some["name"].upper(), folder_id=some["folder_id"])
    refused(env, "drive__share_file", kind="invalid_arguments", file_id=some["id"], email="bob at example")
    secret = next(f for f in files.values() if f["confidential"])
    err = refused(env, "drive__share_file", file_id=secret["id"], email=contacts[0].email)
    assert "confidential" in err
    policy = next(f for f in files.values() if f["kind"] == "policy" and f["status"] == "active")
    refused(env, "drive__delete_file", file_id=policy["id"])
    old = next(f for f in files.values() if f["status"] == "superseded")
    refused(env, "drive__update_file", file_id=old["id"], content="rewrite")


def test_drive_policy_lookup_share_and_move(env: Environment, people) -> None:
    employees, _ = people
    hits = ok(env, "drive__search_files", query="Travel Policy", kind="policy", status="active")
    assert hits["total"] == 1 and hits["items"][0]["path"] == "/Policies/Travel Policy"
    doc = ok(env, "drive__read_file", path="/Policies/Travel Policy")
    assert "per night" in doc["content"]
    target = employees[3].email
    ok(env, "drive__share_file", file_id=doc["id"], email=target, role="commenter")
    assert {"email": target, "role": "commenter"} in rows(env, "drive", "files")[doc["id"]]["shared_with"]
    folder = ok(env, "drive__create_folder", name="Scratch")
    note = ok(env, "drive__create_file", name="Ideas", folder_id=next(iter(rows(env, "drive", "folders"))), content="x")
    ok(env, "drive__move_file", file_id=note["id"], folder_id=folder["id"])
    assert rows(env, "drive", "files")[note["id"]]["path"] == "/Scratch/Ideas"


# -- sheets ----------------------------------------------------------------------------------------
def _contacts_sheet(env: Environment) -> tuple[str, dict]:
    book = next(s for s in rows(env, "sheets", "spreadsheets").values() if s["title"] == "Customer Contacts")
    sheet = next(s for s in rows(env, "sheets", "sheets").values() if s["spreadsheet_id"] == book["id"])
    return book["id"], sheet


def test_sheets_rows_must_match_the_header(env: Environment) -> None:
    book, sheet = _contacts_sheet(env)
    err = refused(env, "sheets__append_row", spreadsheet_id=book, sheet="Contacts", values={"Name": "Ann", "Mail": "a@b.co"})
    assert "Mail" in err and "Email" in err
    refused(env, "sheets__update_row", spreadsheet_id=book, sheet="Contacts", row_id=1, values={"Nickname": "x"})
    refused(env, "sheets__add_sheet", spreadsheet_id=book, name="contacts", columns=["A"])
    refused(env, "sheets__delete_sheet", spreadsheet_id=book, sheet="Contacts")


def test_sheets_append_find_update(env: Environment, people) -> None:
    _, contacts = people
    book, sheet = _contacts_sheet(env)
    p = contacts[-1]
    row = ok(env, "sheets__append_row", spreadsheet_id=book, sheet="Contacts",
             values={"Name": p.name, "Email": p.email, "Company": p.company, "Phone": p.phone, "Updated": "2026-01-10"})
    assert row["row_id"] == sheet["next_row_id"]
    stored = rows(env, "sheets", "sheets")[sheet["id"]]["rows"][-1]
    assert stored == row and stored["values"]["Email"] == p.email
    found = ok(env, "sheets__find_rows", spreadsheet_id=book, sheet="Contacts", column="Email", value=p.email.upper())
    assert row["row_id"] in [r["row_id"] for r in found["items"]]
    ok(env, "sheets__update_row", spreadsheet_id=book, sheet="Contacts", row_id=row["row_id"], values={"Phone": "+1-555-0199"})
    assert rows(env, "sheets", "sheets")[sheet["id"]]["rows"][-1]["values"]["Phone"] == "+1-555-0199"
    hits = ok(env, "sheets__search_rows", spreadsheet_id=book, email=p.email)
    assert any(h["row_id"] == row["row_id"] for h in hits["items"])


# -- projects --------------------------------------------------------------------------------------
def test_projects_rules(env: Environment, people) -> None:
    employees, _ = people
    proj = ok(env, "projects__create_project", name="Apollo launch", owner=employees[0].email, start_date="2030-02-01",
              end_date="2030-06-30", members=[employees[1].email])
    outsider = next(p.email for p in employees if p.email not in proj["members"])
    refused(env, "projects__create_task", project_id=proj["id"], title="Plan", assignee=outsider)
    refused(env, "projects__create_task", project_id=proj["id"], title="Plan", due_date="2030-01-15")
    task = ok(env, "projects__create_task", project_id=proj["id"], title="Plan", assignee=employees[1].email, due_date="2030-02-10")
    refused(env, "projects__set_task_status", task_id=task["id"], status="done")
    refused(env, "projects__add_comment", task_id=task["id"], body="hi", author=outsider)
    refused(env, "projects__create_project", name="apollo LAUNCH", owner=employees[0].email, start_date="2030-02-01")
    refused(env, "projects__update_project", project_id=proj["id"], end_date="2030-02-05")  # would cut off the task due 02-10
    ok(env, "projects__update_project", project_id=proj["id"], end_date="2030-03-31", budget=25000.0)
    assert rows(env, "projects", "projects")[proj["id"]]["budget"] == 25000.0


def test_projects_task_lifecycle(env: Environment, people) -> None:
    employees, _ = people
    proj = next(p for p in rows(env, "projects", "projects").values() if p["status"] == "active")
    member = proj["members"][-1]
    task = ok(env, "projects__create_task", project_id=proj["id"], title="Ship it", due_date=proj["start_date"])
    ok(env, "projects__assign_task", task_id=task["id"], assignee=member)
    ok(env, "projects__set_task_status", task_id=task["id"], status="in_progress")
    ok(env, "projects__set_task_status", task_id=task["id"], status="done")
    stored = rows(env, "projects", "tasks")[task["id"]]
    assert stored["status"] == "done" and stored["assignee_email"] == member
    refused(env, "projects__update_task", task_id=task["id"], title="Ship it again")


# -- helpdesk --------------------------------------------------------------------------------------
def test_helpdesk_workflow_rules(env: Environment, people) -> None:
    employees, contacts = people
    t = ok(env, "helpdesk__create_ticket", subject="Export broken", description="CSV export fails",
           requester_email=contacts[0].email, requester_name=contacts[0].name, priority="high")
    refused(env, "helpdesk__update_status", ticket_id=t["id"], status="closed")
    refused(env, "helpdesk__update_status", ticket_id=t["id"], status="resolved")
    ok(env, "helpdesk__update_status", ticket_id=t["id"], status="open")
    err = refused(env, "helpdesk__update_status", ticket_id=t["id"], status="resolved")
    assert "public reply" in err
    refused(env, "helpdesk__create_ticket", subject="export broken", description="again",
            requester_email=contacts[0].email, requester_name=contacts[0].name)
    not_agent = next(p.email for p in employees if p.department == "Engineering")
    refused(env, "helpdesk__assign_ticket", ticket_id=t["id"], agent_email=not_agent)


def test_helpdesk_reply_resolve_close(env: Environment, people) -> None:
    _, contacts = people
    agent = next(a for a in rows(env, "helpdesk", "agents").values() if a["active"])
    t = ok(env, "helpdesk__create_ticket", subject="Login loop", description="Cannot sign in",
           requester_email=contacts[2].email, requester_name=contacts[2].name, priority="urgent", company=contacts[2].company)
    assert t["first_response_due_at"] > t["created_at"]
    ok(env, "helpdesk__add_internal_note", ticket_id=t["id"], body="Likely the SSO bug", author_email=agent["email"])
    assert rows(env, "helpdesk", "tickets")[t["id"]]["first_response_at"] is None  # notes are not responses
    ok(env, "helpdesk__reply_to_ticket", ticket_id=t["id"], body="We are on it", author_email=agent["email"])
    mid = rows(env, "helpdesk", "tickets")[t["id"]]
    assert mid["status"] == "open" and mid["first_response_at"] is not None and mid["assignee_email"] == agent["email"]
    ok(env, "helpdesk__update_status", ticket_id=t["id"], status="resolved")
    ok(env, "helpdesk__update_status", ticket_id=t["id"], status="closed")
    final = rows(env, "helpdesk", "tickets")[t["id"]]
    assert final["status"] == "closed" and final["resolved_at"] is not None
    public = ok(env, "helpdesk__list_comments", ticket_id=t["id"], public_only=True)
    assert [c["body"] for c in public["items"]] == ["We are on it"]


# -- knowledge base --------------------------------------------------------------------------------
def test_kb_rules(env: Environment, people) -> None:
    employees, _ = people
    draft = ok(env, "kb__create_article", title="Configuring webhooks", author_email=employees[0].email, category_id="cat_0003")
    err = refused(env, "kb__publish_article", article_id=draft["id"])
    assert "body" in err
    refused(env, "kb__create_article", title="refund POLICY", author_email=employees[0].email)
    published = next(a for a in rows(env, "kb", "articles").values() if a["status"] == "published")
    refused(env, "kb__delete_article", article_id=published["id"])
    refused(env, "kb__submit_feedback", article_id=draft["id"], helpful=True)


def test_kb_publish_and_search_ranking(env: Environment, people) -> None:
    employees, _ = people
    art = ok(env, "kb__create_article", title="Rotating webhook signing secrets", author_email=employees[0].email,
             body="Open Settings > Webhooks and click Rotate to issue a new signing secret.", category_id="cat_0003", tags=["webhooks"])
    ok(env, "kb__publish_article", article_id=art["id"])
    stored = rows(env, "kb", "articles")[art["id"]]
    assert stored["status"] == "published" and stored["published_at"] is not None
    hits = ok(env, "kb__search_articles", query="webhook signing secrets")
    assert hits["items"][0]["id"] == art["id"]
    top = ok(env, "kb__search_articles", query="reset password")["items"]
    assert top[0]["title"] == "How to reset your password"  # the exact title beats the SSO near-duplicate
    ok(env, "kb__submit_feedback", article_id=art["id"], helpful=False, comment="Where is Settings?")
    assert rows(env, "kb", "articles")[art["id"]]["not_helpful_count"] == 1


# -- search helpers --------------------------------------------------------------------------------
def test_page_by_matches_a_stable_sort() -> None:
    import random

    from compoworld.services.library._search import page_by

    rng = random.Random(1)
    rows = [{"id": i, "at": rng.randint(0, 9)} for i in range(200)]  # many ties
    for reverse in (False, True):
        full = sorted(rows, key=lambda r: r["at"], reverse=reverse)
        for limit, offset in ((5, 0), (20, 40), (50, 190), (10, 300)):
            got = page_by(rows, lambda r: r["at"], limit, offset, reverse=reverse)
            assert got["items"] == full[offset:offset + limit]
            assert got["total"] == 200 and got["next_offset"] == (offset + limit if offset + limit < 200 else None)


def test_search_text_follows_record_updates(env: Environment, people) -> None:
    employees, _ = people
    f = ok(env, "drive__create_file", name="Zeta memo", folder_id="fld_0001", content="alpha")
    assert ok(env, "drive__search_files", query="alpha", folder_id="fld_0001")["total"] == 1
    ok(env, "drive__update_file", file_id=f["id"], content="omega")
    assert ok(env, "drive__search_files", query="alpha", folder_id="fld_0001")["total"] == 0
    assert ok(env, "drive__search_files", query="OMEGA", folder_id="fld_0001")["items"][0]["id"] == f["id"]
