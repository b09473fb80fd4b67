/** Internals of tandem-world (XML with line numbers). Not exported. */
package io.tandem.world.internal;
