package io.tandem.cle.tf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tandem.cle.internal.SuppressForbidden;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

class RedDetectorTest {

    private static int h(int hsv) {
        return hsv >>> 16;
    }

    private static int s(int hsv) {
        return (hsv >>> 8) & 0xff;
    }

    private static int v(int hsv) {
        return hsv & 0xff;
    }

    /** An image whose pixel (x, y) has the colour fill returns for it. */
    private static byte[] image(int w, int hgt, java.util.function.IntBinaryOperator fill) {
        byte[] img = new byte[3 * w * hgt];
        for (int y = 0; y < hgt; y++) {
            for (int x = 0; x < w; x++) {
                int c = fill.applyAsInt(x, y);
                int o = 3 * (y * w + x);
                img[o] = (byte) (c >> 16);
                img[o + 1] = (byte) (c >> 8);
                img[o + 2] = (byte) c;
            }
        }
        return img;
    }

    @Test
    void hsv_primaryColours_openCvValues() {
        // OpenCV 8-bit RGB2HSV: H in 0..179 (degrees / 2)
        assertThat(RedDetector.hsv(255, 0, 0)).isEqualTo(0 << 16 | 255 << 8 | 255);
        assertThat(h(RedDetector.hsv(0, 255, 0))).isEqualTo(60);
        assertThat(h(RedDetector.hsv(0, 0, 255))).isEqualTo(120);
        assertThat(h(RedDetector.hsv(255, 255, 0))).isEqualTo(30);
        assertThat(h(RedDetector.hsv(255, 0, 255))).isEqualTo(150);
        int grey = RedDetector.hsv(128, 128, 128);
        assertThat(h(grey)).isZero();
        assertThat(s(grey)).isZero();
        assertThat(v(grey)).isEqualTo(128);
        assertThat(RedDetector.hsv(0, 0, 0)).isZero();
        // S = 255 (V - min) / V in OpenCV's fixed point: (200, 100, 100) gives 127 (the float value is 127.5)
        assertThat(s(RedDetector.hsv(200, 100, 100))).isEqualTo(127);
    }

    @Test
    void isRed_hueRoundsToZeroOnlyNearPureRed_asOpenCvFixedPoint() {
        // H = round(30 (G - B) / diff): 4 / 255 rounds to 0, 5 / 255 to 1
        assertThat(RedDetector.isRed(255, 4, 0)).isTrue();
        assertThat(RedDetector.isRed(255, 5, 0)).isFalse();
        // blue above green wraps to 179
        assertThat(h(RedDetector.hsv(255, 0, 5))).isEqualTo(179);
        assertThat(RedDetector.isRed(255, 0, 5)).isFalse();
        // tf_lib's docstring: (255, 127, 127) is still red; darker reds too, down to V = 30
        assertThat(RedDetector.isRed(255, 127, 127)).isTrue();
        assertThat(RedDetector.isRed(30, 0, 0)).isTrue();
        assertThat(RedDetector.isRed(29, 0, 0)).isFalse();
        // saturation below 30: (255, 230, 230) has S = 25
        assertThat(RedDetector.isRed(255, 230, 230)).isFalse();
        assertThat(RedDetector.isRed(0, 0, 255)).isFalse();
        assertThat(RedDetector.isRed(180, 180, 180)).isFalse();
    }

    @Test
    void detect_leftHalfRedRightHalfBlue_nrpFractionsAndRates() {
        RedDetector d = new RedDetector();
        d.detect(image(64, 48, (x, y) -> x < 32 ? 0xC80000 : 0x0000C8), 64, 48);
        assertThat(d.redLeftPixels()).isEqualTo(32 * 48);
        assertThat(d.redRightPixels()).isZero();
        assertThat(d.left()).isEqualTo(1.0);
        assertThat(d.right()).isZero();
        assertThat(d.goOn()).isEqualTo(0.5);
        // the Braitenberg TF: 2 * 1000 * red_left / image_size, 75 * non-red share
        assertThat(d.leftRateHz()).isEqualTo(1000.0);
        assertThat(d.rightRateHz()).isZero();
        assertThat(d.goOnRateHz()).isEqualTo(37.5);
    }

    @Test
    void detect_quarterOfRightHalfRed_fractionsOfHalves() {
        RedDetector d = new RedDetector();
        // odd width: the left half is columns [0, 3), the right half [3, 7), as numpy's [:, :w // 2]
        d.detect(image(7, 4, (x, y) -> x >= 3 && y == 0 ? 0xFF0000 : 0x00FF00), 7, 4);
        assertThat(d.redRightPixels()).isEqualTo(4);
        assertThat(d.right()).isCloseTo(2.0 * 4 / 28, within(1e-15));
        assertThat(d.goOn()).isCloseTo(24.0 / 28, within(1e-15));
        // a fully red image: (1, 1, 0) as tf_lib's docstring says
        d.detect(image(8, 2, (x, y) -> 0xFF0000), 8, 2);
        assertThat(d.left()).isEqualTo(1.0);
        assertThat(d.right()).isEqualTo(1.0);
        assertThat(d.goOn()).isZero();
        // a fully yellow image: (0, 0, 1)
        d.detect(image(8, 2, (x, y) -> 0xFFFF00), 8, 2);
        assertThat(d.left()).isZero();
        assertThat(d.goOn()).isEqualTo(1.0);
    }

    @Test
    void detect_bufferTooSmall_rejected() {
        assertThatThrownBy(() -> new RedDetector().detect(new byte[10], 2, 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs 12 bytes, got 10");
    }

    @Test
    @SuppressForbidden
    void detect_afterWarmUp_allocatesNothing() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        byte[] img = image(160, 120, (x, y) -> (x * 37 + y * 11) % 3 == 0 ? 0xFF0000 : 0x2040FF);
        RedDetector d = new RedDetector();
        double sink = 0;
        for (int k = 0; k < 200; k++) {
            d.detect(img, 160, 120);
            sink += d.left() + d.right() + d.goOn();
        }
        long before = mx.getCurrentThreadAllocatedBytes();
        for (int k = 0; k < 200; k++) {
            d.detect(img, 160, 120);
            sink += d.left() + d.right() + d.goOn();
        }
        assertThat(mx.getCurrentThreadAllocatedBytes() - before).as("bytes allocated by 200 detections").isLessThan(1000);
        assertThat(sink).isPositive();
    }
}
