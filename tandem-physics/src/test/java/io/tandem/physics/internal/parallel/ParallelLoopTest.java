package io.tandem.physics.internal.parallel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ParallelLoopTest {
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5})
    void run_manyLoopsOfManySizes_everyItemOnceWithItsChunk(int threads) {
        int[] hits = new int[5000];
        int[] chunkOf = new int[5000];
        try (ParallelLoop loop = ParallelLoop.withThreads(threads)) {
            for (int rep = 0; rep < 2000; rep++) {
                int n = (rep * 7919) % hits.length;
                Arrays.fill(hits, 0, n, 0);
                loop.run(n, (lo, hi, chunk) -> {
                    for (int i = lo; i < hi; i++) {
                        hits[i]++;
                        chunkOf[i] = chunk;
                    }
                });
                for (int i = 0; i < n; i++) {
                    assertThat(hits[i]).as("item %d of %d, loop %d", i, n, rep).isEqualTo(1);
                    assertThat(chunkOf[i]).isEqualTo(i / ParallelLoop.CHUNK);
                }
            }
        }
    }

    @Test
    void run_chunkThrows_rethrownOnTheCallerAndTheLoopStaysUsable() {
        try (ParallelLoop loop = ParallelLoop.withThreads(2)) {
            assertThatThrownBy(() -> loop.run(1000, (lo, hi, chunk) -> {
                if (chunk == 7) {
                    throw new IllegalStateException("chunk 7 failed");
                }
            })).isInstanceOf(IllegalStateException.class).hasMessage("chunk 7 failed");
            int[] count = new int[1];
            loop.run(100, (lo, hi, chunk) -> {
                synchronized (count) {
                    count[0] += hi - lo;
                }
            });
            assertThat(count[0]).isEqualTo(100);
        }
    }

    @Test
    void run_afterClose_throws() {
        ParallelLoop loop = ParallelLoop.withThreads(2);
        loop.close();
        assertThatThrownBy(() -> loop.run(1000, (lo, hi, chunk) -> { }))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void withThreads_zero_throws() {
        assertThatThrownBy(() -> ParallelLoop.withThreads(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
