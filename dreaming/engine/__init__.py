"""The built-in local rules engine: every dreamer task, offline, deterministic, English and Chinese."""
