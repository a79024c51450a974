"""Phones as the table's private channel: a small web page served beside the narration.

`server.PhoneServer` runs an aiohttp app in the narration's own asyncio loop, with its parts:
`following` (the hub's changes and the private calls), `page_view` (what one phone shows),
`event_stream` (each page's live stream), `listening` (its socket) and `page_files` (both
pages' files and headers). The first
phone joins with the table code and, once the table confirms it, becomes the host screen
(`host`; `gate` keeps wrong codes from holding up anyone else's join), which shows each
seat's own code; a phone that gives its seat's code gets a random secret token in a cookie
(`seats`). The page shows that player alone their cards, memos and private questions
(`views`, `private`) and takes their answers (`answers`; public questions on the host
screen). `crypto` holds each seat's key (derived from its code on the phone too, never sent) and
seals what a seat's phone and the narrator say; `channel` is a seated phone's one sealed
door for its requests (and its decoys). `wire` pads every message to one size and reads
request bodies safely, `guard`
caps connections, times them out and keeps room for seated phones, `network` finds the address to announce (and the names a page answers to), `standings`
shows the table's history on the host screen after the game. On the appliance, between
games, `settings_page` serves the table's settings, and `carry` keeps its host screen the
host screen of each game and back. The handlers take what they use of their page as
Protocols (`serving`: `server` imports them, so they never import it). The page
itself is plain HTML, CSS and a little JavaScript (static/; tweetnacl-js and scrypt-js
vendored from npm with their licences).
"""
