"""What a table hands the narrator, read: one typed value, the players' names, a small file.

A folder of its own on the ground floor (not a root module: the root keeps four shared ones),
importing only `errors` and `home`, so `settings.py` and every game's setup module read a
typed value the same way, and a bad one is one line naming the fix. `readers.py` reads one
value (whole numbers, numbers, yes/no, lists, counts, seconds) within the bounds that fit a
table; `names.py` decides which players' names a table may give; `files.py` reads a table's
small text files with a size bound.
"""
