/**
 * The closed loop's internals, not exported: the default wall clock of the timing figures and
 * the forbidden-apis marker.
 */
package io.tandem.cle.internal;
