"""Inference: what each tool of an MCP server does to a state, from its name, description and schema.

General heuristics only (no knowledge of particular servers): a verb lexicon gives the operation
(create / get / list-search / update / delete / transition / computation / action / generation),
the noun phrase after the verb gives the entity collection, parameter names and shapes give keys,
references to other entities, filters, pagination and the record's fields, and semantic types.
Entities that some tool creates are *owned* (not-found is an error); the others are a seeded
outside world (a weather table, a paper index...) where a lookup of an unseen key is derived
deterministically from the key.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Literal

from compoworld.services.json_schema import fits, json_types, main_type
from compoworld.synthesis import compute
from compoworld.synthesis.browser import browser_entity, browser_kind, is_browser
from compoworld.synthesis.home import COMMANDS as HOME_COMMANDS, HOME_ENTITY_SEM, home_command, home_entity, is_home
from compoworld.synthesis.git import COMMANDS as GIT_COMMANDS, GIT_REPO_SEM, git_command, git_entities, is_git, repo_param
from compoworld.synthesis.tensor import COMMANDS as TENSOR_COMMANDS, TENSOR_NAME_SEM, is_tensor_store, name_params as tensor_name_params, \
    tensor_command, tensor_entity
from compoworld.synthesis.kv import COMMANDS as KV_COMMANDS, KV_KEY_SEM, is_kv_store, key_param, kv_command, kv_entity
from compoworld.synthesis.sql import SQL_TABLES, catalog_kind, sql_entity, sql_kind, statement_param
from compoworld.synthesis.loader import ServerSpec, ToolIn
from compoworld.synthesis.filesystem import lists_a_directory
from compoworld.synthesis.naming import is_plural, plural, says_it_keeps, sha1_tag, shorten, singular, snake, unique, words
from compoworld.synthesis.plan import ITEM_ENVELOPES, WRITE_OPS, EntityPlan, FieldPlan, Op, ParamPlan, ServicePlan, ToolPlan
from compoworld.synthesis.schema import loosen, merge_shapes, spec_examples
from compoworld.synthesis.shapes import ACTION_FIELDS, SIMULATION_FIELDS
from compoworld.synthesis.world import (BASEBALL_WORDS, DEFAULT_TOPIC, MATCH_NOUNS, MATCH_SIDES, METEO_NOUNS, METEO_SERVICES, GAME_WORDS, HISCORE_NOUNS, HISCORE_TOPIC, CHANNEL_TOPIC, CLUSTER_SERVICES, CLUSTER_TOPICS, CHARACTER_NOUNS, CHARACTER_TOPIC, GAME_SERVICES, LEDGER_SERVICES, LEDGER_TOPICS, EXCHANGE_SERVICES, INDEX_TOPICS, GAS_TOPICS, EXCHANGE_TOPICS, RESEARCH_SERVICES, RESEARCH_TOPICS, SOLANA_TOPICS, VENUE_TOPICS, STOCK_WORDS, CHEMBL_TOPICS, catalog_of, ROSTER_NOUNS, game_of, CHAT_SERVICES, COUNTRY_TOPIC, GATEWAY_SERVICES, GATEWAY_TOPICS, STAT_NOUNS, STAT_TOPIC, TOKEN_TOPIC, ATHLETE_NOUNS, ATHLETE_TOPIC, FINANCE_TOPICS, GAME_NOUNS, GAME_TOPIC, HISTORY_WORDS, SPORTS_WORDS, WEB_RESULT, NETWORK_NOUNS, NETWORK_TOPIC, NETWORKS, NFT_WORDS, OFF_CHAIN_TOPICS, ONCHAIN_TOPIC, SYMBOL_NOUNS, SYMBOL_TOPIC, TOPIC_FIELDS, TOPIC_NOUNS, TOPICS, chain_of,
                                        named_topic, reversing, searches_the_web, topic_for)
from compoworld.synthesis.world_model import CODE_PARAMS, RUN_WORDS

ACTION_LOG, SIMULATIONS = "action_log", "simulations"

# -- lexicon ----------------------------------------------------------------------------------

VERB_CLASS: dict[str, str] = {}
for _cls, _verbs in {
    "get": "get read fetch retrieve show view describe load open inspect download obtain display access resolve print "
           "lookup look see extract scrape crawl peek current info detail details whois dump export",
    "list": "list search find query browse filter discover explore scan enumerate research match lookup_many recent top trending all",
    "create": "create add new insert register make post upload save write put log record store book reserve init initialize "
              "import clone copy duplicate fork compose attach append comment reply remember memorize capture enroll place "
              "track note define declare upsert provision spawn enqueue queue bookmark request ensure",
    "update": "update edit modify set change rename patch configure replace move adjust tag label increment decrement rate scale "
              "customize fill reorder resize switch select use apply assign_to",
    "delete": "delete remove drop destroy purge erase wipe uninstall unregister clear discard revoke detach forget",
    "transition": "send archive unarchive trash untrash approve reject assign unassign close reopen resolve complete finish cancel publish "
                  "unpublish enable disable activate deactivate pause resume lock unlock merge deploy pin unpin star unstar "
                  "block unblock mute unmute accept decline confirm submit mark restore ban unban suspend flag unflag hide "
                  "unhide follow unfollow like unlike escalate verify sign void refund pay ship fulfill start stop dismiss "
                  "acknowledge snooze subscribe unsubscribe invite share unshare join leave checkin checkout release promote "
                  "finalize retire expire renew schedule reschedule end terminate abort transfer demote unpause",
    "compute": "calculate compute convert sum multiply divide subtract average hash encode decode validate parse format "
               "evaluate solve estimate roll shuffle sort count compare diff measure tokenize encrypt decrypt minify "
               "beautify prettify lint echo ping random",
    "action": "run execute exec call invoke trigger navigate go click type press scroll hover drag screenshot wait install build "
              "test sync refresh reset connect disconnect login logout authenticate play restart reload commit push pull "
              "kill launch focus enter exit notify broadcast speak say open_app tap swipe zoom upload_file record_audio "
              "stream watch monitor ingest index crawl_site train fetch_many batch process handle revert rollback undo redo "
              "rebase reboot shutdown regenerate migrate backup quit cleanup initiate reconnect toggle "
              # trades, stakes and upkeep change what an account or a system holds: never reads
              "buy sell purchase delegate undelegate claim withdraw deposit expose begin upgrade forward act manage",
    "generate": "generate visualize visualise plot chart render illustrate summarize summarise translate rewrite paraphrase explain answer ask chat brainstorm critique "
                "improve refine caption transcribe ocr imagine suggest recommend predict tell draw paint design "
                # "Gera um mapa mental ..." (Portuguese), "Genera ..." (Spanish, Italian)
                "gera genera gerar generar",
    "analyze": "analyze analyse review assess classify categorize detect interpret score check evaluate_text judge",
}.items():
    for _v in _verbs.split():
        VERB_CLASS.setdefault(_v, _cls)

TRANSITION_STATE = {
    "send": "sent", "archive": "archived", "unarchive": "active", "trash": "trashed", "untrash": "active", "approve": "approved", "reject": "rejected",
    "assign": "assigned", "unassign": "unassigned", "close": "closed", "reopen": "open", "resolve": "resolved",
    "complete": "completed", "finish": "completed", "cancel": "cancelled", "publish": "published", "unpublish": "draft",
    "enable": "enabled", "disable": "disabled", "activate": "active", "deactivate": "inactive", "pause": "paused",
    "resume": "active", "lock": "locked", "unlock": "unlocked", "merge": "merged", "deploy": "deployed", "pin": "pinned",
    "unpin": "unpinned", "star": "starred", "unstar": "unstarred", "block": "blocked", "unblock": "active", "mute": "muted",
    "unmute": "active", "accept": "accepted", "decline": "declined", "confirm": "confirmed", "submit": "submitted",
    "restore": "active", "ban": "banned", "unban": "active", "suspend": "suspended", "flag": "flagged", "unflag": "active",
    "hide": "hidden", "unhide": "active", "follow": "followed", "unfollow": "unfollowed", "like": "liked", "unlike": "active",
    "escalate": "escalated", "verify": "verified", "sign": "signed", "void": "void", "refund": "refunded", "pay": "paid",
    "ship": "shipped", "fulfill": "fulfilled", "start": "running", "stop": "stopped", "dismiss": "dismissed",
    "acknowledge": "acknowledged", "snooze": "snoozed", "subscribe": "subscribed", "unsubscribe": "unsubscribed",
    "invite": "invited", "share": "shared", "unshare": "private", "join": "joined", "leave": "left", "checkin": "checked_in",
    "checkout": "checked_out", "release": "released", "promote": "promoted", "finalize": "finalized",
    "retire": "retired", "expire": "expired", "renew": "active", "reset": "reset", "retry": "retrying",
    "schedule": "scheduled", "reschedule": "scheduled", "end": "ended", "terminate": "terminated", "abort": "aborted",
    "transfer": "transferred", "demote": "demoted", "unpause": "active",
}
_MARK_STATES = {"read": "read", "unread": "unread", "done": "completed", "complete": "completed", "completed": "completed",
                "spam": "spam", "important": "important", "resolved": "resolved", "closed": "closed", "answered": "answered",
                "favorite": "favorite", "seen": "read", "inactive": "inactive", "active": "active"}
# a send with no record to send makes one: `send_email(to, body)` writes the email, `transfer_eth(to, amount)` the transfer
_CREATE_WHEN_NO_TARGET = {"send", "post", "publish", "submit", "share", "invite", "schedule", "pay", "book", "sign", "transfer"}

STOP = set("a an the all my our your their new current available specific single multiple many batch bulk one each every some any "
           "existing detailed full basic advanced simple quick raw given selected custom default latest".split())
PREPS = set("by for from of in on to with at into using via per about within between over under as and or".split())
ATTRS = set("info information details detail data text content contents status metadata meta stats statistics count list "
            "summary overview history url urls id ids json html markdown md raw value values result results properties "
            "attributes config configuration settings schema structure outline preview tree".split())
GENERIC_SERVER_WORDS = set("mcp server servers api apis tool tools the for and ai model context protocol integration service "
                           "services client official unofficial simple a an of lite plus pro".split())

LIMIT = {"limit", "items_per_page", "lines", "max_lines", "file_limit", "max_files", "tail", "num_lines", "max_results", "maxresults", "num_results", "numresults", "top", "top_k", "topk", "size", "page_size", "pagesize",
         "per_page", "perpage", "max", "max_items", "first", "results", "max_count", "number_of_results", "num", "rows", "count",
         "n", "k", "max_records", "result_limit", "results_per_page", "limit_per_page", "maxitems", "max_hits", "take", "last", "n_results"}
OFFSET = {"offset", "skip", "start", "start_index", "startindex", "from_index"}
PAGE = {"page", "page_number", "pagenumber", "page_num", "pageno", "page_index", "page_no"}
CURSOR = {"cursor", "page_token", "pagetoken", "next_token", "continuation_token", "after", "starting_after", "next_cursor",
          "start_cursor", "next_page_token", "continuation"}
SORT = {"sort", "sorts", "sort_by", "sortby", "order_by", "orderby", "sort_field", "sort_key"}
ORDER = {"order", "sort_order", "sortorder", "direction", "sort_direction", "sort_dir", "asc", "desc", "ascending", "descending"}
QUERY = {"query", "q", "search", "search_query", "keyword", "keywords", "term", "search_term", "searchterm", "text_query",
         "search_text", "searchquery", "query_string", "search_string", "phrase", "question", "prompt_query", "filter_text"}
LIST_QUERY = {"pattern", "glob", "name_pattern", "file_pattern", "regex", "match", "filter", "contains", "text", "search_pattern"}
OPTION = {"format", "output_format", "response_format", "fields", "verbose", "detailed", "raw", "pretty", "locale", "units",
          "unit_system", "timeout", "timeout_ms", "timeoutms", "wait", "markdown", "debug", "dry_run", "dryrun", "expand", "depth",
          "max_characters", "maxcharacters", "max_length", "tokens", "max_tokens", "api_key", "apikey", "access_token",
          "headers", "encoding", "projection", "select", "random_string", "language_code", "lang", "return_format", "mode",
          "full", "full_page", "include", "exclude", "version_hint", "wait_until", "waituntil", "cache", "use_cache",
          "session_id", "sessionid", "context", "explain", "summary_only", "compact", "style", "theme", "stream",
          # credentials authorize a call; no record keeps them (a transfer stored its sender's private key)
          "private_key", "privatekey", "secret", "secret_key", "api_secret", "client_secret", "password", "passphrase",
          "mnemonic", "seed_phrase",
          # how HubSpot answers or traces a call: which property keys the record, which histories to add
          "id_property", "properties_with_history", "object_write_trace_id"}
# How a listing runs its search, not what its records hold: a search engine's safe-search level, time
# window or market, a match mode, an answer's extras. A listing's records never carry them and they
# never filter (DuckDuckGo's videos carried `safesearch` and `timelimit`, HubSpot's companies the
# `properties` a search asked for).
SEARCH_OPTIONS = {"safesearch", "safe_search", "safe", "timelimit", "time_limit", "time_range", "timerange", "freshness", "in_last",
                  "alignment_period", "market", "search_type", "search_service", "search_depth", "exact_match", "exact",
                  "case_sensitive", "casesensitive", "ignore_case", "fuzzy", "additional_args", "additional_attributes",
                  "attribute_preset", "translation_fields", "word_fields", "aux", "mailto", "datatype", "properties", "associations",
                  "api_token", "auth_token", "bearer_token"}
# A listing's flag that says how to search or answer (`summarize`, `recursive`, `headless`,
# `case_sensitive`), not which records: a flag naming anything else may be a record's own
# (`client_callable`, `archived`) and filters.
OPTION_FLAG_WORDS = {"summarize", "summarise", "full", "headless", "clear", "recursive", "recurse", "exact", "case", "sensitive", "all",
                     "validate", "json", "short", "details", "detailed", "verbose", "debug", "raw", "strict", "fuzzy", "refresh",
                     "force", "async", "wait", "dry", "preview", "expand", "resolve", "follow", "normalize", "translate", "audio",
                     "words", "download", "cache", "cached", "pretty", "compact", "minimal", "reverse", "extended", "highlight",
                     "highlights", "snippets", "images", "links", "metadata", "stats", "subdomains", "deep"}


def _search_option(p: PInfo) -> bool:
    """Whether a listing's argument says how to search rather than which records (see SEARCH_OPTIONS)."""
    if p.snake in SEARCH_OPTIONS:
        return True
    return p.type == "boolean" and not _is_flag_name(p.words) and bool(set(p.words) & OPTION_FLAG_WORDS)


OPTION_PREFIX = ("include_", "exclude_", "ignore_", "skip_", "with_", "show_", "return_", "output_", "use_", "enable_", "disable_", "should_", "is_verbose")
ID_SUFFIX = {"id", "ids", "identifier", "key", "keys", "uuid", "uuids", "number", "num", "no", "index", "idx", "slug", "code", "handle", "gid", "sid"}
NAME_SUFFIX = {"name", "names", "path", "paths", "url", "urls", "title", "email"}
NATURAL_KEYS = ["path", "file_path", "filepath", "filename", "file_name", "file", "url", "uri", "link", "symbol", "ticker", "email",
                "username", "user_name", "login", "slug", "handle", "name", "title", "key", "repo", "repository", "package",
                "package_name", "library", "library_name", "domain", "hostname", "host", "ip", "ip_address", "isbn", "doi",
                "address", "location", "city", "coin", "coin_id", "word", "term", "topic", "code", "date", "channel", "table",
                "table_name", "collection", "database", "namespace", "bucket", "index", "region", "zone", "country"]
CONTENT_PARAMS = {"text", "content", "prompt", "message", "input", "code", "source", "html", "markdown", "body", "image",
                  "image_url", "imageurl", "audio", "audio_url", "transcript", "question", "description", "instructions",
                  "instruction", "context", "document", "data", "article", "essay", "story", "topic", "idea", "brief", "messages",
                  "conversation", "query", "image_path", "file_content", "source_text", "input_text", "video_url"}
COMPUTABLE_NOUNS = {"uuid", "id", "password", "random", "number", "hash", "qr", "qrcode", "barcode", "slug", "key", "token",
                    "nonce", "otp", "color", "palette", "lorem", "timestamp", "date", "sitemap", "checksum", "keypair", "wallet"}
ASSET_NOUNS = {"eth", "sol", "strk", "btc", "sui", "token", "tokens", "erc20", "erc721", "erc1155", "nft", "nfts", "coin", "coins",
               "usdc", "usdt", "fund", "funds", "money", "asset", "assets"}
GEN_NOUNS = {"image", "images", "picture", "photo", "story", "poem", "text", "content", "code", "summary", "response", "answer",
             "caption", "description", "essay", "article", "idea", "ideas", "name", "names", "title", "headline", "tweet", "post",
             "email", "reply", "video", "audio", "speech", "music", "song", "logo", "icon", "diagram", "illustration", "copy",
             "completion", "explanation", "translation", "plan", "outline", "script", "lyrics", "joke", "quote", "recipe"}

SEM_BY_NAME: list[tuple[set[str], str]] = [
    ({"email", "emails", "mail", "recipient", "recipients", "cc", "bcc", "sender_email", "to_email", "from_email"}, "email"),
    ({"phone", "mobile", "tel", "telephone", "phone_number", "phonenumber"}, "phone"),
    ({"url", "urls", "link", "links", "href", "uri", "website", "homepage", "endpoint", "webhook"}, "url"),
    ({"path", "paths", "file", "filename", "filepath", "file_path", "directory", "dir", "folder", "files", "file_name", "destination", "source_path", "target_path"}, "file_path"),
    ({"currency", "currency_code", "from_currency", "to_currency", "base_currency", "quote_currency"}, "currency"),
    ({"price", "amount", "cost", "budget", "salary", "fee", "balance", "revenue", "total_amount", "unit_price", "total_price"}, "money"),
    ({"city", "town"}, "city"),
    ({"country", "country_code", "nation"}, "country"),
    ({"address", "street", "street_address"}, "address"),
    ({"location", "place", "region", "destination_city", "origin"}, "location"),
    ({"company", "company_name", "companyname", "organization", "organisation", "organization_name", "employer", "org_name"}, "company_name"),
    ({"author", "assignee", "person", "full_name", "fullname", "contact_name", "customer_name", "person_name", "owner_name", "attendee", "speaker", "artist", "first_name", "last_name"}, "person_name"),
    ({"title", "subject", "headline", "heading"}, "title"),
    ({"query", "q", "search", "keyword", "keywords", "search_query", "term", "search_term"}, "query"),
    ({"status", "state"}, "status"),
    ({"category", "categories", "type", "kind", "tag", "tags", "label", "labels", "genre", "topic", "topics"}, "category"),
    ({"quantity", "qty", "count", "number_of", "amount_of"}, "quantity"),
    ({"percent", "percentage", "pct"}, "percent"),
    ({"duration", "minutes", "hours", "seconds", "duration_minutes", "duration_seconds"}, "duration"),
    ({"code", "script", "sql", "source_code", "snippet", "expression", "command", "symbol", "ticker", "regex"}, "code"),
    ({"body", "content", "text", "message", "description", "note", "notes", "comment", "summary", "prompt", "details", "bio", "abstract", "instructions", "reason"}, "text"),
]


@dataclass
class PInfo:
    name: str
    snake: str
    words: list[str]
    schema: dict[str, Any]
    type: str | None
    required: bool
    structural: str | None = None  # limit/offset/page/cursor/sort/order/query/option
    sem: str | None = None
    place: bool = False  # names somewhere on a map (a street address, a city), not a memory or wallet address
    within: str | None = None  # the envelope argument that holds it (`params` of `create_item(params={name, type})`)


@dataclass
class TInfo:
    tool: ToolIn
    exposed: str
    tokens: list[str]
    verb: str | None
    vclass: str
    head: str | None
    mods: list[str]
    plural_noun: bool
    params: list[PInfo]
    op: str = "lookup"
    entity: str | None = None
    keys: list[tuple[PInfo, str]] = field(default_factory=list)  # (param, field)
    refs: list[tuple[PInfo, str, str]] = field(default_factory=list)  # (param, field, entity)
    target: str | None = None
    compute: str | None = None
    batch: bool = False
    items: PInfo | None = None  # a batch create's or delete's list of records (`_batch_items`)
    renames: dict[int, str] = field(default_factory=dict)  # id(param) -> the key field a move or rename sets
    guessed: bool = False  # the head came from the arguments (`_fallback_entity`), not from the tool's name
    browser: str | None = None  # what a page tool of a browser service does to its session (browser.py)
    sql: str | None = None  # what a tool of a service that runs SQL does with its database (sql.py)
    kv: str | None = None  # the command a tool of a key-value store runs on its keyspace (kv.py)
    home: str | None = None  # the command a tool of a home automation service runs on its home (home.py)
    git: str | None = None  # the command a tool of a git client runs on its repository (git.py)
    tensor: str | None = None  # the command a tool of a tensor store runs on its named tensors (tensor.py)
    counts: bool = False  # named for a count of its records (`count_documents`, `get_transaction_count`): `_counts`
    edits: dict[int, tuple[str, str]] = field(default_factory=dict)  # id(param) -> ("add" | "remove", list field): `_list_edits`


# -- words ------------------------------------------------------------------------------------

# Words that look like inflected verbs and are nouns (`news` is not "new", `status` not "statu").
_NOT_VERBS = {"news", "status", "series", "analysis", "canvas", "bus", "alias", "transfers"}


def verb_lemma(tok: str) -> str | None:
    if tok in _NOT_VERBS:
        return None
    if tok in VERB_CLASS:
        return tok
    cands = []
    if tok.endswith("ing") and len(tok) > 5:
        stem = tok[:-3]
        cands += [stem, stem + "e", stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else stem]
    if tok.endswith("ies") and len(tok) > 4:
        cands.append(tok[:-3] + "y")
    if tok.endswith("es") and len(tok) > 4:
        cands.append(tok[:-2])
    if tok.endswith("s") and len(tok) > 3:
        cands.append(tok[:-1])
    if tok.endswith("ed") and len(tok) > 4:
        cands += [tok[:-2], tok[:-1]]
    return next((c for c in cands if c in VERB_CLASS), None)


def _is_flag_name(ws: list[str]) -> bool:
    """`is_email_verified`, `has_avatar`: a field that says whether, whatever its declared type; it
    holds no email, and no task joins on it."""
    return bool(ws) and ws[0] in ("is", "has", "can")


def _param_sem(p: PInfo) -> str | None:
    fmt = p.schema.get("format") if isinstance(p.schema, dict) else None
    t = p.type
    if t == "boolean":
        return "flag"
    if fmt == "email":
        return "email"
    if fmt in ("uri", "url", "uri-reference", "iri"):
        return "url"
    if fmt == "date":
        return "date"
    if fmt == "date-time":
        return "datetime"
    s, ws = p.snake, set(p.words)
    if t in ("object",):
        return "json"
    if _is_flag_name(p.words) and t in ("string", None):
        return "flag"
    if s in ("date", "day", "due_date", "start_date", "end_date", "birth_date", "birthday", "deadline", "due") or (ws & {"date"} and t == "string" and "update" not in ws):
        return "date"
    if ws & {"datetime", "timestamp"} or s.endswith("_at") or s in ("start_time", "end_time", "time", "starttime", "endtime", "since", "until"):
        return "datetime" if t == "string" else None
    if s in ("start", "end", "from", "to", "begin") and t == "string":
        # `create_event(start="Start time in ISO format")`: a bound in time when its description says one
        said = str(p.schema.get("description") or "") if isinstance(p.schema, dict) else ""
        if re.search(r"yyyymmdd|unix", said, re.I):
            return None  # a format of its own: no ISO date fits it
        if re.search(r"\b(?:time|iso|iso-?8601|timestamp|rfc ?3339|datetime)\b", said, re.I):
            return "datetime"
        if re.search(r"\b(?:date|yyyy-mm-dd)\b", said, re.I):
            return "date"
    for names, sem in SEM_BY_NAME:
        if s in names or (ws & names and sem in ("email", "url", "phone", "currency", "city", "country")):
            if sem in ("money", "quantity", "percent", "duration") and t not in ("number", "integer"):
                continue
            if sem not in ("money", "quantity", "percent", "duration", "flag") and t not in ("string", "array", None):
                continue
            return sem
    if t in ("number", "integer") and ws & {"price", "amount", "cost", "budget", "salary", "fee", "balance"}:
        return "money"
    if ws & {"name"} and ws & {"company", "organization", "org", "business", "vendor"}:
        return "company_name"
    if ws & {"name"} and ws & {"person", "user", "author", "contact", "customer", "employee", "member", "owner", "first", "last", "full"}:
        return "person_name" if t == "string" else None
    return None


# a limit on lines or bytes of one text (`read_file(path, lines)`, `tail`), not on how many records come back
TEXT_LIMITS = frozenset({"lines", "max_lines", "num_lines", "tail", "size", "first", "last", "top", "n"})


# a model's sampling knobs: `top_k` next to `temperature` is how many tokens it samples from, not how many records come back
SAMPLING_PARAMS = frozenset({"temperature", "top_p", "topp"})
# the one record a read of them answers, whatever its `limit` caps: an order book's depth, a count, a
# station's details (`get_station_info(query, limit)`: "detailed information about a train station")
ONE_RECORD_HEADS = frozenset({"book", "orderbook", "count", "info", "information", "detail", "details", "profile"})
# a read given the record's own key reads that record (`read_note(identifier, page_size)` pages one note)
OWN_KEYS = frozenset({"id", "identifier", "key", "path", "file_path", "url", "uri"})


def _caps_results(t: TInfo) -> bool:
    """Whether some parameter caps how many records a read answers (`limit`, `max_results`) or pages them (`cursor`)."""
    if {singular(w) for w in t.tokens} & ONE_RECORD_HEADS or (t.head or "") in ONE_RECORD_HEADS \
            or any(p.required and p.snake in OWN_KEYS for p in t.params):
        return False
    snakes = {p.snake for p in t.params}
    return any((p.structural == "limit" and p.snake not in TEXT_LIMITS and not (p.snake in ("top_k", "topk") and snakes & SAMPLING_PARAMS))
               or p.structural == "cursor" for p in t.params)


def _structural(p: PInfo) -> str | None:
    s, t = p.snake, p.type
    if s in QUERY and t in ("string", None):
        return "query"
    if s in LIMIT and t in ("integer", "number"):
        return "limit"
    if s in OFFSET and t in ("integer", "number"):
        return "offset"
    if s in PAGE and t in ("integer", "number"):
        return "page"
    if s in CURSOR and t in ("string", None):
        return "cursor"
    if s in SORT:
        return "sort"
    if s in ORDER:
        return "order"
    if s in OPTION or s.startswith(OPTION_PREFIX) or s.endswith(("_format", "_timeout", "_ms")):
        return "option"
    return None


# -- per-tool analysis ------------------------------------------------------------------------

PROMPT_KEYS = frozenset({"prompt", "question", "instruction", "instructions", "user_prompt", "query_prompt"})
_DETERMINERS = frozenset({"a", "an", "the", "one", "all", "my", "our", "your", "this", "that", "each", "every", "single", "specific",
                          "current", "new", "by", "for", "of", "to", "in", "on", "with"})


def _strip_affixes(servers_words: set[str], tokens_by_tool: dict[str, list[str]]) -> dict[str, list[str]]:
    """Drop the server's own name and tokens most of its tools start with (`browser_click` -> `click`)."""
    n = len(tokens_by_tool)
    out = {k: list(v) for k, v in tokens_by_tool.items()}
    for _ in range(3):
        firsts: dict[str, int] = {}
        for toks in out.values():
            if len(toks) > 1:
                firsts[toks[0]] = firsts.get(toks[0], 0) + 1
        common = {w for w, c in firsts.items() if (n >= 3 and c >= max(2, 0.5 * n)) and verb_lemma(w) is None}
        common |= {w for w in servers_words if firsts.get(w, 0) >= 2 and verb_lemma(w) is None}
        changed = False
        for k, toks in out.items():
            if len(toks) > 1 and toks[0] in common:
                out[k] = toks[1:]
                changed = True
        if not changed:
            break
    lasts: dict[str, int] = {}
    for toks in out.values():
        if len(toks) > 1:
            lasts[toks[-1]] = lasts.get(toks[-1], 0) + 1
    suffixes = {w for w, c in lasts.items() if w in servers_words and c >= 2 or (n >= 3 and c >= max(2, 0.6 * n) and verb_lemma(w) is None and w in servers_words)}
    # a word other tools name alone after their verb is the server's records, no brand: a task
    # scheduler's `add_command_task` adds a task (`get_task`, `remove_task`), not a command
    alone = {singular(toks[-1]) for toks in out.values() if len(toks) == 2 and verb_lemma(toks[0]) is not None}
    suffixes = {w for w in suffixes if singular(w) not in alone}
    for k, toks in out.items():
        # `web_search_exa` loses its brand; `create_ticket` keeps its noun even on a server named "Ticket Desk";
        # `get_random_emoji_tool` is about emojis (every tool is a tool), `create_tool` about tools
        # (`read_one_goal` on a server named "Goal Story" keeps its goal: "one" is no noun to fall back on)
        while len(toks) > 1 and (toks[-1] in suffixes or toks[-1] == "tool") and \
                any(verb_lemma(w) is None and w not in _DETERMINERS for w in toks[:-1]):
            toks = toks[:-1]
        out[k] = toks
    return out


_NOUN_VERBS = {"list", "search", "query", "log", "record", "note", "comment", "post", "match", "track", "book", "place", "copy",
               "index", "review", "score", "type", "test", "sort", "count", "format", "hash", "check", "label", "tag", "rate", "flag",
               "pin", "star", "like", "block", "play", "chat", "call", "process", "handle", "stream", "watch", "monitor", "batch"}


# "Remove X from Y" takes something off a record; the record itself stays
_TAKES_FROM = re.compile(r"^\s*(?:remove|removes|delete|deletes)\s+[\w -]{1,40}?\s+from\s+", re.I)


def _find_verb(tokens: list[str], description: str, full: list[str] | None = None) -> tuple[str | None, int]:
    """The verb of a tool and its index in `tokens` (-1: the description's); `full` are the words of the
    whole name, before the server's own words were taken off (`app` of `app-store-details`)."""
    said = _description_verb(description)
    found = _name_verb(tokens)
    if found is None:
        if said is not None and VERB_CLASS.get(said) == "delete" and _TAKES_FROM.match(description):
            return None, -1  # "Remove password protection from a Word document": the document stays
        return said, -1
    lemma, i = found
    last = len(tokens) - 1
    if i < last and tokens[last] in _READ_ENDS and VERB_CLASS.get(lemma) in _WRITE_CLASSES \
            and said is not None and VERB_CLASS.get(said) in ("get", "list"):
        # `app-store-search`, `API-post-search`, `tag_list` ("Get a list of tags"): a name that ends in a read
        # verb reads when its description leads with a read; the write-like word is a noun or an HTTP method
        return verb_lemma(tokens[last]) or tokens[last], last
    inflected = tokens[i] not in VERB_CLASS  # "posts", "booking": a noun more often than the verb
    after_words = i > 0 or (full is not None and tokens[i] in full and full.index(tokens[i]) > 0)
    if (after_words or inflected) and (lemma in _NOUN_VERBS or lemma in _NOUN_WRITES or inflected) \
            and VERB_CLASS.get(lemma) in _WRITE_CLASSES and said is not None and VERB_CLASS.get(said) in ("get", "list"):
        # a write verb that is a noun after other words (`web_data_linkedin_posts`, `web_data_google_play_store`,
        # `time_series_daily_adjusted`, `playwright_console_logs`) names what a read reads when the description leads with the read
        return said, -1
    return lemma, i


def _name_verb(tokens: list[str]) -> tuple[str, int] | None:
    """The verb of a tool's name and where it is, if the name has one."""
    cands = [(i, verb_lemma(t), t in VERB_CLASS) for i, t in enumerate(tokens)]
    cands = [(i, lemma, exact) for i, lemma, exact in cands if lemma is not None]
    # `engagement_details_update`, `StatusController_sendTextStatus`: a read word that names a thing as
    # often as an act (details, info, status) gives way to a write verb later in the name
    writes = [c for c in cands if c[2] and c[1] not in _NOUN_VERBS and VERB_CLASS.get(c[1]) in _WRITE_CLASSES]
    if cands and tokens[cands[0][0]] in _NOUN_READS and writes:
        return writes[0][1], writes[0][0]
    # `ChatsController_getMessages`, `calls_list`: an inflected noun-like verb loses to a later exact verb
    exact_later = [c for c in cands if c[2] and c[1] not in _NOUN_VERBS]
    for i, lemma, exact in cands:
        if not exact and exact_later and exact_later[0][0] > i:
            return exact_later[0][1], exact_later[0][0]
        read_later = [c for c in cands if c[2] and c[0] > i and c[1] in ("list", "search", "get", "find", "query")]
        if not exact and read_later:  # `notes_list`: the plural noun is not the verb "note"
            return read_later[0][1], read_later[0][0]
        if lemma in _NOUN_VERBS and i > 0 and verb_lemma(tokens[0]) is not None:
            continue
        if lemma in _NOUN_VERBS and exact_later and exact_later[0][0] > i and not (i == 0 and lemma in ("list", "search", "query")):
            return exact_later[0][1], exact_later[0][0]
        return lemma, i
    return None


_WRITE_CLASSES = ("create", "update", "delete", "transition")
_NOUN_READS = frozenset({"details", "info", "status", "stats", "query"})
_READ_ENDS = frozenset({"list", "search", "query", "get", "find", "fetch", "lookup", "retrieve"})
# Write verbs that are also nouns ending a name: the posts, the store, the booking of `web_data_x_posts`
_NOUN_WRITES = frozenset({"store", "book", "post", "comment", "review", "record", "log", "note", "track", "place", "request"})


def _description_verb(description: str) -> str | None:
    """The verb a description leads with, within its first two words ("Quickly read ...")."""
    for w in words(description.split("\n", 1)[0])[:2]:
        lemma = verb_lemma(w)
        if lemma is not None:
            return lemma
    return None


RELATIONAL_PARTICIPLES = frozenset({"associated", "related", "linked", "attached", "assigned", "connected", "belonging", "bound", "mapped"})


# what a market's calendar lists: its dividends, earnings, IPOs and splits
CALENDAR_OF = frozenset({"dividend", "earning", "earnings", "ipo", "split"})


def _noun(tokens: list[str], vidx: int) -> tuple[str | None, list[str], bool]:
    """(head noun singular, modifiers, head was plural)."""
    after = tokens[vidx + 1:] if vidx >= 0 else tokens
    before = tokens[:vidx] if vidx > 0 else []
    phrase = [t for t in after if t not in STOP] or [t for t in before if t not in STOP]
    # WAHA's `SessionsController_list`: a NestJS controller's methods act on the controller's records
    phrase = [t for t in phrase if t not in ("controller", "controllers")] or phrase
    # `search_pubmed_key_words`: PubMed searched by key words, not a search for words
    kw = next((i for i, t in enumerate(phrase) if t in ("keyword", "keywords") or (t == "key" and phrase[i + 1:i + 2] in (["word"], ["words"]))), None)
    if kw and vidx >= 0 and tokens[vidx] in ("search", "find", "query", "lookup"):
        phrase = phrase[:kw] + ["by"] + phrase[kw:]
    main: list[str] = []
    tail: list[str] = []
    for i, t in enumerate(phrase):
        if t in PREPS:
            tail = [x for x in phrase[i + 1:] if x not in PREPS]
            break
        main.append(t)
    cand = [t for t in main if not t.isdigit() and verb_lemma(t) not in ("get", "list") or t in ("list",)]
    listed = bool(cand) and cand[-1] == "list"  # FMP's `getIndexList`: the indexes, not one index
    cand = [t for t in cand if t != "list"]
    # `retrieve_service_associated_to_a_specific_certificate`: the service, not an "associated"
    content = [t for t in cand if t not in ATTRS and t not in RELATIONAL_PARTICIPLES]
    if len(content) >= 2 and content[-1] in ("calendar", "calendars") and singular(content[-2]) in CALENDAR_OF:
        content = content[:-1]  # FMP's `getDividendsCalendar`: the dividends to come, not meetings
    if content:
        head_raw = content[-1]
        mods = content[:-1]
    elif [t for t in tail if t not in ATTRS and not t.isdigit()]:
        head_raw = [t for t in tail if t not in ATTRS and not t.isdigit()][-1]
        mods = []
    elif cand:
        head_raw, mods = cand[-1], cand[:-1]
    else:
        return None, [], False
    was_plural = is_plural(head_raw) or "all" in tokens or listed
    head = singular(head_raw)
    if not head[0].isalpha():
        head = "e" + head
    return head, mods, was_plural


_WEATHER_WORDS = frozenset({"weather", "meteorological", "meteorology", "forecast", "forecasts", "climate", "temperature", "precipitation"})


def _fallback_entity(t: TInfo) -> str | None:
    req = [p for p in t.params if p.required and p.structural is None] or [p for p in t.params if p.structural is None]
    for p in req:
        ws = set(p.words)
        if ws & {"url", "uri", "link", "website", "page"}:
            return "page"
        if ws & {"path", "file", "filename", "filepath"}:
            return "file"
        if ws & {"symbol", "ticker"}:
            return "quote"
        if ws & {"city", "location", "place", "address", "latitude", "lat"} and p.place:
            # NASA's `power(latitude, longitude, ...)`, "meteorological data": the weather at a place, not the place
            return "weather" if set(words(t.tool.description or "")) & _WEATHER_WORDS else "place"
        if ws & {"word", "term"}:
            return "definition"
        if ws & {"repo", "repository"}:
            return "repository"
        if ws & {"package", "library"}:
            return "package"
        if p.snake in ("collection", "collection_name") and not t.tool.name.lower().endswith("collection"):
            return "document"  # `find(collection, filter)`: a database's documents, not search hits
        if p.snake in ("table", "table_name"):
            return "row"
        if p.words and p.words[-1] in ID_SUFFIX | NAME_SUFFIX and len(p.words) > 1 and p.words[-2][:1].isalpha():
            return singular(p.words[-2])
    if any(p.structural == "query" for p in t.params):
        return "result"
    return None


# -- inference over a server --------------------------------------------------------------------

# An `address` is a street address only where the tool talks about places: a memory, wallet or
# contract address is not somewhere on a map.
_PLACE_WORDS = {"street", "city", "postal", "zip", "shipping", "delivery", "location", "place", "places", "geocode", "geocoding",
                "map", "maps", "route", "directions", "venue", "hotel", "restaurant", "property", "home", "billing", "mailing"}
_NOT_PLACE_WORDS = {"memory", "wallet", "bitcoin", "btc", "ethereum", "eth", "contract", "token", "blockchain", "ip", "mac", "hex",
                    "pointer", "register", "solana", "crypto", "chain", "onchain", "ens", "inscription", "inscriptions"}


def _placey(tool: ToolIn, p: PInfo) -> bool:
    text = set(words(tool.name)) | set(words(tool.description[:400])) | set(words(str(p.schema.get("description", ""))))
    return bool(text & _PLACE_WORDS) and not text & _NOT_PLACE_WORDS


def _param_infos(tool: ToolIn) -> list[PInfo]:
    props = tool.input_schema.get("properties") or {}
    req = set(tool.input_schema.get("required") or [])
    out = []
    for name, sch in props.items():
        sch = sch if isinstance(sch, dict) else {}
        sn = snake(name)
        p = PInfo(name=name, snake=sn, words=sn.split("_"), schema=sch, type=main_type(sch), required=name in req)
        p.structural = _structural(p)
        p.sem = _param_sem(p)
        if p.sem == "address" and not _placey(tool, p):
            p.sem = None
        p.place = p.sem in ("address", "city", "country", "location") or (set(p.words) & {"latitude", "lat"} != set())
        out.append(p)
    return out


ENVELOPES = {"params", "parameters", "body", "data", "payload", "request", "input", "args", "arguments", "fields", "attributes",
             "properties", "updates", "changes", "values", "record", "item", "entity", "details", "info"}


def _envelope(t: TInfo, p: PInfo) -> bool:
    """An object argument that wraps a write's fields (`params`, `module_data`, `contact_details`, or
    `field` in `create_field(field={name, type})`), not a value of its own (`start={dateTime, timeZone}`)."""
    props = p.schema.get("properties")
    if p.type != "object" or not isinstance(props, dict) or not props:
        return False
    return p.snake in ENVELOPES or p.words[-1] in ENVELOPES or singular(p.snake) == t.head


def _lift_envelopes(t: TInfo) -> None:
    """A tool over records whose arguments come wrapped in one object argument takes them as if they
    were given one by one: a write writes those fields (`send_email(email={to, subject, body})` sends
    an email with that subject; it does not look one up by an `email` equal to the whole object), a
    read keys and filters on them (`get_change(params={change_id})` reads that change, not any one);
    the runtime unwraps the arguments the same way (`ParamPlan.within`)."""
    if t.op not in ("create", "update", "transition", "delete", "get", "list", "lookup"):
        return
    out: list[PInfo] = []
    taken = {q.name for q in t.params}  # a field given at the top keeps that name
    for p in t.params:
        if not _envelope(t, p):
            out.append(p)
            continue
        inner = ToolIn(name=t.tool.name, ident=t.tool.ident, description=t.tool.description,
                       input_schema={"type": "object", "properties": p.schema["properties"], "required": list(p.schema.get("required") or [])})
        for q in _param_infos(inner):
            if q.name not in taken:
                q.within = p.name
                q.required = q.required and p.required
                out.append(q)
    t.params = out


_COORDINATE_WORDS = {"lat", "lng", "lon", "latitude", "longitude", "coordinates", "x", "y", "z"}


def _classify(t: TInfo) -> None:
    """Decide the operation class before entities are known."""
    toks = set(t.tokens)
    params = {p.name: p.type for p in t.params}
    req = {p.name for p in t.params if p.required}
    non_struct = [p for p in t.params if p.structural not in ("option",)]
    has_content = any(p.snake in CONTENT_PARAMS or set(p.words) & {"text", "content", "prompt", "image", "html", "markdown", "code"} for p in t.params)
    vclass = t.vclass
    number_lists = frozenset(p.name for p in t.params if p.type == "array" and main_type(p.schema.get("items") or {}) in ("number", "integer"))
    # a few words of the description's first sentence name the computation when the tool's name does not
    # ("convert_number: Convert a number (decimal, hexadecimal) ...")
    comp = compute.recognize(toks | set(words(t.tool.description.split(".")[0])) & {"statistics", "stdev", "variance", "decimal", "hexadecimal", "octal",
                                                                                     "mathematical"},
                             t.verb, params, req, number_lists)
    if comp is not None and (vclass not in ("create", "update", "delete", "transition") or comp.startswith("clinical_")):
        t.op, t.compute = "compute", comp  # (the Revised Cardiac Risk Index revises nothing)
        return
    if comp is not None and (comp in ("uuid", "password", "lorem", "random_number") or
                             (comp.startswith(("arith_", "math_")) and all(p.type in ("number", "integer", "array") for p in t.params)) or
                             # `cal(exp)`: "Use the expr-eval library to evaluate the input mathematical expression" uses nothing
                             (comp == "expression" and not any(VERB_CLASS.get(verb_lemma(w) or "") for w in t.tokens))):
        t.op, t.compute = "compute", comp  # `add(a, b)` adds numbers and `log(x)` takes a logarithm; neither writes anything
        return
    if vclass in ("compute", "") and says_it_keeps(t.tool.description):
        t.op = "create"  # what it makes is kept: calling it twice makes two, it is no lookup
        return
    if vclass == "generate" or (vclass in ("get", "") and t.head in GEN_NOUNS and any(p.snake in PROMPT_KEYS for p in t.params)):
        t.op = "lookup" if toks & COMPUTABLE_NOUNS or t.head in COMPUTABLE_NOUNS else "world_model"
        return
    if vclass == "analyze":
        keyish = any(p.words[-1] in ID_SUFFIX for p in t.params if p.required)
        if has_content and not keyish:
            t.op = "world_model"
        else:
            t.op = "lookup"
        return
    if t.verb in ("write", "compose", "draft", "create") and (t.head in GEN_NOUNS) and any(p.snake in ("prompt", "topic", "instructions", "idea", "brief", "theme", "description") for p in t.params) \
            and not any(p.snake in ("content", "body", "text", "message") for p in t.params):
        t.op = "world_model"
        return
    if vclass in ("compute", "action") and any(p.required and p.snake in CODE_PARAMS for p in t.params) and \
            toks & RUN_WORDS:
        t.op = "world_model"  # what running a script in a browser or an interpreter prints, no record knows
        return
    if vclass in ("compute", "action") and _says_read(t):
        # `count_goals()`, `list_pull_requests`, `check_batch_status(id)`: the spec says it reads; a
        # logged action answering "completed" would not
        t.op = "list" if t.plural_noun and not any(p.required and p.words[-1] in ID_SUFFIX for p in t.params) else "get"
        return
    if vclass == "compute" and non_struct and all(p.type in ("number", "integer", "boolean") for p in t.params) \
            and not any(set(p.words) & _COORDINATE_WORDS for p in t.params):
        # a formula no reference implementation here knows (a clinical score from lab values, a quantum
        # system's spectrum): what it answers is simulated, not a record its numbers look up
        t.op = "world_model"
        return
    if vclass == "compute":
        t.op = "lookup" if non_struct else "action"
        return
    if vclass == "action":
        t.op = "action"
        return
    if vclass in ("create", "update", "delete", "transition", "get", "list"):
        t.op = vclass
        return
    # a verbless plural name told only how many or which page (`today_headlines_hotspots(limit?)`) lists
    paging = all(p.structural in ("limit", "offset", "page", "cursor") and not p.required for p in non_struct)
    t.op = "list" if t.plural_noun and paging else "get"


_READ_WORDS = {"get", "list", "fetch", "retrieve", "read", "show", "view", "describe", "count", "status", "search", "find", "query",
               "lookup", "info", "details"}


def _says_read(t: TInfo) -> bool:
    """Whether the name (or, without a verb in it, the description's first word) says the tool reads."""
    first = words(t.tool.description.split(".")[0])[:1]
    writes = {w for w in t.tokens if VERB_CLASS.get(verb_lemma(w) or "") in ("create", "update", "delete", "transition")}
    if writes:
        return False
    return bool(set(t.tokens) & _READ_WORDS) or bool(set(first) & {"get", "gets", "fetch", "fetches", "list", "lists", "retrieve",
                                                                     "retrieves", "return", "returns", "show", "shows", "count", "search",
                                                                     "look", "looks"})  # "Look up multiple papers by their IDs"


# names of one kind of record: Gmail's `read_email(messageId)` reads the email whose message id it is
SAME_RECORD = {"email": {"message", "mail"}, "mail": {"message", "email"}}


_OTHER_RECORD = frozenset({"after", "before", "parent", "previous", "prev", "next", "related", "linked", "preceding", "following"})


def _key_match(p: PInfo, entity: str, setting: bool = False) -> int:
    """How strongly parameter `p` names a record of `entity` (3 id, 2 name/path, 0 no)."""
    ws = p.words
    ent_words = entity.split("_")
    if p.snake in ("id", "uuid", "slug", "handle", "key", "gid"):
        return 3
    if len(ws) >= 3 and ws[0] in _OTHER_RECORD:
        return 0  # `add_doc_block(after_block_id)`: the block to add it after, another record of the kind
    if len(ws) >= 2 and ws[-1] in ID_SUFFIX:
        stem = ws[:-1]
        if [singular(w) for w in stem[-len(ent_words):]] == ent_words or singular(stem[-1]) in {ent_words[-1]} | SAME_RECORD.get(ent_words[-1], set()):
            return 3
    if len(ws) >= 2 and ws[-1] in NAME_SUFFIX and not (setting and ws[-1] == "title"):
        # a new record's title is what it reads as, not an identity no other record may share (Monday's items)
        stem = ws[:-1]
        if singular(stem[-1]) == ent_words[-1]:
            return 2
    if len(ws) == 1 and singular(ws[0]) == ent_words[-1] and p.type in ("string", "integer", "number", "array") and not setting:
        return 2
    return 0


def _ref_entity(p: PInfo, entities: set[str], own: str | None) -> str | None:
    if len(spec_examples(p.schema)) >= 2:  # "Network name (e.g., 'mainnet', 'sepolia')": those values, not a record's id
        return None
    if p.sem in ("date", "datetime"):  # `date="2025-03-01"` is a day, not the id of a record some tool calls a date
        return None
    ws = p.words
    if len(ws) >= 2 and ws[-1] in ID_SUFFIX | NAME_SUFFIX:
        cand = singular(ws[-2])
        if cand in entities and cand != own:
            return cand
        joined = singular("_".join(ws[:-1]))
        if joined in entities and joined != own:
            return joined
    if len(ws) == 1 and singular(ws[0]) in entities and singular(ws[0]) != own and p.type in ("string", "integer") \
            and p.snake not in VALUE_KEYS | TEXT_KEYS and singular(p.snake) not in VALUE_KEYS:
        return singular(ws[0])
    return None


# a parameter named by one of these gives the value itself (`symbol="AAPL"`), not the id of a record of a
# kind named so (FMP's and Alpha Vantage's `symbols` lists made every `symbol` a record id, "symbo_0008")
VALUE_KEYS = frozenset({"symbol", "ticker", "cusip", "isin", "url", "uri", "email", "path", "file_path", "domain", "hostname",
                        "ip", "ip_address", "isbn", "doi", "username", "slug", "coin", "word", "term", "country", "city",
                        # a record's own state (`update_dag_run_state(state="success")`), not a record of another kind
                        "state", "status"})
# a parameter named for text holds the text (`write_note(title, content)`), not the id of a record of a
# kind another tool names so (Basic Memory's notes had held "Content 12" of its `read_content` records)
TEXT_KEYS = frozenset({"content", "text", "body", "description", "summary", "message", "comment", "note", "notes", "details",
                       "snippet"})


def _batch_keys(cands: list[PInfo]) -> list[PInfo]:
    """The required lists of natural keys or ids among `cands` (`read_multiple_files(paths)`, `ids`)."""
    return [p for p in cands if _is_batch(p) and p.required
            and (singular(p.snake) in NATURAL_KEYS or p.words[-1] in ("ids", "keys", "names", "paths", "urls", "symbols", "uuids"))]


def _is_batch(p: PInfo) -> bool:
    return p.type == "array" and main_type((p.schema.get("items") or {})) in ("string", "integer", "number", None)


@dataclass
class _Ent:
    name: str
    owned: bool = False
    fields: dict[str, FieldPlan] = field(default_factory=dict)
    texts: list[str] = field(default_factory=list)
    statuses: list[str] = field(default_factory=list)
    status_enum: list[str] | None = None
    key_fields: dict[str, str] = field(default_factory=dict)  # param snake -> field
    itemized: bool = False  # made by a batch's items (`create_relations`), whose fields say all a record is


def _domain(categories: list[str]) -> str:
    c = " ".join(categories).lower()
    for key, dom in (("finance", "finance"), ("crypto", "finance"), ("commerce", "commerce"), ("calendar", "productivity"),
                     ("productivity", "productivity"), ("communication", "communication"), ("social", "social"),
                     ("search", "research"), ("research", "research"), ("database", "data"), ("data", "data"),
                     ("development", "engineering"), ("file", "files"), ("travel", "travel"), ("health", "health"),
                     ("education", "education"), ("news", "media"), ("media", "media"), ("content", "media"),
                     ("security", "security"), ("browser", "web"), ("cloud", "engineering"), ("operating", "engineering"),
                     ("game", "entertainment"), ("entertainment", "entertainment"), ("weather", "travel")):
        if key in c:
            return dom
    return "operations"


def infer_plan(server: ServerSpec, service_name: str) -> ServicePlan:
    """The service plan of one server, named `service_name` (a unique slug)."""
    budget = 62 - len(service_name)  # namespaced names `service__tool` must fit 64 characters
    taken: set[str] = set()
    server_words = (set(words(server.name)) | set(words(server.slug.split("/")[-1] if server.slug else ""))) - GENERIC_SERVER_WORDS
    toks_by = _strip_affixes(server_words, {t.name: words(t.name) or ["tool"] for t in server.tools})
    infos: list[TInfo] = []
    for tool in server.tools:
        exposed = unique(shorten(tool.ident, budget), taken, budget)
        tokens = toks_by[tool.name]
        verb, vidx = _find_verb(tokens, tool.description, words(tool.name))
        vclass = VERB_CLASS.get(verb, "") if verb else ""
        head, mods, pl = _noun(tokens, vidx if vidx >= 0 else (-1 if verb is None else len(tokens)))
        if verb is not None and vidx < 0 and head is None:
            head, mods, pl = _noun(tokens, -1)
        # `search_search`: the noun is the verb again, so there is none. A name that is one noun and no
        # verb keeps it where an archetype is about that noun (`weather(city)` looks up weather, not a
        # place); other verbless names (`gdb_step`, `jpl_sbdb`) say too little and the arguments decide.
        if head is not None and (verb_lemma(head) == verb if verb is not None else len(tokens) > 1 or head not in TOPIC_NOUNS):
            head = None
        t = TInfo(tool=tool, exposed=exposed, tokens=tokens, verb=verb, vclass=vclass, head=head, mods=mods, plural_noun=pl,
                  params=_param_infos(tool))
        if vclass in ("get", "list", "") and _caps_results(t):
            t.plural_noun = True  # `get_command_history(count)`, `fiatMap(limit)`: a read told how many to answer answers many
        if vclass in ("get", "list", "") and {tokens[-1], words(tool.name)[-1]} & LIST_NOUNS and not any(p.required for p in t.params):
            # `get_weibo_trending()`, `get_bilibili_rank(type?)`: a hot list is many, not its first entry; the
            # name's own last word too (Pulse CN's `douyin_hotspots`: every tool's "hotspots" is stripped as an affix)
            t.plural_noun = True
        if vclass in ("get", "list", "") and "bulk" in tokens and not any(p.type == "array" for p in t.params):
            t.plural_noun = True  # FMP's `getEODDataBulk(date)`: every symbol's end-of-day prices that day, not one
        if t.verb == "transfer" and (t.head is None or t.head in ASSET_NOUNS):
            t.head = "transfer"  # `transfer_eth(to, amount)` makes a transfer of ETH, not an ETH
        if t.head is None:
            t.head = _fallback_entity(t)
            t.guessed = t.head is not None
        _classify(t)
        _lift_envelopes(t)
        infos.append(t)
    _retarget_attribute_heads(infos)
    _sent_messages(infos, server_words)
    _nodes_are_entities(infos)
    _searches_find_the_services_records(infos)
    _searches_list(infos)
    _price_histories(infos)
    _index_quotes(infos)
    _thinking_tools(infos)
    _makes_records(infos)
    _browser_session(infos)
    _sql_database(infos)
    _kv_store(infos)
    _tensor_store(infos)
    _home_automation(infos, server_words | set(words(server.description or "")))
    _git_repository(infos, server_words | set(words(server.description or "")))
    _counts(infos)
    _statistics(infos)
    _company_profiles(infos)

    # Entities: heads of tools that act on records.
    ents: dict[str, _Ent] = {}
    for t in infos:
        if t.op in ("create", "get", "list", "update", "delete", "transition", "lookup") and t.head:
            e = ents.setdefault(t.head, _Ent(t.head))
            e.texts.append(t.tool.name + " " + _DOC_TAIL.split(t.tool.description, 1)[0][:200])
            if t.op == "create":
                e.owned = True
    entity_names = set(ents)

    # Per-tool keys, references and final operations.
    for t in infos:
        _resolve(t, entity_names)
    for t in infos:
        if t.entity and t.op == "create":
            ents[t.entity].owned = True

    # Fields: those of writes and reads first, so a listing knows which of its numbers name a field.
    for t in sorted(infos, key=lambda t: t.op == "list"):
        if t.entity is None or t.op in ("action", *STORE_OPS):
            continue
        e = ents.setdefault(t.entity, _Ent(t.entity))
        _collect_fields(t, e)
    _list_edits(infos, ents)
    plans_e: dict[str, EntityPlan] = {}
    reserved = {ACTION_LOG, SIMULATIONS, SQL_TABLES}
    context = frozenset(server_words | set(words(server.description or "")))  # what the service says of itself
    chain = chain_of(f"{service_name} {server.description or ''}")
    for name, e in ents.items():
        if not any(t.entity == name and t.op != "action" for t in infos):
            continue
        ep = _entity_plan(e, service_name, [x.prefix for x in plans_e.values()] + ["act", "sim"], reversing(context), chain, context)
        if ep.collection in reserved:
            ep.collection = f"{ep.collection}_items"
        plans_e[name] = ep
    _simulate_shapeless_reads(infos, plans_e)
    if any(t.op == "browser" for t in infos):
        plans_e[_own("browser")] = browser_entity()
    if any(t.op == "sql" for t in infos):
        plans_e[_own("sql")] = sql_entity()
    if any(t.op == "kv" for t in infos):
        plans_e[_own("kv")] = kv_entity()
    if any(t.op == "home" for t in infos):
        plans_e[_own("home")] = home_entity()
    if any(t.op == "tensor" for t in infos):
        plans_e[_own("tensor")] = tensor_entity()
    if any(t.op == "git" for t in infos):
        for i, ep in enumerate(git_entities()):  # its files (the tools' collection), commits and branches
            plans_e[_own("git" if i == 0 else ep.collection)] = ep
    if any(t.op == "action" for t in infos):
        plans_e[ACTION_KEY] = action_entity()
    if any(t.op == "world_model" for t in infos):
        plans_e[_own("simulation")] = EntityPlan(collection=SIMULATIONS, entity="simulation", prefix="sim", fields=list(SIMULATION_FIELDS), size=0)

    tools: list[ToolPlan] = []
    for t in infos:
        tools.append(_tool_plan(t, plans_e, service_name))
    title = server.name
    desc = server.description or f"Service compiled from the MCP server {server.name}."
    plan = ServicePlan(name=service_name, title=title, description=desc[:500], domain=_domain(server.categories),
                       source_id=server.id, forks=list(server.forks), categories=server.categories,
                       entities=list(plans_e.values()), tools=tools)
    # The version names the plan's content: seeded states are memoized by (name, version), so a
    # recompiled service never reuses the initial state of a different plan with the same name.
    plan.version = "1." + sha1_tag(plan.model_dump_json(), 10)
    return plan


# the fields of records no archetype shapes: a name, a description, a value and when it was updated
GENERIC_FIELDS = frozenset(f for f, _, _ in DEFAULT_TOPIC)


def _simulate_shapeless_reads(infos: list[TInfo], plans_e: dict[str, EntityPlan]) -> None:
    """A read of outside-world records that no archetype shapes and no tool of the service writes is a
    world-model tool. Its records could only be a name, placeholder text and a number ("Result 12, as
    recorded.", 2800.79): DynamoDB's `batch_get_item`, Node's `eval(code)` and Vim's `visual` selection
    had answered them, pretending to be lookups. No state of the service backs what it answers, so a
    simulation (a configured model, or an offline stand-in that says it is one) replaces nothing true."""
    written = {t.entity for t in infos if t.op in WRITE_OPS}
    shapeless = {name for name, ep in plans_e.items() if ep.world and not ep.topic and name not in written
                 and GENERIC_FIELDS <= {f.name for f in ep.fields}}
    for t in infos:
        if t.entity in shapeless and t.op in ("get", "lookup", "list"):
            t.op, t.entity, t.keys = "world_model", None, []
    for name in shapeless:
        if not any(t.entity == name for t in infos):
            del plans_e[name]  # no tool reads its records any more: nothing seeds them


# the ops whose tools run on a store the runtime keeps for the service (a browser session, a database,
# a keyspace, a home, a repository), not on records of an entity
STORE_OPS = ("browser", "sql", "kv", "home", "git", "tensor")


def _own(kind: str) -> str:
    """The key of a collection the runtime keeps for a kind of tool (its action log, browser session,
    database, simulations): never an entity's name, so Contentful's `ai_action` records are not the log."""
    return f"@{kind}"


ACTION_KEY = _own("action")


def action_entity() -> EntityPlan:
    """The log of a service's actions: what was asked and when (a call that changes no record of its own)."""
    return EntityPlan(collection=ACTION_LOG, entity="logged_action", prefix="act", fields=list(ACTION_FIELDS), size=0)


# the verbs of a call that makes a record the current one (`switch_dicom_node(node_name)`, `use_database`,
# `browser_tab_select(index)`); a `set_*` of a path or an address sets a value, selecting no record
SELECT_VERBS = frozenset({"switch", "select", "use", "change", "choose", "activate", "set"})


def _selects(t: TInfo, params: list[ParamPlan]) -> bool:
    key = next(pp for pp in params if pp.role == "key")
    return t.verb in SELECT_VERBS and not (t.verb == "set" and (key.field or "").split("_")[-1] in ("path", "url", "uri", "address"))


def _resolve(t: TInfo, entities: set[str]) -> None:
    """Keys, references and the final operation of a tool, now that the service's entities are known."""
    if t.op in ("compute", "world_model", "action", *STORE_OPS):
        if t.op in ("action", *STORE_OPS):
            t.entity = _own(t.op)
        return
    ent = t.head
    if ent is None:
        # a read that names no noun answers about results; one told it answers many (Pulse CN's
        # `douyin_hotspots(limit?)`, a hot list) lists them, others look one up
        t.op = "action" if t.op in WRITE_OPS else "list" if t.op == "list" and t.plural_noun else "lookup"
        if t.op in ("lookup", "list"):
            t.head = ent = "result"
        else:
            t.entity = ACTION_KEY
            return
    t.entity = ent
    # a create's envelope holds the new record's fields and a listing's its filters, not keys; what
    # another tool's envelope requires may name its record (`update_change(params={change_id, state})`,
    # `get_article(params={article_id})`), what it leaves optional filters (`listings(args={id?, address?})`)
    # a session's id is plumbing to most tools, but it names the record of a tool about sessions (`get_session(session_id)`)
    own_session = ent.endswith("session")
    cands = [p for p in t.params if (p.structural is None or (own_session and p.snake in ("session_id", "sessionid")))
             and (p.within is None or (p.required and t.op not in ("create", "list")))]
    # `set_orientation(orientation)`: a parameter named like the entity is the new value, not a key
    scored = sorted(((p, _key_match(p, ent, setting=t.op in ("update", "create"))) for p in cands), key=lambda x: -x[1])
    id_keys = [p for p, s in scored if s == 3]
    name_keys = [p for p, s in scored if s == 2]
    for p in cands:
        r = _ref_entity(p, entities, ent)
        if r is not None and p not in id_keys and p not in name_keys and id(p) not in t.renames:
            t.refs.append((p, p.snake, r))
    moved = _move_pair(t, cands) if t.op == "update" else None
    if moved is not None:  # `move_file(source, destination)`: find the record by its old key, give it the new one
        old, new, key = moved
        t.refs = [r for r in t.refs if r[0] is not old and r[0] is not new]
        t.keys = [(old, key)]
        t.renames[id(new)] = key
        return
    ref_params = {id(p) for p, _, _ in t.refs}
    if t.op == "transition" and t.verb in _CREATE_WHEN_NO_TARGET:
        # `send_message(message)`: the text to send is the new message, not the name of a stored one to mark sent
        name_keys = [p for p in name_keys if p.snake not in CONTENT_PARAMS]
    if not id_keys and not t.plural_noun and t.op not in ("list", "create"):
        # `get_pull_request(owner, repo, pull_number)`: an id named for a word of the record's own compound
        # name; not one of another entity's (`get_team_projects(team_id)` lists a team's projects)
        named = {singular(w) for w in t.tokens} - {t.verb or ""} - (entities - {ent})
        id_keys = [p for p in cands if p.required and len(p.words) >= 2 and p.words[-1] in ID_SUFFIX
                   and singular(p.words[-2]) in named and id(p) not in {id(r) for r, _, _ in t.refs}]
    keys: list[PInfo] = id_keys[:1] or name_keys[:1]
    if t.op == "transition" and t.verb in _CREATE_WHEN_NO_TARGET and keys and not keys[0].required \
            and keys[0].snake.startswith(("reply_to", "in_reply_to", "quoted")):
        keys = []  # `tg_send_message(text, reply_to_message_id?)`: a new message, perhaps in reply to one
    if not keys and t.op == "get":
        # `read_multiple_files(paths)`: a list of natural keys is a batch read keyed on the singular field
        keys = _batch_keys(cands)[:1]
    if not keys and t.op in ("get", "update", "delete", "transition", "lookup"):
        # an object is never a key's value (`email={to, subject}` is an email to write, not its address)
        nat = [p for p in cands if p.snake in NATURAL_KEYS and p.type != "object" and id(p) not in ref_params
               and (p.required or t.op != "update")]
        nat.sort(key=lambda p: (not p.required, NATURAL_KEYS.index(p.snake)))
        keys = nat[:1]
    if t.op == "get" and t.plural_noun and not id_keys:
        # `get_issues(repo)`: a plural noun without an own id is a listing, its arguments filters.
        if not (keys and _is_batch(keys[0])):
            t.op, keys = "list", []
    if not keys and t.op in ("get", "lookup") and t.head:
        req = [p for p in cands if p.required and id(p) not in ref_params and p.type in ("string", "integer", "number", None)]
        if req:
            keys = req[:3]
            t.op = "lookup"
    if t.op in ("update", "delete", "transition") and not keys:
        req = [p for p in cands if p.required and id(p) not in ref_params and p.type in ("string", "integer", "number")]
        if t.op == "transition" and t.verb in _CREATE_WHEN_NO_TARGET:
            t.op = "create"
        elif t.op == "transition":
            t.op = "action"
            t.entity = ACTION_KEY
            return
        elif req and t.op == "delete":
            keys = req[:1]
        elif t.op == "delete" and _batch_keys(cands):
            keys = _batch_keys(cands)[:1]  # `batch_delete_messages(ids)`: each message named is deleted
        elif t.op == "delete":
            t.op, t.entity = "action", ACTION_KEY
            return
    if t.op == "transition" and keys and _is_batch(keys[0]):
        # `calls_batch_archive(callIds)`: each call named moves to the state; "Archive (delete)" deletes them
        if t.verb == "archive" and re.search(r"\bdelet", t.tool.description, re.I):
            t.op = "delete"
        else:
            t.batch = True
    if t.op == "create" and t.verb in _CREATE_WHEN_NO_TARGET:
        t.target = TRANSITION_STATE.get(t.verb, "created") if t.verb not in ("post", "schedule", "book") else {"post": "posted", "schedule": "scheduled", "book": "booked"}[t.verb]
    if t.op == "transition":
        t.target = _transition_target(t)
    if t.op in ("get", "delete") and keys and _is_batch(keys[0]):
        t.batch = True
    if t.op in ("create", "delete") or (t.op == "update" and not keys):
        t.items = _batch_items(t)
        if t.items is not None and t.op == "update" and "id" not in _item_props(t.items):
            t.op, t.entity, t.items = "action", ACTION_KEY, None  # items that say not which record: no update to apply
            return
    if t.items is not None:
        t.batch, keys = True, []  # each item is a record: its fields say which, no argument names one
    if t.op in ("get", "lookup") and (keys and all(p.snake in PROMPT_KEYS for p in keys)
                                      or any(p.required and p.snake in PROMPT_KEYS for p in cands)):
        # `octagon-sec-agent(prompt)`, `sampleLLM(prompt)`, `stagehand_extract(session_id, instruction)`: what an
        # agent answers a question is no stored record that the question's text (or a session's id) looks up
        t.op, t.entity = "world_model", None
        return
    t.keys = [(p, singular(p.snake) if t.batch else p.snake) for p in keys]
    if not t.keys and t.op in ("get", "lookup") and t.head and not t.plural_noun and t.verb not in ("execute", "run") \
            and not {"query", "sql", "soql", "sosl"} & set(t.tokens):
        query = next((p for p in t.params if p.required and p.structural == "query" and p.type in ("string", None) and p.within is None), None)
        if query is not None:  # `get_station_info(query)`: the station the query names, not one station whatever it asks
            t.op, t.keys = "lookup", [(query, "name")]
    if t.op in ("update", "transition"):  # `update_status(id, new_status)`: the new value of `status`
        for p in cands:
            if len(p.words) > 1 and p.words[0] == "new" and p not in keys and id(p) not in ref_params:
                t.renames[id(p)] = "_".join(p.words[1:])


def _batch_items(t: TInfo) -> PInfo | None:
    """`create_entities(entities=[{name, entityType, observations}])`: a create (or delete) whose one
    required argument is a list of objects named for the records it makes (or removes); each item is
    one record."""
    req = [p for p in t.params if p.required and p.structural is None]
    if len(req) != 1 or req[0].type != "array" or t.head is None:
        return None
    p = req[0]
    items = p.schema.get("items")
    if not isinstance(items, dict) or main_type(items) != "object" or not isinstance(items.get("properties"), dict) \
            or not items["properties"] or (singular(p.snake) != t.head and p.snake not in BATCH_LISTS):
        return None
    return p


# what a batch's list of records is called when it is not named for them (`calls_batch_create(inputs=[...])`)
BATCH_LISTS = {"inputs", "items", "records", "entries", "objects", "batch"}


def _item_props(p: PInfo) -> dict[str, Any]:
    return (p.schema.get("items") or {}).get("properties") or {}


def _item_infos(t: TInfo, p: PInfo) -> list[PInfo]:
    """The fields of a batch create's items, as arguments of a create of one record would be."""
    items = p.schema["items"]
    props, required = dict(items["properties"]), list(items.get("required") or [])
    for box in ITEM_ENVELOPES:  # an item's fields wrapped in one object (`{properties: {...}}`) are its own
        inner = props.get(box)
        if isinstance(inner, dict) and main_type(inner) == "object" and isinstance(inner.get("properties"), dict):
            del props[box]
            props = {**inner["properties"], **props}
            required = [r for r in required if r != box] + list(inner.get("required") or [])
    one = ToolIn(name=t.tool.name, ident=t.tool.ident, description=t.tool.description,
                 input_schema={"type": "object", "properties": props, "required": required})
    return _param_infos(one)


_MOVE_FROM = {"source", "src", "from", "from_path", "source_path", "old_path", "old_name", "oldname", "old_key", "oldkey",
              "current_name", "current_path"}
_MOVE_TO = {"destination", "dest", "target", "to", "to_path", "destination_path", "target_path", "new_path", "new_name",
            "newname", "new_key", "newkey", "new_title"}
_PATHY = {"file", "files", "folder", "directory", "dir", "path", "note", "notes", "document", "page"}


def _move_pair(t: TInfo, cands: list[PInfo]) -> tuple[PInfo, PInfo, str] | None:
    """A move or rename: a required old key and a required new one (`source`/`destination`,
    `old_name`/`new_name`), and the key field they name: the part after old_/new_, else a path when
    the tool is about files or notes, else a name."""
    if not (set(t.tokens) & {"move", "rename", "mv"}):
        return None
    strings = [p for p in cands if p.required and p.type in ("string", None)]
    old = next((p for p in strings if p.snake in _MOVE_FROM), None)
    new = next((p for p in strings if p.snake in _MOVE_TO), None)
    if old is None and new is not None and t.head:  # `rename_app(app, new_name)`: the app named by `app`
        old = next((p for p in strings if p.snake in (t.head, f"{t.head}_name")), None)
        if old is not None:
            return old, new, old.snake
    if old is None or new is None:
        return None
    tail = old.words[-1] if old.words[0] in ("old", "current") and len(old.words) > 1 else ""
    key = tail if tail in ("name", "path", "key") else \
        "path" if set(t.tokens) & _PATHY or set(words(t.tool.description or "")[:12]) & _PATHY else "name"
    return old, new, key


def _transition_target(t: TInfo) -> str:
    if t.verb == "mark":
        rest = [w for w in t.tokens if w not in ("mark", "as") and w != t.head]
        desc = words(t.tool.description.split(".")[0])
        after_as = desc[desc.index("as") + 1:] if "as" in desc else []
        for w in rest + after_as:
            if w in _MARK_STATES:
                return _MARK_STATES[w]
            lemma = verb_lemma(w)
            if lemma in TRANSITION_STATE:
                return TRANSITION_STATE[lemma]
        return "marked"
    return TRANSITION_STATE.get(t.verb or "", "done")


def _collect_fields(t: TInfo, e: _Ent) -> None:
    def add(fname: str, p: PInfo | None, role: str = "data", ref: str | None = None, shape: dict[str, Any] | None = None, sem: str | None = None) -> None:
        sh = loosen(p.schema) if p is not None else (shape or {})
        if t.batch and t.op != "create" and p is not None and p.type == "array":  # a batch read's keys: one per record
            sh = loosen(p.schema.get("items") or {})
        sm = (p.sem if p is not None else sem)
        if sm == "query":
            sm = None
        cur = e.fields.get(fname)
        if cur is None:
            e.fields[fname] = FieldPlan(name=fname, shape=sh, sem=sm, role=role, ref=ref)  # type: ignore[arg-type]
        else:
            cur.shape = merge_shapes(cur.shape, sh) if cur.role not in ("id",) else cur.shape
            if cur.sem is None and sm is not None:
                cur.sem = sm
            if role in ("key", "seq", "ref") and cur.role == "data":
                cur.role = role  # type: ignore[assignment]
                cur.ref = ref or cur.ref

    for i, (p, fname) in enumerate(list(t.keys)):
        idlike = p.snake in ("id", "uuid", "gid", "key") or p.words[-1] in ("id", "ids", "uuid", "gid")
        if idlike and _takes_table_ids(p):
            e.key_fields[p.snake] = "id"
            t.keys[i] = (p, "id")
            continue
        if p.type in ("integer", "number") and (idlike or p.words[-1] in ID_SUFFIX):
            seqf = next((f for f in e.fields.values() if f.role == "seq"), None)
            fn = seqf.name if seqf is not None else (fname if fname != "id" else f"{e.name}_number")
            add(fn, p, role="seq")
            e.key_fields[p.snake] = fn
            t.keys[i] = (p, fn)
            continue
        fn = fname if fname != "id" else f"{e.name}_key"
        if fn == f"{e.name}_name" and "name" in e.fields:  # `delete_entities(entityNames)`: the entities' own names
            fn = "name"
        add(fn, p, role="key")
        strict = p.schema.get("items") if t.batch and p.type == "array" else p.schema
        if isinstance(strict, dict) and _constrained(p):
            e.fields[fn].strict = {k: v for k, v in strict.items() if k not in ("description", "title", "default", "examples")}
        e.key_fields[p.snake] = fn
        t.keys[i] = (p, fn)
    for p, fname, ref in t.refs:
        add(fname, p, role="ref", ref=ref)
    if t.items is not None:
        for p in _item_infos(t, t.items):
            add(p.snake, p)
        e.itemized = True
    elif t.op in ("create", "update", "transition"):
        for p in t.params:
            if p.structural == "option" or any(p is k for k, _ in t.keys) or any(p is r for r, _, _ in t.refs):
                continue
            if id(p) in t.renames:  # the field it gives a new value (a move's key: already the key)
                add(t.renames[id(p)], p)
                continue
            if p.snake in ("status", "state") and isinstance(p.schema.get("enum"), list):
                e.status_enum = [str(v) for v in p.schema["enum"] if isinstance(v, str)] or e.status_enum
            add(p.snake, p, role="key" if t.op == "create" and _unique_on_create(p, t) else "data")
    if t.op == "list":
        for p in t.params:
            if p.structural is not None or p.type == "object" or any(p is r for r, _, _ in t.refs) or p.snake in LIST_QUERY \
                    or (p.type == "array" and main_type(p.schema.get("items") or {}) in ("object", "array")) or _search_option(p):
                continue
            rng = _range_field(p)
            owner_id = p.required and len(p.words) >= 2 and p.words[-1] == "id"  # `get_player_totals(account_id)`: whose
            if rng is not None or (p.type in ("integer", "number") and (set(p.words) & _WINDOW_WORDS or (p.snake not in e.fields and not owner_id))):
                # `days=7` asks for a time window, `lines=50` for a length: not for records whose `days` is 7
                continue
            add(p.snake, p)
    for name, sub in _promised_fields(t).items():
        if snake(name) not in e.fields and snake(name) != "id":
            add(snake(name), None, shape=loosen(sub), sem="flag" if _is_flag_name(words(name)) else None)
    if t.op == "transition" and t.target:
        if t.target not in e.statuses:
            e.statuses.append(t.target)
    if t.op == "create" and t.target:
        if t.target not in e.statuses:
            e.statuses.append(t.target)
    e.texts.append(t.tool.name)


_WINDOW_WORDS = {"days", "hours", "weeks", "months", "years", "minutes", "lookback", "period", "window", "within", "recent"}


def _promised_fields(t: TInfo) -> dict[str, dict[str, Any]]:
    """Record fields the spec's output schema declares (of the record, or of a listing's items)."""
    out = t.tool.output_schema or {}
    props = out.get("properties") if isinstance(out.get("properties"), dict) else {}
    if t.op == "list" or len(props) == 1:
        arrays = [v for v in props.values() if isinstance(v, dict) and main_type(v) == "array" and isinstance(v.get("items"), dict)]
        if len(arrays) == 1:
            props = arrays[0]["items"].get("properties") or {}
    return {k: v for k, v in props.items() if isinstance(v, dict) and main_type(v) in ("string", "integer", "number", "boolean", "array", None)}


def _takes_table_ids(p: PInfo) -> bool:
    """Whether ids the runtime assigns (`task_0007`) are valid values of this parameter."""
    sub = p.schema.get("items") if p.type == "array" else p.schema
    if not isinstance(sub, dict) or main_type(sub) not in ("string", None):
        return False
    return fits({k: v for k, v in sub.items() if k != "default"}, "item_0007")


def _constrained(p: PInfo) -> bool:
    s = p.schema
    if p.type == "array":
        s = p.schema.get("items") or {}
    return bool(isinstance(s, dict) and (s.get("pattern") or s.get("format") or s.get("enum") or s.get("minLength") or s.get("maxLength")))


_THAN = re.compile(r"^(.+)_(lower|less|greater|more|higher)_than$")
_BOUND_SUFFIX = re.compile(r"^(.+)_(gte|lte|gt|lt)$")
_RANGE = re.compile(r"^(min|max|from|to|start|end|since|until|after|before)_(.+)$|^(.+)_(min|max|from|to|start|end|after|before|since|until|gte|lte|gt|lt)$")


def _range_field(p: PInfo) -> tuple[str, str] | None:
    """('min'|'max', field) for range-filter parameters (`min_price`, `created_after`, `since`)."""
    if p.snake in ("since", "after", "from_date", "start_date", "date_from", "start_time", "from_time", "created_after", "updated_after"):
        return "min", _date_field(p.snake)
    if p.snake in ("until", "before", "to_date", "end_date", "date_to", "end_time", "to_time", "created_before", "updated_before"):
        return "max", _date_field(p.snake)
    if p.snake in ("from", "to", "start", "end") and p.type in ("string", None) and _says_date(p):
        return ("min" if p.snake in ("from", "start") else "max"), "date"  # `from`: "Start date (YYYY-MM-DD)"
    if p.type not in ("integer", "number", "string"):
        return None
    than = _THAN.match(p.snake)  # `priceLowerThan`, `marketCapMoreThan` of a stock screener
    if than and p.type in ("integer", "number"):
        return ("max" if than.group(2) in ("lower", "less") else "min"), than.group(1)
    m = _RANGE.match(p.snake)
    if not m:
        return None
    suffix = _BOUND_SUFFIX.match(p.snake)
    if suffix:  # `start_date_gte`: a lower bound on the start date, not a "start" of `date_gte`
        fld, bound = suffix.groups()
    elif m.group(1):
        bound, fld = m.group(1), m.group(2)
    else:
        fld, bound = m.group(3), m.group(4)
    if fld in ("date", "time", "datetime") or (p.type == "string" and p.sem not in ("date", "datetime")):
        # `updated_at_gte`: a bound on the record's `updated_at`, whatever type the spec gives it
        if p.sem not in ("date", "datetime") and fld not in ("date", "time", "datetime") and not fld.endswith(("_at", "_date", "_time")):
            return None
    lo = bound in ("min", "from", "start", "since", "after", "gte", "gt")
    return ("min" if lo else "max"), fld


def _says_date(p: PInfo) -> bool:
    desc = str(p.schema.get("description", "")).lower()
    return p.sem in ("date", "datetime") or p.schema.get("format") in ("date", "date-time") or "yyyy" in desc or "date" in words(desc)


PRICE_HISTORY = "price_history"
# what a tool about what a token is, rather than its price, is named for
TOKEN_INFO_WORDS = frozenset({"info", "metadata", "detail", "details", "information"})
TOKEN_NOUNS = frozenset({"token", "coin", "crypto", "cryptocurrency", "brc20", "erc20"})
PRICE_WORDS = frozenset({"price", "quote", "market", "ohlc", "ohlcv", "chart", "ticker", "candle", "trade", "volume", "history"})
# what a tool that reads a URL's page is named for
PAGE_READS = frozenset({"fetch", "scrape", "crawl", "crawling", "scraper", "unblocker", "content", "html", "markdown", "page", "webpage"})
# Alpha Vantage's `apo(symbol)`, `bop(symbol)`, `roc(symbol)` and `plus_dm(symbol)` are indicators, and
# `natural_gas()` and `federal_funds_rate()` dated series: their words ("balance of power", "rate of
# change", "gas") had made them stock quotes, balances, exchange rates and on-chain transfers
INDICATOR_CODES = frozenset({"apo", "ppo", "roc", "rocr", "bop", "mfi", "dx", "dm", "trange", "natr", "willr", "mom", "ultosc", "adxr",
                             "cmo", "cci", "trix", "williams", "william", "stddev", "stdev", "deviation"})
SERIES_PHRASES = ("natural gas", "federal funds", "retail sales", "durable goods", "durables")
# what a service says of itself that makes its exchanges and indexes a stock market's
STOCK_CONTEXT = STOCK_WORDS | {"fmp", "nasdaq", "nyse", "financial", "market"}
# archetypes no record keyed by a ticker belongs to, and the words that make such a record a company's
OFF_MARKET_TOPICS = frozenset({"person", "message", "media", "document", "place", "config", "resource", ""})
# names of lists that are singular words (a ranking of videos, what is trending)
LIST_NOUNS = frozenset({"trending", "rank", "ranking", "leaderboard", "hotlist", "hotspots"})
# what names a ranking of what is hot on a platform, and what says a service aggregates such lists
HOT_LIST_NOUNS = frozenset({"rank", "ranking", "trending", "hot", "hotspot"})
HOT_LIST_WORDS = frozenset({"trend", "trends", "trending", "hotlist", "hot", "hotspot", "hotspots"})
COMPANY_WORDS = frozenset({"profile", "company", "employee", "executive", "overview", "etf", "fund"})
# what a tool about prices over time is named for (a history of ratings, grades or trades is none)
PRICE_HEADS = frozenset({"price", "quote", "chart", "data", "snapshot", "k", "daily", "weekly", "monthly", "intraday", "analysis", "adjusted",
                         "historical", "candlestick", "series"})
INTERVAL_WORDS = frozenset({"minute", "hour", "intraday"})
SYMBOL_PARAMS = frozenset({"symbol", "symbols", "ticker", "tickers", "coin", "pair", "instrument", "inst", "market"})


def _price_histories(infos: list[TInfo]) -> None:
    """`get_historical_stock_prices(symbol)`, `fetch_ohlcv(symbol)`, `get_klines(symbol)`,
    `time_series_daily(symbol)`: a read named for prices over time, given a symbol, answers the
    symbol's bars, not one quote of it (nor a log: a "history" of a ticker is its prices)."""
    for t in infos:
        ws = {singular(w) for w in words(t.tool.name)}
        bars = bool(ws & INTERVAL_WORDS and ws & {"data", "chart", "bar", "price", "prices"})  # FMP's `getForex1HourData`
        if t.op in ("get", "list", "lookup") and (ws & HISTORY_WORDS or {"time", "series"} <= ws or bars) \
                and (t.head is None or t.head in PRICE_HEADS or t.head in HISTORY_WORDS or t.head in INTERVAL_WORDS) \
                and any(set(p.words) & SYMBOL_PARAMS for p in t.params if p.required):
            t.head = PRICE_HISTORY


def _index_quotes(infos: list[TInfo]) -> None:
    """FMP's `getIndexQuote(symbol)` and `getAllIndexQuotes()`: a quote of a market index is the index's
    own level, read from the indexes the service lists (`getIndexList`), not one of the stock quotes
    (`getAllIndexQuotes` had listed Oracle, Ethereum and Meta)."""
    if not any(t.head == "index" for t in infos):
        return
    for t in infos:
        if t.head == "quote" and "index" in {singular(m) for m in t.mods}:
            t.head = "index"


# when a record started or ended, by the names a bound may give it (Airflow's `start_date_gte` bounds a
# run's `started_at`; it had filtered nothing)
_WHEN_FIELDS = {"start": ("started_at", "starts_at", "start_time", "start_date"), "end": ("ended_at", "ends_at", "end_time", "end_date")}


def _when_field(name: str, e: EntityPlan) -> str | None:
    head, _, rest = name.partition("_")
    if head not in _WHEN_FIELDS or rest not in ("", "date", "time", "datetime", "at"):
        return None
    return next((f for f in _WHEN_FIELDS[head] if e.field(f) is not None), None)


def _date_field(name: str) -> str:
    return "updated_at" if "updated" in name else "created_at"


_MARKUPS = {"html", "markdown", "txt", "json"}


# A docstring's closing sections say what container comes back ("Returns: Dictionary with registration
# status"), not what the records are: an A2A bridge's agents had become metrics for that "status"
_DOC_TAIL = re.compile(r"\b(?:Returns?|Raises|Yields|Examples?):")


def _kind_of_records(e: _Ent, service: str, fields: dict[str, FieldPlan], reversing_scope: bool, chain: str,
                     context: frozenset[str]) -> tuple[str, list[Any]]:
    """The archetype of an entity's records and its fields: what the entity's and its tools' names decide
    first, then word counts, then what the service and the records' keys rule in or out."""
    # An entity called `result` stands for a lookup that names no noun: its tools' words say what it is about
    head = e.texts[:1] if e.name == "result" else [" ".join([e.name] + e.texts[:1])]
    topic, tfields = named_topic(e.name, [t.split(" ", 1)[0] for t in e.texts], e.texts) or topic_for(head + e.texts[1:4], bool(chain), context)
    named = {singular(w) for t in e.texts for w in words(t.split(" ", 1)[0])}  # the words of its tools' names
    if reversing_scope and e.name in SYMBOL_NOUNS:  # a function of a binary, not of a database
        topic, tfields = "symbol", SYMBOL_TOPIC
    if topic in ("price", "chain") and sum(1 for t in e.texts if set(words(t)) & NFT_WORDS) * 2 > len(e.texts) and \
            not any(set(words(t)) & {"erc20", "spl"} for t in e.texts):
        topic, tfields = "nft", TOPIC_FIELDS["nft"]  # `get_nfts`: tokens that are NFTs, not coins
    if chain and e.name in NETWORK_NOUNS and not any({"block", "blocks"} & set(words(t.split(" ", 1)[0])) for t in e.texts):
        # a chain a bridge supports is a network, not a transfer (the chain of `get_block_info` holds blocks)
        topic, tfields = "network", NETWORK_TOPIC
    if chain and topic in OFF_CHAIN_TOPICS:  # an inscription's collection is no database table, a sat no place
        topic, tfields = "onchain", ONCHAIN_TOPIC
    keyed_by_ticker = any(f.role == "key" and f.name in ("symbol", "ticker") for f in fields.values())
    if topic in OFF_MARKET_TOPICS and keyed_by_ticker:
        # a record keyed by a ticker is the market's: `plus_dm(symbol)` is an indicator, not a direct message,
        # and `getCompanyProfile(symbol)` a company's profile, not a person's
        topic = "company" if named & COMPANY_WORDS else "series" if {"interval", "time_period"} & set(fields) else "price"
        tfields = TOPIC_FIELDS[topic]
    if "esg" in named and (keyed_by_ticker or context & STOCK_CONTEXT):
        topic, tfields = "esg", FINANCE_TOPICS["esg"]  # FMP's `getESGRatings(symbol)` had answered stock quotes
    if chain and all("gas" in words(t) for t in e.texts):
        topic = "gas_price" if any({"price", "fee", "fees"} & set(words(t.split(" ", 1)[0])) for t in e.texts) else "gas_estimate"
        tfields = GAS_TOPICS[topic]
    if (e.name in INDICATOR_CODES and (keyed_by_ticker or "symbol" in fields)) or (not chain and all(any(p in t.lower().replace("_", " ") for p in SERIES_PHRASES) for t in e.texts)):
        topic, tfields = "series", TOPIC_FIELDS["series"]
    if topic in ("document", "result", "") and not e.owned and any(f.role == "key" and (f.sem == "url" or f.name in ("url", "uri"))
                                                             for f in fields.values()) \
            and named & PAGE_READS:
        # `fetch_content(url)`, `scrape_as_markdown(url)`: what a URL answers is its page, not a document of a drive
        topic, tfields = "webpage", TOPIC_FIELDS["webpage"]
    if context & SPORTS_WORDS and e.name in GAME_NOUNS | ATHLETE_NOUNS | (STAT_NOUNS if context & BASEBALL_WORDS else frozenset()):
        # a baseball service's games are games between teams, its players athletes, its leaders and batting
        # a player's season statistics (not films, not contacts, not ops metrics in ms)
        topic, tfields = ("game", GAME_TOPIC) if e.name in GAME_NOUNS else ("athlete", ATHLETE_TOPIC) if e.name in ATHLETE_NOUNS \
            else ("stat", STAT_TOPIC)
    elif context & SPORTS_WORDS and topic == "media" and named & GAME_NOUNS:
        # college football's `get_games_teams(year)` (a team's game data) had answered films with a genre
        topic, tfields = "game", GAME_TOPIC
    if topic in ("price", "chain") and e.name in TOKEN_NOUNS and named & TOKEN_INFO_WORDS \
            and not {singular(w) for t in e.texts for w in words(t)} & PRICE_WORDS:  # "a token's price and volume" is a quote
        # `get_token_info`, `getCryptoMetadata`: what a token is (decimals, supply, contract), not a quote of it
        topic, tfields = "token", TOKEN_TOPIC
    if e.name == "thought" and e.owned:
        topic, tfields = "thought", []  # an entry of the agent's own reasoning: the fields it sent, nothing made up
    if e.name == PRICE_HISTORY:
        topic, tfields = PRICE_HISTORY, FINANCE_TOPICS[PRICE_HISTORY]  # bars over time, not one quote
    if e.name in ("status", "controller") and {singular(w) for t in e.texts for w in words(t)} & _SERVICE_STATUS \
            and all(set(words(t.split(" ", 1)[0])) & {"status", "alive", "health"} for t in e.texts):
        # "Get status information for ChEMBL Web Services", "Check if the API is alive": a service's own state
        # (up or degraded, its version), not a metric "Status 12" at 3,014.67 %
        topic, tfields = "health", TOPIC_FIELDS["health"]
    if e.name.endswith(STATISTICS) and not context & SPORTS_WORDS:
        topic, tfields = "metric", TOPIC_FIELDS["metric"]  # measures of the thing, in the service's own terms
    if e.name == "country":
        topic, tfields = "country", COUNTRY_TOPIC
    if e.name in CHARACTER_NOUNS or (named & CHARACTER_NOUNS and e.name in CHARACTER_VIEWS) \
            or (context & GAME_SERVICES and (e.name in ROSTER_NOUNS or (e.name in CHARACTER_VIEWS and named & ROSTER_NOUNS))):
        # OP.GG's champion tier list had been football clubs
        topic, tfields = f"game_character_{game_of(named, context)}", CHARACTER_TOPIC
    if e.name in MATCH_NOUNS and context & GAME_SERVICES and not e.owned:
        game = game_of(named, context)
        if game in MATCH_SIDES:  # OpenDota's matches had been calendar events in Denver, OP.GG's game history films
            topic = f"esports_match_{game}"
            tfields = TOPIC_FIELDS[topic]
    if e.name == "channel" and set(words(service)) & CHAT_SERVICES:
        topic, tfields = "chat_channel", CHANNEL_TOPIC  # Slack's channels had been films with a genre
    own_words = set(words(service))  # the service's own name; `context` adds its description
    if (own_words | context) & METEO_SERVICES and e.name in METEO_NOUNS and not e.owned:
        topic = f"meteo_{METEO_NOUNS[e.name]}"  # IPMA's warnings had been temperature readings, its stations hotels
        tfields = TOPIC_FIELDS[topic]
    if topic == "package" and not e.owned and any({"dataset", "datasets"} & set(words(t)) for t in e.texts):
        # "Search for packages (datasets) on Data.gov": an open-data portal's datasets, not code libraries with stars
        topic, tfields = "catalog_open_dataset", TOPIC_FIELDS["catalog_open_dataset"]
    if e.name == "request" and "network" in named and not e.owned:
        topic, tfields = "catalog_http_request", TOPIC_FIELDS["catalog_http_request"]  # a page's network requests, not documents
    if e.name in HISCORE_NOUNS and (own_words | context) & GAME_WORDS:
        topic, tfields = "hiscore", HISCORE_TOPIC  # RuneScape's top rankings had been football clubs in a league table
    elif e.name in HOT_LIST_NOUNS and (own_words | context) & HOT_LIST_WORDS and not context & SPORTS_WORDS:
        # a trends aggregator's rankings (Bilibili's video rank, Douban's hot list) are what is hot there,
        # headlines with their source: Trends Hub's `get_bilibili_rank` had answered a football league table
        topic, tfields = "news", TOPIC_FIELDS["news"]
    if chain == "solana" and e.name in SOLANA_TOPICS and not e.owned:
        topic, tfields = f"solana_{e.name}", SOLANA_TOPICS[e.name]  # a node's answers, not people, orders or emails
    catalog = catalog_of(own_words | context, e.name)
    if catalog is not None and not e.owned:
        topic, tfields = f"catalog_{catalog}", TOPIC_FIELDS[f"catalog_{catalog}"]  # SWAPI's planets, F1's circuits
    if "chembl" in own_words | context and e.name in CHEMBL_TOPICS and not e.owned:
        topic, tfields = f"chembl_{e.name}", CHEMBL_TOPICS[e.name]  # ChEMBL's assays had been documents "Assay 6, as recorded."
    if own_words & RESEARCH_SERVICES and e.name in RESEARCH_TOPICS:
        topic, tfields = f"research_{e.name}", RESEARCH_TOPICS[e.name]  # Papers with Code's research areas had been papers
    if e.name in ("exchange", "dex") and not e.owned:
        # a venue: a message broker's exchange, a crypto exchange or DEX, a stock exchange (no exchange rate)
        if context & {"rabbitmq", "amqp", "broker"} or {"rabbit", "mq"} <= context:
            topic, tfields = "broker_exchange", VENUE_TOPICS["broker_exchange"]
        elif chain or e.name == "dex" or context & {"crypto", "cryptocurrency", "coin", "coins", "coinmarketcap", "coinranking", "dex", "defi"}:
            topic, tfields = f"exchange_{e.name}", EXCHANGE_TOPICS[e.name]
        elif context & STOCK_CONTEXT:
            topic, tfields = "stock_exchange", VENUE_TOPICS["stock_exchange"]
    if e.name == "index" and not e.owned:
        if context & STOCK_CONTEXT:
            topic, tfields = "market_index", INDEX_TOPICS["market_index"]
        elif context & SEARCH_STORES:
            topic, tfields = "search_index", INDEX_TOPICS["search_index"]
    if own_words & EXCHANGE_SERVICES and e.name in EXCHANGE_TOPICS:
        topic, tfields = f"exchange_{e.name}", EXCHANGE_TOPICS[e.name]  # CCXT's trades had been stock quotes of companies
    if (own_words | context) & CLUSTER_SERVICES and e.name in CLUSTER_TOPICS and not e.owned:
        topic, tfields = f"cluster_{e.name}", CLUSTER_TOPICS[e.name]  # Kubernetes nodes had been metrics, contexts documents
    if (own_words | context) & LEDGER_SERVICES and e.name in LEDGER_TOPICS:
        topic, tfields = f"ledger_{e.name}", LEDGER_TOPICS[e.name]  # Xero's accounts had been people, its journals papers
    if own_words & GATEWAY_SERVICES and e.name in GATEWAY_TOPICS:
        topic, tfields = f"gateway_{e.name}", GATEWAY_TOPICS[e.name]  # Kong's routes match requests, no road
    if topic == "config" and e.name not in CONFIG_NOUNS and any(f.role == "data" and f.name not in ("name", "updated_at")
                                                                 for f in fields.values()):
        # Gmail's POP settings (`access_window`, `disposition`) are one settings object with its own fields,
        # not a generic setting: `update_pop` had answered `setting: timezone, value: Europe/Berlin`
        topic, tfields = "", [("updated_at", "datetime", {"type": "string"})]
    if topic == "assignment" and "role" in named:
        topic, tfields = "", []  # Azure's role assignments grant a role on a scope: no coursework due on a day
    if topic == "result" and searches_the_web(service, [t.split(" ", 1)[0] for t in e.texts]):
        topic = WEB_RESULT  # a web search engine's hits are pages of the web, about what was searched
    return topic, tfields


def _entity_plan(e: _Ent, service: str, prefixes: list[str], reversing_scope: bool = False,
                 chain: str = "", context: frozenset[str] = frozenset()) -> EntityPlan:
    fields: dict[str, FieldPlan] = {"id": FieldPlan(name="id", shape={"type": "string"}, sem=f"{service}.{e.name}_id", role="id")}
    for f in e.fields.values():
        if f.name == "id":
            continue
        fields[f.name] = f
    title_like = next((f for f in fields.values() if f.name in ("name", "title", "subject", "label", "filename", "path")), None)
    topic, tfields = _kind_of_records(e, service, fields, reversing_scope, chain, context)
    markup = _MARKUPS & set(words(e.name)) if topic == "webpage" else set()
    if markup:  # `fetch_html` answers the page's `html`, `fetch_markdown` its `markdown`
        tfields = [(markup.pop() if f == "content" else f, sem, shape) for f, sem, shape in tfields]
    # a record of the outside world takes its archetype's fields; one the service creates only a named
    # archetype's (a generic `description` and `value` would stay empty on every record it writes)
    if not e.owned or (len(fields) <= 2 and topic):
        for fname, sem, shape in tfields:
            if fname not in fields and len(fields) < 14:
                fields[fname] = FieldPlan(name=fname, shape=shape, sem=sem, role="data")
    for fname, sem, _ in tfields:
        # a field the spec declares without saying what it holds holds what its archetype's field does:
        # a company's `name` is a company's name, not "Company 4"; a person's `name` a person's
        f = fields.get(fname)
        if f is not None and f.sem is None and f.role == "data" and sem is not None:
            f.sem = sem
    if title_like is None and "name" not in fields and "title" not in fields and not e.itemized:
        fields["name"] = FieldPlan(name="name", shape={"type": "string"}, sem="title", role="title")
    statuses = list(e.status_enum or [])
    # a health check's `status` is the health it reports (healthy, green), not a lifecycle no tool moves;
    # so is a Kubernetes node's (Ready), a Job's (Complete) or an experiment's (completed) where no tool moves it
    if e.statuses or ("status" in fields and topic not in ("health", "experiment") and not topic.startswith("cluster_")):
        initial = [] if statuses else [_initial_status(e.statuses)]
        for s in initial + e.statuses:
            if s not in statuses:
                statuses.append(s)
        st = fields.get("status")
        if st is None:
            fields["status"] = FieldPlan(name="status", shape={"type": "string"}, sem="status", role="status")
        elif json_types(st.shape) in ([], ["string"]) and (not st.shape.get("enum") or set(statuses) <= set(st.shape["enum"])):
            st.role, st.sem = "status", "status"
        elif e.statuses:
            # the declared `status` holds something else (a number, a list): lifecycle states get their own field
            fields["workflow_status"] = FieldPlan(name="workflow_status", shape={"type": "string"}, sem="status", role="status")
        else:
            statuses = []
    for f in fields.values():
        if f.role == "ref" and f.sem is None and f.ref:
            f.sem = f"{service}.{f.ref}_id"
    if e.owned:
        fields.setdefault("created_at", FieldPlan(name="created_at", shape={"type": "string"}, sem="datetime", role="created"))
        fields.setdefault("updated_at", FieldPlan(name="updated_at", shape={"type": "string"}, sem="datetime", role="updated"))
    prefix = _prefix(e.name, prefixes)
    return EntityPlan(collection=plural(e.name) if not is_plural(e.name) else e.name, entity=e.name, prefix=prefix,
                      fields=list(fields.values()), world=not e.owned, statuses=statuses,
                      size=len(NETWORKS.get(chain) or NETWORKS["evm"]) if topic == "network" else 12 if not e.owned else 8,
                      topic=topic)  # one record per network of the chain, not the same network twice


def _initial_status(targets: list[str]) -> str:
    t = set(targets)
    if t & {"sent", "published", "submitted", "posted", "scheduled", "signed"}:
        return "draft"
    if t & {"approved", "rejected", "accepted", "declined", "confirmed", "paid", "refunded", "shipped", "fulfilled"}:
        return "pending"
    if t & {"closed", "resolved", "completed", "merged", "assigned", "escalated"}:
        return "open"
    if t & {"running"}:
        return "stopped"
    if t & {"enabled", "disabled"}:
        return "enabled"
    return "active"


def _prefix(entity: str, taken: list[str]) -> str:
    base = re.sub(r"[^a-z0-9]", "", entity)[:5] or "rec"
    if not base[0].isalpha():
        base = "r" + base[:4]
    cand, i = base, 2
    while cand in taken:
        cand = f"{base}{i}"
        i += 1
    return cand


# -- tool plans -------------------------------------------------------------------------------

_EDIT = re.compile(r"^(add|remove)_(\w+)$")


def _list_edits(infos: list[TInfo], ents: dict[str, _Ent]) -> None:
    """Gmail's `modify_message(id, addLabelIds, removeLabelIds)`: an update's `add_X` / `remove_X` adds
    values to or takes them out of the record's list `X`, which other tools read (`label_ids`). They are
    no fields of their own: a message had carried `add_label_ids` and kept its old labels."""
    for t in infos:
        e = ents.get(t.entity or "")
        if t.op != "update" or e is None:
            continue
        for p in t.params:
            m = _EDIT.match(p.snake)
            target = e.fields.get(m.group(2)) if m else None
            if m and target is not None and (target.shape.get("type") == "array" or "array" in (target.shape.get("type") or [])):
                t.edits[id(p)] = (m.group(1), m.group(2))
    edited = {p.snake for t in infos for p in t.params if id(p) in t.edits}
    for t in infos:  # the edits' own names stay fields only where another tool gives them as values
        if any(p.snake in edited and id(p) not in t.edits for p in t.params):
            edited -= {p.snake for p in t.params}
    for e in ents.values():
        for name in edited & set(e.fields):
            del e.fields[name]


def _tool_plan(t: TInfo, ents: dict[str, EntityPlan], service: str) -> ToolPlan:
    from compoworld.synthesis.shapes import output_schema

    e = ents.get(t.entity or "") if t.entity else None
    # a count of the service's own records filters them as their listing does; the outside world's
    # records (PubMed's, a company's staff) are more than the few seeded, so no count of them is known
    counting = t.counts and e is not None and not e.world and t.op in ("get", "list", "lookup")
    if counting:
        t.op = "list"
    params: list[ParamPlan] = []
    key_ids = {id(p): f for p, f in t.keys}
    ref_ids = {id(p): (f, r) for p, f, r in t.refs}
    for p in t.params:
        if id(p) in key_ids:
            params.append(ParamPlan(name=p.name, role="key", field=key_ids[id(p)], collection=e.collection if e else None, within=p.within))
            continue
        if id(p) in t.renames:
            params.append(ParamPlan(name=p.name, role="field", field=t.renames[id(p)], within=p.within))
            continue
        if p is t.items:
            params.append(ParamPlan(name=p.name, role="items"))
            continue
        if id(p) in t.edits:
            how, lst = t.edits[id(p)]
            ref = ref_ids.get(id(p))
            rc = ents.get(ref[1]) if ref else None
            params.append(ParamPlan(name=p.name, role=how, field=lst, collection=rc.collection if rc else None, within=p.within))  # type: ignore[arg-type]
            continue
        if id(p) in ref_ids:
            f, r = ref_ids[id(p)]
            rc = ents.get(r)
            params.append(ParamPlan(name=p.name, role="ref", field=f, collection=rc.collection if rc else None, within=p.within))
            continue
        params.append(ParamPlan(name=p.name, role=_param_role(t, p, e), within=p.within))
        pp = params[-1]
        if pp.role in ("field", "filter", "ref"):
            pp.field = p.snake
            if t.op == "create" and pp.role == "field" and _unique_on_create(p, t):
                pp.role = "key"  # a unique value: the create refuses one a record already has
        elif pp.role in ("min", "max"):
            rf = _range_field(p)
            pp.field = rf[1] if rf else None
            if e is not None and pp.field and e.field(pp.field) is None:
                alt = next((f.name for f in e.fields if f.name.startswith(pp.field) or f.name.endswith(pp.field)), None) or _when_field(pp.field, e)
                datey = p.sem in ("date", "datetime") or p.type == "string"
                pp.field = alt or ("created_at" if e.field("created_at") and datey else None)
            if pp.field is None:
                pp.role = "option"
    if t.op == "list" and e is not None and e.topic == "folder" and lists_a_directory(t.tool.name):
        for pp in params:  # `list_directory(path)` lists what lies in the path, not the record at it
            if pp.field == "path" and pp.role in ("filter", "key"):
                pp.role = "directory"
    if t.op == "update" and not any(pp.role in ("field", "ref", "items", "add", "remove") for pp in params) \
            and not (any(pp.role == "key" for pp in params) and _selects(t, params)):
        # nothing it is given is a value to set (Kong's `update_service()` with no arguments, Firestore's
        # `server_timestamp(documentPath, fields)`): an action on the record it names, logged, not an update
        # that refuses every call
        t.op, t.entity = "action", ACTION_KEY
        e = ents.setdefault(ACTION_KEY, action_entity())
        for pp in params:
            pp.role = "ref" if pp.role == "key" else "arg"
    schema = _annotated_input(t, e, service, ents)
    op: Op = "count" if counting else t.op  # type: ignore[assignment]
    if op == "get" and e is not None and e.world:
        op = "lookup"  # reading the outside world: unseen keys are derived, not "not found"
    if op in ("get", "lookup") and e is not None and e.topic == "config" and (e.entity in WHOLE_CONFIG or e.entity == "result") \
            and not any(pp.role == "key" for pp in params):
        op = "list"  # `get_config()`, `printEnv()`, `debug_mcp_config()`: the whole configuration, not one setting of it
    read_only = op in ("get", "list", "count", "lookup", "compute") or t.browser in ("read", "screenshot") or t.sql in ("read", "tables", "describe") \
        or (t.kv is not None and KV_COMMANDS[t.kv][1]) or (t.home is not None and HOME_COMMANDS[t.home]) \
        or (t.git is not None and GIT_COMMANDS[t.git]) or (t.tensor is not None and TENSOR_COMMANDS[t.tensor])
    plan = ToolPlan(name=t.exposed, original=t.tool.name, description=_description(t), input_schema=schema, output_schema={},
                    op=op, collection=e.collection if e else None, params=params, target_status=t.target, compute=t.compute,
                    read_only=read_only, destructive=op == "delete",
                    idempotent=op in ("get", "list", "count", "lookup", "compute", "update", "delete", "world_model") or read_only,
                    verb=t.verb or "", many=t.batch, browser=t.browser, sql=t.sql, kv=t.kv, home=t.home, git=t.git, tensor=t.tensor)
    plan.output_schema = output_schema(plan, e, service)
    return plan


# the last words of an argument that names the record a setter changes (`file_path`, `instance_id`)
SETTER_KEYS = frozenset({"id", "path", "key", "uuid", "uid", "slug", "address", "url", "uri"})
_ATTR_HEADS = {"content", "contents", "metadata", "meta", "frontmatter", "property", "properties", "attribute", "attributes",
               "section", "heading", "block", "body", "text", "data", "status", "state"}
_PART_OF = re.compile(r"\b(?:status|state|content|contents|metadata|properties|body|text) of (?:an?|the|one|this) (?:existing |given |specific )?([a-z]+)")


_UNIQUE = re.compile(r"\bunique\b", re.I)
_IDENTITY = frozenset({"identifier", "name", "slug", "key", "code", "username", "handle", "alias", "as", "uid"})


def _says_unique(p: PInfo, entity: str | None) -> bool:
    """`identifier: "Identifier of the project (unique)"`: a value no two records share, so a second
    create with it is refused (OpenProject had made two projects with one identifier). Only the new
    record's own identity: `add_documents(indexUid: "unique identifier of the index")` names another record."""
    if p.type not in ("string", "integer") or not _UNIQUE.search(str(p.schema.get("description") or "")):
        return False
    stem = [singular(w) for w in p.words[:-1]]
    return p.snake in _IDENTITY or (len(p.words) >= 2 and p.words[-1] in ("id", "uid", "name", "key") and bool(stem) and stem[-1] == entity)


# A file system holds one folder at a path: creating a second there is refused (`ensure_directory`
# returns the one there), never a duplicate (PowerShell's `ensure_directory` made two). Files are left to
# their verbs: a write replaces, an append or a create-or-update changes the file that is there.
PATH_IDENTITY = frozenset({"path", "dir_path", "dirpath", "directory_path", "folder_path", "dir", "directory"})
PATHED_ENTITIES = frozenset({"directory", "folder", "dir"})


def _unique_on_create(p: PInfo, t: TInfo) -> bool:
    return _says_unique(p, t.entity) or (p.required and p.snake in PATH_IDENTITY and t.entity in PATHED_ENTITIES)


def _nodes_are_entities(infos: list[TInfo]) -> None:
    """A knowledge graph (`create_entities`, `search_nodes`, `open_nodes`): its nodes are the
    entities it creates, not a second collection that never sees them."""
    if any(t.head == "entity" and t.op == "create" for t in infos):
        for t in infos:
            if t.head == "node":
                t.head = "entity"
            elif t.head == "graph" and t.op in ("get", "lookup", "list") and not any(p.required for p in t.params):
                t.head, t.op = "entity", "list"  # `read_graph()`: the whole graph is every entity it holds


# what the config archetype's generic records are: a setting, a variable, an option (not a named settings object)
CONFIG_NOUNS = frozenset(next(keys for name, keys, _ in TOPICS if name == "config"))


# Entities that are a whole configuration (Gmail's `vacation` settings are one record; a `config` is every setting)
WHOLE_CONFIG = frozenset({"config", "configuration", "env", "environment", "setting", "variable"})


_RECORD_OPS = ("create", "get", "list", "update", "delete", "transition", "lookup")


def _searches_find_the_services_records(infos: list[TInfo]) -> None:
    """`search(query)` in a service whose other tools are about issues (Jira) or files (Drive)
    searches those records. Named for no record, it answered generic hits of a collection of its
    own, which never saw what the service's writes made. The service's records are those most of
    its tools are about (at least two tools, and more than any other kind)."""
    counts = Counter(t.head for t in infos if t.head and t.head != "result" and t.head not in _ATTR_HEADS and not t.guessed
                     and t.op in _RECORD_OPS)
    ranked = counts.most_common(2)
    main = ranked[0][0] if ranked and ranked[0][1] >= 2 and (len(ranked) == 1 or ranked[1][1] < ranked[0][1]) else None
    for t in infos:
        if not (t.guessed and t.head == "result" and t.op in ("list", "lookup") and any(p.structural == "query" for p in t.params)):
            continue
        # what the description says it searches comes first ("Search the OSRS Wiki for pages")
        lead = {singular(w) for w in words(t.tool.description.split(".")[0])}
        said = [h for h in counts if h in lead]
        # a service with no other records: the kind of record its description names ("Search for files in Google Drive")
        kinds = sorted(lead & SEARCHED_RECORDS) if not counts else []
        found = max(said, key=lambda h: counts[h]) if said else main if main else kinds[0] if len(kinds) == 1 else None
        if found is not None:
            t.head, t.op = found, "list"


# Records a search finds that an archetype is about (files, tasks, issues, mails): "Search for files in Google Drive"
SEARCHED_RECORDS = frozenset({"file", "task", "issue", "ticket", "email", "message", "document", "note", "event", "contact",
                              "product", "repository", "video", "paper", "article", "book", "recipe", "song", "movie", "image"})


def _searches_list(infos: list[TInfo]) -> None:
    """`brave_web_search(query)`: a tool named for a search, given a query, lists what matches it; it is
    no lookup keyed by the query's text (that answered one record whatever the query)."""
    for t in infos:
        if t.op in ("get", "lookup") and t.vclass in ("", "get", "list") and "search" in words(t.tool.name) \
                and any(p.structural == "query" for p in t.params) \
                and not any(p.required and p.words and p.words[-1] in ID_SUFFIX for p in t.params):
            t.op = "list"


# Actions that leave a record of their noun behind: a built or pulled image is listed by `list_images`,
# an installed chart by `list_charts` (building a project or pulling a branch makes none).
MAKES = {"build": frozenset({"image"}), "pull": frozenset({"image"}),
         "install": frozenset({"component", "chart", "app", "package", "plugin", "extension", "block", "module"})}


# Tools an agent thinks with (`sequentialthinking`, `think`, `mentalmodel`, `structuredargumentation`): the
# servers keep what the agent sends as an entry of its reasoning and answer it back with its place in the
# history. They create an entry; they fetch nothing and change no record of the world.
_THINKING = re.compile(r"think|thought|reasoning|mentalmodel|argumentation|socratic|metacognit|decisionframework|designpattern|"
                       r"debuggingapproach|scientificmethod|brainstorm")


_MODEL_WORDS = frozenset({"deepseek", "llm", "gpt", "openai", "claude", "gemini", "r1"})


def _thinking_tools(infos: list[TInfo]) -> None:
    for t in infos:
        name = t.tool.name.lower()
        said = _name_verb(t.tokens)
        if not _THINKING.search(name) or (said and VERB_CLASS.get(said[0]) in ("get", "list", "delete")) \
                or t.op in ("compute", *STORE_OPS):
            continue  # `get_thoughts` lists the entries, `clear_thoughts` removes them
        if not any(p.required and p.type in ("string", "object", "array") for p in t.params):
            continue  # what it would keep is not given
        if len(t.params) < 2 and not any("thought" in p.name.lower() for p in t.params):
            continue  # `reasoning(content)`, "the question that needs deep thinking": it answers, it keeps nothing
        if _MODEL_WORDS & {singular(w) for w in words(t.tool.description[:300])}:
            continue  # "Deep thinking with DeepSeek R1": a model answers, it keeps nothing
        t.op, t.head, t.guessed = "create", "thought", False


_PER_GROUP = re.compile(r"\b(?:for each|per|by)\s+(?:day|date|week|month|hour|line|type|category|status|user)\b", re.I)


def _counts(infos: list[TInfo]) -> None:
    """`count_documents(filter)`, `get_transaction_count()`, `getGroupsCount()`: a read named for the count
    of its records answers how many there are (those its listing would show), not one of them. A count
    of what a text holds (`count_syllables(text)`) is a computation, and a count for each day a report."""
    for t in infos:
        ws = t.tokens  # without the server's own words: `goalstory_count_goals` counts goals
        if not ws or "count" not in (ws[0], ws[-1]) or t.head is None or t.op not in ("get", "list", "lookup"):
            continue
        if _PER_GROUP.search(t.tool.description[:200]) or any(p.required and (p.snake in CONTENT_PARAMS or p.type == "object")
                                                               for p in t.params):
            continue
        t.counts = True


# engines whose indexes are stores of documents, not benchmarks or measures
SEARCH_STORES = frozenset({"elasticsearch", "elastic", "opensearch", "meilisearch", "typesense", "algolia", "solr", "lucene", "redis",
                           "redisearch", "mongodb", "mongo", "database", "pinecone", "qdrant", "weaviate", "milvus", "vespa"})
_SERVICE_STATUS = frozenset({"api", "server", "service", "alive", "web", "endpoint", "uptime"})
STATISTICS = "_statistic"  # the suffix of the entity of a read of something's statistics (collection `cluster_statistics`)
_STATISTICS_WORDS = frozenset({"stats", "statistics"})
_OWN_STATISTICS = STAT_NOUNS | ATHLETE_NOUNS | GAME_NOUNS | frozenset({"player", "hero", "team", "thought", "stat", "statistic", "metric"})


def _statistics(infos: list[TInfo]) -> None:
    """`get_cluster_stats()`, `get_database_statistics()`, `typesense_collection_stats(collection)`: the
    statistics of a thing are measures of it (documents, size, latency in the service's own terms), not
    the thing's record again (a cluster's name, host and region). A player's or a team's statistics
    keep their own archetype, and so do the statistics of what the service itself makes (a deck's
    statistics follow its cards: they read the deck)."""
    made = {t.head for t in infos if t.op == "create"}
    for t in infos:
        ws = words(t.tool.name)
        if ws and ws[-1] in _STATISTICS_WORDS and t.head and singular(t.head) not in _OWN_STATISTICS | _STATISTICS_WORDS \
                and t.head not in made and t.op in ("get", "list", "lookup"):
            t.head = f"{t.head}{STATISTICS}"


def _company_profiles(infos: list[TInfo]) -> None:
    """`web_data_linkedin_company_profile` beside `web_data_linkedin_person_profile`: a company's profile
    is a company's record, not one of the people the service's other profiles are."""
    for t in infos:
        if t.head == "profile" and {"company", "organization", "organisation"} & set(t.tokens):
            t.head = "company_profile"


# "Executes asynchronously and returns the feed identifier": what an action answers the id of, it made.
_RETURNS_ID = re.compile(r"\breturns? (?:the |a |an )?(?:new |created )?([a-z]+) (?:id|identifier)\b", re.I)


def _makes_records(infos: list[TInfo]) -> None:
    """`build_image(path, tag)` beside `list_images` and `remove_image`: the image it builds is one
    of the images the service lists, not a line in an action log. Graphlit's `ingestSlackMessages`,
    which "returns the feed identifier", makes one of the feeds `queryFeeds` lists."""
    kept = {t.head for t in infos if t.head and t.op in _RECORD_OPS}
    makes: dict[int, str] = {}
    for t in infos:
        if t.op != "action":
            continue
        said = _RETURNS_ID.search(t.tool.description)
        made = singular(said.group(1).lower()) if said else None
        if made in kept and made != t.head:
            makes[id(t)] = made
        elif t.head in kept and (t.head in MAKES.get(t.verb or "", ()) or made == t.head):
            t.op = "create"
    # the fields the made records have, as the service's own tools name them (read before any head moves)
    own = {made: {p.snake for u in infos if u.head == made and id(u) not in makes for p in u.params} for made in makes.values()}
    for t in infos:
        if id(t) in makes:
            t.op, t.head, t.guessed = "create", makes[id(t)], False
            _from_a_source(t, own[t.head])


def _from_a_source(t: TInfo, own: set[str]) -> None:
    """A record made from a source (a feed ingesting a Slack channel) keeps the fields its own tools
    name; the source's arguments (`channelName`, `readLimit`, `teamId`) are no fields of every feed.
    The source names the record where the records have names. Records no other tool describes
    (Graphlit's contents, made by `ingestText(name, text)`) are what the arguments say."""
    if not own - {"id"}:
        return
    named = "name" not in {p.snake for p in t.params} and "name" in own
    for p in t.params:
        if p.snake in own:
            continue
        if named and p.required and p.type == "string":
            t.renames[id(p)], named = "name", False
            continue
        p.structural = "option"


def _browser_session(infos: list[TInfo]) -> None:
    """A service that navigates to URLs and acts on the page (Playwright, Puppeteer) holds one browser
    session: its page tools (navigate, back, click, get the text, screenshot, close) act on it."""
    if not is_browser([(t.tool.name, [p.name for p in t.params]) for t in infos]):
        return
    for t in infos:
        kind = browser_kind(t.tool.name, [p.name for p in t.params])
        if kind is not None:
            t.op, t.browser, t.head = "browser", kind, None


def _sql_database(infos: list[TInfo]) -> None:
    """A service whose tools run SQL statements (`read_query(query)`, `execute_sql(sql)`) holds one
    database: those tools run on it, and its `list_tables` and `describe_table` read its tables."""
    kinds = {id(t): sql_kind(t.tool.name, t.tool.description or "", t.tool.input_schema.get("properties") or {}) for t in infos}
    if not any(kinds.values()):
        return
    for t in infos:
        props = t.tool.input_schema.get("properties") or {}
        kind = kinds[id(t)] or catalog_kind(t.tool.name, props)
        if kind is None:
            continue
        t.op, t.sql, t.head = "sql", kind, None
        stmt = statement_param(t.tool.name, t.tool.description or "", props)
        for p in t.params:  # what a statement parameter takes: samplers write statements of this kind
            if p.name == stmt:
                p.sem = "sql_write" if kind == "write" else "sql"


def _home_automation(infos: list[TInfo], server_words: set[str]) -> None:
    """A Home Assistant's tools (`get_entity`, `entity_action`, `domain_summary_tool`...) read and switch
    one home of devices (home.py): `entity_action` switches a light, it does not read a record."""
    if is_home(server_words, [t.tool.name for t in infos]):
        _run_commands(infos, "home", home_command, lambda cmd, props: next((k for k in props if snake(k) == "entity_id"), None),
                      HOME_ENTITY_SEM)


def _git_repository(infos: list[TInfo], server_words: set[str]) -> None:
    """A git client's tools (`git_status`, `git_add`, `git_commit`, `git_log`...) read and change one
    repository (git.py): `git_add` stages a file that `git_status` then shows, `git_commit` records it."""
    if is_git(server_words, [t.tool.name for t in infos]):
        _run_commands(infos, "git", git_command, repo_param, GIT_REPO_SEM)


def _kv_store(infos: list[TInfo]) -> None:
    """A service whose tools are a key-value store's commands (Redis' `set`, `hget`, `lpush`, `zadd`)
    holds one keyspace: those tools run their commands on it (kv.py)."""
    if is_kv_store([t.tool.name for t in infos]):
        _run_commands(infos, "kv", kv_command, key_param, KV_KEY_SEM)


def _tensor_store(infos: list[TInfo]) -> None:
    """A service whose tools create named tensors and compute with them (`create_tensor`, `add_matrices`,
    `determinant`) holds one store of tensors: those tools compute on it with NumPy (tensor.py). Every
    parameter naming a stored tensor (`name_a`, `name_b`) is sampled from the store's names."""
    if not is_tensor_store([t.tool.name for t in infos]):
        return
    for t in infos:
        cmd = tensor_command(t.tool.name)
        if cmd is None:
            continue
        t.op, t.head, t.tensor = "tensor", None, cmd
        named = set(tensor_name_params(t.tool.input_schema.get("properties") or {})) if cmd != "create_tensor" else set()
        for p in t.params:
            if p.name in named:
                p.sem = TENSOR_NAME_SEM


def _run_commands(infos: list[TInfo], op: Literal["kv", "home", "git"], command_of: Callable[[str], str | None],
                  key_of: Callable[[str, dict[str, Any]], str | None], key_sem: str) -> None:
    """Each tool a command names runs it on the service's one store (a keyspace, a home): its op is
    `op`, the command is kept in the tool's field of that name, and the parameter naming one of the
    store's keys is sampled from the keys the store holds."""
    for t in infos:
        cmd = command_of(t.tool.name)
        if cmd is None:
            continue
        t.op, t.head = op, None
        setattr(t, op, cmd)
        key = key_of(cmd, t.tool.input_schema.get("properties") or {})
        for p in t.params:
            if p.name == key:
                p.sem = key_sem


# what a chat sends (WAHA's `sendImage`, `sendLocation`, WeCom's `send_text`): a message of that kind
MESSAGE_KINDS = frozenset({"text", "image", "file", "voice", "video", "audio", "button", "buttons", "poll", "location", "link", "vcard",
                           "contact", "sticker", "document", "media", "photo", "gif", "animation", "reply"})
CHAT_WORDS = frozenset({"whatsapp", "waha", "telegram", "tg", "wechat", "wework", "lark", "feishu", "ding", "dingtalk", "slack", "discord",
                        "sms", "signal", "chat", "chatting", "messenger", "notify"})


def _sent_messages(infos: list[TInfo], server_words: set[str]) -> None:
    """`ChattingController_sendImage(chatId, file)`, `wework_send_text(content)`: a chat's send tools send
    messages of a kind, not records of an "image" or a "text" (WAHA's link previews and contact cards
    had been news stories, its locations places with a rating)."""
    chat = bool(server_words & CHAT_WORDS) or any(t.head == "message" for t in infos)
    for t in infos:
        if chat and t.verb == "send" and t.head in MESSAGE_KINDS and t.op in ("create", "transition") \
                and (server_words & CHAT_WORDS or set(t.tokens) & CHAT_WORDS or any(p.snake in ("chat_id", "chatid", "to", "recipient", "phone")
                                                                                  for p in t.params)):
            t.head = "message"


def _required(t: TInfo) -> set[str]:
    return {p.snake for p in t.params if p.required}


def _retarget_attribute_heads(infos: list[TInfo]) -> None:
    """`patch_content(filepath, ...)`: a tool named after a *part* of a record (its content, metadata,
    a section) acts on the record its key names (the file at `filepath`), when another tool of the
    service is about that record; it does not get a collection of "contents" of its own."""
    heads = {t.head for t in infos if t.head and t.head not in _ATTR_HEADS}
    for t in infos:
        if t.head not in _ATTR_HEADS or t.op in ("compute", "world_model", "action"):
            continue
        # a status is another record's only where the description says whose ("the status of a task"):
        # `git_status(repo_path)` is no lookup of a file
        named = _fallback_entity(t) if t.head not in ("status", "state") else None
        if named is None:
            said = _PART_OF.search((t.tool.description or "").lower())
            named = singular(said.group(1)) if said else None
        # `add_doc_block(doc_id, block_type, content)`: a part added under a record the caller names by
        # its id is a new part of that record, not a new record with an id that already exists
        adds_part = t.op == "create" and any(p.required and len(p.words) >= 2 and p.words[-1] in ("id", "uuid")
                                             and singular(p.words[-2]) == named for p in t.params)
        if named and named != t.head and named in heads and not adds_part:
            t.head = named
    # `set_function_prototype(function_address, prototype)`, `update_instance_name(instance_id, name)`:
    # a setter named for a record and one of its attributes changes that record, which its key names
    read_heads = {t.head for t in infos if t.head and t.op in ("get", "list", "lookup", "delete", "create")}
    for t in infos:
        if t.op != "update" or not t.head or t.head in read_heads:
            continue
        nouns = [singular(w) for w in t.tokens if w != t.verb and singular(w) != t.head]
        keyed = [singular(p.words[-2]) for p in t.params
                 if len(p.words) >= 2 and p.words[-1] in ("id", "address", "name", "key", "uuid") and singular(p.words[-2]) in nouns]
        owner = max((n for n in keyed if n in read_heads), key=nouns.index, default=None)
        if owner is None:
            # `set_title(file_path, title)` beside `get_frontmatter(file_path)`: a setter whose name names no
            # record changes the one that the service's reads look up by the same key argument
            given = {p.snake for p in t.params if p.required and p.words[-1] in SETTER_KEYS}
            owners = {r.head for r in infos if r.op in ("get", "lookup") and r.head in read_heads
                      and set() < _required(r) <= given}
            owner = owners.pop() if len(owners) == 1 else None
        if owner is not None:
            t.head = owner


def _scopes(t: TInfo, p: PInfo, e: EntityPlan | None) -> bool:
    """`delete_course_tag(course, tag)`: a required argument that is neither the key nor a reference
    to an owned collection, but a field of the entity that the tool's own name mentions (`course`),
    says *which* record (the tag of that course): it is a condition of the lookup, never ignored."""
    if e is None or not p.required or p.type not in ("string", "integer", "number") or p.structural is not None \
            or p.snake in CONTENT_PARAMS or p.snake in ("name", "title", "value", "status", "state"):
        return False
    f = e.field(p.snake)
    if f is None or f.role in ("id", "status", "created", "updated"):
        return False
    keyish = len(p.words) > 1 and p.words[-1] in ID_SUFFIX | NAME_SUFFIX
    stem = p.words[:-1] if keyish else p.words
    if not stem or singular(stem[-1]) == (t.entity or ""):
        return False
    # named in the tool's name (`course` of `delete_course_tag`), or a key-like field (`repo_path`, `project_id`)
    return singular(stem[-1]) in {singular(w) for w in t.tokens} or keyish


REPO_PARAMS = frozenset({"repo", "repository", "repo_name"})
REPO_COORDS = REPO_PARAMS | {"owner", "org", "organization"}


def _in_repository(t: TInfo, p: PInfo, e: EntityPlan | None) -> bool:
    """`get_issue(owner, repo, issue_number)`: the owner and the repository say in which repository the
    record is (issue 7 of one repository is not issue 7 of another); they were ignored as options."""
    return (e is not None and p.required and p.snake in REPO_COORDS and e.field(p.snake) is not None
            and not any(p is k for k, _ in t.keys) and any(q.snake in REPO_PARAMS for q in t.params))


# what a tool about a game's characters reads of them (`lol_brawl_champion_tier_rank`, `valorant_meta_characters`)
CHARACTER_VIEWS = frozenset({"rank", "ranking", "tier", "position", "analysis", "meta", "stat", "statistic"})
SETTING_WORDS = {"timeframe", "resolution", "granularity", "window", "interval"}


def _param_role(t: TInfo, p: PInfo, e: EntityPlan | None) -> str:
    if t.op == "list":
        if p.structural in ("limit", "offset", "page", "cursor", "sort", "order", "query", "option"):
            return p.structural
        if p.type == "object" or (p.type == "array" and main_type(p.schema.get("items") or {}) in ("object", "array")) or _search_option(p):
            return "option"  # filter documents, request envelopes, how to search: not a field to compare
        if p.snake in LIST_QUERY and p.type in ("string", None):
            return "query"
        if _range_field(p) is not None:
            return "min" if _range_field(p)[0] == "min" else "max"  # type: ignore[index]
        if set(p.words) & SETTING_WORDS or {"period", "length"} <= set(p.words):
            return "option"  # `getWilliams(symbol, periodLength, timeframe)`: how to compute, not which records
        return "filter" if e is not None and e.field(p.snake) is not None else "option"
    if t.op in ("create", "update", "transition"):
        if p.structural == "option":
            return "option"
        if t.op != "create" and p.within is None and _scopes(t, p, e):
            return "ref"  # `update_video_edit(project_id, ...)`: which project's edit, not a new project id
        return "field" if e is not None and e.field(p.snake) is not None else "option"
    if t.op in ("get", "delete", "lookup") and _in_repository(t, p, e):
        return "ref"
    if t.op in ("get", "delete"):
        return "ref" if _scopes(t, p, e) else "option"
    return "arg" if p.structural != "option" or t.op in ("compute", "world_model", "action") else "option"


def _description(t: TInfo) -> str:
    d = t.tool.description.strip() or f"{t.tool.name.replace('_', ' ').replace('-', ' ')}."
    if len(d) > 1024:
        d = d[:1021].rstrip() + "..."
    return d


def _annotated_input(t: TInfo, e: EntityPlan | None, service: str, ents: dict[str, EntityPlan]) -> dict[str, Any]:
    """The tool's input schema with semantic types on its parameters."""
    import copy

    schema = copy.deepcopy(t.tool.input_schema)
    props = schema.get("properties", {})
    key_ids = {p.name: f for p, f in t.keys}
    ref_ids = {p.name: r for p, f, r in t.refs}
    for p in t.params:
        sub = props.get(p.name)
        if not isinstance(sub, dict):
            continue
        sub = props[p.name] = dict(sub)  # its own copy: specs may share one schema object between parameters
        sem = p.sem
        if p.name in key_ids and key_ids[p.name] == "id" and e is not None:
            sem = f"{service}.{e.entity}_id"
        elif p.name in ref_ids:
            parent = ents.get(ref_ids[p.name])
            named = parent.field(p.snake) if parent is not None else None
            # a reference by the parent's own id carries its id type; one by a name or path keeps its meaning
            if named is not None and named.role in ("key", "seq"):
                sem = p.sem if p.sem not in ("query",) else None
            else:
                sem = f"{service}.{ref_ids[p.name]}_id" if p.type in ("string", "array", None) else None
        if sem and p.type == "array":
            items = sub.get("items")
            if isinstance(items, dict) and main_type(items) in ("string", None):
                sub["items"] = {**items}
                sub["items"].setdefault("x-semantic-type", sem)
            continue
        if sem:
            sub.setdefault("x-semantic-type", sem)
    return schema
