"""Email: mailboxes, messages grouped in threads, drafts, labels and a bounce list (communication)."""

from __future__ import annotations

from operator import itemgetter
from typing import Any, Iterable, Literal

from pydantic import Field
from typing_extensions import Annotated, TypedDict

from compoworld.services import Collection, Service, ToolError, tool
from compoworld.services.fake import OUR_DOMAIN, DataGen
from compoworld.services.library._search import Haystack
from compoworld.services.library._types import (
    Category, Date, DateTime, Email, Id, Limit, Offset, Page, PersonName, Query, Text, Title, page,
)

MailboxId = Id("email", "mailbox")
MessageId = Id("email", "message")
ThreadId = Id("email", "thread")
Folder = Literal["inbox", "sent", "drafts", "archive"]
Recipients = Annotated[list[Email], Field(max_length=50)]
MAX_RECIPIENTS = 50
_NEWEST = itemgetter("updated_at", "id")
_TEXT = Haystack("subject", "body", "from_email", "from_name")
_SUBJECT = Haystack("subject")
_MAILBOX_TEXT = Haystack("address", "owner_name")


class Mailbox(TypedDict):
    id: MailboxId
    address: Email
    owner_name: PersonName
    kind: Literal["personal", "shared"]
    primary: bool


class Message(TypedDict):
    id: MessageId
    mailbox_id: MailboxId
    thread_id: ThreadId
    folder: Folder
    from_email: Email
    from_name: PersonName
    to: list[Email]
    cc: list[Email]
    subject: Title
    body: Text
    labels: list[Category]
    read: bool
    in_reply_to: MessageId | None
    sent_at: DateTime | None
    updated_at: DateTime


class Thread(TypedDict):
    id: ThreadId
    subject: Title
    participants: list[Email]
    message_count: int
    last_message_at: DateTime


class ThreadView(TypedDict):
    thread: Thread
    messages: list[Message]


class Label(TypedDict):
    id: Id("email", "label")
    mailbox_id: MailboxId
    name: Category


class Bounce(TypedDict):
    id: Id("email", "bounce")
    address: Email
    reason: Text
    bounced_at: DateTime


def _reply_subject(prefix: str, subject: str) -> str:
    return subject if subject.lower().startswith(prefix.lower()) else f"{prefix} {subject}"[:300]


def _unique(addresses: Iterable[str]) -> list[str]:
    seen: dict[str, str] = {}
    for a in addresses:
        seen.setdefault(a.lower(), a)
    return list(seen.values())


class EmailService(Service):
    name = "email"
    domain = "communication"
    description = "Company email: personal and shared mailboxes, threads, drafts, replies, forwards, labels and archiving."
    # A bounce is an address we wrote to, whoever it belonged to.
    roles = {"bounces": {"address": "correspondent"}}
    tables = {
        "mailboxes": Collection(Mailbox, "mailbox", "mbx"),
        "messages": Collection(Message, "message", "msg"),
        "threads": Collection(Thread, "thread", "thr"),
        "labels": Collection(Label, "label", "lbl"),
        "bounces": Collection(Bounce, "bounce", "bnc"),
    }

    def generate(self, gen: DataGen) -> dict[str, Iterable[dict]]:
        w = gen.world
        mailboxes: list[dict] = []
        for i, p in enumerate(w.employees):
            mailboxes.append({"id": f"mbx_{i + 1:04d}", "address": p.email, "owner_name": p.name, "kind": "personal", "primary": i == 0})
        for team in ("sales", "support", "billing"):
            mailboxes.append({"id": f"mbx_{len(mailboxes) + 1:04d}", "address": f"{team}@{OUR_DOMAIN}",
                              "owner_name": f"{team.capitalize()} Team", "kind": "shared", "primary": False})
        me, my_box = w.employees[0], mailboxes[0]["id"]
        labels = [{"id": f"lbl_{i + 1:04d}", "mailbox_id": my_box, "name": n}
                  for i, n in enumerate(["Customers", "Invoices", "Follow-up", "Newsletters"])]
        messages: list[dict] = []
        threads: list[dict] = []

        def thread(subject: str, first: dict[str, Any], *more: dict[str, Any]) -> None:
            tid = f"thr_{len(threads) + 1:04d}"
            prev = None
            people: list[str] = []
            for m in (first, *more):
                mid = f"msg_{len(messages) + 1:04d}"
                messages.append({"id": mid, "mailbox_id": m.get("mailbox_id", my_box), "thread_id": tid, "folder": m["folder"],
                                 "from_email": m["from_email"], "from_name": m["from_name"], "to": m["to"], "cc": m.get("cc", []),
                                 "subject": subject if prev is None else _reply_subject("Re:", subject), "body": m["body"],
                                 "labels": m.get("labels", []), "read": m.get("read", True), "in_reply_to": prev,
                                 "sent_at": m["at"], "updated_at": m["at"]})
                prev = mid
                people = _unique([*people, m["from_email"], *m["to"], *m.get("cc", [])])
            threads.append({"id": tid, "subject": subject, "participants": people, "message_count": 1 + len(more),
                            "last_message_at": (more or (first,))[-1]["at"]})

        for _ in range(gen.n(20)):  # customer requests, some answered, some later corrected (newest wins)
            c = gen.contact()
            product, price = gen.product()
            qty = gen.int(2, 40)
            budget = float(round(price * qty * gen.int(80, 120) / 100, -1) or price)
            ask = {"folder": "inbox", "from_email": c.email, "from_name": c.name, "to": [me.email], "labels": ["Customers"],
                   "read": gen.chance(0.6), "at": gen.datetime(-30, -6),
                   "body": f"Hi {me.first},\n\nCould you send {c.company} a quote for {qty} x {product}? "
                           f"Our budget is ${budget:,.2f} and we need it by {gen.date(5, 40)}.\n\nThanks,\n{c.name}\n{c.title}, {c.company}"}
            follow: list[dict[str, Any]] = []
            if gen.chance(0.4):
                follow.append({"folder": "sent", "from_email": me.email, "from_name": me.name, "to": [c.email],
                               "at": gen.datetime(-5, -4), "body": f"Hi {c.first},\n\nThanks, I will get back to you shortly.\n\n{me.first}"})
            if gen.chance(0.3):
                new_budget = float(round(budget * gen.int(110, 150) / 100, -1))
                follow.append({"folder": "inbox", "from_email": c.email, "from_name": c.name, "to": [me.email], "labels": ["Customers"],
                               "read": False, "at": gen.datetime(-3, -1),
                               "body": f"Correction: our budget for the {product} order is now ${new_budget:,.2f} "
                                       f"(this replaces the figure in my earlier email).\n\n{c.name}"})
            thread(f"{product} quote for {c.company}", ask, *follow)
        for _ in range(gen.n(8)):  # internal mail, some to other mailboxes
            a, b = gen.employee(), gen.employee()
            box = next(m["id"] for m in mailboxes if m["address"] == b.email)
            topic = gen.title()
            thread(f"{topic}", {"mailbox_id": box, "folder": "inbox", "from_email": a.email, "from_name": a.name, "to": [b.email],
                                "cc": [me.email] if gen.chance(0.3) else [], "at": gen.datetime(-20, -1),
                                "read": gen.chance(0.5), "body": f"Hi {b.first}, {gen.sentence()} Deadline: {gen.date(1, 30)}."})
        for _ in range(gen.n(8)):  # irrelevant newsletters
            v = gen.vendor()
            thread(f"{v.name} newsletter: {gen.title()}", {"folder": "inbox", "from_email": f"noreply@{v.domain}",
                                                           "from_name": v.name, "to": [me.email], "labels": ["Newsletters"],
                                                           "read": gen.chance(0.3), "at": gen.datetime(-45, -1),
                                                           "body": gen.sentence() + " Unsubscribe any time."})
        for _ in range(gen.n(3)):  # unsent drafts
            c = gen.contact()
            at = gen.datetime(-3, -1)
            tid = f"thr_{len(threads) + 1:04d}"
            subject = f"Follow-up: {gen.title()}"
            messages.append({"id": f"msg_{len(messages) + 1:04d}", "mailbox_id": my_box, "thread_id": tid, "folder": "drafts",
                             "from_email": me.email, "from_name": me.name, "to": [c.email], "cc": [], "subject": subject,
                             "body": f"Hi {c.first}, {gen.sentence()}", "labels": [], "read": True, "in_reply_to": None,
                             "sent_at": None, "updated_at": at})
            threads.append({"id": tid, "subject": subject, "participants": [me.email, c.email], "message_count": 1, "last_message_at": at})
        # Old addresses of customer contacts bounce: a stale CRM row sends mail nowhere.
        bounces = [{"id": f"bnc_{i + 1:04d}", "address": p.email.replace("@", ".old@"), "reason": "550 5.1.1 mailbox does not exist",
                    "bounced_at": gen.datetime(-300, -100)} for i, p in enumerate(w.contacts)]
        return {"mailboxes": mailboxes, "messages": messages, "threads": threads, "labels": labels, "bounces": bounces}

    # -- helpers -------------------------------------------------------------------------------
    def _mailbox(self, address: str | None) -> dict:
        boxes = self.db["mailboxes"]
        if address is None:
            box = boxes.first(primary=True)
            if box is None:
                raise ToolError("there is no primary mailbox; pass mailbox explicitly")
            return box
        box = boxes.first(address=address)
        if box is None:
            low = address.lower()
            box = next((b for b in boxes if b["address"].lower() == low), None)
        if box is None:
            raise ToolError(f"no mailbox for {address}; list_mailboxes shows the mailboxes you can use")
        return box

    def _check_deliverable(self, recipients: list[str]) -> None:
        if len(recipients) > MAX_RECIPIENTS:
            raise ToolError(f"too many recipients ({len(recipients)}); the limit is {MAX_RECIPIENTS}")
        bounced = {b["address"] for b in self.db["bounces"]}  # bounce addresses are stored lower-case
        bad = [r for r in recipients if r in bounced or r.lower() in bounced]
        if bad:
            raise ToolError(f"cannot send to {', '.join(bad)}: the address bounced before (mailbox does not exist); find a current address")

    def _deliver(self, sender_box: dict, thread_id: str | None, to: list[str], cc: list[str], subject: str, body: str,
                 in_reply_to: str | None, draft_id: str | None = None) -> dict:
        """Write the sent copy (a sent draft keeps its id), bump (or start) the thread, and drop a copy in each
        internal recipient's inbox."""
        now = self.now()
        threads = self.db["threads"]
        if thread_id is None:
            thread_id = threads.insert({"subject": subject, "participants": _unique([sender_box["address"], *to, *cc]),
                                        "message_count": 0, "last_message_at": now})["id"]
        th = threads.require(thread_id)
        messages = self.db["messages"]
        base = {"thread_id": thread_id, "from_email": sender_box["address"], "from_name": sender_box["owner_name"], "to": to,
                "cc": cc, "subject": subject, "body": body, "labels": [], "in_reply_to": in_reply_to, "sent_at": now, "updated_at": now}
        if draft_id is None:
            sent = messages.insert({"mailbox_id": sender_box["id"], "folder": "sent", "read": True, **base})
            delivered = 1
        else:  # the draft already counts in its thread
            sent = messages.update(draft_id, folder="sent", **base)
            delivered = 0
        boxes = self.db["mailboxes"]
        for addr in _unique([*to, *cc]):
            box = boxes.first(address=addr) or boxes.first(address=addr.lower())  # mailbox addresses are lower-case
            if box is not None and box["id"] != sender_box["id"]:
                messages.insert({"mailbox_id": box["id"], "folder": "inbox", "read": False, **base})
                delivered += 1
        threads.update(thread_id, participants=_unique([*th["participants"], sender_box["address"], *to, *cc]),
                       message_count=th["message_count"] + delivered, last_message_at=now)
        return sent

    def _sent_or_received(self, message_id: str) -> dict:
        msg = self.db["messages"].require(message_id)
        if msg["folder"] == "drafts":
            raise ToolError(f"message {message_id} is an unsent draft; send it with send_draft or edit it with update_draft")
        return msg

    # -- mailboxes and reading -----------------------------------------------------------------
    @tool(read_only=True)
    def list_mailboxes(self, query: Query = "", kind: Literal["personal", "shared"] | None = None,
                       limit: Limit = 20, offset: Offset = 0) -> Page[Mailbox]:
        """List the mailboxes you can read and send from; the primary one is used when no mailbox is given.

        Args:
            query: Text to match in the address or owner name.
            kind: Only personal or only shared (team) mailboxes.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        rows = list(self.db["mailboxes"]) if kind is None else [b for b in self.db["mailboxes"] if b["kind"] == kind]
        return page(_MAILBOX_TEXT.filter(rows, query), limit, offset)

    @tool(read_only=True)
    def search_messages(self, query: Query = "", sender: Email | None = None, recipient: Email | None = None,
                        subject: Query = "", folder: Folder | None = None, label: Category | None = None,
                        unread_only: bool = False, after: Date | None = None, before: Date | None = None,
                        mailbox: Email | None = None, limit: Limit = 20, offset: Offset = 0) -> Page[Message]:
        """Search one mailbox's messages, newest first, by text, sender, recipient, subject, folder, label or date.

        Args:
            query: Text to match in the subject, body or sender.
            sender: Only messages from this address.
            recipient: Only messages sent to (or copied to) this address.
            subject: Text to match in the subject only.
            folder: Only messages in this folder (inbox, sent, drafts, archive).
            label: Only messages carrying this label.
            unread_only: Only unread messages.
            after: Only messages dated on or after this day (YYYY-MM-DD).
            before: Only messages dated on or before this day (YYYY-MM-DD).
            mailbox: Address of the mailbox to search; defaults to your primary mailbox.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        box_id = self._mailbox(mailbox)["id"]
        # staged filters: each one only runs when given, on what the cheaper ones left
        rows = [m for m in self.db["messages"].ordered(("updated_at",), reverse=True) if m["mailbox_id"] == box_id]
        if folder is not None:
            rows = [m for m in rows if m["folder"] == folder]
        if sender:
            snd = sender.lower()
            rows = [m for m in rows if m["from_email"].lower() == snd]
        if recipient:
            rcp = recipient.lower()
            rows = [m for m in rows if any(a.lower() == rcp for a in (*m["to"], *m["cc"]))]
        if label is not None:
            rows = [m for m in rows if label in m["labels"]]
        if unread_only:
            rows = [m for m in rows if not m["read"]]
        if after is not None:
            rows = [m for m in rows if m["updated_at"][:10] >= after]
        if before is not None:
            rows = [m for m in rows if m["updated_at"][:10] <= before]
        return page(_TEXT.filter(_SUBJECT.filter(rows, subject), query), limit, offset)

    @tool(read_only=True)
    def get_message(self, message_id: MessageId) -> Message:
        """Get one message by id.

        Args:
            message_id: The message's id.
        """
        return self.db["messages"].require(message_id)

    @tool(read_only=True)
    def get_thread(self, thread_id: ThreadId, mailbox: Email | None = None) -> ThreadView:
        """Get a conversation thread with its messages in one mailbox, oldest first.

        Args:
            thread_id: The thread's id.
            mailbox: Address of the mailbox whose copies to show; defaults to your primary mailbox.
        """
        th = self.db["threads"].require(thread_id)
        box_id = self._mailbox(mailbox)["id"]
        msgs = sorted((m for m in self.db["messages"] if m["thread_id"] == thread_id and m["mailbox_id"] == box_id), key=_NEWEST)
        return {"thread": th, "messages": msgs}

    # -- sending -------------------------------------------------------------------------------
    @tool
    def send_email(self, to: Recipients, subject: Title, body: Text, cc: Recipients = [], mailbox: Email | None = None) -> Message:
        """Send a new email. Addresses that bounced before are refused.

        Args:
            to: Recipient addresses (at least one).
            subject: Subject line.
            body: Message text.
            cc: Addresses to copy.
            mailbox: Address of the mailbox to send from; defaults to your primary mailbox.
        """
        to, cc = _unique(to), _unique(cc)
        if not to:
            raise ToolError("an email needs at least one recipient in 'to'")
        self._check_deliverable([*to, *cc])
        return self._deliver(self._mailbox(mailbox), None, to, cc, subject, body, None)

    @tool
    def reply_to_message(self, message_id: MessageId, body: Text, reply_all: bool = False) -> Message:
        """Reply in the same thread, from the mailbox that holds the message. The reply goes to the sender
        (or, for a message you sent, to its recipients); reply_all also copies the other recipients.

        Args:
            message_id: The message to answer; it must exist and must not be a draft.
            body: Reply text.
            reply_all: Also copy everyone else on the original message.
        """
        msg = self._sent_or_received(message_id)
        box = self.db["mailboxes"].require(msg["mailbox_id"])
        me = box["address"].lower()
        if msg["from_email"].lower() == me:  # answering your own message (sent or archived) goes to its recipients
            to, cc = list(msg["to"]), list(msg["cc"]) if reply_all else []
        else:
            to = [msg["from_email"]]
            cc = [a for a in (*msg["to"], *msg["cc"]) if a.lower() != me and a.lower() != msg["from_email"].lower()] if reply_all else []
        to, cc = _unique(to), _unique(cc)
        self._check_deliverable([*to, *cc])
        return self._deliver(box, msg["thread_id"], to, cc, _reply_subject("Re:", msg["subject"]), body, msg["id"])

    @tool
    def forward_message(self, message_id: MessageId, to: Recipients, note: Text = "") -> Message:
        """Forward a message (with its text quoted) to other people, in the same thread.

        Args:
            message_id: The message to forward; it must exist and must not be a draft.
            to: Addresses to forward to (at least one).
            note: Text to put above the forwarded message.
        """
        msg = self._sent_or_received(message_id)
        to = _unique(to)
        if not to:
            raise ToolError("a forward needs at least one recipient in 'to'")
        self._check_deliverable(to)
        box = self.db["mailboxes"].require(msg["mailbox_id"])
        quoted = (f"{note}\n\n---------- Forwarded message ----------\nFrom: {msg['from_name']} <{msg['from_email']}>\n"
                  f"Date: {msg['sent_at']}\nSubject: {msg['subject']}\n\n{msg['body']}")
        return self._deliver(box, msg["thread_id"], to, [], _reply_subject("Fwd:", msg["subject"]), quoted[:20000], msg["id"])

    # -- drafts --------------------------------------------------------------------------------
    @tool
    def save_draft(self, subject: Title, body: Text = "", to: Recipients = [], cc: Recipients = [], mailbox: Email | None = None) -> Message:
        """Save an unsent draft; nothing is delivered until send_draft.

        Args:
            subject: Subject line.
            body: Message text.
            to: Recipient addresses (may be empty for now).
            cc: Addresses to copy.
            mailbox: Address of the mailbox the draft belongs to; defaults to your primary mailbox.
        """
        box = self._mailbox(mailbox)
        now = self.now()
        to, cc = _unique(to), _unique(cc)
        tid = self.db["threads"].insert({"subject": subject, "participants": _unique([box["address"], *to, *cc]),
                                        "message_count": 1, "last_message_at": now})["id"]
        return self.db["messages"].insert({"mailbox_id": box["id"], "thread_id": tid, "folder": "drafts", "from_email": box["address"],
                                           "from_name": box["owner_name"], "to": to, "cc": cc, "subject": subject, "body": body,
                                           "labels": [], "read": True, "in_reply_to": None, "sent_at": None, "updated_at": now})

    @tool(idempotent=True)
    def update_draft(self, message_id: MessageId, subject: Title | None = None, body: Text | None = None,
                     to: Recipients | None = None, cc: Recipients | None = None) -> Message:
        """Edit a draft's subject, body or recipients. Sent and received messages cannot be edited.

        Args:
            message_id: The draft to edit.
            subject: New subject line.
            body: New message text.
            to: New recipient list (replaces the old one).
            cc: New copy list (replaces the old one).
        """
        msg = self.db["messages"].require(message_id)
        if msg["folder"] != "drafts":
            raise ToolError(f"message {message_id} is in {msg['folder']}, not drafts; only drafts can be edited")
        changes = {k: v for k, v in {"subject": subject, "body": body, "to": None if to is None else _unique(to),
                                     "cc": None if cc is None else _unique(cc)}.items() if v is not None}
        if not changes:
            raise ToolError("nothing to update: give at least one of subject, body, to, cc")
        return self.db["messages"].update(message_id, **changes, updated_at=self.now())

    @tool
    def send_draft(self, message_id: MessageId) -> Message:
        """Send a saved draft; it moves from drafts to sent and is delivered to its recipients.

        Args:
            message_id: The draft to send.
        """
        msg = self.db["messages"].require(message_id)
        if msg["folder"] != "drafts":
            raise ToolError(f"message {message_id} is not a draft (it is in {msg['folder']}); use reply_to_message or forward_message")
        if not msg["to"]:
            raise ToolError("the draft has no recipients; add some with update_draft first")
        self._check_deliverable([*msg["to"], *msg["cc"]])
        box = self.db["mailboxes"].require(msg["mailbox_id"])
        return self._deliver(box, msg["thread_id"], msg["to"], msg["cc"], msg["subject"], msg["body"], msg["in_reply_to"], message_id)

    # -- organising ----------------------------------------------------------------------------
    @tool(read_only=True)
    def list_labels(self, mailbox: Email | None = None) -> list[Label]:
        """List the labels defined in a mailbox.

        Args:
            mailbox: Address of the mailbox; defaults to your primary mailbox.
        """
        return self.db["labels"].find(mailbox_id=self._mailbox(mailbox)["id"])

    @tool
    def create_label(self, name: Category, mailbox: Email | None = None) -> Label:
        """Create a label in a mailbox. Label names are unique per mailbox (case-insensitive).

        Args:
            name: The label name.
            mailbox: Address of the mailbox; defaults to your primary mailbox.
        """
        box = self._mailbox(mailbox)
        if any(lb["name"].lower() == name.lower() for lb in self.db["labels"].find(mailbox_id=box["id"])):
            raise ToolError(f"label '{name}' already exists in {box['address']}")
        return self.db["labels"].insert({"mailbox_id": box["id"], "name": name})

    @tool(idempotent=True)
    def label_message(self, message_id: MessageId, label: Category, remove: bool = False) -> Message:
        """Add a label to a message (or remove it). The label must exist in the message's mailbox.

        Args:
            message_id: The message.
            label: The label name.
            remove: Remove the label instead of adding it.
        """
        msg = self.db["messages"].require(message_id)
        if not self.db["labels"].first(mailbox_id=msg["mailbox_id"], name=label):
            raise ToolError(f"no label '{label}' in this mailbox; create it with create_label first")
        labels = [lb for lb in msg["labels"] if lb != label] if remove else _unique([*msg["labels"], label])
        return self.db["messages"].update(message_id, labels=labels)

    @tool(idempotent=True)
    def archive_message(self, message_id: MessageId) -> Message:
        """Move a received or sent message out of the inbox into the archive.

        Args:
            message_id: The message to archive; drafts cannot be archived.
        """
        self._sent_or_received(message_id)
        return self.db["messages"].update(message_id, folder="archive")

    @tool(idempotent=True)
    def mark_read(self, message_id: MessageId, read: bool = True) -> Message:
        """Mark a message as read or unread.

        Args:
            message_id: The message.
            read: True for read, False for unread.
        """
        self.db["messages"].require(message_id)
        return self.db["messages"].update(message_id, read=read)

    @tool(destructive=True, idempotent=True)
    def delete_message(self, message_id: MessageId) -> Message:
        """Delete a message (or a draft) permanently from its mailbox.

        Args:
            message_id: The message to delete.
        """
        msg = self.db["messages"].delete(message_id)
        th = self.db["threads"].get(msg["thread_id"])
        if th is not None:
            self.db["threads"].update(th["id"], message_count=max(0, th["message_count"] - 1))
        return msg
