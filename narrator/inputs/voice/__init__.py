"""Voice answers: the narrator hears answers and commands offline (vosk), and is hard to mishear.

- `grammar`: a small grammar per question from the voice pack's words and the players' names;
- `listener`: the listener thread (mute while speaking, confidence threshold, confirmation);
- `confirm`: 「〇〇さんですね？」 before a heard answer counts;
- `microphone`: the microphone, a WAV file, a scripted microphone;
- `models`: installing and finding recognition models (never during a game);
- `setup`: the table's listening keys, and wiring a listener into a sitting;
- `checks`: what `narrator doctor` reports about the model and the microphone.

The `narrator listen` and `narrator models` commands live in `narrator/cli/listen.py`.
"""
