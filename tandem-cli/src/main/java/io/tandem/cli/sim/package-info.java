/** {@code tandem sim}: runs an SDF world (the world runner of tandem-world). */
package io.tandem.cli.sim;
