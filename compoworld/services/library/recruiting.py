"""Recruiting: job openings, candidates, applications through the hiring pipeline, interviews and scorecards."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Iterable, Literal

from pydantic import Field
from typing_extensions import TypedDict

from compoworld.canonical import TIMESTAMP_FORMAT, format_timestamp
from compoworld.services import Collection, Service, ToolError, tool
from compoworld.services.cast import cast
from compoworld.services.fake import DEPARTMENTS, TITLES, DataGen
from compoworld.services.library._types import (
    City, CompanyName, Date, DateTime, Email, Id, Limit, Offset, Page, PersonName, Phone, Query, Text, Title, matches, page,
)

OpeningId = Id("recruiting", "opening")
CandidateId = Id("recruiting", "candidate")
ApplicationId = Id("recruiting", "application")
InterviewId = Id("recruiting", "interview")
Stage = Literal["applied", "screen", "interview", "offer", "hired", "rejected"]
Source = Literal["referral", "job_board", "linkedin", "agency", "career_site"]
Recommendation = Literal["strong_no", "no", "yes", "strong_yes"]
Rating = Annotated[int, Field(ge=1, le=4)]
# Applications move one stage forward at a time, or drop out; hired and rejected are final.
NEXT_STAGES: dict[str, set[str]] = {
    "applied": {"screen", "rejected"},
    "screen": {"interview", "rejected"},
    "interview": {"offer", "rejected"},
    "offer": {"hired", "rejected"},
    "hired": set(),
    "rejected": set(),
}
INTERVIEWABLE = ("screen", "interview")


class Opening(TypedDict):
    id: OpeningId
    title: Title
    department: str
    hiring_manager_email: Email
    location: City
    status: Literal["open", "closed"]
    headcount: int
    hired: int
    opened_on: Date
    closed_on: Date | None


class Candidate(TypedDict):
    id: CandidateId
    name: PersonName
    email: Email
    phone: Phone
    current_company: CompanyName | None
    source: Source
    updated_at: DateTime


class Application(TypedDict):
    id: ApplicationId
    opening_id: OpeningId
    opening_title: Title
    candidate_id: CandidateId
    candidate_name: PersonName
    candidate_email: Email
    stage: Stage
    rejection_reason: Text
    applied_at: DateTime
    updated_at: DateTime


class Interview(TypedDict):
    id: InterviewId
    application_id: ApplicationId
    candidate_email: Email
    interviewer_email: Email
    scheduled_at: DateTime
    duration_minutes: int
    kind: Literal["phone", "video", "onsite", "technical"]
    status: Literal["scheduled", "completed", "cancelled"]


class Scorecard(TypedDict):
    id: Id("recruiting", "scorecard")
    application_id: ApplicationId
    interviewer_email: Email
    rating: Rating
    recommendation: Recommendation
    notes: Text
    submitted_at: DateTime


def _norm(dt: str) -> str:
    """Canonical 'YYYY-MM-DDTHH:MM:SSZ', so datetimes compare as strings."""
    dt = dt.rstrip("Z")
    return (dt + ":00" if len(dt) == 16 else dt) + "Z"


def _end(start: str, minutes: int) -> str:
    return format_timestamp(datetime.strptime(start, TIMESTAMP_FORMAT) + timedelta(minutes=minutes))


class Recruiting(Service):
    name = "recruiting"
    domain = "hr"
    description = "Applicant tracking: job openings, candidates, applications through the hiring pipeline, interviews and scorecards."
    # A candidate's current employer is nobody's customer or vendor by virtue of that.
    roles = {"candidates": {"current_company": "employer"}}
    tables = {
        "openings": Collection(Opening, "opening", "job"),
        "candidates": Collection(Candidate, "candidate", "cand"),
        "applications": Collection(Application, "application", "app"),
        "interviews": Collection(Interview, "interview", "int"),
        "scorecards": Collection(Scorecard, "scorecard", "sc"),
    }

    def generate(self, gen: DataGen) -> dict[str, Iterable[dict]]:
        openings, candidates, apps, interviews, cards = [], [], [], [], []
        staff = gen.world.employees
        people = cast(gen.seed, gen.scale).candidates
        heads = {}
        for p in staff:
            heads.setdefault(p.department, p.email)
        for k in range(gen.n(10)):
            dept = gen.pick(DEPARTMENTS)
            opening = {"id": f"job_{len(openings) + 1:04d}", "title": gen.pick(TITLES[dept]), "department": dept,
                       "hiring_manager_email": heads.get(dept, staff[0].email), "location": gen.pick(["Boston", "Berlin", "Remote"]),
                       "status": "open", "headcount": gen.int(1, 3), "hired": 0, "opened_on": gen.date(-90, -5), "closed_on": None}
            openings.append(opening)
            if gen.chance(0.3):  # near-duplicate: last year's closed opening for the same role
                openings.append({**opening, "id": f"job_{len(openings) + 1:04d}", "status": "closed", "opened_on": gen.date(-500, -300),
                                 "closed_on": gen.date(-299, -200)})
        for k in range(gen.n(25)):
            p = people[k % len(people)]  # applicants apply from their own address, not their employer's
            name, email, company, phone = p.name, p.email, p.company or None, p.phone
            cand = {"id": f"cand_{len(candidates) + 1:04d}", "name": name, "email": email, "phone": phone, "current_company": company,
                    "source": gen.pick(["referral", "job_board", "linkedin", "agency", "career_site"]), "updated_at": gen.datetime(-60, -1)}
            candidates.append(cand)
            if gen.chance(0.15):  # a stale duplicate profile with an old address
                candidates.append({**cand, "id": f"cand_{len(candidates) + 1:04d}", "email": email.replace("@", ".old@"),
                                   "updated_at": gen.datetime(-700, -300)})
            for opening in gen.sample([o for o in openings if o["status"] == "open"], gen.int(1, 2)):
                app_id = f"app_{len(apps) + 1:04d}"
                stage = gen.pick(["applied", "screen", "interview", "interview", "offer", "rejected", "hired"])
                if stage == "hired" and opening["hired"] + 1 >= opening["headcount"]:
                    stage = "offer"  # keep every open opening with a seat left
                opening["hired"] += stage == "hired"
                apps.append({"id": app_id, "opening_id": opening["id"], "opening_title": opening["title"], "candidate_id": cand["id"],
                             "candidate_name": name, "candidate_email": email, "stage": stage,
                             "rejection_reason": "Not a fit for the level" if stage == "rejected" else "",
                             "applied_at": gen.datetime(-60, -20), "updated_at": gen.datetime(-19, -1)})
                past = stage in ("offer", "hired") or (stage == "interview" and gen.chance(0.5))
                if stage in ("interview", "offer", "hired", "screen"):
                    interviewer = gen.pick(staff).email
                    interviews.append({"application_id": app_id, "candidate_email": email, "interviewer_email": interviewer,
                                       "scheduled_at": gen.datetime(-15, -2) if past else gen.datetime(1, 14),
                                       "duration_minutes": gen.pick([30, 45, 60]), "kind": gen.pick(["phone", "video", "onsite", "technical"]),
                                       "status": "completed" if past else "scheduled"})
                    if past:
                        cards.append({"application_id": app_id, "interviewer_email": interviewer, "rating": gen.int(3, 4),
                                      "recommendation": gen.pick(["yes", "strong_yes"]), "notes": gen.sentence(),
                                      "submitted_at": gen.datetime(-10, -1)})
        return {"openings": openings, "candidates": candidates, "applications": apps, "interviews": interviews, "scorecards": cards}

    # -- openings ------------------------------------------------------------------------------
    @tool(read_only=True)
    def search_openings(self, query: Query = "", department: str | None = None, status: Literal["open", "closed"] | None = None,
                        limit: Limit = 20, offset: Offset = 0) -> Page[Opening]:
        """Search job openings by title or location, most recently opened first.

        Args:
            query: Text to match in the title or location.
            department: Only openings of this department.
            status: Only open or only closed openings.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        rows = [o for o in self.db["openings"].ordered(("opened_on",), reverse=True) if (status is None or o["status"] == status)
                and (department is None or o["department"] == department) and matches(query, o["title"], o["location"])]
        return page(rows, limit, offset)

    @tool(read_only=True)
    def get_opening(self, opening_id: OpeningId) -> Opening:
        """Get one job opening by id.

        Args:
            opening_id: The opening's id.
        """
        return self.db["openings"].require(opening_id)

    @tool
    def create_opening(self, title: Title, department: str, hiring_manager_email: Email, location: City = "Remote",
                       headcount: int = 1) -> Opening:
        """Open a new job opening.

        Args:
            title: Job title.
            department: Hiring department.
            hiring_manager_email: Email of the hiring manager.
            location: Office city or 'Remote'.
            headcount: Number of people to hire (1-20).
        """
        if not 1 <= headcount <= 20:
            raise ToolError("headcount must be between 1 and 20")
        return self.db["openings"].insert({"title": title, "department": department, "hiring_manager_email": hiring_manager_email,
                                            "location": location, "status": "open", "headcount": headcount, "hired": 0,
                                            "opened_on": self.today(), "closed_on": None})

    @tool(idempotent=True)
    def close_opening(self, opening_id: OpeningId) -> Opening:
        """Close an opening: nobody more can be hired into it.

        Args:
            opening_id: The opening to close.
        """
        opening = self.db["openings"].require(opening_id)
        if opening["status"] == "closed":
            return opening
        return self.db["openings"].update(opening_id, status="closed", closed_on=self.today())

    # -- candidates ----------------------------------------------------------------------------
    @tool(read_only=True)
    def search_candidates(self, query: Query = "", current_company: CompanyName | None = None, limit: Limit = 20,
                          offset: Offset = 0) -> Page[Candidate]:
        """Search candidates by name or email, most recently updated first.

        Args:
            query: Text to match in name or email.
            current_company: Only candidates currently at this company.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        rows = [c for c in self.db["candidates"].ordered(("updated_at",), reverse=True) if (current_company is None or c["current_company"] == current_company)
                and matches(query, c["name"], c["email"])]
        return page(rows, limit, offset)

    @tool
    def add_candidate(self, name: PersonName, email: Email, phone: Phone = "+1-555-0100", current_company: CompanyName | None = None,
                      source: Source = "career_site") -> Candidate:
        """Add a candidate profile. Emails are unique.

        Args:
            name: Full name.
            email: Email address.
            phone: Phone number.
            current_company: Where they work now.
            source: How they reached us.
        """
        if any(c["email"].lower() == email.lower() for c in self.db["candidates"]):
            raise ToolError(f"a candidate with email {email} already exists")
        return self.db["candidates"].insert({"name": name, "email": email, "phone": phone, "current_company": current_company,
                                              "source": source, "updated_at": self.now()})

    # -- applications --------------------------------------------------------------------------
    @tool
    def create_application(self, opening_id: OpeningId, candidate_email: Email) -> Application:
        """Apply a candidate (found by email) to an open opening, in the 'applied' stage.

        Args:
            opening_id: The open opening.
            candidate_email: The candidate's email (add_candidate first if new).
        """
        opening = self.db["openings"].require(opening_id)
        if opening["status"] != "open":
            raise ToolError(f"opening {opening_id} ({opening['title']}) is closed")
        cand = next((c for c in self.db["candidates"] if c["email"].lower() == candidate_email.lower()), None)
        if cand is None:
            raise ToolError(f"no candidate with email {candidate_email}; add_candidate first")
        if self.db["applications"].first(opening_id=opening_id, candidate_id=cand["id"]):
            raise ToolError(f"{cand['name']} already applied to opening {opening_id}")
        return self.db["applications"].insert({"opening_id": opening_id, "opening_title": opening["title"], "candidate_id": cand["id"],
                                                "candidate_name": cand["name"], "candidate_email": cand["email"], "stage": "applied",
                                                "rejection_reason": "", "applied_at": self.now(), "updated_at": self.now()})

    @tool(read_only=True)
    def search_applications(self, opening_id: OpeningId | None = None, candidate_email: Email | None = None,
                            stage: Stage | None = None, limit: Limit = 20, offset: Offset = 0) -> Page[Application]:
        """List applications, most recently updated first.

        Args:
            opening_id: Only applications to this opening.
            candidate_email: Only applications of the candidate with this email.
            stage: Only applications in this stage.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        email = candidate_email.lower() if candidate_email else None
        rows = [a for a in self.db["applications"].ordered(("updated_at",), reverse=True) if (opening_id is None or a["opening_id"] == opening_id)
                and (stage is None or a["stage"] == stage) and (email is None or a["candidate_email"].lower() == email)]
        return page(rows, limit, offset)

    @tool
    def move_application(self, application_id: ApplicationId, stage: Stage, reason: Text = "") -> Application:
        """Move an application to the next stage (applied -> screen -> interview -> offer -> hired) or reject it.
        An offer needs at least one scorecard; offers and hires need the opening to be open.

        Args:
            application_id: The application.
            stage: The new stage.
            reason: Why, required when rejecting.
        """
        app = self.db["applications"].require(application_id)
        allowed = NEXT_STAGES[app["stage"]]
        if stage not in allowed:
            raise ToolError(f"cannot move an application from {app['stage']} to {stage}; allowed: {sorted(allowed) or 'none (final)'}")
        opening = self.db["openings"].require(app["opening_id"])
        if stage == "offer" and not self.db["scorecards"].first(application_id=application_id):
            raise ToolError(f"no scorecard for application {application_id}; an interviewer must submit one before an offer")
        if stage in ("offer", "hired") and opening["status"] != "open":
            raise ToolError(f"opening {opening['id']} ({opening['title']}) is closed; cannot {'hire into' if stage == 'hired' else 'make an offer for'} it")
        if stage == "rejected" and not reason.strip():
            raise ToolError("a rejection needs a reason")
        if stage == "hired":
            hired = opening["hired"] + 1
            self.db["openings"].update(opening["id"], hired=hired, **({"status": "closed", "closed_on": self.today()}
                                                                       if hired >= opening["headcount"] else {}))
        return self.db["applications"].update(application_id, stage=stage, rejection_reason=reason if stage == "rejected" else "",
                                              updated_at=self.now())

    # -- interviews and scorecards -------------------------------------------------------------
    @tool
    def schedule_interview(self, application_id: ApplicationId, interviewer_email: Email, scheduled_at: DateTime,
                           duration_minutes: int = 45, kind: Literal["phone", "video", "onsite", "technical"] = "video") -> Interview:
        """Schedule an interview for an application in the screen or interview stage.

        Args:
            application_id: The application.
            interviewer_email: The interviewer's work email; they must be free at that time.
            scheduled_at: Start time (YYYY-MM-DDTHH:MM[:SS]Z), in the future.
            duration_minutes: Length in minutes (15-240).
            kind: Interview format.
        """
        app = self.db["applications"].require(application_id)
        if app["stage"] not in INTERVIEWABLE:
            raise ToolError(f"application {application_id} is in stage {app['stage']}; interviews need stage screen or interview")
        if not 15 <= duration_minutes <= 240:
            raise ToolError("duration_minutes must be between 15 and 240")
        start = _norm(scheduled_at)
        if start <= self.now():
            raise ToolError(f"scheduled_at {start} is in the past (now is {self.now()})")
        end, who = _end(start, duration_minutes), interviewer_email.lower()
        for iv in self.db["interviews"]:
            if iv["status"] == "scheduled" and iv["interviewer_email"].lower() == who \
                    and iv["scheduled_at"] < end and start < _end(iv["scheduled_at"], iv["duration_minutes"]):
                raise ToolError(f"{interviewer_email} already has interview {iv['id']} at {iv['scheduled_at']}")
        return self.db["interviews"].insert({"application_id": application_id, "candidate_email": app["candidate_email"],
                                              "interviewer_email": interviewer_email, "scheduled_at": start,
                                              "duration_minutes": duration_minutes, "kind": kind, "status": "scheduled"})

    @tool
    def cancel_interview(self, interview_id: InterviewId) -> Interview:
        """Cancel a scheduled interview.

        Args:
            interview_id: The interview.
        """
        iv = self.db["interviews"].require(interview_id)
        if iv["status"] != "scheduled":
            raise ToolError(f"interview {interview_id} is {iv['status']}; only scheduled interviews can be cancelled")
        return self.db["interviews"].update(interview_id, status="cancelled")

    @tool(read_only=True)
    def list_interviews(self, interviewer_email: Email | None = None, application_id: ApplicationId | None = None,
                        status: Literal["scheduled", "completed", "cancelled"] | None = None, on_date: Date | None = None,
                        limit: Limit = 20, offset: Offset = 0) -> Page[Interview]:
        """List interviews in time order.

        Args:
            interviewer_email: Only this interviewer's interviews.
            application_id: Only interviews of this application.
            status: Only interviews in this status.
            on_date: Only interviews on this day (YYYY-MM-DD).
            limit: Maximum number of results.
            offset: Results to skip.
        """
        who = interviewer_email.lower() if interviewer_email else None
        rows = [i for i in self.db["interviews"].ordered(("scheduled_at",)) if (status is None or i["status"] == status)
                and (application_id is None or i["application_id"] == application_id)
                and (who is None or i["interviewer_email"].lower() == who) and (on_date is None or i["scheduled_at"][:10] == on_date)]
        return page(rows, limit, offset)

    @tool
    def submit_scorecard(self, application_id: ApplicationId, interviewer_email: Email, rating: Rating,
                         recommendation: Recommendation, notes: Text = "") -> Scorecard:
        """Submit an interviewer's scorecard; the interviewer must have interviewed the candidate for this application.

        Args:
            application_id: The application.
            interviewer_email: The interviewer's email.
            rating: Overall rating from 1 (poor) to 4 (excellent).
            recommendation: Hiring recommendation.
            notes: Evidence behind the rating.
        """
        who = interviewer_email.lower()
        ivs = [i for i in self.db["interviews"].find(application_id=application_id)
               if i["interviewer_email"].lower() == who and i["status"] != "cancelled"]
        self.db["applications"].require(application_id)
        if not ivs:
            raise ToolError(f"{interviewer_email} has no interview for application {application_id}; schedule one first")
        if any(s["interviewer_email"].lower() == who for s in self.db["scorecards"].find(application_id=application_id)):
            raise ToolError(f"{interviewer_email} already submitted a scorecard for application {application_id}")
        for iv in ivs:
            if iv["status"] == "scheduled":
                self.db["interviews"].update(iv["id"], status="completed")
        return self.db["scorecards"].insert({"application_id": application_id, "interviewer_email": interviewer_email, "rating": rating,
                                              "recommendation": recommendation, "notes": notes, "submitted_at": self.now()})

    @tool(read_only=True)
    def list_scorecards(self, application_id: ApplicationId) -> list[Scorecard]:
        """The scorecards submitted for one application, oldest first.

        Args:
            application_id: The application.
        """
        self.db["applications"].require(application_id)
        return sorted(self.db["scorecards"].find(application_id=application_id), key=lambda s: s["submitted_at"])
