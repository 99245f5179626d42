"""CRM: companies, contacts, deals and activities (sales)."""

from __future__ import annotations

from typing import Iterable, Literal

from typing_extensions import TypedDict

from compoworld.services import Collection, Service, ToolError, tool
from compoworld.services.fake import DataGen
from compoworld.services.library._types import (
    City, CompanyName, Country, Date, DateTime, Email, Id, Limit, Money, Offset, Page, PersonName, Phone,
    Query, Text, Title, matches, page,
)

CompanyId = Id("crm", "company")
ContactId = Id("crm", "contact")
DealId = Id("crm", "deal")
Stage = Literal["prospecting", "qualified", "proposal", "negotiation", "closed_won", "closed_lost"]
# Deals move forward through the pipeline (or drop to closed_lost); closed deals never reopen.
NEXT_STAGES: dict[str, set[str]] = {
    "prospecting": {"qualified", "closed_lost"},
    "qualified": {"proposal", "closed_lost"},
    "proposal": {"negotiation", "closed_won", "closed_lost"},
    "negotiation": {"closed_won", "closed_lost"},
    "closed_won": set(),
    "closed_lost": set(),
}


class Company(TypedDict):
    id: CompanyId
    name: CompanyName
    domain: str
    industry: str
    city: City
    country: Country
    owner_email: Email
    tier: Literal["smb", "mid_market", "enterprise"]


class Contact(TypedDict):
    id: ContactId
    company_id: CompanyId
    name: PersonName
    email: Email
    phone: Phone
    title: str
    status: Literal["active", "inactive"]
    updated_at: DateTime


class Deal(TypedDict):
    id: DealId
    company_id: CompanyId
    title: Title
    amount: Money
    stage: Stage
    close_date: Date
    owner_email: Email


class Activity(TypedDict):
    id: Id("crm", "activity")
    company_id: CompanyId
    contact_id: ContactId | None
    kind: Literal["call", "meeting", "note", "email"]
    summary: Text
    created_at: DateTime


class Crm(Service):
    name = "crm"
    domain = "sales"
    description = "Customer relationship management: accounts, contacts, the deal pipeline and activity log."
    tables = {
        "companies": Collection(Company, "company", "co"),
        "contacts": Collection(Contact, "contact", "ct"),
        "deals": Collection(Deal, "deal", "deal"),
        "activities": Collection(Activity, "activity", "act"),
    }

    def generate(self, gen: DataGen) -> dict[str, Iterable[dict]]:
        companies, contacts, deals = [], [], []
        owners = [p for p in gen.world.employees if p.department == "Sales"] or list(gen.world.employees)
        for i, co in enumerate(gen.world.companies):
            cid = f"co_{i + 1:04d}"
            companies.append({"id": cid, "name": co.name, "domain": co.domain, "industry": co.industry, "city": co.city,
                              "country": co.country, "owner_email": gen.pick(owners).email,
                              "tier": gen.pick(["smb", "mid_market", "enterprise"])})
            for person in (p for p in gen.world.contacts if p.company == co.name):
                contacts.append({"company_id": cid, "name": person.name, "email": person.email, "phone": person.phone,
                                 "title": person.title, "status": "active", "updated_at": gen.datetime(-60, -1)})
                if gen.chance(0.2):  # a stale row: the same person's old address, superseded
                    contacts.append({"company_id": cid, "name": person.name,
                                     "email": person.email.replace("@", ".old@"), "phone": person.phone,
                                     "title": person.title, "status": "inactive", "updated_at": gen.datetime(-400, -200)})
            for _ in range(gen.int(0, 2)):
                deals.append({"company_id": cid, "title": f"{co.name.split()[0]} {gen.product()[0]}",
                              "amount": float(gen.int(5, 120) * 500), "stage": gen.pick(list(NEXT_STAGES)),
                              "close_date": gen.date(-30, 90), "owner_email": gen.pick(owners).email})
        for _ in range(gen.n(6)):  # irrelevant noise past the shared world
            contacts.append({"company_id": gen.pick(companies)["id"], "name": f"{gen.employee().first} {gen.contact().last}",
                             "email": f"info{gen.int(1, 999)}@{gen.company().domain}", "phone": "+1-555-0100",
                             "title": "General inbox", "status": "active", "updated_at": gen.datetime(-90, -1)})
        return {"companies": companies, "contacts": contacts, "deals": deals}

    # -- companies -----------------------------------------------------------------------------
    @tool(read_only=True)
    def search_companies(self, query: Query = "", industry: str | None = None, limit: Limit = 20, offset: Offset = 0) -> Page[Company]:
        """Search companies by name or domain.

        Args:
            query: Text to match in the company name or domain (case-insensitive).
            industry: Only companies in this industry.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        rows = [c for c in self.db["companies"] if matches(query, c["name"], c["domain"]) and (industry is None or c["industry"] == industry)]
        return page(rows, limit, offset)

    @tool(read_only=True)
    def get_company(self, company_id: CompanyId) -> Company:
        """Get one company by id.

        Args:
            company_id: The company's id.
        """
        return self.db["companies"].require(company_id)

    @tool
    def create_company(self, name: CompanyName, domain: str, industry: str = "software", city: City = "", country: Country = "US") -> Company:
        """Create a company account. Names must be unique.

        Args:
            name: Company name.
            domain: Web domain, e.g. acme.com.
            industry: Industry label.
            city: Headquarters city.
            country: ISO country code.
        """
        if self.db["companies"].first(name=name):
            raise ToolError(f"a company named '{name}' already exists")
        owner = next(iter(self.db["companies"]), {"owner_email": "sales@halcyon.io"})["owner_email"]
        return self.db["companies"].insert({"name": name, "domain": domain, "industry": industry, "city": city,
                                             "country": country, "owner_email": owner, "tier": "smb"})

    # -- contacts ------------------------------------------------------------------------------
    @tool(read_only=True)
    def search_contacts(self, query: Query = "", company_id: CompanyId | None = None, status: Literal["active", "inactive"] | None = None,
                        limit: Limit = 20, offset: Offset = 0) -> Page[Contact]:
        """Search contacts by name, email or title, optionally within one company.

        Args:
            query: Text to match in name, email or title.
            company_id: Only contacts of this company.
            status: Only contacts with this status.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        rows = self.db["contacts"].find(company_id=company_id) if company_id else list(self.db["contacts"])
        if status is not None:
            rows = [c for c in rows if c["status"] == status]
        if query:
            rows = [c for c in rows if matches(query, c["name"], c["email"], c["title"])]
        return page(rows, limit, offset)

    @tool(read_only=True)
    def get_contact(self, contact_id: ContactId) -> Contact:
        """Get one contact by id.

        Args:
            contact_id: The contact's id.
        """
        return self.db["contacts"].require(contact_id)

    @tool
    def create_contact(self, company_id: CompanyId, name: PersonName, email: Email, phone: Phone = "+1-555-0100", title: str = "") -> Contact:
        """Add a contact to a company. Active contacts must have unique emails.

        Args:
            company_id: The company the contact works for.
            name: Full name.
            email: Email address.
            phone: Phone number.
            title: Job title.
        """
        self.db["companies"].require(company_id)
        if any(c["email"] == email and c["status"] == "active" for c in self.db["contacts"]):
            raise ToolError(f"an active contact with email {email} already exists")
        return self.db["contacts"].insert({"company_id": company_id, "name": name, "email": email, "phone": phone,
                                            "title": title, "status": "active", "updated_at": self.now()})

    @tool(idempotent=True)
    def update_contact(self, contact_id: ContactId, email: Email | None = None, phone: Phone | None = None,
                       title: str | None = None, status: Literal["active", "inactive"] | None = None) -> Contact:
        """Update a contact's email, phone, title or status.

        Args:
            contact_id: The contact to update.
            email: New email address.
            phone: New phone number.
            title: New job title.
            status: New status.
        """
        contacts = self.db["contacts"]
        contacts.require(contact_id)
        changes = {k: v for k, v in {"email": email, "phone": phone, "title": title, "status": status}.items() if v is not None}
        if not changes:
            raise ToolError("nothing to update: give at least one of email, phone, title, status")
        if email and any(c["id"] != contact_id and c["email"] == email and c["status"] == "active" for c in contacts):
            raise ToolError(f"another active contact already uses {email}")
        return contacts.update(contact_id, **changes, updated_at=self.now())

    @tool(destructive=True, idempotent=True)
    def delete_contact(self, contact_id: ContactId) -> Contact:
        """Delete a contact permanently.

        Args:
            contact_id: The contact to delete.
        """
        return self.db["contacts"].delete(contact_id)

    # -- deals ---------------------------------------------------------------------------------
    @tool(read_only=True)
    def list_deals(self, company_id: CompanyId | None = None, stage: Stage | None = None, limit: Limit = 20, offset: Offset = 0) -> Page[Deal]:
        """List deals, optionally for one company or in one stage.

        Args:
            company_id: Only deals of this company.
            stage: Only deals in this stage.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        rows = [d for d in self.db["deals"] if (company_id is None or d["company_id"] == company_id) and (stage is None or d["stage"] == stage)]
        return page(rows, limit, offset)

    @tool
    def create_deal(self, company_id: CompanyId, title: Title, amount: Money, close_date: Date, owner_email: Email | None = None) -> Deal:
        """Open a deal in the prospecting stage.

        Args:
            company_id: The customer company.
            title: Deal title.
            amount: Expected value in USD (must be positive).
            close_date: Expected close date (YYYY-MM-DD), not in the past.
            owner_email: Sales owner; defaults to the company's owner.
        """
        company = self.db["companies"].require(company_id)
        if amount <= 0:
            raise ToolError("a deal amount must be positive")
        if close_date < self.today():
            raise ToolError(f"close_date {close_date} is in the past (today is {self.today()})")
        return self.db["deals"].insert({"company_id": company_id, "title": title, "amount": amount, "stage": "prospecting",
                                         "close_date": close_date, "owner_email": owner_email or company["owner_email"]})

    @tool
    def update_deal_stage(self, deal_id: DealId, stage: Stage) -> Deal:
        """Move a deal to another pipeline stage. Stages only move forward; closed deals cannot change.

        Args:
            deal_id: The deal to move.
            stage: The new stage.
        """
        deal = self.db["deals"].require(deal_id)
        allowed = NEXT_STAGES[deal["stage"]]
        if stage not in allowed:
            raise ToolError(f"cannot move a deal from {deal['stage']} to {stage}; allowed: {sorted(allowed) or 'none (closed)'}")
        return self.db["deals"].update(deal_id, stage=stage)

    # -- activities ----------------------------------------------------------------------------
    @tool
    def log_activity(self, company_id: CompanyId, kind: Literal["call", "meeting", "note", "email"], summary: Text,
                     contact_id: ContactId | None = None) -> Activity:
        """Record a call, meeting, note or email against a company (and optionally a contact).

        Args:
            company_id: The company.
            kind: What happened.
            summary: A short summary.
            contact_id: The contact involved, if any; must belong to the company.
        """
        self.db["companies"].require(company_id)
        if contact_id is not None and self.db["contacts"].require(contact_id)["company_id"] != company_id:
            raise ToolError(f"contact {contact_id} does not belong to company {company_id}")
        return self.db["activities"].insert({"company_id": company_id, "contact_id": contact_id, "kind": kind,
                                              "summary": summary, "created_at": self.now()})

    @tool(read_only=True)
    def list_activities(self, company_id: CompanyId, limit: Limit = 20, offset: Offset = 0) -> Page[Activity]:
        """List a company's activities, newest first.

        Args:
            company_id: The company.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        self.db["companies"].require(company_id)
        rows = sorted(self.db["activities"].find(company_id=company_id), key=lambda a: a["created_at"], reverse=True)
        return page(rows, limit, offset)
