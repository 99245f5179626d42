"""Invoicing: billed customers, invoices with line items, payments and credit notes (receivables)."""

from __future__ import annotations

from typing import Iterable, Literal

from typing_extensions import TypedDict

from compoworld.services import Collection, Service, ToolError, tool
from compoworld.services.fake import DataGen, add_days
from compoworld.services.library._types import (
    CompanyName, Currency, Date, DateTime, Email, Id, Limit, Money, Offset, Page, Percent, PersonName, Quantity,
    Query, Text, matches, page,
)

CustomerId = Id("invoicing", "customer")
InvoiceId = Id("invoicing", "invoice")
InvoiceStatus = Literal["draft", "issued", "paid", "credited", "void"]
PaymentMethod = Literal["bank_transfer", "card", "check"]
CURRENCY_OF = {"US": "USD", "CA": "CAD", "GB": "GBP", "JP": "JPY", "AU": "AUD", "SG": "SGD"}
CENT = 0.005  # money comparisons tolerate float rounding below half a cent


class LineInput(TypedDict):
    description: Text
    quantity: Quantity
    unit_price: Money


class LineItem(TypedDict):
    description: Text
    quantity: Quantity
    unit_price: Money
    amount: Money


class Customer(TypedDict):
    id: CustomerId
    company_name: CompanyName
    billing_email: Email
    contact_name: PersonName
    currency: Currency
    payment_terms_days: int
    status: Literal["active", "archived"]
    updated_at: DateTime


class Invoice(TypedDict):
    id: InvoiceId
    number: str
    customer_id: CustomerId
    company_name: CompanyName
    billing_email: Email
    status: InvoiceStatus
    lines: list[LineItem]
    subtotal: Money
    tax_rate: Percent
    tax: Money
    total: Money
    amount_paid: Money
    amount_credited: Money
    balance_due: Money
    currency: Currency
    issue_date: Date | None
    due_date: Date | None
    sent_to: Email | None
    sent_at: DateTime | None
    created_at: DateTime


class Payment(TypedDict):
    id: Id("invoicing", "payment")
    invoice_id: InvoiceId
    amount: Money
    method: PaymentMethod
    paid_on: Date
    reference: str
    recorded_at: DateTime


class CreditNote(TypedDict):
    id: Id("invoicing", "credit_note")
    invoice_id: InvoiceId
    amount: Money
    reason: Text
    created_at: DateTime


def _line(description: str, quantity: int, unit_price: float) -> dict:
    return {"description": description, "quantity": quantity, "unit_price": unit_price, "amount": round(quantity * unit_price, 2)}


def _totals(lines: list[dict], tax_rate: float) -> dict[str, float]:
    subtotal = round(sum(li["amount"] for li in lines), 2)
    tax = round(subtotal * tax_rate / 100, 2)
    return {"subtotal": subtotal, "tax": tax, "total": round(subtotal + tax, 2)}


def _number(invoice_id: str) -> str:
    return f"INV-{invoice_id.rpartition('_')[2]}"


class Invoicing(Service):
    name = "invoicing"
    domain = "finance"
    description = "Accounts receivable: billed customers, invoices with line items, payments and credit notes."
    # Invoices are billed to customer companies.
    roles = {"invoices": {"company_name": "customer"}}
    tables = {
        "customers": Collection(Customer, "customer", "cus"),
        "invoices": Collection(Invoice, "invoice", "inv"),
        "payments": Collection(Payment, "payment", "pay"),
        "credit_notes": Collection(CreditNote, "credit_note", "cn"),
    }

    def generate(self, gen: DataGen) -> dict[str, Iterable[dict]]:
        customers, invoices, payments, credits = [], [], [], []
        by_company: dict[str, list] = {}
        for person in gen.world.contacts:
            by_company.setdefault(person.company, []).append(person)
        for co in gen.world.companies:
            people = by_company.get(co.name) or [gen.contact()]
            billing = next((p for p in people if p.title == "CFO"), people[0])
            cur = CURRENCY_OF.get(co.country, "EUR" if co.country in ("DE", "FR", "ES", "PT", "NL", "IE") else "USD")
            if gen.chance(0.2):  # a stale row: the account's old billing address, archived when it changed
                customers.append({"company_name": co.name, "billing_email": f"billing@{co.domain}", "contact_name": billing.name,
                                  "currency": cur, "payment_terms_days": 30, "status": "archived",
                                  "updated_at": gen.datetime(-500, -200)})
            customers.append({"company_name": co.name, "billing_email": billing.email, "contact_name": billing.name,
                              "currency": cur, "payment_terms_days": gen.pick([15, 30, 30, 45, 60]), "status": "active",
                              "updated_at": gen.datetime(-120, -1)})
        for i, c in enumerate(customers):
            c["id"] = f"cus_{i + 1:04d}"
        active = [c for c in customers if c["status"] == "active"]
        for i in range(gen.n(30)):
            cust = gen.pick(active)
            inv_id = f"inv_{i + 1:04d}"
            lines = [_line(name, gen.int(1, 5), float(price)) for name, price in gen.sample(gen.world.products, gen.int(1, 3))]
            tax_rate = gen.pick([0.0, 0.0, 8.0, 20.0])
            status = gen.pick(["draft", "issued", "issued", "paid", "paid", "credited", "void"])
            issue = None if status == "draft" else gen.date(-90, -1)
            inv = {"id": inv_id, "number": _number(inv_id), "customer_id": cust["id"], "company_name": cust["company_name"],
                   "billing_email": cust["billing_email"], "status": status, "lines": lines, **_totals(lines, tax_rate),
                   "tax_rate": tax_rate, "currency": cust["currency"], "issue_date": issue,
                   "due_date": add_days(issue, cust["payment_terms_days"]) if issue else None,
                   "sent_to": cust["billing_email"] if issue else None, "sent_at": f"{issue}T10:00:00Z" if issue else None,
                   "created_at": gen.datetime(-120, -91) if issue else gen.datetime(-20, -1)}
            paid = inv["total"] if status == "paid" else (round(inv["total"] / 2, 2) if status == "issued" and gen.chance(0.3) else 0.0)
            credited = inv["total"] if status == "credited" else 0.0
            inv.update(amount_paid=paid, amount_credited=credited,
                       balance_due=0.0 if status in ("paid", "credited", "void") else round(inv["total"] - paid, 2))
            invoices.append(inv)
            if paid:
                payments.append({"invoice_id": inv_id, "amount": paid, "method": gen.pick(["bank_transfer", "card", "check"]),
                                 "paid_on": min(add_days(issue, gen.int(1, 20)), gen.today()), "reference": f"REF-{gen.int(10000, 99999)}",
                                 "recorded_at": gen.datetime(-60, -1)})
            if credited:
                credits.append({"invoice_id": inv_id, "amount": credited, "reason": "Billed in error", "created_at": gen.datetime(-60, -1)})
        for inv in list(invoices)[: gen.n(4)]:  # near-duplicates: a forgotten draft copy of an existing invoice
            if inv["status"] != "draft":
                dup_id = f"inv_{len(invoices) + 1:04d}"
                invoices.append({**inv, "id": dup_id, "number": _number(dup_id), "status": "draft", "issue_date": None,
                                 "due_date": None, "sent_to": None, "sent_at": None, "amount_paid": 0.0,
                                 "amount_credited": 0.0, "balance_due": inv["total"], "created_at": gen.datetime(-30, -1)})
        return {"customers": customers, "invoices": invoices, "payments": payments, "credit_notes": credits}

    # -- helpers -------------------------------------------------------------------------------
    def _customer(self, customer_id: str | None, company_name: str | None) -> dict:
        if customer_id:
            cust = self.db["customers"].require(customer_id)
        elif company_name:
            wanted = company_name.strip().lower()
            cust = next((c for c in self.db["customers"] if c["status"] == "active" and c["company_name"].lower() == wanted), None)
            if cust is None:
                first = wanted.split()[0] if wanted else ""
                near = sorted({c["company_name"] for c in self.db["customers"] if len(first) >= 3 and first in c["company_name"].lower()})
                hint = f"; similar customers: {', '.join(near[:5])}" if near else "; create the customer first"
                raise ToolError(f"no active customer named '{company_name}'{hint}")
        else:
            raise ToolError("give customer_id or company_name")
        if cust["status"] != "active":
            raise ToolError(f"customer {cust['id']} ({cust['company_name']}) is archived; use the active account")
        return cust

    def _draft(self, invoice_id: str) -> dict:
        inv = self.db["invoices"].require(invoice_id)
        if inv["status"] != "draft":
            raise ToolError(f"invoice {inv['number']} is {inv['status']}; only draft invoices can be edited "
                            "(issue a credit note or void it instead)")
        return inv

    def _relines(self, inv: dict, lines: list[dict]) -> dict:
        totals = _totals(lines, inv["tax_rate"])
        return self.db["invoices"].update(inv["id"], lines=lines, **totals, balance_due=totals["total"])

    # -- customers -----------------------------------------------------------------------------
    @tool(read_only=True)
    def search_customers(self, query: Query = "", status: Literal["active", "archived"] | None = None,
                         limit: Limit = 20, offset: Offset = 0) -> Page[Customer]:
        """Search billed customers by company name, billing email or contact name, newest first.

        Args:
            query: Text to match in company name, billing email or contact name (case-insensitive).
            status: Only customers with this status.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        rows = [c for c in self.db["customers"].ordered(("updated_at",), reverse=True) if (status is None or c["status"] == status)
                and matches(query, c["company_name"], c["billing_email"], c["contact_name"])]
        return page(rows, limit, offset)

    @tool(read_only=True)
    def get_customer(self, customer_id: CustomerId) -> Customer:
        """Get one customer by id.

        Args:
            customer_id: The customer's id.
        """
        return self.db["customers"].require(customer_id)

    @tool
    def create_customer(self, company_name: CompanyName, billing_email: Email, contact_name: PersonName,
                        currency: Currency = "USD", payment_terms_days: int = 30) -> Customer:
        """Create a billed customer. Active customers must have unique company names.

        Args:
            company_name: The customer company's name.
            billing_email: Where invoices are sent.
            contact_name: The billing contact's full name.
            currency: ISO currency code invoices are billed in.
            payment_terms_days: Days from issue to due date (1-120).
        """
        if not 1 <= payment_terms_days <= 120:
            raise ToolError("payment_terms_days must be between 1 and 120")
        if any(c["status"] == "active" and c["company_name"].lower() == company_name.lower() for c in self.db["customers"]):
            raise ToolError(f"an active customer named '{company_name}' already exists")
        return self.db["customers"].insert({"company_name": company_name, "billing_email": billing_email,
                                             "contact_name": contact_name, "currency": currency,
                                             "payment_terms_days": payment_terms_days, "status": "active",
                                             "updated_at": self.now()})

    @tool(idempotent=True)
    def update_customer(self, customer_id: CustomerId, billing_email: Email | None = None, contact_name: PersonName | None = None,
                        payment_terms_days: int | None = None) -> Customer:
        """Change a customer's billing email, contact or payment terms (existing invoices keep their address).

        Args:
            customer_id: The customer to update.
            billing_email: New billing email.
            contact_name: New billing contact name.
            payment_terms_days: New payment terms in days (1-120).
        """
        self._customer(customer_id, None)
        changes = {k: v for k, v in {"billing_email": billing_email, "contact_name": contact_name,
                                     "payment_terms_days": payment_terms_days}.items() if v is not None}
        if not changes:
            raise ToolError("nothing to update: give billing_email, contact_name or payment_terms_days")
        if payment_terms_days is not None and not 1 <= payment_terms_days <= 120:
            raise ToolError("payment_terms_days must be between 1 and 120")
        return self.db["customers"].update(customer_id, **changes, updated_at=self.now())

    # -- invoices ------------------------------------------------------------------------------
    @tool(read_only=True)
    def search_invoices(self, query: Query = "", customer_id: CustomerId | None = None, company_name: CompanyName | None = None,
                        status: InvoiceStatus | None = None, overdue: bool | None = None, limit: Limit = 20,
                        offset: Offset = 0) -> Page[Invoice]:
        """Search invoices by number, company or billing email, newest first.

        Args:
            query: Text to match in the invoice number, company name, billing email or line descriptions.
            customer_id: Only invoices of this customer.
            company_name: Only invoices billed to this exact company name (case-insensitive).
            status: Only invoices in this status.
            overdue: True for issued invoices past their due date with a balance; False for the rest.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        today, company = self.today(), company_name.lower() if company_name else None
        rows = []
        for inv in self.db["invoices"]:
            if (customer_id and inv["customer_id"] != customer_id) or (status and inv["status"] != status):
                continue
            if company and inv["company_name"].lower() != company:
                continue
            if overdue is not None and overdue != (inv["status"] == "issued" and inv["balance_due"] > 0 and inv["due_date"] < today):
                continue
            if query and not matches(query, inv["number"], inv["company_name"], inv["billing_email"], *(li["description"] for li in inv["lines"])):
                continue
            rows.append(inv)
        rows.sort(key=lambda i: i["created_at"], reverse=True)
        return page(rows, limit, offset)

    @tool(read_only=True)
    def get_invoice(self, invoice_id: InvoiceId) -> Invoice:
        """Get one invoice by id, with its lines and balance.

        Args:
            invoice_id: The invoice's id.
        """
        return self.db["invoices"].require(invoice_id)

    @tool
    def create_invoice(self, customer_id: CustomerId | None = None, company_name: CompanyName | None = None,
                       lines: list[LineInput] | None = None, tax_rate: Percent = 0.0) -> Invoice:
        """Create a draft invoice for a customer, found by id or by exact company name.

        Args:
            customer_id: The customer to bill.
            company_name: The customer's company name, used when no customer_id is given.
            lines: Line items (description, quantity >= 1, unit_price); more can be added while it is a draft.
            tax_rate: Tax rate in percent applied to the subtotal.
        """
        cust = self._customer(customer_id, company_name)
        items = []
        for li in lines or []:
            if li["quantity"] < 1:
                raise ToolError(f"line '{li['description']}' needs a quantity of at least 1")
            items.append(_line(li["description"], li["quantity"], li["unit_price"]))
        inv_id = self.db["invoices"].new_id()
        return self.db["invoices"].insert({
            "id": inv_id, "number": _number(inv_id), "customer_id": cust["id"], "company_name": cust["company_name"],
            "billing_email": cust["billing_email"], "status": "draft", "lines": items, **_totals(items, tax_rate),
            "tax_rate": tax_rate, "amount_paid": 0.0, "amount_credited": 0.0, "balance_due": _totals(items, tax_rate)["total"],
            "currency": cust["currency"], "issue_date": None, "due_date": None, "sent_to": None, "sent_at": None,
            "created_at": self.now()})

    @tool
    def add_line_item(self, invoice_id: InvoiceId, description: Text, quantity: Quantity, unit_price: Money) -> Invoice:
        """Add a line to a draft invoice. Issued invoices cannot be edited.

        Args:
            invoice_id: The draft invoice.
            description: What is billed.
            quantity: How many units (at least 1).
            unit_price: Price per unit.
        """
        inv = self._draft(invoice_id)
        if quantity < 1:
            raise ToolError("quantity must be at least 1")
        return self._relines(inv, [*inv["lines"], _line(description, quantity, unit_price)])

    @tool(destructive=True)
    def remove_line_item(self, invoice_id: InvoiceId, line_number: int) -> Invoice:
        """Remove a line from a draft invoice.

        Args:
            invoice_id: The draft invoice.
            line_number: The 1-based position of the line to remove.
        """
        inv = self._draft(invoice_id)
        if not 1 <= line_number <= len(inv["lines"]):
            raise ToolError(f"invoice {inv['number']} has {len(inv['lines'])} lines; line_number {line_number} is out of range")
        return self._relines(inv, [li for k, li in enumerate(inv["lines"], 1) if k != line_number])

    @tool
    def issue_invoice(self, invoice_id: InvoiceId, issue_date: Date | None = None, due_date: Date | None = None) -> Invoice:
        """Issue a draft invoice: it gets dates and can no longer be edited.

        Args:
            invoice_id: The draft invoice.
            issue_date: Issue date (YYYY-MM-DD); defaults to today.
            due_date: Due date, strictly after the issue date; defaults to issue date plus the customer's terms.
        """
        inv = self._draft(invoice_id)
        if not inv["lines"]:
            raise ToolError(f"invoice {inv['number']} has no line items; add at least one before issuing")
        issue = issue_date or self.today()
        due = due_date or add_days(issue, self.db["customers"].require(inv["customer_id"])["payment_terms_days"])
        if due <= issue:
            raise ToolError(f"due date {due} must be after the issue date {issue}")
        return self.db["invoices"].update(invoice_id, status="issued", issue_date=issue, due_date=due)

    @tool(idempotent=True)
    def send_invoice(self, invoice_id: InvoiceId, to_email: Email | None = None) -> Invoice:
        """Email an issued invoice to the customer.

        Args:
            invoice_id: The issued invoice.
            to_email: Recipient; defaults to the invoice's billing email.
        """
        inv = self.db["invoices"].require(invoice_id)
        if inv["status"] != "issued":
            raise ToolError(f"invoice {inv['number']} is {inv['status']}; only issued invoices can be sent"
                            + (" (issue it first)" if inv["status"] == "draft" else ""))
        return self.db["invoices"].update(invoice_id, sent_to=to_email or inv["billing_email"], sent_at=self.now())

    @tool(destructive=True)
    def void_invoice(self, invoice_id: InvoiceId) -> Invoice:
        """Void an invoice that has no payments; a voided invoice is kept but owes nothing.

        Args:
            invoice_id: The invoice to void.
        """
        inv = self.db["invoices"].require(invoice_id)
        if inv["status"] in ("void", "paid", "credited"):
            raise ToolError(f"invoice {inv['number']} is {inv['status']} and cannot be voided")
        if inv["amount_paid"] > 0:
            raise ToolError(f"invoice {inv['number']} has payments of {inv['amount_paid']}; issue a credit note instead")
        return self.db["invoices"].update(invoice_id, status="void", balance_due=0.0)

    # -- payments and credits ------------------------------------------------------------------
    @tool
    def record_payment(self, invoice_id: InvoiceId, amount: Money, paid_on: Date | None = None,
                       method: PaymentMethod = "bank_transfer", reference: str = "") -> Payment:
        """Record a customer payment against an issued invoice. Payments cannot exceed the balance due.

        Args:
            invoice_id: The invoice paid.
            amount: Amount received (positive, at most the balance due).
            paid_on: Date received (YYYY-MM-DD), not in the future and not before the issue date; defaults to today.
            method: How it was paid.
            reference: Bank or card reference.
        """
        inv = self.db["invoices"].require(invoice_id)
        if inv["status"] == "paid":
            raise ToolError(f"invoice {inv['number']} is already paid in full")
        if inv["status"] != "issued":
            raise ToolError(f"invoice {inv['number']} is {inv['status']}; only issued invoices take payments")
        if amount <= 0:
            raise ToolError("a payment amount must be positive")
        if amount > inv["balance_due"] + CENT:
            raise ToolError(f"payment of {amount} would overpay invoice {inv['number']}: balance due is {inv['balance_due']}")
        day = paid_on or self.today()
        if day > self.today() or day < inv["issue_date"]:
            raise ToolError(f"paid_on {day} must be between the issue date {inv['issue_date']} and today {self.today()}")
        balance = round(inv["balance_due"] - amount, 2)
        self.db["invoices"].update(invoice_id, amount_paid=round(inv["amount_paid"] + amount, 2), balance_due=max(balance, 0.0),
                                   status="paid" if balance < CENT else "issued")
        return self.db["payments"].insert({"invoice_id": invoice_id, "amount": amount, "method": method, "paid_on": day,
                                            "reference": reference, "recorded_at": self.now()})

    @tool(read_only=True)
    def list_payments(self, invoice_id: InvoiceId | None = None, customer_id: CustomerId | None = None,
                      limit: Limit = 20, offset: Offset = 0) -> Page[Payment]:
        """List payments, newest first, for one invoice or all invoices of one customer.

        Args:
            invoice_id: Only payments of this invoice.
            customer_id: Only payments of this customer's invoices.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        invs = self.db["invoices"]
        rows = [p for p in self.db["payments"].ordered(("paid_on",), reverse=True) if (invoice_id is None or p["invoice_id"] == invoice_id)
                and (customer_id is None or invs.require(p["invoice_id"])["customer_id"] == customer_id)]
        return page(rows, limit, offset)

    @tool
    def issue_credit_note(self, invoice_id: InvoiceId, amount: Money, reason: Text) -> CreditNote:
        """Credit part or all of an issued invoice's balance (a fully credited unpaid invoice becomes 'credited').

        Args:
            invoice_id: The issued invoice to credit.
            amount: Amount to credit (positive, at most the balance due).
            reason: Why the customer is credited.
        """
        inv = self.db["invoices"].require(invoice_id)
        if inv["status"] != "issued":
            raise ToolError(f"invoice {inv['number']} is {inv['status']}; only issued invoices with a balance can be credited")
        if amount <= 0 or amount > inv["balance_due"] + CENT:
            raise ToolError(f"credit amount must be positive and at most the balance due of {inv['balance_due']}")
        if not reason.strip():
            raise ToolError("a credit note needs a reason")
        balance = round(inv["balance_due"] - amount, 2)
        status = "issued" if balance >= CENT else ("paid" if inv["amount_paid"] > 0 else "credited")
        self.db["invoices"].update(invoice_id, amount_credited=round(inv["amount_credited"] + amount, 2),
                                   balance_due=max(balance, 0.0), status=status)
        return self.db["credit_notes"].insert({"invoice_id": invoice_id, "amount": amount, "reason": reason, "created_at": self.now()})
