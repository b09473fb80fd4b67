/**
 * A small JSON reader and writer for experiment files (RFC 8259, no dependency), and a reader of
 * YAML 1.2 (snakeyaml-engine's parser) into the same tree: every value keeps the line and column it
 * starts at, so later checks can point at it. Not exported.
 */
package io.tandem.cle.internal.json;
