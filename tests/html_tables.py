"""Read back what a view's panel shows: its tables as rows of text, and its text without markup.

The widget tests assert on the rows a view's plain function builds; this reader lets each view's one HTML test
check that the panel shows exactly those rows, without matching markup.
"""

from __future__ import annotations

from html.parser import HTMLParser

#: Tags that end a line of text: the reader puts a space where they open or close.
_BLOCKS = {"p", "div", "br", "li", "ul", "ol", "table", "tr", "td", "th", "pre", "svg", "text"}


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[list[dict[str, str]]] = []
        self.text: list[str] = []
        self._head: list[str] = []
        self._row: list[str] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag in _BLOCKS:
            self.text.append(" ")
        if tag == "table":
            self.tables.append([])
            self._head = []
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in _BLOCKS:
            self.text.append(" ")
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append("".join(self._cell))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            if not self._head:
                self._head = self._row
            else:
                self.tables[-1].append(dict(zip(self._head, self._row)))
            self._row = None

    def handle_data(self, data):
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)


def tables(html: str) -> list[list[dict[str, str]]]:
    """Every table in ``html`` as a list of rows, each a dict from column header to cell text (entities decoded)."""
    reader = _Reader()
    reader.feed(html)
    return reader.tables


def text(html: str) -> str:
    """The text of ``html`` without its tags, entities decoded, white space folded."""
    reader = _Reader()
    reader.feed(html)
    return " ".join("".join(reader.text).split())


def as_text(rows, columns=None) -> list[dict[str, str]]:
    """``rows`` as the panel shows them: every value turned to text, only ``columns`` kept (all when None)."""
    return [{c: str(row.get(c, "")) for c in (columns or row)} for row in rows]


def read_view(view, render, read):
    """``read(**values)`` for the view's current control values, once the panel is checked to show exactly
    ``render(**values)``: so a test asserts on what the plain function builds, and knows the panel shows it."""
    values = view.values()
    assert view.panel.value == render(**values), "the panel is not the render of the current controls"
    return read(**values)
