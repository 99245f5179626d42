"""The business services (invoicing, expenses, hr, recruiting, marketing, inventory, procurement, payroll):
their rules hold through `step` (error observation, state untouched), their writes land in `state()`, and their
seeded data is deterministic and lines up with the shared world."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest

from compoworld.services import Environment, compose
from compoworld.services.fake import business_days, world
from compoworld.services.library.inventory import sku_for
from compoworld.services.registry import library_services

BUSINESS = ["invoicing", "expenses", "hr", "recruiting", "marketing", "inventory", "procurement", "payroll"]


def call(env: Environment, tool: str, **args: Any):
    return env.step({"name": tool, "arguments": args})


def ok(env: Environment, tool: str, **args: Any) -> Any:
    obs = call(env, tool, **args)
    assert obs.ok, (tool, obs.content)
    return obs.data


def refused(env: Environment, tool: str, needle: str, **args: Any) -> str:
    """The call fails with a business-rule error mentioning `needle` and leaves the state exactly as it was."""
    before = env.state_hash()
    obs = call(env, tool, **args)
    assert not obs.ok, (tool, obs.content)
    assert obs.error_kind == "business_rule", obs.content
    assert needle in obs.error, obs.error
    assert env.state_hash() == before
    return obs.error


def today(env: Environment) -> date:
    return date.fromisoformat(env.ctx.clock.today())


def monday_after(day: date, days: int) -> str:
    d = day + timedelta(days=days)
    return (d + timedelta(days=(7 - d.weekday()) % 7)).isoformat()


# -- shape of every business service ----------------------------------------------------------------
@pytest.mark.parametrize("name", BUSINESS)
def test_service_shape(name: str) -> None:
    cls = library_services()[name]
    specs = cls.tool_specs()
    assert len(specs) >= 9
    assert any(s.read_only for s in specs.values()) and any(not s.read_only for s in specs.values())
    for tname, spec in specs.items():
        props = spec.input_schema["properties"]
        assert all(p.get("description") for p in props.values()), (tname, [k for k, p in props.items() if not p.get("description")])
        if tname.startswith(("search_", "list_")) and "items" in spec.output_schema.get("properties", {}):
            assert {"limit", "offset"} <= set(props), tname
        if spec.destructive:
            assert not spec.read_only, tname
    assert any(sem.startswith(f"{name}.") for s in specs.values() for sem in s.output_semantics.values())


@pytest.mark.parametrize("name", BUSINESS)
def test_generation_is_deterministic_and_valid(name: str) -> None:
    a, b, c = compose([name], seed=11), compose([name], seed=11), compose([name], seed=12)
    assert a.state_hash() == b.state_hash()
    assert a.state_hash() != c.state_hash()
    cls = library_services()[name]
    state = a.state()[name]
    assert cls.validate_state(state) == state
    big = compose([name], seed=11, scale=10).state()[name]
    assert sum(map(len, big.values())) > 2 * sum(map(len, state.values()))


def test_generated_people_and_companies_come_from_the_shared_world() -> None:
    env = compose(BUSINESS, seed=4)
    st, w = env.state(), world(4)
    staff = {p.email for p in w.employees}
    assert {e["email"] for e in st["hr"]["employees"].values() if e["status"] == "active"} == staff
    assert {s["employee_email"] for s in st["payroll"]["salaries"].values()} == staff
    assert {r["employee_email"] for r in st["expenses"]["reports"].values()} <= staff
    assert {c["company_name"] for c in st["invoicing"]["customers"].values()} == {c.name for c in w.companies}
    assert {v["name"] for v in st["procurement"]["vendors"].values() if v["status"] == "active"} == {v.name for v in w.vendors}
    contacts = {p.email for p in w.contacts}
    assert {o["customer_email"] for o in st["inventory"]["orders"].values()} <= contacts
    # traps: archived duplicates of active customers, superseded salaries
    names = [c["company_name"] for c in st["invoicing"]["customers"].values()]
    assert len(names) > len(set(names))
    per_emp: dict[str, int] = {}
    for s in st["payroll"]["salaries"].values():
        per_emp[s["employee_email"]] = per_emp.get(s["employee_email"], 0) + 1
    assert max(per_emp.values()) > 1


# -- invoicing --------------------------------------------------------------------------------------
def test_invoicing_pay_once_and_never_overpay() -> None:
    env = compose(["invoicing"], seed=2)
    company = world(2).companies[0].name
    inv = ok(env, "invoicing__create_invoice", company_name=company,
             lines=[{"description": "Pro Plan", "quantity": 2, "unit_price": 199.0}], tax_rate=10.0)
    assert inv["total"] == pytest.approx(437.8)
    refused(env, "invoicing__record_payment", "only issued", invoice_id=inv["id"], amount=10.0)
    t = today(env).isoformat()
    refused(env, "invoicing__issue_invoice", "must be after", invoice_id=inv["id"], issue_date=t, due_date=t)
    ok(env, "invoicing__issue_invoice", invoice_id=inv["id"])
    refused(env, "invoicing__add_line_item", "only draft", invoice_id=inv["id"], description="x", quantity=1, unit_price=1.0)
    refused(env, "invoicing__record_payment", "overpay", invoice_id=inv["id"], amount=500.0)
    ok(env, "invoicing__record_payment", invoice_id=inv["id"], amount=400.0)
    ok(env, "invoicing__record_payment", invoice_id=inv["id"], amount=37.8)
    refused(env, "invoicing__record_payment", "already paid", invoice_id=inv["id"], amount=1.0)
    st = env.state()["invoicing"]
    assert st["invoices"][inv["id"]]["status"] == "paid"
    assert st["invoices"][inv["id"]]["balance_due"] == 0.0
    assert sorted(p["amount"] for p in st["payments"].values() if p["invoice_id"] == inv["id"]) == [37.8, 400.0]


def test_invoicing_resolves_company_names_exactly() -> None:
    env = compose(["invoicing"], seed=2)
    err = refused(env, "invoicing__create_invoice", "no active customer", company_name="Meridian Health")
    assert "Meridian Health Systems" in err and "Meridian Health Partners" in err


# -- expenses ---------------------------------------------------------------------------------------
def test_expenses_policy_limits_self_approval_and_reimbursement() -> None:
    env = compose(["expenses"], seed=3)
    staff = world(3).employees
    rep = ok(env, "expenses__create_report", employee_email=staff[0].email, employee_name=staff[0].name, title="Berlin offsite")
    meals = ok(env, "expenses__get_category_policy", category="meals")
    day = (today(env) - timedelta(days=3)).isoformat()
    refused(env, "expenses__add_expense_item", "policy limit", report_id=rep["id"], date=day, category="meals",
            amount=meals["limit_per_item"] + 1, merchant="Blue Bottle Coffee")
    refused(env, "expenses__add_expense_item", "no expense policy", report_id=rep["id"], date=day, category="yachts",
            amount=10.0, merchant="Marina")
    item = ok(env, "expenses__add_expense_item", report_id=rep["id"], date=day, category="meals",
              amount=meals["limit_per_item"], merchant="Blue Bottle Coffee")
    if meals["receipt_required_over"] < item["amount"]:
        refused(env, "expenses__submit_report", "receipts are required", report_id=rep["id"])
    ok(env, "expenses__attach_receipt", item_id=item["id"], receipt_path="/receipts/berlin.pdf")
    ok(env, "expenses__submit_report", report_id=rep["id"])
    refused(env, "expenses__reimburse_report", "only approved", report_id=rep["id"])
    refused(env, "expenses__approve_report", "their own report", report_id=rep["id"], approver_email=staff[0].email)
    ok(env, "expenses__approve_report", report_id=rep["id"], approver_email=staff[1].email)
    ok(env, "expenses__reimburse_report", report_id=rep["id"])
    final = env.state()["expenses"]["reports"][rep["id"]]
    assert (final["status"], final["approver_email"], final["total"]) == ("reimbursed", staff[1].email, meals["limit_per_item"])


def test_expenses_uses_the_newest_policy_in_effect() -> None:
    env = compose(["expenses"], seed=3, scale=10)
    rows = env.state()["expenses"]["policies"].values()
    t = today(env).isoformat()
    for cat in {p["category"] for p in rows}:
        live = max((p for p in rows if p["category"] == cat and p["effective_from"] <= t), key=lambda p: p["effective_from"])
        assert ok(env, "expenses__get_category_policy", category=cat)["id"] == live["id"]


# -- hr ---------------------------------------------------------------------------------------------
def _report_with_manager(env: Environment) -> dict:
    return next(e for e in env.state()["hr"]["employees"].values() if e["status"] == "active" and e["manager_email"])


def test_hr_leave_balance_overlap_and_manager_rules() -> None:
    env = compose(["hr"], seed=5)
    emp = _report_with_manager(env)
    bal = next(b for b in ok(env, "hr__get_leave_balances", employee_email=emp["email"]) if b["leave_type"] == "vacation")
    if bal["days"] < 5:
        ok(env, "hr__adjust_balance", employee_email=emp["email"], leave_type="vacation", days=5 - bal["days"], reason="grant")
    start = monday_after(today(env), 120)
    end = (date.fromisoformat(start) + timedelta(days=8)).isoformat()  # Mon..Tue next week: 7 business days
    refused(env, "hr__request_leave", "business days", employee_email=emp["email"], leave_type="personal",
            start_date=start, end_date=(date.fromisoformat(start) + timedelta(days=30)).isoformat())
    req = ok(env, "hr__request_leave", employee_email=emp["email"], leave_type="vacation", start_date=start,
             end_date=(date.fromisoformat(start) + timedelta(days=2)).isoformat())
    assert req["days"] == 3
    refused(env, "hr__request_leave", "overlaps", employee_email=emp["email"], leave_type="sick", start_date=start, end_date=end)
    refused(env, "hr__approve_leave", "manager", request_id=req["id"], approver_email=emp["email"])
    before = next(b for b in env.state()["hr"]["balances"].values() if b["employee_email"] == emp["email"] and b["leave_type"] == "vacation")
    ok(env, "hr__approve_leave", request_id=req["id"], approver_email=emp["manager_email"])
    st = env.state()["hr"]
    after = st["balances"][before["id"]]
    assert after["days"] == before["days"] - business_days(req["start_date"], req["end_date"])
    assert st["leave_requests"][req["id"]]["status"] == "approved"
    ok(env, "hr__cancel_leave", request_id=req["id"])
    assert env.state()["hr"]["balances"][before["id"]]["days"] == before["days"]


# -- recruiting -------------------------------------------------------------------------------------
def test_recruiting_pipeline_rules_and_hire() -> None:
    env = compose(["recruiting"], seed=6)
    staff = world(6).employees
    job = ok(env, "recruiting__create_opening", title="Data Engineer", department="Engineering", hiring_manager_email=staff[3].email)
    ok(env, "recruiting__add_candidate", name="Rosa Novak", email="rosa.novak@mailbox.org")
    refused(env, "recruiting__add_candidate", "already exists", name="Rosa N", email="ROSA.novak@mailbox.org")
    app = ok(env, "recruiting__create_application", opening_id=job["id"], candidate_email="rosa.novak@mailbox.org")
    refused(env, "recruiting__move_application", "cannot move", application_id=app["id"], stage="offer")
    ok(env, "recruiting__move_application", application_id=app["id"], stage="screen")
    now = env.ctx.clock.now()
    refused(env, "recruiting__schedule_interview", "in the past", application_id=app["id"], interviewer_email=staff[3].email,
            scheduled_at=now)
    when = f"{monday_after(today(env), 30)}T15:00:00Z"
    ok(env, "recruiting__schedule_interview", application_id=app["id"], interviewer_email=staff[3].email, scheduled_at=when)
    ok(env, "recruiting__move_application", application_id=app["id"], stage="interview")
    refused(env, "recruiting__move_application", "scorecard", application_id=app["id"], stage="offer")
    refused(env, "recruiting__submit_scorecard", "no interview", application_id=app["id"], interviewer_email=staff[4].email,
            rating=4, recommendation="yes")
    ok(env, "recruiting__submit_scorecard", application_id=app["id"], interviewer_email=staff[3].email, rating=4, recommendation="strong_yes")
    ok(env, "recruiting__move_application", application_id=app["id"], stage="offer")
    ok(env, "recruiting__close_opening", opening_id=job["id"])
    refused(env, "recruiting__move_application", "closed", application_id=app["id"], stage="hired")
    job2 = ok(env, "recruiting__create_opening", title="Data Engineer II", department="Engineering", hiring_manager_email=staff[3].email)
    app2 = ok(env, "recruiting__create_application", opening_id=job2["id"], candidate_email="rosa.novak@mailbox.org")
    for stage in ("screen", "interview"):
        ok(env, "recruiting__move_application", application_id=app2["id"], stage=stage)
    ok(env, "recruiting__schedule_interview", application_id=app2["id"], interviewer_email=staff[5].email, scheduled_at=when)
    ok(env, "recruiting__submit_scorecard", application_id=app2["id"], interviewer_email=staff[5].email, rating=3, recommendation="yes")
    for stage in ("offer", "hired"):
        ok(env, "recruiting__move_application", application_id=app2["id"], stage=stage)
    st = env.state()["recruiting"]
    assert st["applications"][app2["id"]]["stage"] == "hired"
    assert (st["openings"][job2["id"]]["hired"], st["openings"][job2["id"]]["status"]) == (1, "closed")


# -- marketing --------------------------------------------------------------------------------------
def test_marketing_consent_schedule_and_send() -> None:
    env = compose(["marketing"], seed=7)
    owner = world(7).employees[1].email
    aud = ok(env, "marketing__create_audience", name="Beta testers", owner_email=owner)
    ok(env, "marketing__add_subscriber", audience_id=aud["id"], email="ann@acme.com", name="Ann Lee", consent="subscribed")
    ok(env, "marketing__add_subscriber", audience_id=aud["id"], email="bo@acme.com", name="Bo Kim", consent="subscribed")
    ok(env, "marketing__add_subscriber", audience_id=aud["id"], email="cy@acme.com", name="Cy Park", consent="subscribed")
    ok(env, "marketing__update_consent", email="cy@acme.com", consent="unsubscribed")
    camp = ok(env, "marketing__create_campaign", name="Beta launch", owner_email=owner)
    future = f"{monday_after(today(env), 10)}T09:00:00Z"
    refused(env, "marketing__schedule_campaign", "subject and an audience", campaign_id=camp["id"], scheduled_at=future)
    ok(env, "marketing__update_campaign", campaign_id=camp["id"], subject="You're in", audience_id=aud["id"])
    refused(env, "marketing__schedule_campaign", "in the past", campaign_id=camp["id"], scheduled_at="2020-01-01T09:00:00Z")
    ok(env, "marketing__schedule_campaign", campaign_id=camp["id"], scheduled_at=future)
    assert env.state()["marketing"]["campaigns"][camp["id"]]["status"] == "scheduled"
    refused(env, "marketing__send_campaign", "unsubscribed", campaign_id=camp["id"], recipient_emails=["ann@acme.com", "cy@acme.com"])
    ok(env, "marketing__send_campaign", campaign_id=camp["id"])
    sent = env.state()["marketing"]["campaigns"][camp["id"]]
    assert (sent["status"], sent["recipients"]) == ("sent", 2)
    refused(env, "marketing__cancel_campaign", "sent", campaign_id=camp["id"])


# -- inventory --------------------------------------------------------------------------------------
def test_inventory_ship_within_stock_and_no_cancel_after_shipping() -> None:
    env = compose(["inventory"], seed=8)
    sku = sku_for("Barcode Scanner")
    level = ok(env, "inventory__restock", sku=sku, warehouse="AUS-1", quantity=5, reference="PO-0001")
    have = level["available"]
    c = world(8).contacts[0]
    big = ok(env, "inventory__create_order", customer_company=c.company, customer_email=c.email, warehouse="AUS-1",
             lines=[{"sku": sku, "quantity": have + 1}])
    refused(env, "inventory__ship_order", "cannot ship more than is in stock", order_id=big["id"], tracking_number="1Z1")
    refused(env, "inventory__reserve_order", "insufficient stock", order_id=big["id"])
    order = ok(env, "inventory__create_order", customer_company=c.company, customer_email=c.email, warehouse="AUS-1",
               lines=[{"sku": sku, "quantity": 3}])
    ok(env, "inventory__reserve_order", order_id=order["id"])
    ok(env, "inventory__ship_order", order_id=order["id"], tracking_number="1Z999")
    refused(env, "inventory__cancel_order", "cannot be cancelled", order_id=order["id"])
    stock = next(s for s in env.state()["inventory"]["stock"].values() if s["sku"] == sku and s["warehouse"] == "AUS-1")
    assert stock["on_hand"] - stock["reserved"] == have - 3
    assert env.state()["inventory"]["orders"][order["id"]]["status"] == "shipped"


# -- procurement ------------------------------------------------------------------------------------
def test_procurement_two_approvals_receiving_and_active_vendors() -> None:
    env = compose(["procurement"], seed=9)
    st = env.state()["procurement"]
    vendor = next(v for v in st["vendors"].values() if v["status"] == "active")
    staff = world(9).employees
    requester, first, second = staff[0].email, staff[1].email, staff[2].email
    line = {"sku": "POS-TER", "description": "POS Terminal", "quantity": 20, "unit_price": 899.0}
    po = ok(env, "procurement__create_purchase_order", requester_email=requester, vendor_name=vendor["name"], lines=[line])
    assert po["approvals_required"] == 2
    refused(env, "procurement__approve_purchase_order", "their own order", po_id=po["id"], approver_email=requester)
    ok(env, "procurement__approve_purchase_order", po_id=po["id"], approver_email=first)
    assert env.state()["procurement"]["orders"][po["id"]]["status"] == "pending_approval"
    refused(env, "procurement__approve_purchase_order", "someone else", po_id=po["id"], approver_email=first)
    refused(env, "procurement__receive_goods", "approved orders", po_id=po["id"], received_by_email=requester,
            lines=[{"sku": "POS-TER", "quantity": 1}])
    ok(env, "procurement__approve_purchase_order", po_id=po["id"], approver_email=second)
    refused(env, "procurement__receive_goods", "more than ordered", po_id=po["id"], received_by_email=requester,
            lines=[{"sku": "POS-TER", "quantity": 21}])
    ok(env, "procurement__receive_goods", po_id=po["id"], received_by_email=requester, lines=[{"sku": "POS-TER", "quantity": 12}])
    after = env.state()["procurement"]["orders"][po["id"]]
    assert (after["status"], after["lines"][0]["received"], after["approved_by"]) == ("partially_received", 12, [first, second])
    ok(env, "procurement__set_vendor_status", vendor_id=vendor["id"], status="inactive")
    refused(env, "procurement__create_purchase_order", "active vendor", requester_email=requester, vendor_id=vendor["id"], lines=[line])


# -- payroll ----------------------------------------------------------------------------------------
def test_payroll_one_run_per_period_bonus_rules_and_finalized_lock() -> None:
    env = compose(["payroll"], seed=10)
    t = today(env)
    month = date(t.year + (t.month + 1) // 12, (t.month + 1) % 12 + 1, 1)  # two months ahead: no run yet
    period = month.strftime("%Y-%m")
    run = ok(env, "payroll__create_pay_run", period=period, pay_date=f"{period}-28")
    refused(env, "payroll__create_pay_run", "one pay run per period", period=period, pay_date=f"{period}-27")
    who = world(10).employees[0].email
    refused(env, "payroll__add_bonus", "needs a reason", run_id=run["id"], employee_email=who, amount=500.0, reason=" ")
    refused(env, "payroll__add_bonus", "must be positive", run_id=run["id"], employee_email=who, amount=0.0, reason="Spot bonus")
    slip = ok(env, "payroll__add_bonus", run_id=run["id"], employee_email=who, amount=500.0, reason="Spot bonus")
    assert slip["gross"] == pytest.approx(slip["base"] + 500.0)
    st = env.state()["payroll"]
    assert st["pay_runs"][run["id"]]["total_gross"] == pytest.approx(
        sum(s["gross"] for s in st["payslips"].values() if s["run_id"] == run["id"]))
    ok(env, "payroll__finalize_pay_run", run_id=run["id"])
    refused(env, "payroll__add_bonus", "finalized", run_id=run["id"], employee_email=who, amount=100.0, reason="Late")
    refused(env, "payroll__delete_pay_run", "finalized", run_id=run["id"])
    refused(env, "payroll__set_salary", "finalized pay run", employee_email=who, employee_name="X", annual_salary=90000.0,
            effective_date=f"{period}-15")
