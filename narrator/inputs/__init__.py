"""Inputs: every way an answer reaches the game, each one a listener on one hub.

- `hub`: `ListenerHub`, where the first fitting answer to the open question wins, and the
  table commands (done, pause, repeat, undo);
- `words`: the answer words and their parsing, from the voice pack's vocabulary;
- `keyboard`, `button`, `scripted`, `private_script`: the terminal, a GPIO button, a
  scripted answers file, and scripted private answers;
- `voice/`: offline speech recognition (vosk).

Inputs know nothing of games, the game loop, phones or the CLI; they import only the
ground floor (`cues`, `errors`, `settings`) and, for voice, `sound` (engine registry).
"""
