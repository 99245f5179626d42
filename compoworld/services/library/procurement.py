"""Procurement: vendors, purchase requests, purchase orders with threshold approvals, and goods receipts."""

from __future__ import annotations

from typing import Iterable, Literal

from typing_extensions import TypedDict

from compoworld.services import Collection, Service, ToolError, tool
from compoworld.services.cast import cast
from compoworld.services.fake import DataGen
from compoworld.services.library._types import (
    Category, CompanyName, Country, Currency, Date, DateTime, Email, Id, Limit, Money, Offset, Page, Quantity, Query, Sku, Text,
    Title, matches, page,
)
from compoworld.services.library.inventory import HARDWARE, sku_for

VendorId = Id("procurement", "vendor")
RequestId = Id("procurement", "purchase_request")
OrderId = Id("procurement", "purchase_order")
VendorStatus = Literal["active", "inactive", "blocked"]
PoStatus = Literal["pending_approval", "approved", "partially_received", "received", "rejected", "cancelled"]
SINGLE_APPROVAL_LIMIT = 10_000.0  # orders above this total need a second, different approver
CURRENCY = "USD"
SUPPLIES = [("Printer Toner", 89), ("Copy Paper Case", 42), ("Office Chair", 310), ("Standing Desk", 640), ("Monitor 27in", 279)]


class Vendor(TypedDict):
    id: VendorId
    name: CompanyName
    domain: str
    contact_email: Email
    category: Category
    country: Country
    status: VendorStatus
    updated_at: DateTime


class LineInput(TypedDict):
    sku: Sku
    description: Text
    quantity: Quantity
    unit_price: Money


class PoLine(TypedDict):
    sku: Sku
    description: Text
    quantity: Quantity
    unit_price: Money
    received: Quantity


class ReceiptLine(TypedDict):
    sku: Sku
    quantity: Quantity


class PurchaseRequest(TypedDict):
    id: RequestId
    title: Title
    requester_email: Email
    vendor_name: CompanyName | None
    lines: list[LineInput]
    total: Money
    needed_by: Date
    status: Literal["open", "ordered", "rejected"]
    created_at: DateTime


class PurchaseOrder(TypedDict):
    id: OrderId
    number: str
    vendor_id: VendorId
    vendor_name: CompanyName
    request_id: RequestId | None
    requester_email: Email
    lines: list[PoLine]
    total: Money
    currency: Currency
    status: PoStatus
    approvals_required: int
    approved_by: list[Email]
    created_at: DateTime


class Approval(TypedDict):
    id: Id("procurement", "approval")
    po_id: OrderId
    approver_email: Email
    decision: Literal["approved", "rejected"]
    comment: Text
    decided_at: DateTime


class GoodsReceipt(TypedDict):
    id: Id("procurement", "goods_receipt")
    po_id: OrderId
    received_by_email: Email
    lines: list[ReceiptLine]
    received_on: Date
    note: Text


class ApprovalPolicy(TypedDict):
    single_approval_limit: Money
    currency: Currency
    rules: Text


def _total(lines: list[dict]) -> float:
    return round(sum(li["quantity"] * li["unit_price"] for li in lines), 2)


def _check_lines(lines: list[dict]) -> None:
    if not lines:
        raise ToolError("at least one line is required")
    if len({li["sku"] for li in lines}) != len(lines):
        raise ToolError("each SKU may appear only once; combine the quantities")
    for li in lines:
        if li["quantity"] < 1 or li["unit_price"] <= 0:
            raise ToolError(f"line {li['sku']} needs a quantity of at least 1 and a positive unit price")


class Procurement(Service):
    name = "procurement"
    domain = "operations"
    description = "Purchasing: vendors, purchase requests, purchase orders with threshold-based approvals, and goods receipts."
    # Orders here are purchases from vendors (inventory's orders are sales).
    roles = {"orders": {"total": "purchase_amount"}}
    tables = {
        "vendors": Collection(Vendor, "vendor", "ven"),
        "requests": Collection(PurchaseRequest, "purchase_request", "pr"),
        "orders": Collection(PurchaseOrder, "purchase_order", "po"),
        "approvals": Collection(Approval, "approval", "apv"),
        "receipts": Collection(GoodsReceipt, "goods_receipt", "gr"),
    }

    def generate(self, gen: DataGen) -> dict[str, Iterable[dict]]:
        vendors = []
        reps = {p.company: p for p in cast(gen.seed, gen.scale).vendor_contacts}  # each vendor's account manager
        for v in gen.world.vendors:
            category = v.name.split()[1].lower()
            if gen.chance(0.25):  # a stale row: the vendor's earlier account, deactivated when it was re-onboarded
                vendors.append({"name": v.name, "domain": v.domain, "contact_email": f"sales@{v.domain}", "category": category,
                                "country": v.country, "status": "inactive", "updated_at": gen.datetime(-700, -300)})
            vendors.append({"name": v.name, "domain": v.domain, "contact_email": reps[v.name].email, "category": category,
                            "country": v.country, "status": "active", "updated_at": gen.datetime(-200, -1)})
            if gen.chance(0.2):  # near-duplicate: a look-alike supplier that compliance blocked
                base = v.name.rsplit(" ", 1)[0]
                vendors.append({"name": f"{base} Holdings", "domain": f"{v.domain.split('.')[0]}-holdings.com",
                                "contact_email": f"info@{v.domain.split('.')[0]}-holdings.com", "category": category,
                                "country": v.country, "status": "blocked", "updated_at": gen.datetime(-300, -1)})
        for k, v in enumerate(vendors):
            v["id"] = f"ven_{k + 1:04d}"
        active = [v for v in vendors if v["status"] == "active"]
        catalog = [(sku_for(n), n, float(p)) for n, p in HARDWARE + SUPPLIES]
        ops = [p.email for p in gen.world.employees if p.department in ("Operations", "Engineering")] or [gen.employee().email]
        finance = [p.email for p in gen.world.employees if p.department == "Finance"] or [gen.employee().email]

        def lines(big: bool) -> list[dict]:
            return [{"sku": s, "description": n, "quantity": gen.int(20, 60) if big else gen.int(1, 10), "unit_price": p}
                    for s, n, p in gen.sample(catalog, gen.int(1, 3))]

        requests, orders, approvals, receipts = [], [], [], []
        for k in range(gen.n(10)):
            ls = lines(False)
            requests.append({"id": f"pr_{k + 1:04d}", "title": f"{ls[0]['description']} for {gen.pick(['Boston', 'Austin', 'Berlin'])} office",
                             "requester_email": gen.pick(ops), "vendor_name": gen.pick(active)["name"] if gen.chance(0.5) else None,
                             "lines": [{k2: li[k2] for k2 in ("sku", "description", "quantity", "unit_price")} for li in ls],
                             "total": _total(ls), "needed_by": gen.date(5, 40), "status": gen.pick(["open", "open", "ordered", "rejected"]),
                             "created_at": gen.datetime(-30, -1)})
        for k in range(gen.n(15)):
            vendor, ls = gen.pick(active), lines(gen.chance(0.4))
            po_id, total = f"po_{k + 1:04d}", _total(ls)
            required = 2 if total > SINGLE_APPROVAL_LIMIT else 1
            status = gen.pick(["pending_approval", "approved", "approved", "partially_received", "received", "rejected", "cancelled"])
            requester = gen.pick(ops)
            approvers = gen.sample([f for f in finance if f != requester], 2)
            approved_by = approvers[:required] if status in ("approved", "partially_received", "received") else (
                approvers[:1] if status == "pending_approval" and required == 2 and gen.chance(0.5) else [])
            for a in approved_by:
                approvals.append({"po_id": po_id, "approver_email": a, "decision": "approved", "comment": "", "decided_at": gen.datetime(-20, -1)})
            if status == "rejected":
                approvals.append({"po_id": po_id, "approver_email": approvers[0], "decision": "rejected", "comment": "Over budget",
                                  "decided_at": gen.datetime(-20, -1)})
            for li in ls:
                li["received"] = li["quantity"] if status == "received" else (li["quantity"] // 2 if status == "partially_received" else 0)
            got = [{"sku": li["sku"], "quantity": li["received"]} for li in ls if li["received"]]
            if got:
                receipts.append({"po_id": po_id, "received_by_email": requester, "lines": got, "received_on": gen.date(-10, -1), "note": ""})
            elif status == "partially_received":
                status = "approved"
            orders.append({"id": po_id, "number": f"PO-{k + 1:04d}", "vendor_id": vendor["id"], "vendor_name": vendor["name"],
                           "request_id": None, "requester_email": requester, "lines": ls, "total": total, "currency": CURRENCY,
                           "status": status, "approvals_required": required, "approved_by": approved_by, "created_at": gen.datetime(-40, -21)})
        return {"vendors": vendors, "requests": requests, "orders": orders, "approvals": approvals, "receipts": receipts}

    # -- helpers -------------------------------------------------------------------------------
    def _vendor(self, vendor_id: str | None, vendor_name: str | None) -> dict:
        if vendor_id:
            vendor = self.db["vendors"].require(vendor_id)
        elif vendor_name:
            wanted = vendor_name.strip().lower()
            named = [v for v in self.db["vendors"] if v["name"].lower() == wanted]
            if not named:
                raise ToolError(f"no vendor named '{vendor_name}'; see search_vendors")
            vendor = next((v for v in named if v["status"] == "active"), max(named, key=lambda v: v["updated_at"]))
        else:
            raise ToolError("give vendor_id or vendor_name")
        if vendor["status"] != "active":
            raise ToolError(f"vendor {vendor['id']} ({vendor['name']}) is {vendor['status']}; orders need an active vendor")
        return vendor

    def _pending(self, po_id: str, approver_email: str) -> dict:
        po = self.db["orders"].require(po_id)
        if po["status"] != "pending_approval":
            raise ToolError(f"purchase order {po['number']} is {po['status']}; only orders pending approval can be decided")
        if po["requester_email"].lower() == approver_email.lower():
            raise ToolError(f"{approver_email} requested {po['number']} and cannot approve or reject their own order")
        return po

    # -- vendors -------------------------------------------------------------------------------
    @tool(read_only=True)
    def search_vendors(self, query: Query = "", status: VendorStatus | None = None, category: Category | None = None,
                       limit: Limit = 20, offset: Offset = 0) -> Page[Vendor]:
        """Search vendors by name, domain or contact email, most recently updated first.

        Args:
            query: Text to match in name, domain or contact email.
            status: Only vendors with this status.
            category: Only vendors of this category (supplies, print, cloud, catering, travel, hardware).
            limit: Maximum number of results.
            offset: Results to skip.
        """
        rows = [v for v in self.db["vendors"].ordered(("updated_at",), reverse=True) if (status is None or v["status"] == status)
                and (category is None or v["category"] == category) and matches(query, v["name"], v["domain"], v["contact_email"])]
        return page(rows, limit, offset)

    @tool(read_only=True)
    def get_vendor(self, vendor_id: VendorId) -> Vendor:
        """Get one vendor by id.

        Args:
            vendor_id: The vendor's id.
        """
        return self.db["vendors"].require(vendor_id)

    @tool
    def create_vendor(self, name: CompanyName, contact_email: Email, category: Category, country: Country = "US") -> Vendor:
        """Onboard an active vendor. Active vendor names are unique.

        Args:
            name: Vendor company name.
            contact_email: Where purchase orders are sent.
            category: What they supply.
            country: ISO country code.
        """
        if any(v["status"] == "active" and v["name"].lower() == name.lower() for v in self.db["vendors"]):
            raise ToolError(f"an active vendor named '{name}' already exists")
        return self.db["vendors"].insert({"name": name, "domain": contact_email.split("@")[1], "contact_email": contact_email,
                                           "category": category, "country": country, "status": "active", "updated_at": self.now()})

    @tool(idempotent=True)
    def set_vendor_status(self, vendor_id: VendorId, status: VendorStatus) -> Vendor:
        """Activate, deactivate or block a vendor.

        Args:
            vendor_id: The vendor.
            status: New status.
        """
        vendor = self.db["vendors"].require(vendor_id)
        if status == "active" and any(v["id"] != vendor_id and v["status"] == "active" and v["name"] == vendor["name"] for v in self.db["vendors"]):
            raise ToolError(f"another active vendor is already named '{vendor['name']}'")
        return self.db["vendors"].update(vendor_id, status=status, updated_at=self.now())

    # -- requests ------------------------------------------------------------------------------
    @tool
    def create_purchase_request(self, requester_email: Email, title: Title, lines: list[LineInput], needed_by: Date,
                                vendor_name: CompanyName | None = None) -> PurchaseRequest:
        """Ask for goods to be bought; purchasing turns open requests into purchase orders.

        Args:
            requester_email: Who needs the goods.
            title: What the request is for.
            lines: Items (sku, description, quantity >= 1, unit_price > 0), each SKU once.
            needed_by: Date needed (YYYY-MM-DD), not in the past.
            vendor_name: Preferred vendor, if any.
        """
        _check_lines(lines)
        if needed_by < self.today():
            raise ToolError(f"needed_by {needed_by} is in the past (today is {self.today()})")
        return self.db["requests"].insert({"title": title, "requester_email": requester_email, "vendor_name": vendor_name,
                                            "lines": [dict(li) for li in lines], "total": _total(lines), "needed_by": needed_by,
                                            "status": "open", "created_at": self.now()})

    @tool(read_only=True)
    def search_purchase_requests(self, query: Query = "", requester_email: Email | None = None,
                                 status: Literal["open", "ordered", "rejected"] | None = None, limit: Limit = 20,
                                 offset: Offset = 0) -> Page[PurchaseRequest]:
        """Search purchase requests by title, by need-by date.

        Args:
            query: Text to match in the title or line descriptions.
            requester_email: Only requests of this person.
            status: Only requests in this status.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        who = requester_email.lower() if requester_email else None
        rows = [r for r in self.db["requests"].ordered(("needed_by", "id")) if (status is None or r["status"] == status)
                and (who is None or r["requester_email"].lower() == who)
                and matches(query, r["title"], *(li["description"] for li in r["lines"]))]
        return page(rows, limit, offset)

    # -- orders --------------------------------------------------------------------------------
    @tool(read_only=True)
    def get_approval_policy(self) -> ApprovalPolicy:
        """The purchase-order approval rules: the total above which a second approver is needed."""
        return {"single_approval_limit": SINGLE_APPROVAL_LIMIT, "currency": CURRENCY,
                "rules": (f"Orders up to {SINGLE_APPROVAL_LIMIT:.0f} {CURRENCY} need one approval; above that, two approvals from "
                          "different people. Requesters cannot approve their own orders.")}

    @tool
    def create_purchase_order(self, requester_email: Email, vendor_id: VendorId | None = None, vendor_name: CompanyName | None = None,
                              lines: list[LineInput] | None = None, request_id: RequestId | None = None) -> PurchaseOrder:
        """Raise a purchase order with an active vendor; it waits for approval (two approvers above the policy limit).

        Args:
            requester_email: Who is buying.
            vendor_id: The vendor.
            vendor_name: Vendor's exact name, used when no vendor_id is given.
            lines: Items (sku, description, quantity >= 1, unit_price > 0); defaults to the request's lines.
            request_id: The open purchase request this order fulfils.
        """
        vendor = self._vendor(vendor_id, vendor_name)
        req = None
        if request_id is not None:
            req = self.db["requests"].require(request_id)
            if req["status"] != "open":
                raise ToolError(f"purchase request {request_id} is {req['status']}; only open requests can be ordered")
        items = [dict(li) for li in (lines or (req["lines"] if req else []))]
        _check_lines(items)
        if req is not None:
            self.db["requests"].update(request_id, status="ordered")
        total = _total(items)
        po_id = self.db["orders"].new_id()
        return self.db["orders"].insert({"id": po_id, "number": f"PO-{po_id.rpartition('_')[2]}", "vendor_id": vendor["id"],
                                          "vendor_name": vendor["name"], "request_id": request_id, "requester_email": requester_email,
                                          "lines": [{**li, "received": 0} for li in items], "total": total, "currency": CURRENCY,
                                          "status": "pending_approval", "approvals_required": 2 if total > SINGLE_APPROVAL_LIMIT else 1,
                                          "approved_by": [], "created_at": self.now()})

    @tool(read_only=True)
    def search_purchase_orders(self, vendor_name: CompanyName | None = None, status: PoStatus | None = None,
                               requester_email: Email | None = None, sku: Sku | None = None, limit: Limit = 20,
                               offset: Offset = 0) -> Page[PurchaseOrder]:
        """Search purchase orders, newest first.

        Args:
            vendor_name: Only orders with vendors whose name contains this (case-insensitive).
            status: Only orders in this status.
            requester_email: Only orders raised by this person.
            sku: Only orders containing this SKU.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        who = requester_email.lower() if requester_email else None
        rows = [o for o in self.db["orders"].ordered(("created_at", "id"), reverse=True) if (status is None or o["status"] == status)
                and (who is None or o["requester_email"].lower() == who) and matches(vendor_name, o["vendor_name"])
                and (sku is None or any(li["sku"] == sku for li in o["lines"]))]
        return page(rows, limit, offset)

    @tool(read_only=True)
    def get_purchase_order(self, po_id: OrderId) -> PurchaseOrder:
        """Get one purchase order by id, with ordered and received quantities.

        Args:
            po_id: The purchase order's id.
        """
        return self.db["orders"].require(po_id)

    @tool
    def approve_purchase_order(self, po_id: OrderId, approver_email: Email, comment: Text = "") -> PurchaseOrder:
        """Approve a pending purchase order. Orders above the policy limit stay pending until a second, different approver approves.

        Args:
            po_id: The pending purchase order.
            approver_email: The approver's email (not the requester).
            comment: Optional comment.
        """
        po = self._pending(po_id, approver_email)
        if any(a.lower() == approver_email.lower() for a in po["approved_by"]):
            raise ToolError(f"{approver_email} already approved {po['number']}; the second approval must come from someone else")
        self.db["approvals"].insert({"po_id": po_id, "approver_email": approver_email, "decision": "approved", "comment": comment,
                                     "decided_at": self.now()})
        approved_by = [*po["approved_by"], approver_email]
        status = "approved" if len(approved_by) >= po["approvals_required"] else "pending_approval"
        return self.db["orders"].update(po_id, approved_by=approved_by, status=status)

    @tool
    def reject_purchase_order(self, po_id: OrderId, approver_email: Email, reason: Text) -> PurchaseOrder:
        """Reject a pending purchase order.

        Args:
            po_id: The pending purchase order.
            approver_email: The approver's email (not the requester).
            reason: Why it is rejected.
        """
        self._pending(po_id, approver_email)
        if not reason.strip():
            raise ToolError("a rejection needs a reason")
        self.db["approvals"].insert({"po_id": po_id, "approver_email": approver_email, "decision": "rejected", "comment": reason,
                                     "decided_at": self.now()})
        return self.db["orders"].update(po_id, status="rejected")

    @tool(destructive=True)
    def cancel_purchase_order(self, po_id: OrderId) -> PurchaseOrder:
        """Cancel a purchase order that has received nothing yet.

        Args:
            po_id: The purchase order.
        """
        po = self.db["orders"].require(po_id)
        if po["status"] not in ("pending_approval", "approved"):
            raise ToolError(f"purchase order {po['number']} is {po['status']} and cannot be cancelled")
        return self.db["orders"].update(po_id, status="cancelled")

    # -- receiving -----------------------------------------------------------------------------
    @tool
    def receive_goods(self, po_id: OrderId, lines: list[ReceiptLine], received_by_email: Email, received_on: Date | None = None,
                      note: Text = "") -> GoodsReceipt:
        """Record goods delivered against an approved purchase order. Cannot receive more than was ordered.

        Args:
            po_id: The approved (or partially received) purchase order.
            lines: SKUs and quantities delivered (each quantity >= 1).
            received_by_email: Who checked the delivery in.
            received_on: Delivery date (YYYY-MM-DD), not in the future; defaults to today.
            note: Optional remark, e.g. damaged boxes.
        """
        po = self.db["orders"].require(po_id)
        if po["status"] not in ("approved", "partially_received"):
            raise ToolError(f"purchase order {po['number']} is {po['status']}; goods can only be received on approved orders")
        if not lines:
            raise ToolError("at least one receipt line is required")
        day = received_on or self.today()
        if day > self.today():
            raise ToolError(f"received_on {day} is in the future (today is {self.today()})")
        got: dict[str, int] = {}
        for li in lines:
            if li["quantity"] < 1:
                raise ToolError(f"quantity of {li['sku']} must be at least 1")
            got[li["sku"]] = got.get(li["sku"], 0) + li["quantity"]
        ordered = {li["sku"]: li for li in po["lines"]}
        unknown = sorted(set(got) - set(ordered))
        if unknown:
            raise ToolError(f"not on purchase order {po['number']}: {', '.join(unknown)}")
        for sku, qty in got.items():
            line = ordered[sku]
            if line["received"] + qty > line["quantity"]:
                raise ToolError(f"cannot receive more than ordered: {sku} ordered {line['quantity']}, already received "
                                f"{line['received']}, receiving {qty}")
        new_lines = [{**li, "received": li["received"] + got.get(li["sku"], 0)} for li in po["lines"]]
        done = all(li["received"] == li["quantity"] for li in new_lines)
        self.db["orders"].update(po_id, lines=new_lines, status="received" if done else "partially_received")
        return self.db["receipts"].insert({"po_id": po_id, "received_by_email": received_by_email,
                                            "lines": [{"sku": s, "quantity": q} for s, q in got.items()], "received_on": day, "note": note})

    @tool(read_only=True)
    def list_goods_receipts(self, po_id: OrderId | None = None, sku: Sku | None = None, limit: Limit = 20,
                            offset: Offset = 0) -> Page[GoodsReceipt]:
        """List goods receipts, newest first.

        Args:
            po_id: Only receipts of this purchase order.
            sku: Only receipts including this SKU.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        rows = [r for r in self.db["receipts"].ordered(("received_on", "id"), reverse=True) if (po_id is None or r["po_id"] == po_id)
                and (sku is None or any(li["sku"] == sku for li in r["lines"]))]
        return page(rows, limit, offset)
