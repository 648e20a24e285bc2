# Two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench clean realdata

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

SAMPLE := sample_data/club-evening.pbn sample_data/club-evening-travellers.csv --names sample_data/club-evening-names.csv
DEMO_OUT := out/results.xlsx out/results.pbn out/results.csv

demo: $(STAMP)
	$(BIN)/bridgeproc score $(SAMPLE) $(addprefix -o ,$(DEMO_OUT))
	@echo "Wrote $(DEMO_OUT)"
	@echo "The same evening with typing mistakes, for the check command:"
	-$(BIN)/bridgeproc check sample_data/club-evening.pbn sample_data/with-problems/club-evening-travellers.csv

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	for script in bench/bench_*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

# New real files arrive in ../shared/realdata: copy them into tests/data/realdata and list their checksums.
realdata:
	$(PYTHON) tools/realdata.py sync

clean:
	rm -rf $(VENV) out build *.egg-info
