"""Drive: folders, documents and files with sharing, including the company's policy documents (documents)."""

from __future__ import annotations

from operator import itemgetter
from typing import Callable, Iterable, Literal

from typing_extensions import TypedDict

from compoworld.services import Collection, Service, ToolError, tool
from compoworld.services.fake import OUR_DOMAIN, DataGen, add_days
from compoworld.services.library._search import Haystack, page_by
from compoworld.services.library._types import (
    Date, DateTime, Email, FilePath, Id, Limit, Offset, Page, Query, Text, Title, page,
)

FolderId = Id("drive", "folder")
FileId = Id("drive", "file")
Kind = Literal["document", "spreadsheet", "pdf", "policy", "presentation"]
Role = Literal["viewer", "commenter", "editor"]
DocStatus = Literal["draft", "active", "superseded"]
_FILE_TEXT = Haystack("path", "content")
_FOLDER_TEXT = Haystack("path")
_PATH = itemgetter("path")


class Share(TypedDict):
    email: Email
    role: Role


class Folder(TypedDict):
    id: FolderId
    name: Title
    parent_id: FolderId | None
    path: FilePath
    owner_email: Email
    created_at: DateTime


class File(TypedDict):
    id: FileId
    name: Title
    folder_id: FolderId
    path: FilePath
    kind: Kind
    content: Text
    owner_email: Email
    shared_with: list[Share]
    status: DocStatus
    effective_date: Date | None
    confidential: bool
    created_at: DateTime
    updated_at: DateTime


class FileSummary(TypedDict):
    """A file without its content (read_file gives the full text)."""

    id: FileId
    name: Title
    path: FilePath
    kind: Kind
    owner_email: Email
    status: DocStatus
    effective_date: Date | None
    updated_at: DateTime
    snippet: Text


def _summary(f: dict, query: str) -> dict:
    text = f["content"]
    at = text.lower().find(query.lower()) if query else -1
    start = max(0, at - 60) if at >= 0 else 0
    return {"id": f["id"], "name": f["name"], "path": f["path"], "kind": f["kind"], "owner_email": f["owner_email"],
            "status": f["status"], "effective_date": f["effective_date"], "updated_at": f["updated_at"],
            "snippet": text[start:start + 200]}


# Policy texts state the rules other services' tasks depend on; numbers are seeded per version.
def _travel(g: DataGen, approver: str) -> tuple[str, str]:
    hotel, diem, hours, cap = g.int(15, 30) * 10, g.int(5, 10) * 10, g.pick([4, 6, 8]), g.int(20, 60) * 100
    return "Travel Policy", (
        f"Business travel policy. Hotels: at most ${hotel} per night. Meals: a per diem of ${diem} per day. "
        f"Flights: economy class; premium economy is allowed for flights longer than {hours} hours. "
        f"Trips whose total estimated cost exceeds ${cap:,} need prior approval from {approver}. "
        "Book through the company travel agent; personal loyalty points may be kept.")


def _expense(g: DataGen, approver: str) -> tuple[str, str]:
    receipt, days, meal, big = g.int(2, 10) * 5, g.pick([30, 45, 60]), g.int(6, 15) * 10, g.int(10, 50) * 100
    return "Expense Policy", (
        f"Expense reimbursement policy. Every expense above ${receipt} needs an itemised receipt. "
        f"Claims must be submitted within {days} days of the expense date. Client entertainment is capped at ${meal} per attendee. "
        f"Any single claim above ${big:,} must also be approved by Finance ({approver}). Alcohol is not reimbursable.")


def _discount(g: DataGen, approver: str) -> tuple[str, str]:
    rep, mgr, extra = g.pick([5, 10, 15]), g.pick([20, 25, 30]), g.pick([3, 5])
    return "Discount Policy", (
        f"Sales discount policy. Account executives may grant up to {rep}% off list price on their own. "
        f"Discounts above {rep}% and up to {mgr}% need approval from the sales manager ({approver}). "
        f"Discounts above {mgr}% are not allowed. Multi-year contracts may add a further {extra}% on top.")


def _procurement(g: DataGen, approver: str) -> tuple[str, str]:
    po, quotes = g.int(5, 20) * 100, g.int(10, 50) * 1000
    return "Procurement Policy", (
        f"Procurement policy. Purchases above ${po:,} need a purchase order approved by {approver}. "
        f"Purchases above ${quotes:,} need three competing vendor quotes. Preferred vendors must be used where available.")


def _remote(g: DataGen, approver: str) -> tuple[str, str]:
    days, stipend = g.int(2, 4), g.int(3, 10) * 100
    return "Remote Work Policy", (
        f"Remote work policy. Employees may work remotely up to {days} days per week. "
        f"A one-off home office stipend of ${stipend} is available; requests go to {approver}.")


POLICIES: list[tuple[Callable[[DataGen, str], tuple[str, str]], str]] = [
    (_travel, "Finance"), (_expense, "Finance"), (_discount, "Sales"), (_procurement, "Operations"), (_remote, "People"),
]


class Drive(Service):
    name = "drive"
    domain = "communication"
    description = "Shared drive: folders, documents and company policies, with search, sharing, moving and versions."
    tables = {
        "folders": Collection(Folder, "folder", "fld"),
        "files": Collection(File, "file", "file"),
    }

    def generate(self, gen: DataGen) -> dict[str, Iterable[dict]]:
        w = gen.world
        me = w.employees[0]
        folders: list[dict] = []
        files: list[dict] = []
        taken: set[tuple[str, str]] = set()

        def folder(name: str, parent: dict | None = None) -> dict:
            row = {"id": f"fld_{len(folders) + 1:04d}", "name": name, "parent_id": parent["id"] if parent else None,
                   "path": f"{parent['path'] if parent else ''}/{name}", "owner_email": me.email, "created_at": gen.datetime(-500, -200)}
            folders.append(row)
            return row

        def file(name: str, where: dict, kind: str, content: str, owner: str, status: str = "active", effective: str | None = None,
                 confidential: bool = False, updated: str | None = None) -> None:
            if (where["id"], name.lower()) in taken:
                return
            taken.add((where["id"], name.lower()))
            shares = [{"email": p.email, "role": gen.pick(["viewer", "viewer", "commenter", "editor"])}
                      for p in gen.sample(w.employees, gen.int(0, 3)) if p.email != owner]
            files.append({"id": f"file_{len(files) + 1:04d}", "name": name, "folder_id": where["id"], "path": f"{where['path']}/{name}",
                          "kind": kind, "content": content, "owner_email": owner, "shared_with": shares, "status": status,
                          "effective_date": effective, "confidential": confidential, "created_at": gen.datetime(-300, -120),
                          "updated_at": updated or gen.datetime(-119, -1)})

        top = {n: folder(n) for n in ["Policies", "Sales", "Finance", "Engineering", "HR", "Customers", "Archive"]}
        for make, dept in POLICIES:
            approver = next((p for p in w.employees if p.department == dept), me).email
            owner = approver
            old_name, old_text = make(gen, approver)
            name, text = make(gen, approver)
            eff_old, eff = gen.date(-700, -400), gen.date(-200, -30)
            # the superseded version sits in the archive; the current one in Policies; sometimes a proposal draft too
            file(f"{old_name} ({eff_old[:4]})", top["Archive"], "policy", old_text + f" Effective {eff_old}. Superseded.", owner,
                 status="superseded", effective=eff_old, updated=gen.datetime(-399, -201))
            file(name, top["Policies"], "policy", text + f" Effective {eff}.", owner, effective=eff, updated=gen.datetime(-30, -1))
            if gen.chance(0.5):
                _, draft_text = make(gen, approver)
                file(f"{name} - proposed changes", top["Policies"], "policy", "DRAFT, not in force. " + draft_text, owner,
                     status="draft", effective=add_days(gen.today(), gen.int(30, 120)))
        for co in gen.sample(w.companies, gen.n(8)):
            sub = folder(co.name, top["Customers"])
            product, price = gen.product()
            contact = next((p for p in w.contacts if p.company == co.name), None)
            who = contact.name if contact else "their team"
            owner = gen.employee().email
            amount = price * gen.int(2, 30)
            file(f"Proposal - {product}", sub, "document",
                 f"Proposal for {co.name} ({co.city}). Prepared for {who}. {product}: total ${amount:,.2f} per year. "
                 f"Valid until {gen.date(10, 60)}.", owner, updated=gen.datetime(-20, -1))
            if gen.chance(0.4):  # an older proposal with a different figure, superseded by the one above
                file(f"Proposal - {product} (old)", sub, "document",
                     f"Proposal for {co.name}. {product}: total ${amount * 1.15:,.2f} per year. Valid until {gen.date(-60, -5)}.",
                     owner, status="superseded", updated=gen.datetime(-90, -30))
            file("Meeting notes", sub, "document", f"Notes with {who} of {co.name}. {gen.sentence()} Next step: {gen.sentence()}",
                 owner)
            if gen.chance(0.5):
                file("Signed contract.pdf", sub, "pdf", f"Master services agreement between Halcyon Works and {co.name}.", owner,
                     confidential=True)
        for _ in range(gen.n(12)):  # irrelevant working documents
            where = gen.pick([top["Sales"], top["Finance"], top["Engineering"], top["HR"]])
            kind = gen.pick(["document", "spreadsheet", "presentation"])
            file(gen.title(), where, kind, gen.sentence() + " " + gen.sentence(), gen.employee().email,
                 status=gen.pick(["active", "active", "draft"]), confidential=where is top["HR"])
        return {"folders": folders, "files": files}

    # -- helpers -------------------------------------------------------------------------------
    def _name_free(self, folder_id: str, name: str, ignore: str | None = None) -> None:
        low = name.lower()
        if any(f["folder_id"] == folder_id and f["name"].lower() == low and f["id"] != ignore for f in self.db["files"]):
            raise ToolError(f"a file named '{name}' already exists in that folder; choose another name")

    # -- folders -------------------------------------------------------------------------------
    @tool(read_only=True)
    def list_folders(self, parent_id: FolderId | None = None, query: Query = "", limit: Limit = 50, offset: Offset = 0) -> Page[Folder]:
        """List folders: the top level, or the subfolders of one folder.

        Args:
            parent_id: List this folder's subfolders; omit for the top level (unless query is given, which searches all).
            query: Text to match in the folder path.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        if query:  # a query searches every folder unless a parent is given
            rows = _FOLDER_TEXT.filter([f for f in self.db["folders"] if parent_id is None or f["parent_id"] == parent_id], query)
        else:
            rows = [f for f in self.db["folders"] if f["parent_id"] == parent_id]
        return page_by(rows, _PATH, limit, offset)

    @tool
    def create_folder(self, name: Title, parent_id: FolderId | None = None) -> Folder:
        """Create a folder. Folder names are unique within their parent; '/' is not allowed.

        Args:
            name: Folder name.
            parent_id: Parent folder; omit for the top level.
        """
        if "/" in name:
            raise ToolError("folder names cannot contain '/'")
        parent = self.db["folders"].require(parent_id) if parent_id else None
        if any(f["parent_id"] == parent_id and f["name"].lower() == name.lower() for f in self.db["folders"]):
            raise ToolError(f"a folder named '{name}' already exists there")
        owner = parent["owner_email"] if parent else f"admin@{OUR_DOMAIN}"
        return self.db["folders"].insert({"name": name, "parent_id": parent_id, "path": f"{parent['path'] if parent else ''}/{name}",
                                          "owner_email": owner, "created_at": self.now()})

    @tool(destructive=True, idempotent=True)
    def delete_folder(self, folder_id: FolderId) -> Folder:
        """Delete an empty folder.

        Args:
            folder_id: The folder to delete; it must hold no files or subfolders.
        """
        fld = self.db["folders"].require(folder_id)
        if self.db["files"].first(folder_id=folder_id) or self.db["folders"].first(parent_id=folder_id):
            raise ToolError(f"folder {fld['path']} is not empty; move or delete its contents first")
        return self.db["folders"].delete(folder_id)

    # -- files ---------------------------------------------------------------------------------
    @tool(read_only=True)
    def search_files(self, query: Query = "", folder_id: FolderId | None = None, kind: Kind | None = None,
                     status: DocStatus | None = None, owner: Email | None = None, shared_with: Email | None = None,
                     modified_after: Date | None = None, limit: Limit = 20, offset: Offset = 0) -> Page[FileSummary]:
        """Search files by name and content, most recently modified first. Results omit the full text: use read_file.

        Args:
            query: Text to match in the file name, path or content.
            folder_id: Only files directly in this folder.
            kind: Only this kind of file (policy, document, pdf, ...).
            status: Only draft, active or superseded files.
            owner: Only files owned by this address.
            shared_with: Only files shared with this address.
            modified_after: Only files modified on or after this day (YYYY-MM-DD).
            limit: Maximum number of results.
            offset: Results to skip.
        """
        newest = self.db["files"].ordered(("updated_at",), reverse=True)
        rows = newest if folder_id is None else [f for f in newest if f["folder_id"] == folder_id]
        if kind is not None:
            rows = [f for f in rows if f["kind"] == kind]
        if status is not None:
            rows = [f for f in rows if f["status"] == status]
        if owner is not None:
            rows = [f for f in rows if f["owner_email"] == owner]
        if shared_with is not None:
            rows = [f for f in rows if any(s["email"] == shared_with for s in f["shared_with"])]
        if modified_after is not None:
            rows = [f for f in rows if f["updated_at"][:10] >= modified_after]
        out = page(_FILE_TEXT.filter(rows, query), limit, offset)
        out["items"] = [_summary(f, query) for f in out["items"]]
        return out

    @tool(read_only=True)
    def read_file(self, file_id: FileId | None = None, path: FilePath | None = None) -> File:
        """Read a file with its full content, by id or by path (e.g. /Policies/Travel Policy).

        Args:
            file_id: The file's id.
            path: The file's full path.
        """
        if file_id:
            return self.db["files"].require(file_id)
        if not path:
            raise ToolError("give file_id or path")
        found = self.db["files"].first(path=path)
        if found is None:
            raise ToolError(f"no file at {path}; search_files finds files by name")
        return found

    @tool
    def create_file(self, name: Title, folder_id: FolderId, content: Text = "", kind: Kind = "document", owner: Email | None = None,
                    confidential: bool = False) -> File:
        """Create a file in a folder. Names are unique within a folder (case-insensitive).

        Args:
            name: File name.
            folder_id: The folder to create it in.
            content: The file's text.
            kind: What sort of file it is; a new policy starts as a draft.
            owner: Address of the owner; defaults to the folder's owner.
            confidential: Confidential files can only be shared inside the company.
        """
        fld = self.db["folders"].require(folder_id)
        if "/" in name:
            raise ToolError("file names cannot contain '/'")
        self._name_free(folder_id, name)
        now = self.now()
        return self.db["files"].insert({"name": name, "folder_id": folder_id, "path": f"{fld['path']}/{name}", "kind": kind,
                                        "content": content, "owner_email": owner or fld["owner_email"], "shared_with": [],
                                        "status": "draft" if kind == "policy" else "active",
                                        "effective_date": None, "confidential": confidential, "created_at": now, "updated_at": now})

    @tool(idempotent=True)
    def update_file(self, file_id: FileId, content: Text | None = None, name: Title | None = None,
                    status: DocStatus | None = None, effective_date: Date | None = None) -> File:
        """Edit a file's content, rename it, or change its status. Superseded files are read-only.

        Args:
            file_id: The file to change.
            content: New full text (replaces the old).
            name: New name, unique within the folder.
            status: New status (draft, active, superseded).
            effective_date: For policies: the day the version takes effect.
        """
        f = self.db["files"].require(file_id)
        if f["status"] == "superseded":
            raise ToolError(f"{f['path']} is a superseded version and read-only; edit the current version instead")
        changes: dict = {k: v for k, v in {"content": content, "status": status, "effective_date": effective_date}.items() if v is not None}
        if name is not None and name != f["name"]:
            if "/" in name:
                raise ToolError("file names cannot contain '/'")
            self._name_free(f["folder_id"], name, ignore=file_id)
            changes["name"] = name
            changes["path"] = f"{f['path'].rsplit('/', 1)[0]}/{name}"
        if not changes:
            raise ToolError("nothing to update: give content, name, status or effective_date")
        return self.db["files"].update(file_id, **changes, updated_at=self.now())

    @tool(idempotent=True)
    def share_file(self, file_id: FileId, email: Email, role: Role = "viewer") -> File:
        """Share a file with someone (or change their role). Confidential files can only be shared with
        company addresses.

        Args:
            file_id: The file.
            email: Address to share with.
            role: viewer, commenter or editor.
        """
        f = self.db["files"].require(file_id)
        if email.lower() == f["owner_email"].lower():
            raise ToolError(f"{email} owns this file already")
        if f["confidential"] and not email.lower().endswith("@" + OUR_DOMAIN):
            raise ToolError(f"{f['name']} is confidential and can only be shared with @{OUR_DOMAIN} addresses")
        shares = [s for s in f["shared_with"] if s["email"].lower() != email.lower()] + [{"email": email, "role": role}]
        return self.db["files"].update(file_id, shared_with=shares, updated_at=self.now())

    @tool(destructive=True, idempotent=True)
    def unshare_file(self, file_id: FileId, email: Email) -> File:
        """Stop sharing a file with someone.

        Args:
            file_id: The file.
            email: Address to remove.
        """
        f = self.db["files"].require(file_id)
        if not any(s["email"].lower() == email.lower() for s in f["shared_with"]):
            raise ToolError(f"{f['name']} is not shared with {email}")
        return self.db["files"].update(file_id, shared_with=[s for s in f["shared_with"] if s["email"].lower() != email.lower()],
                                       updated_at=self.now())

    @tool(idempotent=True)
    def move_file(self, file_id: FileId, folder_id: FolderId) -> File:
        """Move a file to another folder; its name must be free there.

        Args:
            file_id: The file to move.
            folder_id: The destination folder.
        """
        f = self.db["files"].require(file_id)
        fld = self.db["folders"].require(folder_id)
        if f["folder_id"] == folder_id:
            return f
        self._name_free(folder_id, f["name"])
        return self.db["files"].update(file_id, folder_id=folder_id, path=f"{fld['path']}/{f['name']}", updated_at=self.now())

    @tool(destructive=True, idempotent=True)
    def delete_file(self, file_id: FileId) -> File:
        """Delete a file permanently. Active policies cannot be deleted: mark them superseded first.

        Args:
            file_id: The file to delete.
        """
        f = self.db["files"].require(file_id)
        if f["kind"] == "policy" and f["status"] == "active":
            raise ToolError(f"{f['path']} is an active policy; set its status to superseded before deleting it")
        return self.db["files"].delete(file_id)
