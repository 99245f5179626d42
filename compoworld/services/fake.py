"""Seeded realistic data: one shared world per seed (people, companies, products) that every service
draws from, so an email found in the CRM is also a ticket requester and an invoice recipient.

It makes the traps tasks need: near-duplicate companies (three "Meridian"s), people sharing a name,
stale rows next to their newer replacements, and plenty of irrelevant records.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import Any, Sequence, TypeVar

from compoworld.canonical import format_timestamp

T = TypeVar("T")

FIRST = (
    "Ava Liam Noah Emma Olivia Mia Lucas Amelia Ethan Sofia Mateo Isla Leo Chloe Omar Priya Arjun Mei "
    "Hiro Yuki Lena Jonas Elif Kemal Zara Tariq Nadia Ivan Olga Diego Lucia Rafael Ines Tomas Freya Nils "
    "Grace Samuel Hannah Daniel Aisha Kwame Amara Femi Chen Wei Jia Rosa Marco Giulia Pierre Camille"
).split()
LAST = (
    "Smith Johnson Patel Garcia Nguyen Kim Silva Rossi Muller Schmidt Dubois Martin Okafor Mensah "
    "Tanaka Sato Ivanova Petrov Novak Kowalski Larsen Hansen Costa Alvarez Romero Haddad Khan Ahmed "
    "Chen Wang Li Park Singh Sharma Brown Davis Wilson Taylor Moore Clark Lewis Walker Young Allen"
).split()
COMPANY_A = (
    "Apex Bluebird Cedar Delta Evergreen Falcon Granite Harbor Ironwood Juniper Keystone Lumen Northstar "
    "Orchid Pinnacle Quarry Redwood Summit Tidal Upland Vertex Willow Zenith Aurora Beacon Cobalt Driftwood "
    "Ember Fjord Glacier Horizon Indigo Jasper Kestrel Lighthouse Mosaic Nimbus Onyx Prairie"
).split()
COMPANY_B = (
    "Analytics Logistics Robotics Foods Health Energy Capital Media Labs Systems Retail Bio Motors Studios "
    "Networks Partners Outfitters Pharma Foundry Dynamics"
).split()
SUFFIX = ["Inc", "LLC", "Ltd", "Group", "Co", "GmbH", "SA"]
INDUSTRIES = ["healthcare", "logistics", "retail", "software", "manufacturing", "finance", "education", "energy"]
CITIES = [
    ("Boston", "US"), ("Austin", "US"), ("Denver", "US"), ("Seattle", "US"), ("Toronto", "CA"),
    ("London", "GB"), ("Berlin", "DE"), ("Paris", "FR"), ("Madrid", "ES"), ("Lisbon", "PT"),
    ("Amsterdam", "NL"), ("Dublin", "IE"), ("Singapore", "SG"), ("Tokyo", "JP"), ("Sydney", "AU"),
]
DEPARTMENTS = ["Sales", "Marketing", "Finance", "Engineering", "Support", "Operations", "People", "Legal"]
TITLES = {
    "Sales": ["Account Executive", "Sales Manager", "SDR"],
    "Marketing": ["Marketing Manager", "Content Lead", "Growth Analyst"],
    "Finance": ["Accountant", "Controller", "FP&A Analyst"],
    "Engineering": ["Software Engineer", "Engineering Manager", "SRE"],
    "Support": ["Support Agent", "Support Lead", "CSM"],
    "Operations": ["Ops Manager", "Procurement Specialist", "Office Manager"],
    "People": ["HR Partner", "Recruiter", "People Ops Lead"],
    "Legal": ["Counsel", "Paralegal", "Compliance Officer"],
}
WORDS = (
    "quarterly renewal onboarding migration invoice audit roadmap launch budget forecast pipeline "
    "contract review security training webinar shipment inventory expansion pricing proposal hiring "
    "offsite compliance integration rollout escalation refund feedback survey analytics partnership"
).split()
PRODUCTS = [
    ("Analytics Suite", 1200), ("Starter Plan", 49), ("Pro Plan", 199), ("Enterprise Plan", 2499),
    ("Onboarding Package", 3500), ("Support Add-on", 299), ("Data Connector", 450), ("Training Day", 1800),
    ("API Credits (10k)", 90), ("Storage Pack", 120), ("Security Audit", 5200), ("Custom Report", 750),
]
OUR_COMPANY = "Halcyon Works"
OUR_DOMAIN = "halcyon.io"
NEAR_DUPLICATES = ["Meridian Health Systems", "Meridian Health Partners", "Meridian Healthcare Group"]


@dataclass(frozen=True)
class Person:
    first: str
    last: str
    email: str
    phone: str
    company: str
    title: str
    department: str = ""

    @property
    def name(self) -> str:
        return f"{self.first} {self.last}"


@dataclass(frozen=True)
class Company:
    name: str
    domain: str
    industry: str
    city: str
    country: str


@dataclass(frozen=True)
class World:
    seed: int
    employees: tuple[Person, ...]
    companies: tuple[Company, ...]
    contacts: tuple[Person, ...]
    vendors: tuple[Company, ...]
    products: tuple[tuple[str, int], ...] = field(default=tuple(PRODUCTS))


def _slug(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def _phone(rng: random.Random) -> str:
    return f"+1-{rng.randint(200, 989)}-555-{rng.randint(0, 9999):04d}"


@lru_cache(maxsize=64)
def world(seed: int, scale: float = 1.0) -> World:
    """The shared people and companies of one seed (cached: every service of an env reuses it)."""
    rng = random.Random(f"world/{seed}")
    n_emp, n_co = max(12, int(30 * scale)), max(10, int(24 * scale))
    employees: list[Person] = []
    used: set[str] = set()
    for i in range(n_emp):
        first, last = rng.choice(FIRST), rng.choice(LAST)
        handle = f"{first}.{last}".lower()
        if handle in used:  # same name, different person: a real trap
            handle = f"{handle}{i}"
        used.add(handle)
        dept = DEPARTMENTS[i % len(DEPARTMENTS)]
        employees.append(Person(first, last, f"{handle}@{OUR_DOMAIN}", _phone(rng), OUR_COMPANY, rng.choice(TITLES[dept]), dept))
    names = list(NEAR_DUPLICATES)
    seen = set(names)
    while len(names) < n_co:
        name = f"{rng.choice(COMPANY_A)} {rng.choice(COMPANY_B)}"
        if name not in seen:
            seen.add(name)
            names.append(name)
    rng.shuffle(names)
    companies = []
    for name in names:
        city, country = rng.choice(CITIES)
        tld = {"US": "com", "CA": "ca", "GB": "co.uk", "DE": "de", "FR": "fr"}.get(country, "com")
        companies.append(Company(name, f"{_slug(name)[:18]}.{tld}", rng.choice(INDUSTRIES), city, country))
    contacts = []
    addresses: set[str] = set()
    for co in companies:
        for _ in range(rng.randint(2, 3)):
            first, last = rng.choice(FIRST), rng.choice(LAST)
            email = f"{first[0].lower()}{last.lower()}@{co.domain}"
            if email in addresses:  # one address, one person: Aisha and Arjun Smith are not both asmith@
                email = f"{first.lower()}.{last.lower()}@{co.domain}"
            addresses.add(email)
            contacts.append(
                Person(first, last, email, _phone(rng), co.name,
                       rng.choice(["CFO", "COO", "Head of IT", "Procurement Lead", "VP Operations", "Office Manager"]))
            )
    vendors: list[Company] = []
    for i in range(max(6, int(10 * scale))):
        name = f"{rng.choice(COMPANY_A)} {rng.choice(['Supplies', 'Print', 'Cloud', 'Catering', 'Travel', 'Hardware'])} {SUFFIX[i % len(SUFFIX)]}"
        city, country = rng.choice(CITIES)
        domain = f"{_slug(name)[:16]}.com"
        if any(v.domain == domain for v in vendors):  # one domain, one vendor (names differ only by the suffix)
            continue
        vendors.append(Company(name, domain, "vendor", city, country))
    return World(seed, tuple(employees), tuple(companies), tuple(contacts), tuple(vendors))


class DataGen:
    """Seeded generator handed to `Service.generate`; one per (seed, service), independent of the others."""

    def __init__(self, seed: int, service: str, now: datetime, scale: float = 1.0) -> None:
        self.seed = seed
        self.rng = random.Random(f"{seed}/{service}")
        self.now = now
        self.scale = scale
        self.world = world(seed, scale)

    # sizes ------------------------------------------------------------------------------------
    def n(self, base: int) -> int:
        """A collection size: `base` at scale 1 (task-sized), hundreds at bench scale."""
        return max(1, int(base * self.scale))

    # picks ------------------------------------------------------------------------------------
    def pick(self, items: Sequence[T]) -> T:
        return items[self.rng.randrange(len(items))]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        return self.rng.sample(list(items), min(k, len(items)))

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def int(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def employee(self) -> Person:
        return self.pick(self.world.employees)

    def contact(self) -> Person:
        return self.pick(self.world.contacts)

    def company(self) -> Company:
        return self.pick(self.world.companies)

    def vendor(self) -> Company:
        return self.pick(self.world.vendors)

    def product(self) -> tuple[str, int]:
        return self.pick(self.world.products)

    # values -----------------------------------------------------------------------------------
    def money(self, lo: float, hi: float) -> float:
        return round(self.rng.uniform(lo, hi), 2)

    def words(self, k: int = 3) -> str:
        return " ".join(self.rng.sample(WORDS, k))

    def title(self) -> str:
        return self.words(self.rng.randint(2, 4)).capitalize()

    def sentence(self) -> str:
        w = self.words(self.rng.randint(5, 9))
        return w[0].upper() + w[1:] + "."

    def date(self, days_from: int, days_to: int) -> str:
        """A date offset from today (negative = past)."""
        return (self.now.date() + timedelta(days=self.rng.randint(days_from, days_to))).isoformat()

    def datetime(self, days_from: int, days_to: int, hours: tuple[int, int] = (8, 17)) -> str:
        d = self.now.date() + timedelta(days=self.rng.randint(days_from, days_to))
        t = datetime(d.year, d.month, d.day, self.rng.randint(*hours), self.rng.choice([0, 30]))
        return format_timestamp(t)

    def today(self) -> str:
        return self.now.date().isoformat()


def add_days(day: str, n: int) -> str:
    return (date.fromisoformat(day) + timedelta(days=n)).isoformat()


def days_between(a: str, b: str) -> int:
    return (date.fromisoformat(b) - date.fromisoformat(a)).days


def business_days(start: str, end: str) -> int:
    """Working days from start to end inclusive (Mon-Fri)."""
    d0, d1 = date.fromisoformat(start), date.fromisoformat(end)
    return sum(1 for i in range((d1 - d0).days + 1) if (d0 + timedelta(days=i)).weekday() < 5)


def as_records(rows: Any) -> list[dict[str, Any]]:
    return [dict(r) for r in rows]
