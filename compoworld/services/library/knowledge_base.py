"""Knowledge base: help-center articles in categories, relevance-ranked search, publishing and reader feedback (support)."""

from __future__ import annotations

import re
from typing import Iterable, Literal

from typing_extensions import TypedDict

from compoworld.services import Collection, Service, ToolError, tool
from compoworld.services.fake import DataGen
from compoworld.services.library._search import page_by
from compoworld.services.library._types import (
    Category, DateTime, Email, Id, Limit, Offset, Page, Query, Text, Title,
)

ArticleId = Id("kb", "article")
CategoryId = Id("kb", "category")
ArticleStatus = Literal["draft", "published", "unpublished"]
MIN_BODY = 20  # characters: an article shorter than this is not worth publishing
_WORD = re.compile(r"[a-z0-9]+")
_TOKENS: dict[str, frozenset[str]] = {}


def tokens(text: str) -> frozenset[str]:
    """Lower-cased word set of a text, memoized: records are immutable, so their strings repeat across calls."""
    got = _TOKENS.get(text)
    if got is None:
        if len(_TOKENS) > 50_000:
            _TOKENS.clear()
        got = _TOKENS[text] = frozenset(_WORD.findall(text.lower()))
    return got


class KbCategory(TypedDict):
    id: CategoryId
    name: Category
    description: Text


class Article(TypedDict):
    id: ArticleId
    title: Title
    body: Text
    category_id: CategoryId | None
    tags: list[Category]
    status: ArticleStatus
    author_email: Email
    created_at: DateTime
    updated_at: DateTime
    published_at: DateTime | None
    helpful_count: int
    not_helpful_count: int


class ArticleHit(TypedDict):
    id: ArticleId
    title: Title
    category_id: CategoryId | None
    status: ArticleStatus
    score: float
    snippet: Text
    updated_at: DateTime


class Feedback(TypedDict):
    id: Id("kb", "feedback")
    article_id: ArticleId
    helpful: bool
    comment: Text
    email: Email | None
    created_at: DateTime


CATEGORIES = [("Billing", "Invoices, payments and refunds"), ("Account & Login", "Passwords, SSO and users"),
              ("Integrations", "Connectors and the API"), ("Getting Started", "First steps"),
              ("Security", "Security and compliance"), ("Policies", "Customer-facing policies")]


def _articles(gen: DataGen) -> list[tuple[str, str, str, list[str]]]:
    """(category, title, body, tags) for the seeded help center; numbers vary per seed."""
    w = gen.world
    p1, p2 = gen.sample(list(w.products), 2)
    return [
        ("Billing", "Refund policy", f"Customers can request a full refund within {gen.pick([14, 30, 45])} days of purchase. "
                                     "Refunds are paid to the original payment method within 5 business days.", ["refund", "billing"]),
        ("Billing", "How to update your billing address", "Go to Settings > Billing, edit the address and save. "
                                                          "The next invoice uses the new address.", ["billing", "invoice"]),
        ("Billing", "Understanding your invoice", f"Each invoice lists your plan, add-ons such as {p1[0]} (${p1[1]} each) "
                                                  f"and usage. Invoices are due within {gen.pick([15, 30])} days.", ["invoice"]),
        ("Account & Login", "How to reset your password", "Click 'Forgot password' on the sign-in page and follow the link "
                                                          "we email you. Links expire after 1 hour.", ["password", "login"]),
        ("Account & Login", "How to reset your SSO password", "SSO passwords are managed by your identity provider. "
                                                              "Ask your IT admin to reset it there.", ["password", "sso"]),
        ("Account & Login", "Adding seats and users", f"Admins can add users under Settings > Team. Each extra seat on the "
                                                      f"{p2[0]} costs ${p2[1]} per month.", ["seats", "users"]),
        ("Integrations", "Connecting the Data Connector", "Install the Data Connector, paste your API key and choose the "
                                                          "tables to sync. The first sync can take an hour.", ["integration", "sync"]),
        ("Integrations", "API rate limits", f"The API allows {gen.pick([60, 120, 600])} requests per minute per key. "
                                            "Requests over the limit get HTTP 429.", ["api"]),
        ("Getting Started", "Exporting your data", f"Use Reports > Export. CSV exports are limited to {gen.pick([50, 100])}k rows; "
                                                   "larger exports are emailed as a download link.", ["export", "csv"]),
        ("Security", "Two-factor authentication", "Enable 2FA under Profile > Security using any authenticator app.", ["security", "2fa"]),
        ("Policies", "Support hours and response times", f"Support is available {gen.pick(['8:00-18:00', '9:00-17:00'])} UTC on "
                                                         "business days. Urgent tickets get a first response within 1 hour.",
         ["support", "sla"]),
    ]


class KnowledgeBase(Service):
    name = "kb"
    domain = "support"
    description = "Help-center knowledge base: articles by category, relevance-ranked search, publishing workflow and feedback."
    # Feedback comes from whoever reads the article: customers and staff alike.
    roles = {"feedback": {"email": "correspondent"}}
    tables = {
        "categories": Collection(KbCategory, "category", "cat"),
        "articles": Collection(Article, "article", "art"),
        "feedback": Collection(Feedback, "feedback", "fb"),
    }

    def generate(self, gen: DataGen) -> dict[str, Iterable[dict]]:
        w = gen.world
        cats = [{"id": f"cat_{i + 1:04d}", "name": n, "description": d} for i, (n, d) in enumerate(CATEGORIES)]
        cat_id = {c["name"]: c["id"] for c in cats}
        writers = [p for p in w.employees if p.department == "Support"] or list(w.employees)
        articles: list[dict] = []
        used: set[str] = set()

        def article(cat: str | None, title: str, body: str, tags: list[str], status: str, updated: str) -> None:
            if title.lower() in used:
                return
            used.add(title.lower())
            created = gen.datetime(-500, -200)
            articles.append({"id": f"art_{len(articles) + 1:04d}", "title": title, "body": body,
                             "category_id": cat_id.get(cat) if cat else None, "tags": tags, "status": status,
                             "author_email": gen.pick(writers).email, "created_at": created, "updated_at": updated,
                             "published_at": updated if status == "published" else (created if status == "unpublished" else None),
                             "helpful_count": gen.int(0, 60), "not_helpful_count": gen.int(0, 15)})

        for cat, title, body, tags in _articles(gen):
            article(cat, title, body, tags, "published", gen.datetime(-60, -1))
            if gen.chance(0.35):  # the outdated version: unpublished, older, different numbers
                _, _, old_body, _ = next(a for a in _articles(gen) if a[1] == title)
                article(cat, f"{title} (2024)", old_body, tags, "unpublished", gen.datetime(-400, -200))
        for _ in range(gen.n(14)):  # long tail, some unfinished drafts
            t = gen.title()
            status = gen.pick(["published", "published", "draft"])
            article(gen.pick(CATEGORIES)[0] if gen.chance(0.8) else None, f"How to {t.lower()}",
                    "" if status == "draft" and gen.chance(0.5) else f"{gen.sentence()} {gen.sentence()} {gen.sentence()}",
                    [gen.words(1)], status, gen.datetime(-200, -1))
        feedback = []
        live = [a for a in articles if a["status"] == "published"]
        for _ in range(gen.n(15)):
            a, c = gen.pick(live), gen.contact()
            helpful = gen.chance(0.6)
            feedback.append({"id": f"fb_{len(feedback) + 1:04d}", "article_id": a["id"], "helpful": helpful,
                             "comment": "Thanks, that solved it." if helpful else f"This did not help: {gen.sentence()}",
                             "email": c.email if gen.chance(0.7) else None, "created_at": gen.datetime(-30, -1)})
        return {"categories": cats, "articles": articles, "feedback": feedback}

    # -- helpers -------------------------------------------------------------------------------
    def _title_free(self, title: str, ignore: str | None = None) -> None:
        low = title.strip().lower()
        clash = next((a for a in self.db["articles"] if a["title"].lower() == low and a["id"] != ignore), None)
        if clash is not None:
            raise ToolError(f"an article titled '{clash['title']}' already exists ({clash['id']}); titles must be unique")

    # -- categories ----------------------------------------------------------------------------
    @tool(read_only=True)
    def list_categories(self) -> list[KbCategory]:
        """List the article categories."""
        return list(self.db["categories"])

    @tool
    def create_category(self, name: Category, description: Text = "") -> KbCategory:
        """Create a category. Names are unique (case-insensitive).

        Args:
            name: Category name.
            description: What belongs in it.
        """
        if any(c["name"].lower() == name.lower() for c in self.db["categories"]):
            raise ToolError(f"a category named '{name}' already exists")
        return self.db["categories"].insert({"name": name, "description": description})

    # -- articles ------------------------------------------------------------------------------
    @tool(read_only=True)
    def search_articles(self, query: Query = "", category_id: CategoryId | None = None, tag: Category | None = None,
                        status: ArticleStatus | None = "published", limit: Limit = 10, offset: Offset = 0) -> Page[ArticleHit]:
        """Search articles ranked by relevance: query words in the title count most, then tags, then the body;
        shorter matching titles rank above longer look-alikes; ties go to the most helpful. Without a query, most recently updated first.

        Args:
            query: Words to look for.
            category_id: Only articles in this category.
            tag: Only articles with this tag.
            status: Only articles in this status (default published); null for all.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        words = tokens(query)
        phrase = query.strip().lower()
        hits = []
        for a in self.db["articles"]:
            if (status is not None and a["status"] != status) or (category_id is not None and a["category_id"] != category_id) \
                    or (tag is not None and tag not in a["tags"]):
                continue
            if words:
                title, body = tokens(a["title"]), tokens(a["body"])
                tagset = tokens(" ".join(a["tags"]))
                in_title = len(words & title)  # each query word: 3 in the title, 2 in the tags, 1 in the body
                score = 3.0 * in_title + 2.0 * len(words & tagset) + 1.0 * len(words & body)
                if score == 0:
                    continue
                if phrase and phrase in a["title"].lower():
                    score += 2.0
                if title:  # length normalisation: a title that is mostly the query beats a longer look-alike
                    score += in_title / len(title)
            else:
                score = 0.0
            hits.append((score, a))
        if words:
            out = page_by(hits, lambda h: (-h[0], h[1]["not_helpful_count"] - h[1]["helpful_count"]), limit, offset)
        else:
            out = page_by(hits, lambda h: h[1]["updated_at"], limit, offset, reverse=True)
        out["items"] = [{"id": a["id"], "title": a["title"], "category_id": a["category_id"], "status": a["status"],
                         "score": round(s, 3), "snippet": a["body"][:200], "updated_at": a["updated_at"]} for s, a in out["items"]]
        return out

    @tool(read_only=True)
    def get_article(self, article_id: ArticleId) -> Article:
        """Get one article with its full body.

        Args:
            article_id: The article's id.
        """
        return self.db["articles"].require(article_id)

    @tool
    def create_article(self, title: Title, author_email: Email, body: Text = "", category_id: CategoryId | None = None,
                       tags: list[Category] = []) -> Article:
        """Write a new article as a draft. Titles are unique (case-insensitive).

        Args:
            title: Article title.
            author_email: Address of the author.
            body: Article text (needed before publishing).
            category_id: Category to file it under.
            tags: Search tags.
        """
        self._title_free(title)
        if category_id is not None:
            self.db["categories"].require(category_id)
        now = self.now()
        return self.db["articles"].insert({"title": title.strip(), "body": body, "category_id": category_id, "tags": list(dict.fromkeys(tags)),
                                           "status": "draft", "author_email": author_email, "created_at": now, "updated_at": now,
                                           "published_at": None, "helpful_count": 0, "not_helpful_count": 0})

    @tool(idempotent=True)
    def update_article(self, article_id: ArticleId, title: Title | None = None, body: Text | None = None,
                       category_id: CategoryId | None = None, tags: list[Category] | None = None) -> Article:
        """Edit an article. Titles stay unique and a published article's body cannot be emptied.

        Args:
            article_id: The article.
            title: New title.
            body: New body (replaces the old).
            category_id: New category.
            tags: New tag list (replaces the old).
        """
        a = self.db["articles"].require(article_id)
        if title is not None:
            self._title_free(title, ignore=article_id)
        if category_id is not None:
            self.db["categories"].require(category_id)
        if body is not None and a["status"] == "published" and len(body.strip()) < MIN_BODY:
            raise ToolError(f"a published article needs a body of at least {MIN_BODY} characters; unpublish it first")
        changes = {k: v for k, v in {"title": title.strip() if title else None, "body": body, "category_id": category_id,
                                     "tags": None if tags is None else list(dict.fromkeys(tags))}.items() if v is not None}
        if not changes:
            raise ToolError("nothing to update: give title, body, category_id or tags")
        return self.db["articles"].update(article_id, **changes, updated_at=self.now())

    @tool
    def publish_article(self, article_id: ArticleId) -> Article:
        """Publish a draft or unpublished article. It needs a body of at least 20 characters and a category.

        Args:
            article_id: The article.
        """
        a = self.db["articles"].require(article_id)
        if a["status"] == "published":
            raise ToolError(f"article {article_id} is already published")
        if len(a["body"].strip()) < MIN_BODY:
            raise ToolError(f"article {article_id} has no body (or under {MIN_BODY} characters); write it with update_article first")
        if a["category_id"] is None:
            raise ToolError(f"article {article_id} has no category; set one with update_article first")
        now = self.now()
        return self.db["articles"].update(article_id, status="published", published_at=now, updated_at=now)

    @tool
    def unpublish_article(self, article_id: ArticleId) -> Article:
        """Take a published article off the help center (it keeps its content).

        Args:
            article_id: The article.
        """
        a = self.db["articles"].require(article_id)
        if a["status"] != "published":
            raise ToolError(f"article {article_id} is {a['status']}, not published")
        return self.db["articles"].update(article_id, status="unpublished", updated_at=self.now())

    @tool(destructive=True, idempotent=True)
    def delete_article(self, article_id: ArticleId) -> Article:
        """Delete an article and its feedback. Published articles must be unpublished first.

        Args:
            article_id: The article.
        """
        a = self.db["articles"].require(article_id)
        if a["status"] == "published":
            raise ToolError(f"article {article_id} is published; unpublish it before deleting")
        for fb in self.db["feedback"].find(article_id=article_id):
            self.db["feedback"].delete(fb["id"])
        return self.db["articles"].delete(article_id)

    # -- feedback ------------------------------------------------------------------------------
    @tool
    def submit_feedback(self, article_id: ArticleId, helpful: bool, comment: Text = "", email: Email | None = None) -> Feedback:
        """Record a reader's vote on a published article.

        Args:
            article_id: The article.
            helpful: Whether it helped.
            comment: Optional comment.
            email: The reader's address, if known.
        """
        a = self.db["articles"].require(article_id)
        if a["status"] != "published":
            raise ToolError(f"article {article_id} is not published; readers can only rate published articles")
        key = "helpful_count" if helpful else "not_helpful_count"
        self.db["articles"].update(article_id, **{key: a[key] + 1})
        return self.db["feedback"].insert({"article_id": article_id, "helpful": helpful, "comment": comment, "email": email,
                                           "created_at": self.now()})

    @tool(read_only=True)
    def list_feedback(self, article_id: ArticleId | None = None, helpful: bool | None = None, email: Email | None = None,
                      limit: Limit = 20, offset: Offset = 0) -> Page[Feedback]:
        """List reader feedback, newest first.

        Args:
            article_id: Only feedback on this article.
            helpful: Only positive (True) or negative (False) votes.
            email: Only feedback from this address.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        rows = [f for f in self.db["feedback"] if (article_id is None or f["article_id"] == article_id)
                and (helpful is None or f["helpful"] == helpful) and (email is None or f["email"] == email)]
        return page_by(rows, lambda f: f["created_at"], limit, offset, reverse=True)
