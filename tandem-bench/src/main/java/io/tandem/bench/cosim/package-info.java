/**
 * Co-simulation benchmarks: {@code bench timesync} (steps/s of coordinated participants, SIL
 * Kit's {@code SilKitDemoBenchmark}, in process or one JVM per participant over Aeron),
 * {@code bench pubsub} (round trips between two processes) and the {@code TimeSyncBenchmark} JMH
 * benchmark.
 */
package io.tandem.bench.cosim;
