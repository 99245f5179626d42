"""The seeded synthetic world behind compiled services: realistic field values chosen by semantic
type, field name and JSON shape, and topic templates (weather, prices, papers...) that give
outside-world lookups their record fields.

Records are shaped by their family (`FAMILIES`: files, repositories and commits, web results,
weather, quotes and statements, news, tickets, messages, calendar events, contacts, orders,
metrics, places and routes, media and transcripts, deployments, database tables, documents, and
issue 12's second round: logs, images, settings, UI components, prompts, standings, models, courses,
registrations (whois), definitions, scripture, knowledge graphs, CRM engagements, compounds,
processes, endpoints, Shortcuts), chosen from the entity's names (`family_for`): a commit has a commit
message, a ticket a bug title, a file a name its path ends with, and no record gets business filler
from another domain. A topic template (`TOPICS`) gives a record of no declared shape its fields; an
archetype of `NAMED_TOPICS` only when the entity's own words name it (`BROAD_TOPICS`: its names). People,
companies and dates come from the task world (`compoworld.services.cast`): one person per record
(its name, email and phone agree), an employee where the field's role says so (owner, assignee,
author), a customer's contact elsewhere."""

from __future__ import annotations

import json
import random
import re
import zlib
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any, Callable, NamedTuple
from urllib.parse import urlsplit

from compoworld.canonical import format_timestamp, short_hash
from compoworld.services.cast import cast_of, role_of
from compoworld.services.fake import CITIES, COMPANY_A, FIRST, LAST, OUR_COMPANY, WORDS, Person, World
from compoworld.services.world_check import past_field
from compoworld.synthesis.naming import is_plural, singular, snake, words
from compoworld.services.json_schema import fits, json_types, main_type, sample

TICKERS = ["AAPL", "MSFT", "GOOG", "AMZN", "NVDA", "TSLA", "META", "NFLX", "IBM", "ORCL", "BTC", "ETH", "SOL", "ADA"]
# What a ticker names and about where it trades (in USD): a quote of AAPL is Apple's, near 190, not any
# company of the world at any price
BROKERS = ["Morgan Stanley", "Goldman Sachs", "JPMorgan", "Barclays", "UBS", "Wedbush", "Piper Sandler", "Jefferies"]
GRADES = ["Buy", "Overweight", "Outperform", "Hold", "Neutral", "Equal-Weight", "Underweight", "Sell"]
TICKER_INFO: dict[str, tuple[str, float]] = {
    "AAPL": ("Apple Inc.", 190.0), "MSFT": ("Microsoft Corporation", 420.0), "GOOG": ("Alphabet Inc.", 170.0),
    "AMZN": ("Amazon.com, Inc.", 185.0), "NVDA": ("NVIDIA Corporation", 120.0), "TSLA": ("Tesla, Inc.", 240.0),
    "META": ("Meta Platforms, Inc.", 560.0), "NFLX": ("Netflix, Inc.", 690.0), "IBM": ("International Business Machines Corporation", 210.0),
    "ORCL": ("Oracle Corporation", 160.0), "BTC": ("Bitcoin", 67_000.0), "ETH": ("Ethereum", 3_400.0), "SOL": ("Solana", 150.0),
    "ADA": ("Cardano", 0.45), "STRK": ("Starknet", 0.6), "USDC": ("USD Coin", 1.0), "USDT": ("Tether", 1.0), "WBTC": ("Wrapped Bitcoin", 67_000.0),
    "JUP": ("Jupiter", 0.9), "BONK": ("Bonk", 0.00002), "RAY": ("Raydium", 1.8),
    "JPM": ("JPMorgan Chase & Co.", 200.0), "KO": ("The Coca-Cola Company", 62.0), "DIS": ("The Walt Disney Company", 110.0),
    "INTC": ("Intel Corporation", 30.0), "PEP": ("PepsiCo, Inc.", 170.0), "V": ("Visa Inc.", 275.0),
}
# What a listed company is (industry, headquarters, website, employees): the profile of AAPL is Apple's
COMPANY_FACTS: dict[str, tuple[str, str, str, str, int]] = {
    "AAPL": ("Consumer Electronics", "Cupertino", "US", "apple.com", 161_000),
    "MSFT": ("Software - Infrastructure", "Redmond", "US", "microsoft.com", 221_000),
    "GOOG": ("Internet Content & Information", "Mountain View", "US", "abc.xyz", 182_000),
    "AMZN": ("Internet Retail", "Seattle", "US", "amazon.com", 1_525_000),
    "NVDA": ("Semiconductors", "Santa Clara", "US", "nvidia.com", 29_600),
    "TSLA": ("Auto Manufacturers", "Austin", "US", "tesla.com", 140_000),
    "META": ("Internet Content & Information", "Menlo Park", "US", "meta.com", 67_300),
    "NFLX": ("Entertainment", "Los Gatos", "US", "netflix.com", 13_000),
    "IBM": ("Information Technology Services", "Armonk", "US", "ibm.com", 282_000),
    "ORCL": ("Software - Infrastructure", "Austin", "US", "oracle.com", 164_000),
    "JPM": ("Banks - Diversified", "New York", "US", "jpmorganchase.com", 309_000),
    "KO": ("Beverages - Non-Alcoholic", "Atlanta", "US", "coca-colacompany.com", 79_100),
    "DIS": ("Entertainment", "Burbank", "US", "thewaltdisneycompany.com", 225_000),
    "INTC": ("Semiconductors", "Santa Clara", "US", "intel.com", 124_800),
    "PEP": ("Beverages - Non-Alcoholic", "Purchase", "US", "pepsico.com", 318_000),
    "V": ("Credit Services", "San Francisco", "US", "visa.com", 28_800),
}
COMPANY_FACT_FIELDS = {"industry": 0, "sector": 0, "city": 1, "headquarters": 1, "country": 2, "domain": 3, "website": 3,
                       "employees": 4, "full_time_employees": 4, "employee_count": 4}
PRICE_FIELDS = frozenset({"price", "open", "high", "low", "close", "last", "last_price", "current_price", "previous_close", "prev_close",
                          "adj_close", "bid", "ask", "day_high", "day_low", "vwap", "price_usd", "mark_price", "stock_price"})
NAME_FIELDS = frozenset({"name", "company_name", "companyname", "security_name", "long_name", "short_name"})


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def coherent_page(row: dict[str, Any], url: Any, made: dict[str, Any], world: World) -> None:
    """A page fetched by its address is the page the address names: its title and text speak of the
    topic its path names, on the site its host names, not of a page drawn at random."""
    topic, company = made.get("web"), made.get("company")
    if not isinstance(url, str) or not isinstance(topic, str):
        return
    named, owner = page_of(url, world)
    swaps = [(topic, named)] + ([(company.name, owner)] if company is not None and owner else [])
    for k, v in row.items():
        if isinstance(v, str) and k != "url":
            for old, new in swaps:
                v = v.replace(old, new)
            row[k] = v


# where the world's cities are (their centres), so a record about one lies there
CITY_COORDS: dict[str, tuple[float, float]] = {
    "Boston": (42.3601, -71.0589), "Austin": (30.2672, -97.7431), "Denver": (39.7392, -104.9903), "Seattle": (47.6062, -122.3321),
    "Toronto": (43.6532, -79.3832), "London": (51.5074, -0.1278), "Berlin": (52.52, 13.405), "Paris": (48.8566, 2.3522),
    "Madrid": (40.4168, -3.7038), "Lisbon": (38.7223, -9.1393), "Amsterdam": (52.3676, 4.9041), "Dublin": (53.3498, -6.2603),
    "Singapore": (1.3521, 103.8198), "Tokyo": (35.6762, 139.6503), "Sydney": (-33.8688, 151.2093),
}


def coherent_news(row: dict[str, Any], world: Any) -> None:
    """News about a known ticker is about its company: "Quarry Networks reports record revenue" for
    AAPL reads "Apple Inc. reports record revenue"."""
    sym = next((row[k] for k in ("ticker", "symbol") if isinstance(row.get(k), str)), None)
    info = TICKER_INFO.get(sym) if sym else None
    if info is None:
        return
    for k in ("title", "headline", "summary", "description"):
        text = row.get(k)
        if isinstance(text, str):
            co = next((c.name for c in world.companies if text.startswith(c.name)), None)
            if co is not None:
                row[k] = info[0] + text[len(co):]


def coherent_country(row: dict[str, Any]) -> None:
    """A country's code, capital, region, population and currency are the named country's."""
    known = _COUNTRY_BY_NAME.get(str(row.get("name")))
    if known is None or "capital" not in row:
        return
    for field, value in zip(("code", "capital", "region", "population", "currency"), known[1:]):
        if field in row:
            row[field] = value


def coherent_place(row: dict[str, Any]) -> None:
    """A record about a city of the world (its weather, a place in it) lies at that city: its latitude
    and longitude are the city's, not numbers drawn on their own (Berlin's weather was at 41.6, -116.1)."""
    city = next((row[k] for k in ("city", "location", "name") if isinstance(row.get(k), str) and row[k].split(",")[0] in CITY_COORDS), None)
    if city is None:
        return
    lat, lon = CITY_COORDS[city.split(",")[0]]
    for k, v in (("latitude", lat), ("lat", lat), ("longitude", lon), ("lon", lon), ("lng", lon)):
        if isinstance(row.get(k), (int, float)) and not isinstance(row.get(k), bool):
            row[k] = v


REPO_OWNER = "halcyon-works"  # the organisation the world's repositories belong to


def coherent_repo(row: dict[str, Any]) -> None:
    """A record of a repository host (an issue, a pull request, a file) that holds a repository's
    coordinates, `owner` and `repo` as GitHub's tools take them, is in one of the world's repositories:
    `owner` is the organisation and `repo` the repository's name, as its tools are called with (the
    owner had been a person's name, and issues sat in repositories no listing showed)."""
    repo, owner = row.get("repo"), row.get("owner")
    if not isinstance(repo, str) or not isinstance(owner, str):
        return
    name = repo.rsplit("/", 1)[-1]
    if name not in REPOS and name.rsplit("-", 1)[0] not in REPOS:  # a taken key's numbered twin stays itself
        name = REPOS[zlib.crc32(repo.encode()) % len(REPOS)]
    row["repo"], row["owner"] = name, REPO_OWNER
    if isinstance(row.get("full_name"), str):
        row["full_name"] = f"{REPO_OWNER}/{name}"
    if isinstance(row.get("url"), str) and "/" in repo:  # a repository's own page
        row["url"] = f"https://github.com/{REPO_OWNER}/{name}"


_EARNINGS_CALL = re.compile(r"(?:(?<=welcome to the )|^)[A-Z][\w&.' -]*? earnings call")


# The USD value of one unit of a currency, near its market level
USD_VALUE = {"USD": 1.0, "EUR": 1.08, "GBP": 1.27, "JPY": 0.0067, "CHF": 1.12, "CAD": 0.74, "AUD": 0.66, "SGD": 0.74,
             "CNY": 0.14, "INR": 0.012, "BTC": 64000.0, "ETH": 3100.0}
RATE_BASES = ("from_currency", "base_currency", "from_symbol", "source_currency", "from")
RATE_QUOTES = ("to_currency", "quote_currency", "to_symbol", "target_currency", "to")


def coherent_rate(row: dict[str, Any]) -> None:
    """An exchange rate is of the pair its record names, at about the market's level: a record asked
    for with `base_currency="CAD"` is a rate from CAD (Frankfurter's had been CHF to JPY at 414.05)."""
    if not {"base", "quote", "rate"} <= row.keys():
        return
    for fields, side in ((RATE_BASES, "base"), (RATE_QUOTES, "quote")):
        given = next((row[f] for f in fields if isinstance(row.get(f), str) and row[f].upper() in USD_VALUE), None)
        if given is not None:
            row[side] = given.upper()
    base, quote = str(row["base"]).upper(), str(row["quote"]).upper()
    if base not in USD_VALUE or quote not in USD_VALUE:
        return
    if quote == base:
        quote = row["quote"] = next(c for c in ("USD", "EUR") if c != base)
    if isinstance(row["rate"], (int, float)):
        # the same pair, the same rate (and no draw from the seeding stream, which other records share)
        row["rate"] = round(USD_VALUE[base] / USD_VALUE[quote] * rng_for("rate", base, quote).uniform(0.99, 1.01), 6)


# the arguments that name a coin a quote is asked for
COIN_KEYS = ("coin", "coin_id", "crypto_id", "crypto", "cryptocurrency", "coin_symbol", "coin_name")
# a trading pair as exchanges write it: its base asset, then what it is quoted in
_PAIR = re.compile(r"([A-Z]{2,5})[/_-]?(?:USDT|USDC|BUSD|USD|EUR)")


def coherent_quote(row: dict[str, Any], rng: random.Random, given: frozenset[str] = frozenset()) -> None:
    """A record about a known ticker: its name is the ticker's, its prices near where it trades (in USD),
    and a bar's high and low bound its open and close. A quote asked for a coin by name (`coin_id="bitcoin"`)
    is that coin's, and a pair's (`BTCUSDT`) its base asset's; a symbol it was asked for (`given`) stays."""
    asked = next((row[k] for k in COIN_KEYS if isinstance(row.get(k), str)), "")
    ticker = COIN_TICKERS.get(asked.lower()) or (asked.upper() if asked.upper() in TICKER_INFO else None)
    if ticker is not None and isinstance(row.get("symbol"), str) and "symbol" not in given:
        row["symbol"] = ticker
    symbol = row.get("symbol") if isinstance(row.get("symbol"), str) else None
    pair = _PAIR.fullmatch(symbol.upper()) if symbol is not None and symbol not in TICKER_INFO else None
    info = TICKER_INFO.get(pair.group(1) if pair else symbol) if symbol is not None else None
    if info is not None:
        name, base = info
        measure = "unit" in row and "value" in row  # a measure about the ticker (its volume) is named for the measure
        for k, v in row.items():
            low = k.lower()
            if low in PRICE_FIELDS and _is_number(v):
                p = base * (1 + rng.uniform(-0.04, 0.04))
                row[k] = round(p, 2) if base >= 1 else float(f"{p:.6g}")
            elif low in NAME_FIELDS and isinstance(v, str) and not measure:
                row[k] = name
            elif low == "currency" and isinstance(v, str):
                row[k] = "USD"
            elif low in ("change_percent", "changes_percentage", "percent_change", "change_pct") and _is_number(v):
                row[k] = round(rng.uniform(-6, 6), 2)  # a day's move
            elif low == "volume" and _is_number(v):
                row[k] = rng.randint(800_000, 60_000_000)
            elif isinstance(v, str) and " earnings call" in v:  # the call of the company the ticker names
                row[k] = _EARNINGS_CALL.sub(f"{name} earnings call", v)
    facts = COMPANY_FACTS.get(row.get("symbol")) if isinstance(row.get("symbol"), str) else None
    for k, v in row.items() if facts else ():
        at = COMPANY_FACT_FIELDS.get(k.lower())
        if at is not None and isinstance(v, type(facts[at])) and not isinstance(v, bool):
            row[k] = f"https://www.{facts[at]}" if k.lower() == "website" else facts[at]
    bar = [k for k in ("open", "high", "low", "close") if _is_number(row.get(k))]
    if len(bar) == 4:
        row["high"], row["low"] = max(row[k] for k in bar), min(row[k] for k in bar)
    coherent_report(row, rng)


# a coin as APIs like CoinGecko name it, and its ticker
COIN_TICKERS = {"bitcoin": "BTC", "ethereum": "ETH", "solana": "SOL", "cardano": "ADA", "tether": "USDT", "usd-coin": "USDC",
                "wrapped-bitcoin": "WBTC", "starknet": "STRK", "jupiter": "JUP", "bonk": "BONK", "raydium": "RAY"}
# the intervals bars and series are reported at, as exchanges (`1h`, `1wk`) and data vendors (`60min`, `weekly`) name them
INTERVALS = {"1m": timedelta(minutes=1), "5m": timedelta(minutes=5), "15m": timedelta(minutes=15), "30m": timedelta(minutes=30),
             "1h": timedelta(hours=1), "4h": timedelta(hours=4), "1d": timedelta(days=1), "1wk": timedelta(weeks=1),
             "1w": timedelta(weeks=1), "1mo": timedelta(days=30), "1M": timedelta(days=30),
             "1min": timedelta(minutes=1), "5min": timedelta(minutes=5), "15min": timedelta(minutes=15), "30min": timedelta(minutes=30),
             "60min": timedelta(hours=1), "daily": timedelta(days=1), "weekly": timedelta(weeks=1), "monthly": timedelta(days=30),
             "quarterly": timedelta(days=91), "annual": timedelta(days=365),
             # FMP's timeframes ("1min, 5min, 15min, 30min, 1hour, 4hour, 1day")
             "1hour": timedelta(hours=1), "4hour": timedelta(hours=4), "1day": timedelta(days=1), "1week": timedelta(weeks=1),
             "1month": timedelta(days=30)}
CANDLES = 10


def coherent_candles(row: dict[str, Any], rng: random.Random, now: datetime, interval: str | None = None) -> None:
    """A price history is a run of bars ending now, one per interval (a day unless the record says
    another), near where its symbol trades, each bar's high and low bounding its open and close and
    each bar opening where the last one closed."""
    if not isinstance(row.get("candles"), list) or not isinstance(row.get("symbol"), str):
        return
    asked = next((row[k] for k in ("ticker", "pair", "coin") if isinstance(row.get(k), str) and row[k]), None)
    if asked is not None:  # `get_historical_stock_prices(ticker="AAPL")`: the bars are AAPL's, `coin="ethereum"`'s ETH's
        row["symbol"] = COIN_TICKERS.get(asked.lower(), asked.upper() if len(asked) <= 6 else asked)
    given = interval or next((row[k] for k in ("interval", "timeframe") if isinstance(row.get(k), str) and row[k] in INTERVALS), "1d")
    if isinstance(row.get("interval"), str):
        row["interval"] = given
    step = INTERVALS[given]
    info = TICKER_INFO.get(re.split(r"[/\-]", row["symbol"])[0].upper())  # a pair's bars are its base asset's
    price = info[1] if info else round(rng.uniform(5, 400), 2)
    bars = []
    for i in range(CANDLES, 0, -1):
        open_ = price
        close = open_ * (1 + rng.uniform(-0.03, 0.03))
        high, low = max(open_, close) * (1 + rng.uniform(0, 0.01)), min(open_, close) * (1 - rng.uniform(0, 0.01))
        at = now - step * i
        bars.append({"date": at.date().isoformat() if step >= timedelta(days=1) else format_timestamp(at),
                     "open": _price(open_), "high": _price(high), "low": _price(low), "close": _price(close),
                     "volume": rng.randint(800_000, 60_000_000)})
        price = close
    row["candles"] = bars
    if isinstance(row.get("currency"), str):
        row["currency"] = "USD"


def _price(p: float) -> float:
    return round(p, 2) if p >= 1 else float(f"{p:.6g}")


# What a series measures, where its values lie and in what unit, and how often it is reported: an RSI
# is between 0 and 100, WTI near 75 USD a barrel, CPI near 315; a moving average lies at its symbol's price
# (lo, hi = None). (names, label, lo, hi, unit, interval)
SERIES_LEVELS: list[tuple[frozenset[str], str, float | None, float | None, str, str]] = [
    (frozenset({"rsi", "stoch", "stochf", "stochrsi", "mfi", "adx", "adxr", "dx", "di", "ultosc", "aroon"}), "", 15, 85, "index (0-100)", "daily"),
    (frozenset({"willr", "williams", "william"}), "Williams %R", -90, -10, "index (-100-0)", "daily"),
    (frozenset({"stddev", "stdev", "deviation"}), "Standard Deviation", 0.8, 7.5, "USD", "daily"),
    (frozenset({"cci", "cmo", "aroonosc"}), "", -120, 120, "index", "daily"),
    (frozenset({"macd", "macdext", "apo", "ppo", "mom", "roc", "rocr", "trix", "bop"}), "", -4, 4, "", "daily"),
    (frozenset({"atr", "natr", "trange", "dm"}), "", 1, 9, "USD", "daily"),
    (frozenset({"ad", "obv", "adosc"}), "", 2e6, 6e7, "shares", "daily"),
    (frozenset({"sine", "trendmode", "dcperiod", "dcphase", "phasor"}), "", -1, 40, "", "daily"),
    (frozenset({"sma", "ema", "wma", "dema", "tema", "trima", "kama", "mama", "vwap", "t3", "bband", "bbands", "midpoint", "midprice",
                "sar", "trendline", "intraday", "ohlcv"}), "", None, None, "USD", "daily"),
    (frozenset({"oil", "wti", "brent"}), "Crude oil", 68, 84, "USD per barrel", "monthly"),
    (frozenset({"gas"}), "Natural gas", 2.1, 3.8, "USD per MMBtu", "monthly"),
    (frozenset({"copper"}), "Copper", 8_400, 9_600, "USD per metric ton", "monthly"),
    (frozenset({"aluminum", "aluminium"}), "Aluminum", 2_150, 2_550, "USD per metric ton", "monthly"),
    (frozenset({"wheat"}), "Wheat", 205, 255, "USD per metric ton", "monthly"),
    (frozenset({"corn"}), "Corn", 170, 215, "USD per metric ton", "monthly"),
    (frozenset({"cotton"}), "Cotton", 74, 90, "US cents per pound", "monthly"),
    (frozenset({"sugar"}), "Sugar", 18, 24, "US cents per pound", "monthly"),
    (frozenset({"coffee"}), "Coffee", 190, 250, "US cents per pound", "monthly"),
    (frozenset({"gold"}), "Gold", 1_950, 2_450, "USD per troy ounce", "monthly"),
    (frozenset({"silver"}), "Silver", 22, 31, "USD per troy ounce", "monthly"),
    (frozenset({"platinum"}), "Platinum", 880, 1_050, "USD per troy ounce", "monthly"),
    (frozenset({"nickel"}), "Nickel", 15_500, 18_500, "USD per metric ton", "monthly"),
    (frozenset({"soybean", "soybeans"}), "Soybeans", 420, 480, "USD per metric ton", "monthly"),
    (frozenset({"cocoa"}), "Cocoa", 6_000, 8_500, "USD per metric ton", "monthly"),
    (frozenset({"commodity"}), "Global commodity price index", 150, 172, "index (2016=100)", "monthly"),
    (frozenset({"gdp"}), "Real GDP", 22_400, 23_600, "billions of chained 2017 USD", "quarterly"),
    (frozenset({"yield", "treasury"}), "Treasury yield", 3.8, 4.8, "percent", "daily"),
    (frozenset({"rate", "fund", "funds"}), "Federal funds rate", 4.1, 5.3, "percent", "monthly"),
    (frozenset({"cpi"}), "Consumer price index", 305, 322, "index (1982-1984=100)", "monthly"),
    (frozenset({"inflation"}), "Inflation", 2.0, 4.1, "percent", "annual"),
    (frozenset({"unemployment"}), "Unemployment rate", 3.6, 4.4, "percent", "monthly"),
    (frozenset({"payroll", "nonfarm"}), "Nonfarm payroll", 157_000, 160_000, "thousands of persons", "monthly"),
    (frozenset({"retail", "sales", "sale"}), "Retail sales", 600_000, 720_000, "millions of USD", "monthly"),
    (frozenset({"durable", "durables"}), "Durable goods orders", 260_000, 300_000, "millions of USD", "monthly"),
]
# What a technical indicator is called, as Alpha Vantage names it in its answers ("Balance Of Power (BOP)")
INDICATOR_NAMES = {
    "sma": "Simple Moving Average (SMA)", "ema": "Exponential Moving Average (EMA)", "wma": "Weighted Moving Average (WMA)",
    "dema": "Double Exponential Moving Average (DEMA)", "tema": "Triple Exponential Moving Average (TEMA)",
    "trima": "Triangular Moving Average (TRIMA)", "kama": "Kaufman Adaptive Moving Average (KAMA)",
    "mama": "MESA Adaptive Moving Average (MAMA)", "vwap": "Volume Weighted Average Price (VWAP)", "t3": "Triple Exponential Moving Average (T3)",
    "macd": "Moving Average Convergence/Divergence (MACD)", "macdext": "MACD with Controllable MA Type (MACDEXT)",
    "stoch": "Stochastic (STOCH)", "stochf": "Stochastic Fast (STOCHF)", "rsi": "Relative Strength Index (RSI)",
    "stochrsi": "Stochastic Relative Strength Index (STOCHRSI)", "willr": "Williams' %R (WILLR)",
    "adx": "Average Directional Movement Index (ADX)", "adxr": "Average Directional Movement Index Rating (ADXR)",
    "apo": "Absolute Price Oscillator (APO)", "ppo": "Percentage Price Oscillator (PPO)", "mom": "Momentum (MOM)",
    "bop": "Balance Of Power (BOP)", "cci": "Commodity Channel Index (CCI)", "cmo": "Chande Momentum Oscillator (CMO)",
    "roc": "Rate of change (ROC)", "rocr": "Rate of change ratio (ROCR)", "aroon": "Aroon (AROON)", "aroonosc": "Aroon Oscillator (AROONOSC)",
    "mfi": "Money Flow Index (MFI)", "trix": "Triple Smooth EMA Rate of Change (TRIX)", "ultosc": "Ultimate Oscillator (ULTOSC)",
    "dx": "Directional Movement Index (DX)", "di": "Directional Indicator (DI)", "dm": "Directional Movement (DM)",
    "sar": "Parabolic SAR (SAR)", "midpoint": "MidPoint (MIDPOINT)", "midprice": "MidPrice (MIDPRICE)",
    "atr": "Average True Range (ATR)", "natr": "Normalized Average True Range (NATR)", "trange": "True Range (TRANGE)",
    "ad": "Chaikin A/D Line (AD)", "adosc": "Chaikin A/D Oscillator (ADOSC)", "obv": "On Balance Volume (OBV)",
}
# The commodities a list of commodities names, one per record (not each the same price index)
COMMODITY_LEVELS = [lv for lv in SERIES_LEVELS if lv[4].startswith(("USD per", "US cents per"))]


def coherent_series(row: dict[str, Any], rng: random.Random, now: datetime, entity: str, interval: str | None = None,
                    n: int | None = None) -> None:
    """A dated series is a run of points ending now at the interval it is reported at, with values where
    what it measures lies (an RSI between 0 and 100, WTI near 75 USD a barrel, a moving average of a
    ticker near where the ticker trades), named for what it measures. Record `n` of a collection of
    commodities is the `n`th commodity."""
    if not isinstance(row.get("data"), list):
        return
    said = {singular(w) for w in words(entity)} | set(words(entity))
    level = next((lv for lv in SERIES_LEVELS if lv[0] & said), None)
    if level is None:
        return
    if level[0] == {"commodity"} and n is not None:
        level = COMMODITY_LEVELS[n % len(COMMODITY_LEVELS)]
    _, label, lo, hi, unit, level_interval = level
    if lo is None or hi is None:  # a price-level indicator: where its symbol trades
        info = TICKER_INFO.get(str(row.get("symbol") or "").upper())
        base = info[1] if info else 150.0
        lo, hi = base * 0.94, base * 1.06
    given = interval or str(row.get("interval") or "")
    interval = given if given in INTERVALS else level_interval
    if "interval" in row:
        row["interval"] = interval
    if "unit" in row:
        row["unit"] = unit or "value"
    if "name" in row and isinstance(row["name"], str):
        row["name"] = label or INDICATOR_NAMES.get(entity, entity.upper())
    step, value, points = INTERVALS[interval], rng.uniform(lo, hi), []
    for i in range(CANDLES, 0, -1):
        value = min(hi, max(lo, value + rng.uniform(-0.08, 0.08) * (hi - lo)))
        at = now - step * i
        points.append({"date": at.date().isoformat() if step >= timedelta(days=1) else format_timestamp(at),
                       "value": round(value, 4) if hi - lo < 10 else round(value, 2)})
    row["data"] = points


SPLIT_RATIOS = [(2, 1), (3, 1), (4, 1), (3, 2), (10, 1), (1, 10), (20, 1)]


def coherent_record(row: dict[str, Any], rng: random.Random, ctx: "ValueContext", entity: str, n: int,
                    given: frozenset[str] = frozenset()) -> None:
    """A record, seeded or derived, agrees with what the world knows of what it names: a ticker's quote,
    bars, indicator points, coin facts and news, a player's statistic, a city's coordinates. The fields
    it was looked up by (`given`) keep the values asked for."""
    if ctx.family != "exchange":  # an exchange's pairs trade at their pair's level (`coherent_pair`), not a stock's
        coherent_quote(row, rng, given)
    coherent_rate(row)
    coherent_candles(row, rng, ctx.now)
    coherent_series(row, rng, ctx.now, entity, n=n)
    coherent_token(row)
    coherent_gas(row)
    coherent_stat(row, rng, n)
    coherent_news(row, ctx.world)
    coherent_place(row)
    coherent_country(row)
    coherent_run(row, rng)
    coherent_span(row, rng, ctx.family)
    coherent_listing(row, rng, n)
    if ctx.family == "game_character":
        coherent_character(row)
    if ctx.family == "exchange":
        coherent_pair(row, n)
    if ctx.family == "solana" and isinstance(row.get("address"), str) and "pubkey" in row:
        row["pubkey"] = row["address"]  # `getAccountInfo(address)`: that account's key
    if ctx.family == "solana" and isinstance(row.get("slot"), int) and not isinstance(row["slot"], bool):
        for k, v in (("parent_slot", row["slot"] - 1), ("block_height", row["slot"] - 20_000_000), ("epoch", row["slot"] // 432_000)):
            if isinstance(row.get(k), int) and k != "epoch" or (k == "epoch" and "slot_index" in row):
                row[k] = v  # a block's parent and height are its slot's


def coherent_pair(row: dict[str, Any], n: int) -> None:
    """A record of the pair a tool was asked about (`get_trades(symbol="DOGE/USDT")`) trades at that
    pair's level: its prices, order book levels and cost are scaled from the level it was made at."""
    made_at = PAIRS[n % len(PAIRS)][2]
    level = pair_price(row.get("symbol"))
    if level is None and isinstance(row.get("symbol"), str):  # a pair not listed: a level of its own, the same in every record
        level = PAIRS[int(short_hash(row["symbol"], 8), 16) % len(PAIRS)][2]
    if level is None or level == made_at:
        return
    scale = level / made_at
    for k in ("price", "entry_price", "mark_price", "unrealized_pnl"):
        if _is_number(row.get(k)) and not isinstance(row[k], bool):
            row[k] = float(f"{row[k] * scale:.6g}")
    for k in ("bids", "asks"):
        if isinstance(row.get(k), list):
            row[k] = [[float(f"{lvl[0] * scale:.6g}"), *lvl[1:]] if isinstance(lvl, list) and lvl and _is_number(lvl[0]) else lvl for lvl in row[k]]
    if _is_number(row.get("cost")) and _is_number(row.get("price")) and _is_number(row.get("amount")):
        row["cost"] = round(row["price"] * row["amount"], 2)


def coherent_character(row: dict[str, Any]) -> None:
    """A record of the champion a tool was asked about (`lol_champion_analysis(champion="EKKO")`) is
    that champion's: its name is the one asked, not another of the roster."""
    asked = next((row[k] for k in ("champion", "hero", "character", "agent") if isinstance(row.get(k), str) and row[k]), None)
    if asked is not None and "name" in row:
        row["name"] = asked.title() if asked.isupper() else asked


SPANS = [("start", "end"), ("starts_at", "ends_at"), ("start_time", "end_time"), ("start_at", "end_at"), ("begin", "end")]


def coherent_span(row: dict[str, Any], rng: random.Random, family: str) -> None:
    """An event's end follows its start: a meeting lasts half an hour to two hours, not the months two
    dates drawn apart would give it (Google Calendar's events had ended four months after they began)."""
    for a, b in SPANS:
        start, end = row.get(a), row.get(b)
        if not (isinstance(start, str) and isinstance(end, str) and start.endswith("Z") and end.endswith("Z") and "T" in start):
            continue
        began = datetime.fromisoformat(start.replace("Z", "+00:00"))
        ended = datetime.fromisoformat(end.replace("Z", "+00:00"))
        if family == "event" or ended <= began:
            row[b] = format_timestamp(began + timedelta(minutes=rng.choice([30, 45, 60, 60, 90, 120])))
        return


def coherent_run(row: dict[str, Any], rng: random.Random) -> None:
    """A run of a workflow lasts minutes, not the weeks two dates drawn apart would give it."""
    start, end = row.get("started_at"), row.get("ended_at")
    if row.get("state") in RUN_STATES and isinstance(start, str) and isinstance(end, str) and start.endswith("Z"):
        began = datetime.fromisoformat(start.replace("Z", "+00:00"))
        row["ended_at"] = format_timestamp(began + timedelta(minutes=rng.randint(2, 95)))


# (symbol, company) of listings to come
IPOS = [("ALAB", "Astera Labs, Inc."), ("RDDT", "Reddit, Inc."), ("CART", "Maplebear Inc."), ("BIRK", "Birkenstock Holding plc"),
        ("KVYO", "Klaviyo, Inc."), ("ARM", "Arm Holdings plc"), ("CAVA", "CAVA Group, Inc."), ("ONON", "On Holding AG")]


def coherent_listing(row: dict[str, Any], rng: random.Random, n: int) -> None:
    """An IPO is a new company's, on an exchange, at a price range; an earnings announcement's results
    lie near its estimates."""
    if "price_range" in row and "symbol" in row:
        symbol, company = IPOS[n % len(IPOS)]
        low = rng.randint(12, 40)
        row.update({"symbol": symbol, "price_range": f"{low:.2f}-{low + 2:.2f}"})
        for k in ("company", "name"):
            if k in row:
                row[k] = company
        if "exchange" in row:
            row["exchange"] = ("NASDAQ", "NYSE")[n % 2]
        if _is_number(row.get("shares")):
            row["shares"] = rng.randint(5, 40) * 1_000_000
    if _is_number(row.get("eps_estimated")):
        row["eps_estimated"] = round(rng.uniform(0.2, 4.5), 2)
        if _is_number(row.get("eps_actual")):
            row["eps_actual"] = round(row["eps_estimated"] * rng.uniform(0.85, 1.15), 2)
    if isinstance(row.get("date"), str) and isinstance(row.get("fiscal_date_ending"), str) and "eps_estimated" in row:
        announced = datetime.fromisoformat(row["date"][:10])  # a quarter is announced some weeks after it ends
        row["fiscal_date_ending"] = (announced - timedelta(days=rng.randint(20, 45))).date().isoformat()
    if _is_number(row.get("revenue_estimated")) and _is_number(row.get("revenue_actual")):
        row["revenue_actual"] = round(row["revenue_estimated"] * rng.uniform(0.95, 1.06), 2)


# the letter an ESG score earns (MSCI's scale, from leader to laggard)
ESG_GRADES = [(75.0, "AAA"), (68.0, "AA"), (60.0, "A"), (52.0, "BBB"), (44.0, "BB"), (36.0, "B"), (0.0, "CCC")]


def coherent_report(row: dict[str, Any], rng: random.Random) -> None:
    """A statement's lines add up (gross profit within revenue, net income within operating income,
    assets are liabilities plus equity, free cash flow is operating cash flow less capital
    expenditure), a dividend is paid after its record date, which follows its ex-date, and a split
    has a split's ratio."""
    def number(k: str) -> bool:
        return _is_number(row.get(k))

    if all(number(k) for k in ("revenue", "gross_profit", "operating_income", "net_income")):
        revenue = abs(row["revenue"])
        row["gross_profit"] = round(revenue * rng.uniform(0.3, 0.7), 2)
        row["operating_income"] = round(row["gross_profit"] * rng.uniform(0.3, 0.8), 2)
        row["net_income"] = round(row["operating_income"] * rng.uniform(0.6, 0.9), 2)
        if number("eps"):
            row["eps"] = round(row["net_income"] / rng.uniform(2e8, 1.6e10), 2)
    if all(number(k) for k in ("total_assets", "total_liabilities", "total_equity")):
        row["total_equity"] = round(abs(row["total_assets"]) * rng.uniform(0.2, 0.6), 2)
        row["total_liabilities"] = round(abs(row["total_assets"]) - row["total_equity"], 2)
    if all(number(k) for k in ("operating_cash_flow", "capital_expenditure", "free_cash_flow")):
        row["capital_expenditure"] = round(abs(row["operating_cash_flow"]) * rng.uniform(0.1, 0.5), 2)
        row["free_cash_flow"] = round(abs(row["operating_cash_flow"]) - row["capital_expenditure"], 2)
    pillars = ("environmental_score", "social_score", "governance_score")
    if all(number(k) for k in pillars):
        for k in pillars:
            row[k] = round(rng.uniform(25, 85), 2)
        mean = sum(row[k] for k in pillars) / 3
        if number("esg_score"):
            row["esg_score"] = round(mean, 2)
        if isinstance(row.get("esg_rating"), str):
            row["esg_rating"] = next(grade for floor, grade in ESG_GRADES if mean >= floor)
    days = [k for k in ("ex_date", "record_date", "payment_date") if isinstance(row.get(k), str) and len(row[k]) == 10]
    if len(days) == 3:
        ex = datetime.fromisoformat(row["ex_date"])
        row["record_date"] = (ex + timedelta(days=1)).date().isoformat()
        row["payment_date"] = (ex + timedelta(days=rng.randint(14, 30))).date().isoformat()
    if number("dcf") and number("stock_price"):
        row["dcf"] = round(row["stock_price"] * rng.uniform(0.75, 1.3), 2)  # a value per share near where the stock trades
    if number("numerator") and number("denominator"):
        row["numerator"], row["denominator"] = rng.choice(SPLIT_RATIOS)


CURRENCIES = ["USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "SGD"]
LANGUAGES = ["python", "typescript", "javascript", "go", "rust", "java"]
HUMAN_LANGUAGES = ["en", "en", "en", "es", "de", "fr", "pt"]
CODE_WORDS = frozenset({"code", "snippet", "repo", "repository", "package", "library", "function", "script", "gist", "sdk", "npm", "pypi",
                        "compiler", "lint", "linter", "syntax", "programming", "developer", "github", "gitlab", "ide", "ast", "component",
                        "interpreter", "runtime", "framework", "module"})


def _about_code(c: "ValueContext") -> bool:
    """Whether a record's `language` is a programming language: the record or its service is about code
    (a repository, a snippet, an SDK); otherwise it is a reader's (Quran.com's reciters had been in "rust")."""
    return c.family in ("repo", "component") or bool(set(words(c.entity)) & CODE_WORDS) or bool(c.scope & CODE_WORDS)
CONDITIONS = ["sunny", "partly cloudy", "cloudy", "light rain", "rain", "thunderstorm", "snow", "fog", "windy"]
GENRES = ["drama", "comedy", "documentary", "science fiction", "thriller", "animation", "history", "jazz", "rock"]
COLORS = ["red", "green", "blue", "orange", "purple", "teal", "black", "white"]
TIMEZONES = ["UTC", "America/New_York", "Europe/London", "Europe/Berlin", "Asia/Tokyo", "Asia/Singapore", "Australia/Sydney"]
EXTS = ["md", "txt", "json", "csv", "py", "pdf", "docx"]
SOURCES = ["Reuters", "AP News", "BBC", "The Verge", "TechCrunch", "Nature", "Bloomberg"]
LICENSES = ["MIT", "Apache-2.0", "BSD-3-Clause", "GPL-3.0", "MPL-2.0"]
RELATION_TYPES = ["works_with", "reports_to", "manages", "knows", "mentors"]
CATEGORIES = ["general", "standard", "featured", "archived", "other"]  # no domain's words in a record of any domain


def rng_for(*parts: Any) -> random.Random:
    """A generator that depends only on `parts` (stable across processes and Python hash seeds)."""
    return random.Random(short_hash("\x1f".join(str(p) for p in parts), 64))


# -- topic templates: fields a record of an outside-world lookup carries ------------------------

F = tuple[str, str | None, dict[str, Any]]  # (field name, semantic type, shape)
S, N, I, B = {"type": "string"}, {"type": "number"}, {"type": "integer"}, {"type": "boolean"}
SA = {"type": "array", "items": {"type": "string"}}

TOPICS: list[tuple[str, tuple[str, ...], list[F]]] = [
    ("weather", ("weather", "forecast", "temperature", "climate", "rain", "wind", "humidity", "meteo"),
     [("temperature_c", None, N), ("conditions", "category", S), ("humidity", "percent", I), ("wind_kph", None, N), ("observed_at", "datetime", S)]),
    ("price", ("price", "stock", "ticker", "quote", "crypto", "coin", "market", "token", "trading", "ohlc", "candle", "share", "trade", "gainer", "loser", "mover"),
     [("symbol", "code", S), ("price", "money", N), ("currency", "currency", S), ("change_percent", None, N), ("volume", "quantity", I), ("as_of", "datetime", S)]),
    # what analysts say of a stock: a broker's grade, or the consensus estimate of a period
    ("grade", ("grade", "upgrade", "downgrade"),
     [("symbol", "code", S), ("date", "date", S), ("grading_company", None, S), ("previous_grade", None, S), ("new_grade", None, S), ("action", None, S)]),
    # a discounted-cash-flow valuation of a stock (FMP's `getDCFValuation`): the value per share it implies beside the price
    ("dcf", ("dcf", "discounted"),
     [("symbol", "code", S), ("date", "date", S), ("dcf", None, N), ("stock_price", "money", N), ("currency", "currency", S)]),
    ("estimate", ("estimate", "consensus"),
     [("symbol", "code", S), ("date", "date", S), ("period", None, S), ("revenue_avg", None, N), ("eps_avg", None, N), ("analysts", None, I)]),
    ("market_cap", ("cap", "capitalization"), [("symbol", "code", S), ("date", "date", S), ("market_cap", None, N)]),
    ("emoji", ("emoji", "emoticon"),
     [("emoji", None, S), ("name", "title", S), ("category", None, S), ("group", None, S), ("unicode", None, S), ("html_code", None, S)]),
    ("rate", ("exchange", "rate", "forex", "fx", "conversion"),
     [("base", "currency", S), ("quote", "currency", S), ("rate", None, N), ("as_of", "datetime", S)]),
    ("news", ("news", "article", "headline", "story", "stories", "post", "blog", "feed", "trending", "hot", "hotspot", "hotspots", "rss"),
     [("title", "title", S), ("source", "company_name", S), ("url", "url", S), ("published_at", "datetime", S), ("summary", "text", S), ("author", "person_name", S)]),
    ("paper", ("paper", "publication", "arxiv", "pubmed", "research", "citation", "scholar", "journal", "study", "preprint", "biorxiv",
               "medrxiv", "chemrxiv", "scihub", "ssrn"),
     [("title", "title", S), ("authors", None, SA), ("year", None, I), ("abstract", "text", S), ("url", "url", S), ("citations", "quantity", I)]),
    ("package", ("repo", "repository", "package", "library", "crate", "gem", "npm", "pypi", "module", "plugin", "extension", "project"),
     [("name", "title", S), ("description", "text", S), ("version", "code", S), ("url", "url", S), ("stars", "quantity", I), ("license", "category", S)]),
    # a team's project (Plane, Linear, OpenProject, a Godot or QGIS project): after `package`, which keeps a
    # code host's projects; only for entities named so (a description's "in your project" makes none)
    ("project", ("project", "initiative"),
     [("name", "title", S), ("key", None, S), ("description", "text", S), ("status", None, S), ("lead", "person_name", S),
      ("created_at", "datetime", S)]),
    ("company", ("company", "organization", "organisation", "business", "org", "brand", "vendor", "competitor", "startup"),
     [("name", "company_name", S), ("domain", None, S), ("industry", "category", S), ("city", "city", S), ("country", "country", S), ("employees", "quantity", I)]),
    ("product", ("product", "item", "listing", "offer", "deal", "shop", "catalog", "sku", "inventory"),
     [("name", "title", S), ("price", "money", N), ("currency", "currency", S), ("rating", None, N), ("url", "url", S), ("in_stock", "flag", B)]),
    ("place", ("location", "place", "address", "geocode", "coordinate", "poi", "restaurant", "hotel", "venue", "map", "route", "direction", "city", "country", "airport", "station",
               "attraction", "accommodation", "lodging", "elevation", "geolocate", "geolocation", "traveler", "airbnb", "shelter", "postal"),
     [("name", "title", S), ("address", "address", S), ("city", "city", S), ("country", "country", S), ("latitude", None, N), ("longitude", None, N), ("rating", None, N)]),
    ("media", ("movie", "film", "show", "book", "game", "song", "track", "album", "video", "podcast", "episode", "anime", "music", "channel", "playlist"),
     [("title", "title", S), ("year", None, I), ("genre", "category", S), ("rating", None, N), ("creator", "person_name", S), ("url", "url", S)]),
    ("event", ("event", "meeting", "appointment", "calendar", "schedule", "match", "fixture", "race", "session", "concert"),
     [("title", "title", S), ("starts_at", "datetime", S), ("ends_at", "datetime", S), ("location", "location", S), ("status", "status", S)]),
    ("folder", ("folder", "directory", "dir"), [("path", "file_path", S), ("name", "title", S), ("item_count", None, I), ("modified_at", "datetime", S)]),
    # a page of a website, as a fetcher, a scraper or a browser reads it: its own title, address and text
    ("webpage", ("webpage", "website", "html", "url", "scrape", "crawl", "browser", "site", "markdown", "web"),
     [("title", "title", S), ("url", "url", S), ("content", "text", S), ("fetched_at", "datetime", S)]),
    ("document", ("document", "doc", "page", "file", "note", "wiki", "content", "documentation", "guide", "manual", "help", "text", "snippet", "example", "spec", "schema", "readme"),
     [("title", "title", S), ("content", "text", S), ("path", "file_path", S), ("updated_at", "datetime", S)]),
    # archetypes of records a lookup answers about things of its own domain (issue 12: entities of no
    # other family answered only a name and a value)
    ("task", ("task", "todo", "ticket", "issue", "bug", "backlog", "milestone", "sprint", "goal"),
     [("title", "title", S), ("status", "status", S), ("priority", None, I), ("assignee", "person_name", S), ("due_date", "date", S)]),
    ("message", ("message", "email", "mail", "inbox", "chat", "dm", "sms", "conversation", "thread", "reply", "comment"),
     [("subject", "title", S), ("sender", "person_name", S), ("recipient", "email", S), ("body", "text", S), ("sent_at", "datetime", S)]),
    ("order", ("order", "invoice", "payment", "charge", "refund", "purchase", "checkout", "cart", "subscription", "billing"),
     [("order_number", None, S), ("customer", "person_name", S), ("total", "money", N), ("currency", "currency", S), ("status", "status", S), ("ordered_at", "datetime", S)]),
    # an orchestrator's workflow (an Airflow DAG, a Prefect flow) and one run of it: a schedule and an
    # owner, a state and a span of time (not a document "Dag 6, as recorded.")
    ("workflow", ("dag", "workflow", "flow", "pipeline"),
     [("name", "title", S), ("description", "text", S), ("schedule", None, S), ("is_paused", None, B), ("owner", "person_name", S),
      ("tags", None, SA), ("next_run_at", "datetime", S)]),
    ("run", ("run", "dagrun", "execution"),
     [("run_id", None, S), ("state", None, S), ("trigger", None, S), ("started_at", "datetime", S), ("ended_at", "datetime", S)]),
    # a server or cloud resource (not a node of a scene or a graph, not an OS process)
    ("resource", ("server", "instance", "cluster", "container", "pod", "device", "host", "machine", "vm", "simulator",
                  "deployment", "namespace", "environment", "database", "db", "bucket", "volume", "tunnel", "connection", "resource"),
     [("name", "title", S), ("state", None, S), ("host", None, S), ("version", "code", S), ("region", None, S), ("started_at", "datetime", S)]),
    ("log", ("log", "console", "stdout", "stderr", "trace", "audit", "journal", "output", "error", "history"),
     [("level", None, S), ("message", "text", S), ("source", None, S), ("logged_at", "datetime", S)]),
    ("image", ("image", "photo", "picture", "screenshot", "icon", "thumbnail", "avatar", "logo", "qrcode", "qr"),
     [("filename", None, S), ("width", None, I), ("height", None, I), ("format", None, S), ("size_bytes", None, I)]),
    # a dated series of values: economic and technical indicators, commodity prices
    ("series", ("indicator", "average", "moving", "oscillator", "series", "intraday", "gdp", "inflation", "unemployment", "cpi",
                "commodity", "treasury", "yield", "sma", "ema", "rsi", "macd", "timeseries", "ohlcv", "momentum", "trendline",
                "hilbert", "payroll", "nonfarm", "crude", "oil", "wti", "brent", "copper", "aluminum", "wheat", "corn", "cotton",
                "sugar", "coffee", "aroon", "williams", "parabolic", "sar", "midpoint", "midprice", "accumulation", "adx", "atr", "obv",
                "cci", "stochastic", "bbands", "vwap", "wma", "dema", "tema", "trix"),
     [("name", "title", S), ("interval", None, S), ("unit", None, S),
      ("data", None, {"type": "array", "items": {"type": "object", "properties": {"date": S, "value": N}}})]),
    ("standing", ("standing", "leaderboard", "ranking", "rank", "league", "tier"),
     [("position", None, I), ("team", None, S), ("played", None, I), ("wins", None, I), ("losses", None, I), ("points", None, I)]),
    # who may do what to an object (EduBase's 30 class, course and quiz permission tools): a user and a
    # level, not a news story because the tools' HTTP verb is "post"
    ("permission", ("permission", "grant", "acl"), [("user", None, S), ("permission", None, S), ("granted_at", "datetime", S)]),
    # whether a chat's contact is online (WAHA's `PresenceController_getPresence`): no event with a start and a location
    ("presence", ("presence",), [("chat_id", None, S), ("presence", None, S), ("last_seen", "datetime", S)]),
    # a text-to-speech voice (ElevenLabs' `get_voice`), an ML experiment over a dataset (Arize Phoenix,
    # MLflow) and a remembered fact (a memory server's entries): they had been "Voice 6, as recorded."
    ("voice", ("voice",), [("name", "title", S), ("gender", None, S), ("accent", None, S), ("category", None, S), ("description", "text", S)]),
    ("experiment", ("experiment",), [("name", "title", S), ("dataset", None, S), ("status", None, S), ("example_count", None, I),
                                     ("accuracy", None, N), ("created_at", "datetime", S)]),
    ("memory", ("memory", "memories"), [("content", "text", S), ("tags", None, SA), ("created_at", "datetime", S)]),
    # an installed or monitored piece of software (Raygun's applications, a phone's apps)
    ("app", ("app", "application"), [("name", "title", S), ("package_name", None, S), ("version", "code", S), ("platform", None, S)]),
    ("version", ("version", "changelog"),
     [("version", "code", S), ("released_at", "date", S), ("commit", None, S)]),
    ("table", ("table", "row", "column", "collection", "dataset", "sheet", "spreadsheet", "sql"),
     [("table", None, S), ("columns", None, SA), ("row_count", None, I)]),
    ("definition", ("definition", "dictionary", "word", "synonym", "antonym", "rhyme", "thesaurus", "pronunciation"),
     [("word", None, S), ("part_of_speech", None, S), ("definition", None, S), ("example", None, S)]),
    ("scripture", ("verse", "quran", "surah", "ayah", "juz", "bible", "scripture", "ruku", "manzil", "maqra", "recitation"),
     [("reference", None, S), ("text", "text", S), ("edition", None, S), ("language", None, S)]),
    ("graph", ("graph", "relation", "observation"),
     [("name", "title", S), ("entity_type", None, S), ("observations", None, SA), ("relations", None, SA)]),
    ("process", ("process", "pid"),
     [("pid", None, I), ("command", None, S), ("cpu_percent", None, N), ("memory_mb", None, N), ("started_at", "datetime", S)]),
    ("scan", ("scan",),
     [("target", None, S), ("started_at", "datetime", S), ("finished_at", "datetime", S), ("findings_count", None, I)]),
    ("tab", ("tab",),
     [("title", "title", S), ("url", "url", S), ("active", None, B)]),
    ("endpoint", ("endpoint",),
     [("method", None, S), ("path", None, S), ("summary", "text", S)]),
    ("availability", ("availability",),
     [("available", None, B), ("checked_at", "datetime", S)]),
    ("shortcut", ("shortcut",),
     [("name", "title", S), ("action_count", None, I), ("folder", None, S)]),
    ("tag", ("tag", "label", "hashtag", "category"),
     [("name", "title", S), ("usage_count", None, I)]),
    ("engagement", ("engagement", "activity", "interaction"),
     [("activity_type", None, S), ("subject", "title", S), ("contact", "person_name", S), ("owner", "person_name", S), ("occurred_at", "datetime", S)]),
    ("compound", ("compound", "substance", "molecule", "chemical", "smiles"),
     [("name", "title", S), ("formula", None, S), ("molecular_weight", None, N), ("smiles", None, S)]),
    ("registry", ("whois", "tld", "registrar", "asn", "dns"),  # a domain's or a network's registration
     [("registrar", None, S), ("organization", "company_name", S), ("country", "country", S), ("registered_at", "date", S)]),
    ("model", ("model", "llm", "embedding", "checkpoint"),
     [("name", "title", S), ("provider", None, S), ("context_window", None, I), ("released_at", "date", S)]),
    # work a course sets (Canvas's and Gradescope's assignments, a school's deadlines): due on a day, worth points
    ("assignment", ("assignment", "homework", "coursework", "deadline"),
     [("title", "title", S), ("due_at", "datetime", S), ("points_possible", None, I),
      ("submission_type", None, S), ("description", "text", S)]),
    ("course", ("course", "lesson", "lecture", "curriculum", "classroom", "enrollment"),
     [("title", "title", S), ("instructor", "person_name", S), ("start_date", "date", S), ("credits", None, I), ("enrolled", None, I)]),
    ("scene", ("scene",),
     [("name", "title", S), ("object_count", None, I), ("modified_at", "datetime", S)]),
    ("config", ("config", "configuration", "setting", "preference", "variable", "env", "option", "flag"),
     [("setting", None, S), ("value", None, S), ("scope", None, S), ("updated_at", "datetime", S)]),
    ("component", ("component", "widget", "element", "ui", "block"),
     [("name", "title", S), ("import_path", None, S), ("example", None, S), ("description", "text", S)]),
    ("prompt", ("prompt", "template", "instruction"),
     [("name", "title", S), ("template", None, S), ("description", "text", S)]),
    # what an account or wallet holds of one asset (not a transfer: no hash, no sender)
    ("balance", ("balance", "holding"),
     [("symbol", "code", S), ("balance", "money", N), ("as_of", "datetime", S)]),
    # a non-fungible token: one numbered item of a collection, owned by an address, described at its URI
    ("nft", ("nft", "erc721", "erc1155", "collectible"),
     [("token_id", None, S), ("name", "title", S), ("collection", None, S), ("contract_address", "address", S),
      ("owner_address", "address", S), ("token_uri", None, S)]),
    ("chain", ("transaction", "block", "wallet", "gas", "contract", "nft", "chain", "address", "defi", "pool", "swap", "transfer"),
     [("hash", "code", S), ("amount", "money", N), ("symbol", "code", S), ("from_address", None, S), ("to_address", None, S), ("timestamp", "datetime", S)]),
    # a service's or a cluster's health is a state with its checks, not a measurement in ms
    ("health", ("health", "healthcheck", "heartbeat", "uptime", "liveness", "readiness"),
     [("status", None, S), ("version", None, S), ("uptime_seconds", None, I), ("summary", "text", S), ("checked_at", "datetime", S)]),
    ("metric", ("metric", "stat", "statistic", "analytics", "usage", "score", "count", "index", "indicator", "report", "summary", "status", "health", "performance"),
     [("name", "title", S), ("value", None, N), ("unit", None, S), ("period", None, S), ("updated_at", "datetime", S)]),
    # a search hit: what a search answers; information about a thing, looked up, is that thing's record
    ("result", ("search", "result", "web", "query", "answer"),
     [("title", "title", S), ("url", "url", S), ("snippet", "text", S), ("score", None, N)]),
    # last, so that where the words count the same for a person and another archetype the other wins: a
    # wrong person (a name, an email, a username) misleads most (Stripe's payment intents were people)
    ("person", ("user", "profile", "person", "people", "author", "member", "account", "customer", "employee", "contact", "player", "athlete", "artist",
                "coauthor", "batter", "pitcher", "follower", "friend", "teammate", "patient", "student", "participant", "speaker"),
     [("name", "person_name", S), ("email", "email", S), ("username", None, S), ("location", "city", S), ("joined_at", "date", S)]),
]
# archetypes that shape a record only when its own name or its tool's name says so
# The nouns the templates are about: a tool named by one of them alone (`weather`, `news`) looks it up.
TOPIC_FIELDS: dict[str, list[F]] = {name: fields for name, _, fields in TOPICS}  # an archetype's fields by its name

# An API gateway's own objects (Kong, APISIX): routes that match requests, the services they proxy to,
# upstreams that balance them, their targets, consumers, plugins and certificates. Kong's routes had
# been places with a rating, its plugins documents. Chosen by the service's name (`GATEWAY_SERVICES`).
GATEWAY_SERVICES = frozenset({"kong", "apisix", "tyk", "krakend"})
GATEWAY_TOPICS: dict[str, list[F]] = {
    "route": [("name", None, S), ("paths", None, SA), ("methods", None, SA), ("hosts", None, SA), ("protocols", None, SA),
              ("strip_path", None, B)],
    "service": [("name", None, S), ("host", None, S), ("port", None, I), ("protocol", None, S), ("path", None, S), ("retries", None, I),
                ("connect_timeout", None, I)],
    "upstream": [("name", None, S), ("algorithm", None, S), ("slots", None, I)],
    "target": [("target", None, S), ("weight", None, I)],
    "consumer": [("username", None, S), ("custom_id", None, S)],
    "plugin": [("name", None, S), ("enabled", None, B), ("protocols", None, SA)],
    "certificate": [("snis", None, SA), ("cert", None, S)],
}
TOPIC_FIELDS.update({f"gateway_{kind}": fields for kind, fields in GATEWAY_TOPICS.items()})
# An accounting system's own records (Xero): the ledger accounts of its chart, its tax rates, sales
# quotes, bank transactions, journals and credit notes. Their generic names had chosen people, exchange
# rates, stock quotes, on-chain transfers and research papers.
LEDGER_SERVICES = frozenset({"xero", "quickbooks", "freshbooks", "bookkeeping", "accounting"})
LEDGER_TOPICS: dict[str, list[F]] = {
    "account": [("code", None, S), ("name", None, S), ("type", None, S), ("status", None, S)],
    "rate": [("name", None, S), ("tax_type", None, S), ("rate", None, N), ("status", None, S)],
    "quote": [("quote_number", None, S), ("contact", None, S), ("date", "date", S), ("expiry_date", "date", S), ("status", None, S),
              ("total", None, N), ("currency", "currency", S)],
    "transaction": [("date", "date", S), ("type", None, S), ("contact", None, S), ("reference", None, S), ("total", None, N),
                    ("status", None, S)],
    "journal": [("journal_number", None, I), ("journal_date", "date", S), ("source_type", None, S), ("narration", None, S), ("total", None, N)],
    "note": [("credit_note_number", None, S), ("contact", None, S), ("date", "date", S), ("status", None, S), ("total", None, N)],
}
TOPIC_FIELDS.update({f"ledger_{kind}": fields for kind, fields in LEDGER_TOPICS.items()})
# A Kubernetes cluster's own objects as kubectl shows them: nodes that are Ready, Services with a
# cluster IP, Jobs that completed, kubeconfig contexts, API resources, CRDs, events with a reason.
# Their generic names had made nodes metrics "Node 3, as recorded.", contexts documents and an
# application's diagnosis a calendar event with a location.
CLUSTER_SERVICES = frozenset({"kubernetes", "k8s", "kubectl", "openshift", "minikube"})
CLUSTER_TOPICS: dict[str, list[F]] = {
    "node": [("name", None, S), ("status", None, S), ("roles", None, S), ("version", None, S), ("internal_ip", None, S),
             ("cpu", None, S), ("memory", None, S)],
    "service": [("name", None, S), ("namespace", None, S), ("type", None, S), ("cluster_ip", None, S), ("ports", None, S)],
    "job": [("name", None, S), ("namespace", None, S), ("completions", None, S), ("status", None, S), ("started_at", "datetime", S)],
    "context": [("name", None, S), ("cluster", None, S), ("user", None, S), ("namespace", None, S), ("current", None, B)],
    "apis": [("name", None, S), ("group_version", None, S), ("kind", None, S), ("namespaced", None, B), ("verbs", None, SA)],
    "crd": [("name", None, S), ("group", None, S), ("version", None, S), ("kind", None, S), ("scope", None, S)],
    "event": [("type", None, S), ("reason", None, S), ("object", None, S), ("message", None, S), ("count", None, I),
              ("last_seen", "datetime", S)],
    "rollout": [("name", None, S), ("namespace", None, S), ("revision", None, I), ("replicas", None, I), ("ready_replicas", None, I),
                ("status", None, S)],
    "app": [("app_name", None, S), ("namespace", None, S), ("status", None, S), ("replicas", None, I), ("ready_replicas", None, I),
            ("restarts", None, I), ("message", None, S)],
}
TOPIC_FIELDS.update({f"cluster_{kind}": fields for kind, fields in CLUSTER_TOPICS.items()})
# A crypto exchange's own records (CCXT, Binance): trades of a pair, its order book, the markets and
# exchanges it lists, leverage tiers and open positions. The price archetype had made every one a stock
# quote of a company ("Prairie Media" at 847.63 CAD for UNI-10), a leverage tier a football standing.
EXCHANGE_SERVICES = frozenset({"ccxt", "binance", "bybit", "okx", "kraken", "hyperliquid", "bitget", "kucoin", "bitfinex", "deribit", "mexc"})
_LEVELS = {"type": "array", "items": {"type": "array", "items": {"type": "number"}}}  # [[price, amount], ...]
EXCHANGE_TOPICS: dict[str, list[F]] = {
    "trade": [("symbol", None, S), ("side", None, S), ("price", None, N), ("amount", None, N), ("cost", None, N), ("timestamp", "datetime", S)],
    "orderbook": [("symbol", None, S), ("bids", None, _LEVELS), ("asks", None, _LEVELS), ("timestamp", "datetime", S)],
    "market": [("symbol", None, S), ("base", None, S), ("quote", None, S), ("type", None, S), ("active", None, B)],
    "exchange": [("name", None, S), ("countries", None, SA), ("has_futures", None, B)],
    "tier": [("symbol", None, S), ("tier", None, I), ("min_notional", None, N), ("max_notional", None, N), ("max_leverage", None, N),
             ("maintenance_margin_rate", None, N)],
    "position": [("symbol", None, S), ("side", None, S), ("contracts", None, N), ("entry_price", None, N), ("mark_price", None, N),
                 ("unrealized_pnl", None, N), ("leverage", None, N)],
}
EXCHANGE_TOPICS["book"] = EXCHANGE_TOPICS["orderbook"]
EXCHANGE_TOPICS["dex"] = [("name", None, S), ("chain", None, S), ("volume_usd", None, N)]
# a stock exchange (FMP's `getAvailableExchanges`) and a message broker's exchange (RabbitMQ's): no exchange rates
VENUE_TOPICS: dict[str, list[F]] = {
    "stock_exchange": [("name", None, S), ("acronym", None, S), ("country", None, S), ("currency", None, S), ("timezone", None, S)],
    "broker_exchange": [("name", None, S), ("type", None, S), ("durable", None, B), ("auto_delete", None, B), ("vhost", None, S)],
}
TOPIC_FIELDS.update(VENUE_TOPICS)
# An index is a stock market's benchmark (FMP's `getIndexList`: "the symbol, name, exchange, and currency
# for each index") or a search engine's or database's store of documents (Elasticsearch's
# `list_indices`, Redis's `get_indexes`); both had been ops metrics ("Index 12" at 1,891.04 GB).
INDEX_TOPICS: dict[str, list[F]] = {
    # an index's level with its day's move: the index quotes (`getIndexQuote`) read the indexes themselves
    "market_index": [("symbol", None, S), ("name", None, S), ("exchange", None, S), ("currency", None, S), ("price", None, N),
                     ("change_percent", None, N)],
    "search_index": [("name", None, S), ("health", None, S), ("docs_count", None, I), ("size_bytes", None, I)],
}
TOPIC_FIELDS.update(INDEX_TOPICS)
# What an EVM node answers of gas: its price now (`eth_gasPrice`: "the current gas price in wei") or what a
# transaction would use and cost (`estimate_gas`); they had been stock quotes of USDT and token transfers
GAS_TOPICS: dict[str, list[F]] = {
    "gas_price": [("gas_price_wei", None, I), ("gas_price_gwei", None, N), ("as_of", "datetime", S)],
    "gas_estimate": [("gas", None, I), ("gas_price_gwei", None, N), ("fee_eth", None, N)],
}
TOPIC_FIELDS.update(GAS_TOPICS)
# archetypes that are a family of their own (their values come from FAMILY_STR and FAMILY_NUM under the topic's name)
OWN_FAMILY_TOPICS = frozenset(VENUE_TOPICS) | frozenset(INDEX_TOPICS) | frozenset(GAS_TOPICS) | {"country", "chat_channel", "assignment", "hiscore"}
MARKET_INDEXES = [("^GSPC", "S&P 500", "SNP", "USD"), ("^DJI", "Dow Jones Industrial Average", "DJI", "USD"),
                  ("^IXIC", "NASDAQ Composite", "NASDAQ", "USD"), ("^RUT", "Russell 2000", "SNP", "USD"),
                  ("^FTSE", "FTSE 100", "LSE", "GBP"), ("^GDAXI", "DAX", "XETRA", "EUR"), ("^FCHI", "CAC 40", "EURONEXT", "EUR"),
                  ("^N225", "Nikkei 225", "OSA", "JPY"), ("^HSI", "Hang Seng Index", "HKSE", "HKD"), ("^STOXX50E", "EURO STOXX 50", "STOXX", "EUR"),
                  ("^NDX", "NASDAQ 100", "NASDAQ", "USD"), ("^VIX", "CBOE Volatility Index", "CBOE", "USD"),
                  ("^GSPTSE", "S&P/TSX Composite", "TSX", "CAD"), ("^BVSP", "IBOVESPA", "SAO", "BRL"),
                  ("^AXJO", "S&P/ASX 200", "ASX", "AUD"), ("^KS11", "KOSPI Composite", "KSC", "KRW")]
SEARCH_INDEXES = ["products", "articles", "customers", "orders", "logs-2026.01", "logs-2026.02", "support-tickets", "docs", "events",
                  "users", "invoices", "reviews", "metrics-2026.01", "catalog", "faq", "audit-log"]
STOCK_EXCHANGES = [("Nasdaq Stock Market", "NASDAQ", "US", "USD", "America/New_York"), ("New York Stock Exchange", "NYSE", "US", "USD", "America/New_York"),
                   ("London Stock Exchange", "LSE", "GB", "GBP", "Europe/London"), ("Tokyo Stock Exchange", "TSE", "JP", "JPY", "Asia/Tokyo"),
                   ("Euronext Paris", "EPA", "FR", "EUR", "Europe/Paris"), ("Hong Kong Stock Exchange", "HKEX", "HK", "HKD", "Asia/Hong_Kong"),
                   ("Toronto Stock Exchange", "TSX", "CA", "CAD", "America/Toronto"), ("Deutsche Boerse Xetra", "XETRA", "DE", "EUR", "Europe/Berlin")]
BROKER_EXCHANGES = [("orders", "topic"), ("events", "fanout"), ("billing", "direct"), ("notifications", "fanout"), ("amq.direct", "direct"),
                    ("amq.topic", "topic"), ("audit", "headers"), ("retries", "direct")]
DEXES = [("Uniswap", "Ethereum"), ("Raydium", "Solana"), ("PancakeSwap", "BNB Smart Chain"), ("Curve", "Ethereum"), ("Orca", "Solana"),
         ("Aerodrome", "Base"), ("Camelot", "Arbitrum One"), ("SushiSwap", "Ethereum")]
TOPIC_FIELDS.update({f"exchange_{kind}": fields for kind, fields in EXCHANGE_TOPICS.items()})
# A research catalog's own records (Papers with Code): research areas, tasks, methods, datasets,
# conferences and their proceedings. All had been papers with authors and an abstract, a dataset a
# database table, a task a bug ticket ("Password reset email never arrives").
RESEARCH_SERVICES = frozenset({"paperswithcode"})
RESEARCH_TOPICS: dict[str, list[F]] = {
    "area": [("name", None, S), ("description", "text", S), ("task_count", None, I)],
    "task": [("name", None, S), ("area", None, S), ("description", "text", S), ("paper_count", None, I)],
    "method": [("name", None, S), ("full_name", None, S), ("description", "text", S), ("introduced_year", None, I)],
    "dataset": [("name", None, S), ("full_name", None, S), ("modality", None, S), ("description", "text", S)],
    "conference": [("name", None, S), ("full_name", None, S)],
    "proceeding": [("name", None, S), ("conference", None, S), ("year", None, I)],
}
RESEARCH_TOPICS["areas"] = RESEARCH_TOPICS["area"]
TOPIC_FIELDS.update({f"research_{kind}": fields for kind, fields in RESEARCH_TOPICS.items()})
# A Solana node's own answers (its JSON-RPC: getEpochInfo, getSupply, getRecentPerformanceSamples...):
# slots, epochs, blockhashes, supply in lamports. Accounts had been people with an email, performance
# samples orders, the fee for a message an email, the inflation rate an exchange rate.
SOLANA_TOPICS: dict[str, list[F]] = {
    "account": [("pubkey", None, S), ("lamports", None, I), ("owner", None, S), ("executable", None, B), ("rent_epoch", None, I)],
    "block": [("slot", None, I), ("blockhash", None, S), ("previous_blockhash", None, S), ("parent_slot", None, I), ("block_time", None, I),
              ("block_height", None, I), ("transaction_count", None, I)],
    "epoch": [("epoch", None, I), ("slot_index", None, I), ("slots_in_epoch", None, I), ("absolute_slot", None, I), ("block_height", None, I),
              ("transaction_count", None, I)],
    "schedule": [("slots_per_epoch", None, I), ("leader_schedule_slot_offset", None, I), ("warmup", None, B), ("first_normal_epoch", None, I),
                 ("first_normal_slot", None, I)],
    "blockhash": [("blockhash", None, S), ("last_valid_block_height", None, I)],
    "hash": [("hash", None, S)],
    "identity": [("identity", None, S)],
    "leader": [("identity", None, S), ("slot", None, I)],
    "governor": [("initial", None, N), ("terminal", None, N), ("taper", None, N), ("foundation", None, N), ("foundation_term", None, N)],
    "rate": [("total", None, N), ("validator", None, N), ("foundation", None, N), ("epoch", None, I)],
    "sample": [("slot", None, I), ("num_transactions", None, I), ("num_slots", None, I), ("sample_period_secs", None, I)],
    "status": [("slot", None, I), ("confirmations", None, I), ("confirmation_status", None, S)],
    "slot": [("slot", None, I)],
    "supply": [("total", None, I), ("circulating", None, I), ("non_circulating", None, I)],
    "commitment": [("total_stake", None, I)],
    "fee": [("fee", None, I)],
    "reward": [("epoch", None, I), ("effective_slot", None, I), ("amount", None, I), ("post_balance", None, I), ("commission", None, I)],
    "height": [("block_height", None, I)],
    "time": [("block_time", None, I)],
}
TOPIC_FIELDS.update({f"solana_{kind}": fields for kind, fields in SOLANA_TOPICS.items()})
# ChEMBL's own records (its `example_*` lookups): drugs, targets, assays, mechanisms, indications,
# cell lines, organisms, tissues, warnings, ATC classes, GO slims, sources and protein classes, with
# ChEMBL ids. They had been documents "Assay 6, as recorded." filed under /workspace.
CHEMBL_TOPICS: dict[str, list[F]] = {
    "drug": [("molecule_chembl_id", None, S), ("pref_name", None, S), ("drug_type", None, S), ("max_phase", None, I), ("first_approval", None, I)],
    "target": [("target_chembl_id", None, S), ("pref_name", None, S), ("target_type", None, S), ("organism", None, S)],
    "assay": [("assay_chembl_id", None, S), ("assay_type", None, S), ("description", None, S), ("target_chembl_id", None, S), ("assay_organism", None, S)],
    "mechanism": [("mechanism_of_action", None, S), ("action_type", None, S), ("molecule_chembl_id", None, S), ("target_chembl_id", None, S)],
    "indication": [("mesh_heading", None, S), ("mesh_id", None, S), ("efo_term", None, S), ("max_phase_for_ind", None, I), ("molecule_chembl_id", None, S)],
    "line": [("cell_line_name", None, S), ("cell_chembl_id", None, S), ("cell_source_organism", None, S), ("cell_source_tissue", None, S)],
    "organism": [("tax_id", None, I), ("l1", None, S), ("l2", None, S), ("l3", None, S)],
    "tissue": [("pref_name", None, S), ("tissue_chembl_id", None, S), ("uberon_id", None, S)],
    "warning": [("warning_type", None, S), ("warning_class", None, S), ("warning_country", None, S), ("molecule_chembl_id", None, S)],
    "class": [("level1", None, S), ("level1_description", None, S), ("level5", None, S), ("who_name", None, S)],
    "slim": [("go_id", None, S), ("pref_name", None, S), ("aspect", None, S)],
    "source": [("src_id", None, I), ("src_short_name", None, S), ("src_description", None, S)],
    "classification": [("protein_class_id", None, I), ("pref_name", None, S), ("class_level", None, I)],
    "activity": [("activity_id", None, I), ("assay_chembl_id", None, S), ("molecule_chembl_id", None, S), ("standard_type", None, S),
                 ("standard_value", None, N), ("standard_units", None, S)],
}
TOPIC_FIELDS.update({f"chembl_{kind}": fields for kind, fields in CHEMBL_TOPICS.items()})
# Catalogs of a known world's records: a service about Formula 1 or Star Wars answers its circuits,
# constructors, seasons, pit stops, planets and starships, not "Circuit 6, as recorded." Each catalog is
# a list of records; record `n` is the `n`th (numbered past the end), and its fields are the records'.
_DRIVERS = [(1, "Max Verstappen", "Red Bull Racing"), (4, "Lando Norris", "McLaren"), (16, "Charles Leclerc", "Ferrari"),
            (81, "Oscar Piastri", "McLaren"), (55, "Carlos Sainz", "Ferrari"), (44, "Lewis Hamilton", "Mercedes"),
            (63, "George Russell", "Mercedes"), (11, "Sergio Perez", "Red Bull Racing"), (14, "Fernando Alonso", "Aston Martin"),
            (18, "Lance Stroll", "Aston Martin"), (10, "Pierre Gasly", "Alpine"), (31, "Esteban Ocon", "Alpine")]
CATALOGS: dict[str, list[dict[str, Any]]] = {
    "f1_circuit": [dict(zip(("circuit_name", "location", "country", "length_km", "laps"), c)) for c in [
        ("Circuit de Monaco", "Monte Carlo", "Monaco", 3.337, 78), ("Silverstone Circuit", "Silverstone", "United Kingdom", 5.891, 52),
        ("Autodromo Nazionale Monza", "Monza", "Italy", 5.793, 53), ("Circuit de Spa-Francorchamps", "Stavelot", "Belgium", 7.004, 44),
        ("Suzuka International Racing Course", "Suzuka", "Japan", 5.807, 53), ("Circuit Gilles Villeneuve", "Montreal", "Canada", 4.361, 70),
        ("Marina Bay Street Circuit", "Singapore", "Singapore", 4.94, 62), ("Autodromo Jose Carlos Pace", "Sao Paulo", "Brazil", 4.309, 71),
        ("Bahrain International Circuit", "Sakhir", "Bahrain", 5.412, 57), ("Circuit of the Americas", "Austin", "United States", 5.513, 56),
        ("Red Bull Ring", "Spielberg", "Austria", 4.318, 71), ("Hungaroring", "Budapest", "Hungary", 4.381, 70)]],
    "f1_season": [{"year": 2024 - i, "rounds": r, "champion": c} for i, (r, c) in enumerate([
        (24, "Max Verstappen"), (22, "Max Verstappen"), (22, "Max Verstappen"), (22, "Max Verstappen"), (17, "Lewis Hamilton"),
        (21, "Lewis Hamilton"), (21, "Lewis Hamilton"), (20, "Lewis Hamilton"), (21, "Nico Rosberg"), (19, "Lewis Hamilton"),
        (19, "Lewis Hamilton"), (19, "Sebastian Vettel")])],
    "f1_constructor": [dict(zip(("name", "nationality", "championships"), c)) for c in [
        ("Red Bull Racing", "Austrian", 6), ("Ferrari", "Italian", 16), ("Mercedes", "German", 8), ("McLaren", "British", 9),
        ("Aston Martin", "British", 0), ("Alpine", "French", 2), ("Williams", "British", 9), ("Haas", "American", 0),
        ("RB", "Italian", 0), ("Sauber", "Swiss", 0)]],
    "f1_standing": [{"position": i + 1, "driver": name, "constructor": team, "points": max(0, 437 - 41 * i), "wins": max(0, 9 - 2 * i)}
                    for i, (_, name, team) in enumerate(_DRIVERS)],
    "f1_qualifying": [{"position": i + 1, "driver": name, "constructor": team, "q1": f"1:{29 + i // 4}.{(317 + 97 * i) % 1000:03d}",
                       "q2": f"1:{29 + i // 5}.{(104 + 89 * i) % 1000:03d}" if i < 15 else None,
                       "q3": f"1:{28 + i // 6}.{(921 + 61 * i) % 1000:03d}" if i < 10 else None} for i, (_, name, team) in enumerate(_DRIVERS)],
    "f1_stop": [{"driver_number": d, "lap_number": 14 + 3 * (i % 5), "pit_duration": round(21.8 + 0.37 * (i % 7), 1)} for i, (d, _, _) in enumerate(_DRIVERS)],
    "f1_car": [{"driver_number": d, "speed": 286 + 3 * i, "rpm": 11_200 + 53 * i, "n_gear": 7 + i % 2, "throttle": 99, "brake": 0, "drs": 12 if i % 3 else 8}
               for i, (d, _, _) in enumerate(_DRIVERS)],
    "f1_radio": [{"driver_number": d, "recording_url": f"https://livetiming.formula1.com/static/2024/radio/{name.split()[-1].upper()[:3]}_{d}.mp3"}
                 for d, name, _ in _DRIVERS],
    "f1_time": [{"driver_number": d, "lap_number": 20 + i, "lap_duration": round(92.41 + 0.173 * i, 3), "duration_sector_1": round(30.1 + 0.05 * i, 3),
                 "duration_sector_2": round(33.6 + 0.06 * i, 3), "duration_sector_3": round(28.71 + 0.063 * i, 3)} for i, (d, _, _) in enumerate(_DRIVERS)],
    "f1_timing": [{"driver_number": d, "position": i + 1, "gap_to_leader": "LEADER" if i == 0 else f"+{2.417 * i:.3f}", "interval": "" if i == 0 else f"+{1.1 + 0.2 * i:.3f}"}
                  for i, (d, _, _) in enumerate(_DRIVERS)],
    # the datasets of an open-data portal (Data.gov's CKAN "packages"): a publisher's data, not a code library
    "open_dataset": [dict(zip(("name", "title", "organization", "num_resources", "license_title", "metadata_modified"), c)) for c in [
        ("electric-vehicle-population-data", "Electric Vehicle Population Data", "State of Washington", 4, "Open Data Commons ODbL", "2025-11-14"),
        ("crime-data-from-2020-to-present", "Crime Data from 2020 to Present", "City of Los Angeles", 4, "Creative Commons CCZero", "2025-12-02"),
        ("national-student-loan-data-system", "National Student Loan Data System", "Department of Education", 12, "U.S. Government Work", "2025-10-21"),
        ("fdic-failed-bank-list", "FDIC Failed Bank List", "Federal Deposit Insurance Corporation", 2, "U.S. Government Work", "2025-09-30"),
        ("air-quality", "Air Quality", "City of New York", 4, "Creative Commons CCZero", "2025-12-10"),
        ("consumer-complaint-database", "Consumer Complaint Database", "Consumer Financial Protection Bureau", 3, "U.S. Government Work", "2025-12-12"),
        ("global-surface-summary-of-the-day-gsod", "Global Surface Summary of the Day - GSOD", "NOAA", 5, "U.S. Government Work", "2025-11-29"),
        ("medicare-provider-utilization-and-payment-data", "Medicare Provider Utilization and Payment Data", "Centers for Medicare & Medicaid Services", 6, "U.S. Government Work", "2025-08-18"),
        ("usgs-earthquake-catalog", "USGS Earthquake Catalog", "U.S. Geological Survey", 3, "U.S. Government Work", "2025-12-11"),
        ("warehouse-and-retail-sales", "Warehouse and Retail Sales", "Montgomery County of Maryland", 4, "Public Domain", "2025-11-05"),
        ("fatality-analysis-reporting-system-fars", "Fatality Analysis Reporting System (FARS)", "National Highway Traffic Safety Administration", 8, "U.S. Government Work", "2025-07-22"),
        ("food-environment-atlas", "Food Environment Atlas", "Department of Agriculture", 3, "U.S. Government Work", "2025-06-30")]],
    # what a browser's page loaded (Playwright's `browser_network_requests`): the page, its scripts, styles,
    # images and API calls, each with a method, a status and a time, not a document "Request 1, as recorded."
    "http_request": [dict(zip(("url", "method", "status", "resource_type", "duration_ms"), c)) for c in [
        ("https://shop.halcyon.io/", "GET", 200, "document", 40), ("https://shop.halcyon.io/static/js/app.3f9c1e.js", "GET", 200, "script", 77),
        ("https://shop.halcyon.io/static/css/main.8a21.css", "GET", 200, "stylesheet", 114), ("https://shop.halcyon.io/api/v1/session", "GET", 200, "xhr", 151),
        ("https://shop.halcyon.io/images/logo.svg", "GET", 304, "image", 188), ("https://shop.halcyon.io/api/v1/events", "POST", 204, "fetch", 225),
        ("https://shop.halcyon.io/fonts/inter-var.woff2", "GET", 200, "font", 262), ("https://shop.halcyon.io/api/v1/products?page=1", "GET", 200, "xhr", 299),
        ("https://shop.halcyon.io/images/hero.webp", "GET", 200, "image", 336), ("https://shop.halcyon.io/api/v1/recommendations", "GET", 500, "xhr", 373),
        ("https://www.googletagmanager.com/gtag/js", "GET", 200, "script", 410), ("https://shop.halcyon.io/api/v1/cart", "GET", 401, "xhr", 47)]],
    # what an Android app asks to do (Google Play's permissions of an app): a permission with its group,
    # not a document ("Permission 6, as recorded.")
    "app_permission": [dict(zip(("permission", "type"), c)) for c in [
        ("full network access", "Network communication"), ("view network connections", "Network communication"),
        ("take pictures and videos", "Camera"), ("record audio", "Microphone"), ("access precise location only in the foreground", "Location"),
        ("read the contents of your shared storage", "Storage"), ("modify or delete the contents of your shared storage", "Storage"),
        ("read your contacts", "Contacts"), ("run at startup", "Other"), ("prevent phone from sleeping", "Other"),
        ("receive data from Internet", "Other"), ("find accounts on the device", "Identity")]],
    # the bridges a cross-chain aggregator (LI.FI) routes through: a protocol, not a transfer with a hash
    "bridge": [dict(zip(("key", "name", "supported_chains"), c)) for c in [
        ("stargate", "Stargate", 15), ("across", "Across", 9), ("hop", "Hop Protocol", 6), ("cbridge", "Celer cBridge", 24),
        ("allbridge", "Allbridge Core", 10), ("symbiosis", "Symbiosis", 20), ("mayan", "Mayan", 7), ("relay", "Relay", 18),
        ("squid", "Squid", 12), ("arbitrum", "Arbitrum Bridge", 2), ("optimism", "Optimism Bridge", 2), ("polygon", "Polygon PoS Bridge", 2)]],
    "sw_planet": [dict(zip(("name", "climate", "terrain", "population", "diameter"), c)) for c in [
        ("Tatooine", "arid", "desert", "200000", "10465"), ("Alderaan", "temperate", "grasslands, mountains", "2000000000", "12500"),
        ("Yavin IV", "temperate, tropical", "jungle, rainforests", "1000", "10200"), ("Hoth", "frozen", "tundra, ice caves", "unknown", "7200"),
        ("Dagobah", "murky", "swamp, jungles", "unknown", "8900"), ("Bespin", "temperate", "gas giant", "6000000", "118000"),
        ("Endor", "temperate", "forests, mountains, lakes", "30000000", "4900"), ("Naboo", "temperate", "grassy hills, swamps", "4500000000", "12120"),
        ("Coruscant", "temperate", "cityscape, mountains", "1000000000000", "12240"), ("Kamino", "temperate", "ocean", "1000000000", "19720")]],
    "sw_person": [dict(zip(("name", "height", "mass", "birth_year", "gender"), c)) for c in [
        ("Luke Skywalker", "172", "77", "19BBY", "male"), ("C-3PO", "167", "75", "112BBY", "n/a"), ("R2-D2", "96", "32", "33BBY", "n/a"),
        ("Darth Vader", "202", "136", "41.9BBY", "male"), ("Leia Organa", "150", "49", "19BBY", "female"), ("Owen Lars", "178", "120", "52BBY", "male"),
        ("Obi-Wan Kenobi", "182", "77", "57BBY", "male"), ("Han Solo", "180", "80", "29BBY", "male"), ("Chewbacca", "228", "112", "200BBY", "male"),
        ("Yoda", "66", "17", "896BBY", "male")]],
    "sw_film": [dict(zip(("title", "episode_id", "director", "release_date"), c)) for c in [
        ("A New Hope", 4, "George Lucas", "1977-05-25"), ("The Empire Strikes Back", 5, "Irvin Kershner", "1980-05-17"),
        ("Return of the Jedi", 6, "Richard Marquand", "1983-05-25"), ("The Phantom Menace", 1, "George Lucas", "1999-05-19"),
        ("Attack of the Clones", 2, "George Lucas", "2002-05-16"), ("Revenge of the Sith", 3, "George Lucas", "2005-05-19")]],
    "sw_species": [dict(zip(("name", "classification", "language", "average_lifespan"), c)) for c in [
        ("Human", "mammal", "Galactic Basic", "120"), ("Droid", "artificial", "n/a", "indefinite"), ("Wookie", "mammal", "Shyriiwook", "400"),
        ("Rodian", "sentient", "Galactic Basic", "unknown"), ("Hutt", "gastropod", "Huttese", "1000"), ("Yoda's species", "mammal", "Galactic Basic", "900"),
        ("Trandoshan", "reptile", "Dosh", "unknown"), ("Mon Calamari", "amphibian", "Mon Calamarian", "unknown")]],
    "sw_vehicle": [dict(zip(("name", "model", "manufacturer", "vehicle_class", "crew"), c)) for c in [
        ("Sand Crawler", "Digger Crawler", "Corellia Mining Corporation", "wheeled", "46"), ("T-16 skyhopper", "T-16 skyhopper", "Incom Corporation", "repulsorcraft", "1"),
        ("X-34 landspeeder", "X-34 landspeeder", "SoroSuub Corporation", "repulsorcraft", "1"), ("TIE/LN starfighter", "Twin Ion Engine/Ln Starfighter", "Sienar Fleet Systems", "starfighter", "1"),
        ("Snowspeeder", "t-47 airspeeder", "Incom corporation", "airspeeder", "2"), ("AT-AT", "All Terrain Armored Transport", "Kuat Drive Yards", "assault walker", "5"),
        ("AT-ST", "All Terrain Scout Transport", "Kuat Drive Yards", "walker", "2"), ("Storm IV Twin-Pod cloud car", "Storm IV Twin-Pod", "Bespin Motors", "repulsorcraft", "2")]],
    "sw_starship": [dict(zip(("name", "model", "manufacturer", "starship_class", "hyperdrive_rating"), c)) for c in [
        ("CR90 corvette", "CR90 corvette", "Corellian Engineering Corporation", "corvette", "2.0"), ("Star Destroyer", "Imperial I-class Star Destroyer", "Kuat Drive Yards", "Star Destroyer", "2.0"),
        ("Sentinel-class landing craft", "Sentinel-class landing craft", "Sienar Fleet Systems", "landing craft", "1.0"), ("Death Star", "DS-1 Orbital Battle Station", "Imperial Department of Military Research", "Deep Space Mobile Battlestation", "4.0"),
        ("Millennium Falcon", "YT-1300 light freighter", "Corellian Engineering Corporation", "Light freighter", "0.5"), ("Y-wing", "BTL Y-wing", "Koensayr Manufacturing", "assault starfighter", "1.0"),
        ("X-wing", "T-65 X-wing", "Incom Corporation", "Starfighter", "1.0"), ("TIE Advanced x1", "Twin Ion Engine Advanced x1", "Sienar Fleet Systems", "Starfighter", "1.0")]],
    "quran_chapter": [dict(zip(("chapter_number", "name_simple", "name_arabic", "translated_name", "revelation_place", "verses_count"), c)) for c in [
        (1, "Al-Fatihah", "الفاتحة", "The Opener", "makkah", 7), (2, "Al-Baqarah", "البقرة", "The Cow", "madinah", 286),
        (3, "Ali 'Imran", "آل عمران", "Family of Imran", "madinah", 200), (4, "An-Nisa", "النساء", "The Women", "madinah", 176),
        (5, "Al-Ma'idah", "المائدة", "The Table Spread", "madinah", 120), (6, "Al-An'am", "الأنعام", "The Cattle", "makkah", 165),
        (7, "Al-A'raf", "الأعراف", "The Heights", "makkah", 206), (8, "Al-Anfal", "الأنفال", "The Spoils of War", "madinah", 75),
        (9, "At-Tawbah", "التوبة", "The Repentance", "madinah", 129), (10, "Yunus", "يونس", "Jonah", "makkah", 109),
        (11, "Hud", "هود", "Hud", "makkah", 123), (12, "Yusuf", "يوسف", "Joseph", "makkah", 111)]],
    "quran_translation": [dict(zip(("resource_id", "name", "author_name", "language_name"), c)) for c in [
        (131, "The Clear Quran", "Dr. Mustafa Khattab", "english"), (20, "Saheeh International", "Saheeh International", "english"),
        (85, "The Quran (Abdel Haleem)", "M.A.S. Abdel Haleem", "english"), (31, "Le Coran (Hamidullah)", "Muhammad Hamidullah", "french"),
        (27, "Der Koran (Bubenheim)", "Frank Bubenheim and Nadeem", "german"), (83, "El Coran (Garcia)", "Sheikh Isa Garcia", "spanish"),
        (77, "Diyanet Meali", "Diyanet Isleri", "turkish"), (97, "Tafheem e Quran", "Syed Abu Ali Maududi", "urdu")]],
    "quran_tafsir": [dict(zip(("resource_id", "name", "author_name", "language_name"), c)) for c in [
        (169, "Tafsir Ibn Kathir (abridged)", "Hafiz Ibn Kathir", "english"), (168, "Ma'arif al-Qur'an", "Mufti Muhammad Shafi", "english"),
        (817, "Tazkirul Quran", "Maulana Wahiduddin Khan", "english"), (14, "Tafsir Ibn Kathir", "Hafiz Ibn Kathir", "arabic"),
        (16, "Tafsir Muyassar", "Al-Muyassar", "arabic"), (15, "Tafsir al-Tabari", "Al-Tabari", "arabic")]],
    "quran_reciter": [dict(zip(("reciter_id", "reciter_name", "style"), c)) for c in [
        (7, "Mishari Rashid al-Afasy", "Murattal"), (1, "AbdulBaset AbdulSamad", "Mujawwad"), (2, "AbdulBaset AbdulSamad", "Murattal"),
        (3, "Abdur-Rahman as-Sudais", "Murattal"), (4, "Abu Bakr al-Shatri", "Murattal"), (5, "Hani ar-Rifai", "Murattal"),
        (6, "Mahmoud Khalil Al-Husary", "Murattal"), (9, "Mohamed Siddiq al-Minshawi", "Murattal")]],
    "quran_language": [dict(zip(("iso_code", "name", "native_name", "direction"), c)) for c in [
        ("en", "English", "English", "ltr"), ("ar", "Arabic", "العربية", "rtl"), ("ur", "Urdu", "اردو", "rtl"), ("fr", "French", "Français", "ltr"),
        ("tr", "Turkish", "Türkçe", "ltr"), ("id", "Indonesian", "Bahasa Indonesia", "ltr"), ("bn", "Bengali", "বাংলা", "ltr"),
        ("es", "Spanish", "Español", "ltr")]],
    "pokemon": [dict(zip(("name", "types", "region", "base_experience", "height", "weight"), c)) for c in [
        ("Pikachu", ["electric"], "kanto", 112, 4, 60), ("Bulbasaur", ["grass", "poison"], "kanto", 64, 7, 69),
        ("Charmander", ["fire"], "kanto", 62, 6, 85), ("Squirtle", ["water"], "kanto", 63, 5, 90), ("Gengar", ["ghost", "poison"], "kanto", 250, 15, 405),
        ("Snorlax", ["normal"], "kanto", 189, 21, 4600), ("Dragonite", ["dragon", "flying"], "kanto", 300, 22, 2100),
        ("Togepi", ["fairy"], "johto", 49, 3, 15), ("Lucario", ["fighting", "steel"], "sinnoh", 184, 12, 540),
        ("Greninja", ["water", "dark"], "kalos", 239, 15, 400), ("Rowlet", ["grass", "flying"], "alola", 64, 3, 15),
        ("Sprigatito", ["grass"], "paldea", 62, 4, 41)]],
    "leetcode_problem": [dict(zip(("title", "title_slug", "difficulty", "acceptance_rate", "topic_tags"), c)) for c in [
        ("Two Sum", "two-sum", "Easy", 53.7, ["Array", "Hash Table"]), ("Add Two Numbers", "add-two-numbers", "Medium", 44.1, ["Linked List", "Math"]),
        ("Longest Substring Without Repeating Characters", "longest-substring-without-repeating-characters", "Medium", 35.9, ["Hash Table", "Sliding Window"]),
        ("Median of Two Sorted Arrays", "median-of-two-sorted-arrays", "Hard", 41.6, ["Array", "Binary Search"]),
        ("Valid Parentheses", "valid-parentheses", "Easy", 41.4, ["String", "Stack"]), ("Merge Two Sorted Lists", "merge-two-sorted-lists", "Easy", 65.5, ["Linked List"]),
        ("Trapping Rain Water", "trapping-rain-water", "Hard", 63.0, ["Array", "Two Pointers", "Stack"]), ("LRU Cache", "lru-cache", "Medium", 43.8, ["Hash Table", "Design"]),
        ("Climbing Stairs", "climbing-stairs", "Easy", 53.4, ["Dynamic Programming"]), ("Number of Islands", "number-of-islands", "Medium", 61.1, ["Graph", "Union Find"]),
        ("Word Ladder", "word-ladder", "Hard", 41.5, ["Breadth-First Search"]), ("Coin Change", "coin-change", "Medium", 45.4, ["Dynamic Programming"])]],
    # the market sectors stocks are classed in, and industries within them, as data vendors name them
    "market_sector": [{"sector": name} for name in (
        "Technology", "Healthcare", "Financial Services", "Consumer Cyclical", "Consumer Defensive", "Industrials", "Energy",
        "Basic Materials", "Communication Services", "Real Estate", "Utilities")],
    "market_industry": [dict(zip(("industry", "sector"), c)) for c in [
        ("Software - Infrastructure", "Technology"), ("Semiconductors", "Technology"), ("Consumer Electronics", "Technology"),
        ("Biotechnology", "Healthcare"), ("Drug Manufacturers - General", "Healthcare"), ("Banks - Diversified", "Financial Services"),
        ("Insurance - Life", "Financial Services"), ("Internet Retail", "Consumer Cyclical"), ("Auto Manufacturers", "Consumer Cyclical"),
        ("Beverages - Non-Alcoholic", "Consumer Defensive"), ("Aerospace & Defense", "Industrials"), ("Oil & Gas Integrated", "Energy"),
        ("Specialty Chemicals", "Basic Materials"), ("Entertainment", "Communication Services"), ("REIT - Industrial", "Real Estate"),
        ("Utilities - Regulated Electric", "Utilities")]],
    "br_bank": [dict(zip(("code", "name", "full_name", "ispb"), c)) for c in [
        (1, "BCO DO BRASIL S.A.", "Banco do Brasil S.A.", "00000000"), (237, "BCO BRADESCO S.A.", "Banco Bradesco S.A.", "60746948"),
        (341, "ITAÚ UNIBANCO S.A.", "Itaú Unibanco S.A.", "60701190"), (104, "CAIXA ECONOMICA FEDERAL", "Caixa Econômica Federal", "00360305"),
        (33, "BCO SANTANDER (BRASIL) S.A.", "Banco Santander (Brasil) S.A.", "90400888"), (260, "NU PAGAMENTOS - IP", "Nu Pagamentos S.A. - Instituição de Pagamento", "18236120"),
        (77, "BANCO INTER", "Banco Inter S.A.", "00416968"), (208, "BANCO BTG PACTUAL S.A.", "Banco BTG Pactual S.A.", "30306294")]],
    "br_state": [dict(zip(("sigla", "nome", "regiao"), c)) for c in [
        ("SP", "São Paulo", "Sudeste"), ("RJ", "Rio de Janeiro", "Sudeste"), ("MG", "Minas Gerais", "Sudeste"), ("BA", "Bahia", "Nordeste"),
        ("RS", "Rio Grande do Sul", "Sul"), ("PR", "Paraná", "Sul"), ("PE", "Pernambuco", "Nordeste"), ("CE", "Ceará", "Nordeste"),
        ("PA", "Pará", "Norte"), ("SC", "Santa Catarina", "Sul"), ("GO", "Goiás", "Centro-Oeste"), ("AM", "Amazonas", "Norte")]],
    "met_object": [dict(zip(("title", "artist_display_name", "object_date", "medium", "department"), c)) for c in [
        ("Under the Wave off Kanagawa", "Katsushika Hokusai", "ca. 1830–32", "Woodblock print; ink and color on paper", "Asian Art"),
        ("Washington Crossing the Delaware", "Emanuel Leutze", "1851", "Oil on canvas", "The American Wing"),
        ("Wheat Field with Cypresses", "Vincent van Gogh", "1889", "Oil on canvas", "European Paintings"),
        ("The Harvesters", "Pieter Bruegel the Elder", "1565", "Oil on wood", "European Paintings"),
        ("Young Woman with a Water Pitcher", "Johannes Vermeer", "ca. 1662", "Oil on canvas", "European Paintings"),
        ("Madame X (Madame Pierre Gautreau)", "John Singer Sargent", "1883–84", "Oil on canvas", "The American Wing"),
        ("The Death of Socrates", "Jacques Louis David", "1787", "Oil on canvas", "European Paintings"),
        ("Self-Portrait with a Straw Hat", "Vincent van Gogh", "1887", "Oil on canvas", "European Paintings")]],
    # the Harmonized System's headings (Comex Stat's `getHarmonizedSystem`, `getNBM`): a code and what it covers
    "hs_heading": [dict(zip(("code", "name", "description"), c)) for c in [
        ("0901", "Coffee", "Coffee, whether or not roasted or decaffeinated"), ("1201", "Soya beans", "Soya beans, whether or not broken"),
        ("2601", "Iron ores", "Iron ores and concentrates, including roasted iron pyrites"), ("2709", "Crude petroleum", "Petroleum oils and oils obtained from bituminous minerals, crude"),
        ("1701", "Sugar", "Cane or beet sugar and chemically pure sucrose, in solid form"), ("0202", "Frozen beef", "Meat of bovine animals, frozen"),
        ("4703", "Wood pulp", "Chemical wood pulp, soda or sulphate"), ("8802", "Aircraft", "Aircraft (for example, helicopters, aeroplanes) and spacecraft"),
        ("1005", "Maize", "Maize (corn)"), ("0207", "Poultry meat", "Meat and edible offal of poultry, fresh, chilled or frozen"),
        ("2304", "Soya bean meal", "Oil-cake and other solid residues from the extraction of soya-bean oil"), ("5201", "Cotton", "Cotton, not carded or combed")]],
    # trade blocs (Comex Stat's `getEconomicBlocks`)
    "trade_bloc": [dict(zip(("name", "acronym", "members"), c)) for c in [
        ("Southern Common Market", "MERCOSUL", 5), ("European Union", "EU", 27), ("Association of Southeast Asian Nations", "ASEAN", 10),
        ("Andean Community", "CAN", 4), ("African Union", "AU", 55), ("Gulf Cooperation Council", "GCC", 6),
        ("United States-Mexico-Canada Agreement", "USMCA", 3), ("European Free Trade Association", "EFTA", 4)]],
}
# a service about stocks: its sectors and industries are the market's classes of companies
MARKET_WORDS = frozenset({"fmp", "stock", "stocks", "equity", "equities", "financial", "finance", "market", "markets", "trading", "investing"})
# which catalog an entity of a service holds: (the service's words, the entity's names) -> catalog
# A threat intelligence platform's own records (OpenCTI's STIX objects): reports on intrusions, indicators
# with their detection patterns, malware families, threat actors, MITRE ATT&CK techniques, campaigns and
# TLP markings. Its indicators had been dated metric series, its reports ops metrics, its malware and
# threat actors generic search hits.
CTI_WORDS = frozenset({"opencti", "stix", "cti"})
_SHA = "e3b8c1f05a9d47e2b6c4f0d19a7e53c2f8b6d4a1e0c97f3b2a5d8e6c4b1f0a92"
CATALOGS.update({
    "cti_report": [dict(zip(("name", "report_types", "published", "confidence", "description"), c)) for c in [
        ("LockBit 3.0 intrusion at a logistics provider", "threat-report", "2026-01-12T00:00:00Z", 85,
         "Initial access through an unpatched VPN appliance, Cobalt Strike for lateral movement, LockBit 3.0 deployed by group policy."),
        ("APT28 spear-phishing against defence suppliers", "threat-report", "2026-01-20T00:00:00Z", 75,
         "Lures posing as security alerts deliver a credential harvester; infrastructure overlaps with earlier Sofacy campaigns."),
        ("QakBot resurgence after the takedown", "malware-analysis", "2026-02-03T00:00:00Z", 70,
         "New QakBot builds spread by OneNote attachments and hijacked email threads; C2 on residential proxies."),
        ("Scattered Spider help-desk social engineering", "threat-report", "2026-02-10T00:00:00Z", 80,
         "Callers impersonate employees to reset MFA, then use remote monitoring tools for persistence."),
        ("Log4Shell exploitation by a Mirai variant", "vulnerability-report", "2026-02-17T00:00:00Z", 65,
         "Vulnerable Java services are exploited to enrol IoT devices in a Mirai botnet used for DDoS."),
        ("Lazarus Group fake job offers to developers", "threat-report", "2026-02-24T00:00:00Z", 75,
         "Coding tests shared over messaging apps install a backdoor that steals browser credentials and crypto wallets."),
    ]],
    "cti_indicator": [dict(zip(("name", "pattern", "pattern_type", "indicator_types", "valid_from", "x_opencti_score"), c)) for c in [
        ("Emotet C2 server 185.220.101.47", "[ipv4-addr:value = '185.220.101.47']", "stix", "malicious-activity", "2026-01-14T08:00:00Z", 85),
        ("QakBot loader SHA-256", f"[file:hashes.'SHA-256' = '{_SHA}']", "stix", "malicious-activity", "2026-02-03T10:30:00Z", 90),
        ("Phishing domain login-microsoft-verify.com", "[domain-name:value = 'login-microsoft-verify.com']", "stix", "phishing",
         "2026-01-20T09:15:00Z", 75),
        ("Cobalt Strike beacon URL", "[url:value = 'http://45.137.22.19/submit.php']", "stix", "malicious-activity", "2026-01-12T14:00:00Z", 80),
        ("LockBit ransom note", "[file:name = 'Restore-My-Files.txt']", "stix", "malicious-activity", "2026-01-12T16:45:00Z", 70),
        ("APT28 phishing sender", "[email-addr:value = 'security-alert@mail-notif.com']", "stix", "attribution", "2026-01-20T11:00:00Z", 60),
        ("Mirai scanner YARA rule", 'rule Mirai_Scanner { strings: $a = "/bin/busybox MIRAI" condition: $a }', "yara", "malicious-activity",
         "2026-02-17T07:20:00Z", 65),
        ("Tor exit node 104.244.76.13", "[ipv4-addr:value = '104.244.76.13']", "stix", "anomalous-activity", "2026-02-01T00:00:00Z", 40),
    ]],
    "cti_malware": [dict(zip(("name", "malware_types", "is_family", "first_seen", "description"), c)) for c in [
        ("Emotet", "trojan", True, "2014-06-01T00:00:00Z", "Banking trojan turned loader, spread by malicious email attachments."),
        ("QakBot", "trojan", True, "2008-01-01T00:00:00Z", "Loader and banking trojan that hijacks email threads to spread."),
        ("LockBit 3.0", "ransomware", True, "2022-06-01T00:00:00Z", "Ransomware-as-a-service that encrypts and steals data for double extortion."),
        ("Cobalt Strike", "backdoor", True, "2012-01-01T00:00:00Z", "Commercial red-team framework whose beacons are widely abused for lateral movement."),
        ("Agent Tesla", "spyware", True, "2014-01-01T00:00:00Z", "Keylogger and credential stealer sold as a service."),
        ("Mirai", "bot", True, "2016-08-01T00:00:00Z", "IoT botnet malware that brute-forces telnet and launches DDoS attacks."),
        ("BlackCat", "ransomware", True, "2021-11-01T00:00:00Z", "Rust-written ransomware-as-a-service also known as ALPHV."),
    ]],
    "cti_actor": [dict(zip(("name", "aliases", "sophistication", "primary_motivation", "first_seen", "description"), c)) for c in [
        ("APT28", "Fancy Bear, Sofacy, Sednit", "expert", "organizational-gain", "2004-01-01T00:00:00Z",
         "State-sponsored group attributed to Russia's GRU, known for spear-phishing and credential theft."),
        ("Lazarus Group", "Hidden Cobra, ZINC", "expert", "personal-gain", "2009-01-01T00:00:00Z",
         "North Korean group behind financial theft and attacks on cryptocurrency firms."),
        ("FIN7", "Carbanak, Carbon Spider", "advanced", "personal-gain", "2015-01-01T00:00:00Z",
         "Financially motivated group targeting retail and hospitality payment systems."),
        ("Scattered Spider", "UNC3944, Octo Tempest", "intermediate", "personal-gain", "2022-05-01T00:00:00Z",
         "Social engineering of help desks to take over identities, then data theft and extortion."),
        ("APT29", "Cozy Bear, Midnight Blizzard", "expert", "organizational-gain", "2008-01-01T00:00:00Z",
         "State-sponsored group attributed to Russia's SVR, focused on long-term espionage."),
        ("Wizard Spider", "UNC1878, Grim Spider", "advanced", "personal-gain", "2016-01-01T00:00:00Z",
         "Operators of TrickBot and Conti ransomware."),
    ]],
    "cti_attack_pattern": [dict(zip(("name", "x_mitre_id", "kill_chain_phase", "description"), c)) for c in [
        ("Phishing: Spearphishing Attachment", "T1566.001", "initial-access", "Emails with malicious attachments sent to chosen victims."),
        ("Valid Accounts", "T1078", "initial-access", "Use of stolen or default credentials to get in and stay in."),
        ("PowerShell", "T1059.001", "execution", "Commands and scripts run through PowerShell."),
        ("OS Credential Dumping: LSASS Memory", "T1003.001", "credential-access", "Credentials read from the memory of the LSASS process."),
        ("Remote Services: Remote Desktop Protocol", "T1021.001", "lateral-movement", "Logging in to other hosts over RDP with valid accounts."),
        ("Data Encrypted for Impact", "T1486", "impact", "Files encrypted to deny access until a ransom is paid."),
        ("Exfiltration Over C2 Channel", "T1041", "exfiltration", "Stolen data sent over the command and control channel."),
    ]],
    "cti_campaign": [dict(zip(("name", "first_seen", "last_seen", "objective", "description"), c)) for c in [
        ("Operation Dream Job", "2020-06-01T00:00:00Z", "2026-02-24T00:00:00Z", "Steal credentials and funds from developers",
         "Fake recruiters lure engineers into running trojanized coding tests."),
        ("SolarWinds Compromise", "2019-09-01T00:00:00Z", "2021-01-01T00:00:00Z", "Long-term access to government networks",
         "A backdoored software update gave access to thousands of organisations."),
        ("Help-desk takeover wave", "2025-11-01T00:00:00Z", "2026-02-10T00:00:00Z", "Extortion of retailers",
         "MFA resets by phone followed by data theft."),
        ("QakBot OneNote wave", "2026-01-15T00:00:00Z", "2026-02-03T00:00:00Z", "Initial access for ransomware affiliates",
         "OneNote attachments in hijacked threads drop QakBot."),
    ]],
    "cti_marking": [dict(zip(("definition", "definition_type", "x_opencti_color", "x_opencti_order"), c)) for c in [
        ("TLP:CLEAR", "TLP", "#ffffff", 1), ("TLP:GREEN", "TLP", "#2e7d32", 2), ("TLP:AMBER", "TLP", "#d84315", 3),
        ("TLP:AMBER+STRICT", "TLP", "#d84315", 4), ("TLP:RED", "TLP", "#c62828", 5), ("PAP:GREEN", "PAP", "#2e7d32", 2),
    ]],
    "cti_connector": [dict(zip(("name", "connector_type", "connector_scope", "active"), c)) for c in [
        ("MITRE ATT&CK", "EXTERNAL_IMPORT", "attack-pattern,intrusion-set,malware,tool", True),
        ("AlienVault OTX", "EXTERNAL_IMPORT", "indicator,report", True),
        ("VirusTotal", "INTERNAL_ENRICHMENT", "StixFile,Artifact,IPv4-Addr,Domain-Name,Url", True),
        ("AbuseIPDB", "INTERNAL_ENRICHMENT", "IPv4-Addr", True),
        ("Export File STIX", "INTERNAL_EXPORT_FILE", "application/json", True),
        ("ImportFile PDF Observables", "INTERNAL_IMPORT_FILE", "application/pdf", False),
    ]],
})
CATALOG_OF: list[tuple[frozenset[str], frozenset[str], str]] = [
    (frozenset({"f1", "formula1", "openf1", "ergast"}), frozenset({"circuit"}), "f1_circuit"),
    (frozenset({"f1", "formula1", "openf1", "ergast"}), frozenset({"season"}), "f1_season"),
    (frozenset({"f1", "formula1", "openf1", "ergast"}), frozenset({"constructor"}), "f1_constructor"),
    (frozenset({"f1", "formula1", "openf1", "ergast"}), frozenset({"standing"}), "f1_standing"),
    (frozenset({"f1", "formula1", "openf1", "ergast"}), frozenset({"qualifying"}), "f1_qualifying"),
    (frozenset({"f1", "formula1", "openf1", "ergast"}), frozenset({"stop"}), "f1_stop"),
    (frozenset({"f1", "formula1", "openf1", "ergast"}), frozenset({"car"}), "f1_car"),
    (frozenset({"f1", "formula1", "openf1", "ergast"}), frozenset({"radio"}), "f1_radio"),
    (frozenset({"f1", "formula1", "openf1", "ergast"}), frozenset({"time", "lap"}), "f1_time"),
    (frozenset({"f1", "formula1", "openf1", "ergast"}), frozenset({"timing"}), "f1_timing"),
    (frozenset({"swapi", "starwars"}), frozenset({"planet"}), "sw_planet"),
    (frozenset({"swapi", "starwars"}), frozenset({"people", "person"}), "sw_person"),
    (frozenset({"swapi", "starwars"}), frozenset({"film"}), "sw_film"),
    (frozenset({"swapi", "starwars"}), frozenset({"species", "specie"}), "sw_species"),
    (frozenset({"swapi", "starwars"}), frozenset({"vehicle"}), "sw_vehicle"),
    (frozenset({"swapi", "starwars"}), frozenset({"starship"}), "sw_starship"),
    (frozenset({"quran"}), frozenset({"chapter", "surah"}), "quran_chapter"),
    (frozenset({"quran"}), frozenset({"translation"}), "quran_translation"),
    (frozenset({"quran"}), frozenset({"tafsir"}), "quran_tafsir"),
    (frozenset({"quran"}), frozenset({"reciter", "recitation"}), "quran_reciter"),
    (frozenset({"quran"}), frozenset({"language"}), "quran_language"),
    (frozenset({"pok", "pokemon", "pokeapi", "pokedex"}), frozenset({"pokemon"}), "pokemon"),
    (frozenset({"leetcode"}), frozenset({"problem", "question"}), "leetcode_problem"),
    (frozenset({"brasil", "brasilapi", "brazil"}), frozenset({"bank"}), "br_bank"),
    (frozenset({"brasil", "brasilapi", "ibge", "comexstat"}), frozenset({"state"}), "br_state"),
    (frozenset({"comexstat", "comex"}), frozenset({"system", "nbm", "ncm", "heading"}), "hs_heading"),
    (frozenset({"comexstat", "comex"}), frozenset({"block", "bloc"}), "trade_bloc"),
    (frozenset({"met", "metropolitan"}), frozenset({"object"}), "met_object"),
    (CTI_WORDS, frozenset({"report"}), "cti_report"),
    (CTI_WORDS, frozenset({"indicator"}), "cti_indicator"),
    (CTI_WORDS, frozenset({"malware"}), "cti_malware"),
    (CTI_WORDS, frozenset({"actor"}), "cti_actor"),
    (CTI_WORDS, frozenset({"pattern"}), "cti_attack_pattern"),
    (CTI_WORDS, frozenset({"campaign"}), "cti_campaign"),
    (CTI_WORDS, frozenset({"definition", "marking"}), "cti_marking"),
    (CTI_WORDS, frozenset({"connector"}), "cti_connector"),
    (frozenset({"lifi", "bridge", "bridges"}), frozenset({"bridge"}), "bridge"),
    (frozenset({"play", "android", "playstore"}), frozenset({"permission"}), "app_permission"),
    (MARKET_WORDS, frozenset({"sector"}), "market_sector"),
    (MARKET_WORDS, frozenset({"industry"}), "market_industry"),
]
_KIND_SHAPE = {int: I, float: N, str: S, bool: B}
TOPIC_FIELDS.update({f"catalog_{key}": [(k, None, _KIND_SHAPE.get(type(v), S)) for k, v in rows[0].items()] for key, rows in CATALOGS.items()})


def catalog_of(service_words: set[str], entity: str) -> str | None:
    """The catalog an entity of a service holds (`f1_circuit`), or None."""
    return next((key for svc, ents, key in CATALOG_OF if service_words & svc and entity in ents), None)


# what a catalog's records are called by, for a `name` or `title` field (an F1 result's driver is a person, not a key)
CATALOG_NAMES = ("name", "title", "circuit_name", "driver", "name_simple", "reciter_name", "nome", "industry", "sector", "definition",
                 "permission")


def catalog_value(name: str, t: str | None, ctx: "ValueContext", n: int, rng: random.Random) -> Any:
    """Field `name` of record `n` of the entity's catalog: its own value, or its name for a `name` or
    `title` the records call otherwise; None for a field the catalog's records do not have."""
    rows = CATALOGS.get(ctx.catalog)
    if not rows:
        return None
    row = rows[n % len(rows)]
    key = snake(name)
    if key not in row and key in ("name", "title"):
        key = next((k for k in CATALOG_NAMES if k in row), key)
    value = row.get(key, "en" if key in ("language", "lang") else None)  # a reader's language, not Rust
    if value is None or (t == "integer" and not isinstance(value, int)) or (t == "number" and not isinstance(value, (int, float))) \
            or (t == "string" and not isinstance(value, str)):
        return None
    if isinstance(value, str) and n >= len(rows) and key in CATALOG_NAMES and key != "driver":
        return f"{value} {n // len(rows) + 1}"  # a name is a key someone looks up: distinct past the catalog's end
    return value

# A country is a country (its code, capital, region, population and currency), not a museum or a
# hotel with a rating, which the place archetype made of Comex Stat's and FMP's countries.
COUNTRY_TOPIC: list[F] = [("name", "title", S), ("code", None, S), ("capital", None, S), ("region", None, S), ("population", None, I),
                          ("currency", "currency", S)]
TOPIC_FIELDS["country"] = COUNTRY_TOPIC
# A chat's channel (Slack, Discord, Mattermost): a name, what it is for, who is in it
CHANNEL_TOPIC: list[F] = [("name", "title", S), ("topic", None, S), ("member_count", None, I), ("is_private", "flag", B),
                          ("created_at", "datetime", S)]
TOPIC_FIELDS["chat_channel"] = CHANNEL_TOPIC
CHAT_SERVICES = frozenset({"slack", "discord", "mattermost", "zulip", "rocketchat", "teams", "telegram", "whatsapp"})
CHANNELS = [("general", "Company-wide announcements and work-based matters"), ("support", "Customer questions that need an engineer"),
            ("eng-alerts", "Alerts from production monitoring"), ("sales", "Deals, pipeline and customer calls"),
            ("random", "Non-work banter and water-cooler talk"), ("design", "Design reviews and mockups"),
            ("incidents", "Coordinating live incidents"), ("marketing", "Campaigns, launches and content")]
COUNTRIES = [("Germany", "DE", "Berlin", "Europe", 84_400_000, "EUR"), ("France", "FR", "Paris", "Europe", 68_200_000, "EUR"),
             ("Japan", "JP", "Tokyo", "Asia", 124_500_000, "JPY"), ("Brazil", "BR", "Brasília", "South America", 216_400_000, "BRL"),
             ("Canada", "CA", "Ottawa", "North America", 40_100_000, "CAD"), ("India", "IN", "New Delhi", "Asia", 1_428_600_000, "INR"),
             ("Kenya", "KE", "Nairobi", "Africa", 55_100_000, "KES"), ("Australia", "AU", "Canberra", "Oceania", 26_600_000, "AUD"),
             ("Mexico", "MX", "Mexico City", "North America", 128_500_000, "MXN"), ("Spain", "ES", "Madrid", "Europe", 48_400_000, "EUR"),
             ("Netherlands", "NL", "Amsterdam", "Europe", 17_900_000, "EUR"), ("Singapore", "SG", "Singapore", "Asia", 5_900_000, "SGD")]
_COUNTRY_BY_NAME = {c[0]: c for c in COUNTRIES}
# A game's playable characters (League of Legends' champions, Dota's heroes, Valorant's agents): their
# names, roles and how they fare, not football clubs in a league table (OP.GG's champion tier list had
# been "Lakeside Athletic 2" with 37 games played).
CHARACTER_TOPIC: list[F] = [("name", "title", S), ("role", None, S), ("tier", None, S), ("win_rate", None, N), ("pick_rate", None, N),
                            ("ban_rate", None, N)]
# A game's hiscores (RuneScape's `get_top_rankings(name, gameMode)`): its best players, ranked by the
# experience they have earned, not a football league table
HISCORE_NOUNS = frozenset({"rank", "ranking", "leaderboard", "hiscore", "highscore"})
HISCORE_TOPIC: list[F] = [("rank", None, I), ("player", None, S), ("level", None, I), ("xp", None, I)]
# made-up player names (no real player's)
GAMER_TAGS = ["Ember Wyrm", "Quartz Fox", "Iron Heron", "Mossy Pike", "Tidal Rune", "Slate Owl", "Copper Lynx", "Gale Drake",
              "Nimbus Elk", "Ashen Crow", "Frost Marten", "Cobalt Hare"]
TOPIC_FIELDS["hiscore"] = HISCORE_TOPIC


def hiscore_value(name: str, t: str | None, ctx: ValueContext, n: int, rng: random.Random) -> Any:
    """Record `n`'s place on a game's hiscores: the n+1-th best player, with less experience than those above."""
    key = snake(name)
    if t in ("integer", "number") and key in ("rank", "position"):
        return n + 1
    if t in ("integer", "number") and key in ("xp", "experience", "score"):
        return 200_000_000 - n * 9_750_000 - rng.randint(0, 9_000_000)
    if t in ("integer", "number") and key == "level":
        return max(1, 99 - n // 5)
    if t in ("string", None) and key in ("player", "username", "player_name", "display_name"):
        return _nth(GAMER_TAGS, n)
    return None


# A weather service's alerts, stations, places and earthquakes (IPMA's `get_weather_warnings`, the US
# National Weather Service's `find_weather_stations`): a warning of an event over an area with a level and
# a window, an observing station with its code and height, a forecast place with its coordinates, a quake
# with its magnitude and depth (they had been temperature readings, hotels with ratings and filler records).
METEO_SERVICES = frozenset({"weather", "meteo", "meteorological", "ipma", "noaa", "nws", "openweather", "openweathermap",
                            "accuweather", "weatherapi", "metoffice"})
METEO_TOPICS: dict[str, list[F]] = {
    "warning": [("area", None, S), ("event", None, S), ("severity", None, S), ("level", None, S), ("starts_at", "datetime", S),
                ("ends_at", "datetime", S), ("description", "text", S)],
    "station": [("station_id", None, S), ("name", "title", S), ("city", None, S), ("latitude", None, N), ("longitude", None, N),
                ("elevation_m", None, I)],
    "location": [("name", "title", S), ("country", None, S), ("latitude", None, N), ("longitude", None, N)],
    "seismic": [("magnitude", None, N), ("depth_km", None, N), ("place", None, S), ("latitude", None, N), ("longitude", None, N),
                ("occurred_at", "datetime", S)],
}
METEO_NOUNS = {"warning": "warning", "alert": "warning", "station": "station", "location": "location", "city": "location",
               "seismic": "seismic", "earthquake": "seismic", "quake": "seismic"}
TOPIC_FIELDS.update({f"meteo_{kind}": fields for kind, fields in METEO_TOPICS.items()})
# (city, country, latitude, longitude, station code, elevation in m): Portugal's for IPMA, the world's otherwise
PT_PLACES = [("Lisboa", "PT", 38.7223, -9.1393, "LPPT", 77), ("Porto", "PT", 41.1579, -8.6291, "LPPR", 69),
             ("Faro", "PT", 37.0194, -7.9304, "LPFR", 4), ("Coimbra", "PT", 40.2033, -8.4103, "COIM", 141),
             ("Braga", "PT", 41.5454, -8.4265, "BRAG", 190), ("Évora", "PT", 38.5714, -7.9135, "EVOR", 246),
             ("Funchal", "PT", 32.6669, -16.9241, "LPMA", 58), ("Ponta Delgada", "PT", 37.7412, -25.6756, "LPPD", 79)]
WORLD_PLACES = [(city, country, *CITY_COORDS[city], f"{city[:3].upper()}{i + 1}", (12, 160, 1609, 56, 150, 24, 34, 2, 15, 77)[i % 10])
                for i, (city, country) in enumerate(CITIES) if city in CITY_COORDS]
WEATHER_EVENTS = [("Strong Wind", "Gusts of 70 to 90 km/h expected, locally stronger on high ground."),
                  ("Heavy Rain", "Persistent rain, at times heavy, with 30 to 50 mm in 6 hours."),
                  ("Coastal Agitation", "Waves from the northwest of 5 to 6 metres on the western coast."),
                  ("Heat", "Maximum temperatures between 38 and 41 degrees C; warm nights."),
                  ("Thunderstorms", "Showers with thunderstorms, possibly with hail and strong gusts."),
                  ("Fog", "Dense fog reducing visibility below 200 metres."),
                  ("Snow", "Snowfall above 1,000 metres, 5 to 10 cm accumulating.")]
WARNING_LEVELS = [("Yellow", "Moderate"), ("Orange", "Severe"), ("Yellow", "Moderate"), ("Red", "Extreme")]


def meteo_value(name: str, t: str | None, ctx: ValueContext, n: int, rng: random.Random) -> Any:
    """Field `name` of record `n` of a weather service's warnings, stations, places or earthquakes, over the
    service's country (Portugal's cities for IPMA); None for a field such records do not have."""
    kind = METEO_NOUNS.get(ctx.entity, "")
    places = PT_PLACES if ctx.scope & {"ipma", "portugal", "portuguese", "portugues"} else WORLD_PLACES
    city, country, lat, lon, code, elevation = places[n % len(places)]
    key = snake(name)
    values: dict[str, Any]
    if kind == "warning":
        event, text = WEATHER_EVENTS[n % len(WEATHER_EVENTS)]
        level, severity = WARNING_LEVELS[n % len(WARNING_LEVELS)]
        start = ctx.now + timedelta(hours=6 * (n % 8))
        values = {"area": city, "region": city, "event": event, "type": event, "awareness_type": event, "headline": f"{level} warning: {event} in {city}",
                  "severity": severity, "level": level, "awareness_level": level.lower(), "starts_at": format_timestamp(start),
                  "ends_at": format_timestamp(start + timedelta(hours=12 + 6 * (n % 3))), "description": text}
    elif kind == "station":
        values = {"station_id": code, "id_estacao": code, "name": f"{city} ({'Airport' if code.startswith('LP') else 'City'})", "city": city,
                  "latitude": lat, "longitude": lon, "elevation_m": elevation, "elevation": elevation, "country": country}
    elif kind == "location":
        values = {"name": city, "city": city, "local": city, "country": country, "latitude": lat, "longitude": lon}
    elif kind == "seismic":
        km, bearing = 5 + (n * 7) % 40, ("N", "NE", "E", "SE", "S", "SW", "W", "NW")[n % 8]
        values = {"magnitude": round(1.2 + (n * 0.7) % 3.4, 1), "depth_km": round(3 + (n * 4.3) % 25, 1), "place": f"{km} km {bearing} of {city}",
                  "region": city, "latitude": round(lat + 0.1 * ((n % 5) - 2), 4), "longitude": round(lon + 0.1 * ((n % 3) - 1), 4),
                  "occurred_at": format_timestamp(ctx.now - timedelta(hours=5 + 11 * n))}
    else:
        return None
    if key in values and (t is None or (t in ("integer", "number")) == _is_number(values[key])):
        return values[key]
    return None


CHARACTER_NOUNS = frozenset({"champion", "hero", "heroe"})  # "heroe": how a plain singular reads "heroes"
ROSTER_NOUNS = frozenset({"character", "agent"})  # a game's characters only in a game's service
GAME_SERVICES = frozenset({"valorant", "lol", "dota", "opendota", "overwatch", "opgg", "gg", "tft", "moba", "esports", "smite"})
# each game's roster (name, role); the topic `game_character_<game>` says which game, as a tool's own
# names do (OP.GG serves League of Legends and Valorant)
ROSTERS: dict[str, list[tuple[str, str]]] = {
    "valorant": [("Jett", "Duelist"), ("Sage", "Sentinel"), ("Sova", "Initiator"), ("Omen", "Controller"), ("Reyna", "Duelist"),
                 ("Killjoy", "Sentinel"), ("Brimstone", "Controller"), ("Skye", "Initiator"), ("Phoenix", "Duelist"), ("Cypher", "Sentinel"),
                 ("Viper", "Controller"), ("Breach", "Initiator"), ("Raze", "Duelist"), ("Astra", "Controller")],
    "dota": [("Pudge", "Disabler"), ("Invoker", "Nuker"), ("Juggernaut", "Carry"), ("Crystal Maiden", "Support"), ("Axe", "Initiator"),
             ("Anti-Mage", "Carry"), ("Lion", "Support"), ("Shadow Fiend", "Carry"), ("Phantom Assassin", "Carry"), ("Earthshaker", "Initiator"),
             ("Zeus", "Nuker"), ("Lina", "Nuker"), ("Slark", "Escape"), ("Sniper", "Carry")],
    "overwatch": [("Tracer", "Damage"), ("Mercy", "Support"), ("Reinhardt", "Tank"), ("Genji", "Damage"), ("Ana", "Support"),
                  ("D.Va", "Tank"), ("Soldier: 76", "Damage"), ("Lucio", "Support"), ("Winston", "Tank"), ("Widowmaker", "Damage"),
                  ("Kiriko", "Support"), ("Zarya", "Tank"), ("Cassidy", "Damage"), ("Sojourn", "Damage")],
    "lol": [("Ahri", "Mid"), ("Jinx", "Bottom"), ("Thresh", "Support"), ("Lee Sin", "Jungle"), ("Garen", "Top"), ("Lux", "Mid"),
            ("Ezreal", "Bottom"), ("Darius", "Top"), ("Yasuo", "Mid"), ("Leona", "Support"), ("Kai'Sa", "Bottom"), ("Vi", "Jungle"),
            ("Ornn", "Top"), ("Lulu", "Support")],
}
GAME_ALIASES = {"opendota": "dota", "valorant": "valorant", "dota": "dota", "overwatch": "overwatch", "lol": "lol", "tft": "lol"}
TOPIC_FIELDS.update({f"game_character_{game}": CHARACTER_TOPIC for game in ROSTERS})


# A match of a team game (OpenDota's `get_match_data(match_id)`, OP.GG's game history): two sides, their
# scores, who won, how long it lasted, in which mode and with which of the game's characters. Dota's
# matches had been calendar events ("Match 2" in Denver, from February to April).
MATCH_NOUNS = frozenset({"match", "game"})
MATCH_SIDES = {"dota": ("radiant", "dire"), "lol": ("blue", "red"), "valorant": ("attackers", "defenders"), "overwatch": ("team_1", "team_2")}
# per game: the score range of a side (kills, or rounds won), a match's length in seconds, its modes, what its characters are called
MATCH_RULES: dict[str, tuple[tuple[int, int], tuple[int, int], list[str], str]] = {
    "dota": ((12, 58), (1_500, 3_600), ["All Pick", "Ranked All Pick", "Captains Mode", "Turbo"], "heroes"),
    "lol": ((8, 42), (1_200, 2_400), ["Ranked Solo/Duo", "Ranked Flex", "Normal Draft", "ARAM"], "champions"),
    "valorant": ((13, 13), (1_800, 3_000), ["Competitive", "Unrated", "Swiftplay"], "agents"),
    "overwatch": ((2, 3), (600, 1_200), ["Competitive", "Quick Play"], "heroes"),
}


def _match_fields(game: str) -> list[F]:
    a, b = MATCH_SIDES[game]
    return [(f"{a}_score", None, I), (f"{b}_score", None, I), ("winner", None, S), ("duration_seconds", None, I), ("game_mode", None, S),
            (MATCH_RULES[game][3], None, {"type": "array", "items": S}), ("start_time", "datetime", S)]


TOPIC_FIELDS.update({f"esports_match_{game}": _match_fields(game) for game in MATCH_SIDES})


def _match(game: str, draw: int) -> tuple[int, int, list[str]]:
    """A match of a game: the two sides' scores (the winner's higher) and the ten characters picked."""
    rng = random.Random(f"match:{game}:{draw}")  # one draw per match, so its scores, winner and picks agree
    lo, hi = MATCH_RULES[game][0]
    won = rng.randint(lo, hi) if lo < hi else hi
    lost = rng.randint(max(0, lo // 2), won - 1) if lo < hi else rng.randint(0, won - 2)
    a, b = (won, lost) if rng.random() < 0.5 else (lost, won)
    roster = [name for name, _ in ROSTERS[game]]
    return a, b, rng.sample(roster, min(10, len(roster)))


def esports_value(name: str, t: str | None, ctx: "ValueContext", n: int, rng: random.Random) -> Any:
    """Record `n`'s match of its game (`ctx.game`): its sides' scores, winner, length, mode and picks."""
    game = ctx.game if ctx.game in MATCH_SIDES else "lol"
    a, b = MATCH_SIDES[game]
    score_a, score_b, picks = _match(game, ctx.shared(n, "match_draw", lambda: rng.getrandbits(32)))
    key = snake(name)
    if t in ("integer", "number") and key in (f"{a}_score", f"{b}_score"):
        return score_a if key == f"{a}_score" else score_b
    if t in ("string", None) and key in ("winner", "winning_side", "winning_team"):
        return (a if score_a > score_b else b).replace("_", " ").title()
    if t in ("integer", "number") and key in ("duration_seconds", "duration"):
        return rng.randint(*MATCH_RULES[game][1])
    if t in ("string", None) and key in ("game_mode", "mode", "queue"):
        return rng.choice(MATCH_RULES[game][2])
    if t == "array" and key in ("heroes", "champions", "agents", "picks"):
        return picks
    return None


def game_of(tool_words: set[str], service_words: frozenset[str]) -> str:
    """Which game's characters a tool reads: the one its own names say, else its service's, else
    League of Legends (OP.GG's first game, whose champions the other words name)."""
    for ws in (tool_words, service_words):
        game = next((GAME_ALIASES[w] for w in sorted(ws) if w in GAME_ALIASES), None)
        if game is not None:
            return game
    return "lol"
TIERS = ["S", "A", "A", "B", "B", "B", "C", "C"]


def _character(c: "ValueContext", n: int) -> tuple[str, str]:
    """Record `n`'s character of its game: its name and role."""
    return _nth(ROSTERS.get(c.game, ROSTERS["lol"]), n)
TOPIC_NOUNS = frozenset(k for _, keys, _ in TOPICS for k in keys)

# archetypes only of an entity whose own noun is theirs (a Google Play app's privacy policy is no app)
OWN_NOUN_TOPICS = frozenset({"project", "workflow", "run", "app", "voice", "experiment", "memory"})
NAMED_TOPICS = frozenset({"workflow", "run", "project", "folder", "task", "message", "order", "resource", "log", "image", "series", "standing", "version", "table", "permission", "presence",
                          "voice", "experiment", "memory", "app",
                          "definition", "scripture", "graph", "engagement", "compound", "availability", "shortcut", "tag",
                          "registry", "model", "course", "assignment", "scene", "config", "component", "prompt", "process", "scan", "tab",
                          "endpoint",
                          # a Blender object's location or a population's country makes neither a place
                          "place"})
BROAD_TOPICS = frozenset({"resource", "log", "process", "scan", "tab", "endpoint", "tag", "project", "place", "permission"})
# Archetypes one generic word of theirs does not make: (those words, what else must be said). A cultural
# "item" is no product, a project no code package, a forwarding email's address no place on a map.
# what says a flow, a pipeline or a run is an orchestrator's (a sales pipeline, a cash flow, a test run are not)
# (a product's "enhance your workflows" says nothing: a CRM's pipelines stay sales pipelines)
ORCHESTRATION_WORDS = frozenset({"airflow", "prefect", "dagster", "orchestration", "orchestrator", "etl", "dag", "dags", "argo",
                                 "temporal", "luigi", "kestra"})
WEAK_KEYS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "workflow": (frozenset({"flow", "pipeline"}), ORCHESTRATION_WORDS),
    "run": (frozenset({"run", "execution"}), ORCHESTRATION_WORDS),
    "product": (frozenset({"item", "listing", "offer", "deal"}), frozenset({"price", "shop", "store", "buy", "cart", "sku", "inventory", "stock", "order", "sale", "sell"})),
    "package": (frozenset({"project", "module", "extension", "plugin"}), frozenset({"code", "git", "github", "repo", "repository", "npm", "pypi", "version", "dependency", "install", "software", "library", "release", "registry", "terraform"})),
    "place": (frozenset({"address"}), frozenset({"street", "city", "postal", "zip", "geocode", "map", "location", "shipping", "billing", "country",
                                                 "geolocate", "geolocation", "latitude", "longitude", "coordinates"})),
    "resource": (frozenset({"connection", "instance", "environment", "device"}), frozenset({"server", "host", "cluster", "container", "pod",
                                                                                          "vm", "cloud", "aws", "kubernetes", "docker", "ssh",
                                                                                          "port", "region", "node", "tunnel", "database", "db"})),
    "chain": (frozenset({"address"}), frozenset({"wallet", "blockchain", "chain", "token", "eth", "btc", "crypto", "onchain", "contract",
                                                 "transaction", "hash", "ens", "solana", "bitcoin", "ethereum", "evm"})),
    # `dbt_show` or `show_tables` shows something: a show is a TV show only where screen words are said
    "media": (frozenset({"show"}), frozenset({"tv", "episode", "season", "movie", "film", "series", "video", "streaming", "netflix", "imdb",
                                              "tmdb", "tvmaze", "anime", "cast", "actor", "trakt", "watch", "watchlist", "network", "podcast"})),
    # a stock exchange, an exchange-traded fund or a crypto exchange is no exchange rate (FMP's `getAvailableExchanges`,
    # `getETFList`); a rate is one where money is said
    "rate": (frozenset({"exchange", "conversion"}), frozenset({"currency", "currencies", "usd", "eur", "gbp", "jpy", "fx", "forex", "rate", "convert",
                                                               "money", "frankfurter", "ecb"})),
    # a subscription's, a workflow's or a type's definition is no word in a dictionary
    # and a paper search's "key words" no word of one; a word's definitions are
    "definition": (frozenset({"definition", "word"}), frozenset({"definition", "word", "dictionary", "synonym", "antonym", "rhyme", "thesaurus", "pronunciation",
                                                                 "meaning", "vocabulary", "lexical", "lexicon", "etymology", "slang", "idiom",
                                                                 "wordnet", "spelling", "rhyming", "homophone"})),
}
# Archetypes words beside their own rule out: (their words, the words that rule them out). A mental
# model, an Anki note type or a dashboard's data model is no AI model; Redis' SCAN of keys or a barcode
# scan is no security scan; a Docker image is no picture.
GAME_WORDS = frozenset({"game", "games", "eve", "steam", "skin", "skins", "osrs", "runescape", "minecraft", "pokemon", "mtg",
                        "isk", "albion", "warframe", "csgo", "cs2", "dota", "boardgame", "boardgamegeek"})
# the words of linear algebra and vector calculus: their products, ranks and decompositions are computations
# ("cross" is a cross-chain bridge's too, "gradient" a colour's, "curl" an HTTP client's)
LINEAR_ALGEBRA = frozenset({"matrix", "matrices", "tensor", "tensors", "dot", "determinant", "eigen", "eigenvalue", "eigenvector",
                            "decompose", "decomposition", "orthonormal", "laplacian", "divergence"})
RULED_OUT: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "model": (frozenset({"model"}), frozenset({"mental", "mentalmodel", "note", "anki", "flashcard", "card", "thought", "thinking", "framework",
                                               "dashboard", "chart", "vizro", "mesh", "blender", "unity", "schema", "config", "configuration", "state"})),
    "scan": (frozenset({"scan"}), frozenset({"key", "keys", "redis", "cursor", "barcode", "qr", "qrcode"})),
    # an app's permissions (Google Play's CAMERA, LOCATION) are no grants to a user
    "permission": (frozenset({"permission"}), frozenset({"app", "apps", "android", "apk", "play", "ios"})),
    # a container image is no picture, a matrix's QR decomposition no QR code
    "image": (frozenset({"image", "qr"}), frozenset({"docker", "dockerfile", "container", "podman", "registry", "repository", "oci"} | LINEAR_ALGEBRA)),
    # a vector's dot product is no shop's goods
    "product": (frozenset({"product"}), LINEAR_ALGEBRA),
    # a matrix's rank and a search engine's ranking rules are no league table
    "standing": (frozenset({"rank", "ranking"}), LINEAR_ALGEBRA | frozenset({"meilisearch", "typesense", "algolia", "elasticsearch", "searchable",
                                                                             "relevance"})),
    # a field's rate of change (a Laplacian, a divergence) is no exchange rate
    "rate": (frozenset({"rate"}), LINEAR_ALGEBRA),
    # a game's market (EVE Online, RuneScape, a board game's) trades items, not stocks or coins
    "price": (frozenset({"price", "market", "trade", "trading", "coin", "token", "share"}), GAME_WORDS),
    "chain": (frozenset({"chain", "block", "token", "coin"}), GAME_WORDS),
    # a chat's or a design tool's channel is no TV channel (Slack's channels had been films with a genre)
    "media": (frozenset({"channel"}), frozenset({"slack", "discord", "teams", "telegram", "whatsapp", "chat", "message", "messages", "guild",
                                                 "figma", "nixos", "graphlit", "workspace", "mattermost", "zulip", "irc", "webhook"})),
    # a debugger's or a machine's memory is no remembered fact, a memory palace's journey none either;
    # a brand's voice archetype is no text-to-speech voice
    # (a knowledge graph's memory holds entities with observations: the graph archetype's)
    "memory": (frozenset({"memory", "memories"}), frozenset({"gdb", "debugger", "debug", "ram", "heap", "cpu", "disk", "monitor", "monitoring",
                                                           "process", "processes", "graph", "entity", "entities", "relation", "relations",
                                                           "observation", "observations"})),
    "voice": (frozenset({"voice"}), frozenset({"archetype", "tone", "brand", "copywriting"})),
    # an asylum, a loan or a job application is no software
    "app": (frozenset({"application"}), frozenset({"rsd", "asylum", "refugee", "loan", "job", "visa", "grant", "permit", "admission"})),
    # a forecasting agent's forecast (Chronulus' experts' predictions, a probability) is no weather
    "weather": (frozenset({"forecast"}), frozenset({"prediction", "predictor", "forecaster", "expert", "experts", "probability"})),
    # a mind map or a site map is no place
    "place": (frozenset({"map"}), frozenset({"mind", "mindmap", "sitemap", "site", "heatmap", "heat", "roadmap", "source", "sourcemap"})),
}
SERVICE_RULES_OUT = frozenset({"price", "chain", "image", "media", "standing"})
# the records of a family a service's words rule out: its archetype's (finance's are price quotes)
FAMILY_ARCHETYPE = {"finance": "price"}
# where the service's own name or description may say it (a Kubernetes service's instances are servers); a
# service about code does not make each of its projects a code package
SERVICE_SAYS: dict[str, frozenset[str]] = {"resource": WEAK_KEYS["resource"][1], "definition": WEAK_KEYS["definition"][1],
                                           "workflow": ORCHESTRATION_WORDS, "run": ORCHESTRATION_WORDS}
# a docstring's "Returns: A dictionary containing ..." is a Python dict, not a dictionary of words
PYTHON_DICT = re.compile(r"\b(?:returns?:?|dict:)\s+(?:an?\s+)?dictionary\b|\b(?:an?|as\s+a)\s+dictionary\s+(?:containing|with|of|mapping|where)\b"
                         r"|\bdictionary\s+(?:containing|of\s+\w+\s+(?:and|with))\b", re.I)
# a web page is the record of a tool whose entity is one (`fetch_html`, `firecrawl_scrape` of a page) or
# that fetches one by its address: a browser profile, a scraped flight or a binding site is none
WEBPAGE_ENTITIES = frozenset({"webpage", "website", "html", "url", "page", "web", "markdown"})
FETCH_WORDS = frozenset({"fetch", "scrape", "crawl"})
ANALYST_TOPICS = frozenset({"grade", "estimate"})
STOCK_WORDS = frozenset({"stock", "analyst", "eps", "symbol", "ticker", "share", "earning", "equity", "dcf"})
INCIDENTAL_WORDS = frozenset({"user", "users", "account", "accounts"})
AUTH_TOKENS = frozenset({"token", "tokens"})
DEFAULT_TOPIC: list[F] = [("name", "title", S), ("description", "text", S), ("value", None, N), ("updated_at", "datetime", S)]

# Reverse engineering (IDA Pro, Ghidra, radare2...): a function, a global, a segment or an import of a
# binary is a symbol at an address, not a generic record. Only services that say they reverse binaries
# get it: a database's `functions` or a school's `classes` are something else.
REVERSING_WORDS = frozenset({"ida", "ghidra", "radare", "radare2", "r2", "binja", "disassembler", "disassembly", "decompiler",
                             "decompile", "reversing", "reverse", "x64dbg", "binary"})
REVERSING_TOOLS = frozenset({"ida", "ghidra", "radare2", "binja", "x64dbg"})  # one of these names is enough
SYMBOL_NOUNS = frozenset({"function", "global", "method", "class", "segment", "section", "string", "import", "export", "xref",
                          "symbol", "entry", "point", "struct", "label", "name", "result", "data", "local", "address"})
SYMBOL_TOPIC: list[F] = [("name", None, S), ("address", None, S), ("size", None, I), ("segment", None, S), ("kind", None, S)]


# A service about a blockchain: a record whose words would make it a database table, a place or the
# weather (an Ordinals `collection`, a rare `sat`) is an on-chain object at an address instead.
OFF_CHAIN_TOPICS = frozenset({"table", "place", "weather", "component"})  # a block height is no UI block

# Records of a kind their own name decides, whatever the other words count for: an income statement is
# no company and no quote, a dividend no share price, an insider's trade no token transfer, a filing
# no company, a transcript no film and no person. The name is the entity's, or its tool's where the
# entity only holds them (`getDividendsCalendar`, `insider_transactions`, `balance_sheet`).
FINANCE_TOPICS: dict[str, list[F]] = {
    "income_statement": [("symbol", "code", S), ("date", "date", S), ("period", None, S), ("currency", "currency", S),
                         ("revenue", None, N), ("gross_profit", None, N), ("operating_income", None, N), ("net_income", None, N),
                         ("eps", None, N)],
    "balance_statement": [("symbol", "code", S), ("date", "date", S), ("period", None, S), ("currency", "currency", S),
                          ("total_assets", None, N), ("total_liabilities", None, N), ("total_equity", None, N),
                          ("cash_and_equivalents", None, N)],
    "cash_flow_statement": [("symbol", "code", S), ("date", "date", S), ("period", None, S), ("currency", "currency", S),
                            ("operating_cash_flow", None, N), ("capital_expenditure", None, N), ("free_cash_flow", None, N),
                            ("dividends_paid", None, N)],
    "dividend": [("symbol", "code", S), ("ex_date", "date", S), ("record_date", "date", S), ("payment_date", "date", S),
                 ("dividend", None, N), ("yield_percent", None, N)],
    "stock_split": [("symbol", "code", S), ("date", "date", S), ("numerator", None, I), ("denominator", None, I)],
    "insider_trade": [("symbol", "code", S), ("filing_date", "date", S), ("transaction_date", "date", S),
                      ("reporting_name", "person_name", S), ("type_of_owner", None, S), ("transaction_type", None, S),
                      ("securities_transacted", None, I), ("price", "money", N)],
    "sec_filing": [("symbol", "code", S), ("cik", None, S), ("form_type", None, S), ("filing_date", "date", S), ("link", "url", S)],
    # an earnings announcement (FMP's `getEarningsCalendar`, Alpha Vantage's `earnings_calendar`): estimates and results
    "earning": [("symbol", "code", S), ("date", "date", S), ("fiscal_date_ending", "date", S), ("eps_estimated", None, N),
                ("eps_actual", None, N), ("revenue_estimated", None, N), ("revenue_actual", None, N)],
    # a listing to come (`getIPOCalendar`): a new company's symbol, its exchange, price range and shares offered
    "ipo": [("symbol", "code", S), ("company", "company_name", S), ("date", "date", S), ("exchange", None, S), ("price_range", None, S),
            ("shares", None, I)],
    # how a company's environmental, social and governance conduct is rated (FMP's `getESGRatings`): three
    # scores, their mean and the letter grade it earns, not a stock quote
    "esg": [("symbol", "code", S), ("company_name", "company_name", S), ("date", "date", S), ("environmental_score", None, N),
            ("social_score", None, N), ("governance_score", None, N), ("esg_score", None, N), ("esg_rating", None, S)],
    # a symbol's prices over time, one bar per interval (`get_historical_stock_prices`, `fetch_ohlcv`, `get_klines`)
    "price_history": [("symbol", "code", S), ("interval", None, S), ("currency", "currency", S),
                      ("candles", None, {"type": "array", "items": {"type": "object", "properties": {
                          "date": S, "open": N, "high": N, "low": N, "close": N, "volume": I}}})],
}
# What a token or coin is, not what it costs: its name, decimals, supply, contract, what it is for
TOKEN_TOPIC: list[F] = [("symbol", "code", S), ("name", "title", S), ("decimals", None, I), ("total_supply", None, N),
                        ("contract_address", "address", S), ("description", "text", S), ("website", "url", S)]
# (decimals, total supply, what it is) of the coins the world knows
TOKEN_FACTS: dict[str, tuple[int, float, str]] = {
    "BTC": (8, 21_000_000, "the first decentralized digital currency, secured by proof of work"),
    "ETH": (18, 120_300_000, "the native currency of Ethereum, paying for computation and storage on the network"),
    "SOL": (9, 590_000_000, "the native token of Solana, used for fees and staking"),
    "ADA": (6, 45_000_000_000, "the native token of Cardano, used for fees and staking"),
    "USDC": (6, 60_000_000_000, "a dollar stablecoin issued by Circle, redeemable one to one for US dollars"),
    "USDT": (6, 140_000_000_000, "a dollar stablecoin issued by Tether"),
    "WBTC": (8, 130_000, "an ERC-20 token backed one to one by bitcoin held by a custodian"),
    "STRK": (18, 10_000_000_000, "the token of Starknet, used for fees, staking and governance"),
    "JUP": (6, 10_000_000_000, "the governance token of the Jupiter exchange aggregator on Solana"),
    "BONK": (5, 88_000_000_000_000, "a community meme token on Solana"),
    "RAY": (6, 555_000_000, "the token of the Raydium automated market maker on Solana"),
}


def coherent_gas(row: dict[str, Any]) -> None:
    """A gas price in wei is the same price in gwei; an estimate's fee is its gas at that price."""
    gwei = row.get("gas_price_gwei")
    if not isinstance(gwei, (int, float)) or isinstance(gwei, bool):
        return
    if "gas_price_wei" in row:
        row["gas_price_wei"] = int(round(gwei * 1e9))
    if isinstance(row.get("gas"), int) and "fee_eth" in row:
        row["fee_eth"] = float(f"{row['gas'] * gwei / 1e9:.8f}")


def coherent_token(row: dict[str, Any]) -> None:
    """A known coin's facts are its own: Ethereum's 18 decimals and supply, USDC's 6 and what it is."""
    sym = str(row.get("symbol") or "").upper()
    facts, info = TOKEN_FACTS.get(sym), TICKER_INFO.get(sym)
    if "decimals" not in row:
        return
    if facts is None or info is None:  # a token the world does not know says no more than its symbol
        if isinstance(row.get("description"), str) and sym:
            row["description"] = f"The {sym} token."
        return
    decimals, supply, what = facts
    row.update({k: v for k, v in (("name", info[0]), ("decimals", decimals), ("total_supply", supply),
                                  ("description", f"{info[0]} ({sym}) is {what}."),
                                  ("website", f"https://{info[0].lower().replace(' ', '')}.org")) if k in row})


# What names a symbol's prices over time rather than its price now
# a price chart of a symbol (`getFullChart(symbol)`, a market chart) is its prices over time too
HISTORY_WORDS = frozenset({"history", "historical", "ohlc", "ohlcv", "candle", "candlestick", "kline", "bar", "timeseries", "chart"})
STATEMENT_KINDS = ("income_statement", "balance_statement", "cash_flow_statement")
STATEMENTS = frozenset(STATEMENT_KINDS)
FINANCIAL_STATEMENT: list[F] = list({f[0]: f for k in STATEMENT_KINDS for f in FINANCE_TOPICS[k]}.values())
# the text is named for what it is, as transcript APIs name it (a tool named for a transcript answers one)
TRANSCRIPT_TOPIC: list[F] = [("title", "title", S), ("language", None, S), ("transcript", "text", S), ("duration_seconds", None, I)]
# what holds records rather than being one: its tool's name says what the records are
HOLDER_NOUNS = frozenset({"calendar", "trading", "transaction", "history", "data", "list", "report", "result", "info",
                          "detail", "record", "summary", "sheet", "flow", "extractor", "statistic", "ttm"})
FILING_WORDS = frozenset({"sec", "edgar", "form", "cik", "8k", "10k", "10q", "13f", "institutional"})


# What a code host (GitHub, GitLab, Gitea, Bitbucket) holds besides repositories: a commit, a branch,
# a pull request and a release are each their own record, not a code package with stars and a licence.
CODE_HOST_WORDS = frozenset({"git", "github", "gitlab", "gitea", "bitbucket", "repo", "repository", "commit", "branch", "pull", "merge"})
GIT_TOPICS: dict[str, list[F]] = {
    "commit": [("sha", None, S), ("message", None, S), ("author", "person_name", S), ("committed_at", "datetime", S),
               ("additions", None, I), ("deletions", None, I)],
    "branch": [("name", None, S), ("sha", None, S), ("protected", "flag", B)],
    "pull_request": [("title", "title", S), ("state", None, S), ("author", "person_name", S), ("head", None, S), ("base", None, S),
                     ("created_at", "datetime", S)],
    "release": [("tag_name", None, S), ("name", "title", S), ("body", "text", S), ("published_at", "datetime", S),
                ("draft", "flag", B), ("prerelease", "flag", B)],
}


def _git_kind(own: set[str], context: set[str]) -> str | None:
    if not context & CODE_HOST_WORDS:
        return None
    if "commit" in own:
        return "commit"
    if "branch" in own:
        return "branch"
    if own & {"pull", "pr", "mr"} or ("merge" in own and "request" in own):
        return "pull_request"
    if "release" in own:
        return "release"
    return None


def named_topic(entity: str, tools: list[str], texts: list[str]) -> tuple[str, list[F]] | None:
    """The archetype the names of an entity decide, before word counts: its own name, or, when the
    entity only holds records (`calendars`), its tools' names if they all say the same kind. An entity
    whose tools name several statements (`getIncomeStatement`, `getBalanceSheetStatement`) holds all
    of their lines."""
    ent = {singular(w) for w in words(entity)}
    context = {singular(w) for t in texts for w in words(t)}
    git = _git_kind(ent | ({w for t in tools for w in map(singular, words(t))} if ent <= {"request"} else set()), context)
    if git is not None:  # `pull_request`'s entity is "request": its tools say whose
        return git, GIT_TOPICS[git]
    finance = bool(context & (STOCK_WORDS | {"financial", "finance", "fiscal", "quarterly", "annual", "company", "dividend",
                                             "income", "earning", "cik", "sec", "fmp", "nasdaq", "nyse", "ttm"}))
    if ent and not ent & HOLDER_NOUNS:
        kinds = {_named_kind(ent, context, finance)}
        if kinds <= STATEMENTS:  # which statements: what its tools say (`getCashFlowStatement`)
            kinds = {_named_kind(ent | {singular(w) for w in words(t)}, context, finance) for t in tools} & STATEMENTS or kinds
    else:
        kinds = {_named_kind(ent | {singular(w) for w in words(t)}, context, finance) for t in tools}
        if len(kinds - {None}) > 1 and kinds - {None} <= STATEMENTS:
            return "financial_statement", FINANCIAL_STATEMENT  # `getIncomeStatementTTM`, `getBalanceSheetStatementTTM`
        if len(kinds) > 1:
            return None  # a calendar of dividends, earnings and IPOs is no one kind's
    if len(kinds & STATEMENTS) > 1:
        return "financial_statement", FINANCIAL_STATEMENT
    name = next(iter(kinds), None)  # one kind by now (or none: an entity with no tools)
    if name == "transcript":
        return "transcript", TRANSCRIPT_TOPIC
    return (name, FINANCE_TOPICS[name]) if name else None


def _named_kind(own: set[str], context: set[str], finance: bool) -> str | None:
    """The kind of record these name words decide ("split" and "statement" only in a financial service)."""
    if own & {"transcript", "transcription", "caption", "subtitle"}:
        return "transcript"
    if "insider" in own:
        return "insider_trade"
    if "esg" in own:
        return "esg"
    if "dividend" in own:
        return "dividend"
    if "cashflow" in own or {"cash", "flow"} <= own:
        return "cash_flow_statement"
    if {"balance", "sheet"} <= own:
        return "balance_statement"
    if ("income" in own or "statement" in own) and finance and not own & {"bank", "account", "card"}:
        return "income_statement"
    if "split" in own and finance:
        return "stock_split"
    if "filing" in own and context & FILING_WORDS:
        return "sec_filing"
    if "earning" in own and finance and not own & {"call", "transcript", "estimate"}:
        return "earning"
    if "ipo" in own:  # an initial public offering is a market's, whatever else the service says
        return "ipo"
    return None


ONCHAIN_TOPIC: list[F] = [("address", "address", S), ("txid", None, S), ("block_height", None, I), ("confirmed_at", "datetime", S)]

# A chain or a network a blockchain service supports (`getSupportedChains`, `get_chain_info(chainId)`):
# a network with its chain id and native currency, not a token transfer.
NETWORK_NOUNS = frozenset({"chain", "chains", "network", "networks", "blockchain", "blockchains"})
NETWORK_TOPIC: list[F] = [("name", "title", S), ("chain_id", None, S), ("native_currency", "code", S), ("rpc_url", "url", S)]
# (name, chain id, native currency, public RPC endpoint) per chain family. Chain ids are text: EVM's
# are numbers, Starknet's the hex felts of "SN_MAIN" and "SN_SEPOLIA" its RPC answers, Solana's the
# 101-103 of its token list.
NETWORKS: dict[str, list[tuple[str, str, str, str]]] = {
    "evm": [("Ethereum", "1", "ETH", "https://eth.llamarpc.com"), ("Optimism", "10", "ETH", "https://mainnet.optimism.io"),
            ("BNB Smart Chain", "56", "BNB", "https://bsc-dataseed.bnbchain.org"), ("Polygon", "137", "POL", "https://polygon-rpc.com"),
            ("Base", "8453", "ETH", "https://mainnet.base.org"), ("Arbitrum One", "42161", "ETH", "https://arb1.arbitrum.io/rpc"),
            ("Avalanche C-Chain", "43114", "AVAX", "https://api.avax.network/ext/bc/C/rpc"),
            ("Sepolia", "11155111", "ETH", "https://rpc.sepolia.org")],
    "starknet": [("Starknet Mainnet", "0x534e5f4d41494e", "STRK", "https://starknet-mainnet.public.blastapi.io"),
                 ("Starknet Sepolia", "0x534e5f5345504f4c4941", "STRK", "https://starknet-sepolia.public.blastapi.io")],
    "solana": [("Solana Mainnet Beta", "101", "SOL", "https://api.mainnet-beta.solana.com"),
               ("Solana Testnet", "102", "SOL", "https://api.testnet.solana.com"), ("Solana Devnet", "103", "SOL", "https://api.devnet.solana.com")],
}


def reversing(scope_words: set[str]) -> bool:
    """Whether a service's own name and description say it reverse-engineers binaries."""
    return len(scope_words & REVERSING_WORDS) >= 2 or bool(scope_words & REVERSING_TOOLS)


def topic_for(texts: list[str], on_chain: bool = True, context: frozenset[str] = frozenset()) -> tuple[str, list[F]]:
    """The template whose keywords best match the words of a tool's name and description. Off a
    blockchain (`on_chain` False), a token is one that authenticates, not a coin with a price.
    `context` (the service's name and description) may say what a generic word of an archetype
    needs beside it (`WEAK_KEYS`: Replicate's "models" are AI models), never choose an archetype."""
    first_text = words(texts[0]) if texts else []
    first_names = words(" ".join(texts[0].split()[:2])) if texts else []  # the entity's and its first tool's names
    # tool descriptions speak to the person calling them ("after the user chooses a week", "in your account"):
    # "user" or "account" makes a record a person only when a name (the entity's, a tool's) says it
    said = {w for t in texts for w in words(t.split(" ", 1)[0])} | set(first_names)
    drop = (set() if said & INCIDENTAL_WORDS else set(INCIDENTAL_WORDS)) | (set() if on_chain else set(AUTH_TOKENS))
    if any(PYTHON_DICT.search(t) for t in texts) and all(t.lower().count("dictionar") == len(PYTHON_DICT.findall(t)) for t in texts):
        drop.add("dictionary")
    toks = [w for t in texts for w in words(t) if w not in drop]
    sing = {w[:-1] if w.endswith("s") and len(w) > 3 else w for w in toks}
    best, best_score = ("", DEFAULT_TOPIC), 0.0
    # an archetype shapes only a record its own words name (the entity, its first tool and what that
    # tool says it does), never one whose other tools merely mention the archetype's words
    head_words = [w for w in first_text if w not in drop]
    head = set(head_words)  # words of the name count more than the description (first text)
    named = head | {w[:-1] if w.endswith("s") and len(w) > 3 else w for w in head_words}
    # broad archetypes (a server, a log) only from the names themselves: "... of the device" or "... its
    # output" in a description does not make a screen size a server or a thought a log line
    name_words = [w for w in first_names if w not in drop]
    names = set(name_words) | {w[:-1] if w.endswith("s") and len(w) > 3 else w for w in name_words}
    first = [w for w in first_text[:1] if w not in drop]  # the entity's own noun counts most
    for name, keys, fields in TOPICS:
        if name in NAMED_TOPICS and not (names if name in BROAD_TOPICS else named) & set(keys):
            continue
        if name == "webpage" and (not (set(first) & WEBPAGE_ENTITIES or (names & FETCH_WORDS and head & WEBPAGE_ENTITIES))
                                  or names & {"note", "notes", "format"}):  # a note's raw HTML, text formatted as Markdown
            continue
        if name == "person" and first and not {first[0], singular(first[0])} & (set(keys) | PERSON_ENTITIES | PERSON_PARTS):
            continue  # a player's heroes or a user's settings are no people: the entity's own noun says
        if name in OWN_NOUN_TOPICS and not (first and {first[0], singular(first[0])} & set(keys)):
            continue  # a project's saved context or tree is no project, a deal with a pipeline id no workflow
        present = sing | set(toks)
        hit = present & set(keys)
        # what else is said: one weak word of an archetype is no evidence for itself
        said_beside = present & WEAK_KEYS[name][1] - (hit if len(hit) == 1 else frozenset()) if name in WEAK_KEYS else frozenset()
        if name in WEAK_KEYS and hit and hit <= WEAK_KEYS[name][0] \
                and not said_beside and not context & SERVICE_SAYS.get(name, frozenset()) \
                and not (on_chain and name in ("place", "chain")):  # on a chain an address is the chain's
            continue  # an artwork is an "item" and a Fibery database a "project": no product, no code package
        # (a game's or a container service's own name may say it: RuneScape's item prices, Docker's images)
        if name in RULED_OUT and hit <= RULED_OUT[name][0] and (present | (context if name in SERVICE_RULES_OUT else frozenset())) & RULED_OUT[name][1]:
            continue
        if name in ANALYST_TOPICS and not sing & STOCK_WORDS:
            continue  # a heroku plan upgrade or a query's cost estimate is no analyst's call on a stock
        if name == "market_cap" and not sing & {"market", "capitalization", "stock"}:
            continue  # a rate cap, a spending cap
        score = 0.0
        for i, k in enumerate(keys):
            if k in sing:
                score += 3.0 if i == 0 else 2.0
        score += sum(1.0 for k in keys if k in head)
        if first and (first[0] in keys or (first[0].endswith("s") and first[0][:-1] in keys)):
            score += 10.0
        if score > best_score:
            best, best_score = (name, fields), score
    if best[0] == "result" and "sql" in named:  # an SQL query answers rows of tables, not search hits
        return "table", TOPIC_FIELDS["table"]
    return best


# -- families: the archetypes of records the corpus is made of ---------------------------------

FAMILIES: list[tuple[str, tuple[str, ...]]] = [
    ("file", ("file", "folder", "directory", "dir", "filesystem", "upload", "attachment", "blob", "bucket", "drive")),
    ("repo", ("repo", "repository", "package", "commit", "diff", "patch", "branch", "pull", "merge", "git", "github", "gitlab", "release")),
    ("web", ("web", "search", "site", "crawl", "scrape", "link", "browse", "serp", "url", "webpage")),
    ("weather", ("weather", "forecast", "temperature", "climate", "rain", "wind", "humidity", "meteo")),
    ("finance", ("quote", "stock", "ticker", "price", "rate", "chain", "statement", "income", "earnings", "financial", "dividend", "crypto", "coin", "market", "fx",
                 "grade", "estimate")),
    ("news", ("news", "headline", "story", "press", "rss", "blog", "post")),
    ("ticket", ("issue", "ticket", "bug", "incident", "jira", "todo", "backlog", "task")),
    ("project", ("project", "initiative")),
    ("workflow", ("dag", "workflow", "dagrun")),
    ("message", ("message", "mail", "email", "inbox", "chat", "thread", "conversation", "dm", "sms", "notification", "reply", "channel")),
    ("event", ("event", "calendar", "meeting", "appointment", "schedule", "booking", "reservation", "invite")),
    ("contact", ("contact", "user", "person", "people", "member", "profile", "account", "customer", "employee", "lead", "candidate")),
    ("company", ("company", "organization", "organisation", "business", "vendor", "supplier", "brand")),
    ("order", ("order", "payment", "invoice", "charge", "refund", "transaction", "subscription", "checkout", "cart", "purchase", "billing")),
    ("health", ("health", "healthcheck", "heartbeat", "uptime", "liveness", "readiness")),
    ("metric", ("metric", "report", "analytics", "stat", "statistic", "usage", "kpi", "dashboard", "monitor")),
    ("place", ("place", "location", "route", "direction", "map", "geocode", "poi", "restaurant", "hotel", "trip", "distance", "station", "airport")),
    ("media", ("media", "video", "audio", "podcast", "episode", "transcript", "caption", "subtitle", "movie", "film", "song", "track", "playlist")),
    ("deploy", ("container", "deployment", "deploy", "pod", "cluster", "docker", "kubernetes", "k8s", "instance", "server", "build", "pipeline", "resource")),
    ("table", ("table", "row", "column", "database", "db", "sql", "schema", "dataset", "sheet", "spreadsheet")),
    ("paper", ("paper", "publication", "arxiv", "pubmed", "research", "citation", "scholar", "journal", "preprint", "biorxiv", "medrxiv",
               "chemrxiv", "scihub", "ssrn")),
    ("document", ("document", "doc", "note", "wiki", "page", "memo", "draft", "knowledge", "article", "content")),
    ("log", ("log", "console", "stdout", "stderr", "trace", "audit", "journal")),
    ("image", ("image", "photo", "picture", "screenshot", "icon", "thumbnail", "avatar", "logo", "qrcode")),
    ("config", ("config", "configuration", "setting", "preference", "variable", "env", "option")),
    ("component", ("component", "widget", "element", "ui")),
    ("prompt", ("prompt", "template", "instruction")),
    ("standing", ("standing", "leaderboard", "ranking", "league")),
    ("whois", ("registry", "registrar", "tld", "asn", "dns")),  # `whois` reads as a plural here: the topic's name counts
    ("permission", ("permission", "grant", "acl")),
    ("presence", ("presence",)),
    ("voice", ("voice",)),
    ("experiment", ("experiment",)),
    ("memory", ("memory", "memories")),
    ("app", ("app", "application")),
    ("engagement", ("engagement", "activity", "interaction", "call")),
    ("shortcut", ("shortcut",)),
    ("tag", ("tag", "label", "hashtag", "category")),
    ("process", ("process", "pid")),
    ("endpoint", ("endpoint",)),
    ("compound", ("compound", "substance", "molecule", "chemical", "smiles")),
    ("definition", ("definition", "dictionary", "synonym", "antonym", "rhyme", "thesaurus", "pronunciation")),
    ("scripture", ("verse", "quran", "surah", "ayah", "juz", "bible", "scripture", "ruku", "manzil", "maqra", "recitation")),
    ("graph", ("graph", "relation", "observation")),
    ("model", ("model", "llm", "embedding", "checkpoint")),
    ("course", ("course", "lesson", "lecture", "curriculum", "classroom", "enrollment")),
    ("nft", ("nft", "erc721", "erc1155", "collectible")),
    ("emoji", ("emoji", "emoticon")),
    ("product", ("product", "sku", "merchandise")),  # a database's catalog and an ordinal's listing are no shop's goods
    ("binary", ("symbol",)),  # the `symbol` topic of a reverse-engineering service (`reversing`)
    ("series", ("indicator", "average", "oscillator", "series", "intraday", "gdp", "inflation", "unemployment", "cpi", "commodity", "treasury", "sma", "ema", "rsi", "macd")),
]


@lru_cache(maxsize=65536)
def _head(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """A text's words, each as written, as its singular and without its last `s` (`news` is news, not
    "new"; `branches` is a branch; `metrics` a metric), and their prefixes of 7 letters or more:
    `transcriptions` is a transcript."""
    ws = words(text)
    found = frozenset(ws) | frozenset(singular(w) for w in ws) | frozenset(w[:-1] if w.endswith("s") and len(w) > 3 else w for w in ws)
    return found, frozenset(w[:n] for w in found for n in range(7, len(w) + 1))


def family_for(texts: list[str]) -> str:
    """The family of records an entity belongs to, from its names (entity, collection, topic, tool
    names, descriptions; the first text counts most); "" when no family's words appear."""
    best, best_score = "", 0.0
    heads = [_head(t) for t in texts]

    def hits(keys: tuple[str, ...], head: tuple[frozenset[str], frozenset[str]]) -> int:
        found, prefixes = head
        return sum(1 for k in keys if k in found or (len(k) >= 7 and k in prefixes))

    for name, keys in FAMILIES:
        score = sum((4.0 if i == 0 else 1.0) * hits(keys, h) for i, h in enumerate(heads))
        if score > best_score:
            best, best_score = name, score
    return best


# A search hit of a web search engine (Brave, Google, Tavily): a page of the web about the query.
WEB_RESULT = "web_result"
WEB_SEARCH_WORDS = frozenset({"web", "bing", "brave", "duckduckgo", "ddg", "serp", "serpapi", "internet", "searxng",
                              "tavily", "exa", "kagi", "search1api", "linkup", "websearch"})


def searches_the_web(service: str, tool_names: list[str]) -> bool:
    """Whether a tool named for a search searches the web: an engine's name (or "web") in its name or
    its service's, or Google with a search (Google Drive's or Google Tasks' search is no web search)."""
    svc = set(words(service))
    for name in tool_names:
        ws = set(words(name)) | svc
        if ws & {"search", "serp"} and set(words(name)) & {"search", "serp"} and (ws & WEB_SEARCH_WORDS or {"google", "search"} <= ws
                                                                                  and not ws & {"drive", "tasks", "cloud", "play", "maps", "scholar"}):
            return True
    return False


def web_hits(query: str, fields: list[str], prefix: str, world: World, k: int) -> list[dict[str, Any]]:
    """`k` pages of the web about `query`, as a search engine lists them: the query's words in the
    title and the snippet, on the sites of the world's companies; the same for the same query."""
    topic = " ".join(query.split())[:80].strip().capitalize() or "Home"
    rng = random.Random(short_hash(f"web/{topic.lower()}", 16))
    sites = rng.sample(list(world.companies), min(k, len(world.companies))) if world.companies else []
    hits = []
    for i, co in enumerate(sites):
        page = {"title": f"{topic} | {co.name}", "url": f"https://{co.domain}/{slugify(topic) or 'home'}",
                "snippet": render_page(topic, co.name, set()), "score": round(1.0 - 0.1 * i, 2)}
        hit = {"id": f"{prefix}_x{short_hash(page['url'], 8)}"}
        hit.update({f: page.get(f, page["snippet"] if f in ("content", "text", "description", "summary") else None) for f in fields if f != "id"})
        hits.append(hit)
    return hits


# Topic templates too broad to say which family a record is of (an "event" may be a meeting, a
# concert or a date in history; a "document" a policy or a 10-K filing; the `product` template also
# shapes a board's items and their updates): the entity's own names decide then.
CATCH_ALL_TOPICS = frozenset({"result", "metric", "event", "document"})


CHAINS: list[tuple[str, set[str]]] = [
    ("bitcoin", {"bitcoin", "btc", "ordinal", "ordinals", "inscription", "inscriptions", "ordiscan", "rune", "runes", "brc20", "lightning", "satoshi", "sats"}),
    ("starknet", {"starknet", "cairo", "strk"}),
    ("solana", {"solana", "sol", "spl", "phantom", "jupiter", "raydium"}),
    ("evm", {"ethereum", "eth", "evm", "erc20", "erc721", "polygon", "arbitrum", "bsc", "uniswap", "defi", "web3", "blockchain",
             "onchain", "crypto", "cryptocurrency", "nft", "nfts", "coin", "dex", "etherscan"}),
]
CRYPTO = {"bitcoin": ["BTC"], "starknet": ["STRK", "ETH", "USDC", "USDT", "WBTC"], "solana": ["SOL", "USDC", "JUP", "BONK", "RAY"],
          "evm": ["ETH", "USDC", "USDT", "WBTC", "DAI", "LINK", "UNI"]}
_B32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def chain_of(text: str) -> str:
    """The blockchain a service's words name ("" for none): its addresses and symbols follow it."""
    ws = set(words(text))
    return next((name for name, keys in CHAINS if ws & keys), "")


def _address(r: random.Random, c: ValueContext) -> str:
    if c.chain == "bitcoin":
        return "bc1q" + "".join(r.choice(_B32) for _ in range(38))
    if c.chain == "solana":
        return "".join(r.choice(_B58) for _ in range(44))
    if c.chain == "starknet":
        return "0x%064x" % r.getrandbits(251)
    return "0x%040x" % r.getrandbits(160)


COINS = frozenset({s for coins in CRYPTO.values() for s in coins} | {"BTC", "ETH", "SOL", "ADA"})
# Tickers of companies: what files income statements, pays dividends and gets analysts' grades (a coin does none)
STOCKS = [t for t in TICKERS if t not in COINS] + ["JPM", "KO", "DIS", "INTC", "PEP", "V"]
# a company's filings (a coin's or a stock's prices over time are no filing)
FILINGS = frozenset(FINANCE_TOPICS) - {"price_history"} | {"financial_statement"}
EQUITY_TOPICS = FILINGS | ANALYST_TOPICS | {"market_cap", "earnings_transcript", "company"}
# how a company's filings read in a sentence (the others read as their names: "income statement")
EQUITY_WORDS = {"balance_statement": "balance sheet", "stock_split": "stock splits", "insider_trade": "insider trades",
                "sec_filing": "SEC filings", "financial_statement": "financial statements", "dividend": "dividends",
                "esg": "ESG rating", "company": "company profile"}


def not_in_world(topic: str, known: dict[str, Any]) -> str | None:
    """Why the outside world holds no record of `topic` with these values (a coin files no balance
    sheet and pays no dividend), or None: a lookup answers not-found rather than derive one."""
    symbol = next((v for k, v in known.items() if k in ("symbol", "ticker") and isinstance(v, str)), None)
    # a company's filings (statements, dividends, splits, insider trades): an analyst's view of a coin may exist
    if (topic in FILINGS or topic == "company") and symbol is not None and symbol.upper() in COINS:
        return f"{symbol} is a cryptocurrency, not a company's stock: it has no {EQUITY_WORDS.get(topic, topic.replace('_', ' '))}"
    return None


def _symbol(r: random.Random, c: ValueContext) -> str:
    if c.chain:
        return r.choice(CRYPTO[c.chain])
    return r.choice(STOCKS if c.equity else TICKERS)


PREFIXED_FAMILIES = ("gateway", "ledger", "cluster", "exchange", "research", "solana", "chembl", "catalog", "game_character", "meteo",
                     "esports")


def entity_family(entity: str, collection: str, topic: str) -> str:
    """The family of a compiled entity's records: its own names first, then its topic template
    (weather, price, paper, ...). The service's name is no evidence (a `goal_story` app is no
    newsroom)."""
    if topic in FINANCE_TOPICS or topic in ("financial_statement", "token", "dcf"):
        return "finance"
    if topic in ("transcript", "network", "game", "athlete", "stat"):
        return topic
    if topic in ("workflow", "run"):
        return "workflow"  # a workflow and its runs share names, schedules and states
    # a kind of record of one domain's archetype set (`ledger_account`, `catalog_sw_planet`): its family
    prefixed = next((family for family in PREFIXED_FAMILIES if topic.startswith(f"{family}_")), None)
    if prefixed is not None:
        return prefixed
    if topic in OWN_FAMILY_TOPICS:
        return topic
    if topic in (WEB_RESULT, "webpage"):
        return "web"  # a fetched `page` is a page of the web, not a document of a drive
    family = family_for([f"{entity} {collection}", "" if topic in CATCH_ALL_TOPICS | {"product"} else topic])
    if family == "engagement" and set(words(entity)) & {"tool", "function", "api", "rpc", "method"}:
        return ""  # a tool call is no phone call with a customer
    return family


def _person_role(name: str, family: str) -> str:
    """Whose person a field holds: the role its name says (`assignee` -> an employee), else the
    family's people (a repository's committers and a file's owners are ours; otherwise a customer's
    contact)."""
    role = role_of(None, "", name, "email")
    if role in ("employee", "customer_contact", "vendor_contact", "candidate"):
        return role
    return {"repo": "employee", "deploy": "employee", "metric": "employee", "document": "employee", "file": "employee",
            "ticket": "customer_contact"}.get(family, "customer_contact")


# -- values -----------------------------------------------------------------------------------

class ValueContext:
    """What value generation draws on: the seed's shared world (people, companies), a date anchor,
    and the family of the records being made (`family_for`; "" = none known). It remembers, per
    record (`n`), the person in each role and the values fields must agree on (a file's name)."""

    def __init__(self, world: World, now: datetime, family: str = "", entity: str = "", chain: str = "") -> None:
        self.world = world
        self.now = now
        self.family = family
        self.entity = entity
        self.chain = chain  # the blockchain the service is about ("bitcoin", "starknet", "solana", "evm"; "" none)
        self.ids: tuple[str, ...] = ()  # the ids of the records being seeded, for fields that point at a sibling
        self.scope: frozenset[str] = frozenset()  # the words of the service's name and description
        self.equity = False  # records only a company has (a balance sheet, a dividend): their symbols are stocks
        self.game = ""  # the game whose characters the records are ("lol", "valorant", ...; "" none)
        self.catalog = ""  # the catalog the records are drawn from (`CATALOGS`; "" none)
        self._people: dict[tuple[int, str], Person] = {}
        self._shared: dict[tuple[int, str], Any] = {}

    @classmethod
    def of(cls, world: World, now: datetime, entity: str, collection: str, topic: str, scope: str = "") -> ValueContext:
        """The context for the records of one compiled entity: its family from its names, the chain
        its addresses and token symbols belong to from its service's words (`scope`)."""
        family = entity_family(entity, collection, topic)
        if family == "binary" and not reversing(set(words(scope))):
            family = ""  # a `symbol` outside a reverse-engineering service is a ticker or a token, not a code address
        if family == "transcript" and {singular(w) for w in words(scope)} & (STOCK_WORDS | {"financial", "finance", "fmp"}):
            family = "earnings_transcript"  # a financial data service's transcripts are of earnings calls
        ruled = RULED_OUT.get(FAMILY_ARCHETYPE.get(family, family))
        if ruled is not None and set(words(scope)) & ruled[1]:
            # an Anki service's models are note types, a Docker service's images container images
            family = "deploy" if family == "image" else ""
        ctx = cls(world, now, family, entity, chain_of(scope))
        ctx.scope = frozenset(words(scope))
        ctx.equity = topic in EQUITY_TOPICS or family in EQUITY_TOPICS  # an earnings call is a listed company's
        ctx.game = topic.removeprefix("game_character_") if family == "game_character" else \
            topic.removeprefix("esports_match_") if family == "esports" else ""
        ctx.catalog = topic.removeprefix("catalog_") if family == "catalog" else ""
        return ctx

    def person(self, rng: random.Random, n: int, role: str = "customer_contact") -> Person | None:
        """Record `n`'s person in a role (the same one for its name, email and phone)."""
        key = (n, role)
        if key not in self._people:
            pool = cast_of(self.world).people(role) if self.world.employees else ()
            if not pool:
                return None
            self._people[key] = pool[rng.randrange(len(pool))]
        return self._people[key]

    def shared(self, n: int, what: str, make: Callable[[], Any]) -> Any:
        """A value record `n`'s fields share (a file's name and the end of its path)."""
        key = (n, what)
        if key not in self._shared:
            self._shared[key] = make()
        return self._shared[key]

    def shared_values(self, n: int) -> dict[str, Any]:
        """What record `n`'s fields were made to agree on, by name (`city`, `paper`, ...)."""
        return {what: v for (m, what), v in self._shared.items() if m == n}


def _plural(word: str) -> str:
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "o", "u"):
        return word[:-1] + "ies"
    return word + ("es" if word.endswith(("s", "x", "ch", "sh")) else "s")


def slugify(text: str) -> str:
    """`text` as a URL-safe slug: lower-case words joined by hyphens."""
    return "-".join(words(text))[:40] or "item"


@lru_cache(maxsize=65536)
def _name_words(name: str) -> tuple[str, ...]:
    return tuple(words(name))  # memoized: seeding asks for the same field names thousands of times


@lru_cache(maxsize=65536)
def _name_tokens(name: str) -> frozenset[str]:
    return frozenset(_name_words(name))


def value_for(name: str, sem: str | None, shape: dict[str, Any], rng: random.Random, ctx: ValueContext, n: int = 0,
              unique: bool = False) -> Any:
    """A realistic value for a field: semantic type first, then the field's name, then its shape.
    The result always fits `shape` (a loosened schema) when it has a type. `unique`: the field keys
    its records (each record `n` gets its own value)."""
    branches = [b for c in ("anyOf", "oneOf") for b in shape.get(c) or () if isinstance(b, dict) and b.get("properties")]
    if branches and "properties" not in shape:  # a merged shape (`anyOf` of the tools' views): the one with fields
        return value_for(name, sem, max(branches, key=lambda b: len(b["properties"])), rng, ctx, n, unique)
    lists = [b for c in ("anyOf", "oneOf") for b in shape.get(c) or () if isinstance(b, dict) and isinstance(b.get("items"), dict)]
    if lists and "items" not in shape and sem is None:  # views of one list (Weaviate's tenants, one with the statuses' enum): the fullest
        return value_for(name, sem, max(lists, key=lambda b: len(json.dumps(b["items"], sort_keys=True))), rng, ctx, n, unique)
    t = main_type(shape)
    types = json_types(shape)
    if t == "object" and isinstance(shape.get("properties"), dict) and shape["properties"]:
        out = {k: value_for(k, None, sub if isinstance(sub, dict) else {}, rng, ctx, n) for k, sub in shape["properties"].items()}
        if _name_tokens(name) & ENV_WORDS and isinstance(out.get("name"), str):
            # an environment variable: a variable's name and a value of its kind, not the record's name
            var, value = ENV_VARS[n % len(ENV_VARS)]
            out["name"] = var
            if isinstance(out.get("value"), str):
                out["value"] = value
        return out
    if t == "array" and isinstance(shape.get("items"), dict) and main_type(shape["items"]) == "object":
        return [value_for(name, None, shape["items"], rng, ctx, n + i) for i in range(rng.randint(1, 2))]
    if t == "array" and isinstance(shape.get("items"), dict) and main_type(shape["items"]) in ("integer", "number") and \
            not any(w in shape["items"] for w in _FREE):
        # numbers named by the list (`ports`: port numbers), not any float
        item = _number(set(_name_tokens(name)), main_type(shape["items"]) or "number", rng)
        return [item] if fits(shape, [item]) else sample(shape, rng)
    example = _example(shape, sem, rng, n, unique)
    if example is not None:
        return example
    if t == "object" and not shape.get("properties") and _name_tokens(name) & RECORD_WORDS:
        return _record_object(rng, ctx, n)
    if t == "array" and isinstance(shape.get("items"), dict) and main_type(shape["items"]) == "object" and \
            not shape["items"].get("properties") and _name_tokens(name) & RECORD_WORDS:
        return [_record_object(rng, ctx, n + i) for i in range(rng.randint(1, 3))]
    hint = _hint(name, sem, t, rng, ctx, n)
    if hint is not None and (not types or _type_ok(hint, types)) and ("enum" not in shape or hint in shape["enum"]):
        if name == "name" and isinstance(hint, str):
            ctx.shared(n, "name", lambda: hint)  # a path made later ends with it
        return hint
    if not shape:
        return hint if hint is not None else f"{slugify(name)}-{n + 1}"
    label = _field_label(name, shape, rng, ctx, n, n + 1 if unique else None)
    return label if label is not None else sample(shape, rng)


_FREE = ("enum", "const", "format", "pattern")
RECORD_WORDS = frozenset({"document", "documents", "doc", "docs", "record", "records", "row", "rows", "entry", "entries"})


def _record_object(rng: random.Random, ctx: ValueContext, n: int) -> dict[str, Any]:
    """A stored document of no declared shape (a database's `documents`): a customer row of the world."""
    p = ctx.person(rng, n, "customer_contact")
    if p is None:
        return {"_id": short_hash(f"{ctx.entity}/{n}", 24)}
    return {"_id": short_hash(f"{ctx.entity}/{n}/{p.email}", 24), "name": p.name, "email": p.email,
            "company": p.company, "status": rng.choice(["active", "active", "trial", "churned"])}
WORLD_SEMS = frozenset({"email", "person_name", "company_name", "phone", "date", "datetime"})


def _example(shape: dict[str, Any], sem: str | None, rng: random.Random, n: int, unique: bool) -> Any:
    """One of the values the specification gives as examples (`examples`, from its description:
    Unity's asset types "Material", "Prefab"...), when it gives at least two: what the field holds in
    its own domain's words. People, companies and dates still come from the task world; a field that
    keys its records takes the `n`th example while they last."""
    items = shape.get("items") if main_type(shape) == "array" and isinstance(shape.get("items"), dict) else None
    examples = (items or shape).get("examples")
    if sem in WORLD_SEMS or not isinstance(examples, list) or len(examples) < 2 or (unique and n >= len(examples)):
        return None
    v = examples[n] if unique else examples[rng.randrange(len(examples))]
    v = [v] if items is not None else v
    return v if fits(shape, v) else None


def _field_label(name: str, shape: dict[str, Any], rng: random.Random, ctx: ValueContext, n: int, k: int | None) -> Any:
    """For a plain-text field nothing else shapes: the `k`th of a few values per field, so records
    that refer to the same session agree and an argument naming one finds it; `k` is the record's
    number when the field keys its records. A field whose name says what it holds gets a value of
    that kind (`KNOWN_FIELDS`: a cron line for `schedule`, a DOI for `doi`); any other a label that
    says what it is (`course-02`, not a random "mspsyt"). Arrays of plain text get one such value.
    None: the shape wants more."""
    t = main_type(shape)
    k = rng.randint(1, 4) if k is None else k
    if t == "array" and isinstance(shape.get("items"), dict) and main_type(shape["items"]) == "string" and \
            not any(w in shape["items"] for w in _FREE):
        one = singular(name) if is_plural(name) else name
        value: Any = [sibling_id(one, ctx, n, k) or known_value(one, ctx, k) or f"{slugify(one)}-{k:02d}"]
    elif t == "string" and not any(w in shape for w in _FREE):
        own = machine_name(ctx.entity, n) if _name_words(name)[-1:] == tuple(words(ctx.entity))[-1:] else None
        # `app` of an app is its name (`billing-app`); "course-01" is not found by "course-12"
        value = sibling_id(name, ctx, n, k) or known_value(name, ctx, k) or (own and ctx.shared(n, "name", lambda: own)) \
            or _opaque_id(name, k) or f"{slugify(name)}-{k:02d}"
    else:
        return None
    return value if fits(shape, value) else None


# Things of a software team that people name with a slug of what they serve (`billing-app`,
# `checkout-pipeline`), not "App 1"
MACHINE_NOUNS = frozenset({"app", "application", "service", "flow", "workflow", "pipeline", "job", "function", "bucket", "queue",
                           "topic", "connector", "source", "destination", "stack", "workspace", "project", "space", "integration",
                           "webhook", "trigger", "script", "dashboard", "team", "site", "bot", "dataset", "cluster", "environment"})
AREAS = ["billing", "checkout", "inventory", "analytics", "search", "notifications", "onboarding", "reporting", "payments",
         "support", "marketing", "shipping"]


def machine_name(entity: str, n: int) -> str | None:
    """Record `n`'s name when its entity is something a team names by a slug (`app` -> `billing-app`)."""
    ws = words(entity)
    if not ws or ws[-1] not in MACHINE_NOUNS:
        return None
    return _nth([f"{area}-{ws[-1]}" for area in AREAS], n, "-")


ID_WORDS = frozenset({"id", "identifier", "uuid", "guid", "key"})


def _opaque_id(name: str, k: int) -> str | None:
    """An identifier of a record no service here holds (`drive_id`, `applicationIdentifier`): an opaque
    string of the usual look, the same for the same field and number, not a label like `drive-id-02`."""
    ws = _name_words(name)
    return short_hash(f"{name}/{k}", 12) if ws and ws[-1] in ID_WORDS else None


PROSE = ["Agreed with the team; details are in the shared notes.", "Reviewed and approved for the next release.",
         "Needs a follow-up with the owner before Friday.", "Based on the figures from the last quarter."]


def _secret(prefix: str) -> Callable[[ValueContext, int, str], str]:
    """A credential of the usual look (`ghp_...`), the same for the same field and record number."""
    return lambda c, k, name: f"{prefix}{short_hash(f'{name}/{k}', 32)}"


def _kth(options: list[str]) -> Callable[[ValueContext, int, str], str]:
    return lambda c, k, name: _nth(options, k - 1, "-")


# Plain-text fields that no family or semantic type shapes, by their name's words: what such a field
# holds across the corpus (the most frequent ones that were labels like "session-03").
KNOWN_FIELDS: dict[tuple[str, ...], Callable[[ValueContext, int, str], str]] = {
    ("tag",): _kth(["urgent", "internal", "customer", "follow-up"]),
    ("word",): _kth(["serendipity", "resilient", "harbor", "ephemeral", "candid", "meticulous"]),
    ("session",): _kth(["default", "support", "sales-team", "marketing"]),
    ("year",): lambda c, k, name: str(c.now.year - k + 1),
    ("quarter",): lambda c, k, name: f"Q{(c.now.month - 1) // 3 + 1} {c.now.year - k + 1}",
    ("database",): _kth(["analytics", "inventory", "billing", "crm"]),
    ("collection",): _kth(["orders", "customers", "products", "events"]),
    ("index", "uid"): _kth(["products", "articles", "customers", "movies"]),
    ("index",): _kth(["products", "articles", "customers", "logs-2026.01"]),
    ("datatype",): _kth(["json", "csv"]),
    ("password",): _kth(["Harbor-Lantern-42!", "Quiet.Orchid.77", "Summit#Falcon-19", "Copper+River-08"]),
    ("passphrase",): _kth(["correct horse battery staple", "seven amber lanterns drift", "quiet river under granite",
                           "north wind carries salt"]),
    ("token",): _secret("tok_"),
    ("api", "token"): _secret("tok_"),
    ("access", "token"): _secret("at_"),
    ("custom", "token"): _secret("ct_"),
    ("api", "key"): _secret("sk_"),
    ("secret",): _secret("sec_"),
    ("secret", "key"): _secret("sk_"),
    ("private", "key"): lambda c, k, name: "0x" + short_hash(f"{name}/{k}", 64),
    ("signature",): lambda c, k, name: "0x" + short_hash(f"{name}/{k}", 64) + short_hash(f"{name}/{k}/s", 64),
    ("connection", "string"): _kth(["postgresql://app@db.internal:5432/analytics", "mysql://reporting@db.internal:3306/sales",
                                    "mongodb://app@mongo.internal:27017/orders", "redis://cache.internal:6379/0"]),
    ("package",): _kth(["requests", "lodash", "numpy", "express"]),
    ("section",): _kth(["Introduction", "Methods", "Results", "Discussion"]),
    ("ref",): _kth(["main", "v1.4.0", "develop", "release/2026.1"]),
    ("command",): _kth(["python app.py", "npm start", "./scripts/migrate.sh", "make test"]),
    ("arg",): _kth(["--port=8080", "--verbose", "--config=/etc/app/config.yaml", "--workers=4"]),
    ("doi",): _kth(["10.1038/s41586-024-07711-7", "10.1145/3580305.3599256", "10.1101/2025.03.14.643210",
                    "10.48550/arXiv.2403.01234"]),
    ("schedule",): _kth(["0 9 * * 1-5", "*/15 * * * *", "0 2 * * *", "0 0 1 * *"]),
    ("chat", "jid"): _kth(["4915112345678@s.whatsapp.net", "447700900123@s.whatsapp.net", "120363042911@g.us",
                           "14155550123@s.whatsapp.net"]),
    ("method",): _kth(["GET", "POST", "PUT", "DELETE"]),
    ("scope",): _kth(["read", "write", "admin", "read:org"]),
    ("where",): _kth(["status = 'active'", "amount > 100", "created_at >= '2026-01-01'", "region = 'EU'"]),
    ("chain",): _kth(["ethereum", "polygon", "arbitrum", "base"]),
    ("conclusion",): _kth(["The results support the approach under the stated assumptions.",
                           "The evidence is mixed; a larger sample is needed.",
                           "The change is worth adopting, with the risks noted above.",
                           "No significant difference was found."]),
    ("claim",): _kth(["The new checkout flow raises conversion by 4%.", "Remote teams ship as fast as co-located ones.",
                      "Caching the catalogue halves the page load time.", "The vendor's uptime is above 99.9%."]),
    ("industry",): _kth(["Healthcare", "Logistics", "Financial services", "Retail"]),
    ("symbol",): lambda c, k, name: _nth(CRYPTO.get(c.chain) or TICKERS, k - 1, "-"),
    ("coin",): _kth(["bitcoin", "ethereum", "solana", "cardano"]),
    ("cep",): lambda c, k, name: f"{(k * 7919) % 89_000 + 10_000:05d}-{(k * 37) % 1000:03d}",  # a Brazilian postal code
    ("zip",): lambda c, k, name: f"{(k * 7919) % 89_000 + 10_000:05d}",
    ("barcode",): _kth(["4006381333931", "5012345678900", "0012345678905", "7622210449283"]),
    ("cc",): lambda c, k, name: _world_person(c, k + 2).email if c.world.contacts else None,
    ("bcc",): lambda c, k, name: _world_person(c, k + 6).email if c.world.contacts else None,
    ("mailto",): lambda c, k, name: _world_person(c, k).email if c.world.contacts else None,
    ("channel",): _kth(["#general", "#support", "#eng-alerts", "#sales"]),
    ("journal",): _kth(["Nature", "Science", "The Lancet", "PLOS ONE"]),
    ("pmid",): _kth(["38012345", "37654321", "36987012", "39120456"]),
    ("nct", "id"): _kth(["NCT05512345", "NCT04876543", "NCT06123987", "NCT05098761"]),
    ("fields", "of", "study"): _kth(["Computer Science", "Medicine", "Economics", "Biology"]),
    ("publication", "type"): _kth(["JournalArticle", "Review", "Conference", "Book"]),
    ("technology",): _kth(["React", "PostgreSQL", "Kubernetes", "Python"]),
    ("module",): _kth(["auth", "billing", "search", "reports"]),
    ("role",): _kth(["admin", "editor", "viewer", "owner"]),
    ("container",): lambda c, k, name: _nth(SERVICES[:4], k - 1, "-"),  # the deployments' own services
    ("game", "mode"): _kth(["ranked", "casual", "arcade", "co-op"]),
    ("keyword",): _kth(["pricing", "onboarding", "security", "analytics"]),
    # free text that no family shapes: a neutral line a colleague might write, not "desc-03"
    ("desc",): _kth(PROSE),
    ("contents",): _kth(PROSE),
    ("decision", "statement"): _kth(["We will move the launch to the second week of the quarter.",
                                     "We keep the current vendor and renegotiate the renewal.",
                                     "We adopt the new review process for every release.",
                                     "We pause hiring for the role until the budget is approved."]),
    ("call", "benefit"): _kth(["Confirms the delivery date before the order is placed.",
                               "Gives the customer a contact for escalations.",
                               "Settles the open questions on the contract in one call.",
                               "Lets the team plan the rollout with real figures."]),
    ("legal", "basis", "explanation"): _kth(["The contact agreed to be emailed on the signup form.",
                                             "Needed to fulfil the contract the customer signed.",
                                             "The contact asked for the newsletter at the trade fair.",
                                             "Existing customer: updates about the product they use."]),
    ("thought",): _kth(["First, list what is known and what is missing.", "The second option is cheaper but slower to ship.",
                        "Check the latest policy before deciding.", "The numbers disagree; verify the source."]),
}
# Other names of the same fields.
KNOWN_FIELDS.update({alias: KNOWN_FIELDS[name] for alias, name in {
    ("zip", "code"): ("zip",), ("zipcode",): ("zip",), ("postal", "code"): ("zip",), ("postcode",): ("zip",),
    ("db",): ("database",), ("package", "name"): ("package",), ("library",): ("package",), ("cmd",): ("command",),
    ("cron",): ("schedule",), ("jid",): ("chat", "jid"), ("http", "method"): ("method",),
    ("field", "of", "study"): ("fields", "of", "study"), ("technologies",): ("technology",), ("key", "word"): ("keyword",),
}.items()})

# Fields whose meaning depends on the records' family: `from`/`to` are people in a knowledge graph,
# addresses in a message, currencies in a rate; `value`/`image` are an env value and a container image
# in a deployment; `network` and `protocol` are a chain's network and a DeFi protocol in finance, a
# transport in a deployment.
FAMILY_FIELDS: dict[tuple[str, str], Callable[[ValueContext, int, str], str | None]] = {
    ("graph", "from"): lambda c, k, name: _world_person(c, k).name if c.world.contacts else None,
    ("graph", "to"): lambda c, k, name: _world_person(c, k + 4).name if c.world.contacts else None,
    ("graph", "target"): lambda c, k, name: _world_person(c, k + 4).name if c.world.contacts else None,
    ("graph", "source"): lambda c, k, name: _world_person(c, k).name if c.world.contacts else None,
    ("message", "from"): lambda c, k, name: _world_person(c, k).email if c.world.contacts else None,
    ("message", "to"): lambda c, k, name: _world_person(c, k + 4).email if c.world.contacts else None,
    ("finance", "from"): lambda c, k, name: _end_of_transfer(c, k - 1),
    ("finance", "to"): lambda c, k, name: _end_of_transfer(c, k),
    ("finance", "network"): _kth(["mainnet", "testnet", "sepolia", "devnet"]),
    ("deploy", "value"): _kth(["production", "8080", "true", "info"]),
    ("deploy", "protocol"): _kth(["TCP", "UDP", "HTTP", "HTTPS"]),
    ("finance", "protocol"): _kth(["aave", "uniswap", "lido", "curve-dex"]),  # DeFi protocols, not network ones
    ("deploy", "image"): _kth(["nginx:1.27", "postgres:16", "redis:7.2", "python:3.12-slim"]),
    ("deploy", "network"): _kth(["bridge", "host", "backend", "frontend"]),
}


SWAP_WORDS = frozenset({"swap", "quote", "route", "exchange", "conversion", "convert", "rate", "price", "bridge"})


def _end_of_transfer(c: ValueContext, k: int) -> str:
    """`from`/`to` of a finance record: on a chain, the addresses a transfer goes between, or the tokens
    of a swap; elsewhere the currencies of a rate (`send_ETH(to)` held "GBP")."""
    if not c.chain:
        return CURRENCIES[k % len(CURRENCIES)]
    if set(words(c.entity)) & SWAP_WORDS:
        return CRYPTO[c.chain][k % len(CRYPTO[c.chain])]
    return _address(rng_for(c.chain, c.entity, k), c)


def _world_person(ctx: ValueContext, k: int) -> Person:
    return ctx.world.contacts[(k - 1) % len(ctx.world.contacts)]


SIBLING_WORDS = frozenset({"parent", "depends", "dependency", "dependencies", "continuation", "previous", "duplicate", "blocked",
                           "blocks", "predecessor", "successor", "supersedes", "superseded", "replaces"})


def sibling_id(name: str, ctx: ValueContext, n: int, k: int) -> str | None:
    """`parent_context_id` of a context, `depends_on` of a task: the id of another record being seeded
    (the `k`th after record `n`), not a label."""
    toks = set(_name_words(name))
    rest = toks - SIBLING_WORDS - {"id", "ids", "on", "of", "to", "by", "key"}
    if not ctx.ids or len(ctx.ids) < 2 or not toks & SIBLING_WORDS or not rest <= {ctx.entity, _plural(ctx.entity)}:
        return None
    own = n % len(ctx.ids)
    return ctx.ids[(own + 1 + (k - 1) % (len(ctx.ids) - 1)) % len(ctx.ids)]


def known_value(name: str, ctx: ValueContext, k: int) -> str | None:
    """The `k`th value of a plain-text field whose name (and records' family) says what it holds."""
    toks = _name_words(name)
    if toks and toks[-1] in ("file", "files", "path", "paths", "filepath"):  # `related_files` of a task: paths, not "related-files-02"
        return f"/{FILE_DIRS[(k - 1) % len(FILE_DIRS)]}/{FILE_STEMS[(k - 1) % len(FILE_STEMS)]}.md"
    gen = FAMILY_FIELDS.get((ctx.family, "_".join(toks))) or KNOWN_FIELDS.get(toks)
    if gen is None and ctx.chain:  # a service about a chain: its networks and protocols are the chain's
        gen = FAMILY_FIELDS.get(("finance", "_".join(toks)))
    return gen(ctx, k, name) if gen is not None else None


def _type_ok(v: Any, types: list[str]) -> bool:
    if isinstance(v, bool):
        return "boolean" in types
    if isinstance(v, int):
        return "integer" in types or "number" in types
    if isinstance(v, float):
        return "number" in types
    if isinstance(v, str):
        return "string" in types
    if isinstance(v, list):
        return "array" in types
    if isinstance(v, dict):
        return "object" in types
    return v is None and "null" in types


FUTURE_WORDS = ("due", "deadline", "expires", "expiry", "starts", "scheduled", "until", "next", "upcoming", "end")


PAST_FAMILIES = frozenset({"finance", "series", "news", "log", "metric", "paper", "repo", "standing", "esports"})


def _window(name: str) -> tuple[int, int]:
    """Days around the world's today a date field may fall in: what already happened lies before
    today (`created_at`, `published_at`, `observed_at`), what is due lies ahead, others either side."""
    if past_field(name):
        return -90, -1
    if any(w in name for w in FUTURE_WORDS):
        return 1, 60
    return -90, 60


def _day(ctx: ValueContext, rng: random.Random, lo: int, hi: int) -> datetime:
    return ctx.now + timedelta(days=rng.randint(lo, hi), hours=rng.randint(0, 8), minutes=rng.choice([0, 15, 30, 45]))


_GENERIC_SEMS = {"code", "text", "title", "category", "query", "status", "json", "quantity", "flag"}
# The text of a field nothing in the spec shapes ("Memory 12, as recorded."): a placeholder, which the
# fidelity checks look for (a tool that answers with it says nothing its spec asks for).
PLACEHOLDER = ", as recorded."
PERSON_WORDS = frozenset({"owner", "author", "assignee", "creator", "sender", "recipient", "manager", "person", "customer",
                          "contact", "user", "requester", "reporter", "committer", "speaker", "host", "organizer", "full"})


# what a person has: a user's name, login or phone is the person's record
PERSON_PARTS = frozenset({"name", "login", "phone", "username", "owner"})
PERSON_ENTITIES = frozenset({"author", "user", "person", "contact", "member", "customer", "employee", "speaker", "candidate",
                             "attendee", "profile", "lead", "subscriber", "student", "instructor", "people", "users"})
STREET_ENTITIES = PERSON_ENTITIES | {"company", "companies", "organization", "business", "vendor", "supplier", "store", "shop", "office",
                                     "branch", "location", "venue", "hotel", "restaurant", "property", "listing", "order", "shipment"}


def _has_street(ctx: ValueContext) -> bool:
    """Whether the records' `address` is where they are: a company's, a person's, a place's or an order's."""
    return ctx.family in ("contact", "place", "order") or bool(set(words(ctx.entity)) & STREET_ENTITIES)


def _hint(name: str, sem: str | None, t: str | None, rng: random.Random, ctx: ValueContext, n: int) -> Any:
    if sem == "flag" and t in ("string", None):
        return rng.choice(["true", "false"])  # a flag a spec declares a string: never the email its name mentions
    # an accounting system's, an exchange's or a research catalog's records: their own fields first (a
    # method's `full_name` is "Residual Network", not a person's)
    own_value = FAMILY_VALUES.get(ctx.family)
    value = own_value(name, t, ctx, n, rng) if own_value is not None else None
    if value is not None:
        return value
    toks = _name_tokens(name)
    if t in ("string", None) and _name_words(name)[-1:] in (("color",), ("colour",)):
        return rng.choice(COLORS)  # a label's `textColor` is a colour, not a text
    w = ctx.world
    # a record about a person (an author, a user) is one person: its name, email and handle agree
    whose = ctx.entity if _name_tokens(ctx.entity) & PERSON_ENTITIES else name
    person = ctx.person(rng, n, _person_role(whose, ctx.family))
    if t in ("string", None) and (sem == "person_name" or (toks & PERSON_WORDS and "name" in toks)) and person is not None:
        if toks & {"first", "given", "firstname", "givenname"}:
            return person.first  # `first_name` is the first name alone, not "Diego Park"
        if toks & {"last", "family", "surname", "lastname", "familyname"}:
            return person.last
        return person.name  # `owner_name` is the owner's name, whatever the record is about
    if ctx.family == "gateway" and t in ("string", "array", None):
        value = gateway_value(name, t, ctx, n)
        if value is not None:
            return value
    if ctx.family and t in ("string", None) and sem not in ("email", "phone", "date", "datetime", "currency", "company_name"):
        # a field naming an id (`template_id`) holds an id, never its family's prose (a prompt's text),
        # unless the family says what such an id is (an NFT's `token_id` is a number, a `model_id` a model's name)
        ws = _name_words(name)
        id_word = ws[-1] if ws and ws[-1] in ID_WORDS else None
        for keys, gen in FAMILY_STR.get(ctx.family, ()):
            # a free-text field (`prompt`, `message`) says what its family's texts say
            if ("_".join(ws) in keys or (id_word in keys and (toks - {id_word}) & keys)) if id_word else \
                    (toks & keys or (sem == "text" and "description" in keys)):
                return gen(rng, ctx, person, n)
    if ctx.family == "network" and t in ("integer", "number") and toks & {"chain", "chainid", "network"} and toks & {"id", "chainid"}:
        chain_id = _network(ctx, n)[1]
        if chain_id.isdigit():
            return int(chain_id)  # a spec that declares the chain id a number
    if ctx.family == "product" and t in ("integer", "number") and toks & {"price", "amount", "cost", "list_price", "unit_price"}:
        return _product(rng, ctx, n)[1]  # the list price of the product the record names
    if ctx.family == "metric" and t in ("integer", "number") and toks & {"value", "current", "latest", "total"}:
        _, unit, lo, hi = _metric(rng, ctx, n)  # where the measure the record names lies: a rate in %, volume in USD
        v = rng.uniform(lo, hi)
        return int(v) if t == "integer" or unit not in ("%", "ms", "seconds", "USD") else round(v, 2)
    if ctx.family == "compound" and t == "number" and toks & {"weight", "mass"}:
        return _compound(rng, ctx, n)[2]  # the weight of the compound the record names
    if ctx.family and t in ("integer", "number"):
        for keys, (lo, hi) in FAMILY_NUM.get(ctx.family, ()):
            if toks & keys:
                v = rng.uniform(lo, hi)
                return int(v) if t == "integer" or toks & COUNT_WORDS else round(v, 2)
    if sem in ("date", "datetime") and t in ("string", None):
        lo, hi = _window(name)
        if ctx.family in PAST_FAMILIES and lo < 0 < hi:
            hi = -1  # a quote's or a log line's date is one that has been
        day = _day(ctx, rng, lo, hi)
        return day.date().isoformat() if sem == "date" else format_timestamp(day)
    if ctx.entity and t in ("string", None) and (sem in ("title", "text") or (sem is None and toks & (NAMES | TEXTS))):
        # what its family does not shape is named after the record's own entity: never filler from another domain
        label = " ".join(words(ctx.entity)).capitalize() or "Item"
        named = machine_name(ctx.entity, n) or f"{label} {n + 1}"
        if name == "name":  # the same as its path's last part when the path came first
            return ctx.shared(n, "name", lambda: named)
        return named if toks & NAMES else f"{label} {n + 1}{PLACEHOLDER}"
    if sem in _GENERIC_SEMS and t in ("string", None):
        # a field's own name says more than a generic type: `version` is "1.4.2", not any code
        for keys, gen in _NAME_STR:
            if toks & keys:
                return gen(rng, ctx, person, n)
    if sem:
        gen = _SEM.get(sem)
        if gen is not None:
            v = gen(rng, ctx, person, n)
            if t in ("integer", "number") and not isinstance(v, (int, float)):
                v = None
            if v is not None:
                return v
    if t == "boolean":
        return rng.random() < 0.5
    if t in ("integer", "number"):
        return _number(toks, t, rng)
    if t == "array":
        if toks & {"tags", "tag", "labels", "label", "keywords", "categories", "topics"}:
            return rng.sample(WORDS, 2)
        if ctx.family == "graph" and toks & {"observations", "facts"}:
            return [f"works at {_co(rng, ctx, n)}", f"met on {_day(ctx, rng, -90, -1).date().isoformat()}"]
        if ctx.family == "graph" and toks & {"relations", "relationships"}:
            return [f"works_with {p.name}" for p in rng.sample(list(w.contacts), 1)] if w.contacts else []
        if ctx.family == "table" and toks & {"columns", "fields"}:
            return list(_table(rng, ctx, n)[1])
        if toks & {"authors", "assignees", "members", "participants", "attendees", "people"}:
            return [p.name for p in rng.sample(list(w.contacts), 2)] if len(w.contacts) >= 2 else []
        if toks & {"emails", "recipients", "to", "cc", "bcc"}:
            return [person.email] if person else []
        return None
    if t == "object":
        return None  # objects are built field by field in value_for
    # strings by name
    for keys, gen in _NAME_STR:
        if toks & keys:
            return gen(rng, ctx, person, n)
    return None


COUNT_WORDS = frozenset({"replicas", "instances", "workers", "threads", "retries", "attempts", "copies", "seats", "nodes",
                         "shards", "partitions"})
ENV_WORDS = frozenset({"env", "environment", "variables", "vars"})
ENV_VARS = [("LOG_LEVEL", "info"), ("PORT", "8080"), ("NODE_ENV", "production"), ("FEATURE_NEW_CHECKOUT", "true"),
            ("DATABASE_URL", "postgresql://app@db.internal:5432/app"), ("WORKERS", "4")]


def _number(toks: set[str], t: str, rng: random.Random) -> float | int:
    integer = t == "integer"
    if toks & {"year"}:
        return rng.randint(1995, 2025)
    if toks & {"lat", "latitude"}:
        v = round(rng.uniform(-60, 70), 4)
        return int(v) if integer else v
    if toks & {"lon", "lng", "longitude"}:
        v = round(rng.uniform(-170, 170), 4)
        return int(v) if integer else v
    if toks & {"price", "amount", "cost", "total", "budget", "salary", "balance", "fee", "revenue", "value"}:
        v = round(rng.uniform(5, 5000), 2)
        return int(v) if integer else v
    if toks & {"change", "changes"} and toks & {"percent", "percentage", "pct"}:
        return round(rng.uniform(-5, 5), 2)  # a day's move is a few percent either way, not a share of 0-100
    if toks & {"percent", "percentage", "pct", "humidity", "probability", "progress"}:
        return rng.randint(0, 100) if integer else round(rng.uniform(0, 100), 1)
    if toks & {"rating", "stars", "score"}:
        return rng.randint(1, 5) if integer else round(rng.uniform(1, 5), 1)
    if toks & {"temperature", "temp"}:
        return rng.randint(-5, 32) if integer else round(rng.uniform(-5, 32), 1)
    if toks & {"age"}:
        return rng.randint(18, 80)
    if toks & {"port", "ports"}:
        return rng.choice([80, 443, 3000, 5432, 8080])
    if toks & {"height", "block"}:
        return rng.randint(800_000, 880_000)
    if toks & COUNT_WORDS:  # whole things, even where the schema says "number"
        return rng.randint(1, 12)
    if toks & {"priority", "level", "severity"}:
        return rng.randint(1, 5)
    if toks & {"wind", "speed", "kph", "mph"}:
        return rng.randint(0, 60) if integer else round(rng.uniform(0, 60), 1)
    if toks & {"duration", "minutes", "seconds", "hours", "timeout", "interval"}:
        return rng.randint(5, 120)
    return rng.randint(1, 500) if integer else round(rng.uniform(1, 500), 2)


def _email(rng: random.Random, ctx: ValueContext, person: Any, n: int) -> str:
    return person.email if person is not None else f"user{n}@example.com"


def _person(rng: random.Random, ctx: ValueContext, person: Any, n: int) -> str:
    return person.name if person is not None else f"Person {n}"


def _company(rng: random.Random, ctx: ValueContext, person: Any, n: int) -> str:
    cos = ctx.world.companies
    if ctx.family == "company" and cos:
        return _company_of(rng, ctx, n).name  # a company's record: its name, domain and city are one company's
    return cos[rng.randrange(len(cos))].name if cos else f"{rng.choice(COMPANY_A)} Labs"


def _title(rng: random.Random, ctx: ValueContext, person: Any, n: int) -> str:
    return " ".join(rng.sample(WORDS, rng.randint(2, 4))).capitalize()


def _text(rng: random.Random, ctx: ValueContext, person: Any, n: int) -> str:
    s = " ".join(rng.sample(WORDS, rng.randint(6, 10)))
    return s[0].upper() + s[1:] + "."


def _url(rng: random.Random, ctx: ValueContext, person: Any, n: int) -> str:
    cos = ctx.world.companies
    dom = cos[rng.randrange(len(cos))].domain if cos else "example.com"
    if ctx.entity:  # the record's own page, not a page about another domain's business
        return f"https://{dom}/{_plural(slugify(ctx.entity))}/{n + 1}"
    return f"https://{dom}/{rng.choice(WORDS)}/{rng.randint(100, 999)}"


# the formats a record's file is in, by what the record is: an audio download is no .docx, a note no .py
ENTITY_EXTS: dict[str, list[str]] = {
    "audio": ["mp3", "m4a", "wav"], "recording": ["m4a", "wav"], "podcast": ["mp3"], "song": ["mp3"], "music": ["mp3"],
    "voice": ["mp3", "wav"], "speech": ["mp3", "wav"], "video": ["mp4", "mov", "webm"], "clip": ["mp4"], "movie": ["mp4", "mkv"],
    "image": ["png", "jpg"], "photo": ["jpg", "png"], "picture": ["jpg", "png"], "screenshot": ["png"], "icon": ["svg", "png"],
    "note": ["md", "txt"], "memo": ["md", "txt"], "markdown": ["md"], "document": ["docx", "pdf", "md"], "doc": ["docx", "md"],
    "pdf": ["pdf"], "csv": ["csv"], "spreadsheet": ["xlsx", "csv"], "sheet": ["xlsx", "csv"], "presentation": ["pptx"], "slide": ["pptx"],
    "script": ["py", "sh"], "code": ["py", "ts", "js"], "log": ["log", "txt"], "report": ["pdf", "md"], "archive": ["zip", "tar.gz"],
}


def _exts(ctx: ValueContext) -> list[str]:
    return next((ENTITY_EXTS[singular(w)] for w in reversed(words(ctx.entity)) if singular(w) in ENTITY_EXTS), EXTS)


def _path(rng: random.Random, ctx: ValueContext, person: Any, n: int) -> str:
    if ctx.entity:  # the record's own file, named as the record is (or after its entity), in a format of its kind
        slug = "_".join(words(ctx.entity)) or "item"
        return f"/workspace/{_plural(slug)}/{ctx.shared(n, 'name', lambda: f'{slug}_{n + 1}.{rng.choice(_exts(ctx))}')}"
    return f"/workspace/{rng.choice(WORDS)}/{rng.choice(WORDS)}_{rng.randint(1, 99)}.{rng.choice(EXTS)}"


_SEM: dict[str, Callable[[random.Random, ValueContext, Any, int], Any]] = {
    "email": _email,
    "person_name": _person,
    "company_name": _company,
    "date": lambda r, c, p, n: _day(c, r, -90, 60).date().isoformat(),
    "datetime": lambda r, c, p, n: format_timestamp(_day(c, r, -90, 60)),
    "money": lambda r, c, p, n: round(r.uniform(10, 5000), 2),
    "currency": lambda r, c, p, n: "USD" if c.family == "product" else r.choice(CURRENCIES),  # the catalog lists in dollars
    "url": _url,
    "phone": lambda r, c, p, n: p.phone if p is not None else "+1-555-0100",
    "file_path": _path,
    "text": _text,
    "title": _title,
    "status": lambda r, c, p, n: r.choice(["open", "active", "pending", "closed"]),
    "category": lambda r, c, p, n: r.choice(CATEGORIES if c.entity else WORDS),
    "quantity": lambda r, c, p, n: r.randint(1, 50),
    "percent": lambda r, c, p, n: round(r.uniform(0, 100), 1),
    "duration": lambda r, c, p, n: r.randint(5, 240),
    "address": lambda r, c, p, n: _address(r, c) if c.chain else f"{r.randint(1, 999)} {r.choice(COMPANY_A)} Street",
    "city": lambda r, c, p, n: r.choice(CITIES)[0],
    "country": lambda r, c, p, n: r.choice(CITIES)[1],
    "location": lambda r, c, p, n: "{}, {}".format(*r.choice(CITIES)),
    "query": lambda r, c, p, n: " ".join(r.sample(WORDS, 2)),
    "flag": lambda r, c, p, n: r.random() < 0.5,
    "code": lambda r, c, p, n: f"{r.choice(WORDS)[:4].upper()}-{r.randint(100, 999)}",
    "json": lambda r, c, p, n: None,
}

_NAME_STR: list[tuple[set[str], Callable[[random.Random, ValueContext, Any, int], Any]]] = [
    # an `emailAddress` inside a permission is a person's email, before any `address` (a wallet's, a street's)
    ({"email", "emailaddress"}, lambda r, c, p, n: p.email if p else f"{r.choice(FIRST).lower()}@{r.choice(c.world.companies).domain if c.world.companies else 'example.com'}"),
    ({"symbol", "ticker"}, lambda r, c, p, n: _symbol(r, c)),
    ({"username", "login", "handle", "owner", "user"}, lambda r, c, p, n: p.email.split("@")[0].replace(".", "_") if p else f"user{n}"),
    ({"repo", "repository"}, lambda r, c, p, n: f"{r.choice(COMPANY_A).lower()}/{r.choice(WORDS)}"),
    ({"language", "lang"}, lambda r, c, p, n: r.choice(LANGUAGES) if _about_code(c) else r.choice(HUMAN_LANGUAGES)),
    ({"version"}, lambda r, c, p, n: f"{r.randint(0, 4)}.{r.randint(0, 12)}.{r.randint(0, 9)}"),
    ({"license", "licence"}, lambda r, c, p, n: r.choice(LICENSES)),
    ({"color", "colour"}, lambda r, c, p, n: r.choice(COLORS)),
    ({"timezone", "tz"}, lambda r, c, p, n: r.choice(TIMEZONES)),
    ({"conditions", "condition", "weather"}, lambda r, c, p, n: r.choice(CONDITIONS)),
    ({"genre"}, lambda r, c, p, n: r.choice(GENRES)),
    ({"ip"}, lambda r, c, p, n: f"10.0.{r.randint(0, 255)}.{r.randint(1, 254)}"),
    ({"domain", "hostname", "host"}, lambda r, c, p, n: c.world.companies[r.randrange(len(c.world.companies))].domain if c.world.companies else "example.com"),
    # a transaction id on a chain is 64 hex digits; a commit's sha 40
    ({"hash", "sha", "commit", "txid", "tx"}, lambda r, c, p, n: "%064x" % r.getrandbits(256) if c.chain else "%040x" % r.getrandbits(160)),
    ({"uuid", "guid"}, lambda r, c, p, n: "{:08x}-{:04x}-4{:03x}-a{:03x}-{:012x}".format(r.getrandbits(32), r.getrandbits(16), r.getrandbits(12), r.getrandbits(12), r.getrandbits(48))),
    ({"wallet"}, lambda r, c, p, n: _address(r, c)),
    # off a chain, a company's, a person's or a place's address is a street's (HubSpot's companies had Ethereum addresses)
    ({"address"}, lambda r, c, p, n: f"{r.randint(1, 999)} {r.choice(COMPANY_A)} Street" if not c.chain and _has_street(c) else _address(r, c)),
    ({"zip", "postcode", "postal"}, lambda r, c, p, n: f"{r.randint(10000, 99999)}"),
    ({"isbn"}, lambda r, c, p, n: f"978{r.randint(1000000000, 9999999999)}"),
    ({"selector"}, lambda r, c, p, n: f"#{r.choice(WORDS)}"),
    ({"branch"}, lambda r, c, p, n: r.choice(["main", "develop", f"feature/{r.choice(WORDS)}"])),
    ({"unit", "units"}, lambda r, c, p, n: unit_for(set(words(c.entity))) or r.choice(["count", "%", "ms", "GB"])),
    ({"period", "interval", "range", "timeframe"}, lambda r, c, p, n: r.choice(["1d", "7d", "30d", "1y"])),
    ({"source"}, lambda r, c, p, n: r.choice(SOURCES)),
    ({"mime", "mimetype", "content_type"}, lambda r, c, p, n: r.choice(["text/plain", "application/json", "image/png"])),
    ({"sql", "query"}, lambda r, c, p, n: " ".join(r.sample(WORDS, 2))),
    ({"code", "script", "expression", "command", "cmd"}, lambda r, c, p, n: f"{r.choice(WORDS)}_{r.randint(1, 9)}()"),
    ({"name", "title", "subject", "label", "heading", "caption"}, _title),
    ({"description", "summary", "body", "content", "text", "message", "note", "notes", "comment", "abstract", "snippet", "bio", "details"}, _text),
    ({"city", "town"}, lambda r, c, p, n: r.choice(CITIES)[0]),
    ({"country"}, lambda r, c, p, n: r.choice(CITIES)[1]),
    ({"location", "place", "region", "area"}, lambda r, c, p, n: "{}, {}".format(*r.choice(CITIES))),
    ({"path", "file", "filename", "filepath", "dir", "directory", "folder"}, _path),
    ({"url", "link", "href", "uri", "website", "homepage", "endpoint"}, _url),
    ({"email", "mail"}, _email),
    ({"phone", "mobile", "tel"}, lambda r, c, p, n: p.phone if p else "+1-555-0100"),
    ({"date", "day", "deadline", "due", "birthday", "since", "until"}, lambda r, c, p, n: _day(c, r, -90, 60).date().isoformat()),
    ({"time", "timestamp", "datetime", "at"}, lambda r, c, p, n: format_timestamp(_day(c, r, -90, 60))),
    ({"status", "state"}, lambda r, c, p, n: r.choice(["open", "active", "pending", "closed"])),
    # a record's type says nothing the spec does not: no business word ("forecast") in a prospect or an error group
    ({"type", "kind", "category", "group"}, lambda r, c, p, n: r.choice(CATEGORIES)),
    ({"tag", "topic"}, lambda r, c, p, n: r.choice(WORDS)),
    ({"currency"}, lambda r, c, p, n: r.choice(CURRENCIES)),
    ({"author", "assignee", "owner", "creator", "sender", "recipient", "manager", "person"}, _person),
    ({"company", "organization", "org", "organisation", "employer", "brand"}, _company),
]


# -- family-shaped strings and numbers ---------------------------------------------------------

FILE_STEMS = ["q3-budget", "onboarding-checklist", "vendor-contracts", "release-notes", "team-roster", "travel-policy",
              "board-deck", "pricing-2026", "security-review", "customer-survey", "sprint-plan", "meeting-minutes"]
FILE_DIRS = ["finance/2026", "people/policies", "engineering/specs", "marketing/assets", "sales/proposals", "legal/contracts"]
EXT_MIME = {"pdf": "application/pdf", "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "md": "text/markdown",
            "csv": "text/csv", "png": "image/png"}
REPOS = ["billing-service", "web-dashboard", "data-pipeline", "auth-gateway", "mobile-app", "infra-terraform", "docs-site",
         "search-indexer"]
COMMITS = ["Fix rounding error in invoice totals", "Add retry with backoff to webhook delivery", "Bump pydantic to 2.7",
           "Refactor auth middleware into its own module", "Update README with local setup steps",
           "Handle empty cart in checkout", "Add pagination to the orders endpoint", "Remove unused feature flag"]
CODE_LINES = [("total = sum(prices)", "total = round(sum(prices), 2)"), ("retries = 0", "retries = 3"),
              ("timeout=10", "timeout=30"), ("if user:", "if user and user.active:")]
WEB_TOPICS = ["Pricing plans", "Getting started guide", "API reference", "Careers", "Shipping and returns",
              "Release notes", "Security and compliance", "Customer stories"]
NEWS = ["{co} opens a new office in {city}", "{co} reports record quarterly revenue", "{co} acquires a startup in {city}",
        "{co} names a new chief executive", "{co} recalls a product line after safety review",
        "{co} partners with {co2} on logistics"]
TICKETS = ["Checkout fails when the cart has more than 50 items", "Export to CSV drops the last row",
           "Password reset email never arrives", "Dashboard loads slowly for large accounts",
           "Invoice PDF shows the wrong tax rate", "Search returns archived projects", "Mobile app crashes on login"]
MAIL = ["Quote for {co}", "Follow-up on our call", "Invoice question", "Renewal of the {co} contract",
        "Meeting notes and next steps", "Delivery date for the {co} order"]
MEETINGS = ["Quarterly business review with {co}", "Onboarding kickoff with {co}", "Sprint planning", "Budget review",
            "Hiring debrief", "Vendor call", "Product demo for {co}"]
ROOMS = ["Vertex Room", "Harbor Room", "Summit Room", "Video call"]
METRICS = [("p95_latency_ms", "ms", 40, 900), ("error_rate", "%", 0, 5), ("active_users", "users", 100, 50_000),
           ("cpu_utilization", "%", 5, 95), ("monthly_recurring_revenue", "USD", 10_000, 900_000), ("signups", "users", 0, 2_000)]
# what a service of another domain measures: a DEX's volume and pools, a website's sessions, an
# account's followers, a search engine's documents (not an ops dashboard's signups and p95 latency)
DOMAIN_METRICS: list[tuple[frozenset[str], list[tuple[str, str, int, int]]]] = [
    (frozenset({"dex", "defi", "swap", "pool", "pools", "liquidity", "tvl", "token", "tokens", "crypto", "blockchain", "chain", "onchain",
                "coin", "coins", "dexpaprika", "defillama", "uniswap", "solana", "ethereum", "bitcoin", "evm", "web3"}),
     [("volume_usd", "USD", 100_000, 500_000_000), ("total_value_locked_usd", "USD", 1_000_000, 5_000_000_000),
      ("transactions", "transactions", 1_000, 2_000_000), ("pools", "pools", 50, 20_000), ("tokens", "tokens", 100, 50_000),
      ("fees_usd", "USD", 1_000, 5_000_000)]),
    (frozenset({"seo", "traffic", "website", "pageview", "pageviews", "ga4", "umami", "plausible", "matomo", "visitors", "sessions"}),
     [("pageviews", "views", 1_000, 900_000), ("sessions", "sessions", 500, 300_000), ("bounce_rate", "%", 20, 80),
      ("avg_session_duration", "seconds", 30, 600), ("conversion_rate", "%", 0, 8)]),
    (frozenset({"twitter", "instagram", "tiktok", "youtube", "linkedin", "social", "reddit", "bluesky", "mastodon", "facebook"}),
     [("followers", "followers", 100, 2_000_000), ("impressions", "impressions", 1_000, 5_000_000), ("engagement_rate", "%", 0, 12),
      ("likes", "likes", 10, 200_000), ("posts", "posts", 5, 3_000)]),
    (frozenset({"nix", "nixos", "npm", "pypi", "homebrew", "brew", "crate", "crates", "flake", "flakes", "apt", "registry", "packages"}),
     [("packages", "packages", 1_000, 120_000), ("options", "options", 500, 25_000), ("downloads", "downloads", 1_000, 50_000_000),
      ("maintainers", "maintainers", 10, 4_000), ("releases", "releases", 5, 2_000)]),
    (frozenset({"stock", "stocks", "financial", "finance", "fmp", "equity", "equities", "trading", "insider", "nasdaq", "nyse"}),
     [("volume", "shares", 100_000, 500_000_000), ("trades", "trades", 100, 2_000_000), ("buy_sell_ratio", "ratio", 0, 5),
      ("advancers", "stocks", 50, 3_000), ("decliners", "stocks", 50, 3_000)]),
    (frozenset({"docs", "wiki", "notes", "knowledge", "memory", "memories", "yuque", "notion", "confluence", "obsidian"}),
     [("documents", "documents", 10, 50_000), ("words", "words", 1_000, 5_000_000), ("members", "members", 1, 500),
      ("views", "views", 10, 1_000_000), ("edits", "edits", 0, 5_000)]),
    (frozenset({"elasticsearch", "opensearch", "meilisearch", "typesense", "algolia", "solr"}),
     [("docs_count", "documents", 1_000, 50_000_000), ("store_size_bytes", "bytes", 1_000_000, 500_000_000_000),
      ("query_latency_ms", "ms", 2, 300), ("indices", "indices", 1, 400), ("shards", "shards", 1, 2_000)]),
    # a Hugging Face dataset's statistics are its columns' (a dataset viewer had answered p95 latency and MRR)
    (frozenset({"dataset", "datasets", "huggingface", "kaggle"}),
     [("num_rows", "rows", 1_000, 5_000_000), ("num_columns", "columns", 2, 80), ("null_values", "values", 0, 20_000),
      ("distinct_values", "values", 10, 500_000), ("mean_text_length", "characters", 20, 4_000)]),
    (frozenset({"mongodb", "mongo", "postgres", "postgresql", "mysql", "mariadb", "sqlite", "database", "databases", "sql", "clickhouse",
                "singlestore", "supabase", "prisma", "neon", "pg"}),
     [("data_size_bytes", "bytes", 1_000_000, 500_000_000_000), ("index_size_bytes", "bytes", 100_000, 50_000_000_000),
      ("tables", "tables", 3, 400), ("rows", "rows", 1_000, 500_000_000), ("active_connections", "connections", 1, 500),
      ("queries_per_second", "queries/s", 1, 20_000)]),
    (frozenset({"education", "school", "schools", "student", "students", "university", "college", "edubase"}),
     [("enrollment", "students", 50, 40_000), ("graduation_rate", "%", 50, 98), ("student_teacher_ratio", "ratio", 8, 30),
      ("schools", "schools", 1, 2_000), ("completion_rate", "%", 40, 95)]),
    (frozenset({"think", "thought", "thoughts", "thinking", "reasoning", "sequential"}),
     [("thoughts", "thoughts", 1, 60), ("branches", "branches", 0, 6), ("revisions", "revisions", 0, 10)]),
]
PLACES = ["Café", "Hotel", "Station", "Museum", "Park", "Market", "Library"]
MEDIA = ["The Long Harbor", "Northern Lights", "Signals", "A Year in Data", "The Quiet Engine", "Field Notes"]
SERVICES = ["api-gateway", "billing-worker", "web-frontend", "search-indexer", "notification-service", "reports-cron"]
TABLES = [("customers", ["id", "name", "email", "created_at"]), ("orders", ["id", "customer_id", "total", "status"]),
          ("invoices", ["id", "order_id", "amount", "due_date"]), ("events", ["id", "kind", "payload", "at"]),
          ("products", ["id", "sku", "name", "price"]), ("order_items", ["id", "order_id", "product_id", "quantity"]),
          ("payments", ["id", "invoice_id", "amount", "paid_at"]), ("users", ["id", "email", "role", "last_login"]),
          ("shipments", ["id", "order_id", "carrier", "shipped_at"]), ("inventory", ["id", "product_id", "warehouse", "on_hand"]),
          ("sessions", ["id", "user_id", "started_at", "ip"]), ("audit_log", ["id", "actor", "action", "at"])]
PAPERS = ["Sparse attention for long documents", "Contrastive pretraining of protein embeddings",
          "Robust estimation under distribution shift", "Graph neural networks for traffic forecasting",
          "Low-rank adaptation of language models", "Causal effects of remote work on productivity"]
DOCS = ["Travel policy", "Onboarding checklist", "Q3 planning notes", "Incident postmortem: API outage", "Brand guidelines",
        "Expense policy", "Security handbook", "Release process"]
DOC_LINES = {"policy": "Applies to every employee; exceptions need a manager's approval in writing.",
             "checklist": "Finish each step in order and tick it off; ask your buddy when stuck.",
             "notes": "Decisions are listed first, then open questions with an owner and a date.",
             "postmortem": "Impact, timeline, root cause and follow-up actions with owners.",
             "guidelines": "Use the approved logo, colours and tone; examples follow.",
             "handbook": "Report incidents within one hour; rotate credentials every 90 days.",
             "process": "Cut the release branch on Monday; ship on Thursday after sign-off."}


# A sports service's games and players (MLB's box scores, Formula 1's drivers): a game between two teams
# with its score, a player of a team with a position, not a film with a genre or a contact with an email
SPORTS_WORDS = frozenset({"mlb", "nba", "nfl", "nhl", "baseball", "basketball", "football", "soccer", "hockey", "f1", "formula",
                          "sport", "sports", "statcast", "pybaseball", "espn", "cricket", "tennis", "racing", "fixture"})
GAME_NOUNS = frozenset({"game", "match", "boxscore", "linescore", "fixture", "highlight", "play"})
ATHLETE_NOUNS = frozenset({"player", "batter", "pitcher", "driver", "athlete", "prospect", "roster"})
# the statistics below are baseball's: a Formula 1 driver's performance has no home runs
BASEBALL_WORDS = frozenset({"mlb", "baseball", "statcast", "pybaseball"})
STAT_NOUNS = frozenset({"stat", "stats", "leader", "batting", "pitching", "fielding", "split", "expected", "arsenal", "barrel",
                        "statcast", "performance", "bref"})
STAT_TOPIC: list[F] = [("player", "person_name", S), ("team", None, S), ("stat", None, S), ("value", None, N), ("season", None, I)]
# a player's season statistics and where their values lie (a batting average near .270, not 2,544 ms)
STAT_RANGES: list[tuple[str, float, float, int]] = [("home runs", 8, 52, 0), ("batting average", 0.215, 0.335, 3),
                                                    ("ERA", 2.4, 5.2, 2), ("strikeouts", 60, 290, 0), ("RBI", 35, 130, 0),
                                                    ("stolen bases", 2, 45, 0), ("wins", 3, 20, 0), ("saves", 0, 44, 0),
                                                    ("on-base percentage", 0.290, 0.420, 3), ("WHIP", 0.95, 1.45, 2)]


def coherent_stat(row: dict[str, Any], rng: random.Random, n: int) -> None:
    """A season statistic's value is where that statistic lies (home runs 8-52, ERA 2.4-5.2)."""
    if not isinstance(row.get("stat"), str) or "value" not in row or "player" not in row:
        return
    name, lo, hi, places = STAT_RANGES[n % len(STAT_RANGES)] if row["stat"] not in {s[0] for s in STAT_RANGES} else \
        next(s for s in STAT_RANGES if s[0] == row["stat"])
    row["stat"] = name
    v = rng.uniform(lo, hi)
    row["value"] = round(v, places) if places else int(v)
GAME_TOPIC: list[F] = [("title", "title", S), ("home_team", None, S), ("away_team", None, S), ("home_score", None, I),
                       ("away_score", None, I), ("venue", None, S), ("status", None, S), ("starts_at", "datetime", S)]
ATHLETE_TOPIC: list[F] = [("name", "person_name", S), ("team", None, S), ("position", None, S), ("number", None, I),
                          ("nationality", "country", S)]
POSITIONS = ["Pitcher", "Catcher", "First base", "Shortstop", "Center field", "Forward", "Midfielder", "Defender", "Goalkeeper", "Driver"]
TEAMS = ["Harbor City FC", "Northfield Rovers", "Red Valley United", "Lakeside Athletic", "Granite Town", "Westport Wanderers",
         "Summit Racing", "Blue Ridge Motorsport"]
FOOTBALL_POSITIONS = ["Quarterback", "Running back", "Wide receiver", "Tight end", "Offensive tackle", "Linebacker", "Cornerback",
                      "Safety"]


class League(NamedTuple):
    """A league a sports service is about, by the service's words: its teams and the positions its
    players play (a baseball service's teams are no football clubs, a pitcher no goalkeeper)."""
    words: frozenset[str]
    teams: list[str]
    positions: list[str]

    def team(self, n: int) -> str:
        return self.teams[n % len(self.teams)]

    def position(self, n: int) -> str:
        return self.positions[n % len(self.positions)]


LEAGUES = [
    League(BASEBALL_WORDS, ["New York Yankees", "Los Angeles Dodgers", "Boston Red Sox", "Chicago Cubs", "Houston Astros",
                            "Atlanta Braves", "Seattle Mariners", "San Francisco Giants"],
           ["Pitcher", "Catcher", "First base", "Second base", "Shortstop", "Third base", "Left field", "Center field", "Right field",
            "Designated hitter"]),
    League(frozenset({"nba", "basketball", "wnba"}), ["Boston Celtics", "Denver Nuggets", "Los Angeles Lakers", "Golden State Warriors",
                                                      "Milwaukee Bucks", "Miami Heat", "Dallas Mavericks", "New York Knicks"],
           ["Point guard", "Shooting guard", "Small forward", "Power forward", "Center"]),
    League(frozenset({"nhl", "hockey"}), ["Florida Panthers", "Edmonton Oilers", "Boston Bruins", "New York Rangers", "Colorado Avalanche",
                                          "Toronto Maple Leafs", "Vegas Golden Knights", "Dallas Stars"],
           ["Center", "Left wing", "Right wing", "Defenseman", "Goaltender"]),
    League(frozenset({"nfl"}), ["Kansas City Chiefs", "San Francisco 49ers", "Baltimore Ravens", "Detroit Lions", "Buffalo Bills",
                                "Philadelphia Eagles", "Dallas Cowboys", "Green Bay Packers"], FOOTBALL_POSITIONS),
    League(frozenset({"cfb", "ncaa", "college"}), ["Georgia Bulldogs", "Michigan Wolverines", "Alabama Crimson Tide", "Ohio State Buckeyes",
                                                   "Texas Longhorns", "Oregon Ducks", "Notre Dame Fighting Irish", "Clemson Tigers"],
           FOOTBALL_POSITIONS),
    League(frozenset({"f1", "formula", "formula1", "openf1", "ergast"}), ["Red Bull Racing", "Ferrari", "Mercedes", "McLaren",
                                                                          "Aston Martin", "Alpine", "Williams", "Haas"], ["Driver"]),
]
CLUBS = League(frozenset(), TEAMS, POSITIONS)  # a service that names no league: football clubs


def _league(c: "ValueContext") -> League:
    return next((league for league in LEAGUES if c.scope & league.words), CLUBS)


REGIONS = ["us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-1"]
LOG_LINES = [("INFO", "request completed in 182 ms (GET /api/orders)"), ("WARN", "retrying webhook delivery (attempt 2 of 5)"),
             ("ERROR", "connection to the database timed out after 30 s"), ("INFO", "worker started with 4 threads"),
             ("DEBUG", "cache miss for key customer:1042"), ("ERROR", "payment provider answered 502 Bad Gateway")]
IMAGES = ["product-hero", "team-photo", "dashboard-screenshot", "logo", "office-front", "chart-q3-revenue", "avatar"]
SKY_WORDS = frozenset({"nasa", "astronomy", "apod", "telescope", "hubble", "jwst", "galaxy", "nebula", "planet", "planetary", "rover", "mars",
                       "space", "satellite", "asteroid", "comet", "solar", "esa"})
SKY_IMAGES = ["orion-nebula", "andromeda-galaxy", "pillars-of-creation", "jupiter-great-red-spot", "saturn-rings", "crab-nebula",
              "gale-crater-panorama", "milky-way-core", "total-solar-eclipse", "carina-nebula"]
# as many settings as a seeded collection holds records, so that no name needs a number to be unique
SETTINGS = [("log_level", "info", "warning"), ("request_timeout_seconds", "30", "10"), ("max_connections", "100", "50"),
            ("default_region", "eu-west-1", "us-east-1"), ("feature_new_checkout", "true", "false"), ("retention_days", "90", "30"),
            ("default_shell", "/bin/bash", "/bin/sh"), ("allowed_directories", "/workspace", "/"), ("cache_ttl_seconds", "600", "300"),
            ("max_upload_mb", "50", "25"), ("telemetry_enabled", "false", "true"), ("timezone", "Europe/Berlin", "UTC"),
            ("api_base_url", "https://api.example.com/v2", "https://api.example.com/v1"), ("retry_attempts", "3", "5")]
# (name, key, what it is for): a team's projects
PROJECTS = [("Billing migration", "BIL", "Move invoicing to the new payment provider before the Q3 close."),
            ("Mobile app redesign", "MOB", "Rework navigation and checkout in the iOS and Android apps."),
            ("Data warehouse", "DWH", "Consolidate sales and support data into one warehouse for reporting."),
            ("Customer portal", "CPO", "Let customers see orders, invoices and tickets in one place."),
            ("Onboarding revamp", "ONB", "Cut the time from sign-up to first value to under a day."),
            ("Security audit", "SEC", "Close the findings of the annual penetration test."),
            ("Website relaunch", "WEB", "Launch the new marketing site with the updated brand."),
            ("Support automation", "SUP", "Route and answer routine tickets without an agent."),
            ("Inventory sync", "INV", "Keep warehouse stock and the online shop in step."),
            ("Partner API", "API", "Open the order API to resellers with keys and quotas."),
            ("Analytics dashboards", "ANA", "Give each team a dashboard of its weekly numbers."),
            ("Cost reduction", "COS", "Lower cloud spend by a fifth without slowing releases.")]
PROJECT_STATUSES = ["active", "active", "planned", "on hold", "completed"]
COMPONENTS = ["Button", "Dialog", "Data Table", "Tabs", "Tooltip", "Card", "Date Picker", "Navigation Menu"]
PROMPTS = [("summarize-meeting", "Summarize the meeting notes below for {audience}; list decisions, then action items with owners.\n\n{notes}"),
           ("draft-reply", "Draft a polite reply to this email from {sender}, confirming {topic}.\n\n{email}"),
           ("review-code", "Review this diff for bugs and missing tests; answer as a list of findings.\n\n{diff}"),
           ("explain-error", "Explain this error message to a new engineer and suggest a fix.\n\n{error}")]


SENSES = [("noun", "a thing or idea the word names, in its most common sense", "The word is used this way in everyday speech."),
          ("verb", "to perform the action the word describes", "They use it as a verb in the second sentence."),
          ("adjective", "having the quality the word describes", "It describes the noun that follows it.")]
EDITIONS = [("en.sahih", "en"), ("ar.alafasy", "ar"), ("tr.diyanet", "tr"), ("en.asad", "en")]
MODELS = [("OpenAI", "gpt-4o-mini"), ("Anthropic", "claude-3-5-sonnet"), ("Mistral AI", "mistral-large"), ("Google", "gemini-1.5-pro"),
          ("Meta", "llama-3.1-70b-instruct")]
INSIDER_TRANSACTIONS = ["P-Purchase", "S-Sale", "A-Award", "M-Exempt", "F-InKind", "G-Gift"]
INSIDER_OWNERS = ["director", "officer: Chief Executive Officer", "officer: Chief Financial Officer", "10 percent owner",
                  "officer: General Counsel"]
FORM_TYPES = ["10-K", "10-Q", "8-K", "4", "13F-HR", "S-1", "DEF 14A"]
# an orchestrator's workflows: (name, what it does, its schedule)
WORKFLOWS = [("daily_sales_etl", "Loads yesterday's orders into the warehouse and refreshes the sales tables.", "0 2 * * *"),
             ("sync_crm_contacts", "Copies new and changed contacts from the CRM to the mailing list.", "*/30 * * * *"),
             ("nightly_backup", "Backs up the production database to object storage.", "0 1 * * *"),
             ("invoice_reminders", "Emails customers whose invoices are past due.", "0 9 * * 1-5"),
             ("refresh_dashboards", "Recomputes the finance and support dashboards.", "0 * * * *"),
             ("train_churn_model", "Retrains the churn model on the last 90 days of usage.", "0 4 * * 0"),
             ("ingest_web_events", "Ingests the website's event stream into the analytics tables.", "*/15 * * * *")]
RUN_STATES = ["success", "success", "success", "failed", "running", "queued"]
TRANSCRIPTS = [
    ("Podcast episode 12: pricing", "[00:00] Welcome back to the show. [00:05] Today's guest ran pricing at two startups; "
     "we talk about when to raise prices and how to tell customers."),
    ("Product launch keynote", "[00:00] Welcome, everyone. [00:06] Today we are showing three things: the new dashboard, "
     "faster exports, and the mobile app. [00:21] Let's start with the dashboard."),
    ("Weekly team sync", "[00:00] Let's start with last week's action items. [00:09] The migration finished on Tuesday; "
     "two customers still need their data checked. [00:24] Next, the release date."),
    ("Customer interview", "[00:00] Thanks for taking the time. [00:04] How do you export your reports today? [00:09] Mostly "
     "by hand, every Friday, into a spreadsheet for the finance team."),
]
COURSES = ["Introduction to Data Analysis", "Financial Accounting I", "Project Management Basics", "Business Writing",
           "Statistics for Decision Making", "Customer Success Fundamentals"]
# (title, what it asks, how it is handed in): work a course sets
ASSIGNMENTS = [("Problem Set 3: Regression", "Fit and interpret three regression models on the housing data.", "online_upload"),
               ("Essay: Market Entry Strategy", "A 1,500-word essay on entering one new market, with sources.", "online_text_entry"),
               ("Lab 2: Cleaning Survey Data", "Clean the survey export and document every rule you applied.", "online_upload"),
               ("Quiz 4: Probability", "Twelve questions on conditional probability; one attempt, 30 minutes.", "online_quiz"),
               ("Final Project Proposal", "One page: the question, the data and the method you plan to use.", "online_upload"),
               ("Case Study: Supplier Risk", "Assess the three suppliers in the case and recommend one.", "online_text_entry"),
               ("Reading Response 5", "Respond to this week's two readings in 300 words.", "online_text_entry"),
               ("Midterm Exam", "Covers weeks 1-6; open notes, 90 minutes.", "on_paper")]


GATEWAY_PLUGINS = ["rate-limiting", "key-auth", "cors", "jwt", "prometheus", "request-transformer", "ip-restriction", "acl"]
GATEWAY_CONSUMERS = ["mobile-app", "partner-portal", "billing-batch", "web-frontend", "reporting-job", "support-desk"]
GATEWAY_ALGORITHMS = ["round-robin", "least-connections", "consistent-hashing"]


def gateway_value(name: str, t: str | None, ctx: "ValueContext", n: int) -> Any:
    """A field of an API gateway's object, by the object's kind (`ctx.entity`) and the field's name: a
    route's paths and methods, the host and port of the service it proxies to, a plugin's name; None
    for a field the gateway's objects do not have."""
    kind = singular(words(ctx.entity)[-1]) if words(ctx.entity) else ""
    area = AREAS[n % len(AREAS)]
    domain = ctx.world.companies[0].domain if ctx.world.companies else "example.com"
    own = {"route": f"{area}-route", "service": f"{area}-service", "upstream": f"{area}.upstream", "target": f"10.0.{n % 16}.{10 + n}:8080",
           "consumer": _nth(GATEWAY_CONSUMERS, n, "-"), "plugin": GATEWAY_PLUGINS[n % len(GATEWAY_PLUGINS)],  # one plugin on many routes
           "certificate": f"api.{domain}"}
    values: dict[str, Any] = {
        "name": own.get(kind), "username": _nth(GATEWAY_CONSUMERS, n, "-"), "custom_id": f"cust-{1000 + n}",
        "paths": [f"/api/{area}"], "uris": [f"/api/{area}/*"], "uri": f"/api/{area}/*", "methods": ["GET", "POST"],
        "hosts": [f"api.{domain}"], "snis": [f"api.{domain}"], "protocols": ["http", "https"],
        "host": f"{area}.internal", "protocol": "http", "path": "/" if kind == "service" else f"/api/{area}",
        "algorithm": GATEWAY_ALGORITHMS[n % len(GATEWAY_ALGORITHMS)], "target": own["target"],
        "cert": "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIU" + short_hash(f"cert/{n}", 24) + "\n-----END CERTIFICATE-----",
    }
    value = values.get(snake(name))
    if value is None:
        return None
    if t == "array" and not isinstance(value, list):
        return [value]
    if t == "string" and isinstance(value, list):
        return value[0]
    return value


# (code, name, type) of a small business's chart of accounts, and (name, tax type, rate %) of its tax rates
LEDGER_ACCOUNTS = [("200", "Sales", "REVENUE"), ("260", "Other Revenue", "REVENUE"), ("400", "Advertising", "EXPENSE"),
                   ("404", "Bank Fees", "EXPENSE"), ("420", "Entertainment", "EXPENSE"), ("429", "General Expenses", "EXPENSE"),
                   ("461", "Printing & Stationery", "EXPENSE"), ("469", "Rent", "EXPENSE"), ("489", "Telephone & Internet", "EXPENSE"),
                   ("493", "Travel - National", "EXPENSE"), ("610", "Accounts Receivable", "CURRENT"), ("800", "Accounts Payable", "CURRLIAB"),
                   ("090", "Business Bank Account", "BANK"), ("820", "Sales Tax", "CURRLIAB")]
LEDGER_ITEMS = ["Consulting services", "Annual software licence", "Hardware and installation", "Support plan", "Training workshop",
                "Design and build"]
TAX_RATES = [("Tax on Sales", "OUTPUT", 10.0), ("Tax on Purchases", "INPUT", 10.0), ("Tax Exempt", "NONE", 0.0),
             ("Sales Tax on Imports", "GSTONIMPORTS", 10.0), ("VAT 20%", "OUTPUT2", 20.0), ("Reduced Rate 5%", "RRINPUT", 5.0)]


# (base, quote, price in the quote currency) of the pairs an exchange lists
PAIRS = [("BTC", "USDT", 64_000.0), ("ETH", "USDT", 3_100.0), ("SOL", "USDT", 145.0), ("BNB", "USDT", 580.0), ("XRP", "USDT", 0.52),
         ("DOGE", "USDT", 0.12), ("ADA", "USDT", 0.45), ("AVAX", "USDT", 28.0), ("LINK", "USDT", 14.0), ("DOT", "USDT", 6.5),
         ("LTC", "USDT", 72.0), ("ETH", "BTC", 0.048)]
EXCHANGES = [("Binance", ["JP", "MT"]), ("Coinbase", ["US"]), ("Kraken", ["US"]), ("OKX", ["CN", "US"]), ("Bybit", ["VG"]), ("KuCoin", ["SC"]),
             ("Bitfinex", ["VG"]), ("Gate.io", ["KR"])]


def pair_symbol(base: str, quote: str, ctx: "ValueContext") -> str:
    """A pair as the exchange writes it: Binance's `BTCUSDT`, CCXT's unified `BTC/USDT`."""
    return f"{base}{quote}" if "binance" in ctx.scope and "ccxt" not in ctx.scope else f"{base}/{quote}"


def pair_price(symbol: Any) -> float | None:
    """Where a pair named `BTC/USDT`, `BTCUSDT` or `BTC-USDT` trades; None for a pair not listed."""
    if not isinstance(symbol, str):
        return None
    flat = symbol.upper().replace("/", "").replace("-", "").replace(":USDT", "")
    listed = next((price for base, quote, price in PAIRS if flat == base + quote), None)
    coin = TICKER_INFO.get(flat)
    return listed if listed is not None else coin[1] if coin is not None and flat not in STOCKS else None  # a coin alone: against USDT


def exchange_value(name: str, t: str | None, ctx: "ValueContext", n: int, rng: random.Random) -> Any:
    """A field of a crypto exchange's record, by the record's kind (`ctx.entity`) and the field's name:
    a trade's pair, side, price and amount; an order book's levels; a market's base and quote; None for
    a field such records do not have."""
    kind = singular(words(ctx.entity)[-1]) if words(ctx.entity) else ""
    base, quote, level = PAIRS[n % len(PAIRS)]
    price = float(f"{level * (1 + rng.uniform(-0.01, 0.01)):.6g}")
    amount = round(rng.uniform(0.01, 5.0) * (64_000.0 / max(level, 0.01)) ** 0.5, 4)
    side = ("buy", "sell")[n % 2] if kind != "position" else ("long", "short")[n % 2]
    exchange, countries = EXCHANGES[n % len(EXCHANGES)]
    tier = 1 + n % 5
    values: dict[str, Any] = {
        "symbol": pair_symbol(base, quote, ctx), "pair": pair_symbol(base, quote, ctx), "base": base, "quote": quote, "side": side,
        "price": price, "amount": amount, "cost": round(price * amount, 2), "type": ("spot", "swap", "future")[n % 3],
        "active": True, "bids": [[float(f"{level * (1 - 0.0005 * i):.6g}"), round(amount * (i + 1), 4)] for i in range(1, 4)],
        "asks": [[float(f"{level * (1 + 0.0005 * i):.6g}"), round(amount * (i + 1), 4)] for i in range(1, 4)],
        "name": exchange if kind == "exchange" else DEXES[n % len(DEXES)][0] if kind == "dex" else None,
        "exchange": exchange.lower().replace(".", "") if kind == "exchange" else None, "chain": DEXES[n % len(DEXES)][1] if kind == "dex" else None,
        "volume_usd": round(rng.uniform(2e6, 9e8), 2) if kind == "dex" else None,
        "countries": countries, "has_futures": n % 3 != 2,
        "tier": tier, "min_notional": 50_000.0 * (tier - 1), "max_notional": 50_000.0 * tier * tier, "max_leverage": float(125 // tier),
        "maintenance_margin_rate": round(0.004 * tier, 4), "contracts": round(amount, 3), "entry_price": price,
        "mark_price": float(f"{price * (1 + (0.01 if n % 2 else -0.01)):.6g}"),
        "unrealized_pnl": round(price * amount * (0.01 if n % 2 == 0 else -0.01), 2), "leverage": float((5, 10, 20)[n % 3]),
    }
    return _as_declared(values.get(snake(name)), t)


def _as_declared(value: Any, t: str | None) -> Any:
    """`value` where it fits the field's declared type (a whole number for an integer), else None."""
    if value is None or (t in ("integer", "number") and not isinstance(value, (int, float))) or (t == "string" and not isinstance(value, str)) \
            or (t == "array" and not isinstance(value, list)) or (t == "boolean" and not isinstance(value, bool)):
        return None
    return int(value) if t == "integer" and isinstance(value, float) else value


RESEARCH_AREAS = [("Computer Vision", "Recognising, detecting and generating images and video."),
                  ("Natural Language Processing", "Understanding, translating and generating text."),
                  ("Speech", "Recognising and synthesising spoken language."),
                  ("Reinforcement Learning", "Agents that learn to act from rewards."),
                  ("Graphs", "Learning on nodes, edges and whole graphs."), ("Time Series", "Forecasting and classifying sequences over time."),
                  ("Robotics", "Perception and control for physical robots."), ("Medical", "Diagnosis and segmentation from medical data."),
                  ("Computer Code", "Generating, completing and repairing programs."), ("Audio", "Classifying, separating and generating sound."),
                  ("Knowledge Base", "Reasoning over facts and entity links."), ("Adversarial", "Attacks on models and defences against them.")]
RESEARCH_TASKS = [("Image Classification", "Computer Vision"), ("Machine Translation", "Natural Language Processing"), ("Speech Recognition", "Speech"),
                  ("Atari Games", "Reinforcement Learning"), ("Node Classification", "Graphs"), ("Time Series Forecasting", "Time Series"),
                  ("Object Detection", "Computer Vision"), ("Question Answering", "Natural Language Processing"),
                  ("Semantic Segmentation", "Computer Vision"), ("Text Summarization", "Natural Language Processing"),
                  ("Named Entity Recognition", "Natural Language Processing"), ("Image Generation", "Computer Vision")]
RESEARCH_METHODS = [("Transformer", "Transformer", "An architecture built on attention alone, without recurrence.", 2017),
                    ("ResNet", "Residual Network", "Deep convolutional networks trained through identity shortcuts.", 2015),
                    ("Adam", "Adaptive Moment Estimation", "A stochastic optimiser with per-parameter adaptive step sizes.", 2014),
                    ("Dropout", "Dropout", "Randomly zeroing activations during training to reduce overfitting.", 2014),
                    ("BERT", "Bidirectional Encoder Representations from Transformers", "A bidirectional Transformer pretrained by masked language modelling.", 2018),
                    ("LoRA", "Low-Rank Adaptation", "Fine-tuning through trainable low-rank updates to frozen weights.", 2021),
                    ("BatchNorm", "Batch Normalization", "Normalising layer inputs over each mini-batch.", 2015),
                    ("GCN", "Graph Convolutional Network", "Convolutions over a graph's neighbourhoods.", 2016),
                    ("GAN", "Generative Adversarial Network", "A generator trained against a discriminator.", 2014),
                    ("U-Net", "U-Net", "An encoder-decoder with skip connections for segmentation.", 2015),
                    ("Word2Vec", "Word2Vec", "Word embeddings learned from their contexts.", 2013),
                    ("Layer Normalization", "Layer Normalization", "Normalising across the features of each example.", 2016)]
RESEARCH_DATASETS = [("ImageNet", "ImageNet Large Scale Visual Recognition Challenge", "Images"), ("COCO", "Microsoft Common Objects in Context", "Images"),
                     ("SQuAD", "Stanford Question Answering Dataset", "Texts"), ("GLUE", "General Language Understanding Evaluation", "Texts"),
                     ("CIFAR-10", "Canadian Institute for Advanced Research, 10 classes", "Images"), ("LibriSpeech", "LibriSpeech ASR corpus", "Audio"),
                     ("WMT 2014", "Workshop on Machine Translation 2014", "Texts"), ("Cora", "Cora citation network", "Graphs"),
                     ("MNIST", "Modified NIST handwritten digits", "Images"), ("Penn Treebank", "Penn Treebank", "Texts"),
                     ("Kinetics", "Kinetics human action video dataset", "Videos"), ("MS MARCO", "Microsoft Machine Reading Comprehension", "Texts")]
CONFERENCES = [("NeurIPS", "Conference on Neural Information Processing Systems"), ("ICML", "International Conference on Machine Learning"),
               ("ICLR", "International Conference on Learning Representations"), ("CVPR", "Conference on Computer Vision and Pattern Recognition"),
               ("ACL", "Annual Meeting of the Association for Computational Linguistics"), ("EMNLP", "Conference on Empirical Methods in Natural Language Processing"),
               ("AAAI", "AAAI Conference on Artificial Intelligence"), ("KDD", "Conference on Knowledge Discovery and Data Mining"),
               ("ECCV", "European Conference on Computer Vision"), ("ICCV", "International Conference on Computer Vision"),
               ("NAACL", "North American Chapter of the Association for Computational Linguistics"), ("COLT", "Conference on Learning Theory")]


def research_value(name: str, t: str | None, ctx: "ValueContext", n: int, rng: random.Random) -> Any:
    """A field of a research catalog's record, by the record's kind (`ctx.entity`) and the field's name:
    an area's or a task's name, a method's full name and year, a dataset's modality, a conference's
    acronym; None for a field such records do not have."""
    kind = singular(words(ctx.entity)[-1]) if words(ctx.entity) else ""
    area, area_text = RESEARCH_AREAS[n % len(RESEARCH_AREAS)]
    task, task_area = RESEARCH_TASKS[n % len(RESEARCH_TASKS)]
    method, method_full, method_text, method_year = RESEARCH_METHODS[n % len(RESEARCH_METHODS)]
    dataset, dataset_full, modality = RESEARCH_DATASETS[n % len(RESEARCH_DATASETS)]
    conf, conf_full = CONFERENCES[n % len(CONFERENCES)]
    year = 2019 + n % 6
    own = {"area": (area, area_text), "task": (task, f"{task}: a benchmark task of {task_area}."), "method": (method, method_text),
           "dataset": (dataset, f"{dataset_full}, a dataset of {modality.lower()}."), "conference": (conf, conf_full),
           "proceeding": (f"{conf} {year}", f"Proceedings of {conf} {year}")}.get(kind)
    if own is None:
        return None
    values: dict[str, Any] = {
        "name": own[0], "title": own[0], "description": own[1], "area": task_area, "task_count": 12 + 7 * n, "paper_count": 150 + 37 * n,
        "full_name": {"method": method_full, "dataset": dataset_full, "conference": conf_full}.get(kind), "introduced_year": method_year,
        "modality": modality, "conference": conf, "conference_name": conf, "acronym": conf, "year": year,
    }
    value = values.get(snake(name))
    if value is None or (t in ("integer", "number") and not isinstance(value, int)) or (t == "string" and not isinstance(value, str)):
        return None
    return value


SOL_SLOT = 300_000_000  # about where mainnet's slots were in 2025
SYSTEM_PROGRAM = "11111111111111111111111111111111"


def solana_value(name: str, t: str | None, ctx: "ValueContext", n: int, rng: random.Random) -> Any:
    """A field of a Solana node's answer, by its kind (`ctx.entity`) and the field's name: slots and
    epochs that agree (an epoch is 432,000 slots), base58 hashes and keys, amounts in lamports."""
    kind = singular(words(ctx.entity)[-1]) if words(ctx.entity) else ""
    slot = ctx.shared(n, "slot", lambda: SOL_SLOT + 1_000 * n + rng.randint(0, 999))  # one slot per record: its epoch and height follow

    def b58(k: int = 44) -> str:
        return "".join(rng.choice(_B58) for _ in range(k))

    lamports_in_sol = 1_000_000_000
    supply = 589_000_000 * lamports_in_sol
    values: dict[str, Any] = {
        "pubkey": b58(), "owner": SYSTEM_PROGRAM, "lamports": rng.randint(1, 5_000) * 1_000_000, "executable": False, "rent_epoch": 0,
        "slot": slot, "absolute_slot": slot, "parent_slot": slot - 1, "blockhash": b58(), "previous_blockhash": b58(), "hash": b58(),
        "block_time": int(ctx.now.timestamp()) - 400 * n, "block_height": slot - 20_000_000, "transaction_count": rng.randint(1_000, 3_000),
        "epoch": slot // 432_000, "slot_index": slot % 432_000, "slots_in_epoch": 432_000, "slots_per_epoch": 432_000,
        "leader_schedule_slot_offset": 432_000, "warmup": False, "first_normal_epoch": 0, "first_normal_slot": 0,
        "last_valid_block_height": slot - 20_000_000 + 150, "identity": b58(),
        "initial": 0.08, "terminal": 0.015, "taper": 0.15, "foundation": 0.05 if kind == "governor" else 0.0, "foundation_term": 7.0,
        "total": {"rate": 0.0466, "supply": supply}.get(kind), "validator": 0.0466,
        "num_transactions": rng.randint(100_000, 300_000), "num_slots": rng.randint(140, 160), "sample_period_secs": 60,
        "confirmations": None if n % 3 == 0 else rng.randint(1, 31), "confirmation_status": ("finalized", "confirmed", "processed")[n % 3],
        "circulating": supply * 4 // 5, "non_circulating": supply - supply * 4 // 5, "total_stake": 390_000_000 * lamports_in_sol, "fee": 5_000,
        "effective_slot": slot, "amount": rng.randint(1_000_000, 90_000_000), "post_balance": rng.randint(1, 900) * lamports_in_sol,
        "commission": (0, 5, 7, 10)[n % 4],
    }
    if kind == "epoch" and snake(name) == "transaction_count":
        values["transaction_count"] = rng.randint(300_000_000, 900_000_000)  # an epoch's, not a block's
    value = values.get(snake(name))
    if value is None or (t == "integer" and not isinstance(value, int)) or (t == "number" and not isinstance(value, (int, float))) \
            or (t == "string" and not isinstance(value, str)) or (t == "boolean" and not isinstance(value, bool)):
        return None
    return value


# (ChEMBL id, name, first approval, mechanism of action, an indication, its MeSH id, ATC level 5)
CHEMBL_DRUGS = [("CHEMBL941", "IMATINIB", 2001, "Tyrosine-protein kinase ABL inhibitor", "Chronic Myeloid Leukemia", "D015464", "L01EA01"),
                ("CHEMBL25", "ASPIRIN", 1950, "Cyclooxygenase inhibitor", "Pain", "D010146", "N02BA01"),
                ("CHEMBL1431", "METFORMIN", 1995, "Mitochondrial complex I inhibitor", "Diabetes Mellitus, Type 2", "D003924", "A10BA02"),
                ("CHEMBL1487", "ATORVASTATIN", 1996, "HMG-CoA reductase inhibitor", "Hypercholesterolemia", "D006937", "C10AA05"),
                ("CHEMBL553", "ERLOTINIB", 2004, "Epidermal growth factor receptor erbB1 inhibitor", "Carcinoma, Non-Small-Cell Lung", "D002289", "L01EB02"),
                ("CHEMBL192", "SILDENAFIL", 1998, "Phosphodiesterase 5A inhibitor", "Erectile Dysfunction", "D007172", "G04BE03"),
                ("CHEMBL521", "IBUPROFEN", 1974, "Cyclooxygenase inhibitor", "Osteoarthritis", "D010003", "M01AE01"),
                ("CHEMBL939", "GEFITINIB", 2003, "Epidermal growth factor receptor erbB1 inhibitor", "Carcinoma, Non-Small-Cell Lung", "D002289", "L01EB01")]
CHEMBL_TARGETS = [("CHEMBL1862", "Tyrosine-protein kinase ABL"), ("CHEMBL230", "Cyclooxygenase-2"), ("CHEMBL2095227", "Mitochondrial complex I"),
                  ("CHEMBL402", "HMG-CoA reductase"), ("CHEMBL203", "Epidermal growth factor receptor erbB1"), ("CHEMBL1827", "Phosphodiesterase 5A"),
                  ("CHEMBL221", "Cyclooxygenase-1"), ("CHEMBL203", "Epidermal growth factor receptor erbB1")]
ATC_LEVEL1 = {"L": "ANTINEOPLASTIC AND IMMUNOMODULATING AGENTS", "N": "NERVOUS SYSTEM", "A": "ALIMENTARY TRACT AND METABOLISM",
              "C": "CARDIOVASCULAR SYSTEM", "G": "GENITO URINARY SYSTEM AND SEX HORMONES", "M": "MUSCULO-SKELETAL SYSTEM"}
CELL_LINES = [("HeLa", "Cervix"), ("MCF7", "Breast"), ("A549", "Lung"), ("HEK293", "Kidney"), ("K562", "Bone marrow"), ("HepG2", "Liver"),
              ("Jurkat", "Blood"), ("U-87 MG", "Brain")]
ORGANISMS = [(9606, "Eukaryotes", "Mammalia", "Primates"), (10090, "Eukaryotes", "Mammalia", "Rodentia"), (10116, "Eukaryotes", "Mammalia", "Rodentia"),
             (7955, "Eukaryotes", "Actinopterygii", "Cypriniformes"), (562, "Bacteria", "Gammaproteobacteria", "Enterobacterales"),
             (4932, "Eukaryotes", "Fungi", "Saccharomycetales")]
TISSUES = [("Liver", "UBERON:0002107"), ("Lung", "UBERON:0002048"), ("Kidney", "UBERON:0002113"), ("Heart", "UBERON:0000948"),
           ("Brain", "UBERON:0000955"), ("Skin of body", "UBERON:0002097")]
ASSAYS = [("B", "Inhibition of human {t} activity"), ("F", "Cytotoxicity against human A549 cells after 72 hrs"),
          ("A", "Oral bioavailability in rat"), ("T", "Acute toxicity in mouse"), ("P", "Solubility in water at pH 7.4"),
          ("U", "Unclassified assay of {t}")]
GO_SLIMS = [("GO:0003824", "catalytic activity", "F"), ("GO:0005634", "nucleus", "C"), ("GO:0007165", "signal transduction", "P"),
            ("GO:0005886", "plasma membrane", "C"), ("GO:0016301", "kinase activity", "F"), ("GO:0006950", "response to stress", "P")]
CHEMBL_SOURCES = [(1, "LITERATURE", "Scientific Literature"), (7, "PUBCHEM_BIOASSAY", "PubChem BioAssays"), (8, "CANDIDATES", "Clinical Candidates"),
                  (12, "DRUGMATRIX", "DrugMatrix in vitro pharmacology assays")]
PROTEIN_CLASSES = [(1, "Enzyme", 1), (2, "Kinase", 2), (3, "Protein Kinase", 3), (4, "Membrane receptor", 1), (5, "Ion channel", 1),
                   (6, "Transporter", 1)]
WARNINGS = [("Black Box Warning", "Cardiotoxicity", "United States"), ("Withdrawn", "Hepatotoxicity", "European Union"),
            ("Black Box Warning", "Suicidal ideation", "United States"), ("Withdrawn", "Hematological toxicity", "Japan")]


def chembl_value(name: str, t: str | None, ctx: "ValueContext", n: int, rng: random.Random) -> Any:
    """A field of a ChEMBL record, by the record's kind (`ctx.entity`) and the field's name: a drug's
    ChEMBL id, name and approval year, its target, mechanism and indication; a cell line's tissue; an
    organism's taxonomy; None for a field such records do not have."""
    kind = singular(words(ctx.entity)[-1]) if words(ctx.entity) else ""
    chembl, drug, year, moa, indication, mesh, atc = CHEMBL_DRUGS[n % len(CHEMBL_DRUGS)]
    target_id, target = CHEMBL_TARGETS[n % len(CHEMBL_TARGETS)]
    cell, tissue_of = CELL_LINES[n % len(CELL_LINES)]
    tax, l1, l2, l3 = ORGANISMS[n % len(ORGANISMS)]
    tissue, uberon = TISSUES[n % len(TISSUES)]
    assay_type, assay = ASSAYS[n % len(ASSAYS)]
    go_id, go_name, aspect = GO_SLIMS[n % len(GO_SLIMS)]
    src_id, src_short, src_desc = CHEMBL_SOURCES[n % len(CHEMBL_SOURCES)]
    class_id, class_name, class_level = PROTEIN_CLASSES[n % len(PROTEIN_CLASSES)]
    warning_type, warning_class, country = WARNINGS[n % len(WARNINGS)]
    pref = {"drug": drug, "target": target, "tissue": tissue, "slim": go_name, "classification": class_name}.get(kind)
    values: dict[str, Any] = {
        "molecule_chembl_id": chembl, "pref_name": pref, "drug_type": "Small molecule" if "MAB" not in drug else "Antibody",
        "max_phase": 4, "first_approval": year, "target_chembl_id": target_id, "target_type": "SINGLE PROTEIN",
        "organism": "Homo sapiens", "assay_organism": "Homo sapiens" if assay_type in "BF" else ("Rattus norvegicus", "Mus musculus")[n % 2],
        "assay_chembl_id": f"CHEMBL{1_217_600 + 37 * n}", "assay_type": assay_type, "description": assay.format(t=target) if kind == "assay" else None,
        "mechanism_of_action": moa, "action_type": "INHIBITOR" if "inhibitor" in moa else "MODULATOR",
        "mesh_heading": indication, "mesh_id": mesh, "efo_term": indication.lower(), "max_phase_for_ind": 4,
        "cell_line_name": cell, "cell_chembl_id": f"CHEMBL{3_307_240 + n}", "cell_source_organism": "Homo sapiens", "cell_source_tissue": tissue_of,
        "tax_id": tax, "l1": l1, "l2": l2, "l3": l3, "tissue_chembl_id": f"CHEMBL{3_638_170 + n}", "uberon_id": uberon,
        "warning_type": warning_type, "warning_class": warning_class, "warning_country": country,
        "level1": atc[0], "level1_description": ATC_LEVEL1[atc[0]], "level5": atc, "who_name": drug.lower(),
        "go_id": go_id, "aspect": aspect, "src_id": src_id, "src_short_name": src_short, "src_description": src_desc,
        "protein_class_id": class_id, "class_level": class_level, "activity_id": 31_863 + 7 * n,
        "standard_type": ("IC50", "Ki", "EC50", "Kd")[n % 4], "standard_value": round(2.5 * (n % 9 + 1) ** 2, 1), "standard_units": "nM",
    }
    value = values.get(snake(name))
    if value is None or (t == "integer" and not isinstance(value, int)) or (t == "number" and not isinstance(value, (int, float))) \
            or (t == "string" and not isinstance(value, str)):
        return None
    return value


def ledger_value(name: str, t: str | None, ctx: "ValueContext", n: int, rng: random.Random) -> Any:
    """A field of an accounting system's record, by the record's kind (`ctx.entity`) and the field's
    name: an account's code and type, a tax rate's percentage, a quote's number and state, the customer
    or supplier a document is with; None for a field such records do not have."""
    kind = singular(words(ctx.entity)[-1]) if words(ctx.entity) else ""
    code, account, account_type = LEDGER_ACCOUNTS[n % len(LEDGER_ACCOUNTS)]
    tax_name, tax_type, tax_rate = TAX_RATES[n % len(TAX_RATES)]
    co = ctx.world.companies[n % len(ctx.world.companies)].name if ctx.world.companies else "Acme Ltd"
    values: dict[str, Any] = {
        "code": code, "account_code": code, "name": {"account": account, "rate": tax_name}.get(kind),
        "type": {"account": account_type, "transaction": ("RECEIVE", "SPEND")[n % 2]}.get(kind),
        "status": {"quote": ("DRAFT", "SENT", "ACCEPTED", "DECLINED")[n % 4], "note": ("DRAFT", "AUTHORISED", "PAID")[n % 3]}.get(kind, "ACTIVE"
                                                                                                                              if kind in ("account", "rate") else "AUTHORISED"),
        "tax_type": tax_type if kind == "rate" else "OUTPUT" if account_type == "REVENUE" else "INPUT",
        "quote_number": f"QU-{n + 1:04d}", "credit_note_number": f"CN-{n + 1:04d}", "journal_number": 100 + n,
        "contact": co, "contact_name": co, "reference": f"INV-{2000 + n}", "source_type": ("ACCREC", "ACCPAY", "CASHREC", "CASHPAID")[n % 4],
        "narration": f"{'Payment received from' if n % 2 == 0 else 'Bill from'} {co}",
        "rate": tax_rate if kind == "rate" else None, "tax_rate": tax_rate if kind == "rate" else None,
        "title": {"quote": f"Quote for {co}", "note": f"Credit for {co}"}.get(kind),
        "summary": f"{LEDGER_ITEMS[n % len(LEDGER_ITEMS)]} for {co}", "description": LEDGER_ITEMS[n % len(LEDGER_ITEMS)],
        "terms": "Payment due within 30 days of acceptance.",
    }
    value = values.get(snake(name))
    if value is None:
        return None
    if t in ("integer", "number") and not isinstance(value, (int, float)):
        return None
    if t == "string" and not isinstance(value, str):
        return str(value)
    return value


# (kind, group/version, namespaced, verbs) of the API resources a cluster serves, and its custom resources
CLUSTER_APIS = [("pods", "v1", "Pod", True), ("services", "v1", "Service", True), ("nodes", "v1", "Node", False),
                ("deployments", "apps/v1", "Deployment", True), ("statefulsets", "apps/v1", "StatefulSet", True),
                ("jobs", "batch/v1", "Job", True), ("cronjobs", "batch/v1", "CronJob", True),
                ("ingresses", "networking.k8s.io/v1", "Ingress", True), ("namespaces", "v1", "Namespace", False),
                ("configmaps", "v1", "ConfigMap", True)]
CLUSTER_CRDS = [("certificates.cert-manager.io", "cert-manager.io", "Certificate"), ("servicemonitors.monitoring.coreos.com",
                "monitoring.coreos.com", "ServiceMonitor"), ("ingressroutes.traefik.io", "traefik.io", "IngressRoute"),
                ("applications.argoproj.io", "argoproj.io", "Application"), ("scaledobjects.keda.sh", "keda.sh", "ScaledObject")]
CLUSTER_EVENTS = [("Normal", "Scheduled", "Successfully assigned {pod} to worker-2"), ("Normal", "Pulled",
                  "Container image \"registry.local/{svc}:1.8.2\" already present on machine"),
                  ("Warning", "BackOff", "Back-off restarting failed container {svc} in pod {pod}"),
                  ("Normal", "ScalingReplicaSet", "Scaled up replica set {svc}-7d9f6c to 3"),
                  ("Warning", "FailedScheduling", "0/3 nodes are available: 3 Insufficient memory.")]
CLUSTER_CONTEXTS = [("prod-eu-west-1", "prod-eu"), ("staging", "staging"), ("dev-local", "minikube")]


def cluster_value(name: str, t: str | None, ctx: "ValueContext", n: int, rng: random.Random) -> Any:
    """A field of a Kubernetes object, by its kind (`ctx.entity`) and the field's name: a node's
    status and kubelet version, a Service's type and cluster IP, a Job's completions, an event's reason
    about one of the cluster's pods; None for a field such objects do not have."""
    kind = ctx.entity
    svc = SERVICES[n % len(SERVICES)]
    ns = ("default", "payments", "web", "monitoring")[n % 4]
    pod = f"{svc}-7d9f6c-{'xk2lp q8zrt m4vbn'.split()[n % 3]}"
    if kind == "node":
        values: dict[str, Any] = {"name": f"worker-{n + 1}" if n else "control-plane-1", "node_name": f"worker-{n + 1}" if n else "control-plane-1",
                                  "status": "Ready" if n % 5 else "NotReady" if n else "Ready", "roles": "control-plane" if n == 0 else "worker",
                                  "version": "v1.29.4", "internal_ip": f"10.0.1.{11 + n}", "cpu": ("4", "8", "16")[n % 3],
                                  "memory": ("16Gi", "32Gi", "64Gi")[n % 3], "effect": ("NoSchedule", "PreferNoSchedule")[n % 2],
                                  "key": "dedicated", "value": ("batch", "gpu")[n % 2]}
    elif kind == "service":
        values = {"name": svc, "namespace": ns, "type": ("ClusterIP", "ClusterIP", "NodePort", "LoadBalancer")[n % 4],
                  "cluster_ip": f"10.96.{n % 7}.{20 + n}", "ports": ("80/TCP", "443/TCP", "8080/TCP", "9090/TCP")[n % 4]}
    elif kind == "job":
        values = {"name": f"{svc}-migrate-{28_450_000 + n}", "cron_job_name": f"{svc}-nightly", "namespace": ns,
                  "completions": "1/1" if n % 4 else "0/1", "status": "Complete" if n % 4 else "Failed"}
    elif kind == "context":
        cname, cluster = CLUSTER_CONTEXTS[n % len(CLUSTER_CONTEXTS)]
        values = {"name": cname, "cluster": cluster, "user": f"{cluster}-admin", "namespace": "default", "current": n == 0}
    elif kind == "apis":
        rname, gv, rkind, namespaced = CLUSTER_APIS[n % len(CLUSTER_APIS)]
        values = {"name": rname, "group_version": gv, "kind": rkind, "namespaced": namespaced,
                  "verbs": ["get", "list", "watch"] if rkind == "Node" else ["create", "delete", "get", "list", "patch", "update", "watch"]}
    elif kind == "crd":
        cname, group, ckind = CLUSTER_CRDS[n % len(CLUSTER_CRDS)]
        values = {"name": cname, "group": group, "version": "v1", "kind": ckind, "scope": "Namespaced"}
    elif kind == "event":
        etype, reason, message = CLUSTER_EVENTS[n % len(CLUSTER_EVENTS)]
        values = {"type": etype, "reason": reason, "object": f"pod/{pod}", "namespace": ns, "count": 1 + n % 6,
                  "message": message.format(pod=pod, svc=svc)}
    elif kind in ("rollout", "app"):
        ready = 3 if n % 4 else 2
        values = {"name": svc, "app_name": svc, "namespace": ns, "resource_type": "deployment", "revision": 3 + n % 5, "replicas": 3,
                  "ready_replicas": ready, "restarts": 0 if n % 4 else 7,
                  "status": ("successfully rolled out" if ready == 3 else "waiting: 2 of 3 updated replicas are available") if kind == "rollout"
                  else "Healthy" if ready == 3 else "Degraded",
                  "message": "all replicas ready" if ready == 3 else f"pod {pod} is in CrashLoopBackOff (7 restarts)"}
    else:
        return None
    return _as_declared(values.get(snake(name)), t)


# the value functions of the archetype sets that answer every field of their records (`_hint` asks them first)
FAMILY_VALUES: dict[str, Callable[[str, str | None, "ValueContext", int, random.Random], Any]] = {
    "ledger": ledger_value, "cluster": cluster_value, "research": research_value, "chembl": chembl_value, "catalog": catalog_value, "exchange": exchange_value,
    "solana": solana_value, "hiscore": hiscore_value, "meteo": meteo_value, "esports": esports_value}


def _nth(options: list[Any], n: int, sep: str = " ") -> Any:
    """Record `n`'s value of a list: distinct for every record (a name is a key someone looks up)."""
    v = options[n % len(options)]
    if n < len(options):
        return v
    tag = f"{sep}{n // len(options) + 1}"
    return (v[0] + tag,) + tuple(v[1:]) if isinstance(v, tuple) else v + tag


COMPOUNDS = [("Caffeine", "C8H10N4O2", 194.19, "CN1C=NC2=C1C(=O)N(C(=O)N2C)C"), ("Aspirin", "C9H8O4", 180.16, "CC(=O)OC1=CC=CC=C1C(=O)O"),
             ("Ibuprofen", "C13H18O2", 206.28, "CC(C)CC1=CC=C(C=C1)C(C)C(=O)O"), ("Ethanol", "C2H6O", 46.07, "CCO"),
             ("Glucose", "C6H12O6", 180.16, "C(C1C(C(C(C(O1)O)O)O)O)O"), ("Paracetamol", "C8H9NO2", 151.16, "CC(=O)NC1=CC=C(C=C1)O")]


def _compound(rng: random.Random, ctx: ValueContext, n: int) -> tuple[str, str, float, str]:
    return ctx.shared(n, "compound", lambda: _nth(COMPOUNDS, n))


ENDPOINTS = [("GET", "/api/v1/orders", "List orders, newest first."), ("POST", "/api/v1/orders", "Create an order."),
             ("GET", "/api/v1/customers/{id}", "Get a customer by id."), ("DELETE", "/api/v1/sessions/{id}", "End a session."),
             ("GET", "/health", "Liveness probe.")]


def _endpoint(n: int) -> tuple[str, str, str]:
    """Record `n`'s endpoint: a method, a path (distinct per record) and what it does."""
    method, path, summary = ENDPOINTS[n % len(ENDPOINTS)]
    return method, path if n < len(ENDPOINTS) else f"/v{n // len(ENDPOINTS) + 1}{path}", summary


def _model(rng: random.Random, ctx: ValueContext, n: int) -> tuple[str, str]:
    return ctx.shared(n, "model", lambda: (lambda m: (m[0], _nth([x[1] for x in MODELS], n, "-")))(MODELS[n % len(MODELS)]))


def _image(rng: random.Random, ctx: ValueContext, n: int) -> str:
    # a space agency's pictures are of the sky and the planets (NASA's picture of the day had been a company logo)
    names = SKY_IMAGES if ctx.scope & SKY_WORDS else IMAGES
    return ctx.shared(n, "image", lambda: f"{_nth(names, n, '-')}.{rng.choice(['png', 'jpg', 'webp'])}")


def _setting(rng: random.Random, ctx: ValueContext, n: int) -> tuple[str, str, str]:
    name, value, default = ctx.shared(n, "setting", lambda: _nth(SETTINGS, n, "_"))
    # an environment's variables are named as a shell writes them (`LOG_LEVEL`)
    return (name.upper(), value, default) if {"env", "environment"} & set(words(ctx.entity)) else (name, value, default)


def _project(ctx: ValueContext, n: int) -> tuple[str, str, str]:
    name, key, about = PROJECTS[n % len(PROJECTS)]
    tag = "" if n < len(PROJECTS) else str(n // len(PROJECTS) + 1)
    return ctx.shared(n, "project", lambda: (f"{name} {tag}".strip(), f"{key}{tag}", about))


def _fixture(ctx: ValueContext, n: int) -> tuple[str, str]:
    """Record `n`'s two teams, home first, never the same team twice."""
    teams = _league(ctx).teams
    home = teams[n % len(teams)]
    away = teams[(n * 3 + 1) % len(teams)]
    return ctx.shared(n, "fixture", lambda: (home, away if away != home else teams[(n + 1) % len(teams)]))


def _component(rng: random.Random, ctx: ValueContext, n: int) -> str:
    return ctx.shared(n, "component", lambda: _nth(COMPONENTS, n))


# (name, gender, accent, description) of text-to-speech voices
VOICES = [("Rachel", "female", "american", "Calm young American voice, suited to narration."),
          ("Adam", "male", "american", "Deep middle-aged American voice for explainers."),
          ("Charlotte", "female", "british", "Warm British voice for audiobooks."),
          ("Daniel", "male", "british", "Authoritative British voice for news reads."),
          ("Aria", "female", "australian", "Bright Australian voice for conversational agents."),
          ("Liam", "male", "irish", "Friendly Irish voice for customer support.")]
# (name, package, platform) of the apps a device or a crash reporter knows
APPS = [("Halcyon Field", "com.halcyon.field", "android"), ("Halcyon Pay", "com.halcyon.pay", "ios"),
        ("Checkout Web", "io.halcyon.checkout", "web"), ("Inventory Scanner", "com.halcyon.inventory", "android"),
        ("Support Desk", "io.halcyon.support", "ios"), ("Slack", "com.slack", "android")]
EXPERIMENTS = ["prompt-eval", "retrieval-recall", "summary-faithfulness", "tool-call-accuracy", "classifier-baseline"]
EXPERIMENT_DATASETS = ["support-tickets-q3", "product-faq", "invoice-extraction", "churn-emails"]
MEMORY_FACTS = ["{first} prefers meetings after 10am", "{co} renewal is due at the end of the quarter",
                "{first} owns the billing migration", "Weekly sync with {co} moved to Thursdays",
                "{first} asked for invoices in PDF, not CSV", "{co} uses SSO through Okta"]


def _memory(rng: random.Random, ctx: ValueContext, n: int) -> str:
    """Record `n`'s remembered fact: about one of our people or a customer company."""
    person = ctx.world.employees[n % len(ctx.world.employees)] if ctx.world.employees else None
    return MEMORY_FACTS[n % len(MEMORY_FACTS)].format(first=person.first if person else "Dana", co=_co(rng, ctx, n))


def _co(rng: random.Random, ctx: ValueContext, n: int = -1) -> str:
    """A customer company of the world; record `n`'s own one when given (its fields agree)."""
    return _company_of(rng, ctx, n).name if ctx.world.companies else OUR_COMPANY


def _company_of(rng: random.Random, ctx: ValueContext, n: int) -> Any:
    cos = ctx.world.companies
    return ctx.shared(n, "company", lambda: cos[rng.randrange(len(cos))]) if n >= 0 else cos[rng.randrange(len(cos))]


def _first(p: Any) -> str:
    return p.first if p is not None else "there"


def _web_topic(rng: random.Random, ctx: ValueContext, n: int) -> str:
    return ctx.shared(n, "web", lambda: rng.choice(WEB_TOPICS))


def _web_text(rng: random.Random, ctx: ValueContext, n: int) -> str:
    """A page's text, in the markup its entity names: a fetched `html` is HTML, a `markdown` Markdown."""
    return render_page(_web_topic(rng, ctx, n), _co(rng, ctx, n), set(words(ctx.entity)))


def render_page(topic: str, site: str, markup: set[str]) -> str:
    """The text of a site's page about `topic`, in the markup named (HTML, Markdown, JSON; else plain)."""
    text = f"{topic} from {site}: plans, answers to common questions and how to get in touch."
    if "html" in markup:
        return f"<html><head><title>{topic} | {site}</title></head><body><h1>{topic}</h1><p>{text}</p></body></html>"
    if markup & {"markdown", "md"}:
        return f"# {topic}\n\n{text}"
    if "json" in markup:
        return json.dumps({"title": f"{topic} | {site}", "text": text})
    return text


def page_of(url: str, world: World) -> tuple[str, str]:
    """(topic, site) of the page at `url`: the topic its path names, the site its host names (a world
    company's name where the host is its domain)."""
    parts = urlsplit(url)
    slug = parts.path.rstrip("/").rsplit("/", 1)[-1]
    topic = " ".join(words(slug)).capitalize() if slug and not slug.isdigit() and words(slug) else "Home"
    host = (parts.hostname or "").removeprefix("www.")
    return topic, next((c.name for c in world.companies if c.domain == host), host)


FOLDER_WORDS = frozenset({"folder", "folders", "directory", "directories", "dir", "dirs"})
FOLDERS = ["reports", "contracts", "invoices", "onboarding", "designs", "meeting-notes", "exports", "archive"]


def _folder(ctx: ValueContext) -> bool:
    return bool(set(words(ctx.entity)) & FOLDER_WORDS)


def _file(rng: random.Random, ctx: ValueContext, n: int) -> str:
    """Record `n`'s file name; a folder's records are folders, named without an extension."""
    if _folder(ctx):
        return ctx.shared(n, "file", lambda: _nth(FOLDERS, n, "-"))
    return ctx.shared(n, "file", lambda: f"{rng.choice(FILE_STEMS)}.{rng.choice(list(EXT_MIME))}")


def _file_path(rng: random.Random, ctx: ValueContext, n: int) -> str:
    return ctx.shared(n, "path", lambda: f"/{rng.choice(FILE_DIRS)}/{_file(rng, ctx, n)}")


def _health(rng: random.Random, ctx: ValueContext, n: int) -> str:
    """Record `n`'s health: mostly good, as services usually are; a cluster's in Elasticsearch's colours."""
    colours = bool(ctx.scope & {"elasticsearch", "opensearch", "cluster"})
    return ctx.shared(n, "health", lambda: rng.choice(["green", "green", "green", "yellow", "red"] if colours else
                                                      ["healthy", "healthy", "healthy", "degraded", "unhealthy"]))


def _repo(rng: random.Random, ctx: ValueContext, n: int) -> str:
    return ctx.shared(n, "repo", lambda: rng.choice(REPOS))


BRANCHES = ["main", "develop", "release/2.4", "feature/invoice-export", "fix/login-timeout", "chore/bump-deps"]


def _branch(rng: random.Random, ctx: ValueContext, n: int) -> str:
    """A branch of record `n`'s repository: a branch's own name, a pull request's head (its base is main)."""
    return ctx.shared(n, "branch", lambda: BRANCHES[n % len(BRANCHES)] if ctx.entity == "branch" else rng.choice(BRANCHES[2:]))


def _diff(rng: random.Random, ctx: ValueContext, n: int) -> str:
    old, new = rng.choice(CODE_LINES)
    path = f"src/{_repo(rng, ctx, n).split('-')[0]}/core.py"
    return f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -12,3 +12,3 @@\n-    {old}\n+    {new}\n"


UNITS: list[tuple[frozenset[str], str]] = [
    (frozenset({"space", "disk", "storage", "memory", "ram", "quota", "size", "volume", "drive"}), "GB"),
    (frozenset({"latency", "duration", "response", "uptime", "time"}), "ms"),
    (frozenset({"rate", "percent", "percentage", "usage", "utilization", "ratio", "share", "cpu"}), "%"),
    (frozenset({"price", "revenue", "cost", "balance", "spend", "budget", "sales"}), "USD"),
    (frozenset({"temperature", "temp"}), "°C"),
    (frozenset({"distance", "route", "length"}), "km"),
    (frozenset({"weight", "mass"}), "kg"),
    (frozenset({"speed", "bandwidth", "throughput"}), "Mbps"),
]


def unit_for(ws: set[str]) -> str | None:
    """The unit a record about these words is measured in (a disk's space in GB, a latency in ms); None
    when they do not say."""
    sing = ws | {singular(w) for w in ws}
    return next((unit for keys, unit in UNITS if sing & keys), None)


def _metric(rng: random.Random, ctx: ValueContext, n: int) -> tuple[str, str, int, int]:
    scope = ctx.scope | ({"chain"} if ctx.chain else set())
    metrics = next((m for keys, m in DOMAIN_METRICS if scope & keys), METRICS)
    return ctx.shared(n, "metric", lambda: rng.choice(metrics))


def _table(rng: random.Random, ctx: ValueContext, n: int) -> tuple[str, list[str]]:
    # record n's own table: a database lists each of its tables once (ArangoDB's collections had listed "customers" twice)
    return ctx.shared(n, "table", lambda: _nth(TABLES, n, "_"))


def _doc(rng: random.Random, ctx: ValueContext, n: int) -> str:
    return ctx.shared(n, "doc", lambda: rng.choice(DOCS))


def _doc_text(rng: random.Random, ctx: ValueContext, n: int) -> str:
    title = _doc(rng, ctx, n)
    line = next((v for k, v in DOC_LINES.items() if k in title.lower()), "Owners, scope and the latest changes are listed below.")
    return f"{title}. {line}"


def _ticket_text(rng: random.Random, ctx: ValueContext, n: int) -> str:
    """A ticket's body, or what a time log on it says (a worklog records work done, not the bug)."""
    title = ctx.shared(n, "ticket", lambda: rng.choice(TICKETS)).lower()
    if {"worklog", "timelog", "log", "timesheet", "time", "entry"} & set(words(ctx.entity)):
        return f"Worked on: {title}. Reproduced it, found the cause and pushed a fix for review."
    return f"Steps to reproduce: {title}. Expected: it works as documented. Actual: it does not; see the attached log."


ACTIVITIES = ("call", "email", "meeting", "note")


def _activity(r: random.Random, c: ValueContext, n: int) -> str:
    """Record `n`'s kind of CRM activity: the one its entity names (a `call` is a call), else any."""
    own = next((w for w in words(c.entity) if w in ACTIVITIES), None)
    return c.shared(n, "activity", lambda: own or r.choice(ACTIVITIES))


def _stranger(rng: random.Random) -> str:
    """Someone outside the world's companies (a journalist, a speaker): a plausible full name."""
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


Gen = Callable[[random.Random, ValueContext, Any, int], Any]
NAMES = {"name", "title", "label", "heading", "caption", "filename", "subject", "headline"}
TEXTS = {"description", "summary", "body", "content", "text", "message", "note", "notes", "comment", "snippet", "details"}

FAMILY_STR: dict[str, list[tuple[set[str], Gen]]] = {
    "file": [({"extension", "ext", "suffix"}, lambda r, c, p, n: _file(r, c, n).rsplit(".", 1)[-1] if not _folder(c) else ""),
             ({"directory", "dir", "folder", "parent", "dirname"}, lambda r, c, p, n: _file_path(r, c, n).rsplit("/", 1)[0]),
             ({"path", "filepath", "fullpath", "location", "key"}, lambda r, c, p, n: _file_path(r, c, n)),
             ({"mime", "mimetype", "content_type", "type"}, lambda r, c, p, n: "inode/directory" if _folder(c) else EXT_MIME[_file(r, c, n).rsplit(".", 1)[1]]),
             (NAMES, lambda r, c, p, n: _file(r, c, n)),
             (TEXTS, lambda r, c, p, n: f"{'Folder ' if _folder(c) else ''}{_file(r, c, n)} in {_file_path(r, c, n).rsplit('/', 1)[0]}, shared with the team.")],
    "repo": [({"full_name", "repo", "repository", "slug"}, lambda r, c, p, n: f"halcyon-works/{_repo(r, c, n)}"),
             ({"diff", "patch", "changes"}, lambda r, c, p, n: _diff(r, c, n)),
             ({"path", "local_path", "repo_path"}, lambda r, c, p, n: f"/src/{_repo(r, c, n)}"),
             # a branch a pull request merges from or into, or a release is cut from, is one of the repository's
             ({"head", "base", "branch", "ref", "target_commitish", "head_ref", "base_ref", "default_branch"},
              lambda r, c, p, n: _branch(r, c, n)),
             ({"tag", "tag_name"}, lambda r, c, p, n: c.shared(n, "tag", lambda: f"v{r.randint(0, 3)}.{r.randint(0, 12)}.{r.randint(0, 9)}")),
             ({"state"}, lambda r, c, p, n: r.choice(["open", "open", "closed", "merged"]) if c.entity in ("request", "pull_request") else r.choice(["open", "closed"])),
             ({"message", "commit", "subject", "title", "summary"}, lambda r, c, p, n: r.choice(COMMITS)),
             ({"name"}, lambda r, c, p, n: _branch(r, c, n) if c.entity == "branch" else
              c.shared(n, "tag", lambda: f"v{r.randint(0, 3)}.{r.randint(0, 12)}.{r.randint(0, 9)}") if c.entity == "release" else _repo(r, c, n)),
             ({"description", "body", "text", "content"}, lambda r, c, p, n: f"The {_repo(r, c, n)} service: source, tests and deployment scripts."),
             ({"author", "committer", "owner", "user", "login", "username"}, lambda r, c, p, n: p.name if p else "Build Bot")],
    "web": [({"url", "link", "href", "uri"}, lambda r, c, p, n: f"https://{_company_of(r, c, n).domain}/{slugify(_web_topic(r, c, n))}"),
            (NAMES, lambda r, c, p, n: f"{_web_topic(r, c, n)} | {_co(r, c, n)}"),
            (TEXTS | {"html", "markdown", "txt", "json"}, lambda r, c, p, n: _web_text(r, c, n))],
    # Elasticsearch's cluster health is green, yellow or red; a service's health check healthy or not
    "health": [({"status", "state", "health"}, lambda r, c, p, n: _health(r, c, n)),
               ({"version"}, lambda r, c, p, n: f"{r.randint(1, 8)}.{r.randint(0, 19)}.{r.randint(0, 9)}"),
               (TEXTS, lambda r, c, p, n: "All checks passed." if _health(r, c, n) in ("green", "healthy") else
                "Some checks failed: see the failing components.")],
    "weather": [({"severity", "level"}, lambda r, c, p, n: r.choice(["minor", "moderate", "severe", "extreme"])),
                ({"event", "headline", "alert"}, lambda r, c, p, n: r.choice(["Heat advisory", "Flood warning", "Winter storm watch", "Wind advisory"])),
                ({"city", "location", "place", "station", "name", "title"}, lambda r, c, p, n: c.shared(n, "city", lambda: r.choice(CITIES)[0])),
                (TEXTS, lambda r, c, p, n: f"Observations from the {c.shared(n, 'city', lambda: r.choice(CITIES)[0])} weather station.")],
    "finance": [({"grading", "broker", "analyst", "firm"}, lambda r, c, p, n: r.choice(BROKERS)),
                ({"transaction", "disposition"}, lambda r, c, p, n: r.choice(INSIDER_TRANSACTIONS)),  # an insider's
                ({"owner", "relationship"}, lambda r, c, p, n: r.choice(INSIDER_OWNERS)),
                ({"form"}, lambda r, c, p, n: r.choice(FORM_TYPES)),
                ({"cik"}, lambda r, c, p, n: f"{r.randint(1_000, 1_999_999):010d}"),
                ({"grade", "rating", "recommendation"}, lambda r, c, p, n: r.choice(GRADES)),
                ({"action"}, lambda r, c, p, n: r.choice(["upgrade", "downgrade", "maintain", "initiate"])),
                ({"period"}, lambda r, c, p, n: r.choice(["annual", "quarter"])),
                ({"name", "company", "issuer"}, lambda r, c, p, n: _co(r, c)),
                (TEXTS, lambda r, c, p, n: f"{_co(r, c)} shares traded in a narrow range ahead of quarterly results.")],
    "news": [(NAMES, lambda r, c, p, n: r.choice(NEWS).format(co=_co(r, c), co2=_co(r, c), city=r.choice(CITIES)[0])),
             ({"author", "byline", "reporter"}, lambda r, c, p, n: _stranger(r)),
             (TEXTS, lambda r, c, p, n: f"{_co(r, c)} said the change takes effect next quarter; analysts expect little impact on prices.")],
    "ticket": [(NAMES, lambda r, c, p, n: c.shared(n, "ticket", lambda: r.choice(TICKETS))),
               (TEXTS, lambda r, c, p, n: _ticket_text(r, c, n))],
    "message": [(NAMES, lambda r, c, p, n: r.choice(MAIL).format(co=p.company if p and p.company else _co(r, c))),
                (TEXTS, lambda r, c, p, n: f"Hi {_first(p)}, thanks for the update. Could you confirm the dates by Friday? Best regards")],
    "event": [(NAMES, lambda r, c, p, n: r.choice(MEETINGS).format(co=p.company if p and p.company else _co(r, c))),
              ({"location", "room", "where"}, lambda r, c, p, n: r.choice(ROOMS)),
              (TEXTS, lambda r, c, p, n: "Agenda: status, open decisions, next steps. Please read the notes beforehand.")],
    "contact": [({"first", "first_name", "firstname", "given_name"}, lambda r, c, p, n: p.first if p else r.choice(FIRST)),
                ({"last", "last_name", "lastname", "surname", "family_name"}, lambda r, c, p, n: p.last if p else r.choice(LAST)),
                ({"name", "full_name", "display_name", "fullname"}, lambda r, c, p, n: p.name if p else _stranger(r)),
                ({"title", "job_title", "position", "role"}, lambda r, c, p, n: p.title if p and p.title else "Account Manager"),
                ({"company", "organization", "employer"}, lambda r, c, p, n: p.company if p and p.company else _co(r, c)),
                ({"username", "login", "handle"}, lambda r, c, p, n: p.email.split("@")[0].replace(".", "_") if p else f"user{n}"),
                (TEXTS, lambda r, c, p, n: f"{p.title if p and p.title else 'Contact'} at {p.company if p and p.company else _co(r, c)}.")],
    "order": [({"number", "order_number", "reference", "ref", "invoice_number"}, lambda r, c, p, n: f"ORD-{10001 + n}"),
              ({"product", "item", "sku_name", "description"}, lambda r, c, p, n: r.choice(c.world.products)[0]),
              ({"customer", "customer_name", "buyer"}, lambda r, c, p, n: p.name if p else _co(r, c)),
              (NAMES, lambda r, c, p, n: f"Order ORD-{10001 + n}"),
              (TEXTS, lambda r, c, p, n: f"Order for {p.company if p and p.company else _co(r, c)}: {r.choice(c.world.products)[0]}.")],
    "metric": [({"unit", "units"}, lambda r, c, p, n: _metric(r, c, n)[1]),
               (NAMES | {"metric", "key"}, lambda r, c, p, n: _metric(r, c, n)[0]),
               (TEXTS, lambda r, c, p, n: f"{_metric(r, c, n)[0].replace('_', ' ')} over the last 7 days, by day.")],
    "place": [({"from", "origin", "start", "source"}, lambda r, c, p, n: r.choice(CITIES)[0]),
              ({"to", "destination", "end", "target"}, lambda r, c, p, n: r.choice(CITIES)[0]),
              (NAMES, lambda r, c, p, n: f"{r.choice(COMPANY_A)} {r.choice(PLACES)}"),
              (TEXTS, lambda r, c, p, n: "Open daily 9:00-18:00; step-free access from the main entrance.")],
    "media": [({"transcript", "captions", "subtitles", "text", "content"},
               lambda r, c, p, n: f"[00:00:04] {_stranger(r)}: Welcome back to the show.\n[00:00:09] {_stranger(r)}: Thanks for having me."),
              ({"speaker", "host", "creator", "director", "artist", "author"}, lambda r, c, p, n: _stranger(r)),
              (NAMES, lambda r, c, p, n: r.choice(MEDIA)),
              ({"description", "summary", "synopsis"}, lambda r, c, p, n: f"{r.choice(MEDIA)}: an episode about work, cities and the people in them.")],
    "deploy": [({"image"}, lambda r, c, p, n: f"registry.halcyon.io/{c.shared(n, 'svc', lambda: r.choice(SERVICES))}:{r.randint(1, 3)}.{r.randint(0, 12)}.{r.randint(0, 9)}"),
               ({"namespace", "environment", "env", "stage"}, lambda r, c, p, n: r.choice(["production", "staging"])),
               (NAMES, lambda r, c, p, n: c.shared(n, "svc", lambda: r.choice(SERVICES))),
               (TEXTS | {"log", "logs"}, lambda r, c, p, n: f"{c.shared(n, 'svc', lambda: r.choice(SERVICES))}: rollout complete, all replicas healthy.")],
    # a database tool's sample statement (data of the simulated tool, never run by this project)
    "table": [({"sql", "query", "statement"}, lambda r, c, p, n: f"select * from {_table(r, c, n)[0]} limit 10"),
              ({"column", "columns", "field"}, lambda r, c, p, n: _table(r, c, n)[1][1]),
              (NAMES | {"table"}, lambda r, c, p, n: _table(r, c, n)[0]),
              (TEXTS, lambda r, c, p, n: f"Table {_table(r, c, n)[0]} with columns {', '.join(_table(r, c, n)[1])}.")],
    "country": [(NAMES | {"country", "country_name"}, lambda r, c, p, n: COUNTRIES[n % len(COUNTRIES)][0])],
    "permission": [({"permission", "role", "level", "access"}, lambda r, c, p, n: r.choice(["view", "comment", "edit", "admin"]))],
    "presence": [({"presence", "status", "state"}, lambda r, c, p, n: ("online", "offline", "typing", "offline", "recording", "paused")[n % 6])],
    "voice": [(NAMES | {"voice_name"}, lambda r, c, p, n: VOICES[n % len(VOICES)][0]),
              ({"gender"}, lambda r, c, p, n: VOICES[n % len(VOICES)][1]),
              ({"accent"}, lambda r, c, p, n: VOICES[n % len(VOICES)][2]),
              ({"category", "type"}, lambda r, c, p, n: ("premade", "cloned", "generated")[n % 3]),
              (TEXTS | {"voice_description"}, lambda r, c, p, n: VOICES[n % len(VOICES)][3])],
    "experiment": [(NAMES | {"experiment_name"}, lambda r, c, p, n: f"{EXPERIMENTS[n % len(EXPERIMENTS)]}-v{1 + n // len(EXPERIMENTS)}"),
                   ({"dataset", "dataset_name"}, lambda r, c, p, n: EXPERIMENT_DATASETS[n % len(EXPERIMENT_DATASETS)]),
                   ({"status", "state"}, lambda r, c, p, n: ("completed", "completed", "running", "failed")[n % 4]),
                   (TEXTS, lambda r, c, p, n: f"{EXPERIMENTS[n % len(EXPERIMENTS)]} on {EXPERIMENT_DATASETS[n % len(EXPERIMENT_DATASETS)]}, "
                                              "scored against the reference answers.")],
    "app": [({"package_name", "package", "bundle_id", "bundle", "application_identifier", "app_id"}, lambda r, c, p, n: APPS[n % len(APPS)][1]),
            (NAMES | {"app_name", "application_name"}, lambda r, c, p, n: APPS[n % len(APPS)][0]),
            ({"platform", "os"}, lambda r, c, p, n: APPS[n % len(APPS)][2]),
            ({"version", "version_name"}, lambda r, c, p, n: f"{2 + n % 3}.{n % 7}.{n % 4}"),
            (TEXTS, lambda r, c, p, n: f"{APPS[n % len(APPS)][0]} for {APPS[n % len(APPS)][2]}, built by the mobile team.")],
    "memory": [(TEXTS | {"memory", "fact", "observation"}, lambda r, c, p, n: _memory(r, c, n)),
               (NAMES, lambda r, c, p, n: _memory(r, c, n)[:40]),
               ({"tags", "tag", "category"}, lambda r, c, p, n: ["preferences", "projects", "people"][n % 3])],
    "stock_exchange": [({"acronym", "code", "exchange", "short_name"}, lambda r, c, p, n: _nth(STOCK_EXCHANGES, n)[1]),
                       (NAMES, lambda r, c, p, n: _nth(STOCK_EXCHANGES, n)[0]),
                       ({"country", "country_code"}, lambda r, c, p, n: STOCK_EXCHANGES[n % len(STOCK_EXCHANGES)][2]),
                       ({"currency"}, lambda r, c, p, n: STOCK_EXCHANGES[n % len(STOCK_EXCHANGES)][3]),
                       ({"timezone", "tz"}, lambda r, c, p, n: STOCK_EXCHANGES[n % len(STOCK_EXCHANGES)][4])],
    "market_index": [({"symbol", "ticker", "code"}, lambda r, c, p, n: _nth(MARKET_INDEXES, n, "-")[0]),
                     (NAMES, lambda r, c, p, n: _nth(MARKET_INDEXES, n)[1]),
                     ({"exchange", "exchange_short_name"}, lambda r, c, p, n: MARKET_INDEXES[n % len(MARKET_INDEXES)][2]),
                     ({"currency"}, lambda r, c, p, n: MARKET_INDEXES[n % len(MARKET_INDEXES)][3])],
    "search_index": [(NAMES | {"index", "index_name", "uid", "index_uid"}, lambda r, c, p, n: _nth(SEARCH_INDEXES, n, "-")),
                     ({"health"}, lambda r, c, p, n: ("green", "green", "yellow")[n % 3])],
    "broker_exchange": [(NAMES, lambda r, c, p, n: _nth(BROKER_EXCHANGES, n, "-")[0]),
                        ({"type", "kind"}, lambda r, c, p, n: BROKER_EXCHANGES[n % len(BROKER_EXCHANGES)][1]),
                        ({"vhost", "virtual_host"}, lambda r, c, p, n: "/")],
    "game_character": [(NAMES | {"champion", "hero", "character", "agent", "localized_name"}, lambda r, c, p, n: _character(c, n)[0]),
                       ({"role", "position", "lane", "class"}, lambda r, c, p, n: _character(c, n)[1]),
                       ({"tier"}, lambda r, c, p, n: TIERS[n % len(TIERS)])],
    "chat_channel": [({"topic", "purpose", "description"}, lambda r, c, p, n: CHANNELS[n % len(CHANNELS)][1]),
                     (NAMES | {"channel", "channel_name"}, lambda r, c, p, n: _nth([ch for ch, _ in CHANNELS], n, "-"))],
    "paper": [(NAMES, lambda r, c, p, n: c.shared(n, "paper", lambda: r.choice(PAPERS))),
              (TEXTS | {"abstract"}, lambda r, c, p, n: f"We study {c.shared(n, 'paper', lambda: r.choice(PAPERS)).lower()} "
                                                       f"on {r.randint(3, 40)} public datasets; the method improves accuracy by {r.randint(2, 15)}%.")],
    "document": [(NAMES, lambda r, c, p, n: _doc(r, c, n)),
                 ({"path", "filepath"}, lambda r, c, p, n: f"/docs/{_doc(r, c, n).lower().replace(':', '').replace(' ', '-')}.md"),
                 (TEXTS, lambda r, c, p, n: _doc_text(r, c, n))],
}
# a company's record is one company of the world: HubSpot's companies had a name, another company's
# domain and the description "Company 6, as recorded."
FAMILY_STR["company"] = [
    ({"domain", "company_domain"}, lambda r, c, p, n: _company_of(r, c, n).domain),
    ({"website", "url", "homepage"}, lambda r, c, p, n: f"https://{_company_of(r, c, n).domain}"),
    ({"industry", "sector"}, lambda r, c, p, n: _company_of(r, c, n).industry),
    ({"city"}, lambda r, c, p, n: _company_of(r, c, n).city),
    ({"country"}, lambda r, c, p, n: _company_of(r, c, n).country),
    (NAMES, lambda r, c, p, n: _company_of(r, c, n).name),
    (TEXTS, lambda r, c, p, n: f"{_company_of(r, c, n).name}, a {_company_of(r, c, n).industry} company based in {_company_of(r, c, n).city}.")]
# archetypes of issue 12's second round: logs, images, settings, UI components, prompts
FAMILY_STR["deploy"] += [
    ({"status", "state"}, lambda r, c, p, n: r.choice(["running", "running", "stopped", "degraded"])),
    ({"host", "hostname"}, lambda r, c, p, n: f"ip-10-0-{r.randint(0, 15)}-{r.randint(2, 250)}.internal"),
    ({"region", "zone"}, lambda r, c, p, n: r.choice(REGIONS))]
FAMILY_STR.update({
    "process": [({"command", "cmd", "name", "cmdline"}, lambda r, c, p, n: _nth(["python worker.py", "postgres", "nginx: worker process", "node server.js", "gdb ./app", "redis-server"], n)),
                ({"user", "owner"}, lambda r, c, p, n: r.choice(["root", "app", "postgres"]))],
    "endpoint": [({"method", "verb"}, lambda r, c, p, n: _endpoint(n)[0]),
                 ({"path", "route", "url"}, lambda r, c, p, n: _endpoint(n)[1]),
                 (TEXTS, lambda r, c, p, n: _endpoint(n)[2])],
    "shortcut": [(NAMES, lambda r, c, p, n: _nth(["Log Water", "Start Focus Timer", "Text Last Photo", "Morning Briefing", "Share ETA"], n)),
                 ({"folder"}, lambda r, c, p, n: r.choice(["Home", "Work", "Health", "Starter Shortcuts"]))],
    "engagement": [({"activity_type", "type", "kind"}, lambda r, c, p, n: _activity(r, c, n)),
                   (NAMES, lambda r, c, p, n: {"call": "Call with {co}", "email": "Email to {co}", "meeting": "Meeting with {co}",
                                               "note": "Note on the {co} account"}[_activity(r, c, n)]
                    .format(co=p.company if p and p.company else _co(r, c))),
                   (TEXTS, lambda r, c, p, n: f"Discussed the renewal with {_first(p)}; follow up with a quote by Friday.")],
    "compound": [(NAMES, lambda r, c, p, n: _compound(r, c, n)[0]),
                 ({"formula", "molecular_formula"}, lambda r, c, p, n: _compound(r, c, n)[1]),
                 ({"smiles", "canonical_smiles"}, lambda r, c, p, n: _compound(r, c, n)[3]),
                 (TEXTS, lambda r, c, p, n: f"{_compound(r, c, n)[0]} ({_compound(r, c, n)[1]}), molecular weight {_compound(r, c, n)[2]} g/mol.")],
    "definition": [({"speech", "pos"}, lambda r, c, p, n: c.shared(n, "sense", lambda: r.choice(SENSES))[0]),
                   ({"definition", "meaning", "gloss"}, lambda r, c, p, n: c.shared(n, "sense", lambda: r.choice(SENSES))[1]),
                   ({"example", "usage", "sentence"}, lambda r, c, p, n: c.shared(n, "sense", lambda: r.choice(SENSES))[2])],
    "scripture": [({"reference", "ref", "key"}, lambda r, c, p, n: f"{r.randint(1, 114)}:{r.randint(1, 20)}"),
                  ({"edition", "translation", "identifier"}, lambda r, c, p, n: c.shared(n, "edition", lambda: r.choice(EDITIONS))[0]),
                  ({"language", "lang"}, lambda r, c, p, n: c.shared(n, "edition", lambda: r.choice(EDITIONS))[1]),
                  (TEXTS, lambda r, c, p, n: "In the name of God, the Most Gracious, the Most Merciful.")],
    # a node is named after the record's person (or a company where it has none), and its type says which
    "graph": [({"relation", "relationship", "relationtype", "predicate"}, lambda r, c, p, n: r.choice(RELATION_TYPES)),
              ({"entity_type", "type", "kind"}, lambda r, c, p, n: "person" if p else "organization"),
              (NAMES, lambda r, c, p, n: p.name if p else _co(r, c, n))],
    "whois": [({"registrar"}, lambda r, c, p, n: r.choice(["Gandi SAS", "Namecheap, Inc.", "GoDaddy.com, LLC", "Cloudflare, Inc.", "RIPE NCC", "ARIN"]))],
    "model": [(NAMES | {"model", "id"}, lambda r, c, p, n: _model(r, c, n)[1]),
              ({"provider", "vendor", "owner", "organization"}, lambda r, c, p, n: _model(r, c, n)[0]),
              (TEXTS, lambda r, c, p, n: f"{_model(r, c, n)[1]} by {_model(r, c, n)[0]}: a general-purpose model for text and chat.")],
    "assignment": [({"course", "course_name"}, lambda r, c, p, n: COURSES[n % len(COURSES)]),
                   ({"submission"}, lambda r, c, p, n: ASSIGNMENTS[n % len(ASSIGNMENTS)][2]),
                   (NAMES, lambda r, c, p, n: _nth(ASSIGNMENTS, n)[0]),
                   (TEXTS, lambda r, c, p, n: ASSIGNMENTS[n % len(ASSIGNMENTS)][1])],
    "course": [(NAMES, lambda r, c, p, n: c.shared(n, "course", lambda: _nth(COURSES, n))),
               (TEXTS, lambda r, c, p, n: f"{c.shared(n, 'course', lambda: _nth(COURSES, n))}: weekly lectures, two assignments and a final project.")],
    "standing": [({"team", "name", "club", "constructor"}, lambda r, c, p, n: c.shared(n, "team", lambda: _nth(_league(c).teams, n)))],
    "game": [({"home_team", "home", "home_name"}, lambda r, c, p, n: _fixture(c, n)[0]),
             ({"away_team", "away", "away_name", "opponent"}, lambda r, c, p, n: _fixture(c, n)[1]),
             ({"team", "club"}, lambda r, c, p, n: _fixture(c, n)[0]),  # a team's game: the team is one of its two sides
             ({"venue", "stadium", "ballpark", "circuit"}, lambda r, c, p, n: f"{_fixture(c, n)[0].split()[0]} Park"),
             ({"status", "state"}, lambda r, c, p, n: r.choice(["Final", "Final", "Scheduled", "In progress"])),
             (NAMES | TEXTS, lambda r, c, p, n: f"{_fixture(c, n)[1]} at {_fixture(c, n)[0]}")],
    "stat": [({"team", "club"}, lambda r, c, p, n: _league(c).team(n)),
             ({"stat", "category", "stat_type", "metric", "leader_category"}, lambda r, c, p, n: STAT_RANGES[n % len(STAT_RANGES)][0])],
    "athlete": [({"team", "club", "constructor", "current_team"}, lambda r, c, p, n: _league(c).team(n)),
                ({"position", "pos", "role"}, lambda r, c, p, n: _league(c).position(n))],
    "log": [({"level", "severity"}, lambda r, c, p, n: c.shared(n, "log", lambda: r.choice(LOG_LINES))[0]),
            ({"source", "logger", "service"}, lambda r, c, p, n: c.shared(n, "svc", lambda: r.choice(SERVICES))),
            (TEXTS | {"line", "log"}, lambda r, c, p, n: c.shared(n, "log", lambda: r.choice(LOG_LINES))[1])],
    "image": [({"format", "extension", "ext"}, lambda r, c, p, n: _image(r, c, n).rsplit(".", 1)[1]),
              ({"mime", "mimetype", "content_type"}, lambda r, c, p, n: "image/" + _image(r, c, n).rsplit(".", 1)[1].replace("jpg", "jpeg")),
              ({"url", "link", "src", "uri"}, lambda r, c, p, n: f"https://cdn.{_company_of(r, c, n).domain}/images/{_image(r, c, n)}"),
              (NAMES, lambda r, c, p, n: _image(r, c, n)),
              ({"alt", "caption", "description"}, lambda r, c, p, n: f"{_image(r, c, n).rsplit('.', 1)[0].replace('-', ' ').capitalize()}, {_co(r, c, n)}")],
    "config": [({"key", "name", "setting", "variable", "option"}, lambda r, c, p, n: _setting(r, c, n)[0]),
               ({"value", "current", "current_value"}, lambda r, c, p, n: _setting(r, c, n)[1]),
               ({"default", "default_value"}, lambda r, c, p, n: _setting(r, c, n)[2]),
               ({"scope", "level", "source"}, lambda r, c, p, n: r.choice(["global", "project", "user"])),
               (TEXTS, lambda r, c, p, n: f"{_setting(r, c, n)[0]}: defaults to {_setting(r, c, n)[2]}.")],
    "project": [(NAMES, lambda r, c, p, n: _project(c, n)[0]),
                ({"key", "identifier", "code", "prefix"}, lambda r, c, p, n: _project(c, n)[1]),
                (TEXTS, lambda r, c, p, n: _project(c, n)[2]),
                ({"status", "state"}, lambda r, c, p, n: PROJECT_STATUSES[n % len(PROJECT_STATUSES)])],
    "component": [(NAMES, lambda r, c, p, n: _component(r, c, n)),
                  ({"import", "import_path", "path", "module"}, lambda r, c, p, n: f"@/components/ui/{slugify(_component(r, c, n))}"),
                  ({"example", "usage", "code", "snippet"}, lambda r, c, p, n: f"<{_component(r, c, n).replace(' ', '')} />"),
                  (TEXTS, lambda r, c, p, n: f"An accessible {_component(r, c, n).lower()} built on the design system's tokens.")],
    # the model a prompt runs on is a model (`model_name` had been the prompt's own name)
    "prompt": [({"model", "model_name", "llm"}, lambda r, c, p, n: c.shared(n, "model", lambda: r.choice(MODELS))[1]),
               (NAMES, lambda r, c, p, n: c.shared(n, "prompt", lambda: _nth(PROMPTS, n, "-"))[0]),
               ({"template", "prompt", "text", "content", "body"}, lambda r, c, p, n: c.shared(n, "prompt", lambda: _nth(PROMPTS, n, "-"))[1]),
               ({"description", "summary"}, lambda r, c, p, n: f"Prompt: {c.shared(n, 'prompt', lambda: _nth(PROMPTS, n, '-'))[0].replace('-', ' ')}.")],
})

def _binary_symbol(r: random.Random, c: ValueContext, n: int) -> tuple[str, int, str]:
    """Record `n`'s symbol: (name, address, segment), the same for all its fields."""
    def make() -> tuple[str, int, str]:
        addr = 0x401000 + r.randrange(0x200) * 0x40
        segment, name = r.choice([(".text", f"sub_{addr:X}"), (".text", r.choice(["main", "parse_config", "decrypt_buffer", "check_license", "send_beacon"])),
                                  (".data", f"g_{r.choice(['config', 'key_table', 'session', 'retry_count'])}"),
                                  (".rdata", f"aHttp{addr:X}"[:12]), (".idata", r.choice(["CreateFileW", "VirtualAlloc", "InternetOpenA", "RegSetValueExW"]))])
        return name, addr, segment
    return c.shared(n, "symbol", make)


CATEGORY_NAMES = ["Technology", "Business", "Markets", "Science", "Health", "Education", "Entertainment", "Sports", "Travel",
                  "Politics", "Design", "Security"]
TAG_NAMES = ["urgent", "internal", "customer", "follow-up", "billing", "onboarding", "security", "roadmap", "bug", "feature"]
# the categories of a service's own kind of thing: a diagram editor's shape libraries, a shop's departments, a
# cookbook's courses (draw.io's shape categories had been news sections: Technology, Markets, Politics)
CATEGORY_SCOPES: list[tuple[frozenset[str], list[str]]] = [
    (frozenset({"drawio", "diagram", "diagrams", "diagramming", "shape", "shapes", "mermaid", "excalidraw", "visio", "lucidchart", "plantuml"}),
     ["General", "Flowchart", "UML", "Entity Relation", "BPMN", "Network", "AWS", "Azure", "Kubernetes", "Mockups", "Arrows", "Basic"]),
    (frozenset({"recipe", "recipes", "meal", "meals", "cooking", "cuisine"}),
     ["Breakfast", "Dessert", "Vegetarian", "Seafood", "Pasta", "Chicken", "Beef", "Side", "Starter", "Vegan", "Lamb", "Miscellaneous"]),
    (frozenset({"shop", "shopify", "woocommerce", "ecommerce", "marketplace", "merchant"}),
     ["Electronics", "Home & Kitchen", "Clothing", "Books", "Sports & Outdoors", "Toys", "Beauty", "Garden", "Office", "Grocery",
      "Pet Supplies", "Automotive"]),
]


def _category_names(c: ValueContext) -> list[str]:
    return next((names for keys, names in CATEGORY_SCOPES if c.scope & keys), CATEGORY_NAMES)


# a category or a tag is its name, one of the usual ones, never "Category 3"
FAMILY_STR["tag"] = [(NAMES | {"tag", "label", "category", "hashtag"},
                      lambda r, c, p, n: _nth(_category_names(c) if "category" in words(c.entity) else TAG_NAMES, n, "-"))]

FAMILY_STR["binary"] = [
    ({"address", "ea", "start", "offset", "addr"}, lambda r, c, p, n: f"0x{_binary_symbol(r, c, n)[1]:08X}"),
    ({"segment", "section", "seg"}, lambda r, c, p, n: _binary_symbol(r, c, n)[2]),
    ({"kind", "type"}, lambda r, c, p, n: {".text": "function", ".data": "data", ".rdata": "string", ".idata": "import"}[_binary_symbol(r, c, n)[2]]),
    (NAMES | {"symbol"}, lambda r, c, p, n: _binary_symbol(r, c, n)[0]),
]

def _product(r: random.Random, c: ValueContext, n: int) -> tuple[str, int]:
    """Record `n`'s product of the world's catalog: (name, list price), the same for all its fields."""
    return c.shared(n, "product", lambda: c.world.products[n % len(c.world.products)] if c.world.products else ("Starter Plan", 49))


def _network(c: ValueContext, n: int) -> tuple[str, str, str, str]:
    """Record `n`'s network of the service's chain (EVM networks for any other): one for all its fields."""
    nets = NETWORKS.get(c.chain) or NETWORKS["evm"]
    return c.shared(n, "network", lambda: nets[n % len(nets)])


FAMILY_STR["network"] = [
    ({"rpc", "rpc_url", "endpoint", "url"}, lambda r, c, p, n: _network(c, n)[3]),
    ({"currency", "native_currency", "symbol", "native", "token"}, lambda r, c, p, n: _network(c, n)[2]),
    ({"chain_id", "chainid"}, lambda r, c, p, n: _network(c, n)[1]),
    ({"name", "title", "network", "chain", "label"}, lambda r, c, p, n: _network(c, n)[0]),
]

FAMILY_STR["product"] = [
    ({"sku", "code", "product_code", "item_code"}, lambda r, c, p, n: f"SKU-{slugify(_product(r, c, n)[0]).upper()[:18]}"),
    ({"brand", "vendor", "manufacturer", "seller", "supplier"}, lambda r, c, p, n: _co(r, c, n)),
    ({"category", "type", "kind"}, lambda r, c, p, n: "plan" if "Plan" in _product(r, c, n)[0] else "service" if _product(r, c, n)[1] >= 700 else "add-on"),
    ({"currency"}, lambda r, c, p, n: "USD"),
    (NAMES | {"product", "product_name", "item"}, lambda r, c, p, n: _product(r, c, n)[0]),
    (TEXTS, lambda r, c, p, n: f"{_product(r, c, n)[0]}, listed at ${_product(r, c, n)[1]:,}; billed per order, taxes extra."),
]

EMOJIS = [("😀", "grinning face", "smileys-emotion", "face-smiling"), ("😂", "face with tears of joy", "smileys-emotion", "face-smiling"),
          ("👍", "thumbs up", "people-body", "hand-fingers-closed"), ("🎉", "party popper", "activities", "event"),
          ("🚀", "rocket", "travel-places", "transport-air"), ("☕", "hot beverage", "food-drink", "drink"),
          ("🐶", "dog face", "animals-nature", "animal-mammal"), ("🌧️", "cloud with rain", "travel-places", "sky-weather")]


def _emoji(r: random.Random, c: ValueContext, n: int) -> tuple[str, str, str, str]:
    return c.shared(n, "emoji", lambda: EMOJIS[n % len(EMOJIS)])


FAMILY_STR["emoji"] = [
    ({"html", "htmlcode"}, lambda r, c, p, n: "".join(f"&#{ord(ch)};" for ch in _emoji(r, c, n)[0])),
    ({"unicode", "codepoint", "code", "codes"}, lambda r, c, p, n: " ".join(f"U+{ord(ch):04X}" for ch in _emoji(r, c, n)[0])),
    ({"emoji", "char", "character", "symbol"}, lambda r, c, p, n: _emoji(r, c, n)[0]),
    ({"category"}, lambda r, c, p, n: _emoji(r, c, n)[2]),
    ({"group", "subgroup"}, lambda r, c, p, n: _emoji(r, c, n)[3]),
    (NAMES | TEXTS, lambda r, c, p, n: _emoji(r, c, n)[1]),
]

NFT_WORDS = frozenset({"nft", "nfts", "erc721", "erc1155", "collectible", "collectibles"})
NFT_COLLECTIONS = ["Cedar Punks", "Harbor Apes", "Pixel Lanterns", "Glacier Glyphs", "Orchid Keys", "Summit Badges"]


def _nft(r: random.Random, c: ValueContext, n: int) -> tuple[str, int]:
    """Record `n`'s token: (collection, token id), the same for its name, id and URI."""
    return c.shared(n, "nft", lambda: (NFT_COLLECTIONS[n % len(NFT_COLLECTIONS)], r.randint(1, 9_999)))


FAMILY_STR["workflow"] = [
    ({"dag_id", "flow_id", "flow_name", "workflow_id", "workflow_name", "pipeline_name", "dag_name", "dag_display_name"},
     lambda r, c, p, n: _nth(WORKFLOWS, n, "_")[0]),
    ({"run_id", "dag_run_id", "flow_run_id", "execution_id"},
     lambda r, c, p, n: f"scheduled__{(c.now - timedelta(days=n + 1)).date().isoformat()}T02:00:00+00:00"),
    ({"state", "status"}, lambda r, c, p, n: RUN_STATES[n % len(RUN_STATES)]),  # before names: a `state_name` is a state
    ({"trigger", "triggered"}, lambda r, c, p, n: "scheduled" if n % 4 else "manual"),
    (NAMES, lambda r, c, p, n: _nth(WORKFLOWS, n, "_")[0]),
    (TEXTS, lambda r, c, p, n: _nth(WORKFLOWS, n)[1]),
    ({"schedule", "schedule_interval", "cron", "timetable"}, lambda r, c, p, n: _nth(WORKFLOWS, n)[2]),
]
FAMILY_STR["transcript"] = [
    ({"language", "lang", "language_code"}, lambda r, c, p, n: r.choice(["en", "en", "en", "de", "fr"])),
    (NAMES, lambda r, c, p, n: _nth(TRANSCRIPTS, n)[0]),
    (TEXTS | {"transcript"}, lambda r, c, p, n: _nth(TRANSCRIPTS, n)[1]),
]
FAMILY_STR["earnings_transcript"] = [
    ({"language", "lang", "language_code"}, lambda r, c, p, n: "en"),
    (NAMES, lambda r, c, p, n: f"{_co(r, c, n)} earnings call"),
    (TEXTS | {"transcript"}, lambda r, c, p, n: f"Operator: Good afternoon, and welcome to the {_co(r, c, n)} earnings call. Chief Financial "
                               f"Officer: Thank you. Revenue grew {r.randint(2, 19)} percent on the year, and margins held "
                               f"at {r.randint(18, 41)} percent. We will now take your questions."),
]
FAMILY_STR["nft"] = [
    ({"uri", "url", "metadata", "token_uri", "tokenuri"}, lambda r, c, p, n: f"ipfs://bafybeig{short_hash(_nft(r, c, n)[0], 20)}/{_nft(r, c, n)[1]}.json"),
    ({"collection", "collection_name"}, lambda r, c, p, n: _nft(r, c, n)[0]),
    ({"token_id", "tokenid", "token"}, lambda r, c, p, n: str(_nft(r, c, n)[1])),
    (NAMES, lambda r, c, p, n: f"{_nft(r, c, n)[0]} #{_nft(r, c, n)[1]}"),
    (TEXTS, lambda r, c, p, n: f"One of the {_nft(r, c, n)[0]} collection; the traits are listed in its metadata."),
]

FAMILY_NUM: dict[str, list[tuple[set[str], tuple[float, float]]]] = {
    "health": [({"uptime", "uptime_seconds"}, (3_600, 7_776_000))],
    "binary": [({"size", "length", "bytes"}, (4, 2048))],
    "process": [({"pid"}, (300, 65_000)), ({"cpu", "percent"}, (0, 90)), ({"memory", "mb"}, (8, 4_096))],
    "shortcut": [({"action", "actions", "action_count"}, (1, 24))],
    # a model's or a prompt's sampling temperature lies in [0, 1] (a prompt had one of 26.7, a weather reading's)
    "model": [({"context", "context_window", "context_length", "tokens"}, (8_192, 200_000)), ({"temperature", "top_p"}, (0, 1))],
    "chat_channel": [({"member", "members", "member_count", "num_members"}, (3, 240))],
    "ledger": [({"unit", "price"}, (40, 2_500)), ({"total", "amount", "subtotal", "sub_total", "debit", "credit"}, (120, 25_000)),
               ({"quantity", "qty"}, (1, 20))],
    "game_character": [({"win", "winrate"}, (44, 56)), ({"pick", "pickrate"}, (1, 25)), ({"ban", "banrate"}, (0, 40)),
                       ({"games", "matches", "played"}, (500, 90_000)), ({"kda"}, (1.5, 4.2))],
    "gateway": [({"port"}, (8000, 8099)), ({"retries"}, (0, 10)), ({"timeout"}, (1_000, 60_000)),
                ({"slots"}, (100, 10_000)), ({"weight"}, (0, 100))],
    "prompt": [({"temperature", "top_p"}, (0, 1)), ({"max_tokens", "tokens"}, (256, 4_096))],
    "course": [({"credits"}, (1, 6)), ({"enrolled", "students"}, (8, 240))],
    "assignment": [({"points", "points_possible", "max_score", "max_points"}, (10, 100))],
    "game": [({"home_score", "away_score", "score", "runs", "goals"}, (0, 9))],
    "athlete": [({"number", "jersey", "jersey_number", "driver_number"}, (1, 99)), ({"age"}, (19, 38))],
    "stat": [({"season", "year"}, (2021, 2025))],
    "standing": [({"position", "rank"}, (1, 20)), ({"played", "games"}, (20, 38)), ({"wins", "losses"}, (0, 20)), ({"points"}, (10, 90))],
    "image": [({"width", "height"}, (320, 4096)), ({"size", "bytes", "size_bytes"}, (5_000, 3_000_000))],
    "file": [({"size", "bytes"}, (2_000, 5_000_000))],
    "repo": [({"stars", "stargazers"}, (0, 4_000)), ({"additions", "deletions"}, (1, 120))],
    "finance": [({"paid", "expenditure", "profit", "equity"}, (5e6, 4e9)), ({"dividend", "adj_dividend"}, (0.05, 3.5)),
                ({"yield", "yield_percent", "dividend_yield"}, (0.3, 6.5)),
                ({"securities", "securities_transacted", "shares_traded"}, (100, 250_000)),
                ({"change", "changes", "change_percent", "changes_percentage"}, (-6, 6)),  # a day's move, not 80%
                ({"analysts"}, (3, 45)), ({"cap", "capitalization"}, (2e9, 3.5e12)),
                ({"revenue", "income", "assets", "liabilities", "ebitda", "cash"}, (5e6, 9e9)), ({"eps"}, (-2, 12)),
                ({"open", "close", "high", "low", "price"}, (5, 900)), ({"volume"}, (10_000, 9_000_000)),
                ({"supply", "total_supply", "circulating_supply", "max_supply"}, (1e6, 1e10)), ({"decimals"}, (6, 18))],
    "order": [({"amount", "total", "subtotal", "price"}, (20, 20_000)), ({"quantity", "qty"}, (1, 60))],
    "product": [({"stock", "inventory", "quantity", "qty", "available"}, (0, 400)), ({"rating", "stars"}, (3.2, 4.9)), ({"reviews"}, (0, 900))],
    "weather": [({"humidity"}, (25, 98)), ({"wind", "wind_kph", "wind_speed"}, (0, 55)), ({"precipitation", "precip_mm"}, (0, 30))],
    "place": [({"distance", "km", "distance_km"}, (0.4, 900)), ({"duration", "minutes", "duration_min"}, (3, 600))],
    "deploy": [({"replicas", "instances"}, (1, 12)), ({"cpu", "memory"}, (1, 64))],
    "table": [({"rows", "row_count", "count"}, (0, 250_000))],
    "gas_price": [({"gwei"}, (6, 45))],
    "gas_estimate": [({"gwei"}, (6, 45)), ({"gas"}, (21_000, 250_000))],
    "search_index": [({"docs", "docs_count", "num_docs", "documents"}, (200, 2_000_000)), ({"size", "bytes", "size_bytes"}, (50_000, 9e9))],
    "media": [({"duration", "seconds", "length"}, (60, 5_400))],
    "transcript": [({"duration", "seconds", "length"}, (60, 5_400))],
    "earnings_transcript": [({"duration", "seconds", "length"}, (1_800, 4_200))],
}
