package io.tandem.net.internal;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jgroups.Address;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.auth.AuthToken;
import org.jgroups.util.UUID;

/**
 * The JGroups AUTH token of a group with a shared secret: a fresh 16-byte nonce and the first 16
 * bytes of HMAC-SHA256(join key, sender's address || nonce). The coordinator checks a joiner's, and
 * the joiner the coordinator's answer (AUTH's {@code auth_coord}), so neither side joins a group
 * without the secret. It proves knowledge of the secret without revealing it; a captured token
 * names its sender's address, so it is of no use to another member.
 *
 * <p>Public, with a public no-argument constructor, because JGroups instantiates received tokens
 * by reflection; a received token holds no key and authenticates nothing. Thread-safe.
 */
public final class SecretToken extends AuthToken {
    private static final int NONCE = 16;
    private static final int MAC = 16;
    private static final SecureRandom RANDOM = new SecureRandom();
    /** the join key; null in a received token */
    private final byte[] key;
    /** the channel it authenticates (whose address the MAC names); null in a received token */
    private volatile JChannel channel;
    /** a received token's nonce and MAC */
    private final byte[] proof = new byte[NONCE + MAC];

    /** For JGroups, which creates received tokens through it. */
    public SecretToken() {
        this.key = null;
    }

    SecretToken(byte[] key) {
        this.key = key.clone();
    }

    /** Sets the channel whose address the token names (AUTH itself does not learn it). */
    void channel(JChannel ch) {
        channel = ch;
    }

    @Override
    public String getName() {
        return "tandem-secret";
    }

    @Override
    public int size() {
        return NONCE + MAC;
    }

    @Override
    public boolean authenticate(AuthToken token, Message msg) {
        if (key == null || !(token instanceof SecretToken received)) {
            return false;
        }
        byte[] nonce = new byte[NONCE];
        System.arraycopy(received.proof, 0, nonce, 0, NONCE);
        byte[] expected = mac(key, msg.getSrc(), nonce);
        byte[] got = new byte[MAC];
        System.arraycopy(received.proof, NONCE, got, 0, MAC);
        return MessageDigest.isEqual(expected, got);
    }

    @Override
    public void writeTo(DataOutput out) throws IOException {
        if (key == null) {
            out.write(proof); // a received token passed on: as it came
            return;
        }
        byte[] nonce = new byte[NONCE];
        RANDOM.nextBytes(nonce);
        JChannel ch = channel;
        Address self = ch == null ? null : ch.getAddress();
        out.write(nonce);
        out.write(mac(key, self, nonce));
    }

    @Override
    public void readFrom(DataInput in) throws IOException {
        in.readFully(proof);
    }

    private static byte[] mac(byte[] key, Address address, byte[] nonce) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            byte[] id = new byte[16];
            if (address instanceof UUID u) {
                putLong(id, 0, u.getMostSignificantBits());
                putLong(id, 8, u.getLeastSignificantBits());
            }
            mac.update(id);
            mac.update(nonce);
            byte[] full = mac.doFinal();
            byte[] cut = new byte[MAC];
            System.arraycopy(full, 0, cut, 0, MAC);
            return cut;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no HmacSHA256", e);
        }
    }

    private static void putLong(byte[] b, int at, long v) {
        for (int i = 0; i < 8; i++) {
            b[at + i] = (byte) (v >>> (8 * i));
        }
    }

    @Override
    public String toString() {
        return "SecretToken";
    }
}
