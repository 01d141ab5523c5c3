package io.spindle.bench;

import java.util.List;
import java.util.Map;

/**
 * What the reports say about the run besides the numbers.
 *
 * @param command       the options as given, for "how to reproduce"
 * @param pools         the contenders that ran, in run order
 * @param skipped       a note per contender that could not run, and why
 * @param descriptions  workload name to one line on what it does and at which size
 * @param orderCheck    the order check's result, or null if it was not asked for
 */
public record RunInfo(Options options, String command, List<String> pools, List<String> skipped,
                      Map<String, String> descriptions, double seconds, OrderCheck.Outcome orderCheck) {}
