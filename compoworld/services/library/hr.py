"""HR: employee records (departments, managers, titles), time-off balances and leave requests (people)."""

from __future__ import annotations

from typing import Iterable, Literal

from typing_extensions import TypedDict

from compoworld.services import Collection, Service, ToolError, tool
from compoworld.services.fake import DataGen, add_days, business_days
from compoworld.services.library._types import (
    City, Date, DateTime, Email, Id, Limit, Offset, Page, PersonName, Phone, Query, Text, matches, page,
)

EmployeeId = Id("hr", "employee")
LeaveId = Id("hr", "leave_request")
LeaveType = Literal["vacation", "sick", "personal"]
LeaveStatus = Literal["pending", "approved", "rejected", "cancelled"]
EmploymentStatus = Literal["active", "terminated"]
HELD = ("pending", "approved")  # requests that occupy days on the calendar


# Emails are stored lowercase, so lookups are exact matches.
class Employee(TypedDict):
    id: EmployeeId
    name: PersonName
    email: Email
    phone: Phone
    department: str
    title: str
    manager_email: Email | None
    location: City
    start_date: Date
    status: EmploymentStatus
    updated_at: DateTime


class Department(TypedDict):
    id: Id("hr", "department")
    name: str
    head_email: Email
    cost_center: str


class Balance(TypedDict):
    id: Id("hr", "balance")
    employee_email: Email
    leave_type: LeaveType
    days: float
    updated_at: DateTime


class LeaveRequest(TypedDict):
    id: LeaveId
    employee_email: Email
    employee_name: PersonName
    leave_type: LeaveType
    start_date: Date
    end_date: Date
    days: float
    status: LeaveStatus
    approver_email: Email | None
    note: Text
    created_at: DateTime
    decided_at: DateTime | None


class Hr(Service):
    name = "hr"
    domain = "hr"
    description = "Human resources: employee directory with departments and managers, time-off balances and leave requests."
    # Leave is its own kind of date: it goes on the calendar, but no hire date or deadline becomes one
    # (a purchase request's needed-by day is no one's leave).
    roles = {"leave_requests": {"start_date": "absence", "end_date": "absence"}}
    tables = {
        "employees": Collection(Employee, "employee", "emp"),
        "departments": Collection(Department, "department", "dept"),
        "balances": Collection(Balance, "balance", "bal"),
        "leave_requests": Collection(LeaveRequest, "leave_request", "lv"),
    }

    def generate(self, gen: DataGen) -> dict[str, Iterable[dict]]:
        employees, departments, balances, requests = [], [], [], []
        people = gen.world.employees
        heads: dict[str, str] = {}
        for p in people:
            heads.setdefault(p.department, p.email)
        ceo = people[0].email
        for k, (dept, head) in enumerate(heads.items()):
            departments.append({"name": dept, "head_email": head, "cost_center": f"CC-{100 + 10 * k}"})
        for p in people:
            manager = heads[p.department] if heads[p.department] != p.email else (None if p.email == ceo else ceo)
            city = gen.pick(["Boston", "Austin", "London", "Berlin", "Remote"])
            if gen.chance(0.1):  # a stale row: the same person's record from an earlier stint, superseded on rehire
                employees.append({"name": p.name, "email": p.email.replace("@", ".old@"), "phone": p.phone,
                                  "department": gen.pick(list(heads)), "title": p.title, "manager_email": manager,
                                  "location": city, "start_date": gen.date(-2000, -1200), "status": "terminated",
                                  "updated_at": gen.datetime(-900, -400)})
            employees.append({"name": p.name, "email": p.email, "phone": p.phone, "department": p.department,
                              "title": p.title, "manager_email": manager, "location": city,
                              "start_date": gen.date(-1500, -30), "status": "active", "updated_at": gen.datetime(-200, -1)})
            for lt, (lo, hi) in {"vacation": (0, 25), "sick": (2, 10), "personal": (0, 3)}.items():
                balances.append({"employee_email": p.email, "leave_type": lt, "days": float(gen.int(lo, hi)),
                                 "updated_at": gen.datetime(-90, -1)})
        by_email = {e["email"]: e for e in employees if e["status"] == "active"}
        taken: dict[str, list[tuple[str, str]]] = {}
        for _ in range(gen.n(15)):
            p = gen.pick(people)
            start = gen.date(-45, 60)
            end = add_days(start, gen.int(0, 4))
            if business_days(start, end) == 0 or any(not (end < s or start > e) for s, e in taken.get(p.email, [])):
                continue
            taken.setdefault(p.email, []).append((start, end))
            status = gen.pick(["pending", "approved", "approved", "rejected", "cancelled"])
            if by_email[p.email]["manager_email"] is None and status in ("approved", "rejected"):
                status = "pending"  # nobody above the top may decide
            requests.append({"employee_email": p.email, "employee_name": p.name, "leave_type": gen.pick(["vacation", "vacation", "sick", "personal"]),
                             "start_date": start, "end_date": end, "days": float(business_days(start, end)), "status": status,
                             "approver_email": by_email[p.email]["manager_email"] if status in ("approved", "rejected") else None,
                             "note": gen.sentence(), "created_at": gen.datetime(-60, -46),
                             "decided_at": gen.datetime(-45, -1) if status in ("approved", "rejected") else None})
        return {"employees": employees, "departments": departments, "balances": balances, "leave_requests": requests}

    # -- helpers -------------------------------------------------------------------------------
    def _active(self, email: str) -> dict:
        emp = self.db["employees"].first(email=email.lower(), status="active")
        if emp is None:
            raise ToolError(f"no active employee with email {email}")
        return emp

    def _balance(self, email: str, leave_type: str) -> dict | None:
        return self.db["balances"].first(employee_email=email, leave_type=leave_type)

    def _decidable(self, request_id: str, approver_email: str) -> tuple[dict, dict]:
        req = self.db["leave_requests"].require(request_id)
        if req["status"] != "pending":
            raise ToolError(f"leave request {request_id} is {req['status']}; only pending requests can be decided")
        emp = self._active(req["employee_email"])
        if emp["manager_email"] != approver_email.lower():
            raise ToolError(f"only {emp['name']}'s manager ({emp['manager_email'] or 'none on file'}) can decide this request, "
                            f"not {approver_email}")
        return req, emp

    # -- employees -----------------------------------------------------------------------------
    @tool(read_only=True)
    def search_employees(self, query: Query = "", department: str | None = None, manager_email: Email | None = None,
                         status: EmploymentStatus | None = "active", limit: Limit = 20, offset: Offset = 0) -> Page[Employee]:
        """Search the employee directory by name, email or title, most recently updated first.

        Args:
            query: Text to match in name, email or job title (case-insensitive).
            department: Only employees of this department.
            manager_email: Only direct reports of this manager.
            status: Only employees with this status (default active; null for all).
            limit: Maximum number of results.
            offset: Results to skip.
        """
        mgr = manager_email.lower() if manager_email else None  # stored lowercase
        rows = [e for e in self.db["employees"].ordered(("updated_at",), reverse=True) if (status is None or e["status"] == status)
                and (department is None or e["department"] == department)
                and (mgr is None or e["manager_email"] == mgr)
                and matches(query, e["name"], e["email"], e["title"])]
        return page(rows, limit, offset)

    @tool(read_only=True)
    def get_employee(self, employee_id: EmployeeId) -> Employee:
        """Get one employee record by id.

        Args:
            employee_id: The employee's id.
        """
        return self.db["employees"].require(employee_id)

    @tool(read_only=True)
    def get_employee_by_email(self, email: Email) -> Employee:
        """Get the active employee with this work email.

        Args:
            email: Work email address.
        """
        return self._active(email)

    @tool(read_only=True)
    def list_departments(self) -> list[Department]:
        """List departments with their heads and cost centers."""
        return sorted(self.db["departments"], key=lambda d: d["name"])

    @tool
    def create_employee(self, name: PersonName, email: Email, department: str, title: str, manager_email: Email,
                        start_date: Date, location: City = "Remote", phone: str = "+1-555-0100") -> Employee:
        """Add an employee. The email must be unused by active employees and the manager must be active.

        Args:
            name: Full name.
            email: Work email address.
            department: Department name (see list_departments).
            title: Job title.
            manager_email: Email of the employee's manager.
            start_date: First working day (YYYY-MM-DD).
            location: Office city or 'Remote'.
            phone: Work phone.
        """
        if not self.db["departments"].first(name=department):
            raise ToolError(f"unknown department '{department}'; see list_departments")
        email, manager_email = email.lower(), manager_email.lower()
        if self.db["employees"].first(email=email, status="active"):
            raise ToolError(f"an active employee already uses {email}")
        self._active(manager_email)
        emp = self.db["employees"].insert({"name": name, "email": email, "phone": phone, "department": department, "title": title,
                                            "manager_email": manager_email, "location": location, "start_date": start_date,
                                            "status": "active", "updated_at": self.now()})
        for lt, days in {"vacation": 10.0, "sick": 5.0, "personal": 1.0}.items():
            if not self._balance(email, lt):
                self.db["balances"].insert({"employee_email": email, "leave_type": lt, "days": days, "updated_at": self.now()})
        return emp

    @tool(idempotent=True)
    def update_employee(self, employee_id: EmployeeId, title: str | None = None, department: str | None = None,
                        manager_email: Email | None = None) -> Employee:
        """Change an active employee's title, department or manager.

        Args:
            employee_id: The employee to update.
            title: New job title.
            department: New department name.
            manager_email: New manager's email (an active employee other than themself).
        """
        emp = self.db["employees"].require(employee_id)
        if emp["status"] != "active":
            raise ToolError(f"employee {employee_id} is terminated; update their active record instead")
        changes = {k: v for k, v in {"title": title, "department": department, "manager_email": manager_email}.items() if v is not None}
        if not changes:
            raise ToolError("nothing to update: give title, department or manager_email")
        if department is not None and not self.db["departments"].first(name=department):
            raise ToolError(f"unknown department '{department}'; see list_departments")
        if manager_email is not None:
            changes["manager_email"] = manager_email = manager_email.lower()
            if manager_email == emp["email"]:
                raise ToolError("an employee cannot be their own manager")
            self._active(manager_email)
        return self.db["employees"].update(employee_id, **changes, updated_at=self.now())

    @tool(destructive=True, idempotent=True)
    def terminate_employee(self, employee_id: EmployeeId) -> Employee:
        """Terminate an employee: the record stays, marked terminated, and pending leave is cancelled.

        Args:
            employee_id: The employee to terminate.
        """
        emp = self.db["employees"].require(employee_id)
        reports = [e["name"] for e in self.db["employees"] if e["status"] == "active" and e["manager_email"] == emp["email"]]
        if emp["status"] == "active" and reports:
            raise ToolError(f"{emp['name']} still manages {', '.join(reports[:5])}; reassign them first")
        for req in self.db["leave_requests"].find(employee_email=emp["email"], status="pending"):
            self.db["leave_requests"].update(req["id"], status="cancelled", decided_at=self.now())
        return self.db["employees"].update(employee_id, status="terminated", updated_at=self.now())

    # -- time off ------------------------------------------------------------------------------
    @tool(read_only=True)
    def get_leave_balances(self, employee_email: Email) -> list[Balance]:
        """An employee's remaining time-off balances in business days, per leave type.

        Args:
            employee_email: The employee's work email.
        """
        emp = self._active(employee_email)
        return sorted(self.db["balances"].find(employee_email=emp["email"]), key=lambda b: b["leave_type"])

    @tool
    def adjust_balance(self, employee_email: Email, leave_type: LeaveType, days: float, reason: Text) -> Balance:
        """Grant (positive days) or remove (negative days) time off; a balance never goes below zero.

        Args:
            employee_email: The employee's work email.
            leave_type: Which balance to adjust.
            days: Days to add (negative to remove), in half-day steps.
            reason: Why the balance changes.
        """
        emp = self._active(employee_email)
        if days == 0 or (days * 2) % 1:
            raise ToolError("days must be a non-zero multiple of 0.5")
        if not reason.strip():
            raise ToolError("a balance adjustment needs a reason")
        bal = self._balance(emp["email"], leave_type)
        new = (bal["days"] if bal else 0.0) + days
        if new < 0:
            raise ToolError(f"{emp['name']} has {bal['days'] if bal else 0.0} {leave_type} days; cannot remove {-days}")
        if bal is None:
            return self.db["balances"].insert({"employee_email": emp["email"], "leave_type": leave_type, "days": new, "updated_at": self.now()})
        return self.db["balances"].update(bal["id"], days=new, updated_at=self.now())

    @tool
    def request_leave(self, employee_email: Email, leave_type: LeaveType, start_date: Date, end_date: Date, note: Text = "") -> LeaveRequest:
        """File a leave request. It may not overlap another pending or approved request, nor exceed the balance
        left after other pending requests of the same type.

        Args:
            employee_email: The employee taking leave.
            leave_type: vacation, sick or personal.
            start_date: First day off (YYYY-MM-DD), today or later.
            end_date: Last day off (YYYY-MM-DD), on or after start_date.
            note: Optional note for the manager.
        """
        emp = self._active(employee_email)
        if end_date < start_date:
            raise ToolError(f"end_date {end_date} is before start_date {start_date}")
        if start_date < self.today():
            raise ToolError(f"start_date {start_date} is in the past (today is {self.today()})")
        days = float(business_days(start_date, end_date))
        if days == 0:
            raise ToolError(f"{start_date}..{end_date} contains no business days")
        mine = self.db["leave_requests"].find(employee_email=emp["email"])
        clash = next((r for r in mine if r["status"] in HELD and not (end_date < r["start_date"] or start_date > r["end_date"])), None)
        if clash:
            raise ToolError(f"overlaps {clash['status']} request {clash['id']} ({clash['start_date']}..{clash['end_date']})")
        bal = self._balance(emp["email"], leave_type)
        balance = bal["days"] if bal else 0.0
        pending = sum(r["days"] for r in mine if r["status"] == "pending" and r["leave_type"] == leave_type)
        if days > balance - pending:
            raise ToolError(f"request needs {days:g} business days but only {balance - pending:g} {leave_type} days are available "
                            f"(balance {balance:g}, {pending:g} pending)")
        return self.db["leave_requests"].insert({"employee_email": emp["email"], "employee_name": emp["name"], "leave_type": leave_type,
                                                  "start_date": start_date, "end_date": end_date, "days": days, "status": "pending",
                                                  "approver_email": None, "note": note, "created_at": self.now(), "decided_at": None})

    @tool(read_only=True)
    def search_leave_requests(self, employee_email: Email | None = None, manager_email: Email | None = None,
                              status: LeaveStatus | None = None, on_date: Date | None = None, limit: Limit = 20,
                              offset: Offset = 0) -> Page[LeaveRequest]:
        """List leave requests by start date, optionally for one employee, one manager's team, or one day.

        Args:
            employee_email: Only requests of this employee.
            manager_email: Only requests of this manager's direct reports.
            status: Only requests in this status.
            on_date: Only requests whose period includes this date (YYYY-MM-DD).
            limit: Maximum number of results.
            offset: Results to skip.
        """
        team = None
        if manager_email:
            mgr = manager_email.lower()
            team = {e["email"] for e in self.db["employees"].find(manager_email=mgr)}
        emp = employee_email.lower() if employee_email else None
        rows = [r for r in self.db["leave_requests"].ordered(("start_date", "id")) if (status is None or r["status"] == status)
                and (emp is None or r["employee_email"] == emp) and (team is None or r["employee_email"] in team)
                and (on_date is None or r["start_date"] <= on_date <= r["end_date"])]
        return page(rows, limit, offset)

    @tool
    def approve_leave(self, request_id: LeaveId, approver_email: Email) -> LeaveRequest:
        """Approve a pending leave request; its business days are deducted from the balance. Only the employee's manager may approve.

        Args:
            request_id: The pending request.
            approver_email: The approving manager's email.
        """
        req, emp = self._decidable(request_id, approver_email)
        bal = self._balance(emp["email"], req["leave_type"])
        if bal is None or bal["days"] < req["days"]:
            raise ToolError(f"{emp['name']} has {bal['days'] if bal else 0:g} {req['leave_type']} days left; the request needs {req['days']:g}")
        self.db["balances"].update(bal["id"], days=bal["days"] - req["days"], updated_at=self.now())
        return self.db["leave_requests"].update(request_id, status="approved", approver_email=approver_email, decided_at=self.now())

    @tool
    def reject_leave(self, request_id: LeaveId, approver_email: Email, reason: Text) -> LeaveRequest:
        """Reject a pending leave request. Only the employee's manager may reject.

        Args:
            request_id: The pending request.
            approver_email: The manager's email.
            reason: Why it is rejected.
        """
        req, _ = self._decidable(request_id, approver_email)
        if not reason.strip():
            raise ToolError("a rejection needs a reason")
        return self.db["leave_requests"].update(request_id, status="rejected", approver_email=approver_email,
                                                decided_at=self.now(), note=f"{req['note']} [rejected: {reason}]".strip())

    @tool
    def cancel_leave(self, request_id: LeaveId) -> LeaveRequest:
        """Cancel a pending request, or an approved one that has not started (its days go back to the balance).

        Args:
            request_id: The request to cancel.
        """
        req = self.db["leave_requests"].require(request_id)
        if req["status"] not in HELD:
            raise ToolError(f"leave request {request_id} is already {req['status']}")
        if req["status"] == "approved":
            if req["start_date"] <= self.today():
                raise ToolError(f"leave request {request_id} started on {req['start_date']}; it can no longer be cancelled")
            bal = self._balance(req["employee_email"], req["leave_type"])
            if bal is not None:
                self.db["balances"].update(bal["id"], days=bal["days"] + req["days"], updated_at=self.now())
        return self.db["leave_requests"].update(request_id, status="cancelled", decided_at=self.now())
