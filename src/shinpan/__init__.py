"""shinpan (審判): the penalty system judges run at card-game tournaments."""

__version__ = "0.1.0"
