/**
 * Benchmarks behind {@code tandem bench}: the {@code timesync} scenario harness (wall-clock
 * steps/s of in-process lockstep, comparable with SIL Kit's {@code SilKitDemoBenchmark}) and the
 * JMH benchmarks ({@code tandem bench jmh}). Contributed to the CLI by
 * {@link io.tandem.bench.BenchCommandProvider}.
 */
package io.tandem.bench;
