# Moves of several tiles in the private chat (ui/compose.py, ui/keyboards.py): the marks on the
# move buttons, and building a move of several doubles one press at a time. btn-* and err-*
# keys are plain text.

btn-compose = 🧩 Several doubles at once
btn-compose-play = ▶️ Play
btn-compose-cancel = ✖️ Cancel
err-compose-bad = That move cannot be built. Start again from the latest message.

## What the marks on the move buttons mean.
compose-legend-closed = { $mark } — lay the double face down: that end is closed.
compose-legend-along = { $mark } — lay the double along: it counts as a plain tile.
compose-legend-spinner = { $mark } — this double becomes the spinner, the centre of the cross.
compose-legend-build = 🧩 — build a move of several doubles, one at a time.

## A move being built one double at a time.
compose-title = 🧩 <b>A move of several doubles</b>
compose-chosen = Chosen: { $move }
compose-hint-first = Pick the first double (“+”).
compose-hint-add = Add another double on a free end (“+”).
compose-hint-play = The move is complete — press “Play”.
compose-hint-add-or-play = Add another double (“+”) or press “Play”.
