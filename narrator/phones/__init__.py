"""Phones as the table's private channel: a small web page served beside the narration.

`server.PhoneServer` runs an aiohttp app in the narration's own asyncio loop: each player
claims a seat and gets a random secret token in a cookie; the page shows that player alone
their cards, memos and private questions, and offers the answers the narrator asks for.
`seats` keeps the tokens, `views` decides what one player may see, `network` finds the
address to announce. The page itself is plain HTML, CSS and a little JavaScript (static/).
"""
