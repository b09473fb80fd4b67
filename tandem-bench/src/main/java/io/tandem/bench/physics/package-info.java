/**
 * Physics benchmarks on the reference scenes: {@code bench pile} (1000 spheres into a box),
 * {@code bench chain} (a 50-link ball-joint chain), {@code bench solvers} and {@code bench scaling}
 * (threads), and the {@code PhysicsStepBenchmark} JMH benchmark.
 */
package io.tandem.bench.physics;
