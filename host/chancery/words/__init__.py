"""The games in words, for the other jobs: what people type (commands, cards, new_game) and
read (show, narrate), and each game's host-only parts found through the registry (describe).
No command of its own."""
