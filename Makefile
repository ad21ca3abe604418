# openspu — top Makefile. `make help` lists the targets.
# Everything generated goes to build/.

SHELL := /bin/bash
.DEFAULT_GOAL := help

# ------------------------------------------------------------------ tools
CC        ?= gcc
CXX       ?= g++
PYTHON    ?= python3
VERILATOR ?= verilator
IVERILOG  ?= iverilog
VVP       ?= vvp

# ------------------------------------------------------------------ flags
CSTD      := -std=c11
# Warnings are errors: the model is a reference, a warning is a bug report.
CWARN     := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Werror
# -O2 for speed; -g so a crash report or perf profile names lines.
COPT      ?= -O2 -g
# POSIX for clock_gettime/isatty/strtok_r in the front ends.
CDEFS     := -D_POSIX_C_SOURCE=200809L
CFLAGS_ALL = $(CSTD) $(CWARN) $(COPT) $(CDEFS) -Igolden -Itb -Icsim -I$(GEN)

# ------------------------------------------------------------------ layout
BUILD     := build
GEN       := $(BUILD)/gen
OBJ       := $(BUILD)/obj
CONFIGS   := v1 v1p4 wide v1-alt wide-alt
CFG_SRC   := configs/spu.toml
GEN_C     := $(GEN)/spu_config.h $(GEN)/spu_config.c $(GEN)/dump_cfg.c
GEN_V     := $(foreach c,$(CONFIGS),$(GEN)/$(c)/spu_config.vh)

GOLDEN_SRC := $(wildcard golden/*.c) $(GEN)/spu_config.c
HARN_SRC   := tb/spt.c tb/spl.c tb/core.c tb/run.c tb/gen.c tb/gen_prog.c tb/gen_params.c tb/opts.c
CSIM_SRC   := $(wildcard csim/*.c)
SPEC_SRC   := $(wildcard tests/spec/*.c)
HDRS       := $(wildcard golden/*.h tb/*.h csim/*.h tests/spec/*.h) $(GEN)/spu_config.h

objs = $(patsubst %.c,$(OBJ)/%.o,$(notdir $(1)))
vpath %.c golden tb csim tests/spec $(GEN)

.PHONY: help gen check-gen csim lint test run bench-csim bench deps clean

help: ## this list
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | awk -F'\t' '{printf "  make %-12s %s\n", $$1, $$2}'

# ------------------------------------------------------------------ generation
gen: $(GEN_C) $(GEN_V) ## expand configs/spu.toml into the C header and Verilog includes

$(GEN_C) $(GEN_V) &: $(CFG_SRC) tools/gen_config.py
	$(PYTHON) tools/gen_config.py $(CFG_SRC) $(GEN)

check-gen: gen ## prove the C and Verilog expansions agree and are up to date
	@tests/check_gen.sh

# ------------------------------------------------------------------ C programs
$(OBJ)/%.o: %.c $(HDRS) | $(GEN_C)
	@mkdir -p $(OBJ)
	$(CC) $(CFLAGS_ALL) -c $< -o $@

$(BUILD)/libspugolden.a: $(call objs,$(GOLDEN_SRC))
	ar rcs $@ $^

$(BUILD)/libspuharness.a: $(call objs,$(HARN_SRC))
	ar rcs $@ $^

csim: $(BUILD)/spu-csim ## build the golden-model simulator

$(BUILD)/spu-csim: $(call objs,$(CSIM_SRC)) $(BUILD)/libspuharness.a $(BUILD)/libspugolden.a
	$(CC) $(COPT) -o $@ $^

$(BUILD)/spu-spec-tests: $(call objs,$(SPEC_SRC)) $(BUILD)/libspuharness.a $(BUILD)/libspugolden.a
	$(CC) $(COPT) -o $@ $^

# ------------------------------------------------------------------ main jobs
run: csim ## the main job (see README)
	$(BUILD)/spu-csim --config v1p4 --seed 1 --ops 20000000 --quiet --stats

test: csim $(BUILD)/spu-spec-tests ## every test suite; ends with "N passed, N failed"
	@tests/run_tests.sh

lint: gen ## C with every warning as an error, and the RTL with verilator -Wall
	@tools/lint.sh

bench-csim: csim ## csim population members per second (one core)
	@tools/bench_csim.sh

deps: ## install what a fresh machine lacks (used by targets that need it)
	@tools/deps.sh

clean: ## remove build/
	rm -rf $(BUILD)
