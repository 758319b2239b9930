"""The bench's profiling build (tools/chip/stamps.py, `tools/bench_chip.py --stamps`): its stamps
still find their lines in the board's modules, the stamped modules compile, and its report
reads the board's STAMP lines. The build itself runs on the virtual Pico only in the bench."""

import pathlib
import sys

import paths
import pytest

ROOT = pathlib.Path(paths.ROOT)
sys.path.insert(0, str(ROOT / "tools" / "chip"))

import stamps  # noqa: E402


def test_every_stamp_finds_its_line_and_the_stamped_modules_compile():
    built = stamps.build()
    assert sorted(built) == ["lib/firmware/_stamps.mpy", "lib/firmware/board/mpboard.mpy",
                             "lib/firmware/table.mpy"]
    text = stamps.sources()
    # every stamp once on each path a press takes: the step at the press, and an entry computed ahead
    # (firmware/ahead.py), whose own stamps stand for the stages it has done before the press
    ahead = {4: 1, 5: 2, 6: 1, 7: 1, 8: 1, 9: 1, 10: 1, 11: 1, 12: 1}  # and the report clears T[5]
    for k in range(len(stamps.STAGES) + 1):
        assert sum(t.count("_S.T[%d] = " % k) for t in text.values()) == 1 + ahead.get(k, 0), k
    assert text["firmware/board/mpboard.py"].count("print('STAMP'") == 1


def test_a_moved_line_fails_the_build_by_name(monkeypatch):
    monkeypatch.setattr(stamps, "STAMPS", stamps.STAMPS + (("firmware/table.py", "no such line", 1, "after"),))
    with pytest.raises(stamps.AnchorMissing, match="no such line"):
        stamps.sources()


def test_the_report_is_each_stage_s_median():
    lines = ["STAMP " + " ".join(str(k * 10 + r) for k in range(12)) for r in (1, 5, 3)] + ["Traceback", "STAMP 1 2"]
    got, n = stamps.medians(lines)
    assert n == 3 and [s for s, _ in got] == list(stamps.STAGES)
    assert [us for _, us in got] == [k * 10 + 3 for k in range(12)]
