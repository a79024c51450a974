"""A listening sample: the same lines by Open JTalk (ja) and by Kokoro (ja-natural), side by side.

Writes `<out>/NN-<line>-openjtalk.wav` and `<out>/NN-<line>-kokoro.wav` (processed exactly as
a game plays them: trimmed, normalized, 24 kHz mono), plus `<out>/both.wav`, where each line
is heard first from Open JTalk, then from Kokoro, with a second of silence between, and an
`index.txt` listing the words. A person listens; nothing is judged here.

Run: `.venv/bin/python bench/kokoro_listen.py [--out DIR] [--voice jf_alpha]` (a minute or two).
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

import _common  # noqa: F401  (puts the repository on sys.path)

from narrator.sound.clips import RATE, WIDTH, write_pcm
from narrator.sound.engines import load_tts
from narrator.sound.voice import EngineVoice
from narrator.sound.voicepack import load_pack

LINES = [
    ("night.begin", {"night": 1}),
    ("seer.wake", {}),
    ("seer.act", {}),
    ("tick", {"n": 10}),
    ("tick", {"n": 3}),
    ("private.call", {"name": "花子"}),
    ("nomination.declare_names", {"names": ["太郎", "美咲"]}),
    ("end.citizens_win", {}),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("bench-listen"))
    parser.add_argument("--voice", default=None, help="a Kokoro voice instead of the pack's (jm_kumo …)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    natural = load_pack("ja-natural")
    if args.voice:
        options = {**natural.engine_options, "kokoro": {**natural.engine_options["kokoro"], "voice": args.voice}}
        natural = dataclasses.replace(natural, engine_options=options)
    voices = [EngineVoice(load_pack("ja"), load_tts("openjtalk"), cache_dir=args.out / "cache"),
              EngineVoice(natural, load_tts("kokoro"), cache_dir=args.out / "cache")]
    gap = bytes(WIDTH * RATE)
    both, index = b"", []
    for i, (line, params) in enumerate(LINES, 1):
        for voice in voices:
            clip = voice.clip(line, params)
            write_pcm(args.out / f"{i:02d}-{line}-{voice.engine_name}.wav", clip.pcm)
            both += clip.pcm + gap
        index.append(f"{i:02d} {line}: {clip.spoken.text}")
        print(index[-1], flush=True)
    write_pcm(args.out / "both.wav", both)
    (args.out / "index.txt").write_text("\n".join(index) + "\n", encoding="utf-8")
    print(f"{args.out / 'both.wav'}: {len(both) / (WIDTH * RATE):.0f} s, each line Open JTalk then Kokoro")


if __name__ == "__main__":
    main()
