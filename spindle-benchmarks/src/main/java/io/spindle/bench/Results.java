package io.spindle.bench;

import java.util.List;

/**
 * The content of results.json (docs/DESIGN.md §4.4): {@code {"jdk","os","cpus","date","results":[rows]}}.
 *
 * @param date ISO-8601 instant of the run's start
 */
public record Results(String jdk, String os, int cpus, String date, List<Row> results) {
    public Results {
        results = List.copyOf(results);
    }
}
