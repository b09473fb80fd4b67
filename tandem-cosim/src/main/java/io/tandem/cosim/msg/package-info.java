/** Messages exchanged between participants: records grouped under one sealed interface. */
package io.tandem.cosim.msg;
