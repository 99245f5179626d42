"""Team chat: workspace users, public/private channels, direct messages, threads and pins (communication)."""

from __future__ import annotations

import re
from operator import itemgetter
from typing import Iterable, Literal

from typing_extensions import TypedDict

from compoworld.services import Collection, Service, ToolError, tool
from compoworld.services.fake import DEPARTMENTS, DataGen
from compoworld.services.library._search import Haystack, page_by
from compoworld.services.library._types import (
    DateTime, Email, Id, Limit, Offset, Page, PersonName, Query, Text, page,
)

UserId = Id("chat", "user")
ChannelId = Id("chat", "channel")
ChatMessageId = Id("chat", "message")
Kind = Literal["public", "private", "dm"]
CHANNEL_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,79}$")
MAX_PINS = 10
_POSTED = itemgetter("posted_at")  # heap selection is stable: ties keep insertion (id) order
_USER_TEXT = Haystack("name", "email", "title")
_CHANNEL_TEXT = Haystack("name", "topic")
_MESSAGE_TEXT = Haystack("text", "author_name")


class User(TypedDict):
    id: UserId
    email: Email
    name: PersonName
    title: str
    department: str
    role: Literal["owner", "member", "guest"]
    status: Literal["active", "deactivated"]


class Channel(TypedDict):
    id: ChannelId
    name: str
    kind: Kind
    topic: Text
    members: list[Email]
    created_by: Email
    created_at: DateTime
    archived: bool


class ChatMessage(TypedDict):
    id: ChatMessageId
    channel_id: ChannelId
    author_email: Email
    author_name: PersonName
    text: Text
    thread_parent_id: ChatMessageId | None
    pinned: bool
    posted_at: DateTime


class Chat(Service):
    name = "chat"
    domain = "communication"
    description = "Team chat workspace: public and private channels, direct messages, threads, search and pinned messages."
    # Users are employees, except guests (customers' people in shared channels), who also post.
    roles = {"messages": {"author_email": "correspondent", "author_name": "correspondent"}}
    tables = {
        "users": Collection(User, "user", "u"),
        "channels": Collection(Channel, "channel", "ch"),
        "messages": Collection(ChatMessage, "message", "cm"),
    }

    def generate(self, gen: DataGen) -> dict[str, Iterable[dict]]:
        w = gen.world
        users: list[dict] = []
        for i, p in enumerate(w.employees):
            users.append({"id": f"u_{i + 1:04d}", "email": p.email, "name": p.name, "title": p.title, "department": p.department,
                          "role": "owner" if i == 0 else "member", "status": "active"})
        for p in gen.sample(w.employees[1:], max(1, gen.n(2))):  # a departed namesake: same name, old account
            users.append({"id": f"u_{len(users) + 1:04d}", "email": p.email.replace("@", ".former@"), "name": p.name, "title": p.title,
                          "department": p.department, "role": "member", "status": "deactivated"})
        guests = gen.sample(w.contacts, gen.n(4))
        for p in guests:
            users.append({"id": f"u_{len(users) + 1:04d}", "email": p.email, "name": p.name, "title": p.title, "department": "",
                          "role": "guest", "status": "active"})
        owner = w.employees[0]
        staff = [p.email for p in w.employees]
        channels: list[dict] = []

        def channel(name: str, kind: str, members: list[str], topic: str, archived: bool = False) -> str:
            cid = f"ch_{len(channels) + 1:04d}"
            channels.append({"id": cid, "name": name, "kind": kind, "topic": topic, "members": members,
                             "created_by": members[0] if members else owner.email, "created_at": gen.datetime(-400, -60),
                             "archived": archived})
            return cid

        channel("general", "public", staff, "Company-wide announcements")
        channel("random", "public", gen.sample(staff, len(staff) // 2 + 1), "Anything goes")
        for dept in DEPARTMENTS:
            team = [p.email for p in w.employees if p.department == dept]
            channel(dept.lower(), "public", team or [owner.email], f"{dept} team")
        for name, topic in [("leadership", "Leadership only"), ("deal-desk", "Discount and pricing approvals"),
                            ("hiring-committee", "Candidate debriefs"), ("incident-response", "Production incidents")]:
            members = gen.sample(staff[1:], gen.int(3, 6))
            if name == "leadership" or gen.chance(0.5):
                members = [owner.email, *members]
            channel(name, "private", members, topic)
        for p in guests:  # shared channels with customers
            slug = re.sub(r"[^a-z0-9]+", "-", p.company.lower()).strip("-")[:60]
            if not any(c["name"] == f"ext-{slug}" for c in channels):
                channel(f"ext-{slug}", "private", [*gen.sample(staff, 3), p.email], f"Shared channel with {p.company}")
        for _ in range(gen.n(6)):  # project channels, with archived near-duplicates of older rounds
            base = f"proj-{gen.words(1)}"
            if any(c["name"] == base for c in channels):
                continue
            channel(base, "public", gen.sample(staff, gen.int(3, 8)), gen.sentence())
            if gen.chance(0.4):
                channel(f"{base}-2025", "public", gen.sample(staff, gen.int(3, 8)), "Previous round (closed)", archived=True)
        for p in gen.sample(w.employees[1:], gen.n(3)):
            channel(f"dm-{owner.email.split('@')[0]}-{p.email.split('@')[0]}"[:80], "dm", [owner.email, p.email], "")

        names = {u["email"]: u["name"] for u in users}
        messages: list[dict] = []
        for _ in range(gen.n(40)):
            ch = gen.pick(channels)
            if not ch["members"]:
                continue
            author = gen.pick(ch["members"])
            co = gen.company()
            amount, due = gen.int(5, 80) * 500, gen.date(3, 60)
            kind = gen.int(0, 4)
            text = [
                f"Reminder: the {co.name} renewal is due on {due}.",
                f"{co.name} asked for a {gen.int(5, 25)}% discount on the {gen.product()[0]}. Thoughts?",
                f"The {gen.words(1)} budget for this quarter is ${amount:,}.",
                f"Please review the {gen.title().lower()} doc before {due}.",
                gen.sentence(),
            ][kind]
            messages.append({"id": f"cm_{len(messages) + 1:04d}", "channel_id": ch["id"], "author_email": author,
                             "author_name": names.get(author, author.split("@")[0]), "text": text, "thread_parent_id": None,
                             "pinned": gen.chance(0.1), "posted_at": gen.datetime(-30, -2)})
            if kind in (0, 2, 3) and gen.chance(0.25):  # a thread update supersedes the first post
                update = (f"Update: the budget is now ${amount + gen.int(1, 20) * 250:,}." if kind == 2
                          else f"Update: the date moved to {gen.date(61, 90)}.")
                messages.append({"id": f"cm_{len(messages) + 1:04d}", "channel_id": ch["id"], "author_email": author,
                                 "author_name": names.get(author, author.split("@")[0]), "text": update,
                                 "thread_parent_id": messages[-1]["id"], "pinned": False, "posted_at": gen.datetime(-1, -1)})
        return {"users": users, "channels": channels, "messages": messages}

    # -- helpers -------------------------------------------------------------------------------
    def _actor(self, email: str | None) -> dict:
        users = self.db["users"]
        if email is None:
            me = users.first(role="owner")
            if me is None:
                raise ToolError("the workspace has no owner; pass as_user explicitly")
            return me
        return self._user(email)

    def _user(self, email: str) -> dict:
        low = email.lower()
        user = next((u for u in self.db["users"] if u["email"].lower() == low), None)
        if user is None:
            raise ToolError(f"{email} is not a user of this workspace; list_users shows who is")
        if user["status"] != "active":
            raise ToolError(f"{email} is deactivated")
        return user

    def _readable(self, ch: dict, who: str) -> bool:
        return ch["kind"] == "public" or who in ch["members"]

    def _open_channel(self, channel_id: str) -> dict:
        ch = self.db["channels"].require(channel_id)
        if ch["archived"]:
            raise ToolError(f"#{ch['name']} is archived; it is read-only")
        return ch

    # -- users and channels --------------------------------------------------------------------
    @tool(read_only=True)
    def list_users(self, query: Query = "", department: str | None = None, include_deactivated: bool = False,
                   limit: Limit = 20, offset: Offset = 0) -> Page[User]:
        """List workspace users (employees and guests).

        Args:
            query: Text to match in name, email or title.
            department: Only users of this department.
            include_deactivated: Also list deactivated accounts.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        rows = list(self.db["users"]) if include_deactivated else [u for u in self.db["users"] if u["status"] == "active"]
        if department is not None:
            dept = department.lower()
            rows = [u for u in rows if u["department"].lower() == dept]
        return page(_USER_TEXT.filter(rows, query), limit, offset)

    @tool(read_only=True)
    def list_channels(self, query: Query = "", kind: Kind | None = None, member: Email | None = None,
                      include_archived: bool = False, limit: Limit = 20, offset: Offset = 0) -> Page[Channel]:
        """List channels you can see: every public channel plus private channels and DMs you belong to.

        Args:
            query: Text to match in the channel name or topic.
            kind: Only public, private or dm channels.
            member: Only channels this address belongs to.
            include_archived: Also list archived channels.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        me = self._actor(None)["email"]
        rows = [c for c in self.db["channels"] if c["kind"] == "public" or me in c["members"]]
        if kind is not None:
            rows = [c for c in rows if c["kind"] == kind]
        if member is not None:
            rows = [c for c in rows if member in c["members"]]
        if not include_archived:
            rows = [c for c in rows if not c["archived"]]
        return page(_CHANNEL_TEXT.filter(rows, query), limit, offset)

    @tool(read_only=True)
    def get_channel(self, channel_id: ChannelId) -> Channel:
        """Get one channel by id, with its members.

        Args:
            channel_id: The channel's id.
        """
        ch = self.db["channels"].require(channel_id)
        if not self._readable(ch, self._actor(None)["email"]):
            raise ToolError(f"{channel_id} is private and you are not a member")
        return ch

    @tool
    def create_channel(self, name: str, private: bool = False, topic: Text = "", members: list[Email] = [],
                       as_user: Email | None = None) -> Channel:
        """Create a channel; the creator is always a member. Names are lowercase, without spaces, and unique.

        Args:
            name: Channel name: lowercase letters, digits, '-' or '_' (e.g. proj-apollo).
            private: Make it a private channel (members only).
            topic: What the channel is for.
            members: Addresses of users to add; each must be an active workspace user.
            as_user: Who creates it; defaults to you (the workspace owner).
        """
        if not CHANNEL_NAME.match(name):
            raise ToolError(f"invalid channel name '{name}': use lowercase letters, digits, '-' or '_' and no spaces")
        if self.db["channels"].first(name=name):
            raise ToolError(f"a channel named #{name} already exists")
        creator = self._actor(as_user)["email"]
        people = [creator] + [self._user(m)["email"] for m in members]
        return self.db["channels"].insert({"name": name, "kind": "private" if private else "public", "topic": topic,
                                           "members": list(dict.fromkeys(people)), "created_by": creator,
                                           "created_at": self.now(), "archived": False})

    @tool(idempotent=True)
    def add_member(self, channel_id: ChannelId, email: Email, as_user: Email | None = None) -> Channel:
        """Add a user to a channel. Only members of a private channel can add people to it.

        Args:
            channel_id: The channel.
            email: Address of the user to add; must be an active workspace user.
            as_user: Who adds them; defaults to you (the workspace owner).
        """
        ch = self._open_channel(channel_id)
        if ch["kind"] == "dm":
            raise ToolError("direct-message conversations cannot gain members; create a private channel instead")
        actor = self._actor(as_user)["email"]
        if ch["kind"] == "private" and actor not in ch["members"]:
            raise ToolError(f"only members of the private channel #{ch['name']} can add people, and {actor} is not one")
        user = self._user(email)["email"]
        if user in ch["members"]:
            return ch
        return self.db["channels"].update(channel_id, members=[*ch["members"], user])

    @tool(destructive=True, idempotent=True)
    def remove_member(self, channel_id: ChannelId, email: Email) -> Channel:
        """Remove a user from a channel.

        Args:
            channel_id: The channel.
            email: Address of the member to remove.
        """
        ch = self._open_channel(channel_id)
        if email not in ch["members"]:
            raise ToolError(f"{email} is not a member of #{ch['name']}")
        if ch["kind"] == "dm":
            raise ToolError("people cannot be removed from a direct-message conversation")
        return self.db["channels"].update(channel_id, members=[m for m in ch["members"] if m != email])

    @tool(idempotent=True)
    def archive_channel(self, channel_id: ChannelId) -> Channel:
        """Archive a channel: it stays searchable but becomes read-only. #general cannot be archived.

        Args:
            channel_id: The channel to archive.
        """
        ch = self.db["channels"].require(channel_id)
        if ch["name"] == "general":
            raise ToolError("#general cannot be archived")
        return self.db["channels"].update(channel_id, archived=True)

    # -- messages ------------------------------------------------------------------------------
    @tool
    def post_message(self, channel_id: ChannelId, text: Text, thread_parent_id: ChatMessageId | None = None,
                     as_user: Email | None = None) -> ChatMessage:
        """Post a message in a channel (or as a thread reply). Only members can post in private channels and DMs;
        posting in a public channel joins it.

        Args:
            channel_id: The channel.
            text: Message text (not empty).
            thread_parent_id: Reply in the thread of this message of the same channel.
            as_user: Who posts; defaults to you (the workspace owner).
        """
        if not text.strip():
            raise ToolError("a message cannot be empty")
        ch = self._open_channel(channel_id)
        author = self._actor(as_user)
        if author["email"] not in ch["members"]:
            if ch["kind"] != "public":
                raise ToolError(f"{author['email']} is not a member of the private channel #{ch['name']}; a member must add them first")
            self.db["channels"].update(channel_id, members=[*ch["members"], author["email"]])
        if thread_parent_id is not None:
            parent = self.db["messages"].require(thread_parent_id)
            if parent["channel_id"] != channel_id:
                raise ToolError(f"message {thread_parent_id} is in another channel")
            if parent["thread_parent_id"] is not None:
                thread_parent_id = parent["thread_parent_id"]  # threads are one level deep
        return self.db["messages"].insert({"channel_id": channel_id, "author_email": author["email"], "author_name": author["name"],
                                           "text": text, "thread_parent_id": thread_parent_id, "pinned": False,
                                           "posted_at": self.now()})

    @tool
    def send_direct_message(self, to: Email, text: Text, as_user: Email | None = None) -> ChatMessage:
        """Send a direct message to one user, opening the DM conversation if there is none yet.

        Args:
            to: Address of the recipient; must be an active workspace user.
            text: Message text (not empty).
            as_user: Who sends it; defaults to you (the workspace owner).
        """
        if not text.strip():
            raise ToolError("a message cannot be empty")
        sender = self._actor(as_user)
        target = self._user(to)
        if target["email"] == sender["email"]:
            raise ToolError("you cannot send a direct message to yourself")
        pair = {sender["email"], target["email"]}
        dm = next((c for c in self.db["channels"] if c["kind"] == "dm" and set(c["members"]) == pair), None)
        if dm is None:
            name = f"dm-{sender['email'].split('@')[0]}-{target['email'].split('@')[0]}"[:80]
            dm = self.db["channels"].insert({"name": name, "kind": "dm", "topic": "", "members": [sender["email"], target["email"]],
                                             "created_by": sender["email"], "created_at": self.now(), "archived": False})
        return self.db["messages"].insert({"channel_id": dm["id"], "author_email": sender["email"], "author_name": sender["name"],
                                           "text": text, "thread_parent_id": None, "pinned": False, "posted_at": self.now()})

    @tool(read_only=True)
    def list_messages(self, channel_id: ChannelId, thread_parent_id: ChatMessageId | None = None, pinned_only: bool = False,
                      limit: Limit = 20, offset: Offset = 0) -> Page[ChatMessage]:
        """List a channel's messages, newest first. Private channels and DMs are visible to members only.

        Args:
            channel_id: The channel.
            thread_parent_id: Only this message's thread replies.
            pinned_only: Only pinned messages.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        ch = self.db["channels"].require(channel_id)
        if not self._readable(ch, self._actor(None)["email"]):
            raise ToolError(f"#{ch['name']} is private and you are not a member")
        rows = [m for m in self.db["messages"] if m["channel_id"] == channel_id]
        if thread_parent_id is not None:
            rows = [m for m in rows if m["thread_parent_id"] == thread_parent_id]
        if pinned_only:
            rows = [m for m in rows if m["pinned"]]
        return page_by(rows, _POSTED, limit, offset, reverse=True)

    @tool(read_only=True)
    def search_messages(self, query: Query = "", author: Email | None = None, channel_id: ChannelId | None = None,
                        after: DateTime | None = None, pinned_only: bool = False,
                        limit: Limit = 20, offset: Offset = 0) -> Page[ChatMessage]:
        """Search messages in every channel you can read, newest first.

        Args:
            query: Text to match in the message text or author name.
            author: Only messages by this address.
            channel_id: Only messages in this channel.
            after: Only messages posted at or after this time.
            pinned_only: Only pinned messages.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        me = self._actor(None)["email"]
        if channel_id is not None:
            ch = self.db["channels"].get(channel_id)
            visible = {channel_id} if ch is not None and self._readable(ch, me) else set()
        else:
            visible = {c["id"] for c in self.db["channels"] if c["kind"] == "public" or me in c["members"]}
        rows = [m for m in self.db["messages"].ordered(("posted_at",), reverse=True) if m["channel_id"] in visible]
        if author is not None:
            rows = [m for m in rows if m["author_email"] == author]
        if after is not None:
            rows = [m for m in rows if m["posted_at"] >= after]
        if pinned_only:
            rows = [m for m in rows if m["pinned"]]
        return page(_MESSAGE_TEXT.filter(rows, query), limit, offset)

    @tool(idempotent=True)
    def pin_message(self, message_id: ChatMessageId, pinned: bool = True, as_user: Email | None = None) -> ChatMessage:
        """Pin a message to its channel (or unpin it). Only channel members can pin; a channel holds at most 10 pins.

        Args:
            message_id: The message.
            pinned: True to pin, False to unpin.
            as_user: Who pins it; defaults to you (the workspace owner).
        """
        msg = self.db["messages"].require(message_id)
        ch = self._open_channel(msg["channel_id"])
        actor = self._actor(as_user)["email"]
        if actor not in ch["members"]:
            raise ToolError(f"only members of #{ch['name']} can pin messages there")
        if pinned and not msg["pinned"]:
            count = sum(1 for m in self.db["messages"] if m["channel_id"] == ch["id"] and m["pinned"])
            if count >= MAX_PINS:
                raise ToolError(f"#{ch['name']} already has {MAX_PINS} pinned messages; unpin one first")
        return self.db["messages"].update(message_id, pinned=pinned)

    @tool(destructive=True, idempotent=True)
    def delete_message(self, message_id: ChatMessageId, as_user: Email | None = None) -> ChatMessage:
        """Delete a message. Only its author (or the workspace owner) may delete it.

        Args:
            message_id: The message to delete.
            as_user: Who deletes it; defaults to you (the workspace owner).
        """
        msg = self.db["messages"].require(message_id)
        actor = self._actor(as_user)
        if actor["role"] != "owner" and actor["email"] != msg["author_email"]:
            raise ToolError(f"only the author ({msg['author_email']}) or the workspace owner can delete this message")
        return self.db["messages"].delete(message_id)
