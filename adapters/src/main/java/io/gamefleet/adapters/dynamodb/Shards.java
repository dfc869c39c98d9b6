package io.gamefleet.adapters.dynamodb;

import io.gamefleet.catalog.Tables;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.IntFunction;

/**
 * One request per shard of a group ({@link Tables#GAME_SERVER_SHARDS}, or those its servers can
 * be in), sent together, so reading every shard takes about as long as reading one. The threads
 * are daemons, made on first use (a read of one shard makes none). The very first fan-out of a
 * fresh JVM sends its first shard alone first: then the SDK's classes load once, not in sixteen
 * threads at the same time.
 */
final class Shards {
    private static final class Pool {
        static final ExecutorService EXECUTOR = Executors.newFixedThreadPool(Tables.GAME_SERVER_SHARDS, r -> {
            Thread t = new Thread(r, "gamefleet-shard-query");
            t.setDaemon(true);
            return t;
        });
    }

    private static volatile boolean warm;

    private Shards() {}

    /** The answers of {@code request} for every shard, in shard order; the first failure is thrown. */
    static <T> List<T> queryAll(IntFunction<T> request) {
        return query(0, Tables.GAME_SERVER_SHARDS, request);
    }

    /**
     * The answers of {@code request} for the shards from {@code from} up to {@code to} (not
     * included), in shard order; the first failure is thrown. One shard is read on the caller's
     * thread alone.
     */
    static <T> List<T> query(int from, int to, IntFunction<T> request) {
        List<T> answers = new ArrayList<>();
        if (from >= to) {
            return answers;
        }
        T first = null;
        if (!warm) {
            first = request.apply(from);
            warm = true;
        }
        List<CompletableFuture<T>> futures = new ArrayList<>();
        for (int shard = from + 1; shard < to; shard++) {
            int s = shard;
            futures.add(CompletableFuture.supplyAsync(() -> request.apply(s), Pool.EXECUTOR));
        }
        answers.add(first != null ? first : request.apply(from)); // on the caller's thread meanwhile
        for (CompletableFuture<T> f : futures) {
            try {
                answers.add(f.join());
            } catch (CompletionException e) {
                if (e.getCause() instanceof RuntimeException r) {
                    throw r;
                }
                throw e;
            }
        }
        return answers;
    }
}
