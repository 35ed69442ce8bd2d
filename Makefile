# memcenter — two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
DATASETS ?= ../shared/datasets

.PHONY: setup run test bench stress migrate clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet '.[dev]'
	touch $(STAMP)

# collectstatic: the static files whitenoise serves (`serve --prod` collects again with hashed names).
setup: $(STAMP)
	DJANGO_DEBUG=1 $(PY) manage.py collectstatic --noinput -v0

migrate: setup
	DJANGO_DEBUG=1 $(PY) manage.py migrate --noinput

# Sets up everything, loads the demo, dreams it once, then serves the memory center on
# http://127.0.0.1:8000 with the django-q2 cluster. Ctrl-C stops both, and with them Postgres.
run: migrate
	DJANGO_DEBUG=1 $(PY) manage.py demo
	DJANGO_DEBUG=1 MEMCENTER_SIGNUP_ENABLED=1 $(PY) manage.py serve --addr 127.0.0.1:8000

test: setup
	$(VENV)/bin/lint-imports --no-cache
	$(PY) -m pytest $(PYTEST_ARGS)

bench: migrate
	DJANGO_DEBUG=1 $(PY) -m bench --datasets $(DATASETS) $(BENCH_ARGS)

stress: setup
	$(PY) -m pytest -m stress tests/stress $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) .data staticfiles
