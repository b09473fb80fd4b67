package io.tandem.cosim.rpc;

import io.tandem.cosim.MatchingLabel;
import java.util.List;
import java.util.Objects;

/**
 * What an RPC server offers or an RPC client calls: a function name (matched exactly), a media
 * type and labels. An empty client media type matches every server media type.
 *
 * @param functionName function name, non-empty
 * @param mediaType    media type; empty on a client is a wildcard
 * @param labels       matching labels; copied
 */
public record RpcSpec(String functionName, String mediaType, List<MatchingLabel> labels) {

    /** Validates eagerly and copies the label list. */
    public RpcSpec {
        Objects.requireNonNull(functionName, "function name must not be null");
        if (functionName.isEmpty()) {
            throw new IllegalArgumentException("function name must not be empty");
        }
        Objects.requireNonNull(mediaType, "media type must not be null (use \"\" for any)");
        labels = List.copyOf(Objects.requireNonNull(labels, "labels must not be null (use List.of())"));
    }

    /**
     * @param functionName function name
     * @param mediaType    media type
     * @return a spec without labels
     */
    public static RpcSpec of(String functionName, String mediaType) {
        return new RpcSpec(functionName, mediaType, List.of());
    }
}
