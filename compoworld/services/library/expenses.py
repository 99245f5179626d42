"""Expenses: employee expense reports with itemized receipts, a per-category policy, approval and reimbursement."""

from __future__ import annotations

from typing import Iterable, Literal

from typing_extensions import TypedDict

from compoworld.services import Collection, Service, ToolError, tool
from compoworld.services.fake import DataGen
from compoworld.services.library._types import (
    Category, CompanyName, Currency, Date, DateTime, Email, FilePath, Id, Limit, Money, Offset, Page, PersonName,
    Query, Text, Title, matches, page,
)

ReportId = Id("expenses", "report")
ItemId = Id("expenses", "item")
ReportStatus = Literal["draft", "submitted", "approved", "rejected", "reimbursed"]
EDITABLE = ("draft", "rejected")  # a rejected report goes back to its owner for fixes and resubmission
# category -> (per-item limit, receipt required above) of the current policy; older versions differ
CATEGORIES: dict[str, tuple[float, float]] = {
    "travel": (1500.0, 75.0), "lodging": (400.0, 75.0), "meals": (120.0, 25.0), "client_entertainment": (500.0, 50.0),
    "software": (300.0, 0.0), "office_supplies": (200.0, 50.0), "training": (2000.0, 0.0),
}
MERCHANTS = ["Delta Air Lines", "Marriott", "Uber", "Blue Bottle Coffee", "Amazon", "Staples", "Coursera", "Hilton"]


class Policy(TypedDict):
    id: Id("expenses", "policy")
    category: Category
    limit_per_item: Money
    receipt_required_over: Money
    effective_from: Date
    updated_at: DateTime


class Report(TypedDict):
    id: ReportId
    title: Title
    employee_email: Email
    employee_name: PersonName
    status: ReportStatus
    total: Money
    currency: Currency
    created_at: DateTime
    submitted_at: DateTime | None
    approver_email: Email | None
    decided_at: DateTime | None
    decision_note: Text
    reimbursed_on: Date | None


class Item(TypedDict):
    id: ItemId
    report_id: ReportId
    date: Date
    category: Category
    merchant: CompanyName
    amount: Money
    description: Text
    receipt_path: FilePath | None


class Expenses(Service):
    name = "expenses"
    domain = "finance"
    description = "Employee expense reports: itemized expenses with receipts, per-category policy limits, approval and reimbursement."
    # The date an expense was incurred is a record of the past, not a meeting's date.
    roles = {"items": {"date": "record_time"}}
    tables = {
        "policies": Collection(Policy, "policy", "pol"),
        "reports": Collection(Report, "report", "exp"),
        "items": Collection(Item, "item", "item"),
    }

    def generate(self, gen: DataGen) -> dict[str, Iterable[dict]]:
        policies, reports, items = [], [], []
        for cat, (limit, receipt) in CATEGORIES.items():
            policies.append({"category": cat, "limit_per_item": limit, "receipt_required_over": receipt,
                             "effective_from": gen.date(-400, -30), "updated_at": gen.datetime(-400, -30)})
            if gen.chance(0.6):  # superseded version: the newest effective policy wins
                policies.append({"category": cat, "limit_per_item": round(limit * gen.pick([0.5, 0.75, 1.5]), 2),
                                 "receipt_required_over": receipt, "effective_from": gen.date(-900, -401),
                                 "updated_at": gen.datetime(-900, -401)})
            if gen.chance(0.2):  # announced but not yet in effect
                policies.append({"category": cat, "limit_per_item": round(limit * 0.8, 2), "receipt_required_over": receipt,
                                 "effective_from": gen.date(10, 60), "updated_at": gen.datetime(-5, -1)})
        merchants = MERCHANTS + [v.name for v in gen.world.vendors]
        employees = gen.world.employees
        n_items = 0
        for r in range(gen.n(20)):
            person = gen.pick(employees)
            approver = gen.pick([e for e in employees if e.email != person.email])
            status = gen.pick(["draft", "submitted", "submitted", "approved", "rejected", "reimbursed"])
            rid = f"exp_{r + 1:04d}"
            total = 0.0
            for _ in range(gen.int(1, 4)):
                cat = gen.pick(list(CATEGORIES))
                limit, receipt = CATEGORIES[cat]
                amount = gen.money(5, limit * 0.9)
                n_items += 1
                total += amount
                items.append({"id": f"item_{n_items:04d}", "report_id": rid, "date": gen.date(-60, -1), "category": cat,
                              "merchant": gen.pick(merchants), "amount": amount, "description": gen.sentence(),
                              "receipt_path": f"/receipts/{person.email.split('@')[0]}/item_{n_items:04d}.pdf"
                              if amount > receipt or gen.chance(0.5) else None})
            decided = status in ("approved", "rejected", "reimbursed")
            reports.append({"id": rid, "title": f"{gen.words(2).capitalize()} expenses", "employee_email": person.email,
                            "employee_name": person.name, "status": status, "total": round(total, 2), "currency": "USD",
                            "created_at": gen.datetime(-60, -31),
                            "submitted_at": None if status == "draft" else gen.datetime(-30, -15),
                            "approver_email": approver.email if decided else None,
                            "decided_at": gen.datetime(-14, -1) if decided else None,
                            "decision_note": "Missing itinerary" if status == "rejected" else "",
                            "reimbursed_on": gen.date(-10, -1) if status == "reimbursed" else None})
        for rep in list(reports)[: gen.n(3)]:  # near-duplicates: an abandoned empty copy of a report
            reports.append({**rep, "id": f"exp_{len(reports) + 1:04d}", "title": rep["title"] + " (copy)", "status": "draft",
                            "total": 0.0, "submitted_at": None, "approver_email": None, "decided_at": None,
                            "decision_note": "", "reimbursed_on": None, "created_at": gen.datetime(-30, -1)})
        return {"policies": policies, "reports": reports, "items": items}

    # -- helpers -------------------------------------------------------------------------------
    def _policy(self, category: str) -> dict:
        today = self.today()
        rows = [p for p in self.db["policies"] if p["category"] == category and p["effective_from"] <= today]
        if not rows:
            known = sorted({p["category"] for p in self.db["policies"]})
            raise ToolError(f"no expense policy covers category '{category}'; categories: {', '.join(known)}")
        return max(rows, key=lambda p: (p["effective_from"], p["updated_at"]))

    def _editable(self, report_id: str) -> dict:
        rep = self.db["reports"].require(report_id)
        if rep["status"] not in EDITABLE:
            raise ToolError(f"report {report_id} is {rep['status']}; only draft or rejected reports can be changed")
        return rep

    def _decidable(self, report_id: str, approver_email: str) -> dict:
        rep = self.db["reports"].require(report_id)
        if rep["status"] != "submitted":
            raise ToolError(f"report {report_id} is {rep['status']}; only submitted reports can be approved or rejected")
        if rep["employee_email"].lower() == approver_email.lower():
            raise ToolError(f"{approver_email} owns report {report_id} and cannot approve or reject their own report")
        return rep

    # -- policy --------------------------------------------------------------------------------
    @tool(read_only=True)
    def list_policies(self, category: Category | None = None, limit: Limit = 20, offset: Offset = 0) -> Page[Policy]:
        """List expense policy versions (including superseded and future ones), newest effective date first.

        Args:
            category: Only versions for this category.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        rows = [p for p in self.db["policies"].ordered(("effective_from", "updated_at"), reverse=True) if category is None or p["category"] == category]
        return page(rows, limit, offset)

    @tool(read_only=True)
    def get_category_policy(self, category: Category) -> Policy:
        """The policy in effect today for one category: its per-item limit and receipt threshold.

        Args:
            category: Expense category, e.g. travel, meals, lodging.
        """
        return self._policy(category)

    # -- reports -------------------------------------------------------------------------------
    @tool(read_only=True)
    def search_reports(self, query: Query = "", employee_email: Email | None = None, status: ReportStatus | None = None,
                       approver_email: Email | None = None, limit: Limit = 20, offset: Offset = 0) -> Page[Report]:
        """Search expense reports by title or employee, newest first.

        Args:
            query: Text to match in the title, employee name or email.
            employee_email: Only reports of this employee.
            status: Only reports in this status.
            approver_email: Only reports decided by this approver.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        emp, appr = (employee_email or "").lower(), (approver_email or "").lower()
        rows = [r for r in self.db["reports"].ordered(("created_at",), reverse=True) if (status is None or r["status"] == status)
                and (not emp or r["employee_email"].lower() == emp)
                and (not appr or (r["approver_email"] or "").lower() == appr)
                and matches(query, r["title"], r["employee_name"], r["employee_email"])]
        return page(rows, limit, offset)

    @tool(read_only=True)
    def get_report(self, report_id: ReportId) -> Report:
        """Get one expense report by id.

        Args:
            report_id: The report's id.
        """
        return self.db["reports"].require(report_id)

    @tool(read_only=True)
    def list_expense_items(self, report_id: ReportId, category: Category | None = None, limit: Limit = 50,
                           offset: Offset = 0) -> Page[Item]:
        """List the items of one report in date order.

        Args:
            report_id: The report.
            category: Only items in this category.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        self.db["reports"].require(report_id)
        rows = sorted((i for i in self.db["items"] if i["report_id"] == report_id and (category is None or i["category"] == category)),
                      key=lambda i: (i["date"], i["id"]))
        return page(rows, limit, offset)

    @tool
    def create_report(self, employee_email: Email, employee_name: PersonName, title: Title, currency: Currency = "USD") -> Report:
        """Open a draft expense report for an employee.

        Args:
            employee_email: The employee claiming the expenses.
            employee_name: The employee's full name.
            title: What the report covers, e.g. 'Berlin offsite travel'.
            currency: ISO currency code of the claim.
        """
        return self.db["reports"].insert({"title": title, "employee_email": employee_email, "employee_name": employee_name,
                                           "status": "draft", "total": 0.0, "currency": currency, "created_at": self.now(),
                                           "submitted_at": None, "approver_email": None, "decided_at": None,
                                           "decision_note": "", "reimbursed_on": None})

    @tool
    def add_expense_item(self, report_id: ReportId, date: Date, category: Category, amount: Money, merchant: CompanyName,
                         description: Text = "", receipt_path: FilePath | None = None) -> Item:
        """Add an expense to a draft report. The amount must be within the category's per-item policy limit.

        Args:
            report_id: The draft (or rejected) report.
            date: When the expense was incurred (YYYY-MM-DD), not in the future.
            category: Expense category; must have a policy (see get_category_policy).
            amount: Amount spent (positive, at most the category limit).
            merchant: Who was paid.
            description: What it was for.
            receipt_path: Path of the receipt file, if already available.
        """
        rep = self._editable(report_id)
        policy = self._policy(category)
        if amount <= 0:
            raise ToolError("an expense amount must be positive")
        if amount > policy["limit_per_item"]:
            raise ToolError(f"{amount} exceeds the {category} policy limit of {policy['limit_per_item']} per item")
        if date > self.today():
            raise ToolError(f"expense date {date} is in the future (today is {self.today()})")
        item = self.db["items"].insert({"report_id": report_id, "date": date, "category": category, "merchant": merchant,
                                         "amount": amount, "description": description, "receipt_path": receipt_path})
        self.db["reports"].update(report_id, total=round(rep["total"] + amount, 2))
        return item

    @tool(idempotent=True)
    def attach_receipt(self, item_id: ItemId, receipt_path: FilePath) -> Item:
        """Attach a receipt file to an expense item of a draft or rejected report.

        Args:
            item_id: The expense item.
            receipt_path: Path of the receipt file.
        """
        item = self.db["items"].require(item_id)
        self._editable(item["report_id"])
        return self.db["items"].update(item_id, receipt_path=receipt_path)

    @tool(destructive=True, idempotent=True)
    def remove_expense_item(self, item_id: ItemId) -> Item:
        """Delete an expense item from a draft or rejected report.

        Args:
            item_id: The expense item.
        """
        item = self.db["items"].require(item_id)
        rep = self._editable(item["report_id"])
        self.db["reports"].update(rep["id"], total=max(round(rep["total"] - item["amount"], 2), 0.0))
        return self.db["items"].delete(item_id)

    @tool
    def submit_report(self, report_id: ReportId) -> Report:
        """Submit a report for approval. It needs items, and receipts for items above the category threshold.

        Args:
            report_id: The draft or rejected report.
        """
        self._editable(report_id)
        items = self.db["items"].find(report_id=report_id)
        if not items:
            raise ToolError(f"report {report_id} has no items; add expenses before submitting")
        missing = [i["id"] for i in items if not i["receipt_path"] and i["amount"] > self._policy(i["category"])["receipt_required_over"]]
        if missing:
            raise ToolError(f"receipts are required for items {', '.join(missing)} (above their category's receipt threshold)")
        return self.db["reports"].update(report_id, status="submitted", submitted_at=self.now(), approver_email=None,
                                         decided_at=None, decision_note="")

    @tool
    def approve_report(self, report_id: ReportId, approver_email: Email, note: Text = "") -> Report:
        """Approve a submitted report. Nobody can approve their own report.

        Args:
            report_id: The submitted report.
            approver_email: Email of the approving manager.
            note: Optional comment.
        """
        self._decidable(report_id, approver_email)
        return self.db["reports"].update(report_id, status="approved", approver_email=approver_email,
                                         decided_at=self.now(), decision_note=note)

    @tool
    def reject_report(self, report_id: ReportId, approver_email: Email, reason: Text) -> Report:
        """Reject a submitted report back to its owner with a reason.

        Args:
            report_id: The submitted report.
            approver_email: Email of the reviewing manager.
            reason: What must be fixed.
        """
        self._decidable(report_id, approver_email)
        if not reason.strip():
            raise ToolError("a rejection needs a reason")
        return self.db["reports"].update(report_id, status="rejected", approver_email=approver_email,
                                         decided_at=self.now(), decision_note=reason)

    @tool
    def reimburse_report(self, report_id: ReportId, paid_on: Date | None = None) -> Report:
        """Mark an approved report as reimbursed to the employee.

        Args:
            report_id: The approved report.
            paid_on: Payment date (YYYY-MM-DD); defaults to today.
        """
        rep = self.db["reports"].require(report_id)
        if rep["status"] != "approved":
            raise ToolError(f"report {report_id} is {rep['status']}; only approved reports can be reimbursed")
        return self.db["reports"].update(report_id, status="reimbursed", reimbursed_on=paid_on or self.today())
