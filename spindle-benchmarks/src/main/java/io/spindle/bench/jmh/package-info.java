/**
 * JMH microbenchmarks of single operations, each beside its nearest ForkJoinPool equivalent. Build with
 * {@code mvn package} and run {@code java -jar bench/target/benchmarks.jar -f 1 -wi 2 -i 3} (add a regex to pick
 * some, e.g. {@code Deque}). They use Spindle's internal classes (deque, latches), which are public classes in
 * packages the {@code io.spindle} module does not export: run them on the class path, as the jar does.
 *
 * <p>Batched benchmarks ({@code @OperationsPerInvocation}) do many operations per call so that a pool round trip
 * needed to get onto a worker thread is paid once per batch, not per operation.
 */
package io.spindle.bench.jmh;
