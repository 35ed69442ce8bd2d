"""Placeholder: the fake OpenAI / Voyage wire-format server and its pytest fixtures land here."""
