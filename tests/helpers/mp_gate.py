"""The gate's static check of a module's source (check_source): what would make it fail or differ
under MicroPython (imports it lacks, methods the unix port has not, floats, true division, syntax it
refuses, string tuples at module level). Used on shared_rules/ by tests/rules/test_micropython_gate.py,
and on firmware/ and hardware/checks/ by the board's and the tools' tests."""

import ast

from chancery.board import micropython as mp

# What the core may import besides itself: modules MicroPython has (see
# ../shared/micropython-notes.md). Kept tight on purpose; widen it knowingly.
# collections: OrderedDict, in every port; builtins: the same functions bound as a module's globals (canon.py)
ALLOWED_IMPORTS = {"binascii", "builtins", "collections", "gc", "json", "micropython", "struct", "sys"}
FORBIDDEN_IMPORTS = {"typing", "dataclasses", "enum", "abc", "functools", "itertools", "contextlib",
                     "__future__", "random"}
# Methods the MicroPython unix port lacks (checked by name, whatever the object).
MISSING_METHODS = {
    "ljust", "rjust", "center", "zfill", "title", "translate", "isalnum", "casefold", "removeprefix",
    "removesuffix", "expandtabs", "swapcase", "isidentifier", "isprintable", "format_map", "isascii",
    "capitalize", "bit_length", "bit_count", "as_integer_ratio", "hexdigest",
}
FORBIDDEN_KEYWORDS = {"sort_keys": "MicroPython's json.dumps has no sort_keys (use canon.encode)",
                      "indent": "MicroPython's json.dumps has no indent",
                      "flush": "print(flush=True) raises under MicroPython"}


def check_source(text, filename, package="shared_rules"):
    """Problems that would make this module fail or differ under MicroPython."""
    problems = []
    tree = ast.parse(text, filename)

    def bad(node, why):
        problems.append("%s:%d: %s" % (filename, getattr(node, "lineno", 0), why))

    def check_module(node, name):
        top = name.split(".")[0]
        if top == package:
            return
        if top in FORBIDDEN_IMPORTS:
            bad(node, "imports %s, which MicroPython does not have (or has differently)" % name)
        elif top not in ALLOWED_IMPORTS:
            bad(node, "imports %s, which is not in the allowed list %s" % (name, sorted(ALLOWED_IMPORTS)))

    for top in tree.body:  # module level: the constants a module keeps for as long as it is loaded
        if filename.rsplit("/", 1)[-1] in mp.HOST_ONLY:  # the host's words: never loaded by a board
            break
        if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for node in ast.walk(top):
            if isinstance(node, ast.Tuple) and len(node.elts) > 1 and all(
                    isinstance(e, ast.Constant) for e in node.elts) and any(
                    isinstance(e.value, str) for e in node.elts):
                bad(node, "a tuple of string constants at module level: MicroPython keeps each string "
                          "as an object of its own (about 60 bytes on a board); write tuple([...])")
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                check_module(node, alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:  # a relative import stays within the package
                check_module(node, node.module or "")
        elif isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg in FORBIDDEN_KEYWORDS:
                    bad(node, "keyword %s=: %s" % (kw.arg, FORBIDDEN_KEYWORDS[kw.arg]))
            if isinstance(node.func, ast.Name) and node.func.id in ("__import__", "exec", "eval", "compile"):
                bad(node, "%s(): imports and code must be static for .mpy/frozen builds" % node.func.id)
        elif isinstance(node, ast.Attribute) and node.attr in MISSING_METHODS:
            bad(node, ".%s is missing under MicroPython" % node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, (float, complex)):
            bad(node, "float constant %r: floats print and round differently" % node.value)
        elif isinstance(node, (ast.BinOp, ast.AugAssign)) and isinstance(node.op, ast.Div):
            bad(node, "true division / makes floats (use //)")
        elif isinstance(node, ast.ClassDef) and len(node.bases) > 1:
            bad(node, "multiple inheritance: MicroPython's MRO differs")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and node.args.posonlyargs:
            bad(node, "positional-only parameters are a SyntaxError under MicroPython")
        elif isinstance(node, ast.Dict) and None in node.keys:
            bad(node, "{**d} is a SyntaxError under MicroPython (dict(d), then update)")
        elif isinstance(node, (ast.List, ast.Tuple, ast.Set)) and not isinstance(getattr(node, "ctx", None), ast.Store) \
                and any(isinstance(e, ast.Starred) for e in node.elts):
            bad(node, "[*a, *b] is a SyntaxError under MicroPython (list(a) + list(b))")
        elif type(node).__name__ in ("Match", "TryStar"):
            bad(node, "%s statement is a SyntaxError under MicroPython" % type(node).__name__.lower())
    return problems
