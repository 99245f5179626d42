"""Calendar: events with attendees and responses, bookable meeting rooms, and free-slot search (scheduling)."""

from __future__ import annotations

from datetime import date as Day, datetime, timedelta
from typing import Annotated, Iterable, Literal

from pydantic import Field
from typing_extensions import TypedDict

from compoworld.canonical import format_timestamp
from compoworld.services import Collection, Service, ToolError, tool
from compoworld.services.fake import COMPANY_A, DataGen
from compoworld.services.library._search import Haystack
from compoworld.services.library._types import (
    Date, DateTime, Email, Id, Limit, Offset, Page, PersonName, Query, Text, Title, page,
)
from compoworld.services.semantics import Sem

RoomId = Id("calendar", "room")
EventId = Id("calendar", "event")
Minutes = Annotated[int, Sem("duration"), Field(ge=15, le=480, description="Length in minutes (15-480).")]
Response = Literal["needs_action", "accepted", "declined", "tentative"]
WORKDAY = (9, 17)  # free slots are offered inside office hours only
STEP_MIN = 30
_EVENT_TEXT = Haystack("title", "description")
_ROOM_TEXT = Haystack("name")


def norm(value: str) -> str:
    """Canonical `YYYY-MM-DDTHH:MM:SSZ`, so stored times compare correctly as strings."""
    try:
        return format_timestamp(datetime.fromisoformat(value.rstrip("Z")))
    except ValueError:
        raise ToolError(f"'{value}' is not a valid date-time (YYYY-MM-DDTHH:MM[:SS]Z)") from None


def parse(value: str) -> datetime:
    return datetime.fromisoformat(value.rstrip("Z"))


class Attendee(TypedDict):
    email: Email
    name: PersonName | None
    response: Response


class Room(TypedDict):
    id: RoomId
    name: str
    capacity: int
    floor: int
    has_video: bool


class Event(TypedDict):
    id: EventId
    title: Title
    description: Text
    date: Date  # the start's day, so a meeting day can feed date inputs (due dates, filters) directly
    start: DateTime
    end: DateTime
    organizer_email: Email
    attendees: list[Attendee]
    room_id: RoomId | None
    status: Literal["confirmed", "cancelled"]
    updated_at: DateTime


class Slot(TypedDict):
    start: DateTime
    end: DateTime
    room_id: RoomId | None


class Availability(TypedDict):
    room_id: RoomId
    available: bool
    conflicts: list[Event]


def _overlaps(ev: dict, start: str, end: str) -> bool:
    return ev["status"] == "confirmed" and ev["start"] < end and start < ev["end"]


class Calendar(Service):
    name = "calendar"
    domain = "communication"
    description = "Shared calendar: meetings with attendees and RSVPs, meeting-room booking, and finding free time."
    tables = {
        "rooms": Collection(Room, "room", "room"),
        "events": Collection(Event, "event", "ev"),
    }

    def generate(self, gen: DataGen) -> dict[str, Iterable[dict]]:
        w = gen.world
        rooms: list[dict] = []
        for i, word in enumerate(gen.sample(COMPANY_A, min(len(COMPANY_A), gen.n(8)))):
            rooms.append({"id": f"room_{len(rooms) + 1:04d}", "name": f"{word} Room", "capacity": gen.pick([4, 6, 8, 12, 20]),
                          "floor": 1 + i % 5, "has_video": gen.chance(0.7)})
            if gen.chance(0.2):  # near-duplicate name, smaller room
                rooms.append({"id": f"room_{len(rooms) + 1:04d}", "name": f"{word} Annex", "capacity": 2,
                              "floor": 1 + i % 5, "has_video": False})
        booked: dict[str, list[tuple[str, str]]] = {}
        events: list[dict] = []
        day0 = gen.now.replace(hour=0, minute=0, second=0, microsecond=0, tzinfo=None)

        def when(d_from: int, d_to: int) -> tuple[str, str]:
            start = day0 + timedelta(days=gen.int(d_from, d_to), hours=gen.int(8, 16), minutes=gen.pick([0, 30]))
            return format_timestamp(start), format_timestamp(start + timedelta(minutes=gen.pick([30, 30, 60, 60, 90, 120])))

        def free_room(start: str, end: str, size: int) -> str | None:
            for room in gen.sample(rooms, len(rooms)):
                if room["capacity"] >= size and not any(s < end and start < e for s, e in booked.get(room["id"], [])):
                    booked.setdefault(room["id"], []).append((start, end))
                    return room["id"]
            return None

        def event(title: str, start: str, end: str, organizer, people: list, status: str = "confirmed",
                  updated: str | None = None, room: bool = True, description: str = "") -> None:
            answers = ["needs_action", "accepted", "accepted", "declined", "tentative"]
            attendees = [{"email": p.email, "name": p.name, "response": gen.pick(answers)} for p in people if p.email != organizer.email]
            size = len(attendees) + 1
            rid = free_room(start, end, size) if room and status == "confirmed" and gen.chance(0.7) else None
            events.append({"id": f"ev_{len(events) + 1:04d}", "title": title, "description": description or gen.sentence(),
                           "date": start[:10], "start": start, "end": end, "organizer_email": organizer.email,
                           "attendees": attendees, "room_id": rid, "status": status, "updated_at": updated or gen.datetime(-40, -1)})

        for _ in range(gen.n(25)):
            org = gen.employee()
            people = gen.sample(w.employees, gen.int(1, 4))
            kind = gen.int(0, 2)
            if kind == 0:  # customer meeting
                c = gen.contact()
                title, people = f"{c.company} / Halcyon: {gen.words(2)}", [*people, c]
            elif kind == 1:
                title = f"{gen.title()} sync"
            else:
                title = f"{gen.pick(['Weekly', 'Quarterly', 'Monthly'])} {org.department.lower()} review"
            start, end = when(-14, 21)
            if gen.chance(0.15):  # rescheduled: the old slot was cancelled, the newer one stands
                event(title, start, end, org, people, status="cancelled", updated=gen.datetime(-20, -10), room=False)
                start, end = when(1, 21)
                event(title, start, end, org, people, updated=gen.datetime(-9, -1))
            else:
                event(title, start, end, org, people, status="cancelled" if gen.chance(0.08) else "confirmed")
        for _ in range(gen.n(8)):  # irrelevant personal blocks
            p = gen.employee()
            start, end = when(-7, 14)
            event(gen.pick(["Focus time", "Lunch", "Dentist", "Commute"]), start, end, p, [], room=False, description="Private")
        return {"rooms": rooms, "events": events}

    # -- helpers -------------------------------------------------------------------------------
    def _check_window(self, start: str, end: str) -> None:
        if end <= start:
            raise ToolError(f"end {end} must be after start {start}")
        if start < self.now():
            raise ToolError(f"start {start} is in the past (now is {self.now()})")
        if parse(end) - parse(start) > timedelta(hours=24):
            raise ToolError("an event cannot last more than 24 hours")

    def _check_room(self, room_id: str, start: str, end: str, size: int, ignore: str | None = None) -> None:
        room = self.db["rooms"].require(room_id)
        if size > room["capacity"]:
            raise ToolError(f"{room['name']} holds {room['capacity']} people but the event has {size}")
        clash = next((e for e in self.db["events"] if e["room_id"] == room_id and e["id"] != ignore and _overlaps(e, start, end)), None)
        if clash is not None:
            raise ToolError(f"{room['name']} is already booked from {clash['start']} to {clash['end']} ({clash['title']}); "
                            "pick another room or time (find_free_slots helps)")

    def _future_event(self, event_id: str, verb: str) -> dict:
        ev = self.db["events"].require(event_id)
        if ev["status"] == "cancelled":
            raise ToolError(f"event {event_id} is cancelled; create a new event instead")
        if ev["start"] < self.now():
            raise ToolError(f"cannot {verb} event {event_id}: it started at {ev['start']}, which is in the past")
        return ev

    # -- rooms ---------------------------------------------------------------------------------
    @tool(read_only=True)
    def list_rooms(self, query: Query = "", min_capacity: int = 0, has_video: bool | None = None,
                   limit: Limit = 20, offset: Offset = 0) -> Page[Room]:
        """List meeting rooms.

        Args:
            query: Text to match in the room name.
            min_capacity: Only rooms holding at least this many people.
            has_video: Only rooms with (True) or without (False) video conferencing.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        rows = [r for r in _ROOM_TEXT.filter(list(self.db["rooms"]), query) if r["capacity"] >= min_capacity
                and (has_video is None or r["has_video"] == has_video)]
        return page(rows, limit, offset)

    @tool(read_only=True)
    def check_room_availability(self, room_id: RoomId, start: DateTime, end: DateTime) -> Availability:
        """Say whether a room is free for a time window and list the bookings in the way.

        Args:
            room_id: The room.
            start: Window start (YYYY-MM-DDTHH:MM:SSZ).
            end: Window end.
        """
        self.db["rooms"].require(room_id)
        start, end = norm(start), norm(end)
        if end <= start:
            raise ToolError(f"end {end} must be after start {start}")
        clashes = [e for e in self.db["events"] if e["room_id"] == room_id and _overlaps(e, start, end)]
        return {"room_id": room_id, "available": not clashes, "conflicts": clashes}

    # -- events --------------------------------------------------------------------------------
    @tool(read_only=True)
    def list_events(self, from_date: Date | None = None, to_date: Date | None = None, attendee: Email | None = None,
                    organizer: Email | None = None, room_id: RoomId | None = None, query: Query = "",
                    status: Literal["confirmed", "cancelled"] | None = None, limit: Limit = 20, offset: Offset = 0) -> Page[Event]:
        """List events in start-time order, filtered by dates, people, room, text or status.

        Args:
            from_date: Only events starting on or after this day (YYYY-MM-DD).
            to_date: Only events starting on or before this day.
            attendee: Only events this address attends or organizes.
            organizer: Only events organized by this address.
            room_id: Only events booked in this room.
            query: Text to match in the title or description.
            status: Only confirmed or only cancelled events.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        rows = self.db["events"].ordered(("start",))
        if from_date is not None:
            rows = [e for e in rows if e["date"] >= from_date]
        if to_date is not None:
            rows = [e for e in rows if e["date"] <= to_date]
        if status is not None:
            rows = [e for e in rows if e["status"] == status]
        if room_id is not None:
            rows = [e for e in rows if e["room_id"] == room_id]
        if organizer is not None:
            rows = [e for e in rows if e["organizer_email"] == organizer]
        if attendee is not None:
            rows = [e for e in rows if e["organizer_email"] == attendee or any(a["email"] == attendee for a in e["attendees"])]
        return page(_EVENT_TEXT.filter(rows, query), limit, offset)

    @tool(read_only=True)
    def get_event(self, event_id: EventId) -> Event:
        """Get one event by id.

        Args:
            event_id: The event's id.
        """
        return self.db["events"].require(event_id)

    @tool
    def create_event(self, title: Title, start: DateTime, end: DateTime, organizer: Email, attendees: list[Email] = [],
                     room_id: RoomId | None = None, description: Text = "") -> Event:
        """Schedule an event. It must end after it starts and not start in the past; a room cannot be double-booked
        or hold more people than its capacity.

        Args:
            title: Event title.
            start: Start time (YYYY-MM-DDTHH:MM:SSZ, UTC).
            end: End time, after start.
            organizer: Address of the organizer.
            attendees: Addresses of the people invited (besides the organizer).
            room_id: Meeting room to book, if any.
            description: Agenda or notes.
        """
        start, end = norm(start), norm(end)
        self._check_window(start, end)
        people = [a for a in dict.fromkeys(attendees) if a != organizer]
        if room_id is not None:
            self._check_room(room_id, start, end, len(people) + 1)
        return self.db["events"].insert({"title": title, "description": description, "date": start[:10], "start": start, "end": end,
                                         "organizer_email": organizer,
                                         "attendees": [{"email": a, "name": None, "response": "needs_action"} for a in people],
                                         "room_id": room_id, "status": "confirmed", "updated_at": self.now()})

    @tool(idempotent=True)
    def update_event(self, event_id: EventId, title: Title | None = None, start: DateTime | None = None, end: DateTime | None = None,
                     room_id: RoomId | None = None, release_room: bool = False, description: Text | None = None) -> Event:
        """Change an upcoming event's title, time, room or description; the same rules as create_event apply.
        Past and cancelled events cannot be changed.

        Args:
            event_id: The event to change.
            title: New title.
            start: New start time.
            end: New end time.
            room_id: Book this room instead.
            release_room: Give up the booked room (ignored when room_id is given).
            description: New agenda or notes.
        """
        ev = self._future_event(event_id, "update")
        new_start = norm(start) if start else ev["start"]
        new_end = norm(end) if end else ev["end"]
        if start or end:
            self._check_window(new_start, new_end)
        room = room_id if room_id is not None else (None if release_room else ev["room_id"])
        if room is not None:
            self._check_room(room, new_start, new_end, len(ev["attendees"]) + 1, ignore=event_id)
        changes = {"date": new_start[:10], "start": new_start, "end": new_end, "room_id": room}
        if title is not None:
            changes["title"] = title
        if description is not None:
            changes["description"] = description
        return self.db["events"].update(event_id, **changes, updated_at=self.now())

    @tool(destructive=True, idempotent=True)
    def cancel_event(self, event_id: EventId) -> Event:
        """Cancel an upcoming event and free its room. Events that already started cannot be cancelled.

        Args:
            event_id: The event to cancel.
        """
        self._future_event(event_id, "cancel")
        return self.db["events"].update(event_id, status="cancelled", updated_at=self.now())

    @tool(idempotent=True)
    def add_attendee(self, event_id: EventId, email: Email, name: PersonName | None = None) -> Event:
        """Invite someone to an upcoming event; the booked room must still fit everyone.

        Args:
            event_id: The event.
            email: Address of the person to invite.
            name: Their name, if known.
        """
        ev = self._future_event(event_id, "change")
        if email == ev["organizer_email"] or any(a["email"] == email for a in ev["attendees"]):
            return ev
        if ev["room_id"] is not None:
            room = self.db["rooms"].require(ev["room_id"])
            if len(ev["attendees"]) + 2 > room["capacity"]:
                raise ToolError(f"{room['name']} holds {room['capacity']} people and is full; move the event to a bigger room first")
        return self.db["events"].update(event_id, attendees=[*ev["attendees"], {"email": email, "name": name, "response": "needs_action"}],
                                        updated_at=self.now())

    @tool(destructive=True, idempotent=True)
    def remove_attendee(self, event_id: EventId, email: Email) -> Event:
        """Take someone off an upcoming event's guest list.

        Args:
            event_id: The event.
            email: Address of the attendee to remove.
        """
        ev = self._future_event(event_id, "change")
        if not any(a["email"] == email for a in ev["attendees"]):
            raise ToolError(f"{email} is not an attendee of event {event_id}")
        return self.db["events"].update(event_id, attendees=[a for a in ev["attendees"] if a["email"] != email], updated_at=self.now())

    @tool(idempotent=True)
    def respond_to_event(self, event_id: EventId, email: Email, response: Literal["accepted", "declined", "tentative"]) -> Event:
        """Record an attendee's RSVP to an upcoming event.

        Args:
            event_id: The event.
            email: Address of the attendee answering.
            response: accepted, declined or tentative.
        """
        ev = self._future_event(event_id, "respond to")
        if not any(a["email"] == email for a in ev["attendees"]):
            raise ToolError(f"{email} is not invited to event {event_id}; add_attendee first")
        attendees = [{**a, "response": response} if a["email"] == email else a for a in ev["attendees"]]
        return self.db["events"].update(event_id, attendees=attendees, updated_at=self.now())

    @tool(read_only=True)
    def find_free_slots(self, attendees: list[Email], date: Date, duration_minutes: Minutes = 30, min_capacity: int = 0,
                        limit: Limit = 10) -> list[Slot]:
        """Find times on one working day (09:00-17:00 UTC, half-hour steps) when every attendee is free
        (declined invitations do not count as busy); with min_capacity > 0 each slot also names a free room that big.

        Args:
            attendees: Addresses of everyone who must attend.
            date: The day to search (YYYY-MM-DD), today or later.
            duration_minutes: Meeting length in minutes.
            min_capacity: If above 0, also require a free room holding at least this many people.
            limit: Maximum number of slots.
        """
        if date < self.today():
            raise ToolError(f"{date} is in the past (today is {self.today()})")
        who = set(attendees)
        prev = (Day.fromisoformat(date) - timedelta(days=1)).isoformat()  # events last at most 24h
        day = [e for e in self.db["events"] if (e["date"] == date or (e["date"] == prev and e["end"] > date)) and e["status"] == "confirmed"]
        busy = [(e["start"], e["end"]) for e in day
                if e["organizer_email"] in who or any(a["email"] in who and a["response"] != "declined" for a in e["attendees"])]
        rooms = [r for r in self.db["rooms"] if r["capacity"] >= min_capacity] if min_capacity > 0 else []
        now = self.now()
        out: list[dict] = []
        for m0 in range(WORKDAY[0] * 60, WORKDAY[1] * 60 - duration_minutes + 1, STEP_MIN):
            if len(out) >= limit:
                break
            m1 = m0 + duration_minutes
            s, e = f"{date}T{m0 // 60:02d}:{m0 % 60:02d}:00Z", f"{date}T{m1 // 60:02d}:{m1 % 60:02d}:00Z"
            if s < now or any(b0 < e and s < b1 for b0, b1 in busy):
                continue
            room = None
            if min_capacity > 0:
                room = next((r["id"] for r in rooms if not any(ev["room_id"] == r["id"] and _overlaps(ev, s, e) for ev in day)), None)
                if room is None:
                    continue
            out.append({"start": s, "end": e, "room_id": room})
        return out
