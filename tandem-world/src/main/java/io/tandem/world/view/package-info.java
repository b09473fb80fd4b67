/**
 * What a viewer is shown, live or from a recording: the {@link io.tandem.world.view.SceneDescription}
 * (every rendered entity with its visuals, the levels and performers, sent once) and the compact
 * binary {@link io.tandem.world.view.PoseFrame} of the moving entities' poses (sent at the display
 * rate, and recorded every iteration on MCAP's {@code /tandem/frames}, so a replay decodes the same
 * bytes as the live page).
 */
package io.tandem.world.view;
