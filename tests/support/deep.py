"""Deep-sleep test helper: a dreamer that answers compare from a script and records what it narrated."""
from dreaming.protocol import Comparison
from dreaming.providers.local_embedder import LocalEmbedder

EMBEDDER = LocalEmbedder(dimensions=512)


class ScriptedDreamer:
    """Stands in for the model. compare answers from a script {new statement: (relation, memory statement)}."""

    name = "scripted"

    def __init__(self, relations=None):
        self.relations = relations or {}
        self.compared, self.narrated = [], []

    def compare(self, *, statements, memories, ctx, said_at=None):
        self.compared.append((list(statements), [m.statement for m in memories]))
        answers = []
        for index, statement in enumerate(statements):
            relation, target = self.relations.get(statement, ("new", None))
            memory = next((m for m in memories if m.statement == target), None)
            answers.append(Comparison(index=index, relation=relation, memory_id=memory.id if memory else None,
                                      reason="scripted evidence"))
        return answers

    def merge(self, *, statements, ctx):
        return max(statements, key=len)

    def narrate(self, *, changes, ctx):
        self.narrated.append(changes)
        return f"learned {changes.learned}; reinforced {changes.reinforced}; changed {changes.changed}; pending {changes.pending}"
