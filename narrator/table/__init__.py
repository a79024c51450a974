"""The table: the game loop that turns answers into saved events and cues into sound.

- `runner`: event → `game.advance` → save → play; resume and undo by replaying events;
- `store`: the saved game (fsynced `events.jsonl`, atomic `snapshot.json`, `meta.json`);
- `session`: one sitting's wiring (voice, output, clock, listeners, transcript) and `RunOptions`;
- `scheduler`: walks the cues and asks the questions, composed of parts with their own state:
  `timeline` (clock and cursor), `narration` (a clip said, shown, written down), `deadlines`
  (countdowns and timers on absolute deadlines), `private_rounds` and `commands` (repeat,
  pause, turn-clock alerts);
- `clock`, `turn_clock`: real/scaled/instant time (and the tests' manual clock), and a
  turn-based game's chess clock;
- `transcript`, `display`: what is written to the transcript and shown on the terminal.
- `history`, `standings`, `forget`: the table's history read from the finished saved games,
  added up per player (`narrator stats`), and a player taken out of it.

The table uses the games only through their contract (`narrator.games.contract.Game`),
inputs and sound; it never imports phones, the appliance or the CLI.
"""
