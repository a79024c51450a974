"""The Raspberry Pi appliance: the default table file, the service and its start command.

A Pi with a speaker in the middle of the table has no screen and often no keyboard. This
package makes that the first-class way to run the narrator: `table` keeps the table file
the service and `narrator play` read (`narrator config …`; `table_text` changes its keys with
the layout kept), `serve` is the service's start command
(`narrator serve`: greet, resume or start a game, chosen by button or voice), `unit`
writes and manages the systemd unit (`narrator service …`), `evening` says tonight's winners
when the table asks after a game, `natural_fill` renders the natural voice between games.
"""
