"""manifest.py read the way MicroPython's makemanifest.py reads it (read_manifest): the calls it
makes, with the `options` include() would pass. Used by tests/tools/test_manifest.py and
tests/rules/test_game_table.py."""

# the functions a manifest may call (docs: reference/manifest.html)
API = ("metadata", "include", "require", "package", "module", "freeze", "options", "add_library")


class Options:
    """The manifest's `options`: what include() passed, over its defaults() (makemanifest's IncludeOptions)."""

    def __init__(self, **given):
        self._given, self._defaults = given, {}

    def defaults(self, **values):
        self._defaults.update(values)

    def __getattr__(self, name):
        return self._given.get(name, self._defaults.get(name))


def read_manifest(path, **options):
    calls = []
    env = {name: (lambda name: lambda *a, **k: calls.append((name, a, k)))(name) for name in API}
    env["options"] = Options(**options)
    with open(path, encoding="utf-8") as f:
        exec(compile(f.read(), path, "exec"), env)
    return calls
