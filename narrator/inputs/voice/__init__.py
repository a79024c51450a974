"""Voice answers: the narrator hears answers and commands offline (vosk), and is hard to mishear.

- `grammar`: a small grammar per question from the voice pack's words and the players' names;
- `listener`: the listener thread (mute while speaking, confidence threshold, confirmation);
- `microphone`: the microphone, a WAV file, a scripted microphone;
- `models`: installing and finding recognition models (never during a game);
- `setup`: the table's listening keys, and opening the table's voice (the sitting starts it;
  the scheduler asks 「〇〇さんですね？」 back, `narrator/table/confirm.py`);
- `checks`: what `narrator doctor` reports about the model and the microphone.

The `narrator listen` and `narrator models` commands live in `narrator/cli/listen.py`.
"""
