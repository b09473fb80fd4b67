package io.tandem.physics.internal.collision;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks test code allowed to use an API the forbidden-apis check bans: com.sun.management in the
 * allocation test, the console in the by-hand measurement tool.
 */
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.TYPE, ElementType.METHOD})
@interface SuppressForbidden {
}
