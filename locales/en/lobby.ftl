# The lobby, the rule summary and the settings.

lobby-title = <b>🐐 { $game } — taking seats</b>
lobby-players = Players ({ $count } of { $max }):
lobby-seat = { $seat }. { $name }
lobby-seat-bot = { $seat }. 🤖 { $name }
lobby-seat-empty = { $seat }. —
lobby-creator = Lobby opened by { $name }
lobby-rules = <b>Rules:</b>
lobby-hint = Press “Take a seat” to play. The player who opened the lobby or an admin can start; “Another game” changes the game.
lobby-expires = The lobby closes in { $minutes ->
    [one] { $minutes } minute
   *[other] { $minutes } minutes
} unless the game starts.
lobby-expired = ⌛ The lobby is closed: nobody started the game. New lobby: /newgame
lobby-cancelled = ✖️ The lobby was cancelled.
lobby-started = ▶️ The match has started! Tiles were sent privately.

## The chat's rules in short (RULES.md).
rules-title = <b>Rules: { $game }</b>
rules-teams = { $enabled ->
    [yes] Teams: seats 1 and 3 against 2 and 4
   *[no] Every player for themselves
}
rules-limit = { $race ->
    [yes] A race to { $limit ->
        [one] { $limit } point
       *[other] { $limit } points
    }; the first to reach it wins
   *[no] Match to { $limit ->
        [one] { $limit } point
       *[other] { $limit } points
    }; whoever reaches it is the { $variant ->
        [sea_goat] sea goat
        [donkey] donkey
       *[other] goat
    }
}
rules-fish-scoring = Fish: { $mode ->
    [each_own] everyone records their own hand
    [own_to_max] the highest hand records its own value
   *[all_to_max] the highest hand records all hands
}
rules-fish-without-double = Fish without the double: { $enabled ->
    [yes] yes
   *[no] no
}
rules-reserve = Boneyard: { $reserve ->
    [0] all tiles drawable
    [1] last tile kept back
   *[2] last two tiles kept back
}
rules-timeout = Time per move: { seconds }
rules-brief =
    <b>The game in short.</b> Everyone gets 7 tiles; the rest is the boneyard (bazar). The match's first lead is [1|1] (without it [2|2], [3|3] … [6|6], then [0|0]). Play a tile matching an open end of the chain; if you cannot, draw from the boneyard; if it is empty, knock.
    A round ends when someone goes out (plays their last tile) or in a fish: nobody can play.
    Points are the pips left in a hand. Until a score is open, rounds of 12 or less are remembered (+N); 13 or more open the score. Whoever reaches the limit after recording is the goat.

## Chat settings (buttons are plain text).
settings-title = <b>⚙️ Chat settings</b>
settings-hint = Changes apply from the next match.
settings-choose = <b>{ $option }</b> — choose a value:
settings-item = { $label }: { $value }
settings-teams = Teams
settings-fish-scoring = Fish scoring
settings-fish-without-double = Fish without double
settings-bazar-reserve = Boneyard
settings-match-limit = Match to
settings-turn-timeout = Time per move
settings-language = Language
settings-saved = Saved. It applies from the next match.
opt-teams = { $value ->
    [yes] Teams
   *[no] Every player for themselves
}
opt-fish-scoring = { $value ->
    [each_own] Each own
    [own_to_max] Own to the highest
   *[all_to_max] All to the highest
}
opt-yes-no = { $value ->
    [yes] Yes
   *[no] No
}
opt-bazar-reserve = { $value ->
    [0] All
    [1] All but one
   *[2] All but two
}
opt-seconds = { $value } s
