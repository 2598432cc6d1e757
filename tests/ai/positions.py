"""Hand-made positions with a forced win, checked by brute force in the tests.

(game, VFEN, plies to the win, what kind of move wins: None for any).
"""

MATE_IN_ONE = [
    ("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "back rank"),
    ("grandducal", "6k5/5ppp4/12/12/12/12/12/R5K5 w - - 0 1", "back rank"),
    # the Wall slides along its rank to a10-b10: the King's three squares are all in its way
    ("ganymede", "k11/12/2W(E)W(W)8/12/12/12/12/12/12/12/12/11K w - - 0 1", "wall"),
    # the Cannon steps to a1 and hops the a2 Pawn: a13 is covered too
    ("gigachess2", "k13/2K11/14/14/14/14/14/14/14/14/14/14/P13/1C12 w - - 0 1", "cannon"),
    # the Cyclops runs over the a7 Pawn: a8/a9 facing the King
    ("superchess", "k9/10/10/p9/C(N)9/10/10/10/10/1R5K2 w - - 0 1", "cyclops"),
    # the Archer shoots the f5 Knight from f1: the k1 Bishop sees a10
    ("superchess", "kb8/p9/10/10/6p3/5n4/10/10/10/3K1A3B w - - 0 1", "shot"),
    # a Cannon dropped behind the e4 Pawn: the King's one square, e6, is covered
    ("kingqueen", "***pkp***/***3***/9/4P4/9/***3***/***K2*** w - - 0 1 hand=C;dropped=-", "drop"),
]

MATE_IN_TWO = [
    ("chess", "k7/8/2K5/8/8/8/8/7R w - - 0 1"),
    ("grandducal", "k11/12/2K9/12/12/12/12/11R w - - 0 1"),
    ("ganymede", "k11/12/2K9/12/12/12/12/12/12/12/12/11R w - - 0 1"),
    ("gigachess2", "k13/14/2K11/14/14/14/14/14/14/14/14/14/14/13R w - - 0 1"),
    ("superchess", "k9/10/2K7/10/10/10/10/10/10/9R w - - 0 1"),
    # Blue dropped last turn: a quiet move first, then the Cannon drop mates
    ("kingqueen", "***pkp***/***p1p***/9/4P4/9/***3***/***K2*** w - - 0 1 hand=C;dropped=w"),
]
