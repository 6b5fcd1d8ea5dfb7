# Labels of the table picture (ui/picture.py). Plain text, no HTML.

pic-round = Round { $round }
pic-round-of = Deal { $round } of { $deals }
pic-round-over = Round { $round } is over
pic-match-over = The match is over
pic-match-stopped = Match stopped
pic-stopped-by = Stopped by { $name } · no rating
pic-variant = { $variant ->
    [sea_goat] Sea goat
    [donkey] Donkey
    [chcv] ChChV
    [telephone] Telephone
    [muggins] Muggins
    [traditional] Traditional
    [sport] Sport domino
    [seven] Seven
    [general] General
    [mexican_train] Mexican Train
    [kolbasa] Kolbasa
   *[classic] Kozel
}
pic-teams = teams
pic-bazar = Boneyard: { $count }
pic-bazar-reserve = Boneyard: { $count } (+{ $reserve })
pic-pot = Pot: { $points }
pic-count = Count: { $count }
pic-scored = +{ $points } for the move
pic-turn = to play
pic-score = Score: { $score }
pic-bot = bot
pic-mark = { $mark }: { $count }
pic-left = Out of the match
pic-team = Team { $team }
pic-seat = Player { $seat }
pic-waiting = Waiting for the lead
pic-flag-fast = { $value ->
    [extra] Extraordinary lead
    [zero] Fast lead of [0|0]
   *[six] Fast lead of [6|6]
}
pic-flag-two_tiles = Two tiles a turn
pic-out = { $name } went out
pic-fish = Fish! Fisher: { $name }
pic-void = Dealt again: a fish does not count
pic-limit = { $name } reached the limit
pic-flag-general = General!
pic-hand-empty = empty
pic-play-points = Play points: +{ $points }
pic-goat = goat
pic-goat-donkey = donkey

# The /settings option: the group's table as a picture (with a caption) or as text.
settings-table = Table
opt-table = { $value ->
    [text] Text
   *[picture] Picture
}
