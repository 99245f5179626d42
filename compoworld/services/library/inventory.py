"""Inventory: products by SKU, stock per warehouse, sales orders (reserve, ship, cancel) and restocking."""

from __future__ import annotations

from typing import Iterable, Literal

from typing_extensions import TypedDict

from compoworld.services import Collection, Service, ToolError, tool
from compoworld.services.fake import DataGen
from compoworld.services.library._types import (
    Category, CompanyName, DateTime, Email, Id, Limit, Money, Offset, Page, Quantity, Query, Sku, Text, Title, matches, page,
)

OrderId = Id("inventory", "order")
OrderStatus = Literal["pending", "reserved", "shipped", "cancelled"]
Warehouse = Literal["BOS-1", "AUS-1", "BER-1"]
WAREHOUSES = ["BOS-1", "AUS-1", "BER-1"]
# Physical goods sold next to the shared world's software products; procurement buys them from vendors.
HARDWARE = [
    ("Barcode Scanner", 189), ("Thermal Printer", 329), ("Kiosk Tablet", 449), ("Card Reader", 79),
    ("Label Roll (500)", 12), ("Docking Station", 159), ("Receipt Paper (50)", 35), ("POS Terminal", 899),
]


def sku_for(product_name: str) -> str:
    """The catalog SKU of a product name ('Barcode Scanner' -> 'BAR-SCA'); procurement derives SKUs the same way."""
    words = ["".join(ch for ch in w if ch.isalnum()).upper() for w in product_name.split()]
    return "-".join(w[:3] for w in words[:2] if w) or "ITEM"


class Product(TypedDict):
    id: Id("inventory", "product")
    sku: Sku
    name: Title
    category: Category
    unit_price: Money
    reorder_point: Quantity
    status: Literal["active", "discontinued"]


class Stock(TypedDict):
    id: Id("inventory", "stock")
    sku: Sku
    warehouse: Warehouse
    on_hand: Quantity
    reserved: Quantity
    updated_at: DateTime


class StockLevel(TypedDict):
    sku: Sku
    warehouse: Warehouse
    on_hand: Quantity
    reserved: Quantity
    available: Quantity
    reorder_point: Quantity


class OrderLineInput(TypedDict):
    sku: Sku
    quantity: Quantity


class OrderLine(TypedDict):
    sku: Sku
    quantity: Quantity
    unit_price: Money


class Order(TypedDict):
    id: OrderId
    customer_company: CompanyName
    customer_email: Email
    warehouse: Warehouse
    lines: list[OrderLine]
    total: Money
    status: OrderStatus
    tracking_number: str | None
    created_at: DateTime
    shipped_at: DateTime | None


class Movement(TypedDict):
    id: Id("inventory", "movement")
    sku: Sku
    warehouse: Warehouse
    change: int
    kind: Literal["restock", "ship", "count"]
    reference: Text
    at: DateTime


class Inventory(Service):
    name = "inventory"
    domain = "operations"
    description = "Inventory and order fulfilment: products by SKU, stock per warehouse, order reservation, shipping and restocking."
    # Orders here are sales to customers (procurement's orders are purchases).
    roles = {"orders": {"total": "sale_amount"}}
    tables = {
        "products": Collection(Product, "product", "prod"),
        "stock": Collection(Stock, "stock", "stk"),
        "orders": Collection(Order, "order", "ord"),
        "movements": Collection(Movement, "movement", "mov"),
    }

    def generate(self, gen: DataGen) -> dict[str, Iterable[dict]]:
        products = [{"sku": sku_for(n), "name": n, "category": "software", "unit_price": float(p), "reorder_point": 0, "status": "active"}
                    for n, p in gen.world.products]
        products += [{"sku": sku_for(n), "name": n, "category": "hardware", "unit_price": float(p), "reorder_point": gen.int(5, 25),
                      "status": "active"} for n, p in HARDWARE]
        for n, p in gen.sample(HARDWARE, 3):  # near-duplicates: discontinued older models under another SKU
            products.append({"sku": sku_for(n) + "-V1", "name": f"{n} (legacy)", "category": "hardware", "unit_price": round(float(p) * 0.8, 2),
                             "reorder_point": 0, "status": "discontinued"})
        stock: dict[tuple[str, str], dict] = {}
        for prod in products:
            for wh in WAREHOUSES:
                if prod["status"] == "active" and gen.chance(0.8):
                    stock[(prod["sku"], wh)] = {"sku": prod["sku"], "warehouse": wh, "on_hand": gen.int(0, 10) if gen.chance(0.2) else gen.int(20, 300),
                                                "reserved": 0, "updated_at": gen.datetime(-30, -1)}
        price = {p["sku"]: p["unit_price"] for p in products}
        orders, movements = [], []
        for k in range(gen.n(25)):
            buyer, wh = gen.contact(), gen.pick(WAREHOUSES)
            skus = [s for (s, w) in stock if w == wh]
            lines = [{"sku": s, "quantity": gen.int(1, 5), "unit_price": price[s]} for s in gen.sample(skus, gen.int(1, 3))]
            status = gen.pick(["pending", "reserved", "shipped", "shipped", "cancelled"])
            created = gen.datetime(-40, -1)
            orders.append({"customer_company": buyer.company, "customer_email": buyer.email, "warehouse": wh, "lines": lines,
                           "total": round(sum(li["quantity"] * li["unit_price"] for li in lines), 2), "status": status,
                           "tracking_number": f"1Z{gen.int(100000, 999999)}" if status == "shipped" else None,
                           "created_at": created, "shipped_at": created if status == "shipped" else None})
            for li in lines:
                row = stock[(li["sku"], wh)]
                if status == "reserved":
                    stock[(li["sku"], wh)] = {**row, "reserved": row["reserved"] + li["quantity"],
                                              "on_hand": max(row["on_hand"], row["reserved"] + li["quantity"])}
                elif status == "shipped":
                    movements.append({"sku": li["sku"], "warehouse": wh, "change": -li["quantity"], "kind": "ship",
                                      "reference": f"order {k + 1}", "at": created})
        for _ in range(gen.n(10)):
            (sku, wh) = gen.pick(list(stock))
            movements.append({"sku": sku, "warehouse": wh, "change": gen.int(10, 100), "kind": "restock",
                              "reference": f"PO from {gen.vendor().name}", "at": gen.datetime(-60, -1)})
        return {"products": products, "stock": list(stock.values()), "orders": orders, "movements": movements}

    # -- helpers -------------------------------------------------------------------------------
    def _product(self, sku: str) -> dict:
        prod = self.db["products"].first(sku=sku)
        if prod is None:
            raise ToolError(f"no product with SKU {sku}; see search_products")
        return prod

    def _stock(self, sku: str, warehouse: str) -> dict | None:
        return self.db["stock"].first(sku=sku, warehouse=warehouse)

    def _move(self, sku: str, warehouse: str, change: int, kind: str, reference: str) -> None:
        self.db["movements"].insert({"sku": sku, "warehouse": warehouse, "change": change, "kind": kind, "reference": reference, "at": self.now()})

    def _short(self, order: dict, held: bool) -> list[str]:
        """Lines the warehouse cannot cover: for a held (reserved) order its own reservation counts as available."""
        out = []
        for li in order["lines"]:
            row = self._stock(li["sku"], order["warehouse"])
            available = (row["on_hand"] - row["reserved"] + (li["quantity"] if held else 0)) if row else 0
            if li["quantity"] > available:
                out.append(f"{li['sku']} needs {li['quantity']}, {available} available in {order['warehouse']}")
        return out

    # -- catalog and stock ---------------------------------------------------------------------
    @tool(read_only=True)
    def search_products(self, query: Query = "", category: Category | None = None,
                        status: Literal["active", "discontinued"] | None = None, limit: Limit = 20, offset: Offset = 0) -> Page[Product]:
        """Search the product catalog by name or SKU.

        Args:
            query: Text to match in the product name or SKU.
            category: Only products in this category (software, hardware).
            status: Only active or only discontinued products.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        rows = [p for p in self.db["products"] if (category is None or p["category"] == category)
                and (status is None or p["status"] == status) and matches(query, p["name"], p["sku"])]
        return page(rows, limit, offset)

    @tool(read_only=True)
    def get_product(self, sku: Sku) -> Product:
        """Get one product by SKU.

        Args:
            sku: The product's SKU, e.g. BAR-SCA.
        """
        return self._product(sku)

    @tool(read_only=True)
    def get_stock(self, sku: Sku, warehouse: Warehouse | None = None) -> list[StockLevel]:
        """Stock of one SKU per warehouse: on hand, reserved for orders, and available (on hand minus reserved).

        Args:
            sku: The product's SKU.
            warehouse: Only this warehouse.
        """
        prod = self._product(sku)
        return [{"sku": s["sku"], "warehouse": s["warehouse"], "on_hand": s["on_hand"], "reserved": s["reserved"],
                 "available": s["on_hand"] - s["reserved"], "reorder_point": prod["reorder_point"]}
                for s in self.db["stock"] if s["sku"] == sku and (warehouse is None or s["warehouse"] == warehouse)]

    @tool(read_only=True)
    def list_low_stock(self, warehouse: Warehouse | None = None, limit: Limit = 20, offset: Offset = 0) -> Page[StockLevel]:
        """Active products whose available stock is at or below their reorder point, lowest first.

        Args:
            warehouse: Only this warehouse.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        points = {p["sku"]: p["reorder_point"] for p in self.db["products"] if p["status"] == "active"}
        rows = [{"sku": s["sku"], "warehouse": s["warehouse"], "on_hand": s["on_hand"], "reserved": s["reserved"],
                 "available": s["on_hand"] - s["reserved"], "reorder_point": points[s["sku"]]}
                for s in self.db["stock"] if s["sku"] in points and (warehouse is None or s["warehouse"] == warehouse)
                and s["on_hand"] - s["reserved"] <= points[s["sku"]]]
        rows.sort(key=lambda r: (r["available"], r["sku"], r["warehouse"]))  # computed field: sorted here
        return page(rows, limit, offset)

    @tool
    def restock(self, sku: Sku, warehouse: Warehouse, quantity: Quantity, reference: Text = "") -> StockLevel:
        """Add received units of an active product to a warehouse.

        Args:
            sku: The product's SKU.
            warehouse: Receiving warehouse.
            quantity: Units received (at least 1).
            reference: Where they came from, e.g. a purchase order number.
        """
        prod = self._product(sku)
        if prod["status"] != "active":
            raise ToolError(f"{sku} ({prod['name']}) is discontinued and cannot be restocked")
        if quantity < 1:
            raise ToolError("quantity must be at least 1")
        row = self._stock(sku, warehouse)
        if row is None:
            row = self.db["stock"].insert({"sku": sku, "warehouse": warehouse, "on_hand": quantity, "reserved": 0, "updated_at": self.now()})
        else:
            row = self.db["stock"].update(row["id"], on_hand=row["on_hand"] + quantity, updated_at=self.now())
        self._move(sku, warehouse, quantity, "restock", reference)
        return self.get_stock(sku, warehouse)[0]

    @tool
    def record_stock_count(self, sku: Sku, warehouse: Warehouse, counted: Quantity, reason: Text) -> StockLevel:
        """Correct on-hand stock to a physical count; it cannot drop below what is reserved for orders.

        Args:
            sku: The product's SKU.
            warehouse: The counted warehouse.
            counted: Units physically counted.
            reason: Why the count differs, e.g. damaged goods.
        """
        self._product(sku)
        row = self._stock(sku, warehouse)
        if row is None:
            raise ToolError(f"{sku} is not stocked in {warehouse}; use restock to add it")
        if counted < row["reserved"]:
            raise ToolError(f"{row['reserved']} units of {sku} are reserved in {warehouse}; cancel orders before counting below that")
        self.db["stock"].update(row["id"], on_hand=counted, updated_at=self.now())
        self._move(sku, warehouse, counted - row["on_hand"], "count", reason)
        return self.get_stock(sku, warehouse)[0]

    @tool(read_only=True)
    def list_movements(self, sku: Sku | None = None, warehouse: Warehouse | None = None, limit: Limit = 20,
                       offset: Offset = 0) -> Page[Movement]:
        """The stock ledger (restocks, shipments, counts), newest first.

        Args:
            sku: Only movements of this SKU.
            warehouse: Only movements in this warehouse.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        rows = [m for m in self.db["movements"].ordered(("at", "id"), reverse=True) if (sku is None or m["sku"] == sku) and (warehouse is None or m["warehouse"] == warehouse)]
        return page(rows, limit, offset)

    # -- orders --------------------------------------------------------------------------------
    @tool
    def create_order(self, customer_company: CompanyName, customer_email: Email, lines: list[OrderLineInput],
                     warehouse: Warehouse = "BOS-1") -> Order:
        """Create a pending sales order at catalog prices; stock is checked when it is reserved or shipped.

        Args:
            customer_company: The buying company.
            customer_email: The buyer's email.
            lines: SKUs and quantities (at least one line, each quantity >= 1, each SKU once).
            warehouse: Warehouse that fulfils the order.
        """
        if not lines:
            raise ToolError("an order needs at least one line")
        if len({li["sku"] for li in lines}) != len(lines):
            raise ToolError("each SKU may appear only once per order; combine the quantities")
        items = []
        for li in lines:
            prod = self._product(li["sku"])
            if prod["status"] != "active":
                raise ToolError(f"{prod['sku']} ({prod['name']}) is discontinued")
            if li["quantity"] < 1:
                raise ToolError(f"quantity of {li['sku']} must be at least 1")
            items.append({"sku": li["sku"], "quantity": li["quantity"], "unit_price": prod["unit_price"]})
        return self.db["orders"].insert({"customer_company": customer_company, "customer_email": customer_email, "warehouse": warehouse,
                                          "lines": items, "total": round(sum(i["quantity"] * i["unit_price"] for i in items), 2),
                                          "status": "pending", "tracking_number": None, "created_at": self.now(), "shipped_at": None})

    @tool(read_only=True)
    def search_orders(self, customer_company: CompanyName | None = None, customer_email: Email | None = None,
                      status: OrderStatus | None = None, sku: Sku | None = None, warehouse: Warehouse | None = None,
                      limit: Limit = 20, offset: Offset = 0) -> Page[Order]:
        """Search sales orders, newest first.

        Args:
            customer_company: Only orders of this company (case-insensitive substring).
            customer_email: Only orders of this buyer email.
            status: Only orders in this status.
            sku: Only orders containing this SKU.
            warehouse: Only orders fulfilled from this warehouse.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        email = customer_email.lower() if customer_email else None
        rows = [o for o in self.db["orders"].ordered(("created_at", "id"), reverse=True) if (status is None or o["status"] == status)
                and (warehouse is None or o["warehouse"] == warehouse) and (email is None or o["customer_email"].lower() == email)
                and matches(customer_company, o["customer_company"]) and (sku is None or any(li["sku"] == sku for li in o["lines"]))]
        return page(rows, limit, offset)

    @tool(read_only=True)
    def get_order(self, order_id: OrderId) -> Order:
        """Get one sales order by id.

        Args:
            order_id: The order's id.
        """
        return self.db["orders"].require(order_id)

    @tool
    def reserve_order(self, order_id: OrderId) -> Order:
        """Reserve stock for every line of a pending order; fails if any line is short.

        Args:
            order_id: The pending order.
        """
        order = self.db["orders"].require(order_id)
        if order["status"] != "pending":
            raise ToolError(f"order {order_id} is {order['status']}; only pending orders can be reserved")
        short = self._short(order, held=False)
        if short:
            raise ToolError(f"insufficient stock: {'; '.join(short)}")
        for li in order["lines"]:
            row = self._stock(li["sku"], order["warehouse"])
            self.db["stock"].update(row["id"], reserved=row["reserved"] + li["quantity"], updated_at=self.now())
        return self.db["orders"].update(order_id, status="reserved")

    @tool
    def ship_order(self, order_id: OrderId, tracking_number: str) -> Order:
        """Ship a pending or reserved order: stock leaves the warehouse. Cannot ship more than is in stock.

        Args:
            order_id: The order.
            tracking_number: Carrier tracking number.
        """
        order = self.db["orders"].require(order_id)
        if order["status"] not in ("pending", "reserved"):
            raise ToolError(f"order {order_id} is {order['status']}; only pending or reserved orders can ship")
        held = order["status"] == "reserved"
        short = self._short(order, held=held)
        if short:
            raise ToolError(f"cannot ship more than is in stock: {'; '.join(short)}")
        for li in order["lines"]:
            row = self._stock(li["sku"], order["warehouse"])
            self.db["stock"].update(row["id"], on_hand=row["on_hand"] - li["quantity"],
                                    reserved=row["reserved"] - (li["quantity"] if held else 0), updated_at=self.now())
            self._move(li["sku"], order["warehouse"], -li["quantity"], "ship", f"order {order_id}")
        return self.db["orders"].update(order_id, status="shipped", tracking_number=tracking_number, shipped_at=self.now())

    @tool
    def cancel_order(self, order_id: OrderId) -> Order:
        """Cancel a pending or reserved order, releasing its reservation. Shipped orders cannot be cancelled.

        Args:
            order_id: The order.
        """
        order = self.db["orders"].require(order_id)
        if order["status"] == "shipped":
            raise ToolError(f"order {order_id} has shipped and cannot be cancelled; process a return instead")
        if order["status"] == "cancelled":
            raise ToolError(f"order {order_id} is already cancelled")
        if order["status"] == "reserved":
            for li in order["lines"]:
                row = self._stock(li["sku"], order["warehouse"])
                self.db["stock"].update(row["id"], reserved=max(row["reserved"] - li["quantity"], 0), updated_at=self.now())
        return self.db["orders"].update(order_id, status="cancelled")
