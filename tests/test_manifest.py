"""manifest.py, read the way MicroPython's makemanifest.py reads it: its calls, and that each
package it freezes is one (a folder with __init__.py beside the manifest)."""

import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# the functions a manifest may call (docs: reference/manifest.html)
API = ("metadata", "include", "require", "package", "module", "freeze", "options", "add_library")


def read_manifest(path):
    calls = []
    env = {name: (lambda name: lambda *a, **k: calls.append((name, a, k)))(name) for name in API}
    with open(path, encoding="utf-8") as f:
        exec(compile(f.read(), path, "exec"), env)
    return calls


def test_the_manifest_freezes_the_core_and_the_firmware():
    calls = read_manifest(os.path.join(ROOT, "manifest.py"))
    packages = [a[0] for name, a, k in calls if name == "package"]
    assert packages == ["shared_rules", "firmware"]
    for p in packages:
        assert os.path.isfile(os.path.join(ROOT, p, "__init__.py")), p
    assert ("include", ("$(PORT_DIR)/boards/manifest.py",), {}) in calls  # asyncio, neopixel: the port's own
    assert ("require", ("ssd1306",), {}) in calls


def test_reading_a_manifest_catches_a_package_that_is_not_there(tmp_path):
    bad = tmp_path / "manifest.py"
    bad.write_text('package("shared_rule")\n')
    packages = [a[0] for name, a, k in read_manifest(str(bad)) if name == "package"]
    assert not all(os.path.isfile(os.path.join(ROOT, p, "__init__.py")) for p in packages)
