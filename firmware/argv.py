"""The firmware's command line under the unix port: `micropython -m firmware.main --board sim ...`
(firmware/main.py's docstring lists the options). Apart from main.py because a board's own
main.py hands run() its options as a dict: this code would only sit in its heap.
"""


def options(argv):
    out = {"board": "sim", "data": "chancery-data", "game": "chancellors", "players": None, "seed": None,
           "settings": None, "dice": None}
    i = 0
    while i < len(argv):
        name = argv[i][2:]  # each option is "--" and a key of out
        if argv[i][:2] != "--" or name not in out or i + 1 >= len(argv):
            raise SystemExit("usage: firmware.main [--board B] [--data DIR] [--game G] [--players N] [--seed S] "
                             "[--settings JSON] [--dice JSON]")
        out[name] = argv[i + 1]
        i += 2
    for name in ("players", "seed"):
        if out[name] is not None:
            out[name] = int(out[name])
    for name in ("settings", "dice"):
        if isinstance(out[name], str):
            import json

            out[name] = json.loads(out[name])
    return out
