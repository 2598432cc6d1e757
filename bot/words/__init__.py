"""The bot's words, once for every adapter: notices and help (text), rules and piece cards
(game_texts), ratings (rating_text), typed commands run and answered (commands_text),
durations (timetext) and the text board (textboard)."""
