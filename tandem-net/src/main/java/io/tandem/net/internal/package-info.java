/**
 * Internals of the networked transport: wire codecs, the JGroups control plane (registry and
 * participant membership), the Aeron data plane (per-participant publication, polling agent) and
 * the shared Aeron clients. Not exported.
 */
package io.tandem.net.internal;
