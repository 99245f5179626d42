"""Document conversion between Markdown, HTML and plain text (Pandoc's `convert-contents`): what a
converter given contents answers, computed, not a stored document that ignores its input.

Markdown renders with `markdown-it-py` (CommonMark); HTML reads back with the standard library's
parser. Formats that need a typesetter or a binary writer (PDF, DOCX, EPUB) are refused with a line
that names the formats this converter writes."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from typing import Any

from markdown_it import MarkdownIt

from compoworld.services.tool import ToolError

FORMATS = {"markdown": "markdown", "md": "markdown", "gfm": "markdown", "commonmark": "markdown", "html": "html", "htm": "html",
           "html5": "html", "text": "text", "txt": "text", "plain": "text", "plaintext": "text"}
WRITES = ("markdown", "html", "text")


def format_of(name: Any, default: str) -> str:
    """The canonical name of a format (`md` is Markdown, `txt` text); `default` when none is given."""
    if name is None or (isinstance(name, str) and not name.strip()):
        return default
    key = str(name).strip().lower().lstrip(".")
    if key not in FORMATS:
        raise ToolError(f"cannot convert {name!r}: this converter reads and writes {', '.join(WRITES)}")
    return FORMATS[key]


_INLINE = {"strong": "**", "b": "**", "em": "*", "i": "*", "code": "`"}  # Markdown's marks of HTML's inline tags


class _Html(HTMLParser):
    """HTML read as Markdown or as text: headings, paragraphs, lists, emphasis and links."""

    def __init__(self, markdown: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.markdown, self.out, self.href = markdown, [], ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("p", "div", "ul", "ol", "pre", "blockquote", "table", "tr") or re.fullmatch(r"h[1-6]", tag):
            self.out.append("\n\n")
        if not self.markdown:
            if tag == "li":
                self.out.append("\n- ")
            elif tag == "br":
                self.out.append("\n")
            return
        marks = {**_INLINE, "li": "\n- ", "br": "  \n"}
        if re.fullmatch(r"h[1-6]", tag):
            self.out.append("#" * int(tag[1]) + " ")
        elif tag == "a":
            self.href = dict(attrs).get("href") or ""
            self.out.append("[")
        elif tag in marks:
            self.out.append(marks[tag])

    def handle_endtag(self, tag: str) -> None:
        if self.markdown and tag in _INLINE:
            self.out.append(_INLINE[tag])
        elif self.markdown and tag == "a":
            self.out.append(f"]({self.href})")
        elif tag in ("p", "div", "pre", "blockquote") or re.fullmatch(r"h[1-6]", tag):
            self.out.append("\n\n")

    def handle_data(self, data: str) -> None:
        if data.strip() or "\n" not in data:  # the line breaks between tags are the markup's, not the text's
            self.out.append(data)

    def result(self) -> str:
        text = re.sub(r"[ \t]+\n", "\n", "".join(self.out))
        return re.sub(r"\n{3,}", "\n\n", text).strip()


def _from_html(source: str, markdown: bool) -> str:
    parser = _Html(markdown)
    parser.feed(source)
    parser.close()
    return parser.result()


def _paragraphs_html(text: str) -> str:
    return "\n".join(f"<p>{html.escape(p.strip())}</p>" for p in re.split(r"\n\s*\n", text) if p.strip())


def convert(source: str, src: str, dst: str) -> str:
    """`source`, written in format `src`, written in format `dst` (both canonical names)."""
    if src == dst:
        return source
    if src == "markdown":
        rendered = MarkdownIt("commonmark").render(source)
        return rendered if dst == "html" else _from_html(rendered, markdown=False)
    if src == "html":
        return _from_html(source, markdown=dst == "markdown")
    return _paragraphs_html(source) if dst == "html" else source  # plain text is already Markdown
