# The one result gate of every directory's `make check` (included by
# mk/common.mk).  `make check` is `make SAN=1 run-tests`: the suites run
# in the ASan+UBSan flavour, their output goes to the terminal and to
# $(B)/tests/last.log, and tests/lib/results.sh passes the directory only
# when the log has exactly the expected number of RESULT lines and none
# reports a failure (a suite that printed nothing fails it).
#
# The directory's Makefile sets (before or after the include, they are
# read when the recipe runs):
#   CMOCKA_TESTS  cmocka binaries; each runs through tests/lib/cmocka-result.sh
#                 as the suite <dir>-<binary name>: one RESULT line each
#   SUITES        shell commands run after them, one line, each ending in ';'
#   SUITE_LINES   how many RESULT lines SUITES prints
# and gives run-tests what they need:  run-tests: $(BIN) $(CMOCKA_TESTS) ...

SUITE_LINES ?= 0

check:
	$(Q)$(MAKE) SAN=1 run-tests

run-tests: | $(B)/tests/
	@{ for t in $(CMOCKA_TESTS); do \
		$(TOP)/tests/lib/cmocka-result.sh $(TF_DIR)-$$(basename $$t) $$t; \
	done; $(SUITES) } 2>&1 | tee $(B)/tests/last.log; \
	$(TOP)/tests/lib/results.sh $(TF_DIR) \
		$$(($(words $(CMOCKA_TESTS)) + $(SUITE_LINES))) $(B)/tests/last.log
