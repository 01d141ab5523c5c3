package io.spindle.bench;

import java.util.List;
import java.util.Map;

/**
 * What the reports say about the run besides the numbers.
 *
 * @param command       the options as given, for "how to reproduce"
 * @param pools         the contenders that ran, in run order
 * @param skipped       a note per contender that could not run, and why
 * @param joins         the join strategy of each Spindle pool and the heartbeat of the lazy ones, one line of
 *                      Markdown-ish text (`code` spans only); empty without Spindle pools
 * @param notes         lines on what this run could not measure (bytes_per_join on a JVM that cannot count them)
 * @param descriptions  workload name to one line on what it does and at which size
 * @param orderCheck    the order check's result, or null if it was not asked for
 */
public record RunInfo(Options options, String command, List<String> pools, List<String> skipped, String joins,
                      List<String> notes, Map<String, String> descriptions, double seconds,
                      OrderCheck.Outcome orderCheck) {}
