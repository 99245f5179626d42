"""Annotated types shared by the first-party services: each carries its semantic type."""

from __future__ import annotations

from typing import Annotated, Any, Generic, TypeVar

from typing_extensions import TypedDict

from pydantic import Field, StringConstraints

from compoworld.services.semantics import Sem, entity

Email = Annotated[str, Sem("email"), StringConstraints(pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$", max_length=254)]
PersonName = Annotated[str, Sem("person_name"), StringConstraints(min_length=1, max_length=120)]
CompanyName = Annotated[str, Sem("company_name"), StringConstraints(min_length=1, max_length=160)]
Date = Annotated[str, Sem("date"), StringConstraints(pattern=r"^\d{4}-\d{2}-\d{2}$")]
DateTime = Annotated[str, Sem("datetime"), StringConstraints(pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?Z?$")]
Money = Annotated[float, Sem("money"), Field(ge=0)]
Currency = Annotated[str, Sem("currency"), StringConstraints(pattern=r"^[A-Z]{3}$")]
Url = Annotated[str, Sem("url"), StringConstraints(pattern=r"^https?://\S+$")]
Phone = Annotated[str, Sem("phone"), StringConstraints(min_length=5, max_length=32)]
FilePath = Annotated[str, Sem("file_path"), StringConstraints(min_length=1, max_length=512)]
Text = Annotated[str, Sem("text"), StringConstraints(max_length=20000)]
Title = Annotated[str, Sem("title"), StringConstraints(min_length=1, max_length=300)]
Query = Annotated[str, Sem("query"), StringConstraints(max_length=300)]
Category = Annotated[str, Sem("category"), StringConstraints(min_length=1, max_length=80)]
Quantity = Annotated[int, Sem("quantity"), Field(ge=0)]
Percent = Annotated[float, Sem("percent"), Field(ge=0, le=100)]
City = Annotated[str, Sem("city")]
Country = Annotated[str, Sem("country")]
Limit = Annotated[int, Field(ge=1, le=100, description="Maximum number of results (1-100).")]
Offset = Annotated[int, Field(ge=0, description="Number of results to skip, for pagination.")]


def Id(service: str, entity_name: str) -> Any:
    """`Id("crm", "company")` -> a str annotated with semantic type `crm.company_id`."""
    return Annotated[str, entity(service, entity_name), StringConstraints(min_length=1, max_length=64)]


R = TypeVar("R")


class Page(TypedDict, Generic[R]):
    """A page of results: `Page[Company]`."""

    items: list[R]
    total: int
    next_offset: int | None


def page(rows: list[Any], limit: int, offset: int) -> dict[str, Any]:
    """One page of results with the total and where the next page starts."""
    chunk = rows[offset : offset + limit]
    nxt = offset + limit if offset + limit < len(rows) else None
    return {"items": chunk, "total": len(rows), "next_offset": nxt}


def matches(query: str | None, *fields: Any) -> bool:
    """Case-insensitive substring search over a record's text fields."""
    if not query:
        return True
    q = query.lower()
    for f in fields:
        if f is not None and q in str(f).lower():
            return True
    return False


# -- appended for the business services (invoicing, inventory, procurement, ...) --------------
Sku = Annotated[str, Sem("code"), StringConstraints(pattern=r"^[A-Z0-9][A-Z0-9-]{1,31}$")]
