"""Sound: everything between a cue's line name and the air.

- `voicepack`: loads voice packs (the words, readings and sounds of every line);
- `names`: how players' names are read (given readings; Latin letters as katakana, with
  `romaji`, the readings a romaji word may spell, and `japanese_names`, the name lists from
  Open JTalk's dictionary that tell a Japanese name from a Western one; `spelled_kana`, the
  rules for Western names where kanalizer has no wheel);
- `engines`: the TTS/STT engine contract and the entry-point registry of engines;
- `voice`: clips from an engine, a recording or text, and the render cache;
- `render_ahead`: which (line, params) a game can say, so they are rendered before play;
- `parallel`: rendering on every core (a pool of worker processes; `worker_tether`: each ends
  with its parent and holds none of its pipes); `progress`: its rate and time
  left at the terminal; `wait_notice`: the one spoken estimate when a game start waits;
- `fill_in`: a slow natural voice as far as it is rendered, its fallback engine for the rest;
- `clips`: trim, loudness-normalize, resample;
- `mixer`: one timeline, every clip on its sample, ambience ducked under speech;
- `outputs`: the speaker (sounddevice), the clocked null sink, the WAV recorder;
- `doctor`: what `narrator doctor` checks about engines, packs and the speaker.

Sound knows nothing of games, the game loop, phones or the CLI.
"""
