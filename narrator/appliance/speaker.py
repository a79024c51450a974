"""The appliance's speaker: one missing at boot is a notice, not a reason to stop.

`narrator play` stops with one line when `audio = "device"` (or `audio_device`) names a speaker
that is not there: someone is at the terminal to plug it in. `narrator serve` has nobody there,
and an exit makes systemd restart it in silence for ever. So the service looks for the speaker
before it opens the sitting; when it is missing, the sitting plays on a silent clocked sink
(`audio = "null"`: timers keep their time, the phones and the host screen work), the journal
gets one line naming the fix, the host screen shows a notice (strings.json `no_speaker`), and
the device is tried again before each game: once it answers, that game has sound again and
the notice goes. The run saved with each game keeps the table's own choice (`device`), so a
resume elsewhere is not silenced by a speaker missing here.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Callable

from narrator.sound import outputs

if TYPE_CHECKING:  # the sitting's types; table.session is imported where a retry needs it
    from narrator.table.clock import Clock
    from narrator.table.session import RunOptions, Sitting


def missing(run: RunOptions) -> str | None:
    """Why the table's speaker cannot be used now (its one line), or None: it is there, or the
    table did not ask for one (`auto` falls back by itself; `null` and `none` need none)."""
    if run.audio != "device":
        return None
    try:
        outputs.resolve_device(outputs.import_sounddevice(), run.audio_device)
    except outputs.AudioUnavailable as err:
        return str(err)
    return None


class Speaker:
    """The speaker the table asked for, while the appliance plays without it."""

    def __init__(self, run: RunOptions, log: Callable[[str], None]):
        self.log = log
        self.problem = missing(run)
        """The missing speaker's line (None: there is one, or none was asked for)."""
        if self.problem:
            log(f"{self.problem}; playing on without sound (the phones and the host screen still work), "
                "and trying the speaker again before each game")

    def sitting_run(self, run: RunOptions) -> RunOptions:
        """The run the sitting opens with: a silent clocked sink while the speaker is missing."""
        return replace(run, audio="null") if self.problem else run

    def retry(self, run: RunOptions, sitting: Sitting, clock: Clock) -> bool:
        """Between games: when the missing speaker answers now, the sitting plays on it from the
        next line (its old silent output closed); True when it came back."""
        if not self.problem or missing(run) is not None:
            return False
        from narrator.table.session import open_audio

        try:
            output = open_audio(run, sitting.scheduler.voice, clock, lambda message: self.log(f"warning: {message}"))
        except outputs.AudioUnavailable as err:  # listed, but would not open: tried again next game
            self.log(f"{err}; still without sound")
            return False
        self.problem = None
        sitting.play_on(output)
        self.log("speaker found: the next game has sound")
        return True
