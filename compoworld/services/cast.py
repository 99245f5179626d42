"""The cast of a seeded world, and the roles its values play.

One seed, one world (`compoworld.services.fake.world`): employees of our company, contacts at
customer companies, vendors and their people, candidates, products. This module adds what the
services and the task designer need on top of it:

- **Roles.** A joinable field carries a semantic type (`email`) *and* a role: whose email it is
  (an `employee`, a `customer_contact`, a `vendor_contact`, a `candidate`, anyone who mails us: a
  `correspondent`), which company (`customer`, `vendor`), what a title, date or amount means (a
  `deal_amount` is not a `salary`). `role_of` resolves a field's role: the service's own `roles`
  declaration first (`{collection: {field: role}}`, a class attribute), then rules on the field and
  collection names; "" (generic) where nothing says, which fits any role. `fits(src, dst)` says
  whether a value in role `src` may flow into a field in role `dst`: the same role, or one of the
  business hand-offs in `HANDOFFS` (a candidate becomes an employee, anyone may be mailed, a won
  deal's amount is invoiced, ...).
- **Drawing from the cast.** `Cast.person(rng, role)`, `Cast.company(rng, role)` and
  `Cast.amount(rng, kind)` give task designers people, companies and amounts of the same world (the
  same email is the same person everywhere) in plausible ranges per kind.

Services know nothing of tasks: the roles are facts about fields, read by the graph and the checker.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, Mapping

from compoworld.services.fake import FIRST, LAST, Company, Person, World, world

PERSON_SEMS = frozenset({"email", "person_name", "phone"})
PERSON_ROLES = ("employee", "customer_contact", "vendor_contact", "candidate", "correspondent")
EXTERNAL = frozenset({"customer_contact", "vendor_contact", "candidate"})
PRIVATE_DOMAINS = ("mailbox.org", "fastmail.com", "proton.me", "posteo.net")  # candidates' own addresses
# Record markers that make a person in an employee field external (a chat guest from a customer).
GUEST_VALUES = frozenset({"guest", "external"})

# A value in the first role may become the second (besides the same role): plausible hand-offs.
HANDOFFS: frozenset[tuple[str, str]] = frozenset({
    ("candidate", "employee"),  # a new hire becomes an employee
    ("employee", "correspondent"), ("customer_contact", "correspondent"),  # anyone may be mailed
    ("vendor_contact", "correspondent"), ("candidate", "correspondent"),
    ("correspondent", "customer_contact"),  # a customer's mail leads to their record
    ("deal", "project"),  # a won deal becomes a project
    ("mail_subject", "ticket"),  # a mail becomes a ticket
    ("ticket", "task"),  # an escalated ticket becomes a task
    ("deal_amount", "invoice_amount"), ("deal_amount", "budget"),  # a won deal is invoiced, and budgeted
    ("expense_amount", "pay_amount"),  # an expense is reimbursed through payroll
    ("price", "deal_amount"),  # a product's price makes a deal's amount
    ("deadline", "schedule"),  # a due date goes on the calendar
    ("absence", "schedule"),  # a leave goes on the calendar
    ("receipt", "document_path"),  # a receipt is filed in the drive
    ("start", "effective"),  # a hire's start date makes their salary effective
})
# Roles that identify nothing another service could use (when a record was written).
DEAD_ENDS = frozenset({"record_time"})

# Rules on names, for services that declare nothing (compiled ones) and fields a library service
# leaves undeclared. Person fields: the prefix before `_email` / `_name` / `_phone`.
EMPLOYEE_PREFIXES = ("owner", "assignee", "manager", "approver", "head", "organizer", "hiring_manager", "interviewer",
                     "received_by", "employee", "created_by", "agent", "reviewer", "host", "author", "requester")
CUSTOMER_PREFIXES = ("customer", "billing", "client", "sent_to", "subscriber", "lead")
VENDOR_PREFIXES = ("vendor", "supplier")
CORRESPONDENT_PREFIXES = ("from", "to", "sender", "recipient", "cc")
COLLECTION_PEOPLE = {"users": "employee", "agents": "employee", "employees": "employee", "members": "employee",
                     "staff": "employee", "mailboxes": "employee", "contacts": "customer_contact",
                     "subscribers": "customer_contact", "customers": "customer_contact", "leads": "customer_contact",
                     "candidates": "candidate", "applicants": "candidate", "vendors": "vendor_contact",
                     "suppliers": "vendor_contact"}
COLLECTION_COMPANIES = {"companies": "customer", "customers": "customer", "accounts": "customer",
                        "vendors": "vendor", "suppliers": "vendor"}
PAST_WORDS = ("created", "updated", "sent", "posted", "decided", "submitted", "recorded", "received", "resolved",
              "finalized", "published", "applied", "bounced", "last_message", "shipped", "issue_date")

# Plausible ranges per kind of amount (currency units; quantities in units): what the seeded
# services hold, and what a designer should write.
AMOUNTS: dict[str, tuple[float, float]] = {
    "salary": (45_000, 220_000), "price": (5, 6_000), "quantity": (1, 60), "expense": (1, 2_500),
    "invoice": (20, 80_000), "purchase": (10, 150_000), "budget": (2_000, 250_000), "deal": (1_000, 150_000),
    "bonus": (250, 15_000),
}
ROUNDING = {"salary": 500.0, "budget": 1000.0, "deal": 500.0, "bonus": 50.0}

# What a title, an amount or a path means, by the collection it belongs to.
TITLE_ROLES = {"events": "meeting", "meetings": "meeting", "deals": "deal", "opportunities": "deal", "files": "document",
               "folders": "document", "articles": "document", "spreadsheets": "document", "documents": "document",
               "pages": "document", "notes": "document", "tickets": "ticket", "issues": "ticket", "messages": "mail_subject",
               "threads": "mail_subject", "projects": "project", "tasks": "task", "requests": "purchase_request",
               "openings": "opening", "jobs": "opening", "applications": "opening", "reports": "expense_report",
               "products": "product", "campaigns": "campaign", "audiences": "audience"}
MONEY_ROLES = {"deals": "deal_amount", "opportunities": "deal_amount", "invoices": "invoice_amount", "payments": "invoice_amount",
               "credit_notes": "invoice_amount", "customers": "invoice_amount", "reports": "expense_amount",
               "items": "expense_amount", "expenses": "expense_amount", "policies": "expense_limit", "salaries": "salary",
               "payslips": "pay_amount", "adjustments": "pay_amount", "pay_runs": "pay_amount", "products": "price",
               "projects": "budget", "requests": "purchase_amount", "purchase_orders": "purchase_amount"}
FILE_ROLES = {"files": "document_path", "folders": "document_path", "documents": "document_path"}


def _person_role(collection: str, field: str) -> str:
    pre = next((field[: -len(s)] for s in ("_email", "_name", "_phone", "_address") if field.endswith(s)), field)
    if pre == "contact":  # a collection's contact is its kind of outside person (a vendor's, a customer's)
        role = COLLECTION_PEOPLE.get(collection, "")
        return role if role in EXTERNAL else "customer_contact"
    for prefixes, role in ((EMPLOYEE_PREFIXES, "employee"), (CUSTOMER_PREFIXES, "customer_contact"),
                           (VENDOR_PREFIXES, "vendor_contact"), (("candidate", "applicant"), "candidate"),
                           (CORRESPONDENT_PREFIXES, "correspondent")):
        if pre in prefixes or any(pre.startswith(p + "_") for p in prefixes):
            return role
    return COLLECTION_PEOPLE.get(collection, "")


def _date_role(field: str) -> str:
    if "due" in field or field in ("needed_by", "close_date", "deadline", "end_date", "expires_at"):
        return "deadline"
    if field.startswith("effective"):
        return "effective"
    if field in ("start_date", "hire_date"):
        return "start"
    if field in ("start", "end", "date", "scheduled_at", "starts_at", "ends_at", "start_at", "end_at"):
        return "schedule"
    if field == "at" or field.startswith(PAST_WORDS) or field.endswith(("_at", "_on")):
        return "record_time"
    return ""


@lru_cache(maxsize=65536)  # a pure function of a class (its `roles` declaration) and names: asked per record by the designer
def role_of(service_cls: Any, collection: str, field: str, sem: str) -> str:
    """The role of one field of a service's collection ("" when nothing says: generic)."""
    declared = (getattr(service_cls, "roles", None) or {}).get(collection, {}).get(field)
    if declared is not None:
        return declared
    if sem in PERSON_SEMS:
        return _person_role(collection, field)
    if sem == "company_name":
        if field in ("name", "company_name", "company") and collection in COLLECTION_COMPANIES:
            return COLLECTION_COMPANIES[collection]
        if any(w in field for w in ("vendor", "supplier")):
            return "vendor"
        if field == "merchant":
            return "merchant"
        if any(w in field for w in ("customer", "client")):
            return "customer"
        return ""
    if sem in ("date", "datetime"):
        return _date_role(field)
    if sem == "code" and field == "sku":
        return "sku"
    if sem == "title":
        return TITLE_ROLES.get(collection, "")
    if sem == "money":
        return MONEY_ROLES.get(collection, "")
    if sem == "file_path":
        return "receipt" if "receipt" in field else FILE_ROLES.get(collection, "")
    return ""


def fits(src: str, dst: str, sem: str = "") -> bool:
    """May a value of type `sem` in role `src` flow into a field in role `dst`? Generic ("") fits
    anything; a candidate's private email does not become an employee's (a new hire keeps the name)."""
    if src in DEAD_ENDS or dst in DEAD_ENDS:
        return False
    if (src, dst) == ("candidate", "employee") and sem == "email":
        return False
    return not src or not dst or src == dst or (src, dst) in HANDOFFS


def record_role(role: str, record: Mapping[str, Any]) -> str:
    """A person field's role for one record: an employee field of a record marked as a guest
    (a customer's user in a shared chat channel) holds an external contact."""
    if role == "employee" and any(isinstance(record.get(k), str) and record[k] in GUEST_VALUES for k in ("role", "kind", "type")):
        return "customer_contact"
    return role


VENDOR_TITLES = ("Account Manager", "Sales Representative", "Customer Success Manager", "Order Desk Lead")


@dataclass(frozen=True)
class Cast:
    """The people, companies and amounts of one seeded world, drawn by role: the world's employees
    and customer contacts, plus vendors' people and candidates (private addresses, employed at a
    customer company or nowhere)."""

    world: World
    vendor_contacts: tuple[Person, ...]
    candidates: tuple[Person, ...]

    def people(self, role: str) -> tuple[Person, ...]:
        if role == "employee":
            return self.world.employees
        if role in ("customer_contact", "correspondent"):
            return self.world.contacts
        if role == "vendor_contact":
            return self.vendor_contacts
        if role == "candidate":
            return self.candidates
        raise ValueError(f"unknown person role {role!r}; expected one of {', '.join(PERSON_ROLES)}")

    def person(self, rng: random.Random, role: str = "employee") -> Person:
        """A person of the world in this role (the same email is the same person in every service)."""
        people = self.people(role)
        return people[rng.randrange(len(people))]

    def company(self, rng: random.Random, role: str = "customer") -> Company:
        """A customer company, or a vendor (role "vendor")."""
        pool = self.world.vendors if role == "vendor" else self.world.companies
        return pool[rng.randrange(len(pool))]

    def everyone(self) -> tuple[Person, ...]:
        return (*self.world.employees, *self.world.contacts, *self.vendor_contacts, *self.candidates)

    def by_email(self) -> dict[str, Person]:
        """email (lowercased) -> the person it belongs to."""
        return self._by_email

    def by_name(self) -> dict[str, Person]:
        """name (lowercased) -> a person of that name (of namesakes, the last in `everyone`)."""
        return self._by_name

    # Kept on the instance (a cache keyed by the Cast would hash every person of the world per call).
    @cached_property
    def _by_email(self) -> dict[str, Person]:
        return {p.email.lower(): p for p in self.everyone()}

    @cached_property
    def _by_name(self) -> dict[str, Person]:
        return {p.name.lower(): p for p in self.everyone()}

    def amount(self, rng: random.Random, kind: str) -> float:
        """An amount in the plausible range of its kind (`AMOUNTS`), rounded as people write it
        (salaries to 500, budgets to 1,000, prices to the cent)."""
        lo, hi = AMOUNTS[kind]
        if kind == "quantity":
            return float(rng.randint(int(lo), int(hi)))
        step = ROUNDING.get(kind, 0.01)
        return round(min(hi, max(lo, round(rng.uniform(lo, hi) / step) * step)), 2)


@lru_cache(maxsize=64)
def cast(seed: int, scale: float = 1.0) -> Cast:
    """The cast of one seed's world (the same world every library service generates from)."""
    return cast_of(world(seed, scale))


_CASTS: dict[tuple[int, int, int, int], Cast] = {}


def cast_of(w: World) -> Cast:
    """The cast around a world (cached by what identifies it: the seed and the sizes its scale gave)."""
    key = (w.seed, len(w.employees), len(w.contacts), len(w.vendors))
    if key not in _CASTS:
        _CASTS[key] = _build(w)
    return _CASTS[key]


def _build(w: World) -> Cast:
    seed = w.seed
    rng = random.Random(f"cast/{seed}")
    taken = {p.name for p in (*w.employees, *w.contacts)}

    def fresh_name() -> tuple[str, str]:
        for _ in range(50):  # a new person, not a namesake of someone already in the world
            first, last = rng.choice(FIRST), rng.choice(LAST)
            if f"{first} {last}" not in taken:
                break
        taken.add(f"{first} {last}")
        return first, last

    vendor_people = []
    for v in w.vendors:
        first, last = fresh_name()
        vendor_people.append(Person(first, last, f"{first}.{last}@{v.domain}".lower(), f"+1-{rng.randint(200, 989)}-555-{rng.randint(0, 9999):04d}",
                                    v.name, rng.choice(VENDOR_TITLES), "Sales"))
    candidates = []
    for k in range(max(12, len(w.employees) * 25 // 30)):  # 25 at scale 1, like the other pools
        first, last = fresh_name()
        employer = rng.choice(w.companies).name if rng.random() < 0.6 else ""
        candidates.append(Person(first, last, f"{first}.{last}{k + 1}@{rng.choice(PRIVATE_DOMAINS)}".lower(),
                                 f"+1-{rng.randint(200, 989)}-555-{rng.randint(0, 9999):04d}", employer, "", ""))
    return Cast(w, tuple(vendor_people), tuple(candidates))
