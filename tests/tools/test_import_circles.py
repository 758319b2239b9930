"""No import circle in firmware/ (issue 42, part 1): the arrows run one way. Read from the sources
(every import statement, at the top or inside a function, since a lazy import is an arrow too).
The journal's package (issue 42, part 2) ended the last of them: a circle anywhere fails."""

import ast
import os

import paths

ROOT = paths.ROOT
def graph():
    mods = {}
    for folder, _, files in os.walk(os.path.join(ROOT, "firmware")):
        for f in files:
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(folder, f), ROOT)[:-3].replace(os.sep, ".")
                mods[rel[:-9] if rel.endswith(".__init__") else rel] = os.path.join(folder, f)
    edges = {}
    for m, path in mods.items():
        out = edges[m] = set()
        with open(path) as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                for a in node.names:
                    if node.module + "." + a.name in mods:
                        out.add(node.module + "." + a.name)
                    elif node.module in mods and node.module != m:
                        out.add(node.module)
            elif isinstance(node, ast.Import):
                out.update(a.name for a in node.names if a.name in mods)
    return edges


def circles(edges):
    """The strongly connected groups of more than one module (Tarjan)."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(group)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_no_import_circle_in_the_firmware():
    assert circles(graph()) == []


def test_the_check_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]


def reached(edges, start):
    """Every module `start` imports, directly or through others."""
    seen, todo = set(), [start]
    while todo:
        for w in edges[todo.pop()]:
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return seen


CLIENTS = ("firmware.link", "firmware.controls", "firmware.keys", "firmware.menus", "firmware.menu",
           "firmware.ahead", "firmware.keymap", "firmware.words", "firmware.ballot_keys")


def test_the_table_reaches_no_client_code():
    """The host's link and the pads' keys are clients of the table (firmware/link.py's Link and
    firmware/controls.py's Controls listen to it): the table's modules import none of their code,
    lazily or not (issue 42, part 1). The board layer composes them."""
    edges = graph()
    assert sorted(set(CLIENTS) & reached(edges, "firmware.table")) == []
    assert "firmware.link" in reached(edges, "firmware.board.sim")
    assert "firmware.controls" in reached(edges, "firmware.boot")
