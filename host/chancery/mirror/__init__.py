"""The mirror: a board, simulated (`chancery sim`), on the virtual Pico (`sim --chip`) or real
on USB (`chancery mirror`), shown and played on this screen. cli.py is the entry point;
app.py the full-screen app; chip.py what it reads from and presses on the virtual Pico's pins."""
