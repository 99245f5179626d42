"""Payroll: salary records, monthly pay runs with payslips, bonuses and deductions."""

from __future__ import annotations

import calendar
from typing import Annotated, Iterable, Literal

from pydantic import StringConstraints
from typing_extensions import TypedDict

from compoworld.services import Collection, Service, ToolError, tool
from compoworld.services.fake import DataGen
from compoworld.services.library._types import (
    Currency, Date, DateTime, Email, Id, Limit, Money, Offset, Page, PersonName, Text, page,
)

RunId = Id("payroll", "pay_run")
AdjustmentId = Id("payroll", "adjustment")
Period = Annotated[str, StringConstraints(pattern=r"^\d{4}-(0[1-9]|1[0-2])$")]
RunStatus = Literal["draft", "finalized"]
AdjustmentKind = Literal["bonus", "deduction"]


# Emails are stored lowercase, so lookups are exact matches.
class Salary(TypedDict):
    id: Id("payroll", "salary")
    employee_email: Email
    employee_name: PersonName
    annual_salary: Money
    currency: Currency
    effective_date: Date
    created_at: DateTime


class PayRun(TypedDict):
    id: RunId
    period: Period
    pay_date: Date
    status: RunStatus
    employee_count: int
    total_gross: Money
    total_net: Money
    created_at: DateTime
    finalized_at: DateTime | None


class Payslip(TypedDict):
    id: Id("payroll", "payslip")
    run_id: RunId
    period: Period
    employee_email: Email
    employee_name: PersonName
    base: Money
    bonuses: Money
    deductions: Money
    gross: Money
    net: Money
    currency: Currency


class Adjustment(TypedDict):
    id: AdjustmentId
    run_id: RunId
    employee_email: Email
    kind: AdjustmentKind
    amount: Money
    reason: Text
    created_at: DateTime


def _period_end(period: str) -> str:
    year, month = int(period[:4]), int(period[5:7])
    return f"{period}-{calendar.monthrange(year, month)[1]:02d}"


def _shift(period: str, months: int) -> str:
    n = int(period[:4]) * 12 + int(period[5:7]) - 1 + months
    return f"{n // 12:04d}-{n % 12 + 1:02d}"


def _current(salaries: Iterable[dict], day: str) -> dict[str, dict]:
    """Each employee's salary in effect on `day`: the latest effective date not after it."""
    best: dict[str, dict] = {}
    for s in salaries:
        if s["effective_date"] <= day:
            cur = best.get(s["employee_email"])
            if cur is None or (s["effective_date"], s["created_at"]) > (cur["effective_date"], cur["created_at"]):
                best[s["employee_email"]] = s
    return best


def _slip(run_id: str, period: str, sal: dict) -> dict:
    base = round(sal["annual_salary"] / 12, 2)
    return {"run_id": run_id, "period": period, "employee_email": sal["employee_email"], "employee_name": sal["employee_name"],
            "base": base, "bonuses": 0.0, "deductions": 0.0, "gross": base, "net": base, "currency": sal["currency"]}


class Payroll(Service):
    name = "payroll"
    domain = "finance"
    description = "Payroll: salary history, one pay run per month with payslips, bonuses and deductions, and finalization."
    # A pay date is payroll's own calendar.
    roles = {"pay_runs": {"pay_date": "payday"}}
    tables = {
        "salaries": Collection(Salary, "salary", "sal"),
        "pay_runs": Collection(PayRun, "pay_run", "run"),
        "payslips": Collection(Payslip, "payslip", "ps"),
        "adjustments": Collection(Adjustment, "adjustment", "adj"),
    }

    def generate(self, gen: DataGen) -> dict[str, Iterable[dict]]:
        salaries = []
        for p in gen.world.employees:
            annual = float(gen.int(55, 190) * 1000)
            if gen.chance(0.5):  # superseded: last year's salary before a raise
                salaries.append({"employee_email": p.email, "employee_name": p.name, "annual_salary": round(annual * 0.92, -2),
                                 "currency": "USD", "effective_date": gen.date(-800, -401), "created_at": gen.datetime(-800, -401)})
            salaries.append({"employee_email": p.email, "employee_name": p.name, "annual_salary": annual, "currency": "USD",
                             "effective_date": gen.date(-400, -100), "created_at": gen.datetime(-400, -100)})
            if gen.chance(0.1):  # an approved raise that is not in effect yet
                salaries.append({"employee_email": p.email, "employee_name": p.name, "annual_salary": round(annual * 1.06, -2),
                                 "currency": "USD", "effective_date": gen.date(20, 60), "created_at": gen.datetime(-10, -1)})
        runs, slips, adjustments = [], [], []
        this = gen.today()[:7]
        for k, back in enumerate(range(-3, 1)):
            period = _shift(this, back)
            if back == 0 and gen.chance(0.5):
                continue
            run_id = f"run_{k + 1:04d}"
            final = back < 0
            run_slips = [_slip(run_id, period, s) for s in sorted(_current(salaries, _period_end(period)).values(),
                                                                     key=lambda s: s["employee_email"])]
            for slip in gen.sample(run_slips, gen.n(3)):
                amount = float(gen.int(5, 40) * 100)
                adjustments.append({"run_id": run_id, "employee_email": slip["employee_email"], "kind": "bonus", "amount": amount,
                                    "reason": gen.pick(["Spot bonus", "Referral bonus", "Quarterly target met"]),
                                    "created_at": gen.datetime(-100, -1)})
                slip.update(bonuses=slip["bonuses"] + amount, gross=round(slip["gross"] + amount, 2), net=round(slip["net"] + amount, 2))
            slips += run_slips
            runs.append({"id": run_id, "period": period, "pay_date": _period_end(period), "status": "finalized" if final else "draft",
                         "employee_count": len(run_slips), "total_gross": round(sum(s["gross"] for s in run_slips), 2),
                         "total_net": round(sum(s["net"] for s in run_slips), 2), "created_at": min(f"{period}-20T09:00:00Z", gen.today() + "T08:00:00Z"),
                         "finalized_at": f"{_period_end(period)}T09:00:00Z" if final else None})
        return {"salaries": salaries, "pay_runs": runs, "payslips": slips, "adjustments": adjustments}

    # -- helpers -------------------------------------------------------------------------------
    def _draft(self, run_id: str) -> dict:
        run = self.db["pay_runs"].require(run_id)
        if run["status"] != "draft":
            raise ToolError(f"pay run {run_id} ({run['period']}) is finalized and cannot be modified")
        return run

    def _payslip(self, run_id: str, email: str) -> dict:
        slip = next((s for s in self.db["payslips"].find(employee_email=email.lower()) if s["run_id"] == run_id), None)
        if slip is None:
            raise ToolError(f"{email} has no payslip in pay run {run_id} (no salary in effect for that period)")
        return slip

    def _apply(self, run: dict, slip: dict, kind: str, amount: float) -> None:
        """Add (or with a negative amount, take back) a bonus or deduction on a payslip and its run's totals."""
        gross_delta = amount if kind == "bonus" else 0.0
        net_delta = amount if kind == "bonus" else -amount
        field = "bonuses" if kind == "bonus" else "deductions"
        self.db["payslips"].update(slip["id"], **{field: round(slip[field] + amount, 2)}, gross=round(slip["gross"] + gross_delta, 2),
                                   net=round(slip["net"] + net_delta, 2))
        self.db["pay_runs"].update(run["id"], total_gross=round(run["total_gross"] + gross_delta, 2),
                                   total_net=round(run["total_net"] + net_delta, 2))

    # -- salaries ------------------------------------------------------------------------------
    @tool(read_only=True)
    def list_salary_history(self, employee_email: Email, limit: Limit = 20, offset: Offset = 0) -> Page[Salary]:
        """An employee's salary records (past, current and scheduled), latest effective date first.

        Args:
            employee_email: The employee's work email.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        rows = self.db["salaries"].find(employee_email=employee_email.lower())
        rows.sort(key=lambda s: (s["effective_date"], s["created_at"]), reverse=True)
        return page(rows, limit, offset)

    @tool(read_only=True)
    def get_current_salary(self, employee_email: Email, as_of: Date | None = None) -> Salary:
        """The salary record in effect for an employee on a date (the latest effective date not after it).

        Args:
            employee_email: The employee's work email.
            as_of: The date (YYYY-MM-DD); defaults to today.
        """
        cur = _current(self.db["salaries"].find(employee_email=employee_email.lower()), as_of or self.today())
        if not cur:
            raise ToolError(f"no salary in effect for {employee_email} on {as_of or self.today()}")
        return next(iter(cur.values()))

    @tool
    def set_salary(self, employee_email: Email, employee_name: PersonName, annual_salary: Money, effective_date: Date,
                   currency: Currency = "USD") -> Salary:
        """Record a new annual salary from an effective date; it may not fall in a finalized pay period.

        Args:
            employee_email: The employee's work email.
            employee_name: The employee's full name.
            annual_salary: Gross annual salary (positive).
            effective_date: First day the salary applies (YYYY-MM-DD).
            currency: ISO currency code.
        """
        if annual_salary <= 0:
            raise ToolError("annual_salary must be positive")
        email = employee_email.lower()
        if self.db["salaries"].first(employee_email=email, effective_date=effective_date):
            raise ToolError(f"{employee_email} already has a salary effective {effective_date}; pick another date")
        locked = next((r for r in self.db["pay_runs"] if r["status"] == "finalized" and r["period"] >= effective_date[:7]), None)
        if locked:
            raise ToolError(f"effective_date {effective_date} falls in or before finalized pay run {locked['id']} ({locked['period']}); "
                            "backdated pay goes in as a bonus on an open run")
        return self.db["salaries"].insert({"employee_email": email, "employee_name": employee_name, "annual_salary": annual_salary,
                                            "currency": currency, "effective_date": effective_date, "created_at": self.now()})

    # -- pay runs ------------------------------------------------------------------------------
    @tool(read_only=True)
    def list_pay_runs(self, status: RunStatus | None = None, limit: Limit = 20, offset: Offset = 0) -> Page[PayRun]:
        """List pay runs, latest period first.

        Args:
            status: Only draft or only finalized runs.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        rows = sorted((r for r in self.db["pay_runs"] if status is None or r["status"] == status), key=lambda r: r["period"], reverse=True)
        return page(rows, limit, offset)

    @tool(read_only=True)
    def get_pay_run(self, run_id: RunId) -> PayRun:
        """Get one pay run by id, with its totals.

        Args:
            run_id: The pay run's id.
        """
        return self.db["pay_runs"].require(run_id)

    @tool
    def create_pay_run(self, period: Period, pay_date: Date) -> PayRun:
        """Open the draft pay run of a month, with a payslip for everyone whose salary is in effect at month end. One run per period.

        Args:
            period: The month paid, as YYYY-MM.
            pay_date: When salaries are paid (YYYY-MM-DD), not before the period starts.
        """
        existing = self.db["pay_runs"].first(period=period)
        if existing:
            raise ToolError(f"pay run {existing['id']} already covers {period} ({existing['status']}); one pay run per period")
        if pay_date < f"{period}-01":
            raise ToolError(f"pay_date {pay_date} is before the period {period} starts")
        run = self.db["pay_runs"].insert({"period": period, "pay_date": pay_date, "status": "draft", "employee_count": 0, "total_gross": 0.0,
                                          "total_net": 0.0, "created_at": self.now(), "finalized_at": None})
        slips = [self.db["payslips"].insert(_slip(run["id"], period, s))
                 for s in sorted(_current(self.db["salaries"], _period_end(period)).values(), key=lambda s: s["employee_email"])]
        if not slips:
            raise ToolError(f"nobody has a salary in effect for {period}")
        total = round(sum(s["gross"] for s in slips), 2)
        return self.db["pay_runs"].update(run["id"], employee_count=len(slips), total_gross=total, total_net=total)

    @tool
    def finalize_pay_run(self, run_id: RunId) -> PayRun:
        """Lock a draft pay run; after this nothing in it can change.

        Args:
            run_id: The draft pay run.
        """
        self._draft(run_id)
        return self.db["pay_runs"].update(run_id, status="finalized", finalized_at=self.now())

    @tool(destructive=True)
    def delete_pay_run(self, run_id: RunId) -> PayRun:
        """Delete a draft pay run with its payslips and adjustments.

        Args:
            run_id: The draft pay run.
        """
        self._draft(run_id)
        for coll in ("payslips", "adjustments"):
            for row in self.db[coll].find(run_id=run_id):
                self.db[coll].delete(row["id"])
        return self.db["pay_runs"].delete(run_id)

    # -- payslips and adjustments --------------------------------------------------------------
    @tool(read_only=True)
    def list_payslips(self, run_id: RunId | None = None, employee_email: Email | None = None, limit: Limit = 20,
                      offset: Offset = 0) -> Page[Payslip]:
        """List payslips, latest period first, for one run and/or one employee.

        Args:
            run_id: Only payslips of this pay run.
            employee_email: Only this employee's payslips.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        pool = self.db["payslips"].find(employee_email=employee_email.lower()) if employee_email else self.db["payslips"]
        rows = [s for s in pool if run_id is None or s["run_id"] == run_id]
        rows.sort(key=lambda s: (s["period"], s["employee_email"]), reverse=True)
        return page(rows, limit, offset)

    @tool
    def add_bonus(self, run_id: RunId, employee_email: Email, amount: Money, reason: Text) -> Payslip:
        """Add a bonus to an employee's payslip in a draft pay run. It needs a positive amount and a reason.

        Args:
            run_id: The draft pay run.
            employee_email: Who receives the bonus.
            amount: Bonus amount (positive).
            reason: Why it is paid.
        """
        run = self._draft(run_id)
        if amount <= 0:
            raise ToolError("a bonus amount must be positive")
        if not reason.strip():
            raise ToolError("a bonus needs a reason")
        slip = self._payslip(run_id, employee_email)
        self.db["adjustments"].insert({"run_id": run_id, "employee_email": slip["employee_email"], "kind": "bonus", "amount": amount,
                                       "reason": reason, "created_at": self.now()})
        self._apply(run, slip, "bonus", amount)
        return self.db["payslips"].require(slip["id"])

    @tool
    def add_deduction(self, run_id: RunId, employee_email: Email, amount: Money, reason: Text) -> Payslip:
        """Deduct an amount from an employee's net pay in a draft pay run; net pay cannot go below zero.

        Args:
            run_id: The draft pay run.
            employee_email: Whose pay is reduced.
            amount: Amount to deduct (positive).
            reason: Why, e.g. a salary advance repayment.
        """
        run = self._draft(run_id)
        if amount <= 0:
            raise ToolError("a deduction amount must be positive")
        if not reason.strip():
            raise ToolError("a deduction needs a reason")
        slip = self._payslip(run_id, employee_email)
        if amount > slip["net"]:
            raise ToolError(f"deduction of {amount} exceeds {slip['employee_name']}'s net pay of {slip['net']}")
        self.db["adjustments"].insert({"run_id": run_id, "employee_email": slip["employee_email"], "kind": "deduction", "amount": amount,
                                       "reason": reason, "created_at": self.now()})
        self._apply(run, slip, "deduction", amount)
        return self.db["payslips"].require(slip["id"])

    @tool(read_only=True)
    def list_adjustments(self, run_id: RunId | None = None, employee_email: Email | None = None, kind: AdjustmentKind | None = None,
                         limit: Limit = 20, offset: Offset = 0) -> Page[Adjustment]:
        """List bonuses and deductions, newest first.

        Args:
            run_id: Only adjustments in this pay run.
            employee_email: Only this employee's adjustments.
            kind: Only bonuses or only deductions.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        pool = self.db["adjustments"].find(employee_email=employee_email.lower()) if employee_email else self.db["adjustments"]
        rows = [a for a in pool if (run_id is None or a["run_id"] == run_id) and (kind is None or a["kind"] == kind)]
        rows.sort(key=lambda a: (a["created_at"], a["id"]), reverse=True)
        return page(rows, limit, offset)

    @tool(destructive=True)
    def remove_adjustment(self, adjustment_id: AdjustmentId) -> Adjustment:
        """Delete a bonus or deduction from a draft pay run, reversing its effect on the payslip.

        Args:
            adjustment_id: The adjustment.
        """
        adj = self.db["adjustments"].require(adjustment_id)
        run = self._draft(adj["run_id"])
        slip = self._payslip(adj["run_id"], adj["employee_email"])
        if adj["kind"] == "bonus" and slip["net"] < adj["amount"]:
            raise ToolError(f"removing this bonus would make {slip['employee_name']}'s net pay negative; remove deductions first")
        self._apply(run, slip, adj["kind"], -adj["amount"])
        return self.db["adjustments"].delete(adjustment_id)
