package dev.oneread.tests.runner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.auth.SigningKey;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The run's signing key: made once, whatever runs start at the same time. */
class SigningKeyTest {

    @Test
    void twoFirstRuns_shouldEndWithOneKey_whenBothSawNoFile(@TempDir Path dir) throws Exception {
        // GIVEN two first runs of `token` (or start-api) on one data directory, both past their check for a key
        // file; run A makes its key and reads it, and only then does run B write the key it made
        Path file = SigningKey.fileFor(dir, dir);
        CountDownLatch aHasItsKey = new CountDownLatch(1);
        // (a thread each: the common pool may have a single thread on a small machine)
        java.util.concurrent.ExecutorService runs = java.util.concurrent.Executors.newFixedThreadPool(2);
        CompletableFuture<byte[]> a = CompletableFuture.supplyAsync(
                () -> {
                    try {
                        SigningKey.createUnlessPresent(file);
                        return SigningKey.loadOrCreate(file);
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    } finally {
                        aHasItsKey.countDown();
                    }
                },
                runs);
        CompletableFuture<byte[]> b = CompletableFuture.supplyAsync(
                () -> {
                    try {
                        aHasItsKey.await();
                        SigningKey.createUnlessPresent(file);
                        return SigningKey.loadOrCreate(file);
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                },
                runs);
        runs.shutdown();
        // THEN both sign with the same key, the one in the file (a token of one verifies in the other)
        assertThat(b.get())
                .as("the key run B reads is the key run A already signs with")
                .isEqualTo(a.get());
        assertThat(SigningKey.loadOrCreate(file)).isEqualTo(a.get());
        assertThat(dir.toFile().list()).as("no temporary file left").containsExactly(SigningKey.FILE_NAME);
    }
}
