"""The README is the operator's manual: every setting the code reads must be documented there."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV_READ = re.compile(r'env_(?:str|int|float|bool|choice)\(\s*f?"([A-Z][A-Z0-9_]*)')


def _settings_read_from_env() -> set[str]:
    names = set(ENV_READ.findall((ROOT / "memcenter" / "settings.py").read_text()))
    # The per-task families LLM_MODEL_<TASK> and LLM_MAX_TOKENS_<TASK>, documented as families.
    names -= {"LLM_MODEL_", "LLM_MAX_TOKENS_"}
    return names


def test_every_setting_is_documented_in_the_readme():
    readme = (ROOT / "README.md").read_text()
    missing = sorted(name for name in _settings_read_from_env() if f"`{name}`" not in readme)
    assert not missing, f"settings read from the environment but not documented in README.md: {missing}"
    assert "`LLM_MODEL_<TASK>`" in readme and "`LLM_MAX_TOKENS_<TASK>`" in readme


def test_the_readme_shows_the_two_commands_first():
    readme = (ROOT / "README.md").read_text()
    first_block = readme[: readme.index("```", readme.index("```") + 3)]
    assert "make run" in first_block and "make test" in first_block
