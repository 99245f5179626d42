"""Marketing: audiences, subscribers with consent, and email campaigns (draft -> scheduled -> sent) with metrics."""

from __future__ import annotations

from typing import Iterable, Literal

from typing_extensions import TypedDict

from compoworld.services import Collection, Service, ToolError, tool
from compoworld.services.fake import DataGen
from compoworld.services.library._types import (
    CompanyName, DateTime, Email, Id, Limit, Offset, Page, Percent, PersonName, Query, Text, Title, matches, page,
)

AudienceId = Id("marketing", "audience")
SubscriberId = Id("marketing", "subscriber")
CampaignId = Id("marketing", "campaign")
Consent = Literal["subscribed", "unsubscribed", "pending"]
CampaignStatus = Literal["draft", "scheduled", "sent", "cancelled"]


class Audience(TypedDict):
    id: AudienceId
    name: Title
    description: Text
    owner_email: Email
    created_at: DateTime


class Subscriber(TypedDict):
    id: SubscriberId
    audience_id: AudienceId
    email: Email
    name: PersonName
    company: CompanyName | None
    consent: Consent
    updated_at: DateTime


class Campaign(TypedDict):
    id: CampaignId
    name: Title
    subject: Title | None
    body: Text
    audience_id: AudienceId | None
    status: CampaignStatus
    scheduled_at: DateTime | None
    sent_at: DateTime | None
    owner_email: Email
    recipients: int
    opens: int
    clicks: int
    unsubscribes: int
    created_at: DateTime


class Metrics(TypedDict):
    campaign_id: CampaignId
    status: CampaignStatus
    recipients: int
    opens: int
    clicks: int
    unsubscribes: int
    open_rate: Percent
    click_rate: Percent


def _norm(dt: str) -> str:
    """Canonical 'YYYY-MM-DDTHH:MM:SSZ', so datetimes compare as strings."""
    dt = dt.rstrip("Z")
    return (dt + ":00" if len(dt) == 16 else dt) + "Z"


class Marketing(Service):
    name = "marketing"
    domain = "marketing"
    description = "Email marketing: audiences, subscribers with consent status, campaigns from draft to sent, and campaign metrics."
    # Subscribers are prospective customers; their company is a (prospective) customer.
    roles = {"subscribers": {"company": "customer"}}
    tables = {
        "audiences": Collection(Audience, "audience", "aud"),
        "subscribers": Collection(Subscriber, "subscriber", "sub"),
        "campaigns": Collection(Campaign, "campaign", "cmp"),
    }

    def generate(self, gen: DataGen) -> dict[str, Iterable[dict]]:
        owners = [p.email for p in gen.world.employees if p.department == "Marketing"] or [gen.employee().email]
        industry = {c.name: c.industry for c in gen.world.companies}
        names = ["Newsletter", "Product updates", "Webinar attendees", "Newsletter (old import)"]
        names += [f"Customers - {ind}" for ind in sorted(set(industry.values()))]
        audiences = [{"id": f"aud_{k + 1:04d}", "name": n, "description": f"Contacts for {n.lower()}", "owner_email": gen.pick(owners),
                      "created_at": gen.datetime(-700, -100)} for k, n in enumerate(names)]
        aid = {a["name"]: a["id"] for a in audiences}
        subscribers: list[dict] = []
        seen: set[tuple[str, str]] = set()

        def add(audience: str, email: str, name: str, company: str | None, consent: str, updated: str) -> None:
            if (audience, email) not in seen:
                seen.add((audience, email))
                subscribers.append({"audience_id": audience, "email": email, "name": name, "company": company,
                                    "consent": consent, "updated_at": updated})

        for p in gen.world.contacts:
            consent = gen.pick(["subscribed"] * 6 + ["unsubscribed", "pending"])
            add(aid[f"Customers - {industry[p.company]}"], p.email, p.name, p.company, consent, gen.datetime(-90, -1))
            if gen.chance(0.6):
                add(aid["Newsletter"], p.email, p.name, p.company, consent, gen.datetime(-90, -1))
            if gen.chance(0.15):  # stale: the person's old address, unsubscribed long ago, left in the old import
                add(aid["Newsletter (old import)"], p.email.replace("@", ".old@"), p.name, p.company, "unsubscribed", gen.datetime(-800, -400))
            if gen.chance(0.3):
                add(aid["Webinar attendees"], p.email, p.name, p.company, "subscribed", gen.datetime(-60, -1))
        for k in range(gen.n(15)):  # irrelevant leads past the shared world
            co = gen.company()
            add(aid[gen.pick(["Newsletter", "Product updates"])], f"lead{gen.int(1, 9999)}@{co.domain}",
                f"{gen.employee().first} {gen.contact().last}", co.name, gen.pick(["subscribed", "pending"]), gen.datetime(-120, -1))
        campaigns = []
        for k in range(gen.n(12)):
            status = gen.pick(["draft", "draft", "scheduled", "sent", "sent", "cancelled"])
            audience = gen.pick(audiences)["id"]
            subject = gen.title() if status != "draft" or gen.chance(0.5) else None
            sent = status == "sent"
            recipients = sum(1 for s in subscribers if s["audience_id"] == audience and s["consent"] == "subscribed") if sent else 0
            opens = int(recipients * gen.int(20, 55) / 100)
            camp = {"name": f"{gen.words(2).capitalize()} {gen.pick(['launch', 'digest', 'promo', 'invite'])}", "subject": subject,
                    "body": gen.sentence(), "audience_id": audience if status != "draft" or gen.chance(0.5) else None,
                    "status": status, "scheduled_at": gen.datetime(1, 20) if status == "scheduled" else (gen.datetime(-60, -2) if sent else None),
                    "sent_at": None, "owner_email": gen.pick(owners), "recipients": recipients, "opens": opens,
                    "clicks": int(opens * gen.int(5, 30) / 100), "unsubscribes": int(recipients * gen.int(0, 3) / 100),
                    "created_at": gen.datetime(-90, -61)}
            camp["sent_at"] = camp["scheduled_at"] if sent else None
            campaigns.append(camp)
            if gen.chance(0.2):  # near-duplicate: an abandoned draft copy
                campaigns.append({**camp, "name": camp["name"] + " v2", "status": "draft", "scheduled_at": None, "sent_at": None,
                                  "recipients": 0, "opens": 0, "clicks": 0, "unsubscribes": 0, "created_at": gen.datetime(-30, -1)})
        return {"audiences": audiences, "subscribers": subscribers, "campaigns": campaigns}

    # -- helpers -------------------------------------------------------------------------------
    def _campaign(self, campaign_id: str, *statuses: str) -> dict:
        camp = self.db["campaigns"].require(campaign_id)
        if camp["status"] not in statuses:
            raise ToolError(f"campaign {campaign_id} is {camp['status']}; this needs a campaign that is {' or '.join(statuses)}")
        return camp

    def _ready(self, camp: dict) -> None:
        if not (camp["subject"] or "").strip() or not camp["audience_id"]:
            missing = [f for f in ("subject", "audience_id") if not (camp[f] or "").strip()]
            raise ToolError(f"campaign {camp['id']} needs a subject and an audience; missing: {', '.join(missing)}")

    # -- audiences and subscribers -------------------------------------------------------------
    @tool(read_only=True)
    def list_audiences(self, query: Query = "", limit: Limit = 20, offset: Offset = 0) -> Page[Audience]:
        """List audiences (mailing lists) by name.

        Args:
            query: Text to match in the audience name or description.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        rows = sorted((a for a in self.db["audiences"] if matches(query, a["name"], a["description"])), key=lambda a: a["name"])
        return page(rows, limit, offset)

    @tool
    def create_audience(self, name: Title, owner_email: Email, description: Text = "") -> Audience:
        """Create an audience. Names are unique.

        Args:
            name: Audience name.
            owner_email: Marketer who owns it.
            description: What the list is for.
        """
        if any(a["name"].lower() == name.lower() for a in self.db["audiences"]):
            raise ToolError(f"an audience named '{name}' already exists")
        return self.db["audiences"].insert({"name": name, "description": description, "owner_email": owner_email, "created_at": self.now()})

    @tool(read_only=True)
    def search_subscribers(self, audience_id: AudienceId | None = None, query: Query = "", consent: Consent | None = None,
                           company: CompanyName | None = None, limit: Limit = 20, offset: Offset = 0) -> Page[Subscriber]:
        """Search subscribers by name or email, most recently updated first.

        Args:
            audience_id: Only members of this audience.
            query: Text to match in name or email.
            consent: Only subscribers with this consent status.
            company: Only subscribers from this company.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        rows = [s for s in self.db["subscribers"].ordered(("updated_at",), reverse=True) if (audience_id is None or s["audience_id"] == audience_id)
                and (consent is None or s["consent"] == consent) and (company is None or s["company"] == company)
                and matches(query, s["name"], s["email"])]
        return page(rows, limit, offset)

    @tool
    def add_subscriber(self, audience_id: AudienceId, email: Email, name: PersonName, company: CompanyName | None = None,
                       consent: Consent = "pending") -> Subscriber:
        """Add someone to an audience. An email can be in an audience only once.

        Args:
            audience_id: The audience.
            email: Subscriber email.
            name: Subscriber full name.
            company: Their company.
            consent: Consent status; 'pending' until they confirm.
        """
        self.db["audiences"].require(audience_id)
        if any(s["email"].lower() == email.lower() for s in self.db["subscribers"].find(audience_id=audience_id)):
            raise ToolError(f"{email} is already in audience {audience_id}; use update_consent to change their status")
        return self.db["subscribers"].insert({"audience_id": audience_id, "email": email, "name": name, "company": company,
                                               "consent": consent, "updated_at": self.now()})

    @tool(idempotent=True)
    def update_consent(self, email: Email, consent: Consent, audience_id: AudienceId | None = None) -> list[Subscriber]:
        """Set the consent status of an email in one audience, or in every audience it belongs to.

        Args:
            email: Subscriber email.
            consent: New consent status.
            audience_id: Only this audience; all audiences when omitted.
        """
        wanted = email.lower()
        rows = [s for s in self.db["subscribers"] if s["email"].lower() == wanted and (audience_id is None or s["audience_id"] == audience_id)]
        if not rows:
            raise ToolError(f"{email} is not a subscriber" + (f" of audience {audience_id}" if audience_id else ""))
        return [self.db["subscribers"].update(s["id"], consent=consent, updated_at=self.now()) for s in rows]

    @tool(destructive=True, idempotent=True)
    def remove_subscriber(self, subscriber_id: SubscriberId) -> Subscriber:
        """Delete a subscriber from their audience permanently.

        Args:
            subscriber_id: The subscriber record.
        """
        return self.db["subscribers"].delete(subscriber_id)

    # -- campaigns -----------------------------------------------------------------------------
    @tool(read_only=True)
    def search_campaigns(self, query: Query = "", status: CampaignStatus | None = None, audience_id: AudienceId | None = None,
                         limit: Limit = 20, offset: Offset = 0) -> Page[Campaign]:
        """Search campaigns by name or subject, newest first.

        Args:
            query: Text to match in the name or subject.
            status: Only campaigns in this status.
            audience_id: Only campaigns for this audience.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        rows = [c for c in self.db["campaigns"].ordered(("created_at",), reverse=True) if (status is None or c["status"] == status)
                and (audience_id is None or c["audience_id"] == audience_id) and matches(query, c["name"], c["subject"])]
        return page(rows, limit, offset)

    @tool(read_only=True)
    def get_campaign(self, campaign_id: CampaignId) -> Campaign:
        """Get one campaign by id.

        Args:
            campaign_id: The campaign's id.
        """
        return self.db["campaigns"].require(campaign_id)

    @tool
    def create_campaign(self, name: Title, owner_email: Email, subject: Title | None = None, body: Text = "",
                        audience_id: AudienceId | None = None) -> Campaign:
        """Create a draft email campaign.

        Args:
            name: Internal campaign name.
            owner_email: Marketer responsible.
            subject: Email subject line (needed before scheduling or sending).
            body: Email body.
            audience_id: Audience to send to (needed before scheduling or sending).
        """
        if audience_id is not None:
            self.db["audiences"].require(audience_id)
        return self.db["campaigns"].insert({"name": name, "subject": subject, "body": body, "audience_id": audience_id, "status": "draft",
                                             "scheduled_at": None, "sent_at": None, "owner_email": owner_email, "recipients": 0,
                                             "opens": 0, "clicks": 0, "unsubscribes": 0, "created_at": self.now()})

    @tool(idempotent=True)
    def update_campaign(self, campaign_id: CampaignId, subject: Title | None = None, body: Text | None = None,
                        audience_id: AudienceId | None = None) -> Campaign:
        """Edit a draft campaign's subject, body or audience (unschedule a scheduled one first).

        Args:
            campaign_id: The draft campaign.
            subject: New subject line.
            body: New body.
            audience_id: New audience.
        """
        self._campaign(campaign_id, "draft")
        changes = {k: v for k, v in {"subject": subject, "body": body, "audience_id": audience_id}.items() if v is not None}
        if not changes:
            raise ToolError("nothing to update: give subject, body or audience_id")
        if audience_id is not None:
            self.db["audiences"].require(audience_id)
        return self.db["campaigns"].update(campaign_id, **changes)

    @tool
    def schedule_campaign(self, campaign_id: CampaignId, scheduled_at: DateTime) -> Campaign:
        """Schedule a draft campaign for a future time. It needs a subject and an audience.

        Args:
            campaign_id: The draft campaign.
            scheduled_at: Send time (YYYY-MM-DDTHH:MM[:SS]Z), in the future.
        """
        camp = self._campaign(campaign_id, "draft")
        self._ready(camp)
        at = _norm(scheduled_at)
        if at <= self.now():
            raise ToolError(f"cannot schedule in the past: {at} is not after now ({self.now()})")
        return self.db["campaigns"].update(campaign_id, status="scheduled", scheduled_at=at)

    @tool
    def unschedule_campaign(self, campaign_id: CampaignId) -> Campaign:
        """Return a scheduled campaign to draft so it can be edited.

        Args:
            campaign_id: The scheduled campaign.
        """
        self._campaign(campaign_id, "scheduled")
        return self.db["campaigns"].update(campaign_id, status="draft", scheduled_at=None)

    @tool
    def send_campaign(self, campaign_id: CampaignId, recipient_emails: list[Email] | None = None) -> Campaign:
        """Send a draft or scheduled campaign now, to every subscribed member of its audience or to the given members.
        Unsubscribed or unconfirmed people can never be sent to.

        Args:
            campaign_id: The campaign.
            recipient_emails: Send only to these audience members (all must be subscribed); the whole audience when omitted.
        """
        camp = self._campaign(campaign_id, "draft", "scheduled")
        self._ready(camp)
        members = {s["email"].lower(): s for s in self.db["subscribers"].find(audience_id=camp["audience_id"])}
        if recipient_emails:
            wanted = list(dict.fromkeys(e.lower() for e in recipient_emails))
            outside = [e for e in wanted if e not in members]
            if outside:
                raise ToolError(f"not in audience {camp['audience_id']}: {', '.join(outside)}")
            blocked = [e for e in wanted if members[e]["consent"] != "subscribed"]
            if blocked:
                raise ToolError(f"cannot send to unsubscribed or unconfirmed recipients: {', '.join(blocked)}")
            count = len(wanted)
        else:
            count = sum(1 for s in members.values() if s["consent"] == "subscribed")
            if count == 0:
                raise ToolError(f"audience {camp['audience_id']} has no subscribed members")
        return self.db["campaigns"].update(campaign_id, status="sent", sent_at=self.now(), recipients=count)

    @tool
    def cancel_campaign(self, campaign_id: CampaignId) -> Campaign:
        """Cancel a draft or scheduled campaign. Sent campaigns cannot be cancelled.

        Args:
            campaign_id: The campaign.
        """
        self._campaign(campaign_id, "draft", "scheduled")
        return self.db["campaigns"].update(campaign_id, status="cancelled", scheduled_at=None)

    @tool(read_only=True)
    def get_campaign_metrics(self, campaign_id: CampaignId) -> Metrics:
        """Delivery and engagement figures of a campaign: recipients, opens, clicks, unsubscribes and rates.

        Args:
            campaign_id: The campaign.
        """
        c = self.db["campaigns"].require(campaign_id)
        n = c["recipients"]
        return {"campaign_id": c["id"], "status": c["status"], "recipients": n, "opens": c["opens"], "clicks": c["clicks"],
                "unsubscribes": c["unsubscribes"], "open_rate": round(100 * c["opens"] / n, 1) if n else 0.0,
                "click_rate": round(100 * c["clicks"] / n, 1) if n else 0.0}
