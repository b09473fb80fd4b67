/**
 * A small JSON reader and writer for experiment files (RFC 8259, no dependency), and a reader of
 * a YAML 1.2 subset into the same tree: every value keeps the line and column it starts at, so
 * later checks can point at it. Not exported.
 */
package io.tandem.cle.internal.json;
