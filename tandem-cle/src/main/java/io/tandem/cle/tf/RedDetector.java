package io.tandem.cle.tf;

/*
 * Implementation notes.
 *
 * The NRP's red detection (hbp_nrp_cle tf_framework/tf_lib.py detect_red, used by the Husky
 * Braitenberg experiment's eye_sensor_transmit TF and NRP-core's cam_pf): OpenCV
 * cvtColor(RGB2HSV) on 8-bit pixels, inRange(lower [0, 30, 30], upper [0, 255, 255]), count
 * the mask in the left half (columns [0, W / 2)) and the right half ([W / 2, W)).
 *
 * The HSV conversion is OpenCV's 8-bit fixed-point one (RGB2HSV_b, H in 0..179), so the mask is
 * the same pixel for pixel, not a float approximation: with hsv_shift = 12,
 *   V = max(R, G, B), diff = V - min(R, G, B),
 *   S = (diff * round((255 << 12) / V) + 2^11) >> 12            (0 when V = 0),
 *   h = G - B if V = R, else B - R + 2 diff if V = G, else R - G + 4 diff,
 *   H = (h * round((180 << 12) / (6 diff)) + 2^11) >> 12, plus 180 if negative  (0 when diff = 0).
 * Red for the mask means H = 0 exactly, S >= 30, V >= 30: so (255, 127, 127) is the lightest red
 * (tf_lib's docstring), and a red with a little more green than blue still rounds to H = 0.
 */

/**
 * The NRP's red detector: for an RGB image, the share of red pixels in its left and right halves
 * and the share of non-red pixels, as {@code tf_lib.detect_red} computes them (OpenCV's 8-bit HSV,
 * red = H 0, S and V at least 30). Reuse one detector per camera: {@link #detect} allocates
 * nothing and keeps its results until the next call. Not thread-safe.
 */
public final class RedDetector {
    private static final int SHIFT = 12;
    private static final int[] SDIV = new int[256];
    private static final int[] HDIV = new int[256];

    static {
        for (int i = 1; i < 256; i++) {
            SDIV[i] = (int) Math.round((255 << SHIFT) / (1.0 * i));
            HDIV[i] = (int) Math.round((180 << SHIFT) / (6.0 * i));
        }
    }

    private int redLeft;
    private int redRight;
    private int pixels;

    /**
     * Counts the red pixels of an image.
     *
     * @param rgb    R, G, B bytes per pixel, row-major (as {@link io.tandem.world.robot.RayCastCamera#render} writes); not modified
     * @param width  pixels
     * @param height pixels
     * @throws IllegalArgumentException if the buffer holds fewer than width x height pixels
     */
    public void detect(byte[] rgb, int width, int height) {
        if (width < 0 || height < 0 || rgb.length < 3L * width * height) {
            throw new IllegalArgumentException("image of " + width + " x " + height + " pixels needs "
                    + (3L * width * height) + " bytes, got " + rgb.length);
        }
        int half = width / 2;
        int left = 0;
        int right = 0;
        int o = 0;
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                if (isRed(rgb[o] & 0xff, rgb[o + 1] & 0xff, rgb[o + 2] & 0xff)) {
                    if (x < half) {
                        left++;
                    } else {
                        right++;
                    }
                }
                o += 3;
            }
        }
        redLeft = left;
        redRight = right;
        pixels = width * height;
    }

    /** @return red pixels in the left half of the last image */
    public int redLeftPixels() {
        return redLeft;
    }

    /** @return red pixels in the right half of the last image */
    public int redRightPixels() {
        return redRight;
    }

    /** @return detect_red's {@code left}: 2 x red left pixels / image size (the red share of the left half), 0 for no image */
    public double left() {
        return pixels == 0 ? 0 : 2.0 * redLeft / pixels;
    }

    /** @return detect_red's {@code right}: 2 x red right pixels / image size */
    public double right() {
        return pixels == 0 ? 0 : 2.0 * redRight / pixels;
    }

    /** @return detect_red's {@code go_on}: non-red pixels / image size (0 for no image, as detect_red) */
    public double goOn() {
        return pixels == 0 ? 0 : (double) (pixels - redLeft - redRight) / pixels;
    }

    /** @return the Braitenberg TF's red_left_eye rate, Hz: 2 x 1000 x red left pixels / image size */
    public double leftRateHz() {
        return 1000 * left();
    }

    /** @return the Braitenberg TF's red_right_eye rate, Hz: 2 x 1000 x red right pixels / image size */
    public double rightRateHz() {
        return 1000 * right();
    }

    /** @return the Braitenberg TF's green_blue_eye rate, Hz: 75 x non-red pixels / image size */
    public double goOnRateHz() {
        return 75 * goOn();
    }

    /**
     * @param r red 0..255
     * @param g green 0..255
     * @param b blue 0..255
     * @return whether OpenCV's 8-bit HSV of the pixel is within [0, 30, 30] .. [0, 255, 255]
     */
    public static boolean isRed(int r, int g, int b) {
        int hsv = hsv(r, g, b);
        return (hsv >>> 16) == 0 && ((hsv >>> 8) & 0xff) >= 30 && (hsv & 0xff) >= 30;
    }

    /**
     * OpenCV's {@code cvtColor(COLOR_RGB2HSV)} of one 8-bit pixel.
     *
     * @param r red 0..255
     * @param g green 0..255
     * @param b blue 0..255
     * @return H (0..179) &lt;&lt; 16 | S (0..255) &lt;&lt; 8 | V (0..255)
     */
    public static int hsv(int r, int g, int b) {
        int v = Math.max(r, Math.max(g, b));
        int min = Math.min(r, Math.min(g, b));
        int diff = v - min;
        int s = (diff * SDIV[v] + (1 << (SHIFT - 1))) >> SHIFT;
        int h;
        if (v == r) {
            h = g - b;
        } else if (v == g) {
            h = b - r + 2 * diff;
        } else {
            h = r - g + 4 * diff;
        }
        h = (h * HDIV[diff] + (1 << (SHIFT - 1))) >> SHIFT;
        if (h < 0) {
            h += 180;
        }
        return h << 16 | s << 8 | v;
    }
}
