/**
 * Benchmarks behind {@code tandem bench}, contributed to the CLI by
 * {@link io.tandem.bench.BenchCommandProvider}: the {@code bench} command, {@code bench jmh},
 * and the world, closed-loop and brain benchmarks. Sub-packages by what they measure:
 * {@code cosim} (time sync and pub/sub, in process and over Aeron, beside SIL Kit's figures),
 * {@code physics} (pile, chain, solvers, thread scaling, the physics step JMH benchmark);
 * {@code internal} holds what they share (child JVMs, process CPU, progress bars, medians).
 */
package io.tandem.bench;
