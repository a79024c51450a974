"""The werewolf-family rules kernel: any game of the family narrated from a game file.

A game file (TOML) names roles, the deal by player count, the night's calls with their
conditions, the day and the win rules, all from a closed vocabulary implemented once here
(`model` holds the vocabulary, `parse` reads and checks a file (`parse_variants` the words of
Japanese tables' variants: 猫又, 狂信者, 初日犠牲者 …), `engine` plays it (`calls` the night calls'
effects and rounds, `passed` the night when one device goes round the table, `variants` what
the variants' words do), `judge` decides deaths and wins,
`plans` prints the night plan and the graph and checks a file's scenarios, `game` hands it
over as a `Game`, `files` finds and loads the files, `lines` checks the lines they need,
`schema` writes the JSON Schema). The shipped games are files in `games/`; a table's own are in the
folder `game-files` of the narrator's home.
"""
