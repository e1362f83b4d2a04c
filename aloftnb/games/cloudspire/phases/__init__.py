"""Cloudspire's phases, one module each, in the order of a wave (rules.FLOW declares them):
market.py (event, income and market), build.py, prep.py and onslaught.py (with march.py, how
units move in its move stage). Each holds its phase's begin, its turns, the handlers of its
actions, its legal decisions and its refusals."""
