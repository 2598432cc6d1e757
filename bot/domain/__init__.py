"""What every layer of the bot shares: the refusals a player can be shown and the kinds the
database stores.

    errors  ``ServiceError`` and its kinds (``NotYourTurn``, ``IllegalMove``, ``StorageError``, ...):
            their ``str()`` is shown to the player as it is
    kinds   ``Side``, ``GameStatus``, ``ChallengeStatus`` (the stored strings) and ``Outcome``

May import: ``language.text`` (refusals are sentences said in the reader's language) and the
standard library.
"""
