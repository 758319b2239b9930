"""manifest.py, read the way MicroPython's makemanifest.py reads it: its calls, and that each
package it freezes is one (a folder with __init__.py beside the manifest)."""

import os

import paths
import pytest
from manifest_reader import read_manifest  # tests/helpers/manifest_reader.py: shared with the rules' tests

ROOT = paths.ROOT


def frozen(calls):
    """The files the manifest's package() and module() calls freeze, relative to it, with "/"."""
    out = []
    for name, a, k in calls:
        if name == "package":
            out += [a[0] + "/" + f for f in k["files"]]  # explicit: a package's every file would take the host's too
        elif name == "module":
            out.append(a[0])
    return sorted(out)


def test_the_manifest_freezes_the_core_and_the_firmware():
    calls = read_manifest(os.path.join(ROOT, "manifest.py"))
    packages = [a[0] for name, a, k in calls if name == "package"]
    assert packages == ["shared_rules", "firmware"]
    for p in packages:
        assert os.path.isfile(os.path.join(ROOT, p, "__init__.py")), p
    assert ("include", ("$(PORT_DIR)/boards/manifest.py",), {}) in calls  # asyncio, neopixel: the port's own
    assert not [c for c in calls if c[0] == "require"]  # the display is drawn with the port's framebuf
    assert {k.get("opt") for name, a, k in calls if name == "package"} == {3}  # as deploy's mpy-cross -O3


@pytest.mark.parametrize("backend", ["rp2", "esp32"])
def test_the_manifest_freezes_what_deploy_sends_that_board(backend):
    from chancery.deploy import modules

    files = frozen(read_manifest(os.path.join(ROOT, "manifest.py"), backend=backend))
    walk = modules.board_files(backend)
    assert files == walk, ("manifest.py's lists are not the board's modules (write them anew from the walk): "
                           "only in manifest.py %s, only in the walk %s"
                           % (sorted(set(files) - set(walk)), sorted(set(walk) - set(files))))
    for rel in files:
        assert os.path.isfile(os.path.join(ROOT, rel)), rel
    other = [b for b in modules.BACKENDS if b not in (backend, "sim")]  # sim: mpboard imports its helpers
    assert not [f for f in files if f.rsplit("/", 1)[-1][:-3] in other and "/board/" in f]


def test_the_manifest_refuses_a_backend_it_cannot_freeze():
    with pytest.raises(ValueError, match="backend must be one of"):
        read_manifest(os.path.join(ROOT, "manifest.py"), backend="circuitpy")


def test_reading_a_manifest_catches_a_package_that_is_not_there(tmp_path):
    bad = tmp_path / "manifest.py"
    bad.write_text('package("shared_rule")\n')
    packages = [a[0] for name, a, k in read_manifest(str(bad)) if name == "package"]
    assert not all(os.path.isfile(os.path.join(ROOT, p, "__init__.py")) for p in packages)
