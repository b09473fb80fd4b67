/**
 * A small JSON reader and writer for experiment files (RFC 8259, no dependency): every value keeps
 * the line and column it starts at, so later checks can point at it. Not exported.
 */
package io.tandem.cle.internal.json;
