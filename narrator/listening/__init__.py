"""Listening: the narrator hears answers and commands offline, and is hard to mishear.

- `grammar`: a small grammar per question from the voice pack's words and the players' names;
- `voice`: the listener thread (mute while speaking, confidence threshold, confirmation);
- `confirm`: 「〇〇さんですね？」 before a heard answer counts;
- `sources`: microphone, WAV file, scripted microphone;
- `models`: installing and finding recognition models (never during a game);
- `setup`: table-file keys and wiring into a sitting; `commands`: `narrator listen`, `models`;
- `checks`: what `narrator doctor` reports about the model and the microphone.
"""
