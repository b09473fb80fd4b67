package io.tandem.cli.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link HeadlessChromium} against a real browser; skipped, with the reason, where none is installed. */
@Timeout(60)
class HeadlessChromiumTest {

    private static final int WIDTH = 320;
    private static final int HEIGHT = 240;
    private static final Duration LOAD = Duration.ofSeconds(15);

    private static HeadlessChromium browser;

    @BeforeAll
    static void startBrowser() throws IOException {
        String reason = HeadlessChromium.unavailableReason();
        Assumptions.assumeTrue(reason == null, reason);
        browser = HeadlessChromium.start(WIDTH, HEIGHT);
    }

    @AfterAll
    static void closeBrowser() {
        if (browser != null) {
            browser.close();
            browser = null;
        }
    }

    /** A data: URL of {@code html} (base64: no escaping of '#', '%' or spaces to get wrong). */
    private static String page(String html) {
        return "data:text/html;base64," + Base64.getEncoder().encodeToString(html.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void evaluate_valueComputedByThePage_returnsItAsJson() {
        browser.navigate(page("<!doctype html><title>sums</title><script>"
                + "window.answer = [1, 2, 3].map(x => x * x).reduce((a, b) => a + b, 0);"
                + "</script>"), LOAD);

        assertThat(browser.evaluate("answer")).isEqualTo("14");
        assertThat(browser.evaluate("document.title")).isEqualTo("\"sums\"");
        assertThat(browser.evaluate("'a \"quoted\" \\u00e9 line\\n'")).isEqualTo("\"a \\\"quoted\\\" \u00e9 line\\n\"");
        assertThat(browser.evaluate("({n: answer / 4, list: [true, null, 'x'], nested: {k: -1}})"))
                .isEqualTo("{\"n\":3.5,\"list\":[true,null,\"x\"],\"nested\":{\"k\":-1}}");
        assertThat(browser.evaluate("new Promise(resolve => setTimeout(() => resolve(6 * 7), 10))")).isEqualTo("42");
        assertThat(browser.evaluate("undefined")).isEqualTo("undefined");
        assertThat(browser.evaluate("0 / 0")).isEqualTo("NaN");
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void screenshotPng_webgl2CanvasClearedOrange_isThePageSizeAndOrange() throws IOException {
        browser.navigate(page("<!doctype html><style>html, body { margin: 0; overflow: hidden; background: #fff }"
                + " canvas { display: block }</style><canvas id=c></canvas><script>"
                + "const canvas = document.getElementById('c');"
                + "canvas.width = innerWidth; canvas.height = innerHeight;"
                + "const gl = canvas.getContext('webgl2');"
                + "window.webgl2 = gl !== null;"
                + "if (gl) {"
                + "  window.renderer = gl.getParameter(gl.RENDERER);"
                + "  let frames = 0;"
                + "  (function frame() {"
                + "    gl.clearColor(1.0, 0.5, 0.0, 1.0); gl.clear(gl.COLOR_BUFFER_BIT);"
                + "    if (++frames >= 3) window.drawn = true;"
                + "    requestAnimationFrame(frame);"
                + "  })();"
                + "}"
                + "</script>"), LOAD);

        assertThat(browser.evaluate("webgl2")).as("a WebGL2 context headless (SwiftShader)").isEqualTo("true");
        assertThat(browser.evaluate("renderer")).isNotEqualTo("null");
        assertThat(browser.waitFor("window.drawn === true", Duration.ofSeconds(10))).isTrue();

        BufferedImage shot = ImageIO.read(new ByteArrayInputStream(browser.screenshotPng()));

        assertThat(shot).isNotNull();
        assertThat(shot.getWidth()).isEqualTo(WIDTH);
        assertThat(shot.getHeight()).isEqualTo(HEIGHT);
        int orange = 0;
        for (int y = 0; y < shot.getHeight(); y++) {
            for (int x = 0; x < shot.getWidth(); x++) {
                int rgb = shot.getRGB(x, y);
                int r = (rgb >> 16) & 0xff;
                int g = (rgb >> 8) & 0xff;
                int b = rgb & 0xff;
                if (r >= 250 && Math.abs(g - 128) <= 4 && b <= 5) {
                    orange++;
                }
            }
        }
        assertThat(orange).as("orange pixels of %d x %d (renderer %s)", WIDTH, HEIGHT, browser.evaluate("renderer"))
                .isGreaterThan(WIDTH * HEIGHT * 9 / 10);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void consoleErrors_pageThrowsAndLogsErrors_listsEach() {
        browser.navigate(page("<!doctype html><script>"
                + "console.log('all is well');"
                + "console.error('console says', 7);"
                + "setTimeout(() => { window.timerRan = true; throw new Error('kaput in a timer'); }, 20);"
                + "</script><script>throw new TypeError('kaput while loading');</script>"), LOAD);

        assertThat(browser.waitFor("window.timerRan === true", Duration.ofSeconds(10))).isTrue();

        assertThat(browser.consoleErrors())
                .anySatisfy(e -> assertThat(e).contains("TypeError: kaput while loading"))
                .anySatisfy(e -> assertThat(e).contains("Error: kaput in a timer"))
                .anySatisfy(e -> assertThat(e).contains("console says 7"))
                .noneSatisfy(e -> assertThat(e).contains("all is well"));
    }

    @Test
    void evaluate_throwingExpression_throwsWithTheExpressionAndItsMessage() {
        browser.navigate("about:blank", LOAD);

        assertThatThrownBy(() -> browser.evaluate("(() => { throw new Error('no such gadget'); })()"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("throw new Error")
                .hasMessageContaining("Error: no such gadget");
        assertThatThrownBy(() -> browser.evaluate("Promise.reject(new RangeError('refused'))"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("RangeError: refused");
        assertThatThrownBy(() -> browser.evaluate("notDefinedAnywhere + 1"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("notDefinedAnywhere is not defined");
        // the page goes on
        assertThat(browser.evaluate("1 + 1")).isEqualTo("2");
    }

    @Test
    void waitFor_predicateTurningTrueLater_isTrueAndOneNeverTrue_isFalse() {
        browser.navigate(page("<!doctype html><script>"
                + "setTimeout(() => { window.later = { ready: true }; }, 200);"
                + "</script>"), LOAD);

        // reading a property of the not-yet-made object throws at first: that counts as not yet
        assertThat(browser.waitFor("window.later.ready === true", Duration.ofSeconds(10))).isTrue();
        assertThat(browser.waitFor("1 === 2", Duration.ofMillis(200))).isFalse();
    }
}
