/**
 * What the benchmarks share: their child JVMs (over cosim's {@code ChildJvm}), process CPU time,
 * progress bars and medians.
 */
package io.tandem.bench.internal;
