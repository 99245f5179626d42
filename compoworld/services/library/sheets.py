"""Sheets: spreadsheets made of named sheets whose rows are records keyed by the sheet's header (documents)."""

from __future__ import annotations

from typing import Any, Iterable, Literal, Union

from pydantic import StrictBool, StrictFloat, StrictInt, StrictStr
from typing_extensions import TypedDict

from compoworld.services import Collection, Service, ToolError, tool
from compoworld.services.fake import DEPARTMENTS, DataGen
from compoworld.services.library._types import (
    CompanyName, Date, DateTime, Email, Id, Limit, Offset, Page, PersonName, Query, Title, matches, page,
)

SpreadsheetId = Id("sheets", "spreadsheet")
SheetId = Id("sheets", "sheet")
Cell = Union[StrictBool, StrictInt, StrictFloat, StrictStr, None]
MAX_COLUMNS = 40


class Row(TypedDict):
    row_id: int
    values: dict[str, Cell]


class Spreadsheet(TypedDict):
    id: SpreadsheetId
    title: Title
    owner_email: Email
    created_at: DateTime
    updated_at: DateTime


class Sheet(TypedDict):
    id: SheetId
    spreadsheet_id: SpreadsheetId
    name: str
    columns: list[str]
    rows: list[Row]
    next_row_id: int
    updated_at: DateTime


class SheetInfo(TypedDict):
    id: SheetId
    name: str
    columns: list[str]
    row_count: int


class SpreadsheetView(TypedDict):
    spreadsheet: Spreadsheet
    sheets: list[SheetInfo]


class RowHit(TypedDict):
    sheet: str
    row_id: int
    values: dict[str, Cell]


_CELLS: dict[int, tuple[dict, frozenset[str], str]] = {}


def _cells(row: dict) -> tuple[dict, frozenset[str], str]:
    """A row's lower-cased cells (as a set and as one text), memoized per row object: rows are immutable,
    and the entry keeps the row alive so its id() cannot be recycled."""
    hit = _CELLS.get(id(row))
    if hit is None or hit[0] is not row:
        vals = [str(v).lower() for v in row["values"].values() if v is not None]
        if len(_CELLS) > 200_000:
            _CELLS.clear()
        hit = _CELLS[id(row)] = (row, frozenset(vals), "\n".join(vals))
    return hit


def _info(sh: dict) -> dict:
    return {"id": sh["id"], "name": sh["name"], "columns": sh["columns"], "row_count": len(sh["rows"])}


def _cell_eq(cell: Any, value: Any) -> bool:
    if isinstance(cell, str) and isinstance(value, str):
        return cell.strip().lower() == value.strip().lower()
    if isinstance(cell, bool) or isinstance(value, bool):
        return cell is value
    if isinstance(cell, (int, float)) and isinstance(value, (int, float)):
        return float(cell) == float(value)
    return cell == value


class Sheets(Service):
    name = "sheets"
    domain = "communication"
    description = "Spreadsheets: named sheets with a header row; read, find, append, update and delete rows as records."
    tables = {
        "spreadsheets": Collection(Spreadsheet, "spreadsheet", "ss"),
        "sheets": Collection(Sheet, "sheet", "sh"),
    }

    def generate(self, gen: DataGen) -> dict[str, Iterable[dict]]:
        w = gen.world
        books: list[dict] = []
        sheets: list[dict] = []

        def book(title: str, owner: str, tabs: list[tuple[str, list[str], list[list[Any]]]]) -> None:
            sid = f"ss_{len(books) + 1:04d}"
            created = gen.datetime(-300, -60)
            updated = gen.datetime(-59, -1)
            books.append({"id": sid, "title": title, "owner_email": owner, "created_at": created, "updated_at": updated})
            for name, cols, rows in tabs:
                sheets.append({"id": f"sh_{len(sheets) + 1:04d}", "spreadsheet_id": sid, "name": name, "columns": cols,
                               "rows": [{"row_id": i + 1, "values": dict(zip(cols, r))} for i, r in enumerate(rows)],
                               "next_row_id": len(rows) + 1, "updated_at": updated})

        finance = next((p for p in w.employees if p.department == "Finance"), w.employees[0])
        sales = [p for p in w.employees if p.department == "Sales"] or list(w.employees)
        # Customer contacts: some people appear twice; the row with the newest Updated date is current.
        contact_rows = []
        for p in gen.sample(w.contacts, gen.n(14)):
            updated = gen.date(-60, -1)
            if gen.chance(0.25):
                contact_rows.append([p.name, p.email.replace("@", ".old@"), p.company, p.phone, gen.date(-400, -200)])
            contact_rows.append([p.name, p.email, p.company, p.phone, updated])
        book("Customer Contacts", sales[0].email, [("Contacts", ["Name", "Email", "Company", "Phone", "Updated"], contact_rows)])
        # Two price lists: last year's is a near-duplicate with different prices.
        year = int(gen.today()[:4])
        for y, factor in ((year, 1.0), (year - 1, 0.9)):
            book(f"Price List {y}", finance.email,
                 [("Products", ["Product", "Unit Price", "Currency"], [[n, round(p * factor, 2), "USD"] for n, p in w.products])])
        budget_tabs = []
        for q in ("Q1", "Q2"):
            rows = []
            for d in DEPARTMENTS:
                owner = next((p for p in w.employees if p.department == d), w.employees[0])
                budget = float(gen.int(20, 200) * 1000)
                rows.append([d, budget, round(budget * gen.int(0, 95) / 100, 2), owner.email])
            budget_tabs.append((q, ["Department", "Budget", "Spent", "Owner"], rows))
        book(f"Budget {year}", finance.email, budget_tabs)
        book("Headcount", w.employees[0].email, [("Employees", ["Name", "Email", "Department", "Title", "Start Date"],
                                                  [[p.name, p.email, p.department, p.title, gen.date(-2000, -30)] for p in w.employees])])
        book("Vendor List", finance.email, [("Vendors", ["Vendor", "Contact Email", "Category", "Rating"],
                                             [[v.name, f"accounts@{v.domain}", v.name.split()[-2].lower(), gen.int(1, 5)] for v in w.vendors])])
        target_rows = []
        for _ in range(gen.n(12)):
            rep = gen.pick(sales)
            target = float(gen.int(50, 400) * 1000)
            target_rows.append([rep.email, gen.pick(["Q1", "Q2", "Q3", "Q4"]), target, round(target * gen.int(40, 130) / 100, 2)])
        book("Sales Targets", sales[-1].email, [("Targets", ["Rep Email", "Quarter", "Target", "Achieved"], target_rows)])
        renewals = [[c.name, gen.date(-20, 120), float(gen.int(5, 120) * 500), gen.pick(sales).email]
                    for c in gen.sample(w.companies, gen.n(12))]
        book("Renewals Tracker", sales[0].email, [("Renewals", ["Company", "Renewal Date", "ARR", "Owner"], renewals)])
        for _ in range(gen.n(3)):  # irrelevant sheets
            book(f"{gen.title()} notes", gen.employee().email,
                 [("Sheet1", ["Item", "Owner", "Done"], [[gen.title(), gen.employee().name, gen.chance(0.5)] for _ in range(gen.int(2, 6))])])
        return {"spreadsheets": books, "sheets": sheets}

    # -- helpers -------------------------------------------------------------------------------
    def _sheet(self, spreadsheet_id: str, sheet: str) -> dict:
        self.db["spreadsheets"].require(spreadsheet_id)
        found = [s for s in self.db["sheets"] if s["spreadsheet_id"] == spreadsheet_id]
        hit = next((s for s in found if s["name"] == sheet), None) or next((s for s in found if s["name"].lower() == sheet.lower()), None)
        if hit is None:
            raise ToolError(f"no sheet '{sheet}' in {spreadsheet_id}; its sheets are: {', '.join(s['name'] for s in found)}")
        return hit

    def _check_columns(self, sh: dict, values: dict[str, Any], full: bool) -> None:
        unknown = [k for k in values if k not in sh["columns"]]
        missing = [c for c in sh["columns"] if c not in values] if full else []
        if unknown or missing:
            parts = []
            if unknown:
                parts.append(f"unknown columns {unknown}")
            if missing:
                parts.append(f"missing columns {missing}")
            raise ToolError(f"row does not match the header of '{sh['name']}' ({', '.join(parts)}); the columns are {sh['columns']}")

    def _touch(self, sh: dict, rows: list[dict], **more: Any) -> dict:
        now = self.now()
        self.db["spreadsheets"].update(sh["spreadsheet_id"], updated_at=now)
        return self.db["sheets"].update(sh["id"], rows=rows, updated_at=now, **more)

    # -- spreadsheets --------------------------------------------------------------------------
    @tool(read_only=True)
    def list_spreadsheets(self, query: Query = "", owner: Email | None = None, limit: Limit = 20, offset: Offset = 0) -> Page[Spreadsheet]:
        """List spreadsheets, most recently updated first.

        Args:
            query: Text to match in the title.
            owner: Only spreadsheets owned by this address.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        rows = [s for s in self.db["spreadsheets"].ordered(("updated_at", "id"), reverse=True) if matches(query, s["title"]) and (owner is None or s["owner_email"] == owner)]
        return page(rows, limit, offset)

    @tool(read_only=True)
    def get_spreadsheet(self, spreadsheet_id: SpreadsheetId) -> SpreadsheetView:
        """Get a spreadsheet with its sheets' names, columns and row counts.

        Args:
            spreadsheet_id: The spreadsheet's id.
        """
        ss = self.db["spreadsheets"].require(spreadsheet_id)
        return {"spreadsheet": ss, "sheets": [_info(s) for s in self.db["sheets"] if s["spreadsheet_id"] == spreadsheet_id]}

    @tool
    def create_spreadsheet(self, title: Title, owner: Email, sheet: str = "Sheet1", columns: list[str] = ["Name"]) -> SpreadsheetView:
        """Create a spreadsheet with one empty sheet. Titles are unique per owner.

        Args:
            title: Spreadsheet title.
            owner: Address of the owner.
            sheet: Name of the first sheet.
            columns: Header of the first sheet (unique, non-empty column names).
        """
        if any(s["owner_email"] == owner and s["title"].lower() == title.lower() for s in self.db["spreadsheets"]):
            raise ToolError(f"{owner} already has a spreadsheet titled '{title}'")
        now = self.now()
        ss = self.db["spreadsheets"].insert({"title": title, "owner_email": owner, "created_at": now, "updated_at": now})
        sh = self._new_sheet(ss["id"], sheet, columns)
        return {"spreadsheet": ss, "sheets": [_info(sh)]}

    def _new_sheet(self, spreadsheet_id: str, name: str, columns: list[str]) -> dict:
        name = name.strip()
        if not name:
            raise ToolError("a sheet needs a name")
        cols = [c.strip() for c in columns]
        if not cols or any(not c for c in cols):
            raise ToolError("a sheet needs at least one column and column names cannot be empty")
        if len(set(cols)) != len(cols):
            raise ToolError(f"column names must be unique: {cols}")
        if len(cols) > MAX_COLUMNS:
            raise ToolError(f"a sheet has at most {MAX_COLUMNS} columns")
        if any(s["spreadsheet_id"] == spreadsheet_id and s["name"].lower() == name.lower() for s in self.db["sheets"]):
            raise ToolError(f"a sheet named '{name}' already exists in {spreadsheet_id}")
        self.db["spreadsheets"].update(spreadsheet_id, updated_at=self.now())
        return self.db["sheets"].insert({"spreadsheet_id": spreadsheet_id, "name": name, "columns": cols, "rows": [],
                                         "next_row_id": 1, "updated_at": self.now()})

    @tool
    def add_sheet(self, spreadsheet_id: SpreadsheetId, name: str, columns: list[str]) -> SheetInfo:
        """Add an empty sheet with a header to a spreadsheet. Sheet names are unique within the spreadsheet.

        Args:
            spreadsheet_id: The spreadsheet.
            name: The new sheet's name.
            columns: Its header (unique, non-empty column names).
        """
        self.db["spreadsheets"].require(spreadsheet_id)
        return _info(self._new_sheet(spreadsheet_id, name, columns))

    # -- rows ----------------------------------------------------------------------------------
    @tool(read_only=True)
    def read_rows(self, spreadsheet_id: SpreadsheetId, sheet: str, limit: Limit = 50, offset: Offset = 0) -> Page[Row]:
        """Read a sheet's rows in order.

        Args:
            spreadsheet_id: The spreadsheet.
            sheet: The sheet's name.
            limit: Maximum number of rows.
            offset: Rows to skip.
        """
        return page(self._sheet(spreadsheet_id, sheet)["rows"], limit, offset)

    @tool(read_only=True)
    def find_rows(self, spreadsheet_id: SpreadsheetId, sheet: str, column: str, value: Cell,
                  match: Literal["equals", "contains", "greater_than", "less_than"] = "equals",
                  limit: Limit = 50, offset: Offset = 0) -> Page[Row]:
        """Find rows of a sheet whose column matches a value (text compares case-insensitively).

        Args:
            spreadsheet_id: The spreadsheet.
            sheet: The sheet's name.
            column: The column to test; must be in the header.
            value: The value to compare with.
            match: equals, contains (text), greater_than or less_than (numbers, or ISO dates as text).
            limit: Maximum number of rows.
            offset: Rows to skip.
        """
        sh = self._sheet(spreadsheet_id, sheet)
        if column not in sh["columns"]:
            raise ToolError(f"no column '{column}' in '{sh['name']}'; the columns are {sh['columns']}")
        if match == "equals":
            rows = [r for r in sh["rows"] if _cell_eq(r["values"].get(column), value)]
        elif match == "contains":
            q = str(value).lower()
            rows = [r for r in sh["rows"] if q in str(r["values"].get(column, "")).lower()]
        else:
            rows = [r for r in sh["rows"] if _compare(r["values"].get(column), value, match == "greater_than")]
        return page(rows, limit, offset)

    @tool(read_only=True)
    def search_rows(self, spreadsheet_id: SpreadsheetId, query: Query = "", email: Email | None = None,
                    person: PersonName | None = None, company: CompanyName | None = None, date: Date | None = None,
                    limit: Limit = 50, offset: Offset = 0) -> Page[RowHit]:
        """Search every sheet of a spreadsheet for rows mentioning a text, email, person, company or date in any cell.

        Args:
            spreadsheet_id: The spreadsheet.
            query: Text any cell must contain.
            email: An email address some cell must equal.
            person: A person's name some cell must equal.
            company: A company name some cell must equal.
            date: A date (YYYY-MM-DD) some cell must equal.
            limit: Maximum number of rows.
            offset: Rows to skip.
        """
        self.db["spreadsheets"].require(spreadsheet_id)
        exact = [v.lower() for v in (email, person, company, date) if v]
        q = query.lower()
        out = []
        for sh in self.db["sheets"]:
            if sh["spreadsheet_id"] != spreadsheet_id:
                continue
            for r in sh["rows"]:
                _, cells, text = _cells(r)
                if (not q or q in text) and all(x in cells for x in exact):
                    out.append({"sheet": sh["name"], "row_id": r["row_id"], "values": r["values"]})
        return page(out, limit, offset)

    @tool
    def append_row(self, spreadsheet_id: SpreadsheetId, sheet: str, values: dict[str, Cell]) -> Row:
        """Append a row. Its keys must be exactly the sheet's columns (use null for an empty cell).

        Args:
            spreadsheet_id: The spreadsheet.
            sheet: The sheet's name.
            values: Column name -> cell value, one entry per header column.
        """
        sh = self._sheet(spreadsheet_id, sheet)
        self._check_columns(sh, values, full=True)
        row = {"row_id": sh["next_row_id"], "values": {c: values[c] for c in sh["columns"]}}
        self._touch(sh, [*sh["rows"], row], next_row_id=sh["next_row_id"] + 1)
        return row

    @tool(idempotent=True)
    def update_row(self, spreadsheet_id: SpreadsheetId, sheet: str, row_id: int, values: dict[str, Cell]) -> Row:
        """Change some cells of a row; columns not given keep their values. Every key must be a header column.

        Args:
            spreadsheet_id: The spreadsheet.
            sheet: The sheet's name.
            row_id: The row's id (from read_rows or find_rows).
            values: Column name -> new cell value.
        """
        sh = self._sheet(spreadsheet_id, sheet)
        if not values:
            raise ToolError("nothing to update: values is empty")
        self._check_columns(sh, values, full=False)
        idx = next((i for i, r in enumerate(sh["rows"]) if r["row_id"] == row_id), None)
        if idx is None:
            raise ToolError(f"no row {row_id} in '{sh['name']}'")
        row = {"row_id": row_id, "values": {**sh["rows"][idx]["values"], **values}}
        self._touch(sh, [*sh["rows"][:idx], row, *sh["rows"][idx + 1:]])
        return row

    @tool(destructive=True, idempotent=True)
    def delete_row(self, spreadsheet_id: SpreadsheetId, sheet: str, row_id: int) -> Row:
        """Delete a row; the other rows keep their ids.

        Args:
            spreadsheet_id: The spreadsheet.
            sheet: The sheet's name.
            row_id: The row's id.
        """
        sh = self._sheet(spreadsheet_id, sheet)
        row = next((r for r in sh["rows"] if r["row_id"] == row_id), None)
        if row is None:
            raise ToolError(f"no row {row_id} in '{sh['name']}'")
        self._touch(sh, [r for r in sh["rows"] if r["row_id"] != row_id])
        return row

    @tool(destructive=True, idempotent=True)
    def delete_sheet(self, spreadsheet_id: SpreadsheetId, sheet: str) -> SheetInfo:
        """Delete a sheet and all its rows. A spreadsheet keeps at least one sheet.

        Args:
            spreadsheet_id: The spreadsheet.
            sheet: The sheet's name.
        """
        sh = self._sheet(spreadsheet_id, sheet)
        if sum(1 for s in self.db["sheets"] if s["spreadsheet_id"] == spreadsheet_id) == 1:
            raise ToolError(f"'{sh['name']}' is the only sheet of {spreadsheet_id}; a spreadsheet keeps at least one sheet")
        self.db["spreadsheets"].update(spreadsheet_id, updated_at=self.now())
        return _info(self.db["sheets"].delete(sh["id"]))


def _compare(cell: Any, value: Any, greater: bool) -> bool:
    if isinstance(cell, bool) or isinstance(value, bool) or cell is None or value is None:
        return False
    if isinstance(cell, (int, float)) and isinstance(value, (int, float)):
        return cell > value if greater else cell < value
    if isinstance(cell, str) and isinstance(value, str):
        return cell > value if greater else cell < value
    return False
