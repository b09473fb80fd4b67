package io.tandem.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import javax.imageio.ImageIO;

/** The bench tests' checks of a {@code --plot} figure: a PNG of the expected size with something drawn. */
public final class PngCheck {
    private PngCheck() {
    }

    /**
     * Asserts that {@code file} is a PNG ImageIO reads, {@code width} x {@code height} pixels, with
     * more than 20 colours (axes, text, marks: not blank).
     *
     * @return the image
     */
    public static BufferedImage assertFigure(Path file, int width, int height) throws IOException {
        assertThat(file).exists();
        BufferedImage img = ImageIO.read(file.toFile());
        assertThat(img).as("a PNG ImageIO reads: %s", file).isNotNull();
        assertThat(img.getWidth()).isEqualTo(width);
        assertThat(img.getHeight()).isEqualTo(height);
        assertThat(colours(img)).as("colours drawn in %s", file).isGreaterThan(20);
        return img;
    }

    /** @return the distinct colours of every other pixel of every other row */
    public static int colours(BufferedImage img) {
        Set<Integer> seen = new HashSet<>();
        for (int y = 0; y < img.getHeight(); y += 2) {
            for (int x = 0; x < img.getWidth(); x += 2) {
                seen.add(img.getRGB(x, y));
            }
        }
        return seen.size();
    }
}
