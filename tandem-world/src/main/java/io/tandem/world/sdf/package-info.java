/**
 * Reading SDF worlds (MuJoCo's {@code src/xml}): {@code SdfLoader} reads SDF 1.6-1.11 into an
 * immutable {@link io.tandem.world.World}, reporting file:line for what it cannot use; its XML
 * reader (the JDK's SAX with line numbers, DTDs off) is package-private.
 */
package io.tandem.world.sdf;
