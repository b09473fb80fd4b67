package io.tandem.net.internal;

import io.tandem.cosim.TandemException;
import io.tandem.net.NetConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The group's shared secret ({@link NetConfig#secretFile()}), as two keys derived from it with
 * HMAC-SHA256 under distinct labels (RFC 5869's extract step, salt = label): one for joining the
 * JGroups group ({@link SecretToken}), one for signing frames ({@link FrameTag}). Immutable and
 * thread-safe; the file is read once, at {@link #load}.
 */
final class SharedSecret {
    private final byte[] joinKey;
    private final byte[] frameKey;
    /** where it came from, for messages */
    private final String source;

    private SharedSecret(byte[] secret, String source) {
        this.joinKey = derive(secret, "tandem join v1");
        this.frameKey = derive(secret, "tandem frames v1");
        this.source = source;
    }

    /**
     * @return the configuration's secret, or null when it has none
     * @throws TandemException if the file cannot be read
     */
    static SharedSecret load(NetConfig config) {
        if (config.secretFile() == null) {
            return null;
        }
        byte[] secret;
        try {
            secret = Files.readAllBytes(config.secretFile());
        } catch (IOException e) {
            throw new TandemException("cannot read the shared secret file " + config.secretFile() + ": " + e.getMessage(), e);
        }
        try {
            return new SharedSecret(secret, config.secretFile().toString());
        } finally {
            Arrays.fill(secret, (byte) 0);
        }
    }

    /** @return a secret from bytes (tests) */
    static SharedSecret of(String secret) {
        return new SharedSecret(secret.getBytes(StandardCharsets.UTF_8), "a test secret");
    }

    /** @return a new frame signer with the frame key (one per thread) */
    FrameTag frameTag() {
        return new FrameTag(frameKey);
    }

    /** @return the join key (a copy) */
    byte[] joinKey() {
        return joinKey.clone();
    }

    /** @return the file it was read from */
    String source() {
        return source;
    }

    private static byte[] derive(byte[] secret, String label) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(label.getBytes(StandardCharsets.US_ASCII), "HmacSHA256"));
            return mac.doFinal(secret);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no HmacSHA256", e);
        }
    }
}
