# Board-side benchmark (run on a board or the virtual Pico with `mpremote run`): replay a game
# log (a header line, then one {"action", "digest"} per line) the way the board's table does:
# the rules in place, the entry's canonical texts and chained digest, the journal's flushed
# line on the board's flash, then the public view rendered into the LED frame through the
# current limiter (each stage as the board's firmware does it: mpboard.py's show(), the menu's
# screen on the new state, as the next key on that pad opens it). Prints one line per stage: median, p95 and max in microseconds of the
# board's own clock (on the virtual Pico: simulated time). LOG names the log on the board.
import gc
import sys
import time

sys.path.insert(0, "/lib")
import json

from firmware.board.leds import Scaler
from firmware.journal import Journal
from firmware.menu import Menu
from shared_rules import canon, engine, power, render

log = globals().get("LOG", "/game.jsonl")
f = open(log)
hdr = json.loads(f.readline())
game = hdr["game"]
g = engine.game_module(game)
match = engine.new_match(game, hdr["settings"], hdr["seed"], True)  # a recorded header
state = match["state"]
j = Journal("/bench", 16)
j.start({"format": match["format"], "game": game, "settings": match["settings"], "seed": hdr["seed"],
         "start": match["start"]})
match = None
try:
    with open("/hardware/layouts/" + game + ".json") as lf:
        layout = json.load(lf)
except OSError:
    layout = None
frame = bytearray(3 * (layout["leds"] if layout else 1))
tracks = render.plan(layout) if layout else None  # the board keeps the layout's plan
scale = Scaler(frame)
T = {"step": [], "journal": [], "menu": [], "view": [], "render": [], "limit": [], "total": []}
menu = Menu(g.legal, g.card_names)
bad = 0
peak = 0  # the heap in use right after an entry's work, before the next collect
us = time.ticks_us
diff = time.ticks_diff
for line in f:
    e = json.loads(line)
    line = None
    gc.collect()
    t0 = us()
    act, events, state = engine.decide(game, state, e["action"], True)
    a_txt, e_txt = canon.encode(act), canon.encode(events)
    digest = canon.chain(j.last, a_txt, e_txt)
    t1 = us()
    j.write(j.count, a_txt, e_txt, digest)
    tm = us()
    menu.start(state, act.get("seat"))  # the screen the next key on that pad opens on the new state
    menu.rest()
    t2 = us()
    tv = tr = t2
    if layout is not None:  # as firmware/board/mpboard.py's show()
        view = g.view(state, None, True)
        tv = us()
        scale.row.fill(0)  # the frame cleared in C, as the board clears it (render's dark=False)
        render.render(view, layout, frame, layout.get("level", 255), 0, False, tracks)
        tr = us()
        power.limit(frame, 500, scale=scale)
        view = None
    t3 = us()
    a = gc.mem_alloc()
    if a > peak:
        peak = a
    T["step"].append(diff(t1, t0))
    T["journal"].append(diff(tm, t1))
    T["menu"].append(diff(t2, tm))
    T["view"].append(diff(tv, t2))
    T["render"].append(diff(tr, tv))
    T["limit"].append(diff(t3, tr))
    T["total"].append(diff(t3, t0))
    if digest != e.get("digest", digest):
        bad += 1
    act = events = a_txt = e_txt = e = None
    if j.due():
        j.snapshot(state)
j.close()
for k in ("step", "journal", "menu", "view", "render", "limit", "total"):
    v = sorted(T[k])
    n = len(v)
    print("%s %s n %d median %d p95 %d max %d" % (game, k, n, v[n // 2], v[min(n - 1, n * 95 // 100)], v[-1]))
print("%s digests_differing %d heap_now %d heap_peak %d" % (game, bad, gc.mem_alloc(), peak))
