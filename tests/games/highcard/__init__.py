"""High card: a third game that exists only in the tests, to prove the game seam.

Two players a table; each deal both draw a card (1-13) and the higher card wins the deal. Its
whole engine, adapter and templates are in this folder: registering it touches no shared code.
"""
