"""Incremental drawing updates: the edits that turn one SVG drawing into the next.

A board redraws its whole SVG in Python after every change, but a move usually changes a few
elements of it. Parsing a whole new 20-30 KB drawing in the browser costs more than the rest of a
click, so `diff` compares the old and the new drawing and lists only what changed; board.js applies
those edits to the drawing it shows. Nothing here knows a game: any well-formed SVG works, and
anything this module does not understand (comments, CDATA, a different root) gives None, meaning
"send the whole drawing".

An edit ("op") names an element by its path of element-child indices from the root, checks its tag
and how many element children it has before the change, then sets or removes attributes and
splices its children:

    {"at": [3, 0], "tag": "g", "n": 5, "attrs": {"class": "tile", "fill": None},
     "splices": [[index, how_many_to_remove, markup_to_insert_there, elements_in_it], ...]}

Ops come parent first, and the indices of an op are those after the ops before it were applied;
splices apply in order, each index counted after the splices before it. `apply_patch` is the
reference for what board.js does (the tests check both against the new drawing).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

# Above this share of the new drawing's size, a patch is not worth it: the whole drawing goes.
PATCH_MAX_SHARE = 0.75

# A tag: group 1 is "/" for a closing tag, 2 its name, 3 its attributes (quoted values may hold
# ">"). Whatever lies between two tags is text (a "<" there: a comment, CDATA...: not handled).
_TAG = re.compile(r"""<(/?)([A-Za-z][^\s/>]*)((?:[^>"']+|"[^"]*"|'[^']*')*)>""")
# Twice as quick, and right unless a quoted value holds ">" (checked: see _parse).
_TAG_QUICK = re.compile(r"<(/?)([A-Za-z][^\s/>]*)([^>]*)>")
_ATTR = re.compile(r"""([^\s=/>"']+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?""")
_IDENTITY = re.compile(r"""\s(?:data-key|id)\s*=\s*(?:"[^"]*"|'[^']*')""")
_TAG_NAME = re.compile(r"[^\s/>]*")
# An element changed that is bigger than this (characters), or has a data-key or id, is patched
# inside; smaller ones are replaced whole.
PATCH_INSIDE_SIZE = 1000
# ... unless its edits would carry more than this share of its markup: then it is replaced.
PATCH_INSIDE_SHARE = 0.6
# Attributes set from the front end by name alone: a namespaced one (xlink:href) or xmlns would
# not mean what the parser makes of it, so an element whose such attributes change is replaced.
_PLAIN_NAME = re.compile(r"[A-Za-z_][\w.-]*\Z")


class Element:
    """One element of a parsed drawing, as offsets into its source text."""

    __slots__ = ("tag", "start", "open_end", "end", "children", "has_text")

    def __init__(self, tag: str, start: int, open_end: int) -> None:
        self.tag = tag
        self.start = start
        self.open_end = open_end  # just after the opening tag
        self.end = open_end  # just after the closing tag
        self.children: list[Element] = []
        self.has_text = False  # holds text other than white space: patched only as a whole

    @property
    def container(self) -> bool:
        return not self.has_text


class Drawing:
    """A parsed SVG drawing: its source text and its root element."""

    __slots__ = ("source", "root")

    def __init__(self, source: str, root: Element) -> None:
        self.source = source
        self.root = root

    def markup(self, element: Element) -> str:
        return self.source[element.start:element.end]

    def opening(self, element: Element) -> str:
        return self.source[element.start:element.open_end]

    def identity(self, element: Element) -> str:
        """What makes an element the same one in two drawings: its tag, and its data-key or id
        when it has one."""
        found = _IDENTITY.search(self.source, element.start, element.open_end)
        return f"{element.tag} {found.group(0) if found else ''}"


def parse(source: str) -> Drawing | None:
    """The drawing's element tree, or None if it is not a single well-formed element tree of the
    kind this module patches (white space around the root is allowed)."""
    try:
        return _parse(source, _TAG_QUICK)
    except _QuotedBracket:
        return _parse(source, _TAG)


class _QuotedBracket(Exception):
    """A quoted attribute value holds ">": the quick tag pattern cuts such a tag short."""


def _parse(source: str, pattern: re.Pattern[str]) -> Drawing | None:
    quick = pattern is _TAG_QUICK
    stack: list[Element] = []
    root: Element | None = None
    last = 0  # where the text before the next tag starts
    for token in pattern.finditer(source):
        start = token.start()
        if start > last and not source[last:start].isspace():
            if not stack or "<" in source[last:start]:
                return None  # text outside the root, or a comment, CDATA, doctype...
            stack[-1].has_text = True
        last = token.end()
        closing, tag, rest = token.groups()
        if quick and ("'" in rest or rest.count('"') % 2):
            # A quoted ">" leaves a quote unpaired; with both kinds of quote, check the tag.
            if ('"' not in rest and rest.count("'") % 2) or rest.count('"') % 2 or (
                    '"' in rest and _TAG.match(source, start).end() != last):  # type: ignore[union-attr]
                raise _QuotedBracket
        if closing:
            if not stack or stack[-1].tag != tag or rest.strip():
                return None
            stack.pop().end = last
        elif stack:
            element = Element(tag, start, last)
            stack[-1].children.append(element)
            if not rest.endswith("/"):
                stack.append(element)
        elif root is None:
            root = element = Element(tag, start, last)
            if not rest.endswith("/"):
                stack.append(element)
        else:
            return None  # a second root
    if stack or root is None or (last < len(source) and not source[last:].isspace()):
        return None
    return Drawing(source, root)


def attributes(opening: str) -> dict[str, str] | None:
    """The attributes of an opening tag, values unescaped; None if one is given twice."""
    inside = opening[1:-1].rstrip("/")
    pairs = _ATTR.findall(inside, _TAG_NAME.match(inside).end())  # type: ignore[union-attr]
    found = {name: _unquote(value) for name, value in pairs}
    return found if len(found) == len(pairs) else None


def _unquote(value: str) -> str:
    if value[:1] in ("'", '"'):
        value = value[1:-1]
    return html.unescape(value) if "&" in value else value


def _attribute_changes(old: dict[str, str], new: dict[str, str]) -> dict[str, str | None] | None:
    changes: dict[str, str | None] = {k: v for k, v in new.items() if old.get(k) != v}
    changes.update({k: None for k in old if k not in new})
    if any(not _PLAIN_NAME.match(name) or name.startswith("xmlns") for name in changes):
        return None
    return changes


class _Differ:
    def __init__(self, old: Drawing, new: Drawing) -> None:
        self.old, self.new = old, new
        self.ops: list[dict[str, Any]] = []
        self.size = 0  # characters of markup and attribute values the patch carries

    def node(self, old: Element, new: Element, path: list[int]) -> bool:
        """Append the ops that turn `old` into `new` (kept in place); False if it cannot be."""
        if old.tag != new.tag or not (old.container and new.container):
            return False
        changes = None
        old_open, new_open = self.old.opening(old), self.new.opening(new)
        if old_open != new_open:
            before, after = attributes(old_open), attributes(new_open)
            if before is None or after is None:
                return False
            changes = _attribute_changes(before, after)
            if changes is None:
                return False
            self.size += sum(len(k) + len(v or "") for k, v in changes.items())
        op: dict[str, Any] = {"at": path, "tag": old.tag, "n": len(old.children)}
        place = len(self.ops)
        self.ops.append(op)  # before its children's ops: they count on its splices
        if changes:
            op["attrs"] = changes
        splices = self.children(old.children, new.children, path)
        if splices:
            op["splices"] = splices
        if not changes and not splices:
            del self.ops[place]
        return True

    def children(self, old: list[Element], new: list[Element], path: list[int]) -> list[list]:
        old_markup = [self.old.markup(e) for e in old]
        new_markup = [self.new.markup(e) for e in new]
        splices: list[list] = []  # [index, how many to remove, markup, how many it inserts]

        def splice(index: int, remove: int, first: int, last: int) -> None:
            markup = "".join(new_markup[first:last])
            self.size += len(markup)
            last_splice = splices[-1] if splices else None
            if last_splice and last_splice[0] + last_splice[3] == index:
                last_splice[1] += remove
                last_splice[2] += markup
                last_splice[3] += last - first
            else:
                splices.append([index, remove, markup, last - first])

        def pair(i: int, j: int) -> None:
            # Patch a big element, or one a person clicks or focuses (it keeps its focus), in
            # place when it is the same kind of element and most of it stays; replace the
            # others: that costs less to find, and hardly more to send and draw.
            mark, size = len(self.ops), self.size
            length = new[j].end - new[j].start
            if ((length > PATCH_INSIDE_SIZE
                 or _IDENTITY.search(self.new.source, new[j].start, new[j].open_end))
                    and self.node(old[i], new[j], path + [j])
                    and self.size - size < PATCH_INSIDE_SHARE * length):
                return
            del self.ops[mark:]
            self.size = size
            splice(j, 1, j, j + 1)

        if len(old_markup) == len(new_markup):
            changed = [i for i, (a, b) in enumerate(zip(old_markup, new_markup)) if a != b]
            if len(changed) <= max(2, len(old) // 10):  # the common case, and the cheap one
                for i in changed:
                    pair(i, i)
                return splices
        matcher = SequenceMatcher(None, old_markup, new_markup, autojunk=False)
        for kind, i1, i2, j1, j2 in matcher.get_opcodes():
            if kind == "equal":
                continue
            if kind == "replace" and i2 - i1 == j2 - j1:
                for k in range(i2 - i1):
                    pair(i1 + k, j1 + k)
            elif kind == "replace":
                # Elements came and went among changed ones: pair those that are the same
                # element by their identity (tag and data-key or id), splice the rest.
                by_identity = SequenceMatcher(
                    None, [self.old.identity(e) for e in old[i1:i2]],
                    [self.new.identity(e) for e in new[j1:j2]], autojunk=False)
                for kind2, a1, a2, b1, b2 in by_identity.get_opcodes():
                    if kind2 == "equal":
                        for k in range(a2 - a1):
                            pair(i1 + a1 + k, j1 + b1 + k)
                    else:
                        splice(j1 + b1, a2 - a1, j1 + b1, j1 + b2)
            else:
                splice(j1, i2 - i1, j1, j2)
        return splices


def diff(old: Drawing | None, new: Drawing | None) -> list[dict[str, Any]] | None:
    """The ops turning drawing `old` into `new`, or None when the whole new drawing should be
    sent instead (either could not be parsed, the root differs, or the patch would be big)."""
    if old is None or new is None:
        return None
    differ = _Differ(old, new)
    if not differ.node(old.root, new.root, []):
        return None
    if differ.size > PATCH_MAX_SHARE * len(new.source):
        return None
    return differ.ops


# -- the reference application (what board.js does), for tests and tools -----------------------
@dataclass
class Node:
    """A plain element tree: the form in which two drawings are compared."""

    tag: str
    attrs: dict[str, str]
    children: list[Node]
    text: str | None = None  # the inner markup of an element holding text, kept whole

    def canonical(self) -> Any:
        """Attribute order and white space between elements do not matter to a drawing."""
        return (self.tag, sorted(self.attrs.items()), self.text,
                [child.canonical() for child in self.children])


class PatchError(ValueError):
    """A patch does not fit the drawing it is applied to."""


def tree(source: str) -> Node:
    """The plain element tree of an SVG text (ValueError if it cannot be parsed)."""
    drawing = parse(source)
    if drawing is None:
        raise ValueError("not a drawing this module can parse")
    return _node(drawing, drawing.root)


def _node(drawing: Drawing, element: Element) -> Node:
    attrs = attributes(drawing.opening(element))
    if attrs is None:
        raise ValueError(f"an attribute is given twice in {drawing.opening(element)[:80]}")
    if element.has_text:
        close = drawing.source.rindex("<", element.open_end, element.end)
        return Node(element.tag, attrs, [], drawing.source[element.open_end:close])
    return Node(element.tag, attrs, [_node(drawing, child) for child in element.children])


def apply_patch(source: str, ops: list[dict[str, Any]]) -> Node:
    """The tree of drawing `source` after `ops`; PatchError if they do not fit it."""
    root = tree(source)
    for op in ops:
        node = root
        for index in op["at"]:
            if not 0 <= index < len(node.children):
                raise PatchError(f"no element at {op['at']}")
            node = node.children[index]
        if node.tag != op["tag"] or len(node.children) != op["n"]:
            raise PatchError(f"the element at {op['at']} is not the one the patch was made for")
        for name, value in op.get("attrs", {}).items():
            if value is None:
                node.attrs.pop(name, None)
            else:
                node.attrs[name] = value
        for index, remove, markup, count in op.get("splices", []):
            if index + remove > len(node.children):
                raise PatchError(f"a splice beyond the children of {op['at']}")
            inserted = tree(f"<g>{markup}</g>").children if markup else []
            if len(inserted) != count:
                raise PatchError(f"a splice at {op['at']} inserts {len(inserted)}, not {count}")
            node.children[index:index + remove] = inserted
    return root
