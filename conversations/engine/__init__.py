"""The engine that runs flows: ``Engine`` (``runner``) over one ``TurnRun`` per turn
(``turn_run``: answers, commands, create and recovery), which walks the graph (``walker``),
keeps the answers (``ledger``) and draws questions into prompts (``prompting``)."""

from conversations.engine.runner import Engine

__all__ = ["Engine"]
