"""Helpdesk: customer tickets with a status workflow, agent assignment, public replies vs internal notes, and SLAs (support)."""

from __future__ import annotations

from datetime import datetime, timedelta
from operator import itemgetter
from typing import Iterable, Literal

from typing_extensions import TypedDict

from compoworld.canonical import format_timestamp
from compoworld.services import Collection, Service, ToolError, tool
from compoworld.services.fake import DataGen, Person
from compoworld.services.library._search import Haystack, page_by
from compoworld.services.library._types import (
    Category, CompanyName, Date, DateTime, Email, Id, Limit, Offset, Page, PersonName, Query, Text, Title, page,
)

TicketId = Id("helpdesk", "ticket")
Status = Literal["new", "open", "pending", "resolved", "closed"]
Priority = Literal["low", "normal", "high", "urgent"]
# pending = waiting on the customer; resolved tickets can be reopened until they are closed.
NEXT_STATUS: dict[str, set[str]] = {
    "new": {"open"},
    "open": {"pending", "resolved"},
    "pending": {"open", "resolved"},
    "resolved": {"closed", "open"},
    "closed": set(),
}
# (hours to first response, hours to resolution) per priority
SLA_HOURS: dict[str, tuple[int, int]] = {"urgent": (1, 8), "high": (4, 24), "normal": (8, 72), "low": (24, 120)}
_TICKET_TEXT = Haystack("subject", "description", "requester_name")
_CREATED = itemgetter("created_at")  # heap selection is stable: ties keep insertion (id) order


def _plus_hours(at: str, hours: int) -> str:
    return format_timestamp(datetime.fromisoformat(at.rstrip("Z")) + timedelta(hours=hours))


class Ticket(TypedDict):
    id: TicketId
    subject: Title
    description: Text
    requester_email: Email
    requester_name: PersonName
    company: CompanyName | None
    priority: Priority
    status: Status
    assignee_email: Email | None
    tags: list[Category]
    created_at: DateTime
    updated_at: DateTime
    first_response_due_at: DateTime
    resolution_due_at: DateTime
    first_response_at: DateTime | None
    resolved_at: DateTime | None


class TicketComment(TypedDict):
    id: Id("helpdesk", "comment")
    ticket_id: TicketId
    author_email: Email
    body: Text
    public: bool
    created_at: DateTime


class Agent(TypedDict):
    id: Id("helpdesk", "agent")
    email: Email
    name: PersonName
    group: Literal["tier1", "tier2", "billing"]
    active: bool


class SlaPolicy(TypedDict):
    id: Id("helpdesk", "sla")
    priority: Priority
    first_response_hours: int
    resolution_hours: int


SUBJECTS = [
    ("Cannot log in to the dashboard", "Since this morning our users get 'invalid session' after entering their password."),
    ("Invoice amount looks wrong", "The last invoice charges us more than our contract says. Please check."),
    ("Refund request for {product}", "We were charged for {product} but never used it. Please refund."),
    ("Data export fails", "The CSV export stops at 80% with an error."),
    ("Add seats to our plan", "We need {n} more seats on our subscription."),
    ("{product} integration broken", "The {product} sync has not run since last week."),
    ("Question about our renewal", "When does our contract renew and at what price?"),
]


class Helpdesk(Service):
    name = "helpdesk"
    domain = "support"
    description = "Customer support desk: tickets with priorities, SLAs and a status workflow, agent assignment, replies and notes."
    # Anyone may open a ticket by mail (customers mostly; vendors' auto-replies too); comments come
    # from agents and requesters alike.
    roles = {"tickets": {"requester_email": "correspondent", "requester_name": "correspondent", "company": "customer"},
             "comments": {"author_email": "correspondent"}}
    tables = {
        "tickets": Collection(Ticket, "ticket", "tk"),
        "comments": Collection(TicketComment, "comment", "tc"),
        "agents": Collection(Agent, "agent", "agt"),
        "sla_policies": Collection(SlaPolicy, "sla", "sla"),
    }

    def generate(self, gen: DataGen) -> dict[str, Iterable[dict]]:
        w = gen.world
        sla = [{"id": f"sla_{i + 1:04d}", "priority": p, "first_response_hours": h[0], "resolution_hours": h[1]}
               for i, (p, h) in enumerate(SLA_HOURS.items())]
        support = [p for p in w.employees if p.department == "Support"] or list(w.employees[:3])
        extra = [p for p in w.employees if p.department == "Finance"][:2]
        agents = [{"id": f"agt_{i + 1:04d}", "email": p.email, "name": p.name,
                   "group": "billing" if p in extra else ("tier2" if i % 3 == 2 else "tier1"), "active": True}
                  for i, p in enumerate([*support, *extra])]
        if len(agents) > 1:
            agents[-1] = {**agents[-1], "active": False}  # someone who left the team: not assignable
        live = [a for a in agents if a["active"]]
        now = format_timestamp(gen.now)
        tickets: list[dict] = []
        comments: list[dict] = []

        def ticket(person, subject: str, desc: str, status: str, created: str, priority: str, tags: list[str]) -> None:
            tid = f"tk_{len(tickets) + 1:04d}"
            fr_h, res_h = SLA_HOURS[priority]
            agent = gen.pick(live) if live and status != "new" else None
            first = None
            if status != "new" and agent is not None:  # what happened already cannot lie after now
                first = min(_plus_hours(created, gen.int(0, fr_h * 2)), now)
                comments.append({"id": f"tc_{len(comments) + 1:04d}", "ticket_id": tid, "author_email": agent["email"],
                                 "body": f"Hi {person.first}, thanks for reaching out. We are looking into it.", "public": True,
                                 "created_at": first})
                if gen.chance(0.4):
                    comments.append({"id": f"tc_{len(comments) + 1:04d}", "ticket_id": tid, "author_email": agent["email"],
                                     "body": f"Internal: {gen.sentence()}", "public": False, "created_at": min(_plus_hours(first, 1), now)})
            resolved = min(_plus_hours(created, gen.int(2, res_h + 24)), now) if status in ("resolved", "closed") else None
            tickets.append({"id": tid, "subject": subject, "description": desc, "requester_email": person.email,
                            "requester_name": person.name, "company": person.company if person.company else None,
                            "priority": priority, "status": status, "assignee_email": agent["email"] if agent else None,
                            "tags": tags, "created_at": created, "updated_at": resolved or first or created,
                            "first_response_due_at": _plus_hours(created, fr_h), "resolution_due_at": _plus_hours(created, res_h),
                            "first_response_at": first, "resolved_at": resolved})

        for _ in range(gen.n(28)):
            c = gen.contact()
            product = gen.product()[0]
            subj, desc = gen.pick(SUBJECTS)
            subj, desc = subj.format(product=product), desc.format(product=product, n=gen.int(2, 50))
            priority = gen.pick(["low", "normal", "normal", "high", "urgent"])
            status = gen.pick(["new", "open", "open", "pending", "resolved", "closed"])
            created = gen.datetime(-20, 0, hours=(0, 8)) if status in ("new", "open") else gen.datetime(-40, -3)
            if gen.chance(0.2):  # the same problem reported again: an old closed ticket and a newer open one
                ticket(c, subj, desc, "closed", gen.datetime(-90, -60), priority, ["repeat"])
            ticket(c, subj, f"{desc}\n\n{c.name}, {c.title}, {c.company}", status, created, priority, [])
        for _ in range(gen.n(5)):  # spam and auto-replies: irrelevant
            v = gen.vendor()
            # named as the vendor's mail names its no-reply sender, so the address has one name everywhere
            first, _, last = v.name.partition(" ")
            sender = Person(first=first, last=last, email=f"noreply@{v.domain}", phone="", company="", title="")
            ticket(sender, gen.pick(["Out of office", "Special offer just for you", "Delivery status notification"]),
                   gen.sentence(), "new", gen.datetime(-10, 0, hours=(0, 8)), "low", ["spam"])
        return {"tickets": tickets, "comments": comments, "agents": agents, "sla_policies": sla}

    # -- helpers -------------------------------------------------------------------------------
    def _agent(self, email: str) -> dict:
        agent = self.db["agents"].first(email=email)
        if agent is None:
            raise ToolError(f"{email} is not a helpdesk agent; list_agents shows who can take tickets")
        if not agent["active"]:
            raise ToolError(f"agent {email} is inactive and cannot be assigned tickets")
        return agent

    def _author(self, email: str) -> dict:
        agent = self.db["agents"].first(email=email)
        if agent is None or not agent["active"]:
            raise ToolError(f"{email} is not an active helpdesk agent; only agents write on tickets")
        return agent

    def _sla(self, priority: str) -> tuple[int, int]:
        """SLA hours from the policy table (part of the state, so a task can set its own SLAs), else the defaults."""
        pol = self.db["sla_policies"].first(priority=priority)
        return (pol["first_response_hours"], pol["resolution_hours"]) if pol else SLA_HOURS[priority]

    def _writable(self, ticket_id: str) -> dict:
        t = self.db["tickets"].require(ticket_id)
        if t["status"] == "closed":
            raise ToolError(f"ticket {ticket_id} is closed; open a new ticket instead")
        return t

    def _breached(self, t: dict, now: str) -> bool:
        if t["status"] in ("resolved", "closed"):
            return (t["resolved_at"] or "") > t["resolution_due_at"]
        late_first = t["first_response_at"] is None and now > t["first_response_due_at"]
        return late_first or now > t["resolution_due_at"]

    # -- tickets -------------------------------------------------------------------------------
    @tool(read_only=True)
    def list_tickets(self, query: Query = "", status: Status | None = None, priority: Priority | None = None,
                     requester: Email | None = None, company: CompanyName | None = None, assignee: Email | None = None,
                     unassigned_only: bool = False, sla_breached: bool | None = None, created_after: Date | None = None,
                     tag: Category | None = None, limit: Limit = 20, offset: Offset = 0) -> Page[Ticket]:
        """List tickets, newest first, filtered by text, status, priority, requester, company, assignee, SLA or tag.

        Args:
            query: Text to match in the subject, description or requester name.
            status: Only tickets in this status.
            priority: Only tickets of this priority.
            requester: Only tickets from this address.
            company: Only tickets from this company.
            assignee: Only tickets assigned to this agent address.
            unassigned_only: Only tickets nobody is assigned to.
            sla_breached: True for tickets past an SLA deadline, False for those within SLA.
            created_after: Only tickets created on or after this day (YYYY-MM-DD).
            tag: Only tickets carrying this tag.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        newest = self.db["tickets"].ordered(("created_at",), reverse=True)
        rows = newest if status is None else [t for t in newest if t["status"] == status]
        if priority is not None:
            rows = [t for t in rows if t["priority"] == priority]
        if requester is not None:
            req = requester.lower()
            rows = [t for t in rows if t["requester_email"].lower() == req]
        if company is not None:
            rows = [t for t in rows if t["company"] == company]
        if assignee is not None:
            rows = [t for t in rows if t["assignee_email"] == assignee]
        if unassigned_only:
            rows = [t for t in rows if t["assignee_email"] is None]
        if created_after is not None:
            rows = [t for t in rows if t["created_at"][:10] >= created_after]
        if tag is not None:
            rows = [t for t in rows if tag in t["tags"]]
        if sla_breached is not None:
            now = self.now()
            rows = [t for t in rows if self._breached(t, now) == sla_breached]
        return page(_TICKET_TEXT.filter(rows, query), limit, offset)

    @tool(read_only=True)
    def get_ticket(self, ticket_id: TicketId) -> Ticket:
        """Get one ticket by id.

        Args:
            ticket_id: The ticket's id.
        """
        return self.db["tickets"].require(ticket_id)

    @tool
    def create_ticket(self, subject: Title, description: Text, requester_email: Email, requester_name: PersonName,
                      priority: Priority = "normal", company: CompanyName | None = None, tags: list[Category] = []) -> Ticket:
        """Open a ticket for a customer (status new); SLA deadlines follow from the priority. A requester cannot have
        two unresolved tickets with the same subject.

        Args:
            subject: Short summary of the problem.
            description: The customer's full description.
            requester_email: The customer's email address.
            requester_name: The customer's name.
            priority: low, normal, high or urgent.
            company: The customer's company.
            tags: Labels for routing and reporting.
        """
        who, subj = (requester_email, requester_email.lower()), subject.lower()
        dup = next((t for t in self.db["tickets"] if t["requester_email"] in who and t["status"] not in ("resolved", "closed")
                    and t["subject"].lower() == subj), None)
        if dup is not None:
            raise ToolError(f"{requester_email} already has an unresolved ticket '{subject}' ({dup['id']}); reply on it instead")
        now = self.now()
        fr_h, res_h = self._sla(priority)
        return self.db["tickets"].insert({"subject": subject, "description": description, "requester_email": requester_email,
                                          "requester_name": requester_name, "company": company, "priority": priority,
                                          "status": "new", "assignee_email": None, "tags": list(dict.fromkeys(tags)),
                                          "created_at": now, "updated_at": now,
                                          "first_response_due_at": _plus_hours(now, fr_h), "resolution_due_at": _plus_hours(now, res_h),
                                          "first_response_at": None, "resolved_at": None})

    @tool
    def update_status(self, ticket_id: TicketId, status: Status) -> Ticket:
        """Move a ticket through new -> open -> pending/resolved -> closed. Only resolved tickets can be closed,
        and a ticket can only be resolved after a public reply to the requester.

        Args:
            ticket_id: The ticket.
            status: The new status.
        """
        t = self.db["tickets"].require(ticket_id)
        allowed = NEXT_STATUS[t["status"]]
        if status not in allowed:
            hint = " (resolve it first)" if status == "closed" else ""
            raise ToolError(f"cannot move ticket {ticket_id} from {t['status']} to {status}{hint}; "
                            f"allowed: {sorted(allowed) or 'none (closed)'}")
        if status == "resolved" and t["first_response_at"] is None:
            raise ToolError(f"ticket {ticket_id} has no public reply yet; reply to the requester before resolving it")
        now = self.now()
        resolved = now if status == "resolved" else (None if status == "open" else t["resolved_at"])
        return self.db["tickets"].update(ticket_id, status=status, resolved_at=resolved, updated_at=now)

    @tool(idempotent=True)
    def assign_ticket(self, ticket_id: TicketId, agent_email: Email) -> Ticket:
        """Assign a ticket to an active agent; a new ticket becomes open.

        Args:
            ticket_id: The ticket.
            agent_email: Address of the agent.
        """
        t = self._writable(ticket_id)
        self._agent(agent_email)
        return self.db["tickets"].update(ticket_id, assignee_email=agent_email, status="open" if t["status"] == "new" else t["status"],
                                         updated_at=self.now())

    @tool(idempotent=True)
    def set_priority(self, ticket_id: TicketId, priority: Priority) -> Ticket:
        """Change a ticket's priority; its SLA deadlines are recomputed from when it was created.

        Args:
            ticket_id: The ticket.
            priority: The new priority.
        """
        t = self._writable(ticket_id)
        fr_h, res_h = self._sla(priority)
        return self.db["tickets"].update(ticket_id, priority=priority, first_response_due_at=_plus_hours(t["created_at"], fr_h),
                                         resolution_due_at=_plus_hours(t["created_at"], res_h), updated_at=self.now())

    @tool(idempotent=True)
    def tag_ticket(self, ticket_id: TicketId, tag: Category, remove: bool = False) -> Ticket:
        """Add a tag to a ticket (or remove it).

        Args:
            ticket_id: The ticket.
            tag: The tag.
            remove: Remove the tag instead of adding it.
        """
        t = self._writable(ticket_id)
        tags = [x for x in t["tags"] if x != tag] if remove else list(dict.fromkeys([*t["tags"], tag]))
        return self.db["tickets"].update(ticket_id, tags=tags, updated_at=self.now())

    @tool(destructive=True, idempotent=True)
    def delete_ticket(self, ticket_id: TicketId) -> Ticket:
        """Delete a ticket (spam cleanup). Only untouched new tickets can be deleted.

        Args:
            ticket_id: The ticket to delete.
        """
        t = self.db["tickets"].require(ticket_id)
        if t["status"] != "new" or self.db["comments"].first(ticket_id=ticket_id):
            raise ToolError(f"ticket {ticket_id} is {t['status']} and has history; only untouched new tickets can be deleted")
        return self.db["tickets"].delete(ticket_id)

    # -- conversation --------------------------------------------------------------------------
    @tool
    def reply_to_ticket(self, ticket_id: TicketId, body: Text, author_email: Email) -> TicketComment:
        """Send a public reply the requester sees. The first reply records the first response (for the SLA) and opens
        a new ticket.

        Args:
            ticket_id: The ticket.
            body: Reply text (not empty).
            author_email: Address of the agent replying.
        """
        if not body.strip():
            raise ToolError("a reply cannot be empty")
        t = self._writable(ticket_id)
        self._author(author_email)
        now = self.now()
        changes = {"updated_at": now}
        if t["first_response_at"] is None:
            changes["first_response_at"] = now
        if t["status"] == "new":
            changes["status"] = "open"
        if t["assignee_email"] is None:
            changes["assignee_email"] = author_email
        self.db["tickets"].update(ticket_id, **changes)
        return self.db["comments"].insert({"ticket_id": ticket_id, "author_email": author_email, "body": body, "public": True,
                                           "created_at": now})

    @tool
    def add_internal_note(self, ticket_id: TicketId, body: Text, author_email: Email) -> TicketComment:
        """Add a note only agents see; it does not count as a response to the requester.

        Args:
            ticket_id: The ticket.
            body: Note text (not empty).
            author_email: Address of the agent writing it.
        """
        if not body.strip():
            raise ToolError("a note cannot be empty")
        self._writable(ticket_id)
        self._author(author_email)
        self.db["tickets"].update(ticket_id, updated_at=self.now())
        return self.db["comments"].insert({"ticket_id": ticket_id, "author_email": author_email, "body": body, "public": False,
                                           "created_at": self.now()})

    @tool(read_only=True)
    def list_comments(self, ticket_id: TicketId, public_only: bool = False, limit: Limit = 20, offset: Offset = 0) -> Page[TicketComment]:
        """List a ticket's replies and internal notes, oldest first.

        Args:
            ticket_id: The ticket.
            public_only: Only the public replies (what the requester sees).
            limit: Maximum number of results.
            offset: Results to skip.
        """
        self.db["tickets"].require(ticket_id)
        rows = [c for c in self.db["comments"] if c["ticket_id"] == ticket_id and (c["public"] or not public_only)]
        return page_by(rows, _CREATED, limit, offset)

    # -- agents and SLAs -----------------------------------------------------------------------
    @tool(read_only=True)
    def list_agents(self, group: Literal["tier1", "tier2", "billing"] | None = None, active_only: bool = True,
                    limit: Limit = 20, offset: Offset = 0) -> Page[Agent]:
        """List support agents.

        Args:
            group: Only agents of this group.
            active_only: Only active agents.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        rows = [a for a in self.db["agents"] if (group is None or a["group"] == group) and (a["active"] or not active_only)]
        return page(rows, limit, offset)

    @tool(read_only=True)
    def list_sla_policies(self) -> list[SlaPolicy]:
        """List the SLA targets (hours to first response and to resolution) per priority."""
        return list(self.db["sla_policies"])

