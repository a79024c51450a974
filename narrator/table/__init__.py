"""The table: the game loop that turns answers into saved events and cues into sound.

- `runner`: event → `game.advance` → save → play; resume and undo by replaying events;
- `store`: the saved game (fsynced `events.jsonl`, atomic `snapshot.json`, `meta.json`);
- `session`: one sitting's wiring (voice, output, clock, listeners, transcript) and `RunOptions`;
- `scheduler`: plays cues on absolute deadlines (`deadlines`), private rounds
  (`private_rounds`) and table commands (`commands`);
- `clock`, `turn_clock`: real/scaled/instant time, and Pagan's chess clock;
- `transcript`, `display`: what is written to the transcript and shown on the terminal.

The table uses the games (through `narrator.games`), inputs and sound; it never imports
phones, the appliance or the CLI.
"""
