/**
 * Text helpers shared by every module's error messages: {@link io.tandem.cosim.text.Suggestions}
 * finds the names close to a misspelled one ("did you mean ...?").
 */
package io.tandem.cosim.text;
