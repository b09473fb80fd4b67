/** {@code tandem cle}: runs a closed-loop experiment file. */
package io.tandem.cli.cle;
