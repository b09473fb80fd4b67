/** Built-in demonstrations behind {@code tandem demo}. */
package io.tandem.cli.demo;
